//! External engines in the match runner: a program that speaks the OpenTafl Engine
//! Protocol or the Hnefatafl Text Protocol, driven through pipes, against our engine or
//! another program, at equal time.
//!
//! A contender is written `ours:<side>` (or just `<side>`, see [`parse_side`]),
//! `otep:<command line>`, `htp:<command line>` or `htp-host:<command line>`; the command
//! line is split at spaces and run directly (no shell):
//! `htp-host:/usr/local/bin/hnefatafl-text-protocol --depth 2`.
//!
//! `htp-host` is hnefatafl-copenhagen's `--host` mode, the only one in which its engine
//! takes `--ai`, `--depth` and `--seconds` (over standard input it always searches depth
//! 4): the runner listens on a loopback address at [`HOST_PORT`], adds `--host <address>`
//! to the command line, and sends the game over the connection the engine opens.
//!
//! The runner is the host: it keeps the game, checks every move the engine sends, and
//! books the time each answer takes (pipe or connection included) on the engine's clock.
//! A move the rules refuse, an engine that stops answering or breaks the protocol loses
//! the game, and the report says why.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, Shutdown, TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aim::{Clock, Engine};
use hnefatafl_core::otn::{self, OtnMove, Roles, Side as OtnSide};
use hnefatafl_core::{Game, Move, Notation, Outcome, Player, Rules};

use crate::{GameResult, GameSettings, Played, Side, parse_side};

/// The protocols an external engine may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The OpenTafl Engine Protocol.
    Otep,
    /// The Hnefatafl Text Protocol.
    Htp,
    /// hnefatafl-copenhagen's `--host` mode: the engine connects to the runner, which
    /// sends it `play ROLE FROM TO` for the other side's moves and `generate_move`, and
    /// reads back its move as `play ROLE FROM TO`.
    HtpHost,
}

/// One side of a match: our engine with its settings, or an external program.
#[derive(Clone, Debug)]
pub enum Contender {
    /// Our engine.
    Ours(Box<Side>),
    /// A program and the protocol it speaks.
    External {
        /// Its protocol.
        protocol: Protocol,
        /// The program and its arguments.
        command: Vec<String>,
    },
}

/// Reads a contender: `ours:<side>`, `otep:<command>`, `htp:<command>`,
/// `htp-host:<command>`, or a side.
///
/// # Errors
///
/// What cannot be read.
pub fn parse_contender(text: &str) -> Result<Contender, String> {
    let external = |protocol, command: &str| {
        let command: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        if command.is_empty() {
            return Err("an external engine needs a command".to_owned());
        }
        Ok(Contender::External { protocol, command })
    };
    if let Some(command) = text.strip_prefix("otep:") {
        external(Protocol::Otep, command)
    } else if let Some(command) = text.strip_prefix("htp:") {
        external(Protocol::Htp, command)
    } else if let Some(command) = text.strip_prefix("htp-host:") {
        external(Protocol::HtpHost, command)
    } else {
        parse_side(text.strip_prefix("ours:").unwrap_or(text))
            .map(|side| Contender::Ours(Box::new(side)))
    }
}

/// How long to wait for an answer when no clock bounds it.
const NO_CLOCK_WAIT: Duration = Duration::from_secs(300);
/// Extra time an answer may take past the clock before the engine is given up.
const GRACE: Duration = Duration::from_secs(5);
/// How long an engine may take to start (`hello` in OTEP).
const START_WAIT: Duration = Duration::from_secs(10);

/// A player of the match, behind one interface.
trait Mover {
    /// The game starts (after the opening) from `start`.
    fn start(&mut self, start: &Game, clock: Option<Clock>) -> Result<(), String>;
    /// The other side played `mv` on `before`.
    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String>;
    /// The move for the side to move; `None` is a resignation. `clocks` are the clocks
    /// of player 0 and player 1.
    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String>;
    /// The game is over (or abandoned).
    fn finish(&mut self, outcome: Option<Outcome>);
}

struct Ours {
    side: Side,
    engine: Engine,
}

impl Mover for Ours {
    fn start(&mut self, _: &Game, _: Option<Clock>) -> Result<(), String> {
        Ok(())
    }

    fn moved(&mut self, _: &Game, _: Move) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let mut limits = self.side.limits.clone();
        if let Some(clocks) = clocks {
            limits.clock = Some(clocks[game.side_to_move().index()]);
        }
        let found =
            self.engine
                .search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
        Ok(found.best)
    }

    fn finish(&mut self, _: Option<Outcome>) {}
}

