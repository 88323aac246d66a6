//! The engine on a puzzle set: its normal search at a time a position, a puzzle solved
//! when the move it chooses is one of the winning first moves.

use super::{End, Puzzle};
use aim::{Engine, Limits};
use hnefatafl_core::{Game, Move};
use std::collections::BTreeMap;

/// The engine's move for a puzzle's position (a search with no game before it, its table
/// cleared first so that every puzzle is searched alike), and whether it is one of the
/// winning moves.
pub fn solves(engine: &mut Engine, puzzle: &Puzzle, limits: &Limits) -> (bool, Option<Move>) {
    engine.clear();
    let game = Game::from_position(puzzle.position.clone());
    let found = engine.search_within(&game, limits);
    let solved = found.best.is_some_and(|mv| puzzle.moves.contains(&mv));
    (solved, found.best)
}

/// Puzzles solved of those tried, by category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// By winner (`attackers` or `defenders`) and depth: (solved, tried).
    pub by_side_and_depth: BTreeMap<(String, u32), (usize, usize)>,
    /// By winner: (solved, tried).
    pub by_side: BTreeMap<String, (usize, usize)>,
    /// By how the win ends: (solved, tried).
    pub by_end: BTreeMap<End, (usize, usize)>,
    /// All: (solved, tried).
    pub all: (usize, usize),
}

impl Tally {
    /// Counts one puzzle.
    pub fn add(&mut self, puzzle: &Puzzle, solved: bool) {
        let side = puzzle
            .side()
            .map_or_else(|_| "?".to_string(), |side| side.word().to_string());
        let count = |entry: &mut (usize, usize)| {
            entry.0 += usize::from(solved);
            entry.1 += 1;
        };
        count(
            self.by_side_and_depth
                .entry((side.clone(), puzzle.depth))
                .or_default(),
        );
        count(self.by_side.entry(side).or_default());
        count(self.by_end.entry(puzzle.end).or_default());
        count(&mut self.all);
    }
}

fn share((solved, tried): (usize, usize)) -> String {
    let percent = if tried == 0 {
        0.0
    } else {
        100.0 * solved as f64 / tried as f64
    };
    format!("{solved}/{tried} ({percent:.0}%)")
}

/// The tally as a table: a row per winner and depth, per winner, per end, and all.
pub fn report(tally: &Tally) -> String {
    let mut text = String::new();
    for ((side, depth), &counts) in &tally.by_side_and_depth {
        text += &format!("{side} in {depth}: {}\n", share(counts));
    }
    for (side, &counts) in &tally.by_side {
        text += &format!("{side}: {}\n", share(counts));
    }
    for (end, &counts) in &tally.by_end {
        text += &format!("{}: {}\n", end.word(), share(counts));
    }
    text += &format!("all: {}\n", share(tally.all));
    text
}
