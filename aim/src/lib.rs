//! aim: computer players for hnefatafl-rs.
//!
//! An [`Engine`] searches a [`hnefatafl_core::Game`]'s position with iterative deepening
//! principal-variation alpha-beta, a lock-free transposition table shared by all threads
//! (the root moves of each depth shared between them) and an evaluation compiled once per
//! rule file, so it plays any tafl variant.
//! [`Limits`] bound a search by depth, time, nodes, difficulty level or a game [`Clock`],
//! and say how many threads search.
//!
//! ## Embedding: a computer move
//!
//! This continues the embedding guide of `hnefatafl-core` (its crate page, "Embedding the
//! engine"): with rules loaded and a game going, ask the engine for a move and play it.
//! (For a position's best move in one call, with no stop flag and no progress, see
//! [`Engine::best_move`] and the example of aim/README.md.)
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//!
//! use aim::{Engine, EngineConfig, Limits};
//! use hnefatafl_core::{Game, Notation, Rules};
//!
//! let rules = Rules::parse(include_bytes!("../../data/rules/brandub"))?;
//! let mut game = Game::new(rules.clone());
//!
//! // One thread and a small table; a search of two plies.
//! let mut engine = Engine::new(EngineConfig { threads: 1, hash_mib: 1 });
//! let limits = Limits { depth: Some(2), ..Limits::default() };
//! // Setting `stop` from another thread ends the search early with its best move so far.
//! let stop = Arc::new(AtomicBool::new(false));
//! let result = engine.search(&game, &limits, stop, &mut |_progress| {});
//!
//! // The engine only answers legal moves; `None` only when the game is over.
//! let best = result.best.expect("a move at the start");
//! assert_eq!(game.check(best), Ok(()));
//! game.play(best);
//! println!("computer: {}", rules.format_move(best, Notation::Algebraic));
//! # Ok::<(), hnefatafl_core::RulesError>(())
//! ```

#![deny(missing_docs)]

/// The examples of `aim/README.md`, run as tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod classic;
mod clock;
mod evaluator;
mod history;
mod limits;
mod movepick;
pub mod nnue;
mod params;
mod score;
mod search;
pub mod settings;
mod tt;

pub use classic::EvalWeights;
pub use clock::{Budget, Clock, OutOfTime};
pub use evaluator::{Evaluation, Evaluator};
pub use limits::{
    DEFAULT_LEVEL, Limits, LimitsError, MAX_DEPTH, MAX_LEVEL, MAX_LINES, MAX_THREADS,
};
pub use params::{EngineConfig, Parallel, Quiescence, Tuning};
pub use score::{CLASSIC_WIN_SCALE, Score};
pub use search::{Engine, Progress, SearchResult};
pub use settings::{SettingError, Settings};
