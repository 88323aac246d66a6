//! Set-ups: positions before they are checked against rules, their text form (the board
//! diagram that [`Position`]'s `Display` writes and [`Setup`]'s `FromStr` reads), and the
//! checked conversion between a set-up and a [`Position`].

use std::fmt;
use std::str::FromStr;

use crate::engine::Board;
use crate::error::{SetupError, SetupProblem};
use crate::square::column_name;
use crate::{PieceType, Player, Position, Rules, Square};

/// A position before it is checked against rules: which piece stands where, and who
/// moves. Turned into a [`Position`] by [`Position::from_setup`].
///
/// Its text form is a board diagram, as [`Position`]'s `Display` writes it: a row of
/// column names, then one line per row from the top, starting with the row's algebraic
/// number, each square written as the bit of its piece, `.` when empty or `-` when not
/// part of the board; last, `side to move: 0` (or 1).
///
/// ```
/// use hnefatafl_core::{Player, Position, Rules, Setup};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let diagram = rules.start_position().to_string();
/// let setup: Setup = diagram.parse()?;
/// assert_eq!(setup.side_to_move, Player::Zero);
/// assert_eq!(Position::from_setup(&rules, &setup)?, rules.start_position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Setup {
    /// The pieces and their squares.
    pub pieces: Vec<(Square, PieceType)>,
    /// The side to move.
    pub side_to_move: Player,
    /// The board's width and height, when known; checked against the rules.
    pub size: Option<(u8, u8)>,
}

impl Setup {
    /// A set-up with these pieces and side to move, of no particular board size.
    ///
    /// ```
    /// use hnefatafl_core::{PieceType, Player, Setup, Square};
    /// let king = PieceType::from_bit(1).unwrap();
    /// let setup = Setup::new(vec![(Square::new(4, 4).unwrap(), king)], Player::One);
    /// assert_eq!(setup.pieces.len(), 1);
    /// ```
    pub fn new(pieces: Vec<(Square, PieceType)>, side_to_move: Player) -> Setup {
        Setup {
            pieces,
            side_to_move,
            size: None,
        }
    }
}

impl Position {
    /// Builds a position from a set-up, checking it against the rules.
    ///
    /// # Errors
    ///
    /// [`SetupError`] listing every reason the set-up does not fit the rules: a square
    /// outside the board or not part of it, an undeclared piece type, a piece on a square
    /// type outside its `occupies`, two pieces on one square, another board size.
    ///
    /// ```
    /// use hnefatafl_core::{Player, Position, Rules, Setup};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut setup = rules.start_position().setup();
    /// setup.side_to_move = Player::One;
    /// let position = Position::from_setup(&rules, &setup)?;
    /// assert_eq!(position.side_to_move(), Player::One);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, SetupError> {
        let tables = rules.tables();
        let mut problems = Vec::new();
        if let Some((width, height)) = setup.size
            && (width, height) != (rules.width(), rules.height())
        {
            problems.push(SetupProblem::WrongSize { width, height });
        }
        let mut state = Board::empty(tables);
        for &(square, piece) in &setup.pieces {
            let Some(index) = rules.index(square) else {
                problems.push(SetupProblem::OutsideBoard(square));
                continue;
            };
            let Some(square_type) = rules.square_type(square) else {
                problems.push(SetupProblem::NotOnBoard(square));
                continue;
            };
            let Some(rule) = rules.piece_rule(piece) else {
                problems.push(SetupProblem::UnknownPiece { square, piece });
                continue;
            };
            if !rule.occupies().contains(square_type) {
                problems.push(SetupProblem::CannotStand {
                    square,
                    piece,
                    square_type,
                });
                continue;
            }
            if state.board[index] != 0 {
                problems.push(SetupProblem::TwoPieces(square));
                continue;
            }
            state.put(tables, index, piece.bit());
        }
        if state.side != setup.side_to_move {
            state.pass(tables);
        }
        if problems.is_empty() {
            Ok(Position {
                rules: rules.clone(),
                state,
            })
        } else {
            Err(SetupError { problems })
        }
    }

    /// The set-up of this position: every piece, the side to move and the board size.
    ///
    /// ```
    /// use hnefatafl_core::{Position, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let start = rules.start_position();
    /// assert_eq!(Position::from_setup(&rules, &start.setup())?, start);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn setup(&self) -> Setup {
        Setup {
            pieces: self.pieces().collect(),
            side_to_move: self.side_to_move(),
            size: Some((self.rules.width(), self.rules.height())),
        }
    }
}

/// The words of a diagram's last line, before the player.
const SIDE_TO_MOVE: &str = "side to move:";

impl fmt::Display for Position {
    /// The board diagram described at [`Setup`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (width, height) = (self.rules.width(), self.rules.height());
        write!(f, "   ")?;
        for x in 0..width {
            write!(f, " {:>3}", column_name(x))?;
        }
        writeln!(f)?;
        for y in 0..height {
            write!(f, "{:>3}", height - y)?;
            for x in 0..width {
                let square = Square(u16::from(x) | u16::from(y) << 5);
                let cell = match (self.piece_at(square), self.rules.square_type(square)) {
                    (Some(piece), _) => piece.bit().to_string(),
                    (None, Some(_)) => ".".to_owned(),
                    (None, None) => "-".to_owned(),
                };
                write!(f, " {cell:>3}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "{SIDE_TO_MOVE} {}", self.side_to_move())
    }
}

impl FromStr for Setup {
    type Err = SetupError;

    /// Reads a board diagram (see [`Setup`]).
    fn from_str(text: &str) -> Result<Setup, SetupError> {
        let mut problems = Vec::new();
        let mut rows: Vec<Vec<&str>> = Vec::new();
        let mut side = None;
        for (number, line) in text.lines().enumerate() {
            let line_number = number as u32 + 1;
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(player) = line.trim().strip_prefix(SIDE_TO_MOVE) {
                match player.trim().parse::<Player>() {
                    Ok(player) => side = Some(player),
                    Err(_) => problems.push(SetupProblem::BadLine(line_number)),
                }
                continue;
            }
            match words.first() {
                None => {}
                Some(first) if first.bytes().all(|b| b.is_ascii_alphabetic()) => {}
                Some(first) if first.bytes().all(|b| b.is_ascii_digit()) => {
                    rows.push(words[1..].to_vec());
                }
                Some(_) => problems.push(SetupProblem::BadLine(line_number)),
            }
        }
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        let fits = (1..=usize::from(crate::MAX_SIDE)).contains(&height)
            && (1..=usize::from(crate::MAX_SIDE)).contains(&width)
            && rows.iter().all(|row| row.len() == width);
        if !fits {
            problems.push(SetupProblem::Shape);
        }
        let mut pieces = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                if *cell == "." || *cell == "-" {
                    continue;
                }
                let square = u8::try_from(x)
                    .ok()
                    .zip(u8::try_from(y).ok())
                    .and_then(|(x, y)| Square::new(x, y));
                match (
                    square,
                    cell.parse::<u8>().ok().and_then(PieceType::from_bit),
                ) {
                    (Some(square), Some(piece)) => pieces.push((square, piece)),
                    (Some(square), None) => problems.push(SetupProblem::BadCell(square)),
                    (None, _) => {}
                }
            }
        }
        let Some(side_to_move) = side else {
            problems.push(SetupProblem::NoSideToMove);
            return Err(SetupError { problems });
        };
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        Ok(Setup {
            pieces,
            side_to_move,
            size: Some((width as u8, height as u8)),
        })
    }
}
