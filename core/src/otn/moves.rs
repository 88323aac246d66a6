//! OTN move records: `a4-a6`, `Ke5-e1-`, `e5-e8xe9/f8`, `e3-e4++`.

use std::ops::ControlFlow;

use super::{OtnError, Roles, Side, parse_square, square_name};
use crate::{Move, Position, Rules, Square};

/// The info symbol at the end of a move record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Info {
    /// `+`: the king may be captured on the next move.
    KingThreatened,
    /// `-`: the king has a way to escape on the next move.
    EscapeOpen,
    /// `++`: the king is captured; the game ends.
    KingCaptured,
    /// `--`: the king escapes; the game ends.
    KingEscaped,
}

impl Info {
    /// The symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Info::KingThreatened => "+",
            Info::EscapeOpen => "-",
            Info::KingCaptured => "++",
            Info::KingEscaped => "--",
        }
    }
}

/// A move record read from text. The piece letter and the move type (`-`) are checked
/// when read; the captures and the info symbol are kept as written, to be compared with
/// what the move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtnMove {
    /// The move.
    pub mv: Move,
    /// The captured squares as written (empty when none are written).
    pub captures: Vec<Square>,
    /// The info symbol, if any.
    pub info: Option<Info>,
}

/// The resignation record.
pub const RESIGN: &str = "---";

/// A cursor over a move record.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, prefix: &str) -> bool {
        let found = self.text[self.at..].starts_with(prefix);
        if found {
            self.at += prefix.len();
        }
        found
    }

    /// An optional taflman letter before a square (a letter followed by a letter).
    fn symbol(&mut self) {
        let bytes = self.text.as_bytes();
        if let (Some(&first), Some(&second)) = (bytes.get(self.at), bytes.get(self.at + 1))
            && super::Man::from_letter(char::from(first)).is_some()
            && second.is_ascii_alphabetic()
        {
            self.at += 1;
        }
    }

    /// A square name: one letter and one or two digits.
    fn square(&mut self, rules: &Rules) -> Result<Square, String> {
        let start = self.at;
        if !self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            return Err("a square (such as `a4`) was expected".to_owned());
        }
        self.at += 1;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) && self.at - start < 3 {
            self.at += 1;
        }
        let name = &self.text[start..self.at];
        parse_square(rules, name).ok_or_else(|| format!("`{name}` is not a square of the board"))
    }
}

impl OtnMove {
    /// Reads a move record on a board of these rules.
    ///
    /// # Errors
    ///
    /// [`OtnError::Move`] when the text is not a move record, names a square off the
    /// board, or uses a jump or berserk move (`^`, `=`), which our rules do not have. The
    /// resignation record `---` is refused too: callers look for it first.
    pub fn parse(rules: &Rules, text: &str) -> Result<OtnMove, OtnError> {
        let error = |message: String| OtnError::Move {
            text: super::board::shorten(text),
            message,
        };
        if text == RESIGN {
            return Err(error("a resignation, not a move".to_owned()));
        }
        if !text.is_ascii() {
            return Err(error("not ASCII".to_owned()));
        }
        let mut cursor = Cursor { text, at: 0 };
        cursor.symbol();
        let from = cursor.square(rules).map_err(error)?;
        if cursor.eat("^") || cursor.eat("=") {
            return Err(error(
                "jumps and berserk moves are not in these rules".to_owned(),
            ));
        }
        if !cursor.eat("-") {
            return Err(error("`-` between the two squares was expected".to_owned()));
        }
        let to = cursor.square(rules).map_err(error)?;
        let mut captures = Vec::new();
        if cursor.eat("x") {
            loop {
                cursor.symbol();
                captures.push(cursor.square(rules).map_err(error)?);
                if !cursor.eat("/") {
                    break;
                }
            }
        }
        let info = [
            ("++", Info::KingCaptured),
            ("--", Info::KingEscaped),
            ("+", Info::KingThreatened),
            ("-", Info::EscapeOpen),
        ]
        .into_iter()
        .find(|(symbol, _)| cursor.eat(symbol))
        .map(|(_, info)| info);
        if cursor.at != text.len() {
            return Err(error(format!(
                "`{}` after the move was not expected",
                &text[cursor.at..]
            )));
        }
        Ok(OtnMove {
            mv: Move::new(from, to),
            captures,
            info,
        })
    }
}

/// The simple form of a move, as the engine protocol sends it: `a4-a6`.
pub fn format_simple_move(mv: Move) -> String {
    format!("{}-{}", square_name(mv.from), square_name(mv.to))
}

/// The full OTN record of a move played from `position` (before the move): the king's
/// letter, the captures and the info symbol.
///
/// # Errors
///
/// [`OtnError::Unexpressible`] when the rules have piece types OTN does not know.
pub fn format_move(rules: &Rules, position: &Position, mv: Move) -> Result<String, OtnError> {
    let roles = Roles::of(rules)?;
    let mut after = position.clone();
    let undo = after.try_play(mv).map_err(|error| OtnError::Move {
        text: format_simple_move(mv),
        message: error.to_string(),
    })?;
    let letter = |piece| {
        if piece == roles.king { "K" } else { "" }
    };
    let mut text = String::new();
    if let Some(piece) = position.piece_at(mv.from) {
        text += letter(piece);
    }
    text += &format_simple_move(mv);
    let captures: Vec<String> = undo
        .captures()
        .map(|(square, piece)| format!("{}{}", letter(piece), square_name(square)))
        .collect();
    if !captures.is_empty() {
        text += "x";
        text += &captures.join("/");
    }
    if let Some(info) = info(rules, &roles, position.side_to_move(), &after) {
        text += info.symbol();
    }
    Ok(text)
}

/// The info symbol of a position after `mover` moved.
fn info(rules: &Rules, roles: &Roles, mover: crate::Player, after: &Position) -> Option<Info> {
    if let Some(outcome) = after.outcome() {
        return match outcome.reason {
            crate::EndReason::Escape(_) => Some(Info::KingEscaped),
            crate::EndReason::CaptureLoss(piece) if piece == roles.king => Some(Info::KingCaptured),
            _ => None,
        };
    }
    // What the mover could do if he moved again.
    let mut setup = after.setup();
    setup.side_to_move = mover;
    let again = Position::from_setup(rules, &setup).ok()?;
    let side = roles.side(mover);
    let wins = again
        .try_for_each_move(|mv| {
            let mut next = again.clone();
            let undo = next.play_unchecked(mv);
            let hit = match side {
                Side::Attackers => undo.captures().any(|(_, piece)| piece == roles.king),
                Side::Defenders => {
                    next.piece_at(mv.to) == Some(roles.king)
                        && rules.is_escape_square(roles.king, mv.to)
                }
            };
            if hit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break();
    match (wins, side) {
        (false, _) => None,
        (true, Side::Attackers) => Some(Info::KingThreatened),
        (true, Side::Defenders) => Some(Info::EscapeOpen),
    }
}
