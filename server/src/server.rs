//! The game server's connections: the listener, the TLS handshake with its deadline, a
//! reading and a writing task for each connection, the queue and line limits, password
//! hashing, the storage's reads and computer moves on blocking threads. The games
//! themselves are the `referee`'s, behind one lock taken only for the synchronous work of
//! a message (no `.await` and no disk I/O while it is held); its storage writes are
//! committed by the `journal`'s thread, and each line a connection's writing task takes
//! off its queue waits for the writes recorded before it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use aim::nnue::Network;
use futures_util::StreamExt;
use hnefatafl_core::Rules;
use hnefatafl_data::{DataDirs, LookupError, Origin, rule_names};
use hnefatafl_net::protocol::{
    self, ClientMessage, GameId, LeaderboardEntry, PROTOCOL_VERSION, RATINGS_PAGE, RatingHistory,
    RulesRating, ServerMessage,
};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, mpsc};
use tokio_rustls::TlsAcceptor;
use tokio_util::codec::{AnyDelimiterCodecError, FramedRead};

use crate::accounts;
use crate::journal::{self, Committed, Line};
use crate::periods;
use crate::quotas::{Bucket, Quotas, Window};
use crate::referee::{Connection, ConnectionId, Followup, RuleSet, State, hash_text, valid_name};
use crate::seeks::LookedUp;
use crate::storage::{Storage, StorageError, StoredHistory, StoredRating, stored_now};

/// How long a new connection may take to finish the TLS handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// Messages queued for one connection before it counts as too slow and is closed.
const QUEUE_LENGTH: usize = 4096;

pub use hnefatafl_net::protocol::COMPUTER_PREFIX;

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
    /// What one client may take.
    pub quotas: Quotas,
    /// The length of a rating period: at its end the period's rated games update the
    /// players' ratings.
    pub rating_period: Duration,
}

/// The first wait of the accept loop after a failed accept (out of file descriptors).
const FIRST_BACK_OFF: Duration = Duration::from_millis(10);

/// The longest wait of the accept loop between failed accepts.
const LONGEST_BACK_OFF: Duration = Duration::from_secs(1);

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
    /// The thread that writes the storage could not be started.
    #[error("cannot start the storage writer: {0}")]
    Thread(std::io::Error),
    /// A storage write failed while the server ran: it stopped, so that no client is told
    /// of anything not stored.
    #[error("{0}; the server stopped, since it could no longer store what it is told")]
    Write(String),
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
    memory: accounts::Memory,
    /// One permit per open connection, as `--max-connections` allows.
    connections: Arc<Semaphore>,
    /// The time limits of a connection.
    hello_timeout: Duration,
    idle_timeout: Duration,
    /// How far the referee's storage writes are committed.
    committed: Committed,
    /// The storage of the work done off the referee's lock, a connection of its own:
    /// accounts (registering, the password of a login), rating periods and rating queries
    /// read and write it on blocking threads.
    off_lock: Mutex<Box<dyn Storage>>,
    rating_period: Duration,
}

/// The learned evaluation of a shipped rule file for the server's computer players:
/// `networks/<file>.nnue` from the data directories or the built-in data, checked against
/// the rules. One that cannot be used is said on standard error, and the computers play
/// with the classic evaluation in those rules.
fn rules_network(dirs: &DataDirs, file: &str, rules: &Rules) -> Option<Arc<Network>> {
    let relative = hnefatafl_data::network_file(file);
    let problem = match dirs.read(None, &relative) {
        Ok((found, bytes)) => match Network::for_rules(&found.to_string(), &bytes, rules) {
            Ok(network) => return Some(Arc::new(network)),
            Err(error) => error.to_string(),
        },
        Err(LookupError::NotFound) => return None,
        Err(LookupError::File(path, error)) => format!("{}: {error}", path.display()),
    };
    eprintln!("hnefataflserver: {problem}; the computers play {file} with the classic evaluation");
    None
}

