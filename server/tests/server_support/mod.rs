//! Helpers for the tests of the server and of the client (`uicx/tests` includes this file
//! too): the real `hnefataflserver` and `hnefatafl` binaries on loopback, and clients that
//! speak to the server over real TLS.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hnefatafl_core::{Game, Move, Rules};
use hnefatafl_net::client::{Client, pins_file};
use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, GameId, GameState, OfferKind, RulesRating, ServerMessage,
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

    /// The next error's text, skipping other messages.
    pub async fn error(&mut self) -> String {
        self.expect(|m| match m {
            ServerMessage::Error { message } => Some(message.clone()),
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

    /// Offers `kind` in `game` to `other`, who accepts it once it arrives.
    pub async fn agreed_with(&mut self, other: &mut TestClient, game: GameId, kind: OfferKind) {
        self.send(ClientMessage::Offer { game, kind }).await;
        other
            .expect(|m| matches!(m, ServerMessage::Offered { .. }).then_some(()))
            .await;
        other
            .send(ClientMessage::Answer {
                game,
                kind,
                accept: true,
            })
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
        self.expect(|m| match m {
            ServerMessage::Moved {
                game: g,
                number: n,
                mv,
                clocks,
                ..
            } if *g == game && *n == number => Some((*mv, *clocks)),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }
}

/// Ann (player 0) and Bob (player 1), registered, at a new game of brandub with `clock`;
/// the game as Bob saw it when he sat down.
pub async fn seated(port: u16, home: &Path, clock: ClockSpec) -> ([TestClient; 2], GameState) {
    let mut ann = TestClient::connect(port, home).await;
    ann.register("ann", "password a").await;
    let mut bob = TestClient::connect(port, home).await;
    bob.register("bob", "password b").await;
    ann.send(ClientMessage::New {
        rules: "brandub".into(),
        clock: Some(clock),
        side: 0,
        opponent: None,
        rated: false,
    })
    .await;
    let id = ann.game_state().await.summary.game;
    bob.send(ClientMessage::Join { game: id }).await;
    let state = bob.game_state().await;
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
        first
            .send(ClientMessage::New {
                rules: rules.into(),
                clock: None,
                side: 0,
                opponent: None,
                rated: false,
            })
            .await;
        let state = first.game_state().await;
        let id = state.summary.game;
        second.send(ClientMessage::Join { game: id }).await;
        second.game_state().await;
        Duel {
            players: [first, second],
            id,
            game: replay(&state),
            number: 0,
            random: Random(seed),
        }
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

/// A TLS connection with nothing said yet, for tests that speak the raw protocol.
pub async fn raw_connection(
    port: u16,
    home: &Path,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let setup = hnefatafl_net::tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home))
        .expect("tls");
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
    tokio_rustls::TlsConnector::from(setup.config)
        .connect(name, tcp)
        .await
        .expect("handshake")
}
