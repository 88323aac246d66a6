//! Copenhagen games played between people, replayed on the shipped `copenhagen` file.
//!
//! The records are `tests/copenhagen.csv` of the hnefatafl-copenhagen project
//! (github.com/dcampbell24/hnefatafl, MIT or Apache-2.0; the notice is in
//! `tests/data/copenhagen_games.NOTICE`), carried gzipped as
//! `tests/data/copenhagen_games.csv.gz`. Each line is a game: its moves (`h1-h3`, with
//! the captured squares after an `x`: `g3-e3xe2`, and a last word `timeout` when a
//! player ran out of time), the captures of each side, and the result (`Black`: the
//! attackers won, `White`: the defenders, `Draw`, or `Ongoing`).
//!
//! The engine, on the shipped file as it is, must accept every move, capture exactly what
//! the record captures, not end the game before the record does, and, where it ends the
//! game after the last move, agree with the record's result. Games that stop without an
//! end by the rules were resigned, abandoned or lost on time.
//!
//! The records decide the file's repetition rule (see its header): eleven games go on
//! after the third occurrence of a position, and the one that reaches a fourth ends there,
//! lost for the king's side.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use hnefatafl_core::{EndReason, Game, Player, Rules, Square};

fn records() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/copenhagen_games.csv.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// The shipped file.
fn copenhagen() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// How a replayed game ended: by the rules after the record's last move, with the
/// record's result, or not at all.
type Ended = Option<EndReason>;

/// The winner a record's result names, or None for a draw; `Ongoing` is no result.
fn result(word: &str) -> Option<Option<Player>> {
    match word {
        "Black" => Some(Some(Player::Zero)),
        "White" => Some(Some(Player::One)),
        "Draw" => Some(None),
        "Ongoing" => None,
        other => panic!("unknown result {other}"),
    }
}

/// The most times one position (pieces and side to move) occurred before the game's
/// last move, counted from the keys the game keeps.
fn most_occurrences_before_the_end(game: &Game) -> usize {
    let hashes = game.position_hashes();
    let before = &hashes[..hashes.len() - 1];
    before
        .iter()
        .map(|hash| before.iter().filter(|other| *other == hash).count())
        .max()
        .unwrap_or(0)
}

/// Replays one game on `rules`; returns how it ended and the most times a position
/// occurred before its last move, or the first disagreement.
fn replay(rules: &Rules, line: &str) -> Result<(Ended, usize), String> {
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, _, _, status] = fields[..] else {
        return Err(format!("not four fields: {line}"));
    };
    let mut game = Game::new(rules.clone());
    let king = rules
        .piece_rules()
        .iter()
        .find(|rule| rule.name() == Some("king"))
        .map(|rule| rule.piece());
    for (ply, word) in moves.split_whitespace().enumerate() {
        if word == "timeout" {
            break;
        }
        if let Some(outcome) = game.outcome() {
            return Err(format!(
                "ply {ply}: the engine ended the game ({outcome:?}) before {word}"
            ));
        }
        let (travel, captured) = word.split_once('x').unwrap_or((word, ""));
        let squares: Vec<&str> = travel.split('-').collect();
        let mv = rules
            .parse_move(&squares)
            .map_err(|e| format!("ply {ply}: {word}: {e}"))?;
        let expected: BTreeSet<Square> = captured
            .split('x')
            .filter(|square| !square.is_empty())
            .map(|square| {
                rules
                    .parse_square(&[square])
                    .map_err(|e| format!("{square}: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let king_square = game
            .position()
            .pieces()
            .find(|&(_, piece)| Some(piece) == king)
            .map(|(square, _)| square);
        let undo = game
            .try_play(mv)
            .map_err(|e| format!("ply {ply}: {word} refused: {e}"))?;
        // Whether a record writes the captured king varies; the game's end says it, so
        // the king's square is left out on both sides.
        let taken: BTreeSet<Square> = undo
            .captures()
            .map(|(square, _)| square)
            .filter(|&square| Some(square) != king_square)
            .collect();
        let expected: BTreeSet<Square> = expected
            .into_iter()
            .filter(|&square| Some(square) != king_square)
            .collect();
        if taken != expected {
            return Err(format!("ply {ply}: {word}: the engine captured {taken:?}"));
        }
    }
    let most = most_occurrences_before_the_end(&game);
    let Some(outcome) = game.outcome() else {
        return Ok((None, most));
    };
    match result(status) {
        Some(winner) if winner == outcome.winner => Ok((Some(outcome.reason), most)),
        recorded => Err(format!(
            "the engine ends with {outcome:?}, the record with {recorded:?}"
        )),
    }
}

#[test]
fn recorded_copenhagen_games_replay_move_for_move_on_the_shipped_file() {
    let rules = copenhagen();
    let text = records();
    let (mut games, mut ended, mut failures) = (0, 0, Vec::new());
    let (mut by_repetition, mut past_a_third) = (Vec::new(), Vec::new());
    for (number, line) in text.lines().enumerate() {
        games += 1;
        match replay(&rules, line) {
            Ok((reason, most)) => {
                ended += usize::from(reason.is_some());
                if reason == Some(EndReason::Repetition) {
                    by_repetition.push(number + 1);
                }
                if most >= 3 {
                    past_a_third.push(number + 1);
                }
            }
            Err(error) => failures.push(format!("line {}: {error}", number + 1)),
        }
    }
    println!(
        "{games} games, {ended} ended by the rules, {} disagreements; ended by repetition: \
         lines {by_repetition:?}; going on after a third occurrence: lines {past_a_third:?}",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(games, 1752, "the carried records");
    // Many games end by the rules (most others on time: their records end in `timeout`).
    assert!(ended >= 300, "{ended} of {games} ended by the rules");
    // The records that decide the repetition rule: games that go on after a third
    // occurrence of a position, and one that ends at a fourth, lost for the king's side.
    assert_eq!(past_a_third.len(), 11, "{past_a_third:?}");
    assert_eq!(by_repetition, [978]);
}
