//! Making a puzzle set from recorded games: every distinct position of the games is
//! searched for a forced win of the side to move, and the wins are kept by [`MakeSpec`].

use super::{End, Puzzle};
use crate::record::records;
use crate::solve::{Search, Solver, Win};
use hnefatafl_core::{Game, Position, Rules};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};

/// How a puzzle set is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MakeSpec {
    /// The deepest win looked for, in the winner's moves; the deepest depth is searched
    /// with [`Search::Threats`], the others exactly.
    pub depth: u32,
    /// The most moves the search may play on one step of one position; a position that
    /// needs more is left out.
    pub node_limit: u64,
    /// The most puzzles kept of each winner, depth and end (of more, that many spread
    /// evenly over the games), so that the commonest kinds (the king's escapes in two) do
    /// not crowd out the others.
    pub per_kind: usize,
    /// The same for the wins in one move, the easiest (most are a king with an open line
    /// to a corner).
    pub per_kind_in_one: usize,
}

/// A made puzzle set and what the search found.
#[derive(Clone, Debug)]
pub struct Made {
    /// The puzzles kept, in the order of the games.
    pub puzzles: Vec<Puzzle>,
    /// The distinct positions searched.
    pub positions: usize,
    /// The wins found, by winner (`attackers` or `defenders`), depth and end.
    pub found: BTreeMap<(String, u32, End), usize>,
    /// The positions left out at the node limit.
    pub out_of_nodes: usize,
}

/// Every distinct position of the recorded games where the game is not over, the first
/// time it occurs, with its source (`game=<line>,ply=<plies played>`). The games are
/// read as [`crate::record`] reads them (the form of
/// `core/tests/data/copenhagen_games.csv.gz`).
///
/// # Errors
///
/// The first line with a move that cannot be read or is not legal, named by its number.
pub fn candidates(rules: &Rules, text: &str) -> Result<Vec<(Position, String)>, String> {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for record in records(text) {
        let mut game = Game::new(rules.clone());
        for (ply, word) in record.moves.iter().map(Some).chain([None]).enumerate() {
            if game.outcome().is_some() {
                break;
            }
            if seen.insert(game.position().hash()) {
                let source = format!("game={},ply={ply}", record.line);
                found.push((game.position().clone(), source));
            }
            let Some(word) = word else { break };
            record.play(rules, &mut game, word)?;
        }
    }
    Ok(found)
}

/// Searches every candidate (in parallel, with the same answer on any number of threads)
/// and keeps the wins that `spec` keeps, in the candidates' order.
pub fn make(candidates: &[(Position, String)], spec: &MakeSpec) -> Made {
    let wins: Vec<Result<Option<Win>, _>> = candidates
        .par_iter()
        .map(|(position, _)| {
            Solver::new(spec.node_limit).solve(position, spec.depth, Search::Threats)
        })
        .collect();
    let mut made = Made {
        puzzles: Vec::new(),
        positions: candidates.len(),
        found: BTreeMap::new(),
        out_of_nodes: 0,
    };
    let mut found = Vec::new();
    for ((position, source), win) in candidates.iter().zip(wins) {
        let Ok(win) = win else {
            made.out_of_nodes += 1;
            continue;
        };
        let Some(win) = win else { continue };
        let puzzle = Puzzle {
            position: position.clone(),
            depth: win.depth,
            end: End::of(win.reason),
            moves: win.moves,
            source: source.clone(),
        };
        let kind = kind_of(&puzzle);
        *made.found.entry(kind.clone()).or_default() += 1;
        found.push((kind, puzzle));
    }
    let mut seen: BTreeMap<(String, u32, End), usize> = BTreeMap::new();
    for (kind, puzzle) in found {
        let quota = if kind.1 == 1 {
            spec.per_kind_in_one
        } else {
            spec.per_kind
        };
        let index = seen.entry(kind.clone()).or_default();
        if spread(*index, quota, made.found[&kind]) {
            made.puzzles.push(puzzle);
        }
        *index += 1;
    }
    made
}

/// A puzzle's winner, depth and end.
fn kind_of(puzzle: &Puzzle) -> (String, u32, End) {
    let side = puzzle
        .side()
        .map_or_else(|_| "?".to_string(), |side| side.word().to_string());
    (side, puzzle.depth, puzzle.end)
}

/// Whether the `index`-th of `count` things is one of `quota` kept, spread evenly: all of
/// them when there are no more than `quota`.
fn spread(index: usize, quota: usize, count: usize) -> bool {
    count <= quota || (index + 1) * quota / count > index * quota / count
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn a_quota_keeps_that_many_spread_over_the_rest() {
        let kept: Vec<usize> = (0..10).filter(|&i| spread(i, 3, 10)).collect();
        assert_eq!(kept, [3, 6, 9]);
        assert_eq!((0..4).filter(|&i| spread(i, 4, 4)).count(), 4);
        assert_eq!((0..7).filter(|&i| spread(i, 0, 7)).count(), 0);
    }
}
