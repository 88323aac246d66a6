//! The game server: TLS connections, accounts, games refereed by the engine, clocks,
//! spectators, chat and the archive.
//!
//! Each connection has a reading task and a writing task. The state of every game sits
//! behind one lock, taken only for the synchronous work of a message (no `.await` while
//! it is held); password hashing and computer moves run on blocking threads outside it.
//! A move is stored before anybody hears of it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use futures_util::StreamExt;
use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, Notation, Rules};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, mpsc};
use tokio_rustls::TlsAcceptor;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

use super::password;
use super::protocol::{
    self, ClientMessage, ClockSpec, GameId, GameResult, GameState, GameSummary, MAX_LINE,
    OfferKind, PROTOCOL_VERSION, RulesInfo, ServerMessage,
};
use super::storage::{GameRecord, Storage, StorageError, StoredMove};
use crate::data::{DataDirs, Origin, embedded_names};

/// The port the server listens on unless told otherwise (the seed's).
pub const DEFAULT_PORT: u16 = 8149;

/// A connection's number, as `--showtraffic` shows it.
type ConnectionId = u64;

/// How long a new connection may take to finish the TLS handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// Messages queued for one connection before it counts as too slow and is closed.
const QUEUE_LENGTH: usize = 4096;

/// Name prefix of the computer accounts, which nobody may register.
pub const COMPUTER_PREFIX: &str = "computer";

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where the database and certificate are kept.
    pub data: PathBuf,
    /// Print every message with its direction, connection and time.
    pub show_traffic: bool,
    /// Stop when the last client leaves (a private server started by a client).
    pub stop_when_empty: bool,
    /// The difficulty levels of the computer accounts to offer.
    pub computers: Vec<u32>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A shipped rule file is broken.
    #[error("rules/{0}: {1}")]
    Rules(String, String),
    /// A stored game cannot be replayed.
    #[error("stored game {0}: {1}")]
    Game(GameId, String),
}

/// A rule set the server can play.
struct RuleSet {
    rules: Rules,
    text: String,
    info: RulesInfo,
}

/// A connection as the game state knows it.
struct Connection {
    queue: mpsc::Sender<String>,
    account: Option<String>,
    games: HashSet<GameId>,
    address: IpAddr,
}

/// A game in memory.
struct LiveGame {
    id: GameId,
    rules_hash: String,
    game: Game,
    players: [Option<String>; 2],
    clock: Option<ClockSpec>,
    /// Each side's time left at the start of the current turn.
    remaining: [Duration; 2],
    /// When the current turn began; `None` while the game waits or is over.
    turn_started: Option<Instant>,
    /// Counts turns (moves, undos, restarts), so that a late timer or a late computer
    /// move knows it is stale.
    turn: u64,
    /// The stored moves, for the clocks after each.
    stored: Vec<StoredMove>,
    result: Option<GameResult>,
    audience: HashSet<ConnectionId>,
    offer: Option<(OfferKind, u8)>,
}

/// Work to start once the lock is released.
enum Followup {
    /// A computer is to move.
    Computer { game: GameId, turn: u64, level: u32 },
    /// The side to move loses on time unless the turn is over by then.
    Flag {
        game: GameId,
        turn: u64,
        at: Instant,
    },
}

/// Everything behind the lock.
struct State {
    storage: Box<dyn Storage>,
    rules: BTreeMap<String, RuleSet>,
    games: BTreeMap<GameId, LiveGame>,
    connections: HashMap<ConnectionId, Connection>,
    computers: HashMap<String, u32>,
    throttle: password::Throttle,
    followups: Vec<Followup>,
}

/// The server.
pub struct Server {
    state: Mutex<State>,
    show_traffic: bool,
    stop_when_empty: bool,
    next_connection: AtomicU64,
    clients: AtomicUsize,
    empty: Notify,
    /// Password hashes being computed at once: one per core. Each argon2id hash takes
    /// 19 MiB and a core for tens of milliseconds; unbounded, a crowd logging in at once
    /// would take gigabytes and starve every connection of CPU.
    hashing: Semaphore,
    /// The hashes' working memory, kept from one to the next.
    memory: password::Memory,
}