/// Where the runner writes to an engine: its standard input, or the connection it opened.
enum Input {
    Pipe(ChildStdin),
    Socket(TcpStream),
}

impl Input {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Input::Pipe(pipe) => pipe,
            Input::Socket(socket) => socket,
        }
    }

    /// Tells the engine that no more comes: the pipe is closed, the connection shut down
    /// (which also ends the thread that reads it).
    fn close(self) {
        if let Input::Socket(socket) = self {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }
}

/// The port hnefatafl-copenhagen's engine connects to in `--host` mode: it adds its
/// server's port to the host it is given, so the runner must listen there.
pub const HOST_PORT: u16 = 49152;

/// How many lines of an engine's standard error the reports quote, at its start and at
/// its end.
const ERROR_LINES: usize = 3;

/// What an engine wrote on its standard error, as much as a report quotes: the first
/// lines (a program that stops says why first, before any backtrace) and the last.
#[derive(Default)]
struct ErrorLines {
    first: Vec<String>,
    last: VecDeque<String>,
    /// Whether lines were left out between the two.
    skipped: bool,
}

impl ErrorLines {
    fn push(&mut self, line: String) {
        if line.trim().is_empty() {
            return;
        }
        if self.first.len() < ERROR_LINES {
            self.first.push(line);
            return;
        }
        if self.last.len() == ERROR_LINES {
            self.last.pop_front();
            self.skipped = true;
        }
        self.last.push_back(line);
    }

    /// The lines kept, as the end of a message (empty without any).
    fn quote(&self) -> String {
        if self.first.is_empty() {
            return String::new();
        }
        let mut quote = format!(": {}", self.first.join(" / "));
        if self.skipped {
            quote.push_str(" / ...");
        }
        for line in &self.last {
            quote.push_str(" / ");
            quote.push_str(line);
        }
        quote
    }
}

/// A running external engine: where to write to it, and what it answers line by line.
struct Process {
    name: String,
    child: Child,
    input: Option<Input>,
    lines: Receiver<String>,
    /// Its standard error, for the report when it ends.
    errors: Arc<Mutex<ErrorLines>>,
}

/// Sends the lines of `from` to the receiver it answers, until `from` ends.
fn read_lines(from: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Keeps what a report quotes of `from`, which is drained to its end.
fn keep_errors(from: impl Read + Send + 'static) -> Arc<Mutex<ErrorLines>> {
    let errors = Arc::new(Mutex::new(ErrorLines::default()));
    let kept = Arc::clone(&errors);
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            kept.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(line);
        }
    });
    errors
}

/// A loopback address of its own with [`HOST_PORT`] open on it.
///
/// The engine fixes the port, so games played at once (`--jobs`, tests run side by side)
/// each take another address of 127.0.0.0/8, all of which are loopback on Linux; where
/// the system has 127.0.0.1 alone, that is the one, and only one game at a time can host.
fn listen() -> Result<TcpListener, String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // Another process starts elsewhere in the range.
    let first = std::process::id().wrapping_mul(4099);
    let mut refused = None;
    for _ in 0..64 {
        let n = first.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
        // 127.0.0.2 to 127.255.255.254.
        let host = Ipv4Addr::from(0x7f00_0002 + n % 0x00ff_fffd);
        match TcpListener::bind((host, HOST_PORT)) {
            Ok(listener) => return Ok(listener),
            Err(error) if error.kind() == ErrorKind::AddrNotAvailable => {
                return TcpListener::bind((Ipv4Addr::LOCALHOST, HOST_PORT)).map_err(|error| {
                    format!("cannot listen on 127.0.0.1:{HOST_PORT} for the engine: {error}")
                });
            }
            Err(error) => refused = Some(format!("{host}:{HOST_PORT}: {error}")),
        }
    }
    Err(format!(
        "cannot listen for the engine on port {HOST_PORT} of any loopback address tried \
         (last {})",
        refused.unwrap_or_default()
    ))
}

impl Process {
    /// Runs `command` with its standard input and output as the protocol's channel.
    fn spawn(command: &[String]) -> Result<Process, String> {
        let mut child = Self::command(command)?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", command.join(" ")))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let errors = keep_errors(child.stderr.take().ok_or("no stderr")?);
        Ok(Process {
            name: command.join(" "),
            child,
            input: Some(Input::Pipe(stdin)),
            lines: read_lines(stdout),
            errors,
        })
    }

