//! Squares, directions and moves: board-independent coordinates.
//!
//! A [`Square`] is a column and a row counted from the top-left corner, as in a rule
//! file's `pieces`; it means the same on every board. Whether it lies on a given board
//! is a question for its [`Rules`](crate::Rules). The algebraic name of a square (`c9`)
//! counts rows from the bottom, so it depends on the board's height: it is an
//! [`AlgebraicSquare`], converted with [`Rules::algebraic`](crate::Rules::algebraic)
//! and [`Rules::from_algebraic`](crate::Rules::from_algebraic).

use std::fmt;
use std::str::FromStr;

use crate::error::{MovePathError, NotationError};
use crate::notation::{MoveText, is_algebraic};

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

/// One of the four directions along a row or a column.
///
/// The set is complete by definition, so the enum is not `#[non_exhaustive]`.
///
/// ```
/// use hnefatafl_core::Direction;
/// assert_eq!(Direction::ALL.len(), 4);
/// assert_eq!(Direction::East.opposite(), Direction::West);
/// assert_eq!(Direction::South.offset(), (0, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// `+x`: to the right.
    East,
    /// `-x`: to the left.
    West,
    /// `+y`: down, towards the bottom row.
    South,
    /// `-y`: up, towards the top row.
    North,
}

impl Direction {
    /// The four directions, in the fixed order in which the engine judges captures.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// for (index, direction) in Direction::ALL.into_iter().enumerate() {
    ///     assert_eq!(direction.index(), index);
    /// }
    /// ```
    pub const ALL: [Direction; 4] = [
        Direction::East,
        Direction::West,
        Direction::South,
        Direction::North,
    ];

    /// The position of the direction in [`Direction::ALL`].
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.index(), 3);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction at this position of [`Direction::ALL`].
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::from_index(1), Some(Direction::West));
    /// assert_eq!(Direction::from_index(4), None);
    /// ```
    pub const fn from_index(index: usize) -> Option<Direction> {
        match index {
            0 => Some(Direction::East),
            1 => Some(Direction::West),
            2 => Some(Direction::South),
            3 => Some(Direction::North),
            _ => None,
        }
    }

    /// The direction back.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.opposite(), Direction::South);
    /// ```
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            Direction::South => Direction::North,
            Direction::North => Direction::South,
        }
    }

    /// Whether the direction runs along a row (east or west).
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert!(Direction::West.is_horizontal());
    /// assert!(!Direction::North.is_horizontal());
    /// ```
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Direction::East | Direction::West)
    }

    /// The change of `(x, y)` of one step.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.offset(), (0, -1));
    /// ```
    pub const fn offset(self) -> (i8, i8) {
        match self {
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
            Direction::South => (0, 1),
            Direction::North => (0, -1),
        }
    }

    /// The change of a [`Square`]'s packed value of one step.
    pub(crate) const fn packed(self) -> i16 {
        match self {
            Direction::East => 1,
            Direction::West => -1,
            Direction::South => 32,
            Direction::North => -32,
        }
    }
}

/// The path of a jump capture: the direction of each jump, in order, each jump going
/// over the adjacent square onto the one beyond it (two squares). Empty for an ordinary
/// move. Kept in one `u32` so that a [`Move`] stays eight bytes and move generation
/// allocates nothing: two bits a jump below a marker bit, so at most
/// [`Jumps::MAX`] jumps.
///
/// ```
/// use hnefatafl_core::{Direction, Jumps};
/// let jumps = Jumps::EMPTY.with(Direction::North).unwrap().with(Direction::East).unwrap();
/// assert_eq!(jumps.len(), 2);
/// assert_eq!(jumps.iter().collect::<Vec<_>>(), [Direction::North, Direction::East]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<Direction>", into = "Vec<Direction>")
)]
pub struct Jumps(u32);

impl Jumps {
    /// No jump: the path of an ordinary move.
    ///
    /// ```
    /// use hnefatafl_core::Jumps;
    /// assert!(Jumps::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Jumps = Jumps(0);

    /// The most jumps one path holds.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// let mut jumps = Jumps::EMPTY;
    /// for _ in 0..Jumps::MAX {
    ///     jumps = jumps.with(Direction::West).unwrap();
    /// }
    /// assert_eq!(jumps.with(Direction::West), None);
    /// ```
    pub const MAX: usize = 15;

