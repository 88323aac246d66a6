//! Squares: board-independent coordinates, and the names of columns.
//!
//! A [`Square`] is a column and a row counted from the top-left corner, as in a rule
//! file's `pieces`; it means the same on every board. Whether it lies on a given board
//! is a question for its [`Rules`](crate::Rules). The algebraic name of a square (`c9`)
//! counts rows from the bottom, so it depends on the board's height: it is an
//! [`AlgebraicSquare`], converted with [`Rules::algebraic`](crate::Rules::algebraic)
//! and [`Rules::from_algebraic`](crate::Rules::from_algebraic).

use std::fmt;
use std::str::FromStr;

use crate::direction::Direction;
use crate::error::NotationError;

/// The longest side of a board: boards are at most 31 by 31 squares.
///
/// ```
/// use hnefatafl_core::{MAX_SIDE, Square};
/// assert!(Square::new(MAX_SIDE - 1, MAX_SIDE - 1).is_some());
/// assert!(Square::new(MAX_SIDE, 0).is_none());
/// ```
pub const MAX_SIDE: u8 = 31;

/// A square: column `x` and row `y`, 0-based from the top-left corner, both below
/// [`MAX_SIDE`]. Written `x y` (the program's numeric notation).
///
/// ```
/// use hnefatafl_core::Square;
/// let square = Square::new(4, 1).unwrap();
/// assert_eq!((square.x(), square.y()), (4, 1));
/// assert_eq!(square.to_string(), "4 1");
/// assert_eq!("4 1".parse::<Square>(), Ok(square));
/// assert_eq!(Square::new(31, 0), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "(u8, u8)", into = "(u8, u8)"))]
// `x | y << 5`: a step along a row or column is a fixed offset (see `Direction::packed`).
pub struct Square(pub(crate) u16);

impl Square {
    /// The square at column `x`, row `y`, if both are below [`MAX_SIDE`].
    ///
    /// ```
    /// use hnefatafl_core::Square;
    /// assert!(Square::new(30, 30).is_some());
    /// assert!(Square::new(0, 31).is_none());
    /// ```
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < MAX_SIDE && y < MAX_SIDE {
            Some(Square(x as u16 | (y as u16) << 5))
        } else {
            None
        }
    }

    /// The column, 0-based from the left.
    ///
    /// ```
    /// use hnefatafl_core::Square;
    /// assert_eq!(Square::new(3, 5).unwrap().x(), 3);
    /// ```
    pub const fn x(self) -> u8 {
        (self.0 & 31) as u8
    }

    /// The row, 0-based from the top.
    ///
    /// ```
    /// use hnefatafl_core::Square;
    /// assert_eq!(Square::new(3, 5).unwrap().y(), 5);
    /// ```
    pub const fn y(self) -> u8 {
        (self.0 >> 5) as u8
    }

    /// A number below 1024 that names the square on every board (`x + 32 * y`), for
    /// packing squares into tables and keys.
    ///
    /// ```
    /// use hnefatafl_core::Square;
    /// let square = Square::new(30, 30).unwrap();
    /// assert_eq!(square.code(), 990);
    /// assert_eq!(Square::from_code(square.code()), Some(square));
    /// ```
    pub const fn code(self) -> u16 {
        self.0
    }

    /// The square of a [`Square::code`], if it is one.
    ///
    /// ```
    /// use hnefatafl_core::Square;
    /// assert_eq!(Square::from_code(33), Square::new(1, 1));
    /// assert_eq!(Square::from_code(31), None);
    /// assert_eq!(Square::from_code(1024), None);
    /// ```
    pub const fn from_code(code: u16) -> Option<Square> {
        if code >= 1024 {
            return None;
        }
        Square::new((code & 31) as u8, (code >> 5) as u8)
    }

    /// The next square in a direction, if the coordinates stay in `0..MAX_SIDE` (use
    /// [`Rules::neighbour`](crate::Rules::neighbour) to stay on a board).
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Square};
    /// let square = Square::new(0, 3).unwrap();
    /// assert_eq!(square.step(Direction::East), Square::new(1, 3));
    /// assert_eq!(square.step(Direction::West), None);
    /// ```
    pub const fn step(self, direction: Direction) -> Option<Square> {
        let (dx, dy) = direction.offset();
        let (x, y) = (self.x() as i16 + dx as i16, self.y() as i16 + dy as i16);
        if x < 0 || y < 0 {
            return None;
        }
        Square::new(x as u8, y as u8)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({} {})", self.x(), self.y())
    }
}

impl fmt::Display for Square {
    /// `x y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.x(), self.y())
    }
}

impl TryFrom<(u8, u8)> for Square {
    type Error = NotationError;

    fn try_from((x, y): (u8, u8)) -> Result<Square, NotationError> {
        Square::new(x, y).ok_or_else(|| NotationError::OutOfBoard(format!("{x} {y}")))
    }
}

