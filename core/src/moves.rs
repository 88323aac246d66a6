//! Moves: a piece's origin and destination, and the jumps of a jump capture. Reading
//! them from text is for `notation.rs`.

use std::fmt;

use crate::direction::Direction;
use crate::error::{MovePathError, NotationError};
use crate::square::Square;

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