    /// Runs `command --host <address>` and waits, up to [`START_WAIT`], for it to connect
    /// to that address at [`HOST_PORT`]; the connection is the protocol's channel. What the
    /// engine prints on its standard output is not read.
    fn host(command: &[String]) -> Result<Process, String> {
        let listener = listen()?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let mut command = command.to_vec();
        command.extend(["--host".to_owned(), address.ip().to_string()]);
        let name = command.join(" ");
        let mut child = Self::command(&command)?
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{name}: {e}"))?;
        let errors = keep_errors(child.stderr.take().ok_or("no stderr")?);
        let mut process = Process {
            name,
            child,
            input: None,
            lines: mpsc::channel().1,
            errors,
        };
        let socket = process.accept(&listener)?;
        // Each line is a whole message: send it at once.
        socket.set_nodelay(true).map_err(|e| e.to_string())?;
        let reader = socket.try_clone().map_err(|e| e.to_string())?;
        process.lines = read_lines(reader);
        process.input = Some(Input::Socket(socket));
        Ok(process)
    }

    fn command(command: &[String]) -> Result<Command, String> {
        let (program, arguments) = command.split_first().ok_or("no command")?;
        let mut command = Command::new(program);
        command.args(arguments);
        Ok(command)
    }

    /// The engine's connection, while it runs and within [`START_WAIT`].
    fn accept(&mut self, listener: &TcpListener) -> Result<TcpStream, String> {
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + START_WAIT;
        loop {
            match listener.accept() {
                Ok((socket, _)) => {
                    socket.set_nonblocking(false).map_err(|e| e.to_string())?;
                    return Ok(socket);
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => {}
                Err(error) => return Err(format!("{}: {address}: {error}", self.name)),
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "{}: ended ({status}) without connecting to {address}{}",
                    self.name,
                    self.last_words()
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{}: did not connect to {address} within {START_WAIT:?}",
                    self.name
                ));
            }
            // The engine is starting; a blocking accept could not also watch it end.
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// What the engine last said on its standard error, as the end of a message.
    fn last_words(&self) -> String {
        // The thread that reads them may still be at it when the engine has just ended.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Arc::strong_count(&self.errors) > 1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.errors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .quote()
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let writer = self.input.as_mut().ok_or("input closed")?.writer();
        let Err(error) = writeln!(writer, "{line}").and_then(|()| writer.flush()) else {
            return Ok(());
        };
        Err(if self.wait_exit(Duration::from_millis(500)) {
            self.ended()
        } else {
            format!("{}: {error}", self.name)
        })
    }

    /// The engine has ended: the message, with its last words.
    fn ended(&self) -> String {
        format!("{}: the engine ended{}", self.name, self.last_words())
    }

    /// The next line for which `wanted` is true, skipping others, within `wait`.
    fn until(&mut self, wait: Duration, wanted: impl Fn(&str) -> bool) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no answer within {wait:?}", self.name));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // Its standard error may still be on its way.
                    let _ = self.wait_exit(Duration::from_millis(500));
                    return Err(self.ended());
                }
            }
        }
    }

    /// Waits up to `wait` for the engine to end; whether it did.
    fn wait_exit(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the engine's input, gives it a moment to leave, then ends it.
    fn close(&mut self) {
        if let Some(input) = self.input.take() {
            input.close();
        }
        if !self.wait_exit(Duration::from_secs(2)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(input) = self.input.take() {
            input.close();
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// How long an engine may take for a move on this clock.
fn answer_wait(clock: Option<Clock>) -> Duration {
    clock.map_or(NO_CLOCK_WAIT, |clock| {
        let overtime = if clock.overtimes > 0 {
            clock.overtime
        } else {
            Duration::ZERO
        };
        clock.remaining + overtime + GRACE
    })
}

/// The move an engine sent, checked against the game.
fn checked(game: &Game, mv: Move, text: &str) -> Result<Move, String> {
    game.check(mv)
        .map(|()| mv)
        .map_err(|e| format!("illegal move `{text}`: {e}"))
}

struct Otep {
    process: Process,
    roles: Roles,
    /// The moves of the game the engine knows of.
    known: usize,
}

impl Otep {
    fn new(command: &[String], rules: &Rules) -> Result<Otep, String> {
        let roles = Roles::of(rules).map_err(|e| e.to_string())?;
        let mut process = Process::spawn(command)?;
        process.until(START_WAIT, |line| line.trim() == "hello")?;
        Ok(Otep {
            process,
            roles,
            known: 0,
        })
    }

    fn record(game: &Game) -> Result<String, String> {
        otn::position_to_otn(game.rules(), game.position())
            .map(|board| board.to_string())
            .map_err(|e| e.to_string())
    }

    fn clock_line(&self, clocks: [Clock; 2]) -> String {
        let attackers = clocks[self.roles.attackers.index()];
        let defenders = clocks[self.roles.attackers.opponent().index()];
        let millis = |clock: Clock| clock.remaining.as_millis();
        format!(
            "clock {} {} {} {} {}",
            millis(attackers),
            millis(defenders),
            attackers.overtime.as_secs(),
            attackers.overtimes,
            defenders.overtimes
        )
    }
}

impl Mover for Otep {
    fn start(&mut self, start: &Game, _: Option<Clock>) -> Result<(), String> {
        let (rules, _) = otn::rules_to_otn_nearest(start.rules()).map_err(|e| e.to_string())?;
        self.process.send(&format!("rules {rules}"))?;
        self.known = 0;
        Ok(())
    }

    fn moved(&mut self, _: &Game, _: Move) -> Result<(), String> {
        // Sent with the position when the engine is next asked.
        Ok(())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let played = game.ply();
        if played > self.known
            && let Some(last) = game.last_move()
        {
            let text = otn::format_simple_move(last);
            self.process
                .send(&format!("opponent-move {text} {}", Self::record(game)?))?;
        }
        let side = self.roles.side(game.side_to_move());
        self.process.send(&format!("play {}", side.word()))?;
        if let Some(clocks) = clocks {
            self.process.send(&self.clock_line(clocks))?;
        }
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        let line = self.process.until(wait, |line| {
            line.starts_with("move ") || line.starts_with("error -1")
        })?;
        let Some(text) = line.strip_prefix("move ") else {
            return Err(format!("{}: {line}", self.process.name));
        };
        let text = text.trim();
        if text == "---" {
            return Ok(None);
        }
        let mv = OtnMove::parse(game.rules(), text)
            .map_err(|e| e.to_string())?
            .mv;
        let mv = checked(game, mv, text)?;
        let mut after = game.clone();
        after.try_play(mv).map_err(|e| e.to_string())?;
        self.process
            .send(&format!("move {}", Self::record(&after)?))?;
        self.known = played + 1;
        Ok(Some(mv))
    }

    fn finish(&mut self, outcome: Option<Outcome>) {
        let code = match outcome {
            None => 0,
            Some(outcome) => match outcome.winner.map(|winner| self.roles.side(winner)) {
                Some(OtnSide::Attackers) => 2,
                Some(OtnSide::Defenders) => 3,
                None => 1,
            },
        };
        let _ = self.process.send(&format!("finish {code}"));
        let _ = self.process.send("goodbye");
        self.process.close();
    }
}

/// The Hnefatafl Text Protocol's words for the game: its roles and `play` lines.
struct HtpWords {
    attackers: Player,
}

impl HtpWords {
    fn new(rules: &Rules) -> HtpWords {
        HtpWords {
            attackers: Roles::of(rules).map_or(Player::Zero, |roles| roles.attackers),
        }
    }

    fn role(&self, player: Player) -> &'static str {
        if player == self.attackers {
            "attacker"
        } else {
            "defender"
        }
    }

    /// `play ROLE FROM TO` for `mv` played on `game`.
    fn play_line(&self, game: &Game, mv: Move) -> String {
        format!(
            "play {} {}",
            self.role(game.side_to_move()),
            game.rules().format_move(mv, Notation::Algebraic)
        )
    }

    /// The engine's move in `answer` (`play ROLE FROM TO`, perhaps followed by
    /// `, comments`), checked on `game`; `None` for `play ROLE resign(s)`.
    fn read_play(&self, game: &Game, answer: &str) -> Result<Option<Move>, String> {
        let answer = answer.split(',').next().unwrap_or("");
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.as_slice() {
            ["play", _, "resign" | "resigns", ..] => Ok(None),
            ["play", role, from, to] => {
                if *role != self.role(game.side_to_move()) {
                    return Err(format!("moved for the {role}, not the side to move"));
                }
                let mv = game
                    .rules()
                    .parse_move(&[from, to])
                    .map_err(|e| format!("`{answer}`: {e}"))?;
                checked(game, mv, answer).map(Some)
            }
            _ => Err(format!("`{answer}` is not `play ROLE FROM TO`")),
        }
    }
}

struct Htp {
    process: Process,
    words: HtpWords,
}

impl Htp {
    fn new(command: &[String], rules: &Rules) -> Result<Htp, String> {
        Ok(Htp {
            process: Process::spawn(command)?,
            words: HtpWords::new(rules),
        })
    }

    /// Sends a command and returns its answer: `Ok` after `=`, `Err` after `?`.
    fn ask(&mut self, command: &str, wait: Duration) -> Result<Result<String, String>, String> {
        self.process.send(command)?;
        let line = self
            .process
            .until(wait, |line| line.starts_with('=') || line.starts_with('?'))?;
        let text = line[1..].trim().to_owned();
        Ok(if line.starts_with('=') {
            Ok(text)
        } else {
            Err(text)
        })
    }

    fn must(&mut self, command: &str) -> Result<String, String> {
        self.ask(command, START_WAIT)?
            .map_err(|message| format!("`{command}`: {message}"))
    }
}

impl Mover for Htp {
    fn start(&mut self, start: &Game, clock: Option<Clock>) -> Result<(), String> {
        let rules = start.rules();
        self.must(&format!("board_size {}", rules.width()))?;
        match clock {
            None => self.must("time_settings un-timed")?,
            // The protocol counts whole minutes and seconds; the runner's clock is the
            // one that judges.
            Some(clock) => self.must(&format!(
                "time_settings fischer {} {}",
                clock.remaining.as_secs().div_ceil(60).max(1),
                clock.increment.as_secs_f64().round()
            ))?,
        };
        let mut replay = Game::new(rules.clone());
        for mv in start.moves() {
            let line = self.words.play_line(&replay, mv);
            self.must(&line)?;
            replay.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String> {
        let line = self.words.play_line(before, mv);
        self.must(&line).map(|_| ())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        let answer = self
            .ask("generate_move", wait)?
            .map_err(|message| format!("generate_move: {message}"))?;
        self.words.read_play(game, &answer)
    }

    fn finish(&mut self, _: Option<Outcome>) {
        let _ = self.process.send("quit");
        self.process.close();
    }
}

/// An engine in hnefatafl-copenhagen's `--host` mode. It answers nothing but its moves:
/// `play` lines are taken silently, other commands (`board_size`, `first_move`, `quit`)
/// are answered on its standard output, and a line it cannot take ends it with the
/// reason on its standard error, which the report quotes. It keeps no clock of its own
/// here (no `time_settings` is sent); the runner's judges.
struct HtpHost {
    process: Process,
    words: HtpWords,
}

impl HtpHost {
    fn new(command: &[String], rules: &Rules) -> Result<HtpHost, String> {
        Ok(HtpHost {
            process: Process::host(command)?,
            words: HtpWords::new(rules),
        })
    }
}

impl Mover for HtpHost {
    fn start(&mut self, start: &Game, _: Option<Clock>) -> Result<(), String> {
        let rules = start.rules();
        let mut replay = Game::new(rules.clone());
        // Its 7x7 game has the defenders move first; ours may not.
        self.process
            .send(&format!("board_size {}", rules.width()))?;
        self.process.send(&format!(
            "first_move {}",
            self.words.role(replay.side_to_move())
        ))?;
        for mv in start.moves() {
            let line = self.words.play_line(&replay, mv);
            self.process.send(&line)?;
            replay.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String> {
        let line = self.words.play_line(before, mv);
        self.process.send(&line)
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        self.process.send("generate_move")?;
        let answer = self.process.until(wait, |_| true)?;
        self.words.read_play(game, &answer)
    }

    fn finish(&mut self, _: Option<Outcome>) {
        // It has left already when its own rules ended the game.
        let _ = self.process.send("quit");
        self.process.close();
    }
}

fn mover(contender: &Contender, rules: &Rules, seed: u64) -> Result<Box<dyn Mover>, String> {
    Ok(match contender {
        Contender::Ours(side) => {
            let mut engine = Engine::with_tuning(side.config.clone(), side.tuning.clone());
            engine.seed(seed);
            Box::new(Ours {
                side: side.as_ref().clone(),
                engine,
            })
        }
        Contender::External {
            protocol: Protocol::Otep,
            command,
        } => Box::new(Otep::new(command, rules)?),
        Contender::External {
            protocol: Protocol::Htp,
            command,
        } => Box::new(Htp::new(command, rules)?),
        Contender::External {
            protocol: Protocol::HtpHost,
            command,
        } => Box::new(HtpHost::new(command, rules)?),
    })
}

/// A game played by [`play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The game.
    pub played: Played,
    /// The contender that failed (0 for A, 1 for B) and why: it did not start, broke the
    /// protocol, sent an illegal move or stopped answering.
    pub failure: Option<(usize, String)>,
}

/// Plays one game from `start` as [`crate::play_game`] does, with external engines
/// among the contenders. A contender that fails loses.
pub fn play(
    start: &Game,
    a: &Contender,
    b: &Contender,
    a_player: Player,
    settings: &GameSettings,
    seed: u64,
) -> Report {
    if let (Contender::Ours(a), Contender::Ours(b)) = (a, b) {
        let mut a = crate::EngineContestant::new(a, seed);
        let mut b = crate::EngineContestant::new(b, seed);
        return Report {
            played: crate::play_game(start, &mut a, &mut b, a_player, settings),
            failure: None,
        };
    }
    let contenders = [a, b];
    let rules = start.rules();
    let mut clocks = settings.clock.map(|clock| [clock; 2]);
    let mut least_left = settings.clock.map(|clock| [clock.remaining; 2]);
    let mut failure = None;
    let end = |result: GameResult, plies, on_time, least_left, failure| Report {
        played: Played {
            result,
            plies,
            on_time,
            least_left,
        },
        failure,
    };
    // The result when contender `index` fails.
    let fails = |index: usize| {
        if index == 0 {
            GameResult::Loss
        } else {
            GameResult::Win
        }
    };
    let mut movers = Vec::with_capacity(2);
    for (index, contender) in contenders.iter().enumerate() {
        match mover(contender, rules, seed).and_then(|mut mover| {
            mover.start(start, settings.clock)?;
            Ok(mover)
        }) {
            Ok(mover) => movers.push(mover),
            Err(message) => {
                finish_all(&mut movers, None);
                return end(fails(index), 0, false, least_left, Some((index, message)));
            }
        }
    }
    let mut game = start.clone();
    let mut plies = 0;
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner {
                Some(winner) if winner == a_player => GameResult::Win,
                Some(_) => GameResult::Loss,
                None => GameResult::Draw,
            };
        }
        if plies >= settings.max_plies {
            break GameResult::Draw;
        }
        let index = usize::from(game.side_to_move() != a_player);
        // Clocks by player for the movers; the runner keeps them by contender.
        let by_player = clocks.map(|c| {
            let mut by = c;
            if a_player == Player::One {
                by.swap(0, 1);
            }
            by
        });
        let started = Instant::now();
        let chosen = movers[index].choose(&game, by_player);
        let used = started.elapsed();
        if let (Some(clocks), Some(least)) = (&mut clocks, &mut least_left) {
            if clocks[index].spend(used).is_err() {
                least[index] = Duration::ZERO;
                finish_all(&mut movers, None);
                return end(fails(index), plies, true, least_left, None);
            }
            least[index] = least[index].min(
                clocks[index]
                    .remaining
                    .saturating_sub(clocks[index].increment),
            );
        }
        let mv = match chosen {
            Ok(Some(mv)) => mv,
            Ok(None) => break fails(index),
            Err(message) => {
                failure = Some((index, message));
                break fails(index);
            }
        };
        let before = game.clone();
        if let Err(error) = game.try_play(mv) {
            failure = Some((index, format!("illegal move: {error}")));
            break fails(index);
        }
        if settings.verbose {
            println!(
                "  ply {plies:3}: {} {} in {used:.2?}",
                ["A", "B"][index],
                rules.format_move(mv, Notation::Algebraic)
            );
        }
        if let Err(message) = movers[1 - index].moved(&before, mv) {
            failure = Some((1 - index, message));
            break fails(1 - index);
        }
        plies += 1;
    };
    finish_all(&mut movers, game.outcome());
    end(result, plies, false, least_left, failure)
}

fn finish_all(movers: &mut [Box<dyn Mover>], outcome: Option<Outcome>) {
    for mover in movers {
        mover.finish(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorLines;

    #[test]
    fn an_engines_last_words_are_quoted_from_their_start_and_end() {
        let mut errors = ErrorLines::default();
        assert_eq!(errors.quote(), "");
        for line in ["Error: why", "", "trace:", "0", "1", "2", "3", "4"] {
            errors.push(line.to_owned());
        }
        assert_eq!(
            errors.quote(),
            ": Error: why / trace: / 0 / ... / 2 / 3 / 4"
        );
        let mut short = ErrorLines::default();
        short.push("Error: why".to_owned());
        assert_eq!(short.quote(), ": Error: why");
    }
}