impl From<Square> for (u8, u8) {
    fn from(square: Square) -> (u8, u8) {
        (square.x(), square.y())
    }
}

/// One number of the numeric notation.
pub(crate) fn coordinate(word: &str) -> Result<u8, NotationError> {
    let bad = || NotationError::BadWord(word.to_owned());
    if word.is_empty() || word.len() > 4 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let value: u32 = word.parse().map_err(|_| bad())?;
    u8::try_from(value)
        .ok()
        .filter(|&v| v < MAX_SIDE)
        .ok_or_else(|| NotationError::OutOfBoard(word.to_owned()))
}

impl FromStr for Square {
    type Err = NotationError;

    /// Reads `x y`: two numbers separated by white space.
    fn from_str(text: &str) -> Result<Square, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [x, y] = words[..] else {
            return Err(NotationError::WordCount);
        };
        Square::try_from((coordinate(x)?, coordinate(y)?))
    }
}

/// A square named in algebraic notation: a column name (`a`..`z`, then `aa`..`ae`) and a
/// row number counted from 1 at the bottom. Upper-case letters are read too.
///
/// ```
/// use hnefatafl_core::AlgebraicSquare;
/// let square: AlgebraicSquare = "ab12".parse().unwrap();
/// assert_eq!((square.column(), square.row()), (27, 12));
/// assert_eq!(square.to_string(), "ab12");
/// assert!("a0".parse::<AlgebraicSquare>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AlgebraicSquare {
    column: u8,
    row: u8,
}

impl AlgebraicSquare {
    /// The square of column `column` (0-based from the left) and row `row` (1-based from
    /// the bottom), if both fit a board of at most [`MAX_SIDE`] squares.
    ///
    /// ```
    /// use hnefatafl_core::AlgebraicSquare;
    /// assert_eq!(AlgebraicSquare::new(0, 1).unwrap().to_string(), "a1");
    /// assert!(AlgebraicSquare::new(0, 0).is_none());
    /// ```
    pub const fn new(column: u8, row: u8) -> Option<AlgebraicSquare> {
        if column < MAX_SIDE && row >= 1 && row <= MAX_SIDE {
            Some(AlgebraicSquare { column, row })
        } else {
            None
        }
    }

    /// The column, 0-based from the left (`a` is 0, `aa` is 26).
    ///
    /// ```
    /// use hnefatafl_core::AlgebraicSquare;
    /// assert_eq!("c9".parse::<AlgebraicSquare>().unwrap().column(), 2);
    /// ```
    pub const fn column(self) -> u8 {
        self.column
    }

    /// The row, 1-based from the bottom.
    ///
    /// ```
    /// use hnefatafl_core::AlgebraicSquare;
    /// assert_eq!("c9".parse::<AlgebraicSquare>().unwrap().row(), 9);
    /// ```
    pub const fn row(self) -> u8 {
        self.row
    }
}

/// The name of a column: `a`..`z`, then `aa`, `ab`, ... (spreadsheet style).
///
/// ```
/// use hnefatafl_core::column_name;
/// assert_eq!(column_name(0), "a");
/// assert_eq!(column_name(25), "z");
/// assert_eq!(column_name(26), "aa");
/// assert_eq!(column_name(30), "ae");
/// ```
pub fn column_name(x: u8) -> String {
    let mut name = Vec::new();
    let mut n = usize::from(x) + 1;
    while n > 0 {
        n -= 1;
        name.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    name.into_iter().rev().map(char::from).collect()
}

/// The column of a name made of letters (either case).
pub(crate) fn column_of(name: &str) -> Option<usize> {
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

impl fmt::Display for AlgebraicSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_name(self.column), self.row)
    }
}

impl FromStr for AlgebraicSquare {
    type Err = NotationError;

    fn from_str(word: &str) -> Result<AlgebraicSquare, NotationError> {
        let split = word
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(word.len());
        let (letters, digits) = word.split_at(split);
        let bad = || NotationError::BadWord(word.to_owned());
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let column = column_of(letters).ok_or_else(bad)?;
        let row: usize = digits.parse().map_err(|_| bad())?;
        u8::try_from(column)
            .ok()
            .zip(u8::try_from(row).ok())
            .and_then(|(column, row)| AlgebraicSquare::new(column, row))
            .ok_or_else(|| NotationError::OutOfBoard(word.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_round_trip() {
        for x in 0..MAX_SIDE {
            assert_eq!(column_of(&column_name(x)), Some(usize::from(x)));
        }
        assert_eq!(column_of("A"), Some(0));
        assert_eq!(column_of("1"), None);
    }

    #[test]
    fn a_step_changes_the_packed_value_by_the_direction() {
        let square = Square::new(5, 5).expect("inside");
        for direction in Direction::ALL {
            let next = square.step(direction).expect("inside");
            assert_eq!(next.0 as i16 - square.0 as i16, direction.packed());
        }
    }
}
