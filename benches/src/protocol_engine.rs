//! External engines in the match runner: a program that speaks the OpenTafl Engine
//! Protocol or the Hnefatafl Text Protocol, driven through pipes, against our engine or
//! another program, at equal time.
//!
//! A contender is written `ours:<side>` (or just `<side>`, see [`parse_side`]),
//! `otep:<command line>` or `htp:<command line>`; the command line is split at spaces
//! and run directly (no shell): `htp:/usr/local/bin/engine --depth 3`.
//!
//! The runner is the host: it keeps the game, checks every move the engine sends, and
//! books the time each answer takes (pipe included) on the engine's clock. A move the
//! rules refuse, an engine that stops answering or breaks the protocol loses the game,
//! and the report says why.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
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

/// Reads a contender: `ours:<side>`, `otep:<command>`, `htp:<command>`, or a side.
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

/// A running external engine: its stdin and its stdout line by line.
struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Process {
    fn spawn(command: &[String]) -> Result<Process, String> {
        let name = command.join(" ");
        let (program, arguments) = command.split_first().ok_or("no command")?;
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{name}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            name,
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("input closed")?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
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
                    return Err(format!("{}: the engine ended", self.name));
                }
            }
        }
    }

    /// Closes the engine's input, gives it a moment to leave, then ends it.
    fn close(&mut self) {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
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

struct Htp {
    process: Process,
    attackers: Player,
}

impl Htp {
    fn new(command: &[String], rules: &Rules) -> Result<Htp, String> {
        let attackers = Roles::of(rules).map_or(Player::Zero, |roles| roles.attackers);
        Ok(Htp {
            process: Process::spawn(command)?,
            attackers,
        })
    }

    fn role(&self, player: Player) -> &'static str {
        if player == self.attackers {
            "attacker"
        } else {
            "defender"
        }
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

    fn play_line(&self, game: &Game, mv: Move) -> String {
        format!(
            "play {} {}",
            self.role(game.side_to_move()),
            game.rules().format_move(mv, Notation::Algebraic)
        )
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
            let line = self.play_line(&replay, mv);
            self.must(&line)?;
            replay.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String> {
        let line = self.play_line(before, mv);
        self.must(&line).map(|_| ())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        let answer = self
            .ask("generate_move", wait)?
            .map_err(|message| format!("generate_move: {message}"))?;
        // `play ROLE FROM TO`, perhaps followed by `, comments`.
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

    fn finish(&mut self, _: Option<Outcome>) {
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
