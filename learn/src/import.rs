//! Recorded games as training data: the games people played (a file of
//! [`hnefatafl_matches::record`]'s form, as `core/tests/data/copenhagen_games.csv.gz`),
//! each position before a recorded move scored by a search of the engine, as self-play
//! scores its own, with the game's recorded result.
//!
//! Only games with a result are taken, and not those lost on time (their result is the
//! clock's, not the board's); a game repeated move for move is taken once. A game the
//! rules end must end as its record says, or the rule file is not the one it was played
//! by, and the import stops there, naming the line.
//!
//! The games of a shard of recorded games all start from the start position, so the
//! trainer does not drop them as repeats of one another, as it drops self-play games of
//! one engine that start where an earlier one did ([`crate::selfplay::players_key`]):
//! the shard's settings start with [`RECORDED`].

use crate::selfplay::{GameRecord, MAX_STORED_SCORE, Sample, inputs_of};
use aim::nnue::{Layout, Network};
use aim::{Engine, EngineConfig, Limits, Tuning};
use hnefatafl_core::{Game, Move, Player, Rules};
use hnefatafl_matches::record::{RecordedResult, records};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

pub use crate::selfplay::RECORDED;

/// How recorded games are scored.
#[derive(Clone, Debug)]
pub struct Import {
    /// Nodes of the search that scores each position.
    pub nodes: u64,
    /// The network the search evaluates with, or `None` for the classic evaluation.
    pub network: Option<Arc<Network>>,
}

impl Import {
    /// The settings of a shard of these games, `source` naming where they came from
    /// (stored in its header; they start with [`RECORDED`]).
    pub fn describe(&self, rules: &Rules, source: &str) -> String {
        let mut line = format!(
            "{RECORDED} {source} rules {} layout {:016x} nodes {}",
            rules.id(),
            Layout::of(rules).fingerprint(),
            self.nodes
        );
        if let Some(network) = &self.network {
            line += &format!(" network {:016x}", network.checksum());
        }
        line
    }
}

/// What [`import`] made of a file of recorded games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The games taken, numbered from 0 in the file's order.
    pub games: Vec<GameRecord>,
    /// Records without a result (still going, abandoned, or none written).
    pub unfinished: usize,
    /// Records of games lost on time.
    pub timed_out: usize,
    /// Records that repeat an earlier one move for move.
    pub repeated: usize,
}

/// A record taken: its moves and its result for player 0 (1, 0 or -1).
struct Taken {
    moves: Vec<Move>,
    result: i8,
}

/// Reads the recorded games of `text` and scores every position before a recorded move
/// with a search of `settings.nodes` nodes (one thread and a fresh table a game, in
/// parallel on the current rayon pool; the games are the same on any number of threads).
///
/// # Errors
///
/// The first record, named by its line, with a move that cannot be read or is not legal
/// by `rules`, or that the rules end otherwise than the record says.
pub fn import(rules: &Rules, text: &str, settings: &Import) -> Result<Imported, String> {
    let mut taken = Vec::new();
    let mut seen = HashSet::new();
    let (mut unfinished, mut timed_out, mut repeated) = (0, 0, 0);
    for record in records(text) {
        let result = match record.result {
            RecordedResult::Unfinished => {
                unfinished += 1;
                continue;
            }
            _ if record.timed_out => {
                timed_out += 1;
                continue;
            }
            RecordedResult::Won(Player::Zero) => 1,
            RecordedResult::Won(Player::One) => -1,
            RecordedResult::Drawn => 0,
        };
        if !seen.insert(record.moves.clone()) {
            repeated += 1;
            continue;
        }
        let game = record.replay(rules, usize::MAX)?;
        if let Some(outcome) = game.outcome() {
            let ended = match outcome.winner {
                Some(Player::Zero) => 1,
                Some(Player::One) => -1,
                None => 0,
            };
            if ended != result {
                return Err(format!(
                    "line {}: the rules end the game {}, but the record says {}",
                    record.line,
                    describe_result(ended),
                    describe_result(result)
                ));
            }
        }
        taken.push(Taken {
            moves: game.moves().collect(),
            result,
        });
    }
    let layout = Layout::of(rules);
    let games = taken
        .par_iter()
        .enumerate()
        .map_init(
            || {
                let mut engine = Engine::with_tuning(
                    EngineConfig {
                        threads: 1,
                        hash_mib: 8,
                    },
                    Tuning::default(),
                );
                engine.set_network(settings.network.clone());
                engine
            },
            |engine, (number, taken)| score_game(engine, rules, &layout, settings, number, taken),
        )
        .collect();
    Ok(Imported {
        games,
        unfinished,
        timed_out,
        repeated,
    })
}

