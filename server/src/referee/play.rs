//! Play: the seat of a mover, moves checked by the engine, the turns and their clocks,
//! losses on time, the end of a game, and the computer's moves.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hnefatafl_core::{Game, Move, Notation};
use hnefatafl_net::protocol::{ClockKind, EndCause, GameId, GameResult, ServerMessage};

use super::rows::{stored_clocks, stored_result, wire_periods};
use super::{ConnectionId, Followup, State};
use crate::clock::{self, Left};
use crate::journal::Write;
use crate::storage::{StoredMove, stored_now};

/// What a computer's search needs, taken under the lock ([`State::computer_task`]).
pub(crate) struct ComputerTask {
    /// The game, its moves played.
    pub(crate) game: Game,
    pub(crate) limits: aim::Limits,
    /// The learned evaluation in these rules, if they have one.
    pub(crate) network: Option<Arc<aim::nnue::Network>>,
    /// Set when the turn is over: the search stops.
    pub(crate) stop: Arc<AtomicBool>,
}

impl State {
    /// The player's seat in a running game.
    pub(crate) fn seat(&mut self, id: ConnectionId, game: GameId) -> Result<u8, String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over"));
        }
        let side = live
            .side_of(&name)
            .ok_or_else(|| format!("you do not play in game {game}"))?;
        Ok(side as u8)
    }

    /// Starts the clock of the side to move, when both seats are taken and the game goes
    /// on, and asks the computer for a move when it is its turn.
    pub(crate) fn start_turn(&mut self, game: GameId) {
        let now = Instant::now();
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        live.next_turn();
        if live.result.is_some() || live.players.iter().any(Option::is_none) {
            live.turn_started = None;
            return;
        }
        live.turn_started = Some(now);
        let side = live.game.side_to_move().index();
        if let Some(clock) = live.clock.filter(|c| c.kind() == ClockKind::Correspondence) {
            // Each move has the whole time per move, on the wall clock: a turn that began
            // before a restart goes on from when it began, the time down included.
            let wall = stored_now();
            let began = match live.resumed_turn.take() {
                Some(began) => began,
                None => {
                    self.journal.record(Write::StartTurn { game, at: wall });
                    wall
                }
            };
            let gone = Duration::from_millis(u64::try_from(wall - began).unwrap_or(0));
            live.left[side] = Left {
                time: Duration::from_millis(clock.move_ms).saturating_sub(gone),
                periods: 0,
            };
        }
        let turn = live.turn;
        let computer = live.players[side]
            .as_ref()
            .and_then(|name| self.computers.get(name).copied());
        // A clock too long for this computer's clock to count to never falls.
        let flag = live
            .clock
            .and_then(|clock| now.checked_add(clock::allowance(&clock, live.left[side])));
        if let Some(at) = flag {
            self.followups.push(Followup::Flag { game, turn, at });
        }
        if let Some(level) = computer {
            let player = live.players[1 - side].clone().unwrap_or_default();
            self.followups.push(Followup::Computer {
                game,
                turn,
                level,
                player,
            });
        }
    }

    /// Plays a move of `side`, refereed by the engine; stores it, then tells everyone.
    pub(crate) fn play(&mut self, game: GameId, side: u8, mv: Move) -> Result<(), String> {
        let now = Instant::now();
        let live = self.live(game)?;
        let Some(started) = live.turn_started else {
            return Err(format!("game {game} waits for a second player"));
        };
        if live.game.side_to_move().index() != usize::from(side) {
            return Err("it is not your turn".to_owned());
        }
        let rules = live.game.rules().clone();
        // A move off this board has no text to name it by: say so before checking it.
        if [mv.from(), mv.to()]
            .iter()
            .any(|&square| rules.square_type(square).is_none())
        {
            return Err(format!("`{mv}`: a square is not on the board"));
        }
        let text = rules.format_move(mv, Notation::Numeric);
        live.game
            .check(mv)
            .map_err(|error| format!("illegal move `{text}`: {error}"))?;
        let index = usize::from(side);
        let used = now.duration_since(started);
        let mut left = live.left;
        if let Some(clock) = live.clock {
            match clock::after_move(&clock, left[index], used) {
                Some(after) => left[index] = after,
                None => return self.lose_on_time(game),
            }
        }
        let number = live.game.moves().len() as u32 + 1;
        let stored = StoredMove {
            mv: rules.format_move(mv, Notation::Numeric),
            clocks: stored_clocks(&left),
        };
        live.game.try_play(mv).map_err(|error| error.to_string())?;
        live.left = left;
        live.offer = None;
        let clocks = live.clock.map(|_| stored.clocks.times);
        let periods = wire_periods(live.clock, &live.left);
        let outcome = live.game.outcome();
        // Recorded before the `moved` below is queued, so that it waits for the move.
        self.journal.record(Write::AddMove {
            game,
            number,
            stored,
        });
        self.broadcast(
            game,
            &ServerMessage::Moved {
                game,
                number,
                side,
                mv,
                clocks,
                periods,
            },
        );
        self.broadcast_position(game);
        match outcome {
            Some(outcome) => {
                let result = GameResult {
                    winner: outcome.winner.map(|winner| winner.index() as u8),
                    reason: EndCause::Rules(outcome.reason),
                };
                self.finish(game, result)
            }
            None => {
                self.start_turn(game);
                Ok(())
            }
        }
    }

    pub(crate) fn lose_on_time(&mut self, game: GameId) -> Result<(), String> {
        let live = self.live(game)?;
        let loser = live.game.side_to_move().index() as u8;
        live.left[usize::from(loser)].time = Duration::ZERO;
        self.finish(
            game,
            GameResult {
                winner: Some(1 - loser),
                reason: EndCause::Time,
            },
        )
    }

    /// A clock timer went off.
    pub(crate) fn flag(&mut self, game: GameId, turn: u64) {
        if self.stopping {
            return;
        }
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn == turn && live.result.is_none() && live.turn_started.is_some() {
            let _ = self.lose_on_time(game);
        }
    }

    pub(crate) fn finish(&mut self, game: GameId, result: GameResult) -> Result<(), String> {
        self.live(game)?;
        self.journal.record(Write::FinishGame {
            game,
            result: stored_result(&result),
        });
        let live = self.live(game)?;
        live.result = Some(result);
        live.turn_started = None;
        live.next_turn();
        self.broadcast(game, &ServerMessage::Ended { game, result });
        self.tournament_game_over(game);
        Ok(())
    }

    /// The search of a computer's move, if the turn is still on: the game, the limits
    /// (the level's, its own time a cap whatever the clock allows, and the clock's share),
    /// the network and the stop flag, which the turn's end sets.
    pub(crate) fn computer_task(
        &mut self,
        game: GameId,
        turn: u64,
        level: u32,
    ) -> Option<ComputerTask> {
        if self.stopping {
            return None;
        }
        let live = self.games.get_mut(&game)?;
        if live.turn != turn || live.turn_started.is_none() {
            return None;
        }
        let level_limits = aim::Limits {
            level: Some(level),
            threads: Some(1),
            ..aim::Limits::default()
        };
        let mut limits = aim::Limits {
            time: level_limits.move_time(),
            ..level_limits
        };
        if let Some(clock) = live.clock {
            let left = live.left[live.game.side_to_move().index()];
            limits.clock = Some(match clock.kind() {
                ClockKind::Fischer => {
                    aim::Clock::fischer(left.time, Duration::from_millis(clock.increment_ms))
                }
                ClockKind::ByoYomi => aim::Clock::byo_yomi(
                    left.time,
                    Duration::from_millis(clock.period_ms),
                    left.periods,
                ),
                ClockKind::Correspondence => aim::Clock::fischer(left.time, Duration::ZERO),
            });
        }
        let stop = Arc::new(AtomicBool::new(false));
        live.search = Some(stop.clone());
        let position = live.game.clone();
        let network = self
            .rules
            .get(&live.rules_hash)
            .and_then(|set| set.network.clone());
        Some(ComputerTask {
            game: position,
            limits,
            network,
            stop,
        })
    }

    pub(crate) fn computer_move(&mut self, game: GameId, turn: u64, mv: hnefatafl_core::Move) {
        if self.stopping {
            return;
        }
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn != turn {
            return;
        }
        let side = live.game.side_to_move().index() as u8;
        let _ = self.play(game, side, mv);
    }
}
