//! The two notations of moves and squares.
//!
//! Numeric: `x y`, 0-based, origin top-left (as in a rule file's `pieces`).
//! Algebraic: a column name and a row number, `a1` being the bottom-left square. Columns
//! are named like spreadsheet columns: `a`..`z`, then `aa`, `ab`, ... (boards are at most
//! 31 wide, so the last name is `ae`). Rows count from 1 at the bottom.

use crate::error::NotationError;
use crate::{Move, Notation, Rules, Square};

/// The name of a column: `a`..`z`, then `aa`, `ab`, ...
pub(crate) fn column_name(x: u8) -> String {
    let mut name = Vec::new();
    let mut n = usize::from(x) + 1;
    while n > 0 {
        n -= 1;
        name.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// The column of a name made of letters (either case).
fn column_of(name: &str) -> Option<usize> {
    if name.is_empty() || name.len() > 3 {
        return None;
    }
    let mut n = 0usize;
    for c in name.bytes() {
        let c = c.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        n = n * 26 + usize::from(c - b'a') + 1;
    }
    Some(n - 1)
}

/// One algebraic square such as `c9`.
fn algebraic(rules: &Rules, word: &str) -> Result<Square, NotationError> {
    let split = word
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(word.len());
    let (letters, digits) = word.split_at(split);
    let bad = || NotationError::BadWord(word.to_owned());
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let x = column_of(letters).ok_or_else(bad)?;
    let row: usize = digits.parse().map_err(|_| bad())?;
    let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
    if x >= width || row == 0 || row > height {
        return Err(NotationError::OutOfBoard(word.to_owned()));
    }
    Ok(Square::from_index((height - row) * width + x))
}

/// A number word of the numeric notation.
fn coordinate(word: &str) -> Result<usize, NotationError> {
    if word.is_empty() || word.len() > 4 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::BadWord(word.to_owned()));
    }
    word.parse()
        .map_err(|_| NotationError::BadWord(word.to_owned()))
}

/// Two number words `x y`.
fn numeric(rules: &Rules, x: &str, y: &str) -> Result<Square, NotationError> {
    let (cx, cy) = (coordinate(x)?, coordinate(y)?);
    if cx >= usize::from(rules.width()) || cy >= usize::from(rules.height()) {
        return Err(NotationError::OutOfBoard(format!("{x} {y}")));
    }
    Ok(Square::from_index(cy * usize::from(rules.width()) + cx))
}

pub(crate) fn parse_square(rules: &Rules, words: &[&str]) -> Result<Square, NotationError> {
    match words {
        [word] => algebraic(rules, word),
        [x, y] => numeric(rules, x, y),
        _ => Err(NotationError::WordCount),
    }
}

pub(crate) fn parse_move(rules: &Rules, words: &[&str]) -> Result<Move, NotationError> {
    match words {
        [from, to] => Ok(Move {
            from: algebraic(rules, from)?,
            to: algebraic(rules, to)?,
        }),
        [x1, y1, x2, y2] => Ok(Move {
            from: numeric(rules, x1, y1)?,
            to: numeric(rules, x2, y2)?,
        }),
        _ => Err(NotationError::WordCount),
    }
}

pub(crate) fn format_square(rules: &Rules, square: Square, notation: Notation) -> String {
    let width = usize::from(rules.width());
    let height = usize::from(rules.height());
    let (x, y) = (square.index() % width, square.index() / width);
    match notation {
        // x < width <= 31, so the column name always exists.
        Notation::Algebraic if y < height => format!("{}{}", column_name(x as u8), height - y),
        _ => format!("{x} {y}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_round_trip() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(30), "ae");
        for x in 0..31u8 {
            assert_eq!(column_of(&column_name(x)), Some(usize::from(x)));
        }
        assert_eq!(column_of("A"), Some(0));
        assert_eq!(column_of("1"), None);
    }
}
