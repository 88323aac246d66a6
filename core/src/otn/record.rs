//! OTN game records: `[tag:value]` headers, the rules tag last, then numbered turns.
//!
//! ```text
//! [variant:Brandubh]
//! [result:-1]
//! [rules:dim:7 ks:w ... start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]
//!
//! 1. d2-f2 d3-b3
//! 2. ...
//! ```

use super::moves::RESIGN;
use super::{
    Approximation, Board, OtnError, OtnMove, Roles, RulesString, Side, format_move,
    rules_to_otn_nearest,
};
use crate::{Game, Rules};

/// The `result` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultTag {
    /// `1`: the attackers won.
    AttackersWin,
    /// `0`: a draw.
    Draw,
    /// `-1`: the defenders won.
    DefendersWin,
    /// `?`: anything else.
    Other,
}

impl ResultTag {
    /// The tag's value.
    pub fn value(self) -> &'static str {
        match self {
            ResultTag::AttackersWin => "1",
            ResultTag::Draw => "0",
            ResultTag::DefendersWin => "-1",
            ResultTag::Other => "?",
        }
    }
}

/// A game record: its tags, rules, optional start position and the moves of the main
/// line. Variations and commentary are skipped when read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The tags other than `rules` and `position`, in order.
    pub tags: Vec<(String, String)>,
    /// The rules tag.
    pub rules: RulesString,
    /// The position tag: where the game starts, if not from the rules' start.
    pub position: Option<Board>,
    /// The move records of the main line, oldest first; the last may be `---`.
    pub moves: Vec<String>,
}

fn record_error(line: usize, message: impl Into<String>) -> OtnError {
    OtnError::Record {
        line,
        message: message.into(),
    }
}