/// A result for player 0 in words.
fn describe_result(result: i8) -> &'static str {
    match result {
        1 => "won by player 0 (Black)",
        -1 => "won by player 1 (White)",
        _ => "drawn",
    }
}

/// Replays a taken game, scoring each position before a move.
fn score_game(
    engine: &mut Engine,
    rules: &Rules,
    layout: &Layout,
    settings: &Import,
    number: usize,
    taken: &Taken,
) -> GameRecord {
    // A fresh table a game: what a thread's engine scored before does not change it.
    engine.clear();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let mut game = Game::new(rules.clone());
    let mut samples = Vec::with_capacity(taken.moves.len());
    for &mv in &taken.moves {
        let side = game.side_to_move();
        let score = engine.search_within(&game, &limits).score.0;
        let score = score.clamp(-MAX_STORED_SCORE, MAX_STORED_SCORE);
        samples.push(Sample {
            side,
            score: if side == Player::Zero { score } else { -score } as i16,
            inputs: inputs_of(layout, game.position()),
        });
        // The moves were played once already, on the same rules.
        if game.try_play(mv).is_err() {
            break;
        }
    }
    GameRecord {
        number: number as u32,
        result: taken.result,
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> Rules {
        let path = format!("{}/../data/rules/{name}", env!("CARGO_MANIFEST_DIR"));
        Rules::parse(&std::fs::read(path).expect("a shipped rule file")).expect("rules")
    }

    #[test]
    fn recorded_games_are_taken_with_their_results_and_scored_positions() {
        let rules = rules("brandubh");
        let text = "\
# two games won by each side, one drawn, one unfinished, one lost on time, one repeated
a4-a2 c4-c2,0,0,Black
g4-g5 e4-e6,0,0,White
a4-a2 c4-c2 g4-g5,0,0,Draw
a4-a2,0,0,Ongoing
a4-a2 timeout,0,0,White
g4-g5 e4-e6,0,0,White
";
        let settings = Import {
            nodes: 50,
            network: None,
        };
        let imported = import(&rules, text, &settings).expect("valid records");
        assert_eq!(
            (imported.unfinished, imported.timed_out, imported.repeated),
            (1, 1, 1)
        );
        let results: Vec<i8> = imported.games.iter().map(|game| game.result).collect();
        assert_eq!(results, [1, -1, 0]);
        let numbers: Vec<u32> = imported.games.iter().map(|game| game.number).collect();
        assert_eq!(numbers, [0, 1, 2]);
        let plies: Vec<usize> = imported.games.iter().map(|g| g.samples.len()).collect();
        assert_eq!(plies, [2, 2, 3]);
        // The first position is the start, player 0 to move, with all 13 pieces.
        let first = &imported.games[0].samples[0];
        assert_eq!(first.side, Player::Zero);
        assert_eq!(first.inputs.len(), 13);
        assert_eq!(imported.games[0].samples[1].side, Player::One);
        // The search scored the positions: not every score is zero.
        assert!(
            imported
                .games
                .iter()
                .flat_map(|game| &game.samples)
                .any(|sample| sample.score != 0)
        );
    }

    #[test]
    fn a_bad_move_names_the_line_and_unfinished_games_are_not_read() {
        let rules = rules("brandubh");
        let settings = Import {
            nodes: 10,
            network: None,
        };
        let error = import(&rules, "a4-a2,0,0,Black\n\nd1-d9,0,0,White\n", &settings)
            .expect_err("not legal");
        assert!(error.starts_with("line 3: `d1-d9`"), "{error}");
        assert!(import(&rules, "d1-d9,0,0,Ongoing\n", &settings).is_ok());
    }

    #[test]
    fn a_result_the_rules_deny_names_the_line() {
        let rules = rules("copenhagen");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../core/tests/data/copenhagen_games.csv.gz");
        let games = hnefatafl_matches::record::read_record_file(&path).expect("readable");
        // The first human game the rules end with the attackers' win, its result turned
        // to the defenders'.
        let line = games
            .lines()
            .find(|line| {
                records(line).next().is_some_and(|record| {
                    record.result == RecordedResult::Won(Player::Zero)
                        && !record.timed_out
                        && record.replay(&rules, usize::MAX).is_ok_and(|game| {
                            game.outcome()
                                .is_some_and(|o| o.winner == Some(Player::Zero))
                        })
                })
            })
            .expect("an attackers' win by the rules");
        let settings = Import {
            nodes: 1,
            network: None,
        };
        assert_eq!(
            import(&rules, line, &settings)
                .expect("as recorded")
                .games
                .len(),
            1
        );
        let denied = format!("# x\n{}", line.replace("Black", "White"));
        let error = import(&rules, &denied, &settings).expect_err("denied");
        assert_eq!(
            error,
            "line 2: the rules end the game won by player 0 (Black), but the record says won by player 1 (White)"
        );
    }
}
