//! Reading moves and squares of a board in either notation.
//!
//! Numeric: `x y`, 0-based, origin top-left (as in a rule file's `pieces`).
//! Algebraic: a column name and a row number, `a1` being the bottom-left square. Columns
//! are named like spreadsheet columns: `a`..`z`, then `aa`, `ab`, ... (boards are at most
//! 31 wide, so the last name is `ae`). Rows count from 1 at the bottom.

use std::fmt;
use std::str::FromStr;

use crate::error::NotationError;
use crate::square::coordinate;
use crate::{AlgebraicSquare, Move, Rules, Square};

/// One algebraic square such as `c9`, on the board of the rules.
fn algebraic(rules: &Rules, word: &str) -> Result<Square, NotationError> {
    let name: AlgebraicSquare = word.parse()?;
    on_board(rules, &Written::Algebraic(name, word.to_owned()))
}

/// Two number words `x y`, read without a board: errors name both words when one of them
/// is too large for any board.
fn coordinates(x: &str, y: &str) -> Result<Written, NotationError> {
    match (coordinate(x), coordinate(y)) {
        (Ok(column), Ok(row)) => Ok(Written::Numeric(column, row, format!("{x} {y}"))),
        (Err(NotationError::OutOfBoard(_)), Ok(_)) | (Ok(_), Err(NotationError::OutOfBoard(_))) => {
            Err(NotationError::OutOfBoard(format!("{x} {y}")))
        }
        (Err(error), _) | (_, Err(error)) => Err(error),
    }
}

/// A written square on the board of the rules.
fn on_board(rules: &Rules, written: &Written) -> Result<Square, NotationError> {
    let square = match written {
        Written::Algebraic(name, _) => rules.from_algebraic(*name),
        Written::Numeric(x, y, _) => rules.square_at(*x, *y),
    };
    square.ok_or_else(|| NotationError::OutOfBoard(written.word().to_owned()))
}

pub(crate) fn parse_square(rules: &Rules, words: &[&str]) -> Result<Square, NotationError> {
    match words {
        [word] => algebraic(rules, word),
        [x, y] => on_board(rules, &coordinates(x, y)?),
        _ => Err(NotationError::WordCount),
    }
}

/// A move as written: two or more algebraic squares, or two or more `x y` pairs; every
/// square after the first is one the piece lands on (more than one: a jump capture).
/// Squares may also be joined by `-` inside a word (`d9-d7`, as OTN writes them).
pub(crate) fn parse_move(rules: &Rules, words: &[&str]) -> Result<Move, NotationError> {
    let squares = move_squares(words, |written| on_board(rules, &written))?;
    match squares.split_first() {
        Some((&from, landings)) if !landings.is_empty() => Move::through(from, landings),
        _ => Err(NotationError::WordCount),
    }
}

/// The squares of a move's words (see [`parse_move`]), each read as written and handed to
/// `place` (which puts it on a board, or keeps it as written) in the order written.
fn move_squares<T>(
    words: &[&str],
    place: impl Fn(Written) -> Result<T, NotationError>,
) -> Result<Vec<T>, NotationError> {
    let mut parts = Vec::with_capacity(words.len());
    for word in words {
        for part in word.split(SQUARE_JOINER) {
            if part.is_empty() {
                return Err(NotationError::BadWord((*word).to_owned()));
            }
            parts.push(part);
        }
    }
    if parts.first().is_some_and(|word| is_algebraic(word)) {
        parts
            .iter()
            .map(|word| place(Written::Algebraic(word.parse()?, (*word).to_owned())))
            .collect()
    } else {
        if parts.len() % 2 != 0 {
            return Err(NotationError::WordCount);
        }
        parts
            .chunks(2)
            .map(|pair| place(coordinates(pair[0], pair[1])?))
            .collect()
    }
}

/// Whether a move's first word is an algebraic square (it starts with a letter).
pub(crate) fn is_algebraic(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// One square of a [`MoveText`], with the words it was written in (for errors).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Written {
    /// An algebraic name: rows count from the bottom, so its square depends on the board.
    Algebraic(AlgebraicSquare, String),
    /// `x y`, rows from the top: the same square on every board.
    Numeric(u8, u8, String),
}

impl Written {
    /// The square as written.
    fn word(&self) -> &str {
        match self {
            Written::Algebraic(_, word) | Written::Numeric(_, _, word) => word,
        }
    }
}

/// A move as written, read without a board: `d6-b6`, `d6 b6`, `3 1 1 1`, or a jump capture
/// with every square it lands on (`c4-c6-e6`). Its [`FromStr`] reads the forms of
/// [`Rules::parse_move`]; [`MoveText::on`] makes the [`Move`] on a board.
///
/// A board is needed because an algebraic square counts its row from the bottom and a
/// [`Square`] from the top: `d6` is row 1 from the top of brandub's 7x7 board and row 3
/// of tablut's 9x9. So `"d6-b6".parse::<Move>()` refuses algebraic text
/// ([`NotationError::NeedsBoard`]); parse a `MoveText`, or call [`Rules::read_move`], which
/// does both steps.
///
/// ```
/// use hnefatafl_core::{Move, MoveText, Notation, Rules};
///
/// let brandub: Rules = include_str!("../../data/rules/brandub").parse()?;
/// let tablut: Rules = include_str!("../../data/rules/tablut").parse()?;
///
/// let written: MoveText = "d6-b6".parse()?;
/// assert_eq!(written.notation(), Notation::Algebraic);
/// assert_eq!(written.to_string(), "d6 b6");
/// // The same text is another move on a board of another height.
/// assert_eq!(written.on(&brandub)?, "3 1 1 1".parse::<Move>()?);
/// assert_eq!(written.on(&tablut)?, "3 3 1 3".parse::<Move>()?);
/// // Numeric text means the same move on every board.
/// let numeric: MoveText = "3 1 1 1".parse()?;
/// assert_eq!(numeric.on(&tablut)?, "3 1 1 1".parse::<Move>()?);
/// // A square off this board is an error of `on`, bad text one of `parse`.
/// assert!("i9-i7".parse::<MoveText>()?.on(&brandub).is_err());
/// assert!("d6-".parse::<MoveText>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The origin and the landings, all in one notation; at least two.
    squares: Vec<Written>,
}

