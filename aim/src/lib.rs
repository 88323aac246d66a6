//! aim: computer players for hnefatafl-rs.
//!
//! API CONTRACT SKELETON: `uicx` is written against these signatures. Bodies are to be
//! implemented; items may be added, but these signatures stay.

#![deny(missing_docs)]
#![allow(dead_code, unused_variables)]

use hnefatafl_core::{Game, Move};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What bounds a search. Empty limits mean the default level's limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Time for the move.
    pub time: Option<Duration>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Difficulty level (1 = beginner, up to [`MAX_LEVEL`]), which sets limits and, for the
    /// weak levels, deliberate imperfection. Explicit limits above override the level's.
    pub level: Option<u32>,
}

/// The strongest difficulty level.
pub const MAX_LEVEL: u32 = 6;

/// A limit word that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad limit `{0}`")]
pub struct LimitsError(pub String);

impl Limits {
    /// Reads limit words: `d<depth>`, `t<seconds>` (decimals allowed), `n<nodes>`, or a bare
    /// level number. E.g. `["d4", "t10"]`, `["3"]`.
    pub fn from_words(words: &[&str]) -> Result<Limits, LimitsError> {
        todo!()
    }
    /// The words that [`Limits::from_words`] reads back to these limits.
    pub fn to_words(&self) -> Vec<String> {
        todo!()
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// Plies to a forced win (positive) or loss (negative), if the score is decisive.
    pub fn mate_plies(self) -> Option<i32> {
        todo!()
    }
}

impl std::fmt::Display for Score {
    /// `+1.25` in pawn-like units, or `win in N` / `loss in N` (plies).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        todo!()
    }
}

/// A report after each finished depth.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Finished depth.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Fraction (0..=1) of the time or depth budget used, for progress bars.
    pub fraction: f32,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move; `None` only when the game is over (no legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Deepest finished depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<Move>,
}

/// Engine settings.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Search threads (0: all cores).
    pub threads: usize,
    /// Transposition table size in MiB (0: no table).
    pub hash_mib: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { threads: 0, hash_mib: 64 }
    }
}

/// A computer player: owns the transposition table and threads between searches.
pub struct Engine {
    _private: (),
}

impl Engine {
    /// A new engine.
    pub fn new(config: EngineConfig) -> Engine {
        todo!()
    }
    /// Searches the game's current position and returns the best move found. Never returns
    /// an illegal move (repetition included). Stops early when `stop` becomes true, with the
    /// best move so far. `progress` is called after each finished depth.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        todo!()
    }
    /// Forgets what earlier searches learned (new game).
    pub fn clear(&mut self) {
        todo!()
    }
}
