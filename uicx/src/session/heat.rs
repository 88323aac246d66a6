//! Where a piece is best placed: while a piece is held in the window, each of its target
//! squares gets the mover's win chance after the move there, from a short search of its
//! own on a thread in the background (the window stays responsive), one square after the
//! other; putting the piece down stops it. A player seated at a network game gets none
//! until it ends, as with every analysis.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::Game;

use crate::thinker::Notify;

use super::Session;

/// The search of each target square: short, so that a piece's squares fill in about a
/// second.
fn heat_limits() -> Limits {
    Limits {
        depth: Some(3),
        time: Some(Duration::from_millis(120)),
        ..Limits::default()
    }
}

/// The heat map of the piece held, as far as it is found.
#[derive(Debug, Default)]
pub(crate) struct Heat {
    /// The square held, with the ply and key of the position it is in.
    held: Option<(usize, usize, u64)>,
    /// Stops the searches of the piece held before.
    stop: Arc<AtomicBool>,
    /// Each target square found so far, with the mover's win chance after moving there.
    found: Arc<Mutex<Vec<(usize, f32)>>>,
}

impl Drop for Heat {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Session {
    /// A piece is held on square `from` in the window (`None`: put down): starts the
    /// searches of its targets in the background, calling `wake` after each, or stops them.
    pub(crate) fn hold(&mut self, from: Option<usize>, wake: Notify) {
        let held = from.zip(self.game.as_ref()).map(|(from, game)| {
            let position = game.position();
            (from, game.ply(), position.hash())
        });
        if held == self.heat.held {
            return;
        }
        self.heat.stop.store(true, Ordering::Relaxed);
        self.heat = Heat {
            held,
            stop: Arc::new(AtomicBool::new(false)),
            found: Arc::default(),
        };
        let (Some(from), Some(game)) = (from, &self.game) else {
            return;
        };
        let rules = game.rules();
        let Some(square) = rules.square_of_index(from) else {
            return;
        };
        // A player of a network game not over gets no help from the computer.
        if game.outcome().is_some() || self.refuse_help_at_play().is_err() {
            return;
        }
        let moves: Vec<_> = game
            .legal_moves()
            .filter(|mv| mv.from() == square)
            .collect();
        let game = game.clone();
        let network = self
            .network
            .as_ref()
            .map(|found| Arc::clone(&found.network));
        let stop = Arc::clone(&self.heat.stop);
        let found = Arc::clone(&self.heat.found);
        std::thread::spawn(move || {
            let mut engine = Engine::new(EngineConfig {
                threads: 1,
                hash_mib: 8,
            });
            engine.set_network(network);
            let mover = game.side_to_move();
            for mv in moves {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let Some(target) = mv.landings().last().and_then(|to| game.rules().index(to))
                else {
                    continue;
                };
                let mut after: Game = game.clone();
                after.play(mv);
                let chance = match after.outcome() {
                    Some(outcome) => match outcome.winner {
                        Some(winner) if winner == mover => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    },
                    None => {
                        let result =
                            engine.search(&after, &heat_limits(), Arc::clone(&stop), &mut |_| {});
                        1.0 - result.win_chance()
                    }
                };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                if let Ok(mut found) = found.lock() {
                    found.push((target, chance as f32));
                }
                wake();
            }
        });
    }

    /// The heat map of the piece held: each target square found so far with the
    /// mover's win chance after moving there; empty when no piece is held or the
    /// position changed since.
    pub(crate) fn heat(&self) -> Vec<(usize, f32)> {
        let current =
            self.heat
                .held
                .zip(self.game.as_ref())
                .is_some_and(|((_, ply, hash), game)| {
                    game.ply() == ply && game.position().hash() == hash
                });
        if !current {
            return Vec::new();
        }
        self.heat
            .found
            .lock()
            .map(|found| found.clone())
            .unwrap_or_default()
    }
}
