//! Helpers for the tests of the server and of the client (`uicx/tests` includes this file
//! too): the real `hnefataflserver` and `hnefatafl` binaries on loopback, and clients that
//! speak to the server over real TLS.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hnefatafl_core::{Game, Move, Rules};
use hnefatafl_net::client::{Client, pins_file};
use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, GameId, GameResult, GameState, GameSummary, LeaderboardEntry,
    OfferKind, RulesInfo, RulesRating, ServerMessage,
};

pub mod binaries;
use binaries::server_binary;

/// How long any one expected message may take.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A server started as [`ServerProcess::start`] does, on any port, in a fresh data
/// directory, and a fresh home directory for its clients: `(data, home, server)`.
pub fn started(extra: &[&str]) -> (tempfile::TempDir, tempfile::TempDir, ServerProcess) {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start(data.path(), 0, extra);
    (data, home, server)
}

/// A running server; killed when dropped.
pub struct ServerProcess {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    /// Everything it printed after its first line.
    pub output: Arc<Mutex<String>>,
}

impl ServerProcess {
    /// Starts the server on 127.0.0.1 with its data in `data`, on `port` (0: any), this
    /// computer's own address (the tests') exempt from the per-address quotas.
    pub fn start(data: &Path, port: u16, extra: &[&str]) -> ServerProcess {
        let mut exempt = vec!["--exempt", "127.0.0.1"];
        exempt.extend_from_slice(extra);
        Self::start_on(data, port, &exempt)
    }

    /// Starts it as [`ServerProcess::start`] does, on any port, with no address exempt
    /// from the per-address quotas.
    pub fn start_bare(data: &Path, extra: &[&str]) -> ServerProcess {
        Self::start_on(data, 0, extra)
    }

    fn start_on(data: &Path, port: u16, extra: &[&str]) -> ServerProcess {
        let mut command = Command::new(server_binary());
        command
            .args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--data"])
            .arg(data)
            .args(extra);
        Self::spawn(command)
    }

    /// Starts it as [`ServerProcess::start`] does, under the umask `umask` (octal), set by
    /// the shell that runs it.
    pub fn start_under_umask(umask: &str, data: &Path, port: u16) -> ServerProcess {
        let mut command = Command::new("sh");
        command
            .args(["-c", "umask \"$1\" && shift && exec \"$@\"", "sh", umask])
            .arg(server_binary())
            .args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--data"])
            .arg(data);
        Self::spawn(command)
    }

    /// Starts it as [`ServerProcess::start`] does (any port), allowed at most `files`
    /// open file descriptors (`ulimit -n`, set by the shell that runs it).
    pub fn start_limited(files: u32, data: &Path) -> ServerProcess {
        let mut command = Command::new("sh");
        command
            .args(["-c", "ulimit -n \"$1\" && shift && exec \"$@\"", "sh"])
            .arg(files.to_string())
            .arg(server_binary())
            .args(["--bind", "127.0.0.1", "--port", "0", "--data"])
            .arg(data);
        Self::spawn(command)
    }

    /// Runs `command`, a server, and reads its port from its first line.
    fn spawn(mut command: Command) -> ServerProcess {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start hnefataflserver");
        let stdout = child.stdout.take().expect("stdout");
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        reader.read_line(&mut first).expect("first line");
        let address = first
            .split_whitespace()
            .nth(3)
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches(',');
        let port = address
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {first:?}"));
        // The first line (address and certificate) is part of what it printed.
        let output = Arc::new(Mutex::new(first.clone()));
        let sink = output.clone();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if let Ok(mut text) = sink.lock() {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
        });
        ServerProcess {
            child,
            port,
            output,
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it with SIGKILL and waits for it to be gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for it to end by itself.
    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().expect("wait")
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs `command`, a server that is to refuse to start, and answers its exit status and
/// standard error once it ends, within [`PATIENCE`].
pub fn refused_start(mut command: Command) -> (std::process::ExitStatus, String) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefataflserver");
    let deadline = std::time::Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server kept running");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut message = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut message)
        .expect("its message");
    (status, message)
}

/// A client with its own home directory (for its pins).
pub struct TestClient {
    /// The connection.
    pub client: Client,
    /// The account, once logged in.
    pub name: String,
    /// The home directory that holds the pins.
    pub home: PathBuf,
}

impl TestClient {
    /// Connects to the server on loopback, pinning in `home`.
    pub async fn connect(port: u16, home: &Path) -> TestClient {
        let client = tokio::time::timeout(
            PATIENCE,
            Client::connect("127.0.0.1", port, &pins_file(home)),
        )
        .await
        .expect("connect in time")
        .expect("connect");
        TestClient {
            client,
            name: String::new(),
            home: home.to_owned(),
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: ClientMessage) {
        self.client.send(&message).await.expect("send");
    }

    /// The next message, within [`PATIENCE`].
    pub async fn next(&mut self) -> ServerMessage {
        tokio::time::timeout(PATIENCE, self.client.recv())
            .await
            .expect("a message in time")
            .expect("a readable message")
            .expect("the connection open")
    }

    /// Reads messages until one passes `pick`, which answers what the test wants of it.
    pub async fn expect<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.next().await;
            if let Some(found) = pick(&message) {
                return found;
            }
        }
    }

