//! aim: computer players for hnefatafl-rs.
//!
//! An [`Engine`] searches a [`hnefatafl_core::Game`]'s position with iterative deepening
//! principal-variation alpha-beta, a lock-free transposition table shared by all threads
//! (the root moves of each depth shared between them) and an evaluation compiled once per
//! rule file, so it plays any tafl variant.
//! [`Limits`] bound a search by depth, time, nodes, difficulty level or a game [`Clock`],
//! and say how many threads search.

#![deny(missing_docs)]

mod clock;
mod eval;
mod limits;
mod score;
mod search;
mod tt;

pub use clock::{Budget, Clock, OutOfTime};
pub use eval::EvalWeights;
pub use limits::{DEFAULT_LEVEL, Limits, LimitsError, MAX_DEPTH, MAX_LEVEL, MAX_THREADS};
pub use score::Score;
pub use search::{Engine, EngineConfig, Parallel, Progress, SearchResult, Tuning};