/// A line a connection answers by itself (to a line it cannot read, before `hello`): it
/// follows no write, and its queue keeps it behind every line queued before it.
fn own_line(message: &ServerMessage) -> Line {
    Line {
        after: 0,
        text: protocol::to_line(message),
    }
}

/// A rating query, its rules found under the referee's lock, to answer off it.
enum Query {
    Leaderboard {
        rules_id: String,
        rules_hash: String,
        page: u32,
    },
    Account {
        account: String,
    },
}

/// What the storage answered to a [`Query`].
enum Answer {
    Leaderboard {
        rules_id: String,
        page: u32,
        rows: Vec<StoredRating>,
    },
    Account {
        account: String,
        ratings: Vec<StoredRating>,
        history: Vec<StoredHistory>,
    },
}

impl Server {
    /// Opens the server on a storage: reads the shipped rule files and resumes every
    /// stored game, its clocks starting again now; from then on `storage` is the storage
    /// writer's. `off_lock` is a second connection to the same storage, for accounts and
    /// ratings.
    ///
    /// # Errors
    ///
    /// The storage fails, a shipped rule file is broken, or a stored game cannot be
    /// replayed.
    pub fn new(
        mut storage: Box<dyn Storage>,
        off_lock: Box<dyn Storage>,
        options: &Options,
    ) -> Result<Arc<Server>, ServerError> {
        let mut rules = BTreeMap::new();
        let dirs = DataDirs::default();
        for file in rule_names() {
            let file = file.to_owned();
            let Ok((_, bytes)) = dirs.read_named("rules", &file, Origin::Indirect) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let parsed = Rules::parse(text.as_bytes())
                .map_err(|error| ServerError::Rules(file.clone(), error.to_string()))?;
            let hash = hash_text(&text);
            storage.add_rules(&hash, &text)?;
            let mut set = RuleSet::new(parsed, text, file.clone(), hash.clone());
            set.network = rules_network(&dirs, &file, &set.rules);
            rules.insert(hash, set);
        }
        for (hash, text) in storage.all_rules()? {
            if rules.contains_key(&hash) {
                continue;
            }
            // A stored upload was validated when it came; a file that no longer reads
            // (the engine grew stricter) is left out rather than stopping the server.
            if let Ok(parsed) = Rules::parse(text.as_bytes()) {
                let set = RuleSet::new(parsed, text, String::new(), hash.clone());
                rules.insert(hash, set);
            }
        }
        let computers = options
            .computers
            .iter()
            .map(|&level| (format!("{COMPUTER_PREFIX}{level}"), level))
            .collect();
        let records = storage.games()?;
        let next_game = records.iter().map(|record| record.id).max().unwrap_or(0) + 1;
        let (journal, committed) = journal::start(storage).map_err(ServerError::Thread)?;
        let mut state = State {
            journal,
            next_game,
            rules,
            games: BTreeMap::new(),
            connections: HashMap::new(),
            computers,
            throttle: accounts::Throttle::default(),
            followups: Vec::new(),
            quotas: options.quotas.clone(),
            uploads: Window::default(),
            registrations: Window::default(),
            seeks: Default::default(),
        };
        let now = Instant::now();
        for record in records {
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
            memory: accounts::Memory::default(),
            connections: Arc::new(Semaphore::new(options.quotas.connections)),
            hello_timeout: options.quotas.hello_timeout,
            idle_timeout: options.quotas.idle_timeout,
            committed,
            off_lock: Mutex::new(off_lock),
            rating_period: options.rating_period,
        }))
    }

    /// The storage connection of the work done off the referee's lock; taken on blocking
    /// threads only.
    fn storage_off_lock(&self) -> MutexGuard<'_, Box<dyn Storage>> {
        self.off_lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock would be a bug; the state is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Accepts connections until the process ends, or, when the server stops when empty,
    /// until the last client has left. At most `--max-connections` are open at once: the
    /// loop waits for a free permit before it accepts another. When an accept fails (out
    /// of file descriptors: EMFILE, ENFILE) it waits before the next try, 10 ms doubling
    /// up to 1 s, instead of spinning; a successful accept starts the wait afresh.
    ///
    /// # Errors
    ///
    /// A storage write failed: the server stops at once, so that nothing recorded after
    /// the write is ever told to a client.
    pub async fn serve(
        self: Arc<Self>,
        listener: TcpListener,
        tls: TlsAcceptor,
    ) -> Result<(), ServerError> {
        self.clone().start_followups();
        tokio::spawn(self.clone().rating_periods());
        let mut back_off = FIRST_BACK_OFF;
        let mut committed = self.committed.clone();
        loop {
            let next = async {
                // The semaphore is never closed.
                let permit = self.connections.clone().acquire_owned().await.ok();
                (permit, listener.accept().await)
            };
            let (permit, accepted) = tokio::select! {
                next = next => next,
                () = self.emptied() => {
                    // Nobody is left to be told, but what was recorded is still stored.
                    let recorded = self.lock().journal.recorded();
                    return committed.reached(recorded).await.map_err(ServerError::Write);
                }
                error = committed.failed() => return Err(ServerError::Write(error)),
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => {
                    back_off = FIRST_BACK_OFF;
                    accepted
                }
                Err(_) => {
                    drop(permit);
                    tokio::time::sleep(back_off).await;
                    back_off = (back_off * 2).min(LONGEST_BACK_OFF);
                    continue;
                }
            };
            let server = self.clone();
            let tls = tls.clone();
            self.clients.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                server.clone().connection(stream, peer, tls).await;
                drop(permit);
                if server.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
                    server.empty.notify_one();
                }
            });
        }
    }

    /// Ends when the server stops when empty and its last client has left; never
    /// otherwise.
    async fn emptied(&self) {
        if !self.stop_when_empty {
            std::future::pending::<()>().await;
        }
        loop {
            self.empty.notified().await;
            if self.clients.load(Ordering::SeqCst) == 0 {
                return;
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
        let (queue, mut outgoing) = mpsc::channel::<Line>(QUEUE_LENGTH);
        {
            let mut state = self.lock();
            let chat = Bucket::new(state.quotas.chat_per_second, Instant::now());
            state.connections.insert(
                id,
                Connection {
                    queue: queue.clone(),
                    account: None,
                    games: HashSet::new(),
                    address: peer.ip(),
                    chat,
                },
            );
        }
        let server = self.clone();
        let mut committed = self.committed.clone();
        let writing = tokio::spawn(async move {
            while let Some(line) = outgoing.recv().await {
                // Nothing is told before the writes recorded before it are stored.
                if committed.reached(line.after).await.is_err() {
                    break;
                }
                let line = line.text;
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
        let codec = protocol::line_codec();
        let mut lines = FramedRead::new(reader, codec);
        let mut greeted = false;
        // `hello` must come within the hello timeout of the handshake, whatever else is
        // sent before it; after it, each line within the idle timeout of the last.
        let hello_by = tokio::time::Instant::now() + self.hello_timeout;
        loop {
            let deadline = if greeted {
                tokio::time::Instant::now() + self.idle_timeout
            } else {
                hello_by
            };
            let Ok(frame) = tokio::time::timeout_at(deadline, lines.next()).await else {
                let reply = ServerMessage::error(if greeted {
                    format!("no message for {} s: closing", self.idle_timeout.as_secs())
                } else {
                    format!(
                        "no `hello` within {} s: closing",
                        self.hello_timeout.as_secs()
                    )
                });
                let _ = queue.try_send(own_line(&reply));
                break;
            };
            let Some(frame) = frame else { break };
            let bytes = match frame {
                Ok(bytes) => bytes,
                Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                    self.traffic(id, "<-", "<line over 64 KiB>");
                    let reply = ServerMessage::error("line longer than 64 KiB: closing");
                    let _ = queue.try_send(own_line(&reply));
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
                    let _ = queue.try_send(own_line(&ServerMessage::error(problem)));
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
                        let _ = queue.try_send(own_line(&welcome));
                    }
                    ClientMessage::Hello { version, .. } => {
                        let reply = ServerMessage::error(format!(
                            "protocol version {version} is not spoken here; this server \
                             speaks version {PROTOCOL_VERSION}"
                        ));
                        let _ = queue.try_send(own_line(&reply));
                        break;
                    }
                    _ => {
                        let reply = ServerMessage::error("the first message must be `hello`");
                        let _ = queue.try_send(own_line(&reply));
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
            ClientMessage::Ratings { .. } | ClientMessage::Rating { .. } => {
                self.rating_query(id, message).await;
            }
            other => {
                let looked_up = match self.look_up(id, &other).await {
                    Ok(looked_up) => looked_up,
                    Err(problem) => {
                        return self.lock().send(id, &ServerMessage::error(problem));
                    }
                };
                let mut state = self.lock();
                if let Err(problem) = state.handle(id, other, &looked_up) {
                    state.send(id, &ServerMessage::error(problem));
                }
                drop(state);
                self.start_followups();
            }
        }
    }

    /// Reads what a message's seek terms need from storage, off the referee's lock and on
    /// a blocking thread: whether a challenged account exists, and a joining player's
    /// ratings. Most messages need nothing.
    async fn look_up(
        self: &Arc<Self>,
        id: ConnectionId,
        message: &ClientMessage,
    ) -> Result<LookedUp, String> {
        let challenged = match message {
            ClientMessage::Seek { terms, .. } => terms.to.clone(),
            _ => None,
        };
        let joining = match message {
            ClientMessage::Join { .. } => self.lock().account(id).ok(),
            _ => None,
        };
        if challenged.is_none() && joining.is_none() {
            return Ok(LookedUp::default());
        }
        let server = self.clone();
        let read = tokio::task::spawn_blocking(move || {
            let mut storage = server.storage_off_lock();
            let challenged_exists = match challenged {
                Some(to) => Some(storage.password_hash(&to)?.is_some()),
                None => None,
            };
            let ratings = match joining {
                Some(name) => storage.account_ratings(&name, u32::MAX)?,
                None => Vec::new(),
            };
            Ok::<_, crate::storage::StorageError>(LookedUp {
                challenged_exists,
                ratings,
            })
        })
        .await;
        match read {
            Ok(Ok(looked_up)) => Ok(looked_up),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err("the server could not read its storage".to_owned()),
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
        {
            let mut state = self.lock();
            let Some(address) = state.connections.get(&id).map(|c| c.address) else {
                return;
            };
            let limit = state.quotas.registrations_per_hour;
            // This computer's own address is not counted: the load benchmark and a
            // local server register many accounts from it.
            let own = address == IpAddr::from([127, 0, 0, 1])
                || address == IpAddr::from(std::net::Ipv6Addr::LOCALHOST);
            let counted = if own {
                Ok(())
            } else {
                state.registrations.take(address, limit, Instant::now())
            };
            if let Err(wait) = counted {
                let problem = format!(
                    "at most {limit} new accounts an hour from one address; try again in {} s",
                    wait.as_secs() + 1
                );
                return state.send(id, &ServerMessage::error(problem));
            }
        }
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let account = name.clone();
        // Hashed, then stored on the off-lock connection, both on a blocking thread.
        let created = tokio::task::spawn_blocking(move || {
            let hash = accounts::hash(&server.memory, &password)
                .map_err(|_| "the password could not be hashed".to_owned())?;
            server
                .storage_off_lock()
                .create_account(&account, &hash)
                .map_err(|error| error.to_string())
        })
        .await;
        let result = created.unwrap_or_else(|_| Err("the password could not be hashed".into()));
        let mut state = self.lock();
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
        let keys = {
            let mut state = self.lock();
            let Some(address) = state.connections.get(&id).map(|c| c.address) else {
                return;
            };
            let keys = accounts::Keys::new(&name, address);
            if let Some(wait) = state.throttle.wait(&keys, Instant::now()) {
                let problem = format!(
                    "too many failed logins for `{name}` from this address; try again in {} s",
                    wait.as_secs() + 1
                );
                return state.send(id, &ServerMessage::error(problem));
            }
            if state.computers.contains_key(&name) {
                return state.send(id, &ServerMessage::error("that is a computer account"));
            }
            keys
        };
        let server = self.clone();
        let account = name.clone();
        let read =
            tokio::task::spawn_blocking(move || server.storage_off_lock().password_hash(&account))
                .await;
        let stored = match read {
            Ok(Ok(stored)) => stored,
            Ok(Err(error)) => {
                return self
                    .lock()
                    .send(id, &ServerMessage::error(error.to_string()));
            }
            Err(_) => {
                return self
                    .lock()
                    .send(id, &ServerMessage::error("the account could not be read"));
            }
        };
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let checked = tokio::task::spawn_blocking(move || {
            // An unknown name costs as much as a wrong password, so that it does not show.
            accounts::verify(&server.memory, &password, stored.as_deref())
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

    /// Closes each rating period as it ends, for as long as the server runs.
    async fn rating_periods(self: Arc<Self>) {
        loop {
            let server = self.clone();
            let wait = match tokio::task::spawn_blocking(move || server.close_due_periods()).await {
                Ok(Ok(wait)) => wait,
                Ok(Err(error)) => {
                    eprintln!("hnefataflserver: closing a rating period: {error}");
                    self.rating_period
                }
                Err(_) => return,
            };
            tokio::time::sleep(wait).await;
        }
    }

    /// Closes the rating period when it is over, and answers the time to the end of the
    /// next one. The first start of a server (or of a database from before ratings)
    /// begins the first period. When the server was down through whole periods, those
    /// only widen the deviations, and the games not yet counted count in the last.
    fn close_due_periods(&self) -> Result<Duration, StorageError> {
        let period = i64::try_from(self.rating_period.as_millis())
            .unwrap_or(i64::MAX)
            .max(1);
        let mut storage = self.storage_off_lock();
        let now = stored_now();
        let Some(last) = storage.period_end()? else {
            storage.close_period(now, &[], &[], &[])?;
            return Ok(self.rating_period);
        };
        let due = (now - last) / period;
        if due < 1 {
            return Ok(Duration::from_millis((last + period - now).unsigned_abs()));
        }
        let end = last.saturating_add(due.saturating_mul(period));
        let games = storage.uncounted_games(end)?;
        let idle = u32::try_from(due - 1).unwrap_or(u32::MAX);
        let closed = periods::close(storage.all_ratings()?, &games, end, idle);
        storage.close_period(end, &closed.ratings, &closed.history, &closed.counted)?;
        Ok(Duration::from_millis(
            (end.saturating_add(period) - now).unsigned_abs(),
        ))
    }

    /// Answers `ratings` and `rating`: the rules are found under the referee's lock, the
    /// storage is read off it, and the answer is sent under it again.
    async fn rating_query(self: Arc<Self>, id: ConnectionId, message: ClientMessage) {
        let query = match message {
            ClientMessage::Ratings { rules, page } => {
                let state = self.lock();
                match state.find_rules(&rules) {
                    Ok(hash) => Query::Leaderboard {
                        rules_id: state.rules[&hash].info.id.clone(),
                        rules_hash: hash,
                        page,
                    },
                    Err(problem) => {
                        drop(state);
                        return self.lock().send(id, &ServerMessage::error(problem));
                    }
                }
            }
            ClientMessage::Rating { account } => Query::Account { account },
            _ => return,
        };
        let server = self.clone();
        let answer = tokio::task::spawn_blocking(move || server.read_ratings(query)).await;
        let mut state = self.lock();
        let message = match answer {
            Ok(Ok(Answer::Leaderboard {
                rules_id,
                page,
                rows,
            })) => {
                let first = page as usize * RATINGS_PAGE + 1;
                let entries = rows
                    .into_iter()
                    .enumerate()
                    .map(|(index, row)| LeaderboardEntry {
                        rank: u32::try_from(first + index).unwrap_or(u32::MAX),
                        name: row.name,
                        rating: row.rating.round() as i32,
                        deviation: row.deviation.round() as u32,
                        games: row.games,
                    })
                    .collect();
                ServerMessage::Leaderboard {
                    rules_id,
                    page,
                    entries,
                }
            }
            Ok(Ok(Answer::Account {
                account,
                ratings,
                history,
            })) => {
                let ratings = ratings
                    .into_iter()
                    .map(|row| RulesRating {
                        rules_id: state
                            .rules
                            .get(&row.rules_hash)
                            .map(|set| set.info.id.clone())
                            .unwrap_or_default(),
                        rules_hash: row.rules_hash,
                        rating: row.rating.round() as i32,
                        deviation: row.deviation.round() as u32,
                        games: row.games,
                    })
                    .collect();
                let history = history
                    .into_iter()
                    .map(|row| RatingHistory {
                        rules_hash: row.rules_hash,
                        period_end_ms: row.period_end,
                        rating: row.rating.round() as i32,
                        deviation: row.deviation.round() as u32,
                        games: row.games,
                    })
                    .collect();
                ServerMessage::AccountRatings {
                    account,
                    ratings,
                    history,
                }
            }
            Ok(Err(error)) => ServerMessage::error(error.to_string()),
            Err(_) => ServerMessage::error("the ratings could not be read"),
        };
        state.send(id, &message);
    }

    /// Reads what a rating query asks from the ratings' storage connection.
    fn read_ratings(&self, query: Query) -> Result<Answer, StorageError> {
        let mut storage = self.storage_off_lock();
        let limit = RATINGS_PAGE as u32;
        Ok(match query {
            Query::Leaderboard {
                rules_id,
                rules_hash,
                page,
            } => {
                // A page past the end, however far, is an empty one.
                let rows = match page.checked_mul(limit) {
                    Some(skip) => storage.leaderboard(&rules_hash, skip, limit)?,
                    None => Vec::new(),
                };
                Answer::Leaderboard {
                    rules_id,
                    page,
                    rows,
                }
            }
            Query::Account { account } => Answer::Account {
                ratings: storage.account_ratings(&account, limit)?,
                history: storage.history(&account, limit)?,
                account,
            },
        })
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
                        let Some((position, limits, network)) =
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
                            engine.set_network(network);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Rules {
        let text = hnefatafl_data::rules(name).expect("shipped");
        Rules::parse(text.as_bytes()).expect("reads")
    }

    fn dirs(system: Vec<PathBuf>) -> DataDirs {
        DataDirs {
            system,
            ..DataDirs::default()
        }
    }

    #[test]
    fn the_computers_take_a_shipped_rule_files_network_and_the_classic_evaluation_otherwise() {
        let built_in = dirs(Vec::new());
        let brandubh = rules_network(&built_in, "brandubh", &shipped("brandubh"));
        let network = brandubh.expect("brandubh ships a network");
        assert!(
            network
                .check_rules("brandubh", &shipped("brandubh"))
                .is_ok()
        );
        // Brandub is played with brandubh's network (the same board, setup and pieces).
        let brandub = rules_network(&built_in, "brandub", &shipped("brandub"));
        assert!(brandub.is_some_and(|n| n.check_rules("brandub", &shipped("brandub")).is_ok()));
        assert!(rules_network(&built_in, "ard_ri", &shipped("ard_ri")).is_none());
        assert!(rules_network(&built_in, "halatafl", &shipped("halatafl")).is_some());
        assert!(rules_network(&built_in, "copenhagen", &shipped("copenhagen")).is_some());
        assert!(rules_network(&built_in, "copenhagen13", &shipped("copenhagen13")).is_some());

        // An operator's damaged file in a data directory is passed over, not played.
        let data = tempfile::tempdir().expect("a data directory");
        std::fs::create_dir(data.path().join("networks")).expect("networks/");
        std::fs::write(
            data.path().join("networks/brandubh.nnue"),
            b"HNEFNNUE broken",
        )
        .expect("written");
        let damaged = dirs(vec![data.path().to_owned()]);
        assert!(rules_network(&damaged, "brandubh", &shipped("brandubh")).is_none());
    }
}