    /// The number of jumps.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// assert_eq!(Jumps::EMPTY.with(Direction::South).unwrap().len(), 1);
    /// ```
    pub const fn len(self) -> usize {
        if self.0 == 0 {
            0
        } else {
            (31 - self.0.leading_zeros() as usize) / 2
        }
    }

    /// Whether there is no jump (an ordinary move).
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// assert!(!Jumps::EMPTY.with(Direction::South).unwrap().is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The path with one more jump at its end, if it has room ([`Jumps::MAX`]).
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// let jumps = Jumps::EMPTY.with(Direction::West).unwrap();
    /// assert_eq!(jumps.get(0), Some(Direction::West));
    /// ```
    pub const fn with(self, direction: Direction) -> Option<Jumps> {
        let len = self.len();
        if len >= Jumps::MAX {
            return None;
        }
        let directions = if len == 0 {
            0
        } else {
            self.0 ^ (1 << (2 * len))
        };
        let directions = directions | (direction.index() as u32) << (2 * len);
        Some(Jumps(directions | 1 << (2 * (len + 1))))
    }

    /// The direction of jump `index` (0 is the first), if the path is that long.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// let jumps = Jumps::EMPTY.with(Direction::West).unwrap();
    /// assert_eq!(jumps.get(1), None);
    /// ```
    pub const fn get(self, index: usize) -> Option<Direction> {
        if index >= self.len() {
            return None;
        }
        Direction::from_index(((self.0 >> (2 * index)) & 3) as usize)
    }

    /// The directions of the jumps, first to last.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps};
    /// let jumps = Jumps::EMPTY.with(Direction::East).unwrap();
    /// assert_eq!(jumps.iter().count(), 1);
    /// ```
    pub fn iter(self) -> impl ExactSizeIterator<Item = Direction> {
        (0..self.len()).map(move |index| Direction::ALL[((self.0 >> (2 * index)) & 3) as usize])
    }
}

impl TryFrom<Vec<Direction>> for Jumps {
    type Error = JumpsTooLong;

    fn try_from(directions: Vec<Direction>) -> Result<Jumps, JumpsTooLong> {
        directions
            .into_iter()
            .try_fold(Jumps::EMPTY, |jumps, direction| jumps.with(direction))
            .ok_or(JumpsTooLong)
    }
}

impl From<Jumps> for Vec<Direction> {
    fn from(jumps: Jumps) -> Vec<Direction> {
        jumps.iter().collect()
    }
}

/// A jump path longer than [`Jumps::MAX`].
///
/// ```
/// use hnefatafl_core::{Direction, Jumps, JumpsTooLong};
/// assert_eq!(Jumps::try_from(vec![Direction::East; 16]), Err(JumpsTooLong));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a jump capture has at most {} jumps", Jumps::MAX)]
pub struct JumpsTooLong;

/// A move: a piece goes from one square to another along a row or a column, or, for a
/// jump capture, jumps over one enemy piece after another ([`Jumps`]). Written `x1 y1
/// x2 y2` (the program's numeric notation), a jump capture with every square it lands
/// on: `x1 y1 x2 y2 x3 y3 ...`; see [`Rules::format_move`](crate::Rules::format_move)
/// for the algebraic one.
///
/// ```
/// use hnefatafl_core::{Move, Square};
/// let mv: Move = "4 1 2 1".parse().unwrap();
/// assert_eq!(mv, Move::new(Square::new(4, 1).unwrap(), Square::new(2, 1).unwrap()));
/// assert_eq!(mv.to_string(), "4 1 2 1");
/// let jump: Move = "4 4 4 2 6 2".parse().unwrap();
/// assert_eq!((jump.jumps().len(), jump.to()), (2, Square::new(6, 2).unwrap()));
/// assert_eq!(jump.to_string(), "4 4 4 2 6 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "MoveFields", into = "MoveFields"))]
pub struct Move {
    /// Where the piece stands.
    pub(crate) from: Square,
    /// Where it goes (for a jump capture, where its last jump lands).
    pub(crate) to: Square,
    /// For a jump capture, its jumps; empty for an ordinary move.
    pub(crate) jumps: Jumps,
}

