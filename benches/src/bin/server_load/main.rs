//! The server's load benchmark: many clients on loopback play many games of random legal
//! moves at once through a real `hnefataflserver`, over its TLS port or its web port's
//! WebSocket, with as many idle clients logged in beside them.
//!
//! ```text
//! cargo build --release -p hnefatafl-server --bin hnefataflserver
//! cargo run --release -p hnefatafl-benches --bin server_load -- [--games 100]
//!       [--rules brandub] [--plies 1000] [--seed 1] [--server target/release/hnefataflserver]
//!       [--computer LEVEL [--computer-threads N]] [--transport tls|websocket] [--idle N]
//! ```
//!
//! Each game has two clients of its own (so 100 games are 200 clients), or with
//! `--computer` one client against the server's computer account of that level, and every
//! game must complete: one that reaches the ply cap ends by resignation. Reports the moves
//! per second the server referees, stores and passes on, the latency of a move from the
//! mover's sending it to the mover's reading the server's acknowledgement (and against a
//! computer, of its reply), and the server process's peak resident memory (`VmHWM`) and
//! most threads. The server is started with `--exempt 127.0.0.1`: every client comes from
//! the loopback, which its per-address quotas would otherwise refuse. With `--transport
//! websocket` it is started with `--web-port 0` too and every client opens the WebSocket
//! at /ws of that port over TLS, from the page's own origin; `--idle N` logs in N more
//! clients that only read what the server sends them while the games are played.

mod connection;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use hnefatafl_core::{Game, Rules};
use hnefatafl_net::protocol::{ClientMessage, GameId, ServerMessage};
use tokio::io::{AsyncBufReadExt, BufReader};

use connection::{Connection, Transport};

/// Loads a real hnefataflserver with many clients playing random games at once: each
/// game has two clients of its own (or, with --computer, one against a computer account),
/// and every game must complete (one that reaches the ply cap ends by resignation).
/// Reports the moves per second the server referees, stores and passes on, the latency of
/// a move from sending it to reading the server's acknowledgement (and of a computer's
/// reply), and the server's peak resident memory and threads.
#[derive(Parser)]
#[command(name = "server_load", version)]
struct Options {
    /// Games played at once, each by two clients of its own.
    #[arg(long, default_value_t = 100, value_name = "N")]
    games: usize,
    /// The shipped rule file the games are played by, by name.
    #[arg(long, default_value = "brandub", value_name = "NAME")]
    rules: String,
    /// The ply cap of a game: a game that reaches it ends by resignation.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    plies: usize,
    /// The seed of the random moves.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The server program [default: hnefataflserver beside this program, or on $PATH].
    #[arg(long, value_name = "FILE")]
    server: Option<PathBuf>,
    /// Play every game against the server's computer account of this level (1 to 6), one
    /// client a game: the client plays the first side with random moves.
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u32).range(1..=6))]
    computer: Option<u32>,
    /// With --computer: the threads the server's computer players share
    /// (`--computer-threads`) [default: the server's].
    #[arg(long, value_name = "N", requires = "computer")]
    computer_threads: Option<u64>,
    /// The longest wait, in seconds, for a message in play (a computer's reply waits for
    /// every search queued before it); past it the benchmark fails.
    #[arg(long, value_name = "SECONDS", default_value_t = PATIENCE.as_secs())]
    patience: u64,
    /// How the clients reach the server: its TLS port, or its web port's WebSocket.
    #[arg(long, value_enum, default_value = "tls", value_name = "TRANSPORT")]
    transport: Transport,
    /// Clients logged in beside the players that only read what the server sends them.
    #[arg(long, default_value_t = 0, value_name = "N")]
    idle: usize,
}

impl Options {
    /// The server program: `--server`, or `hnefataflserver` beside this program.
    fn server(&self) -> PathBuf {
        self.server.clone().unwrap_or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(|dir| dir.join("hnefataflserver")))
                .unwrap_or_else(|| PathBuf::from("hnefataflserver"))
        })
    }

    /// The clients of one game: one against a computer, else two.
    fn players_per_game(&self) -> usize {
        if self.computer.is_some() { 1 } else { 2 }
    }

    /// The server's arguments beyond its address and data folder.
    fn server_arguments(&self) -> Vec<String> {
        // Every client comes from the loopback: no per-address quota may count them.
        let mut arguments = vec!["--exempt".to_owned(), "127.0.0.1".to_owned()];
        arguments.extend(
            self.transport
                .server_arguments()
                .iter()
                .map(|a| a.to_string()),
        );
        if let Some(level) = self.computer {
            arguments.extend(["--computer".to_owned(), level.to_string()]);
        }
        if let Some(threads) = self.computer_threads {
            arguments.extend(["--computer-threads".to_owned(), threads.to_string()]);
        }
        arguments
    }
}