/// Takes the commentary (`[...]`) out of the moves part, keeping line breaks.
fn strip_commentary(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            '\n' => out.push('\n'),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

impl GameRecord {
    /// Reads a game record. Moves are only read as text here; [`GameRecord::replay`]
    /// plays them.
    ///
    /// # Errors
    ///
    /// [`OtnError::Record`] naming the line of a tag that cannot be read, a missing rules
    /// tag or a turn that is not numbered; errors of the rules string and position tag
    /// are given with their line.
    pub fn parse(text: &str) -> Result<GameRecord, OtnError> {
        let mut tags = Vec::new();
        let mut rules = None;
        let mut position = None;
        let lines: Vec<&str> = text.lines().collect();
        let mut body_start = lines.len();
        for (index, raw) in lines.iter().enumerate() {
            let line = raw.trim();
            let number = index + 1;
            if line.is_empty() {
                continue;
            }
            if !line.starts_with('[') || rules.is_some() {
                body_start = index;
                break;
            }
            let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
                return Err(record_error(number, "a tag must end with `]`"));
            };
            let Some((key, value)) = inner.split_once(':') else {
                return Err(record_error(number, "a tag is `[name:value]`"));
            };
            let at_line = |error: OtnError| record_error(number, error.to_string());
            match key {
                "rules" => rules = Some(RulesString::parse(value).map_err(at_line)?),
                "position" => position = Some(value.parse::<Board>().map_err(at_line)?),
                _ => tags.push((key.to_owned(), value.to_owned())),
            }
        }
        let rules = rules.ok_or_else(|| record_error(1, "the record has no `[rules:...]` tag"))?;
        let mut moves = Vec::new();
        let body = strip_commentary(&lines[body_start.min(lines.len())..].join("\n"));
        for (index, line) in body.lines().enumerate() {
            let number = body_start + index + 1;
            let mut words = line.split_whitespace();
            let Some(turn) = words.next() else { continue };
            let Some(digits) = turn.strip_suffix('.') else {
                return Err(record_error(
                    number,
                    format!("`{turn}` is not a turn number such as `1.`"),
                ));
            };
            if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
                // A variation (`3b.3.1a.`): not part of the main line.
                if digits
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.')
                {
                    continue;
                }
                return Err(record_error(
                    number,
                    format!("`{turn}` is not a turn number"),
                ));
            }
            if moves.last().is_some_and(|m| m == RESIGN) {
                return Err(record_error(number, "moves after a resignation"));
            }
            moves.extend(
                words
                    .filter(|w| !w.chars().all(|c| c == '.'))
                    .map(str::to_owned),
            );
        }
        Ok(GameRecord {
            tags,
            rules,
            position,
            moves,
        })
    }

    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text of the record; [`GameRecord::parse`] reads it back.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (key, value) in &self.tags {
            let value = value.replace(['\n', '\r', ']'], " ");
            text += &format!("[{key}:{value}]\n");
        }
        if let Some(position) = &self.position {
            text += &format!("[position:{position}]\n");
        }
        text += &format!("[rules:{}]\n\n", self.rules);
        for (turn, pair) in self.moves.chunks(2).enumerate() {
            text += &format!("{}. {}\n", turn + 1, pair.join(" "));
        }
        text
    }

    /// The record of a game, with these tags (a `result` tag is added when the game is
    /// over; `rules` and `position` tags in `tags` are left out). The rules tag is the
    /// nearest rules string of the game's rules (see [`rules_to_otn_nearest`]).
    ///
    /// # Errors
    ///
    /// [`OtnError::Unexpressible`] when OTN cannot even come near the game's rules.
    pub fn from_game(game: &Game, tags: Vec<(String, String)>) -> Result<GameRecord, OtnError> {
        let rules = game.rules();
        let (otn, _) = rules_to_otn_nearest(rules)?;
        let roles = Roles::of(rules)?;
        let mut tags: Vec<(String, String)> = tags
            .into_iter()
            .filter(|(k, _)| k != "rules" && k != "position" && k != "result")
            .collect();
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner.map(|winner| roles.side(winner)) {
                Some(Side::Attackers) => ResultTag::AttackersWin,
                Some(Side::Defenders) => ResultTag::DefendersWin,
                None => ResultTag::Draw,
            };
            tags.push(("result".to_owned(), result.value().to_owned()));
        }
        // The position the game started from: the current one with every move taken back.
        let mut position = game.position().clone();
        for undo in game.history().iter().rev() {
            position.take_back(undo);
        }
        let start = (position != rules.start_position())
            .then(|| super::position_to_otn(rules, &position))
            .transpose()?;
        let mut moves = Vec::new();
        for undo in game.history() {
            moves.push(format_move(rules, &position, undo.mv())?);
            position.play_unchecked(undo.mv());
        }
        Ok(GameRecord {
            tags,
            rules: otn,
            position: start,
            moves,
        })
    }

    /// The rules of the record (its rules string, strictly: see [`RulesString::to_rules`]).
    ///
    /// # Errors
    ///
    /// As [`RulesString::to_rules`].
    pub fn game_rules(&self) -> Result<Rules, OtnError> {
        self.rules.to_rules()
    }

    /// The nearest rules of the record's rules string, with what was changed (see
    /// [`RulesString::to_rules_nearest`]).
    ///
    /// # Errors
    ///
    /// As [`RulesString::to_rules_nearest`].
    pub fn game_rules_nearest(&self) -> Result<(Rules, Vec<Approximation>), OtnError> {
        self.rules.to_rules_nearest()
    }

    /// Plays the moves on these rules, from the position tag if there is one (with the
    /// first player to move) or else from the rules' start, checking each move's
    /// captures where the record writes them. A resignation (`---`) ends the moves.
    ///
    /// # Errors
    ///
    /// [`OtnError::Position`] when the position tag does not fit the rules;
    /// [`OtnError::Move`] naming the first move that cannot be read, is illegal, or whose
    /// captures differ from the record's.
    pub fn replay(&self, rules: &Rules) -> Result<Game, OtnError> {
        let mut game = match &self.position {
            Some(board) => {
                Game::from_position(super::position_from_otn(rules, board, crate::Player::Zero)?)
            }
            None => Game::new(rules.clone()),
        };
        for (index, text) in self.moves.iter().enumerate() {
            if text == RESIGN {
                break;
            }
            let error = |message: String| OtnError::Move {
                text: text.clone(),
                message: format!("move {}: {message}", index + 1),
            };
            let record = OtnMove::parse(rules, text)?;
            let undo = game
                .try_play(record.mv)
                .map_err(|reason| error(reason.to_string()))?;
            if !record.captures.is_empty() {
                let mut made: Vec<_> = undo.captures().map(|(square, _)| square).collect();
                let mut written = record.captures.clone();
                made.sort();
                written.sort();
                if made != written {
                    return Err(error(
                        "the record's captures differ from the rules' captures".to_owned(),
                    ));
                }
            }
        }
        Ok(game)
    }
}