/// A [`Move`]'s serde form, `{"from": [x, y], "to": [x, y], "jumps": [...]}`, read and
/// then checked by [`Move::with_jumps`]. Saves written before jump captures existed have
/// no `jumps`, and read as ordinary moves.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct MoveFields {
    from: Square,
    to: Square,
    #[serde(default, skip_serializing_if = "no_jumps")]
    jumps: Jumps,
}

/// Whether a move's path is empty, for serde (which passes a reference).
#[cfg(feature = "serde")]
fn no_jumps(jumps: &Jumps) -> bool {
    jumps.is_empty()
}

#[cfg(feature = "serde")]
impl TryFrom<MoveFields> for Move {
    type Error = MovePathError;

    fn try_from(fields: MoveFields) -> Result<Move, MovePathError> {
        Move::with_jumps(fields.from, fields.to, fields.jumps)
    }
}

#[cfg(feature = "serde")]
impl From<Move> for MoveFields {
    fn from(mv: Move) -> MoveFields {
        MoveFields {
            from: mv.from,
            to: mv.to,
            jumps: mv.jumps,
        }
    }
}

impl Move {
    /// The ordinary move from `from` to `to` (not checked against any rules: whether it
    /// runs along a row or column, and whether the piece may go there, is for
    /// [`Position::check_move`](crate::Position::check_move) to say).
    ///
    /// ```
    /// use hnefatafl_core::{Move, Square};
    /// let (a, b) = (Square::new(0, 0).unwrap(), Square::new(0, 5).unwrap());
    /// assert_eq!(Move::new(a, b).to(), b);
    /// ```
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            jumps: Jumps::EMPTY,
        }
    }

    /// The move from `from` to `to` along `jumps`: an ordinary move when `jumps` is
    /// empty, else a jump capture whose jumps must end on `to`. Not checked against any
    /// rules.
    ///
    /// # Errors
    ///
    /// [`MovePathError::OffBoard`] when the jumps leave the largest board,
    /// [`MovePathError::WrongEnd`] when they land on another square than `to`.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps, Move, MovePathError, Square};
    /// let s = |x, y| Square::new(x, y).unwrap();
    /// let east = Jumps::EMPTY.with(Direction::East).unwrap();
    /// assert_eq!(Move::with_jumps(s(0, 0), s(2, 0), east)?.jumps(), east);
    /// assert!(matches!(
    ///     Move::with_jumps(s(0, 0), s(4, 0), east),
    ///     Err(MovePathError::WrongEnd { .. })
    /// ));
    /// assert_eq!(Move::with_jumps(s(0, 0), s(4, 0), Jumps::EMPTY)?, Move::new(s(0, 0), s(4, 0)));
    /// # Ok::<(), MovePathError>(())
    /// ```
    pub fn with_jumps(from: Square, to: Square, jumps: Jumps) -> Result<Move, MovePathError> {
        if jumps.is_empty() {
            return Ok(Move::new(from, to));
        }
        let jump = Move::jump(from, jumps).ok_or(MovePathError::OffBoard { from })?;
        if jump.to != to {
            return Err(MovePathError::WrongEnd {
                from,
                to,
                landing: jump.to,
            });
        }
        Ok(jump)
    }

    /// Where the piece stands.
    ///
    /// ```
    /// use hnefatafl_core::{Move, Square};
    /// let mv: Move = "4 1 2 1".parse().unwrap();
    /// assert_eq!(mv.from(), Square::new(4, 1).unwrap());
    /// ```
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where the piece goes; for a jump capture, where its last jump lands.
    ///
    /// ```
    /// use hnefatafl_core::{Move, Square};
    /// let mv: Move = "4 4 4 2 6 2".parse().unwrap();
    /// assert_eq!(mv.to(), Square::new(6, 2).unwrap());
    /// ```
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// For a jump capture, its jumps; empty for an ordinary move.
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Move};
    /// let mv: Move = "4 4 4 2 6 2".parse().unwrap();
    /// assert_eq!(mv.jumps().iter().collect::<Vec<_>>(), [Direction::North, Direction::East]);
    /// ```
    #[inline]
    pub const fn jumps(self) -> Jumps {
        self.jumps
    }

    /// The jump capture from `from` along `jumps`, if it stays inside the largest board
    /// (not checked against any rules).
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Jumps, Move, Square};
    /// let jumps = Jumps::EMPTY.with(Direction::East).unwrap();
    /// let mv = Move::jump(Square::new(0, 0).unwrap(), jumps).unwrap();
    /// assert_eq!(mv.to(), Square::new(2, 0).unwrap());
    /// ```
    pub fn jump(from: Square, jumps: Jumps) -> Option<Move> {
        let mut to = from;
        for direction in jumps.iter() {
            to = to.step(direction)?.step(direction)?;
        }
        Some(Move { from, to, jumps })
    }

    /// Whether the move is a jump capture.
    ///
    /// ```
    /// use hnefatafl_core::Move;
    /// assert!(!"4 1 2 1".parse::<Move>().unwrap().is_jump());
    /// ```
    pub const fn is_jump(self) -> bool {
        !self.jumps.is_empty()
    }

    /// The squares the piece lands on, in order: `to` alone for an ordinary move, the
    /// square after each jump for a jump capture.
    ///
    /// ```
    /// use hnefatafl_core::Move;
    /// let mv: Move = "0 0 2 0 2 2".parse().unwrap();
    /// assert_eq!(mv.landings().map(|s| s.to_string()).collect::<Vec<_>>(), ["2 0", "2 2"]);
    /// ```
    pub fn landings(self) -> impl Iterator<Item = Square> {
        let ordinary = self.jumps.is_empty().then_some(self.to);
        let jumps = self.jumps.iter().scan(self.from, |square, direction| {
            *square = square.step(direction)?.step(direction)?;
            Some(*square)
        });
        ordinary.into_iter().chain(jumps)
    }

    /// The move that lands on these squares in order: an ordinary move for one square
    /// (which the rules may still read as a single jump, see
    /// [`Position::resolve_move`](crate::Position::resolve_move)), a jump capture for
    /// more, each two squares from the one before along a row or column.
    ///
    /// # Errors
    ///
    /// [`NotationError::NotAJump`] when a later square is not two squares on from the one
    /// before, [`NotationError::WordCount`] for no landing or too many.
    ///
    /// ```
    /// use hnefatafl_core::{Move, Square};
    /// let s = |x, y| Square::new(x, y).unwrap();
    /// assert!(Move::through(s(0, 0), &[s(2, 0), s(2, 2)]).unwrap().is_jump());
    /// assert!(Move::through(s(0, 0), &[s(2, 0), s(3, 0)]).is_err());
    /// ```
    pub fn through(from: Square, landings: &[Square]) -> Result<Move, NotationError> {
        match landings {
            [] => Err(NotationError::WordCount),
            &[to] => Ok(Move::new(from, to)),
            _ => {
                let mut jumps = Jumps::EMPTY;
                let mut square = from;
                for &landing in landings {
                    let direction = Move::new(square, landing)
                        .direction()
                        .filter(|&d| square.step(d).and_then(|s| s.step(d)) == Some(landing))
                        .ok_or(NotationError::NotAJump(landing))?;
                    jumps = jumps.with(direction).ok_or(NotationError::WordCount)?;
                    square = landing;
                }
                Ok(Move {
                    from,
                    to: square,
                    jumps,
                })
            }
        }
    }

    /// The direction of the move, if it runs along a row or a column (for a jump
    /// capture: from its origin to its last square).
    ///
    /// ```
    /// use hnefatafl_core::{Direction, Move};
    /// let mv: Move = "4 1 2 1".parse().unwrap();
    /// assert_eq!(mv.direction(), Some(Direction::West));
    /// assert_eq!("0 0 1 1".parse::<Move>().unwrap().direction(), None);
    /// ```
    pub const fn direction(self) -> Option<Direction> {
        let (fx, fy, tx, ty) = (self.from.x(), self.from.y(), self.to.x(), self.to.y());
        if fy == ty && fx < tx {
            Some(Direction::East)
        } else if fy == ty && fx > tx {
            Some(Direction::West)
        } else if fx == tx && fy < ty {
            Some(Direction::South)
        } else if fx == tx && fy > ty {
            Some(Direction::North)
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// `x1 y1 x2 y2`; a jump capture with every square it lands on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        for square in self.landings() {
            write!(f, " {square}")?;
        }
        Ok(())
    }
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