fn hash_text(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Server {
    /// Opens the server on a storage: reads the shipped rule files and resumes every
    /// stored game, its clocks starting again now.
    ///
    /// # Errors
    ///
    /// The storage fails, a shipped rule file is broken, or a stored game cannot be
    /// replayed.
    pub fn new(
        mut storage: Box<dyn Storage>,
        options: &Options,
    ) -> Result<Arc<Server>, ServerError> {
        let mut rules = BTreeMap::new();
        let dirs = DataDirs::default();
        for file in embedded_names("rules") {
            let Ok((_, bytes)) = dirs.read_named("rules", &file, Origin::Indirect) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let parsed = Rules::parse(text.as_bytes())
                .map_err(|error| ServerError::Rules(file.clone(), error.to_string()))?;
            let hash = hash_text(&text);
            storage.add_rules(&hash, &text)?;
            let info = RulesInfo {
                id: parsed.id().to_owned(),
                name: parsed.name().to_owned(),
                file,
                hash: hash.clone(),
            };
            rules.insert(
                hash,
                RuleSet {
                    rules: parsed,
                    text,
                    info,
                },
            );
        }
        for (hash, text) in storage.all_rules()? {
            if rules.contains_key(&hash) {
                continue;
            }
            // A stored upload was validated when it came; a file that no longer reads
            // (the engine grew stricter) is left out rather than stopping the server.
            if let Ok(parsed) = Rules::parse(text.as_bytes()) {
                let info = RulesInfo {
                    id: parsed.id().to_owned(),
                    name: parsed.name().to_owned(),
                    file: String::new(),
                    hash: hash.clone(),
                };
                rules.insert(
                    hash,
                    RuleSet {
                        rules: parsed,
                        text,
                        info,
                    },
                );
            }
        }
        let computers = options
            .computers
            .iter()
            .map(|&level| (format!("{COMPUTER_PREFIX}{level}"), level))
            .collect();
        let mut state = State {
            storage,
            rules,
            games: BTreeMap::new(),
            connections: HashMap::new(),
            computers,
            throttle: password::Throttle::default(),
            followups: Vec::new(),
        };
        let now = Instant::now();
        for record in state.storage.games()? {
            let live = state.resume(record, now)?;
            state.games.insert(live.id, live);
        }
        let ids: Vec<GameId> = state.games.keys().copied().collect();
        for id in ids {
            state.start_turn(id);
        }
        Ok(Arc::new(Server {
            state: Mutex::new(state),
            show_traffic: options.show_traffic,
            stop_when_empty: options.stop_when_empty,
            next_connection: AtomicU64::new(1),
            clients: AtomicUsize::new(0),
            empty: Notify::new(),
            hashing: Semaphore::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            ),
            memory: password::Memory::default(),
        }))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock would be a bug; the state is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Accepts connections until the process ends, or, when the server stops when empty,
    /// until the last client has left.
    pub async fn serve(self: Arc<Self>, listener: TcpListener, tls: TlsAcceptor) {
        self.clone().start_followups();
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((stream, peer)) = accepted else { continue };
                    let server = self.clone();
                    let tls = tls.clone();
                    self.clients.fetch_add(1, Ordering::SeqCst);
                    tokio::spawn(async move {
                        server.clone().connection(stream, peer, tls).await;
                        if server.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
                            server.empty.notify_one();
                        }
                    });
                }
                () = self.empty.notified(), if self.stop_when_empty => {
                    if self.clients.load(Ordering::SeqCst) == 0 {
                        return;
                    }
                }
            }
        }
    }

    fn traffic(&self, connection: ConnectionId, arrow: &str, line: &str) {
        if self.show_traffic {
            let time = humantime::format_rfc3339_millis(SystemTime::now());
            println!("{time} #{connection} {arrow} {}", protocol::masked(line));
        }
    }

    async fn connection(self: Arc<Self>, stream: TcpStream, peer: SocketAddr, tls: TlsAcceptor) {
        let id = self.next_connection.fetch_add(1, Ordering::SeqCst);
        let _ = stream.set_nodelay(true);
        let Ok(Ok(stream)) = tokio::time::timeout(HANDSHAKE_TIME, tls.accept(stream)).await else {
            return;
        };
        let (reader, mut writer) = tokio::io::split(stream);
        let (queue, mut outgoing) = mpsc::channel::<String>(QUEUE_LENGTH);
        self.lock().connections.insert(
            id,
            Connection {
                queue: queue.clone(),
                account: None,
                games: HashSet::new(),
                address: peer.ip(),
            },
        );
        let server = self.clone();
        let writing = tokio::spawn(async move {
            while let Some(line) = outgoing.recv().await {
                server.traffic(id, "->", line.trim_end());
                if writer.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
                if outgoing.is_empty() && writer.flush().await.is_err() {
                    break;
                }
            }
            let _ = writer.shutdown().await;
        });
        let codec = AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), MAX_LINE);
        let mut lines = FramedRead::new(reader, codec);
        let mut greeted = false;
        while let Some(frame) = lines.next().await {
            let bytes = match frame {
                Ok(bytes) => bytes,
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                    self.traffic(id, "<-", "<line over 64 KiB>");
                    let reply = ServerMessage::error("line longer than 64 KiB: closing");
                    let _ = queue.try_send(protocol::to_line(&reply));
                    break;
                }
                Err(AnyDelimiterCodecError::Io(_)) => break,
            };
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            self.traffic(id, "<-", line);
            let message = match protocol::parse_client(line) {
                Ok(message) => message,
                Err(problem) => {
                    let _ = queue.try_send(protocol::to_line(&ServerMessage::error(problem)));
                    continue;
                }
            };
            if !greeted {
                match message {
                    ClientMessage::Hello { version, .. } if version == PROTOCOL_VERSION => {
                        greeted = true;
                        let welcome = ServerMessage::Welcome {
                            version: PROTOCOL_VERSION,
                            server: format!("hnefataflserver {}", env!("CARGO_PKG_VERSION")),
                        };
                        let _ = queue.try_send(protocol::to_line(&welcome));
                    }
                    ClientMessage::Hello { version, .. } => {
                        let reply = ServerMessage::error(format!(
                            "protocol version {version} is not spoken here; this server \
                             speaks version {PROTOCOL_VERSION}"
                        ));
                        let _ = queue.try_send(protocol::to_line(&reply));
                        break;
                    }
                    _ => {
                        let reply = ServerMessage::error("the first message must be `hello`");
                        let _ = queue.try_send(protocol::to_line(&reply));
                    }
                }
                continue;
            }
            self.clone().message(id, message).await;
        }
        self.lock().disconnect(id);
        drop(queue);
        let _ = writing.await;
    }

    /// Handles one message of a greeted connection.
    async fn message(self: Arc<Self>, id: ConnectionId, message: ClientMessage) {
        match message {
            ClientMessage::Register { name, password } => self.register(id, name, password).await,
            ClientMessage::Login { name, password } => self.login(id, name, password).await,
            other => {
                let mut state = self.lock();
                if let Err(problem) = state.handle(id, other) {
                    state.send(id, &ServerMessage::error(problem));
                }
                drop(state);
                self.start_followups();
            }
        }
    }

    async fn register(self: Arc<Self>, id: ConnectionId, name: String, password: String) {
        if !valid_name(&name) {
            let problem = "an account name has 1 to 32 letters, digits, `-` or `_`";
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        if name.starts_with(COMPUTER_PREFIX) {
            let problem =
                format!("names starting with `{COMPUTER_PREFIX}` are kept for the computer");
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        if !(4..=1024).contains(&password.chars().count()) {
            let problem = "a password has 4 to 1024 characters";
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let hashed =
            tokio::task::spawn_blocking(move || password::hash(&server.memory, &password)).await;
        let mut state = self.lock();
        let result = match hashed {
            Ok(Ok(hash)) => state
                .storage
                .create_account(&name, &hash)
                .map_err(|e| e.to_string()),
            _ => Err("the password could not be hashed".to_owned()),
        };
        match result {
            Ok(true) => state.logged_in(id, name),
            Ok(false) => state.send(
                id,
                &ServerMessage::error(format!("the name `{name}` is taken")),
            ),
            Err(problem) => state.send(id, &ServerMessage::error(problem)),
        }
    }

    async fn login(self: Arc<Self>, id: ConnectionId, name: String, password: String) {
        let (stored, keys) = {
            let mut state = self.lock();
            let Some(address) = state.connections.get(&id).map(|c| c.address) else {
                return;
            };
            let keys = password::Keys::new(&name, address);
            if let Some(wait) = state.throttle.wait(&keys, Instant::now()) {
                let problem = format!(
                    "too many failed logins for `{name}` or from this address; try again in {} s",
                    wait.as_secs() + 1
                );
                return state.send(id, &ServerMessage::error(problem));
            }
            if state.computers.contains_key(&name) {
                return state.send(id, &ServerMessage::error("that is a computer account"));
            }
            match state.storage.password_hash(&name) {
                Ok(stored) => (stored, keys),
                Err(error) => return state.send(id, &ServerMessage::error(error.to_string())),
            }
        };
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let checked = tokio::task::spawn_blocking(move || {
            // An unknown name costs as much as a wrong password, so that it does not show.
            password::verify(&server.memory, &password, stored.as_deref())
        })
        .await
        .unwrap_or(false);
        let mut state = self.lock();
        if checked {
            state.throttle.succeed(&keys);
            state.logged_in(id, name);
        } else {
            state.throttle.fail(&keys, Instant::now());
            state.send(id, &ServerMessage::error("wrong name or password"));
        }
    }

    /// Starts the work the last messages left: computer moves and clock timers.
    fn start_followups(self: Arc<Self>) {
        let followups = std::mem::take(&mut self.lock().followups);
        for followup in followups {
            let server = self.clone();
            match followup {
                Followup::Flag { game, turn, at } => {
                    tokio::spawn(async move {
                        tokio::time::sleep_until(at.into()).await;
                        server.lock().flag(game, turn);
                        server.start_followups();
                    });
                }
                Followup::Computer { game, turn, level } => {
                    tokio::spawn(async move {
                        let Some((position, limits)) =
                            server.lock().computer_task(game, turn, level)
                        else {
                            return;
                        };
                        let found = tokio::task::spawn_blocking(move || {
                            let config = aim::EngineConfig {
                                threads: 1,
                                hash_mib: 16,
                            };
                            let mut engine = aim::Engine::new(config);
                            let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
                            engine.search(&position, &limits, stop, &mut |_| {}).best
                        })
                        .await;
                        if let Ok(Some(best)) = found {
                            server.lock().computer_move(game, turn, best);
                            server.start_followups();
                        }
                    });
                }
            }
        }
    }
}

impl State {
    /// Rebuilds a stored game; its clock starts again when the server is up.
    fn resume(&mut self, record: GameRecord, _now: Instant) -> Result<LiveGame, ServerError> {
        let set = self.rules.get(&record.rules_hash).ok_or_else(|| {
            ServerError::Game(
                record.id,
                format!("no rules with hash {}", record.rules_hash),
            )
        })?;
        let mut game = Game::new(set.rules.clone());
        for stored in &record.moves {
            let words: Vec<&str> = stored.mv.split_whitespace().collect();
            let mv = set
                .rules
                .parse_move(&words)
                .map_err(|error| ServerError::Game(record.id, error.to_string()))?;
            game.try_play(mv)
                .map_err(|error| ServerError::Game(record.id, format!("{}: {error}", stored.mv)))?;
        }
        let main = record
            .clock
            .map_or(Duration::ZERO, |c| Duration::from_millis(c.main_ms));
        let remaining = record
            .moves
            .last()
            .map_or([main, main], |last| last.clocks.map(Duration::from_millis));
        Ok(LiveGame {
            id: record.id,
            rules_hash: record.rules_hash,
            game,
            players: record.players,
            clock: record.clock,
            remaining,
            turn_started: None,
            turn: 0,
            stored: record.moves,
            result: record.result,
            audience: HashSet::new(),
            offer: None,
        })
    }

    /// Sends a message to one connection. One that cannot keep up is closed.
    fn send(&mut self, id: ConnectionId, message: &ServerMessage) {
        let line = protocol::to_line(message);
        if let Some(connection) = self.connections.get(&id) {
            if connection.queue.try_send(line).is_err() {
                self.disconnect(id);
            }
        }
    }

    /// Sends a message to everyone playing or watching a game.
    fn broadcast(&mut self, game: GameId, message: &ServerMessage) {
        let audience: Vec<ConnectionId> = self
            .games
            .get(&game)
            .map(|live| live.audience.iter().copied().collect())
            .unwrap_or_default();
        for id in audience {
            self.send(id, message);
        }
    }

    /// Forgets a connection; dropping its queue ends its writing task.
    fn disconnect(&mut self, id: ConnectionId) {
        if let Some(connection) = self.connections.remove(&id) {
            for game in connection.games {
                if let Some(live) = self.games.get_mut(&game) {
                    live.audience.remove(&id);
                }
            }
        }
    }

    fn account(&self, id: ConnectionId) -> Result<String, String> {
        self.connections
            .get(&id)
            .and_then(|c| c.account.clone())
            .ok_or_else(|| "log in first (`login` or `register`)".to_owned())
    }

    fn logged_in(&mut self, id: ConnectionId, name: String) {
        let games = self
            .games
            .values()
            .filter(|live| live.result.is_none() && live.players.contains(&Some(name.clone())))
            .map(|live| live.id)
            .collect();
        if let Some(connection) = self.connections.get_mut(&id) {
            connection.account = Some(name.clone());
        }
        self.send(id, &ServerMessage::LoggedIn { name, games });
    }

    fn live(&mut self, game: GameId) -> Result<&mut LiveGame, String> {
        self.games
            .get_mut(&game)
            .ok_or_else(|| format!("there is no game {game}"))
    }

    /// The player's seat in a running game.
    fn seat(&mut self, id: ConnectionId, game: GameId) -> Result<u8, String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over"));
        }
        let side = live
            .players
            .iter()
            .position(|player| player.as_deref() == Some(name.as_str()))
            .ok_or_else(|| format!("you do not play in game {game}"))?;
        Ok(side as u8)
    }

    fn handle(&mut self, id: ConnectionId, message: ClientMessage) -> Result<(), String> {
        match message {
            ClientMessage::Hello { .. } => Err("already greeted".to_owned()),
            ClientMessage::Register { .. } | ClientMessage::Login { .. } => Ok(()),
            ClientMessage::Rules => {
                let rules = self.rules.values().map(|set| set.info.clone()).collect();
                self.send(id, &ServerMessage::RulesList { rules });
                Ok(())
            }
            ClientMessage::UploadRules { text } => self.upload(id, text),
            ClientMessage::Games => {
                let games = self.summaries(false);
                self.send(id, &ServerMessage::GameList { games });
                Ok(())
            }
            ClientMessage::Archive => {
                let games = self.summaries(true);
                self.send(id, &ServerMessage::ArchiveList { games });
                Ok(())
            }
            ClientMessage::Fetch { game } => self.fetch(id, game),
            ClientMessage::New {
                rules,
                clock,
                side,
                opponent,
            } => self.create(id, &rules, clock, side, opponent),
            ClientMessage::Join { game } => self.join(id, game),
            ClientMessage::Watch { game } => {
                self.live(game)?;
                self.attend(id, game, None);
                Ok(())
            }
            ClientMessage::Leave { game } => {
                self.live(game)?.audience.remove(&id);
                if let Some(connection) = self.connections.get_mut(&id) {
                    connection.games.remove(&game);
                }
                Ok(())
            }
            ClientMessage::Move { game, mv } => {
                let side = self.seat(id, game)?;
                self.play(game, side, &mv)
            }
            ClientMessage::Say { game, text } => {
                let from = self.account(id).unwrap_or_else(|_| format!("guest{id}"));
                self.live(game)?;
                let text: String = text.chars().filter(|c| !c.is_control()).take(500).collect();
                self.broadcast(game, &ServerMessage::Chat { game, from, text });
                Ok(())
            }
            ClientMessage::Offer { game, kind } => self.offer(id, game, kind),
            ClientMessage::Answer { game, kind, accept } => self.answer(id, game, kind, accept),
            ClientMessage::Resign { game } => {
                let side = self.seat(id, game)?;
                self.finish(
                    game,
                    GameResult {
                        winner: Some(1 - side),
                        reason: "resigned".into(),
                    },
                )
            }
        }
    }

    fn upload(&mut self, id: ConnectionId, text: String) -> Result<(), String> {
        self.account(id)?;
        let parsed = Rules::parse(text.as_bytes()).map_err(|error| format!("rules: {error}"))?;
        let hash = hash_text(&text);
        if !self.rules.contains_key(&hash) {
            self.storage
                .add_rules(&hash, &text)
                .map_err(|error| error.to_string())?;
            let info = RulesInfo {
                id: parsed.id().to_owned(),
                name: parsed.name().to_owned(),
                file: String::new(),
                hash: hash.clone(),
            };
            let set = RuleSet {
                rules: parsed,
                text,
                info,
            };
            self.rules.insert(hash.clone(), set);
        }
        let rules = self.rules[&hash].info.clone();
        self.send(id, &ServerMessage::RulesAdded { rules });
        Ok(())
    }

    fn summary(live: &LiveGame, rules_id: &str) -> GameSummary {
        GameSummary {
            game: live.id,
            rules_id: rules_id.to_owned(),
            players: live.players.clone(),
            clock: live.clock,
            moves: live.game.moves().len() as u32,
            result: live.result.clone(),
        }
    }

    fn summaries(&self, finished: bool) -> Vec<GameSummary> {
        self.games
            .values()
            .filter(|live| live.result.is_some() == finished)
            .map(|live| Self::summary(live, live.game.rules().id()))
            .collect()
    }

    /// Each side's time left now.
    fn clocks_now(live: &LiveGame) -> Option<[u64; 2]> {
        live.clock?;
        let mut clocks = live.remaining;
        if let Some(started) = live.turn_started {
            let side = live.game.side_to_move().index();
            clocks[side] = clocks[side].saturating_sub(started.elapsed());
        }
        Some(clocks.map(millis))
    }

    fn state_of(&self, live: &LiveGame, your_side: Option<u8>) -> GameState {
        let rules = live.game.rules();
        GameState {
            summary: Self::summary(live, rules.id()),
            rules_hash: live.rules_hash.clone(),
            rules_text: self
                .rules
                .get(&live.rules_hash)
                .map(|set| set.text.clone())
                .unwrap_or_default(),
            moves: live
                .game
                .moves()
                .map(|mv| rules.format_move(mv, Notation::Numeric))
                .collect(),
            clocks: Self::clocks_now(live),
            to_move: live.game.side_to_move().index() as u8,
            your_side,
        }
    }

    /// Adds a connection to a game's audience and sends it the whole game.
    fn attend(&mut self, id: ConnectionId, game: GameId, side: Option<u8>) {
        if let Some(connection) = self.connections.get_mut(&id) {
            connection.games.insert(game);
        }
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        live.audience.insert(id);
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let state = self.state_of(live, side);
        self.send(id, &ServerMessage::Game { state });
    }

    fn find_rules(&self, name: &str) -> Result<String, String> {
        if self.rules.contains_key(name) {
            return Ok(name.to_owned());
        }
        self.rules
            .values()
            .find(|set| set.info.file == name)
            .or_else(|| {
                self.rules
                    .values()
                    .find(|set| set.info.id == name && !set.info.file.is_empty())
            })
            .or_else(|| self.rules.values().find(|set| set.info.id == name))
            .map(|set| set.info.hash.clone())
            .ok_or_else(|| format!("no rules `{name}` here; `rules` lists them"))
    }

    fn create(
        &mut self,
        id: ConnectionId,
        rules: &str,
        clock: Option<ClockSpec>,
        side: u8,
        opponent: Option<String>,
    ) -> Result<(), String> {
        let name = self.account(id)?;
        if side > 1 {
            return Err("the side is 0 or 1".to_owned());
        }
        if clock.is_some_and(|c| c.main_ms == 0) {
            return Err("a clock needs some main time".to_owned());
        }
        let hash = self.find_rules(rules)?;
        if let Some(opponent) = &opponent {
            if !self.computers.contains_key(opponent) {
                return Err(format!(
                    "`{opponent}` is no computer account of this server"
                ));
            }
        }
        let game = self
            .storage
            .create_game(&hash, clock)
            .map_err(|error| error.to_string())?;
        let mut players = [None, None];
        players[usize::from(side)] = Some(name.clone());
        self.storage
            .set_player(game, side, &name)
            .map_err(|error| error.to_string())?;
        if let Some(opponent) = &opponent {
            self.storage
                .set_player(game, 1 - side, opponent)
                .map_err(|error| error.to_string())?;
            players[usize::from(1 - side)] = Some(opponent.clone());
        }
        let main = clock.map_or(Duration::ZERO, |c| Duration::from_millis(c.main_ms));
        let live = LiveGame {
            id: game,
            rules_hash: hash.clone(),
            game: Game::new(self.rules[&hash].rules.clone()),
            players,
            clock,
            remaining: [main, main],
            turn_started: None,
            turn: 0,
            stored: Vec::new(),
            result: None,
            audience: HashSet::new(),
            offer: None,
        };
        self.games.insert(game, live);
        self.attend(id, game, Some(side));
        self.start_turn(game);
        Ok(())
    }

    fn join(&mut self, id: ConnectionId, game: GameId) -> Result<(), String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over; `watch` shows it"));
        }
        if let Some(side) = live.players.iter().position(|p| p.as_ref() == Some(&name)) {
            // Back at one's own seat, after a reconnect.
            self.attend(id, game, Some(side as u8));
            return Ok(());
        }
        let side = live
            .players
            .iter()
            .position(Option::is_none)
            .ok_or_else(|| format!("game {game} has two players; `watch` shows it"))?
            as u8;
        self.storage
            .set_player(game, side, &name)
            .map_err(|error| error.to_string())?;
        let live = self.live(game)?;
        live.players[usize::from(side)] = Some(name.clone());
        self.attend(id, game, Some(side));
        self.broadcast(game, &ServerMessage::Joined { game, side, name });
        self.start_turn(game);
        Ok(())
    }

    /// Starts the clock of the side to move, when both seats are taken and the game goes
    /// on, and asks the computer for a move when it is its turn.
    fn start_turn(&mut self, game: GameId) {
        let now = Instant::now();
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        live.turn += 1;
        if live.result.is_some() || live.players.iter().any(Option::is_none) {
            live.turn_started = None;
            return;
        }
        live.turn_started = Some(now);
        let side = live.game.side_to_move().index();
        let (turn, remaining) = (live.turn, live.remaining[side]);
        let computer = live.players[side]
            .as_ref()
            .and_then(|name| self.computers.get(name).copied());
        if live.clock.is_some() {
            self.followups.push(Followup::Flag {
                game,
                turn,
                at: now + remaining,
            });
        }
        if let Some(level) = computer {
            self.followups
                .push(Followup::Computer { game, turn, level });
        }
    }

    /// Plays a move of `side`, refereed by the engine; stores it, then tells everyone.
    fn play(&mut self, game: GameId, side: u8, text: &str) -> Result<(), String> {
        let now = Instant::now();
        let live = self.live(game)?;
        let Some(started) = live.turn_started else {
            return Err(format!("game {game} waits for a second player"));
        };
        if live.game.side_to_move().index() != usize::from(side) {
            return Err("it is not your turn".to_owned());
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let rules = live.game.rules().clone();
        let mv = rules
            .parse_move(&words)
            .map_err(|error| format!("`{text}`: {error}"))?;
        live.game
            .check(mv)
            .map_err(|error| format!("illegal move `{text}`: {error}"))?;
        let index = usize::from(side);
        let used = now.duration_since(started);
        if live.clock.is_some() && used > live.remaining[index] {
            return self.lose_on_time(game);
        }
        let mut remaining = live.remaining;
        if let Some(clock) = live.clock {
            remaining[index] = remaining[index] - used + Duration::from_millis(clock.increment_ms);
        }
        let number = live.game.moves().len() as u32 + 1;
        let stored = StoredMove {
            mv: rules.format_move(mv, Notation::Numeric),
            clocks: remaining.map(millis),
        };
        self.storage
            .add_move(game, number, &stored)
            .map_err(|error| error.to_string())?;
        let live = self.live(game)?;
        live.game.try_play(mv).map_err(|error| error.to_string())?;
        live.remaining = remaining;
        live.offer = None;
        let clocks = live.clock.map(|_| stored.clocks);
        let numeric = stored.mv.clone();
        live.stored.push(stored);
        let outcome = live.game.outcome();
        self.broadcast(
            game,
            &ServerMessage::Moved {
                game,
                number,
                side,
                mv: numeric,
                clocks,
            },
        );
        match outcome {
            Some(outcome) => {
                let result = GameResult {
                    winner: outcome.winner.map(|winner| winner.index() as u8),
                    reason: outcome.reason.to_string(),
                };
                self.finish(game, result)
            }
            None => {
                self.start_turn(game);
                Ok(())
            }
        }
    }

    fn lose_on_time(&mut self, game: GameId) -> Result<(), String> {
        let live = self.live(game)?;
        let loser = live.game.side_to_move().index() as u8;
        live.remaining[usize::from(loser)] = Duration::ZERO;
        self.finish(
            game,
            GameResult {
                winner: Some(1 - loser),
                reason: "time".into(),
            },
        )
    }

    /// A clock timer went off.
    fn flag(&mut self, game: GameId, turn: u64) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn == turn && live.result.is_none() && live.turn_started.is_some() {
            let _ = self.lose_on_time(game);
        }
    }

    fn finish(&mut self, game: GameId, result: GameResult) -> Result<(), String> {
        self.storage
            .finish_game(game, &result)
            .map_err(|error| error.to_string())?;
        let live = self.live(game)?;
        live.result = Some(result.clone());
        live.turn_started = None;
        live.turn += 1;
        self.broadcast(game, &ServerMessage::Ended { game, result });
        Ok(())
    }

    fn offer(&mut self, id: ConnectionId, game: GameId, kind: OfferKind) -> Result<(), String> {
        let side = self.seat(id, game)?;
        let from = self.account(id)?;
        let live = self.live(game)?;
        if kind == OfferKind::Undo {
            let moves = live.game.moves().len();
            let own_moves = (moves + usize::from(1 - side)) / 2;
            if own_moves == 0 {
                return Err("you have no move to take back".to_owned());
            }
        }
        let opponent = live.players[usize::from(1 - side)].clone();
        if let Some(level) = opponent.as_ref().and_then(|name| self.computers.get(name)) {
            // The computer declines undos and accepts nothing but a lost cause: it declines.
            let _ = level;
            self.send(id, &ServerMessage::Declined { game, kind });
            return Ok(());
        }
        self.live(game)?.offer = Some((kind, side));
        self.broadcast(game, &ServerMessage::Offered { game, kind, from });
        Ok(())
    }

    fn answer(
        &mut self,
        id: ConnectionId,
        game: GameId,
        kind: OfferKind,
        accept: bool,
    ) -> Result<(), String> {
        let side = self.seat(id, game)?;
        let live = self.live(game)?;
        let offerer = match live.offer {
            Some((offered, by)) if offered == kind && by != side => by,
            _ => return Err(format!("no such offer is open in game {game}")),
        };
        live.offer = None;
        if !accept {
            self.broadcast(game, &ServerMessage::Declined { game, kind });
            return Ok(());
        }
        match kind {
            OfferKind::Draw => self.finish(
                game,
                GameResult {
                    winner: None,
                    reason: "draw agreed".into(),
                },
            ),
            OfferKind::Undo => {
                // Take back the offerer's last move, and the reply to it if there was one.
                let replied = live.game.side_to_move().index() == usize::from(offerer);
                let count = if replied { 2 } else { 1 };
                let keep = live.game.moves().len().saturating_sub(count);
                self.storage
                    .truncate_moves(game, keep as u32)
                    .map_err(|error| error.to_string())?;
                let live = self.live(game)?;
                while live.game.moves().len() > keep {
                    live.game.undo();
                }
                live.stored.truncate(keep);
                let main = live
                    .clock
                    .map_or(Duration::ZERO, |c| Duration::from_millis(c.main_ms));
                live.remaining = live
                    .stored
                    .last()
                    .map_or([main, main], |last| last.clocks.map(Duration::from_millis));
                let clocks = live.clock.map(|_| live.remaining.map(millis));
                self.broadcast(
                    game,
                    &ServerMessage::Undone {
                        game,
                        moves: keep as u32,
                        clocks,
                    },
                );
                self.start_turn(game);
                Ok(())
            }
        }
    }

    fn fetch(&mut self, id: ConnectionId, game: GameId) -> Result<(), String> {
        let live = self
            .games
            .get(&game)
            .ok_or_else(|| format!("there is no game {game}"))?;
        if live.result.is_none() {
            return Err(format!("game {game} is not over yet"));
        }
        let set = &self.rules[&live.rules_hash];
        let rules_file = if set.info.file.is_empty() {
            set.info.id.clone()
        } else {
            set.info.file.clone()
        };
        let kinds = live.players.clone().map(|player| match player {
            Some(name) => match self.computers.get(&name) {
                Some(level) => vec!["computer".to_owned(), level.to_string()],
                None => vec!["human".to_owned()],
            },
            None => vec!["human".to_owned()],
        });
        let saved = SavedGame::from_game(&live.game, &rules_file, kinds);
        let mut text = saved.to_text(live.game.rules());
        let names = live.players.clone().map(|p| p.unwrap_or_default());
        let result = live.result.clone().map(|r| match r.winner {
            Some(winner) => format!("player {winner} won ({})", r.reason),
            None => format!("draw ({})", r.reason),
        });
        let note = format!(
            "# server game {game}: {} (player 0) against {} (player 1), {}\n",
            names[0],
            names[1],
            result.unwrap_or_default()
        );
        let first_line_end = text.find('\n').map_or(text.len(), |end| end + 1);
        text.insert_str(first_line_end, &note);
        self.send(
            id,
            &ServerMessage::SavedGame {
                game,
                rules_file,
                text,
            },
        );
        Ok(())
    }

    /// The position and limits for a computer's move, if the turn is still on.
    fn computer_task(&self, game: GameId, turn: u64, level: u32) -> Option<(Game, aim::Limits)> {
        let live = self.games.get(&game)?;
        if live.turn != turn || live.turn_started.is_none() {
            return None;
        }
        let mut limits = aim::Limits {
            level: Some(level),
            threads: Some(1),
            ..aim::Limits::default()
        };
        if let Some(clock) = live.clock {
            let side = live.game.side_to_move().index();
            limits.clock = Some(aim::Clock::fischer(
                live.remaining[side],
                Duration::from_millis(clock.increment_ms),
            ));
        }
        Some((live.game.clone(), limits))
    }

    fn computer_move(&mut self, game: GameId, turn: u64, mv: hnefatafl_core::Move) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn != turn {
            return;
        }
        let side = live.game.side_to_move().index() as u8;
        let text = live.game.rules().format_move(mv, Notation::Numeric);
        let _ = self.play(game, side, &text);
    }
}