    /// Waits for the server to close the connection, within [`PATIENCE`], with nothing
    /// said first.
    pub async fn closed(&mut self) {
        let closed = tokio::time::timeout(PATIENCE, self.client.recv())
            .await
            .expect("closed in time");
        assert!(matches!(closed, Ok(None) | Err(_)), "{closed:?}");
    }

    /// The next error's text, skipping other messages.
    pub async fn error(&mut self) -> String {
        self.expect(|m| match m {
            ServerMessage::Error { message } => Some(message.clone()),
            _ => None,
        })
        .await
    }

    /// Waits for the chat line `marker` and answers the number of other chat lines heard
    /// before it.
    pub async fn chat_before(&mut self, marker: &str) -> usize {
        let mut heard = 0;
        while self.chat().await != marker {
            heard += 1;
        }
        heard
    }

    /// The next chat line's text, skipping other messages.
    pub async fn chat(&mut self) -> String {
        self.expect(|m| match m {
            ServerMessage::Chat { text, .. } => Some(text.clone()),
            _ => None,
        })
        .await
    }

    /// Connects and registers `name` with the password `<name> secret`.
    pub async fn registered(port: u16, home: &Path, name: &str) -> TestClient {
        let mut client = TestClient::connect(port, home).await;
        client.register(name, &format!("{name} secret")).await;
        client
    }

    /// Connects and registers each of `names`, as [`TestClient::registered`] does.
    pub async fn all_registered<const N: usize>(
        port: u16,
        home: &Path,
        names: [&str; N],
    ) -> [TestClient; N] {
        let mut clients = Vec::with_capacity(N);
        for name in names {
            clients.push(TestClient::registered(port, home, name).await);
        }
        clients
            .try_into()
            .unwrap_or_else(|_| unreachable!("a client for each name"))
    }

    /// Offers `kind` in `game` to `other`, who accepts it once it arrives.
    pub async fn agreed_with(&mut self, other: &mut TestClient, game: GameId, kind: OfferKind) {
        self.offer_answered(other, game, kind, true).await;
    }

    /// Offers `kind` in `game` to `other`, who answers `accept` once it arrives.
    pub async fn offer_answered(
        &mut self,
        other: &mut TestClient,
        game: GameId,
        kind: OfferKind,
        accept: bool,
    ) {
        self.send(ClientMessage::Offer { game, kind }).await;
        other
            .expect(|m| {
                matches!(m, ServerMessage::Offered { kind: offered, .. } if *offered == kind)
                    .then_some(())
            })
            .await;
        other
            .send(ClientMessage::Answer { game, kind, accept })
            .await;
    }

    /// Registers an account and waits to be logged in.
    pub async fn register(&mut self, name: &str, password: &str) {
        self.send(ClientMessage::Register {
            name: name.into(),
            password: password.into(),
        })
        .await;
        let logged = self.logged_in().await;
        assert_eq!(logged.0, name);
        self.name = name.to_owned();
    }

    /// Logs in and answers the unfinished games of the account.
    pub async fn login(&mut self, name: &str, password: &str) -> Vec<GameId> {
        self.send(ClientMessage::Login {
            name: name.into(),
            password: password.into(),
        })
        .await;
        let (logged, games) = self.logged_in().await;
        assert_eq!(logged, name);
        self.name = name.to_owned();
        games
    }

    async fn logged_in(&mut self) -> (String, Vec<GameId>) {
        self.expect(|m| match m {
            ServerMessage::LoggedIn { name, games } => Some((name.clone(), games.clone())),
            ServerMessage::Error { message } => panic!("login refused: {message}"),
            _ => None,
        })
        .await
    }