/// What one player saw of its game.
#[derive(Default)]
struct Report {
    /// Moves this player made.
    moves: usize,
    /// Each of its moves: from sending to the acknowledgement.
    latencies: Vec<Duration>,
    /// Each of the computer opponent's moves: from the acknowledgement of this player's
    /// move to the computer's move.
    replies: Vec<Duration>,
    /// Whether the game ended.
    ended: bool,
}

/// The longest wait for any one message but a move in play (`--patience`): past it the
/// benchmark fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// The next message, within `patience`; `None` when the server closed the connection.
async fn receive_within(
    client: &mut Connection,
    patience: Duration,
) -> Result<Option<ServerMessage>, String> {
    tokio::time::timeout(patience, client.recv())
        .await
        .map_err(|_| format!("no message from the server in {} s", patience.as_secs()))?
}

/// The next message, within [`PATIENCE`]; `None` when the server closed the connection.
async fn receive(client: &mut Connection) -> Result<Option<ServerMessage>, String> {
    receive_within(client, PATIENCE).await
}

/// The server process, killed however the benchmark ends.
struct ServerGuard(std::process::Child);

impl Drop for ServerGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A small random number generator (xorshift): the moves repeat from a seed.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Connects by `transport` and registers `name`: the logged-in connection.
async fn connect(
    transport: Transport,
    port: u16,
    pins: &Path,
    name: &str,
) -> Result<Connection, String> {
    let mut client = Connection::open(transport, port, pins).await?;
    client
        .send(&ClientMessage::Register {
            name: name.into(),
            password: format!("password of {name}"),
        })
        .await?;
    loop {
        match receive(&mut client).await? {
            Some(ServerMessage::LoggedIn { .. }) => return Ok(client),
            Some(ServerMessage::Error { message }) => return Err(message),
            Some(_) => {}
            None => return Err("closed".into()),
        }
    }
}

/// One side of a game: its client and game, and whether its opponent is a computer.
struct Player {
    client: Connection,
    id: GameId,
    side: usize,
    game: Game,
    against_computer: bool,
    /// The longest wait for a message.
    patience: Duration,
}

/// Plays one side of a game with random legal moves until it ends; against a computer,
/// the computer's moves count too.
async fn play(player: Player, plies: usize, mut random: u64) -> Result<Report, String> {
    let Player {
        mut client,
        id,
        side,
        mut game,
        against_computer,
        patience,
    } = player;
    let mut report = Report::default();
    let mut sent: Option<Instant> = None;
    let mut acknowledged: Option<Instant> = None;
    loop {
        if sent.is_none() && game.side_to_move().index() == side && game.outcome().is_none() {
            let message = if game.ply() >= plies {
                ClientMessage::Resign { game: id }
            } else {
                let moves: Vec<_> = game.legal_moves().collect();
                let mv = moves[(next_random(&mut random) % moves.len() as u64) as usize];
                ClientMessage::Move { game: id, mv }
            };
            client.send(&message).await?;
            sent = Some(Instant::now());
        }
        match receive_within(&mut client, patience).await? {
            Some(ServerMessage::Moved {
                game: g,
                mv,
                side: mover,
                ..
            }) if g == id => {
                game.try_play(mv).map_err(|e| e.to_string())?;
                if usize::from(mover) == side {
                    if let Some(start) = sent.take() {
                        report.latencies.push(start.elapsed());
                    }
                    acknowledged = Some(Instant::now());
                    report.moves += 1;
                } else if against_computer {
                    if let Some(start) = acknowledged.take() {
                        report.replies.push(start.elapsed());
                    }
                    report.moves += 1;
                }
            }
            Some(ServerMessage::Ended { game: g, .. }) if g == id => {
                report.ended = true;
                return Ok(report);
            }
            Some(ServerMessage::Error { message }) => return Err(message),
            Some(_) => {}
            None => return Err("the server closed the connection".into()),
        }
    }
}

/// Starts the server on a free port of the loopback with a fresh data folder; its guard
/// and the port of `transport` it says it listens on.
async fn start_server(
    program: &Path,
    data: &Path,
    arguments: &[String],
    transport: Transport,
) -> Result<(ServerGuard, u16), String> {
    let server = Command::new(program)
        .args(["--bind", "127.0.0.1", "--port", "0", "--data"])
        .arg(data)
        .args(arguments)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let mut server = ServerGuard(server);
    let stdout = server.0.stdout.take().ok_or("no stdout")?;
    let mut lines =
        BufReader::new(tokio::process::ChildStdout::from_std(stdout).map_err(|e| e.to_string())?)
            .lines();
    let announcement = transport.announcement();
    let line = loop {
        match lines.next_line().await.map_err(|e| e.to_string())? {
            Some(line) if line.starts_with(announcement) => break line,
            Some(_) => {}
            None => return Err(format!("the server did not say {announcement:?}")),
        }
    };
    // "... on 127.0.0.1:PORT, certificate ..." or "... at https://127.0.0.1:PORT/".
    let port: u16 = line[announcement.len()..]
        .split([',', '/', ' '])
        .next()
        .and_then(|address| address.rsplit(':').next())
        .and_then(|port| port.parse().ok())
        .ok_or_else(|| format!("no port in {line:?}"))?;
    // Whatever else it says is read, so that it never writes to a closed pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok((server, port))
}

