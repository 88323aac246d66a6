//! Reading moves and squares of a board in either notation.
//!
//! Numeric: `x y`, 0-based, origin top-left (as in a rule file's `pieces`).
//! Algebraic: a column name and a row number, `a1` being the bottom-left square. Columns
//! are named like spreadsheet columns: `a`..`z`, then `aa`, `ab`, ... (boards are at most
//! 31 wide, so the last name is `ae`). Rows count from 1 at the bottom.

use crate::error::NotationError;
use crate::square::coordinate;
use crate::{AlgebraicSquare, Move, Rules, Square};

/// One algebraic square such as `c9`, on the board of the rules.
fn algebraic(rules: &Rules, word: &str) -> Result<Square, NotationError> {
    let name: AlgebraicSquare = word.parse()?;
    rules
        .from_algebraic(name)
        .ok_or_else(|| NotationError::OutOfBoard(word.to_owned()))
}

/// Two number words `x y`, on the board of the rules.
fn numeric(rules: &Rules, x: &str, y: &str) -> Result<Square, NotationError> {
    let outside = || NotationError::OutOfBoard(format!("{x} {y}"));
    let (x, y) = match (coordinate(x), coordinate(y)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(NotationError::OutOfBoard(_)), Ok(_)) | (Ok(_), Err(NotationError::OutOfBoard(_))) => {
            return Err(outside());
        }
        (Err(error), _) | (_, Err(error)) => return Err(error),
    };
    rules.square_at(x, y).ok_or_else(outside)
}

pub(crate) fn parse_square(rules: &Rules, words: &[&str]) -> Result<Square, NotationError> {
    match words {
        [word] => algebraic(rules, word),
        [x, y] => numeric(rules, x, y),
        _ => Err(NotationError::WordCount),
    }
}

/// A move as written: two or more algebraic squares, or two or more `x y` pairs; every
/// square after the first is one the piece lands on (more than one: a jump capture).
/// Squares may also be joined by `-` inside a word (`d9-d7`, as OTN writes them).
pub(crate) fn parse_move(rules: &Rules, words: &[&str]) -> Result<Move, NotationError> {
    let mut parts = Vec::with_capacity(words.len());
    for word in words {
        for part in word.split(SQUARE_JOINER) {
            if part.is_empty() {
                return Err(NotationError::BadWord((*word).to_owned()));
            }
            parts.push(part);
        }
    }
    let words = parts.as_slice();
    let algebraic_words = words
        .first()
        .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()));
    let squares = if algebraic_words {
        words
            .iter()
            .map(|word| algebraic(rules, word))
            .collect::<Result<Vec<Square>, NotationError>>()?
    } else {
        if words.len() % 2 != 0 {
            return Err(NotationError::WordCount);
        }
        words
            .chunks(2)
            .map(|pair| numeric(rules, pair[0], pair[1]))
            .collect::<Result<Vec<Square>, NotationError>>()?
    };
    match squares.split_first() {
        Some((&from, landings)) if !landings.is_empty() => Move::through(from, landings),
        _ => Err(NotationError::WordCount),
    }
}

/// What may join the squares of a move inside a word, besides white space between words.
const SQUARE_JOINER: char = '-';

/// How moves and squares are written.
///
/// ```
/// use hnefatafl_core::{Notation, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let mv = "5 0 2 0".parse()?;
/// assert_eq!(rules.format_move(mv, Notation::Algebraic), "f9 c9");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notation {
    /// `5 0 2 0`: 0-based x and y numbers, origin top-left.
    Numeric,
    /// `f9 c9`: column letters from the left, row numbers from the bottom (`a1` is the
    /// bottom-left square). Columns past `z` are named like spreadsheet columns: `aa`,
    /// `ab`, ... up to `ae` on a board 31 wide. Upper-case letters are read too.
    Algebraic,
}