    /// An account's ratings and the count of its history rows, as the server answers
    /// `rating`.
    pub async fn ratings_of(&mut self, account: &str) -> (Vec<RulesRating>, usize) {
        self.send(ClientMessage::Rating {
            account: account.into(),
        })
        .await;
        self.expect(|m| match m {
            ServerMessage::AccountRatings {
                account: a,
                ratings,
                history,
            } if a == account => Some((ratings.clone(), history.len())),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Asks for a list of games, `games` (those under way) or `archive` (the finished
    /// ones), and answers the first page of it.
    pub async fn games_listed(&mut self, question: ClientMessage) -> Vec<GameSummary> {
        let archive = match question {
            ClientMessage::Games => false,
            ClientMessage::Archive => true,
            _ => panic!("{question:?} asks for no list of games"),
        };
        self.send(question).await;
        self.expect(|m| match m {
            ServerMessage::GameList { games } if !archive => Some(games.clone()),
            ServerMessage::ArchiveList { games } if archive => Some(games.clone()),
            _ => None,
        })
        .await
    }

    /// Asks for the rule sets the server plays and answers the first page of the list.
    pub async fn rules_list(&mut self) -> Vec<RulesInfo> {
        self.send(ClientMessage::Rules).await;
        self.expect(|m| match m {
            ServerMessage::RulesList { rules } => Some(rules.clone()),
            _ => None,
        })
        .await
    }

    /// Uploads a rule file and answers what the server says of it once added.
    pub async fn upload(&mut self, text: String) -> RulesInfo {
        self.send(ClientMessage::UploadRules { text }).await;
        self.expect(|m| match m {
            ServerMessage::RulesAdded { rules } => Some(rules.clone()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Sends `new` (or a seek) and answers the number of the game made.
    pub async fn made_game(&mut self, new: ClientMessage) -> GameId {
        self.send(new).await;
        self.game_state().await.summary.game
    }

    /// The first page of the leaderboard of `rules`, as the server answers `ratings`: the
    /// rules' id and the entries.
    pub async fn leaderboard(&mut self, rules: &str) -> (String, Vec<LeaderboardEntry>) {
        self.send(ClientMessage::Ratings {
            rules: rules.into(),
            page: 0,
        })
        .await;
        self.expect(|m| match m {
            ServerMessage::Leaderboard {
                rules_id, entries, ..
            } => Some((rules_id.clone(), entries.clone())),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Waits for the whole state of a game.
    pub async fn game_state(&mut self) -> GameState {
        self.expect(|m| match m {
            ServerMessage::Game { state } => Some(state.clone()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Waits for move `number` of a game and answers it with the clocks.
    pub async fn moved(&mut self, game: GameId, number: u32) -> (Move, Option<[u64; 2]>) {
        let (mv, clocks, _) = self.moved_in_full(game, number).await;
        (mv, clocks)
    }

    /// Waits for move `number` of a game and answers it with the clocks and both sides'
    /// byo-yomi periods.
    pub async fn moved_in_full(
        &mut self,
        game: GameId,
        number: u32,
    ) -> (Move, Option<[u64; 2]>, Option<[u32; 2]>) {
        self.expect(|m| match m {
            ServerMessage::Moved {
                game: g,
                number: n,
                mv,
                clocks,
                periods,
                ..
            } if *g == game && *n == number => Some((*mv, *clocks, *periods)),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Waits for the end of a game and answers its result.
    pub async fn ended(&mut self, game: GameId) -> GameResult {
        self.expect(|m| match m {
            ServerMessage::Ended { game: g, result } if *g == game => Some(*result),
            _ => None,
        })
        .await
    }
}

/// A `new` message: a game of `rules` with `clock`, open to whoever joins, the sender
/// player 0.
pub fn open_game(rules: &str, clock: Option<ClockSpec>, rated: bool) -> ClientMessage {
    ClientMessage::New {
        rules: rules.into(),
        clock,
        side: 0,
        opponent: None,
        rated,
    }
}

/// A `new` message: a game of `rules` with no clock against the computer account
/// `computer`, the sender at `side`.
pub fn computer_game(rules: &str, computer: &str, side: u8, rated: bool) -> ClientMessage {
    ClientMessage::New {
        rules: rules.into(),
        clock: None,
        side,
        opponent: Some(computer.into()),
        rated,
    }
}

/// `first` makes a game with `new` and `second` takes the free seat; answers the game as
/// each of them saw it on sitting down.
pub async fn make_and_join(
    first: &mut TestClient,
    second: &mut TestClient,
    new: ClientMessage,
) -> [GameState; 2] {
    first.send(new).await;
    let made = first.game_state().await;
    second
        .send(ClientMessage::Join {
            game: made.summary.game,
        })
        .await;
    let joined = second.game_state().await;
    [made, joined]
}

/// Ann (player 0) and Bob (player 1), registered, at a new game of brandub with `clock`;
/// the game as Bob saw it when he sat down.
pub async fn seated(port: u16, home: &Path, clock: ClockSpec) -> ([TestClient; 2], GameState) {
    let mut ann = TestClient::connect(port, home).await;
    ann.register("ann", "password a").await;
    let mut bob = TestClient::connect(port, home).await;
    bob.register("bob", "password b").await;
    let [_, state] =
        make_and_join(&mut ann, &mut bob, open_game("brandub", Some(clock), false)).await;
    ([ann, bob], state)
}

/// The game of a state, replayed on its own copy of the rules.
pub fn replay(state: &GameState) -> Game {
    let rules = Rules::parse(state.rules_text.as_bytes()).expect("the server's rules read");
    let mut game = Game::new(rules);
    for &mv in &state.moves {
        game.try_play(mv).expect("a legal move");
    }
    game
}

/// A small random number generator (xorshift), so that games repeat from a seed.
pub struct Random(pub u64);

impl Random {
    /// A number below `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// A random legal move of the game.
pub fn random_move(game: &Game, random: &mut Random) -> Move {
    let moves: Vec<_> = game.legal_moves().collect();
    assert!(!moves.is_empty(), "a move to make");
    moves[random.below(moves.len())]
}

/// Sends a random legal move of `game` from the player whose turn it is, of the two
/// seated as player 0 and player 1 at game `id`, and answers the move.
pub async fn send_random_move(
    players: [&mut TestClient; 2],
    id: GameId,
    game: &Game,
    random: &mut Random,
) -> Move {
    let mv = random_move(game, random);
    let [zero, one] = players;
    let mover = if game.side_to_move().index() == 0 {
        zero
    } else {
        one
    };
    mover.send(ClientMessage::Move { game: id, mv }).await;
    mv
}

/// Plays the move on a local copy.
pub fn apply(game: &mut Game, mv: Move) {
    game.try_play(mv).expect("a legal move");
}

/// Two players at one game, playing random legal moves.
pub struct Duel {
    /// Player 0 and player 1.
    pub players: [TestClient; 2],
    /// The game on the server.
    pub id: GameId,
    /// The local copy.
    pub game: Game,
    /// Moves made.
    pub number: u32,
    /// The moves' source.
    pub random: Random,
}

impl Duel {
    /// Registers two players, makes a game of `rules` and seats them.
    pub async fn start(port: u16, home: &Path, rules: &str, names: [&str; 2], seed: u64) -> Duel {
        let mut first = TestClient::connect(port, home).await;
        first.register(names[0], "password 0").await;
        let mut second = TestClient::connect(port, home).await;
        second.register(names[1], "password 1").await;
        let [state, _] =
            make_and_join(&mut first, &mut second, open_game(rules, None, false)).await;
        Duel {
            players: [first, second],
            id: state.summary.game,
            game: replay(&state),
            number: 0,
            random: Random(seed),
        }
    }

    /// A new game of `rules` between the same players, the first player 0 again.
    pub async fn next_game(&mut self, rules: &str) {
        let [first, second] = &mut self.players;
        let [state, _] = make_and_join(first, second, open_game(rules, None, false)).await;
        self.id = state.summary.game;
        self.game = replay(&state);
        self.number = 0;
    }

    /// Plays one random legal move and checks that both players hear of it.
    pub async fn play(&mut self) {
        self.number += 1;
        let [zero, one] = &mut self.players;
        let sent = send_random_move([zero, one], self.id, &self.game, &mut self.random).await;
        for player in &mut self.players {
            assert_eq!(player.moved(self.id, self.number).await.0, sent);
        }
        apply(&mut self.game, sent);
    }
}

impl ServerProcess {
    /// Polls until the server has ended by itself, for at most `limit`.
    pub fn ended_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + limit;
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Polls the printed output until it passes `check`, for at most [`PATIENCE`].
    pub fn output_until(&self, check: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let text = self.output.lock().map(|t| t.clone()).unwrap_or_default();
            if check(&text) || std::time::Instant::now() > deadline {
                return text;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The most lines a quota of `per_second` lines a second, in bursts of as many, lets
/// through in `during`.
pub fn lines_allowed(per_second: usize, during: Duration) -> usize {
    per_second + (per_second as f64 * during.as_secs_f64()).ceil() as usize
}

/// A TLS connection with nothing said yet, for tests that speak the raw protocol.
pub async fn raw_connection(
    port: u16,
    home: &Path,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    tls_over(tcp, port, home).await.expect("handshake")
}

/// The TLS handshake over `tcp`, a connection to the server on 127.0.0.1 at `port`, its
/// certificate pinned in `home`.
pub async fn tls_over(
    tcp: tokio::net::TcpStream,
    port: u16,
    home: &Path,
) -> std::io::Result<tokio_rustls::client::TlsStream<tokio::net::TcpStream>> {
    let setup = hnefatafl_net::tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home))
        .expect("tls");
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
    tokio_rustls::TlsConnector::from(setup.config)
        .connect(name, tcp)
        .await
}