/// The next message that is not for the pair's own seating: the game the server shows,
/// or its error.
async fn seating(client: &mut Connection) -> Result<ServerMessage, String> {
    loop {
        match receive(client).await? {
            Some(message @ ServerMessage::Game { .. }) => return Ok(message),
            Some(ServerMessage::Error { message }) => return Err(message),
            Some(_) => {}
            None => return Err("closed".into()),
        }
    }
}

/// Seats clients at a new game of `rules`: the first creates it, the second (if any)
/// joins; without a second, `opponent` (a computer account) takes the other seat. The
/// game and its rules.
async fn seat(
    first: &mut Connection,
    second: Option<&mut Connection>,
    rules: &str,
    opponent: Option<String>,
) -> Result<(GameId, Rules), String> {
    first
        .send(&ClientMessage::New {
            rules: rules.to_owned(),
            clock: None,
            side: 0,
            opponent,
            rated: false,
        })
        .await?;
    let ServerMessage::Game { state } = seating(first).await? else {
        return Err("no game".into());
    };
    let (id, text) = (state.summary.game, state.rules_text);
    if let Some(second) = second {
        second
            .send(&ClientMessage::Join { game: id })
            .await
            .map_err(|e| e.to_string())?;
        // Seated before anyone moves: the first move must not reach a waiting game.
        seating(second).await?;
    }
    let rules = Rules::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok((id, rules))
}

/// The server's peak resident memory (`VmHWM`, in kB) and threads now, from
/// `/proc/<pid>/status`; `None` where that cannot be read (not Linux).
fn server_status(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|value| value.parse().ok())
    };
    Some((field("VmHWM:")?, field("Threads:")?))
}

