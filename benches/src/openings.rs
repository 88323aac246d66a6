//! Opening sets: the positions a match starts its game pairs from, stored as text in
//! `benches/openings/` and made by the `openings` program.
//!
//! One opening a line: the moves from the start, in algebraic notation, separated by
//! commas (`d1 d3, c4 c2`). Blank lines and lines starting with `#` are left out.

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{Game, Notation, Rules};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Reads an opening set for these rules.
///
/// # Errors
///
/// The first line whose moves cannot be read or are not legal, named by its number.
pub fn read_openings(rules: &Rules, text: &str) -> Result<Vec<Game>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut game = Game::new(rules.clone());
        for text in line.split(',') {
            let words: Vec<&str> = text.split_whitespace().collect();
            let mv = rules
                .parse_move(&words)
                .map_err(|e| format!("line {}: `{}`: {e}", number + 1, text.trim()))?;
            game.try_play(mv)
                .map_err(|e| format!("line {}: `{}`: {e}", number + 1, text.trim()))?;
        }
        openings.push(game);
    }
    if openings.is_empty() {
        return Err("no opening in the set".to_string());
    }
    Ok(openings)
}

/// Plays `plies` random legal moves (from `seed`) on `game`: how a match or the tuner makes
/// new games from an opening set it has used up, since two engines at fixed nodes play the
/// same game again from the same opening. Stops early where the game ends.
pub fn random_plies(game: &mut Game, plies: usize, seed: u64) {
    let mut random = SplitMix::new(seed);
    for _ in 0..plies {
        let count = game.legal_moves().count();
        let Some(mv) = game.legal_moves().nth(random.below(count)) else {
            break;
        };
        if game.try_play(mv).is_err() {
            break;
        }
    }
}

/// Writes an opening as one line of an opening set.
pub fn opening_line(game: &Game) -> String {
    let rules = game.rules();
    game.moves()
        .map(|mv| rules.format_move(mv, Notation::Algebraic))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How an opening set is made.
#[derive(Clone, Debug)]
pub struct OpeningSpec {
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start.
    pub plies: usize,
    /// Depth of the search that judges an opening.
    pub depth: u32,
    /// The most an opening may favour the side to move, in hundredths of a piece.
    pub max_score: i32,
    /// Seed of the random moves.
    pub seed: u64,
}

/// Makes a balanced opening set: random openings of `plies` plies, each judged by a
/// one-thread search of `depth`, kept when the game is not over, the score is within
/// `max_score` of even, and the position is new. Gives up after a hundred tries per
/// opening wanted, returning what it has.
pub fn make_openings(rules: &Rules, spec: &OpeningSpec) -> Vec<Game> {
    let mut engine = Engine::new(EngineConfig {
        threads: 1,
        hash_mib: 16,
    });
    let limits = Limits {
        depth: Some(spec.depth),
        ..Limits::default()
    };
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for attempt in 0..spec.count as u64 * 100 {
        if kept.len() >= spec.count {
            break;
        }
        let seed = spec.seed.wrapping_mul(1_000_003).wrapping_add(attempt);
        let game = crate::random_opening(rules, spec.plies, seed);
        if game.outcome().is_some() || game.moves().len() < spec.plies {
            continue;
        }
        if !seen.insert(game.position().hash()) {
            continue;
        }
        let found = engine.search(
            &game,
            &limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        if found.score.mate_plies().is_none() && found.score.0.abs() <= spec.max_score {
            kept.push(game);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_written_and_read_back() {
        let rules = crate::fetlar_rules();
        let spec = OpeningSpec {
            count: 3,
            plies: 4,
            depth: 1,
            max_score: 200,
            seed: 7,
        };
        let made = make_openings(&rules, &spec);
        assert_eq!(made.len(), 3);
        let text = format!(
            "# test\n\n{}\n",
            made.iter().map(opening_line).collect::<Vec<_>>().join("\n")
        );
        let read = read_openings(&rules, &text).expect("a valid set");
        let positions =
            |games: &[Game]| -> Vec<u64> { games.iter().map(|g| g.position().hash()).collect() };
        assert_eq!(positions(&read), positions(&made));
        assert!(read.iter().all(|g| g.moves().len() == 4));
    }

    #[test]
    fn bad_lines_are_named() {
        let rules = crate::fetlar_rules();
        let error = read_openings(&rules, "# c\n\nzz9 a1\n").expect_err("not a move");
        assert!(error.starts_with("line 3: `zz9 a1`"), "{error}");
        // A1 to a2 is a corner square's neighbour: no piece there, not legal.
        let error = read_openings(&rules, "a1 a2").expect_err("not legal");
        assert!(error.starts_with("line 1:"), "{error}");
        assert!(read_openings(&rules, "# nothing\n").is_err());
    }
}