impl MoveText {
    /// Reads the words of a move (see [`Rules::parse_move`]).
    fn from_words(words: &[&str]) -> Result<MoveText, NotationError> {
        let squares = move_squares(words, Ok)?;
        if squares.len() < 2 {
            return Err(NotationError::WordCount);
        }
        Ok(MoveText { squares })
    }

    /// The notation the move was written in.
    ///
    /// ```
    /// use hnefatafl_core::{MoveText, Notation};
    /// assert_eq!("3 1 1 1".parse::<MoveText>()?.notation(), Notation::Numeric);
    /// assert_eq!("d6 b6".parse::<MoveText>()?.notation(), Notation::Algebraic);
    /// # Ok::<(), hnefatafl_core::NotationError>(())
    /// ```
    pub fn notation(&self) -> Notation {
        match self.squares.first() {
            Some(Written::Numeric(..)) => Notation::Numeric,
            _ => Notation::Algebraic,
        }
    }

    /// The move on the board of `rules`: each square placed on it, the landings after the
    /// first checked to be jumps. Whether the move is legal is the position's question
    /// ([`Position::check_move`](crate::Position::check_move)).
    ///
    /// # Errors
    ///
    /// [`NotationError::OutOfBoard`] for a square off this board, and the errors of
    /// [`Move::through`] for landings that are not one jump apart.
    ///
    /// ```
    /// use hnefatafl_core::{MoveText, NotationError, Rules};
    /// let rules: Rules = include_str!("../../data/rules/brandub").parse()?;
    /// let mv = "d6-b6".parse::<MoveText>()?.on(&rules)?;
    /// assert_eq!(rules.start_position().check_move(mv), Ok(()));
    /// assert_eq!(
    ///     "d6-h6".parse::<MoveText>()?.on(&rules),
    ///     Err(NotationError::OutOfBoard("h6".to_owned()))
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn on(&self, rules: &Rules) -> Result<Move, NotationError> {
        let squares = self
            .squares
            .iter()
            .map(|written| on_board(rules, written))
            .collect::<Result<Vec<Square>, NotationError>>()?;
        match squares.split_first() {
            Some((&from, landings)) => Move::through(from, landings),
            None => Err(NotationError::WordCount),
        }
    }
}

impl FromStr for MoveText {
    type Err = NotationError;

    /// Reads `d6-b6`, `d6 b6` or `3 1 1 1` (a jump capture: every square it lands on).
    fn from_str(text: &str) -> Result<MoveText, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        MoveText::from_words(&words)
    }
}

impl fmt::Display for MoveText {
    /// The squares in their notation, as [`Rules::format_move`] writes them: `d6 b6`,
    /// `3 1 1 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, written) in self.squares.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            match written {
                Written::Algebraic(name, _) => write!(f, "{name}")?,
                Written::Numeric(x, y, _) => write!(f, "{x} {y}")?,
            }
        }
        Ok(())
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

impl FromStr for Move {
    type Err = NotationError;

    /// Reads `x1 y1 x2 y2` (and, for a jump capture, `x3 y3 ...`): numbers separated by
    /// white space, rows from the top, which mean the same squares on every board.
    /// Algebraic text (`d6-b6`) is refused with [`NotationError::NeedsBoard`]: its rows
    /// count from the bottom, so it is read on a board, by
    /// [`Rules::read_move`](crate::Rules::read_move) or
    /// [`MoveText::on`](crate::MoveText::on).
    ///
    /// ```
    /// use hnefatafl_core::{Move, NotationError, Square};
    /// let mv: Move = "3 1 1 1".parse()?;
    /// assert_eq!((mv.from(), mv.to()), (Square::new(3, 1).unwrap(), Square::new(1, 1).unwrap()));
    /// assert_eq!(
    ///     "d6-b6".parse::<Move>(),
    ///     Err(NotationError::NeedsBoard("d6-b6".to_owned()))
    /// );
    /// # Ok::<(), NotationError>(())
    /// ```
    fn from_str(text: &str) -> Result<Move, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.first().is_some_and(|word| is_algebraic(word)) {
            // Text that is no move at all gets its own error first.
            text.parse::<MoveText>()?;
            return Err(NotationError::NeedsBoard(text.trim().to_owned()));
        }
        if words.len() < 4 || words.len() % 2 != 0 {
            return Err(NotationError::WordCount);
        }
        let squares = words
            .chunks(2)
            .map(|pair| Square::try_from((coordinate(pair[0])?, coordinate(pair[1])?)))
            .collect::<Result<Vec<Square>, NotationError>>()?;
        Move::through(squares[0], &squares[1..])
    }
}