/// Polls the server's status every 50 ms until `stop`: its peak resident memory (kB) and
/// the most threads it had.
async fn watch_server(pid: u32, stop: tokio::sync::watch::Receiver<bool>) -> Option<(u64, u64)> {
    let mut peak: Option<(u64, u64)> = None;
    while !*stop.borrow() {
        if let Some((memory, threads)) = server_status(pid) {
            let (m, t) = peak.unwrap_or_default();
            peak = Some((m.max(memory), t.max(threads)));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    peak
}

/// What the players saw, all together, and what the server used.
#[derive(Default)]
struct Totals {
    moves: usize,
    ended: usize,
    latencies: Vec<Duration>,
    replies: Vec<Duration>,
    /// Idle clients still connected at the end.
    idle: usize,
    /// The server's peak resident memory (kB) and most threads.
    server: Option<(u64, u64)>,
}

/// The median, 95th and 99th percentiles and the maximum of `durations`, in ms.
fn percentiles(durations: &mut [Duration]) -> String {
    durations.sort();
    let at = |fraction: f64| {
        let index = ((durations.len() as f64 - 1.0) * fraction).round() as usize;
        durations.get(index).copied().unwrap_or_default()
    };
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(at(0.5)),
        ms(at(0.95)),
        ms(at(0.99)),
        ms(at(1.0))
    )
}

/// Prints the load's figures.
fn print_report(options: &Options, logged_in: Duration, played: Duration, totals: &mut Totals) {
    let (moves, ended) = (totals.moves, totals.ended);
    let games_ended = ended / options.players_per_game();
    let opponent = options
        .computer
        .map(|level| format!(", against computer{level}"))
        .unwrap_or_default();
    let transport = match options.transport {
        Transport::Tls => "TLS lines",
        Transport::Websocket => "WebSocket",
    };
    println!(
        "clients: {} playing and {} idle over {transport}, games: {}, rules: {}{opponent}",
        options.games * options.players_per_game(),
        options.idle,
        options.games,
        options.rules
    );
    println!(
        "register and log in every client: {:.2} s",
        logged_in.as_secs_f64()
    );
    println!(
        "games completed: {games_ended} of {} ({} players saw the end)",
        options.games, ended
    );
    println!(
        "moves: {moves} in {:.2} s: {:.0} moves/s",
        played.as_secs_f64(),
        moves as f64 / played.as_secs_f64()
    );
    println!(
        "move latency (send to acknowledgement): {}",
        percentiles(&mut totals.latencies)
    );
    if options.computer.is_some() {
        println!(
            "computer reply (acknowledgement to the computer's move): {}",
            percentiles(&mut totals.replies)
        );
    }
    println!(
        "idle clients still connected at the end: {} of {}",
        totals.idle, options.idle
    );
    match totals.server {
        Some((memory, threads)) => println!(
            "server: peak resident memory (VmHWM) {:.1} MB, at most {threads} threads",
            memory as f64 / 1000.0
        ),
        None => println!("server: no memory figures (no /proc)"),
    }
}

/// An idle client: reads what the server sends it until `stop`; an error if the server
/// closes its connection or sends it an error first.
async fn stay_idle(
    mut client: Connection,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), String> {
    loop {
        tokio::select! {
            _ = stop.wait_for(|stopped| *stopped) => return Ok(()),
            message = client.recv() => match message? {
                Some(ServerMessage::Error { message }) => {
                    return Err(format!("an idle client: {message}"));
                }
                Some(_) => {}
                None => return Err("the server closed an idle client's connection".into()),
            },
        }
    }
}

/// Seats the clients, one or two to a game: each game's players.
async fn seat_all(options: &Options, clients: Vec<Connection>) -> Result<Vec<Player>, String> {
    let opponent = options.computer.map(|level| format!("computer{level}"));
    let against_computer = opponent.is_some();
    let mut players = Vec::new();
    let mut clients = clients.into_iter();
    while let Some(mut first) = clients.next() {
        let mut second = if against_computer {
            None
        } else {
            Some(clients.next().ok_or("an odd number of clients")?)
        };
        let (id, rules) = seat(
            &mut first,
            second.as_mut(),
            &options.rules,
            opponent.clone(),
        )
        .await?;
        for (side, client) in [Some(first), second].into_iter().flatten().enumerate() {
            let game = Game::new(rules.clone());
            players.push(Player {
                client,
                id,
                side,
                game,
                against_computer,
                patience: Duration::from_secs(options.patience),
            });
        }
    }
    Ok(players)
}

async fn run(options: Options) -> Result<(), String> {
    let data = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (server, port) = start_server(
        &options.server(),
        data.path(),
        &options.server_arguments(),
        options.transport,
    )
    .await?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let watcher = tokio::spawn(watch_server(server.0.id(), stopped.clone()));
    let pins = data.path().join("known_servers");

    // Log in every client, the idle ones too, and seat the players, one or two to a game.
    let start = Instant::now();
    let players = options.games * options.players_per_game();
    let names = (0..players)
        .map(|index| format!("player{index}"))
        .chain((0..options.idle).map(|index| format!("idle{index}")));
    let mut logins = Vec::new();
    for name in names {
        let (pins, transport) = (pins.clone(), options.transport);
        logins.push(tokio::spawn(async move {
            connect(transport, port, &pins, &name).await
        }));
    }
    let mut clients = Vec::new();
    for login in logins {
        clients.push(login.await.map_err(|e| e.to_string())??);
    }
    let logged_in = start.elapsed();
    let idle: Vec<_> = clients
        .split_off(players)
        .into_iter()
        .map(|client| tokio::spawn(stay_idle(client, stopped.clone())))
        .collect();
    let seated = seat_all(&options, clients).await?;

    // Every game at once.
    let play_start = Instant::now();
    let mut players = Vec::new();
    for (index, player) in seated.into_iter().enumerate() {
        // The two sides of a game share a seed and differ by their side.
        let game = (index / options.players_per_game()) as u64;
        let seed = options.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (game + 1);
        let random = seed.wrapping_add(player.side as u64) | 1;
        players.push(tokio::spawn(play(player, options.plies, random)));
    }
    let mut totals = Totals::default();
    for player in players {
        let report = player.await.map_err(|e| e.to_string())??;
        totals.moves += report.moves;
        totals.ended += usize::from(report.ended);
        totals.latencies.extend(report.latencies);
        totals.replies.extend(report.replies);
    }
    let played = play_start.elapsed();
    let _ = stop.send(true);
    for client in idle {
        client.await.map_err(|e| e.to_string())??;
        totals.idle += 1;
    }
    totals.server = watcher.await.map_err(|e| e.to_string())?;
    drop(server);
    print_report(&options, logged_in, played, &mut totals);
    if totals.ended != options.games * options.players_per_game() {
        return Err("not every game completed".into());
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut options = Options::parse();
    options.games = options.games.max(1);
    options.plies = options.plies.max(1);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("server_load: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("server_load: {message}");
            ExitCode::FAILURE
        }
    }
}
