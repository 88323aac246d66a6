//! Opening sets: the positions a match starts its game pairs from, stored as text in
//! `matches/openings/` and made by the `openings` program.
//!
//! One opening a line: the moves from the start, in algebraic notation, separated by
//! commas (`d1 d3, c4 c2`). Blank lines and lines starting with `#` are left out.

use crate::content_lines;
use crate::record::records;
use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{Game, Notation, Rules};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// Reads an opening set for these rules.
///
/// # Errors
///
/// The first line whose moves cannot be read or are not legal, named by its number.
pub fn read_openings(rules: &Rules, text: &str) -> Result<Vec<Game>, String> {
    let mut openings = Vec::new();
    for (number, line) in content_lines(text) {
        let mut game = Game::new(rules.clone());
        for text in line.split(',') {
            play_written(&mut game, text).map_err(|e| format!("line {number}: {e}"))?;
        }
        openings.push(game);
    }
    if openings.is_empty() {
        return Err("no opening in the set".to_string());
    }
    Ok(openings)
}

/// Plays one move written as in an opening set (`d1 d3`) on the game.
///
/// # Errors
///
/// A move that cannot be read or is not legal, quoted.
pub fn play_written(game: &mut Game, text: &str) -> Result<(), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |e: &dyn std::fmt::Display| format!("`{}`: {e}", text.trim());
    let mv = game.rules().parse_move(&words).map_err(|e| bad(&e))?;
    game.try_play(mv).map_err(|e| bad(&e))?;
    Ok(())
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
    let tries = (0..spec.count as u64 * 100).map(|attempt| {
        let seed = spec.seed.wrapping_mul(1_000_003).wrapping_add(attempt);
        crate::random_opening(rules, spec.plies, seed)
    });
    keep_balanced(tries, spec)
}

/// The openings of recorded games, most played first: each game's first `plies` plies,
/// one entry per position reached, with the number of games that reached it.
///
/// The games are read as [`crate::record`] reads them (the form of
/// `core/tests/data/copenhagen_games.csv.gz`, the human games the engine replays). Games
/// that end or stop (a player resigning or running out of time) within `plies` plies give
/// no opening.
///
/// # Errors
///
/// The first line with a move that cannot be read or is not legal, named by its number.
pub fn recorded_openings(
    rules: &Rules,
    text: &str,
    plies: usize,
) -> Result<Vec<(Game, usize)>, String> {
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut openings: Vec<(Game, usize)> = Vec::new();
    for record in records(text) {
        if record.moves.len() <= plies {
            continue;
        }
        let game = record.replay(rules, plies)?;
        if game.outcome().is_some() {
            continue;
        }
        match index.entry(game.position().hash()) {
            Entry::Occupied(entry) => openings[*entry.get()].1 += 1,
            Entry::Vacant(entry) => {
                entry.insert(openings.len());
                openings.push((game, 1));
            }
        }
    }
    // Stable: of openings played as often, the first recorded comes first.
    openings.sort_by_key(|(_, games)| std::cmp::Reverse(*games));
    Ok(openings)
}

/// The first `spec.count` of `candidates` that a one-thread search of `spec.depth` scores
/// within `spec.max_score` of even, leaving out games already over, shorter than
/// `spec.plies`, or at a position already kept (`spec.seed` is not read).
pub fn keep_balanced(candidates: impl IntoIterator<Item = Game>, spec: &OpeningSpec) -> Vec<Game> {
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
    for game in candidates {
        if kept.len() >= spec.count {
            break;
        }
        if game.outcome().is_some() || game.moves().len() < spec.plies {
            continue;
        }
        if !seen.insert(game.position().hash()) {
            continue;
        }
        let found = engine.search_within(&game, &limits);
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

    #[test]
    fn recorded_openings_are_counted_by_position_most_played_first() {
        let rules = crate::fetlar_rules();
        let text = "\
# comment
d1-d3 e5-e2 g1-g3 f4-c4 a4-c4,0,0,Black
h1-h3 d6-d3 f2-c2 f4-i4 a4-c4,0,0,White
f2-c2 f4-i4 h1-h3 d6-d3 k4-i4 a5-a4,0,0,White

h1-h3 d6-d3 f2-c2 f4-i4
h1-h3 d6-d3 timeout
h1-h3 d6-d3 f2-c2 f4-i4 timeout
";
        let openings = recorded_openings(&rules, text, 4).expect("valid records");
        let summary: Vec<(String, usize)> = openings
            .iter()
            .map(|(game, games)| (opening_line(game), *games))
            .collect();
        // The second and third games reach one position by two orders of moves; the
        // fourth stops at 4 plies and the last two are cut short by the clock.
        assert_eq!(
            summary,
            [
                ("h1 h3, d6 d3, f2 c2, f4 i4".to_string(), 2),
                ("d1 d3, e5 e2, g1 g3, f4 c4".to_string(), 1),
            ]
        );
    }

    #[test]
    fn recorded_captures_are_read_and_bad_moves_named() {
        let rules = crate::fetlar_rules();
        let openings = recorded_openings(
            &rules,
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 c4-c3,1,0,Black",
            5,
        )
        .expect("valid records");
        assert_eq!(openings.len(), 1);
        let game = &openings[0].0;
        assert_eq!(game.moves().len(), 5);
        let e2 = rules.parse_square(&["e2"]).expect("a square");
        assert!(game.position().piece_at(e2).is_none(), "e2 was captured");
        let error = recorded_openings(
            &rules,
            "# c\nh1-h3 d6-d3 f2-c2 f4-i4 a4-a1\nh1-h3 zz9-a1 f2-c2 f4-i4 x",
            4,
        )
        .expect_err("not a move");
        assert!(error.starts_with("line 3: `zz9-a1`"), "{error}");
        let error =
            recorded_openings(&rules, "a1-a2 d6-d3 f2-c2 f4-i4 x", 4).expect_err("not legal");
        assert!(error.starts_with("line 1: `a1-a2`"), "{error}");
    }
}
