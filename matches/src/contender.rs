//! The contenders of a match: this project's engine with a side's settings, or an
//! external engine, a program that speaks the OpenTafl Engine Protocol or the Hnefatafl
//! Text Protocol, driven through [`hnefatafl_protocol::host`] against our engine or
//! another program, at equal time.
//!
//! A contender is written `ours:<side>` (or just `<side>`, see [`parse_side`]),
//! `otep:<command line>`, `htp:<command line>` or `htp-host:<command line>`; the command
//! line is split at spaces and run directly (no shell):
//! `htp-host:/usr/local/bin/hnefatafl-text-protocol --depth 2` (hnefatafl-copenhagen's
//! `--host` mode, for which the runner listens at [`host::HOST_PORT`]).
//!
//! The runner is the host: it keeps the game, checks every move the engine sends, and
//! books the time each answer takes (pipe or connection included) on the engine's clock.
//! A move the rules refuse, an engine that stops answering or breaks the protocol loses
//! the game, and the report says why.

use std::time::{Duration, Instant};

use aim::{Clock, Engine};
use hnefatafl_core::{Game, Move, Notation, Outcome, Player, Rules};
use hnefatafl_protocol::host::{self, Mover, Protocol};

use crate::{GameResult, GameSettings, Played, Side, parse_side};

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
    for protocol in Protocol::ALL {
        let Some(command) = text
            .strip_prefix(protocol.word())
            .and_then(|rest| rest.strip_prefix(':'))
        else {
            continue;
        };
        let command: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        if command.is_empty() {
            return Err("an external engine needs a command".to_owned());
        }
        return Ok(Contender::External { protocol, command });
    }
    parse_side(text.strip_prefix("ours:").unwrap_or(text))
        .map(|side| Contender::Ours(Box::new(side)))
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
        let found = self.engine.search_within(game, &limits);
        Ok(found.best)
    }

    fn finish(&mut self, _: Option<Outcome>) {}
}

fn mover(contender: &Contender, rules: &Rules, seed: u64) -> Result<Box<dyn Mover>, String> {
    Ok(match contender {
        Contender::Ours(side) => Box::new(Ours {
            side: side.as_ref().clone(),
            engine: side.engine(seed),
        }),
        Contender::External { protocol, command } => host::start(*protocol, command, rules)?,
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
