//! Files of recorded games, one game a line: what the opening sets, the puzzle sets and
//! the trainer's imported data are made from.
//!
//! A line is a game: its moves before the first comma, separated by spaces, in the
//! `d1-d3` form, then fields the reader does not need, and last its result. What follows
//! an `x` in a move (the squares it captured) is left out: the rules decide what a move
//! captures. A word `timeout` says the player to move ran out of time. The result is
//! `Black` (the first player, player 0, won), `White` (player 1 won), `Draw`, or anything
//! else (`Ongoing`, none) for a game without one. Blank lines and lines starting with `#`
//! are left out. This is the form of `core/tests/data/copenhagen_games.csv.gz`, the human
//! games the engine replays.

use crate::content_lines;
use hnefatafl_core::{Game, Player, Rules};
use std::io::Read;
use std::path::Path;

/// The word of a record that says the player to move ran out of time.
const TIMEOUT: &str = "timeout";

/// What a record says of how its game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// This player won.
    Won(Player),
    /// Drawn.
    Drawn,
    /// No result: still going, abandoned, or not written.
    Unfinished,
}

impl RecordedResult {
    /// The result a record's last field names.
    fn read(field: &str) -> RecordedResult {
        match field.trim() {
            "Black" => RecordedResult::Won(Player::Zero),
            "White" => RecordedResult::Won(Player::One),
            "Draw" => RecordedResult::Drawn,
            _ => RecordedResult::Unfinished,
        }
    }
}

/// One line of a file of recorded games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// Its line number, from 1.
    pub line: usize,
    /// Its moves, each as `d1-d3`, the captures after an `x` left out.
    pub moves: Vec<&'a str>,
    /// Whether a player ran out of time (a word `timeout`).
    pub timed_out: bool,
    /// The result its last field names.
    pub result: RecordedResult,
}

impl Record<'_> {
    /// Plays the record's first `plies` moves (all of them if it has fewer) on a game of
    /// these rules from the start.
    ///
    /// # Errors
    ///
    /// The first move that cannot be read or is not legal, with the line's number.
    pub fn replay(&self, rules: &Rules, plies: usize) -> Result<Game, String> {
        let mut game = Game::new(rules.clone());
        for word in self.moves.iter().take(plies) {
            self.play(rules, &mut game, word)?;
        }
        Ok(game)
    }

    /// Plays one of the record's moves on the game.
    ///
    /// # Errors
    ///
    /// The move cannot be read or is not legal: the line's number and the move, quoted.
    pub fn play(&self, rules: &Rules, game: &mut Game, word: &str) -> Result<(), String> {
        let bad = |e: &dyn std::fmt::Display| format!("line {}: `{word}`: {e}", self.line);
        let mv = rules.read_move(word).map_err(|e| bad(&e))?;
        game.try_play(mv).map(drop).map_err(|e| bad(&e))
    }
}

/// The records of a file's text, in order.
pub fn records(text: &str) -> impl Iterator<Item = Record<'_>> {
    content_lines(text).map(|(line, content)| {
        let (moves, rest) = content.split_once(',').unwrap_or((content, ""));
        let words = moves.split_whitespace();
        Record {
            line,
            moves: words
                .clone()
                .filter(|word| *word != TIMEOUT)
                .map(|word| word.split_once('x').map_or(word, |(travel, _)| travel))
                .collect(),
            timed_out: words.clone().any(|word| word == TIMEOUT),
            result: rest
                .rsplit(',')
                .next()
                .map_or(RecordedResult::Unfinished, RecordedResult::read),
        }
    })
}

/// The text of a file of recorded games, gunzipped when its name ends in `.gz`.
///
/// # Errors
///
/// The file cannot be read, or is not (gzipped) UTF-8 text: the file's name and why.
pub fn read_record_file(path: &Path) -> Result<String, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    if path.extension().is_some_and(|extension| extension == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(text)
    } else {
        String::from_utf8(bytes).map_err(|e| format!("{name}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_its_moves_clock_and_result() {
        let text = "\
# a comment

d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Black
h1-h3 d6-d3 timeout,0,0,White
h1-h3,0,0,Draw
h1-h3 d6-d3
h1-h3,0,0,Ongoing
";
        let read: Vec<Record> = records(text).collect();
        assert_eq!(read.len(), 5);
        assert_eq!(read[0].line, 3);
        assert_eq!(read[0].moves, ["d1-d3", "e5-e2", "g1-g3", "f4-c4", "g3-e3"]);
        assert_eq!(read[0].result, RecordedResult::Won(Player::Zero));
        assert!(!read[0].timed_out);
        assert_eq!(read[1].moves, ["h1-h3", "d6-d3"]);
        assert!(read[1].timed_out);
        assert_eq!(read[1].result, RecordedResult::Won(Player::One));
        assert_eq!(read[2].result, RecordedResult::Drawn);
        assert_eq!(read[3].result, RecordedResult::Unfinished);
        assert_eq!(read[3].line, 6);
        assert_eq!(read[4].result, RecordedResult::Unfinished);
    }

    #[test]
    fn a_replay_plays_the_moves_and_names_a_bad_one() {
        let rules = crate::fetlar_rules();
        let text = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 c4-c3,1,0,Black\n\nh1-h3 zz9-a1";
        let read: Vec<Record> = records(text).collect();
        let game = read[0].replay(&rules, 5).expect("legal moves");
        assert_eq!(game.moves().len(), 5);
        let e2 = rules.parse_square(&["e2"]).expect("a square");
        assert!(game.position().piece_at(e2).is_none(), "e2 was captured");
        assert_eq!(read[0].replay(&rules, 99).expect("legal").moves().len(), 6);
        let error = read[1].replay(&rules, 9).expect_err("not a move");
        assert!(error.starts_with("line 3: `zz9-a1`"), "{error}");
    }
}
