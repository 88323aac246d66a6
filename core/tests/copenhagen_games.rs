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
//! The engine must accept every move, capture exactly what the record captures, not end
//! the game before the record does, and, where it ends the game after the last move,
//! agree with the record's result. Games that stop without an end by the rules were
//! resigned, abandoned or lost on time.
//!
//! One rule is left out: the servers these games were played on did not end a game at
//! the third occurrence of a position (eleven games go on after one, one of them to a
//! fourth), so the games are replayed on the file without its `repetition` rule, and the
//! games in which the shipped rule would have ended the game are counted apart.

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

/// The shipped file, and the same without its repetition rule.
fn copenhagen() -> (Rules, Rules) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let shipped = Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let without: String = text
        .lines()
        .filter(|line| !line.starts_with("repetition"))
        .map(|line| format!("{line}\n"))
        .collect();
    let without = Rules::parse(without.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert!(shipped.repetition().is_some() && without.repetition().is_none());
    (shipped, without)
}

/// How a replayed game went.
struct Replayed {
    /// The engine ended it after the record's last move, with the record's result.
    ended: bool,
    /// The shipped repetition rule would have ended it before the record did.
    repeated: bool,
}

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

/// Replays one game on `rules` (the file without its repetition rule), and on `shipped`
/// as long as that game goes on; returns how it went, or the first disagreement.
fn replay(shipped: &Rules, rules: &Rules, line: &str) -> Result<Replayed, String> {
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, _, _, status] = fields[..] else {
        return Err(format!("not four fields: {line}"));
    };
    let mut game = Game::new(rules.clone());
    let mut shipped_game = Some(Game::new(shipped.clone()));
    let mut repeated = false;
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
        if let Some(with_repetition) = &mut shipped_game {
            with_repetition.play(mv);
            if let Some(outcome) = with_repetition.outcome()
                && game.outcome().is_none()
            {
                if outcome.reason != EndReason::Repetition {
                    return Err(format!(
                        "ply {ply}: the shipped file alone ends: {outcome:?}"
                    ));
                }
                repeated = true;
                shipped_game = None;
            }
        }
    }
    let Some(outcome) = game.outcome() else {
        return Ok(Replayed {
            ended: false,
            repeated,
        });
    };
    match result(status) {
        Some(winner) if winner == outcome.winner => Ok(Replayed {
            ended: true,
            repeated,
        }),
        recorded => Err(format!(
            "the engine ends with {outcome:?}, the record with {recorded:?}"
        )),
    }
}

#[test]
fn recorded_copenhagen_games_replay_move_for_move() {
    let (shipped, rules) = copenhagen();
    let text = records();
    let (mut games, mut ended, mut failures, mut repeated) = (0, 0, Vec::new(), Vec::new());
    for (number, line) in text.lines().enumerate() {
        games += 1;
        match replay(&shipped, &rules, line) {
            Ok(replayed) => {
                ended += usize::from(replayed.ended);
                if replayed.repeated {
                    repeated.push(number + 1);
                }
            }
            Err(error) => failures.push(format!("line {}: {error}", number + 1)),
        }
    }
    println!(
        "{games} games, {ended} ended by the rules, {} disagreements; the third occurrence of \
         a position would have ended the games on lines {repeated:?}",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(games, 1752, "the carried records");
    // Many games end by the rules (most others on time: their records end in `timeout`).
    assert!(ended >= 300, "{ended} of {games} ended by the rules");
    // Games that repeat a position three times are rare: a repetition rule that fired
    // far more often than that would be a wrong one.
    assert!(repeated.len() <= 20, "repeated: {repeated:?}");
}
