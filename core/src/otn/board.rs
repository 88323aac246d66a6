//! OTN position records.

use std::fmt;
use std::str::FromStr;

use super::{OtnError, Roles};
use crate::{Player, Position, Rules, Setup};

/// The two sides of OTN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The attackers (lower-case letters).
    Attackers,
    /// The defenders, with the king (upper-case letters).
    Defenders,
}

impl Side {
    /// `attackers` or `defenders`, as the engine protocol writes it.
    pub fn word(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// The side named by `attackers` or `defenders`.
    pub fn from_word(word: &str) -> Option<Side> {
        match word {
            "attackers" => Some(Side::Attackers),
            "defenders" => Some(Side::Defenders),
            _ => None,
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }
}

/// The kinds of taflmen OTN names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `t`: an ordinary taflman.
    Taflman,
    /// `k`: the king.
    King,
    /// `c`: a commander (berserk).
    Commander,
    /// `n`: a knight (berserk).
    Knight,
    /// `m`: a mercenary.
    Mercenary,
    /// `g`: a guard.
    Guard,
}

impl Kind {
    /// Every kind with its lower-case letter: the one table of OTN's piece letters.
    pub const LETTERS: [(Kind, char); 6] = [
        (Kind::Taflman, 't'),
        (Kind::Commander, 'c'),
        (Kind::Knight, 'n'),
        (Kind::King, 'k'),
        (Kind::Mercenary, 'm'),
        (Kind::Guard, 'g'),
    ];

    /// The lower-case letter.
    pub fn letter(self) -> char {
        Kind::LETTERS
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or('t', |(_, letter)| *letter)
    }
}

/// One taflman: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    /// Its side.
    pub side: Side,
    /// Its kind.
    pub kind: Kind,
}

impl Man {
    /// A man of this side and kind.
    pub const fn new(side: Side, kind: Kind) -> Man {
        Man { side, kind }
    }

    /// The man of a letter: lower case for the attackers, upper case for the defenders.
    pub fn from_letter(letter: char) -> Option<Man> {
        let lower = letter.to_ascii_lowercase();
        let (kind, _) = Kind::LETTERS.iter().find(|(_, l)| *l == lower)?;
        let side = if letter.is_ascii_uppercase() {
            Side::Defenders
        } else {
            Side::Attackers
        };
        Some(Man::new(side, *kind))
    }

    /// Its letter.
    pub fn letter(self) -> char {
        let letter = self.kind.letter();
        match self.side {
            Side::Attackers => letter,
            Side::Defenders => letter.to_ascii_uppercase(),
        }
    }
}

/// The largest board OTN names: files are single letters `a` to `z`.
pub const MAX_DIM: usize = 26;

/// An OTN position record: a square board of `dim` ranks, rank 1 (the top row) first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    dim: usize,
    squares: Vec<Option<Man>>,
}

impl Board {
    /// An empty board `dim` squares wide and high (1..=26).
    pub fn empty(dim: usize) -> Option<Board> {
        (1..=MAX_DIM).contains(&dim).then(|| Board {
            dim,
            squares: vec![None; dim * dim],
        })
    }

    /// The side length.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The man at column `x`, row `y` (0-based from the top-left).
    pub fn get(&self, x: usize, y: usize) -> Option<Man> {
        (x < self.dim && y < self.dim)
            .then(|| self.squares[y * self.dim + x])
            .flatten()
    }

    /// Puts a man (or nothing) at column `x`, row `y`; squares off the board are ignored.
    pub fn set(&mut self, x: usize, y: usize, man: Option<Man>) {
        if x < self.dim && y < self.dim {
            self.squares[y * self.dim + x] = man;
        }
    }

    /// Every square row-major from the top-left.
    pub fn squares(&self) -> &[Option<Man>] {
        &self.squares
    }

    /// The same board with its rows in reverse order (OTN's `starti` form).
    pub fn inverted(&self) -> Board {
        let mut board = self.clone();
        for y in 0..self.dim {
            for x in 0..self.dim {
                board.set(x, self.dim - 1 - y, self.get(x, y));
            }
        }
        board
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("/")?;
        for row in self.squares.chunks(self.dim) {
            let mut empty = 0;
            for square in row {
                match square {
                    None => empty += 1,
                    Some(man) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", man.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            f.write_str("/")?;
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = OtnError;

    /// Reads a position record: `/` separated rows, digits for runs of empty squares.
    /// The board must be square (as many rows as each row has squares).
    fn from_str(text: &str) -> Result<Board, OtnError> {
        let bad = |message: String| OtnError::Position(message);
        let text = text.trim();
        if !text.starts_with('/') || !text.ends_with('/') || text.len() < 3 {
            return Err(bad(format!(
                "`{}` is not a position record: rows between slashes, such as `/3t3/.../`",
                shorten(text)
            )));
        }
        let rows: Vec<&str> = text[1..text.len() - 1].split('/').collect();
        let dim = rows.len();
        if dim > MAX_DIM {
            return Err(bad(format!(
                "{dim} rows: OTN boards have at most {MAX_DIM}"
            )));
        }
        let mut squares = Vec::with_capacity(dim * dim);
        for (number, row) in rows.iter().enumerate() {
            let rank = number + 1;
            let start = squares.len();
            let mut run = 0usize;
            for c in row.chars() {
                if let Some(digit) = c.to_digit(10) {
                    run = run * 10 + digit as usize;
                    if run > MAX_DIM {
                        return Err(bad(format!("rank {rank} is longer than {dim} squares")));
                    }
                    continue;
                }
                squares.extend(std::iter::repeat_n(None, run));
                run = 0;
                let man = Man::from_letter(c).ok_or_else(|| {
                    bad(format!(
                        "rank {rank}: `{c}` is not a taflman letter (tcnkmg)"
                    ))
                })?;
                squares.push(Some(man));
                if squares.len() - start > dim {
                    return Err(bad(format!(
                        "rank {rank} has more than {dim} squares, but the board has {dim} ranks"
                    )));
                }
            }
            squares.extend(std::iter::repeat_n(None, run));
            let length = squares.len() - start;
            if length != dim {
                return Err(bad(format!(
                    "rank {rank} has {length} squares, but the board has {dim} ranks"
                )));
            }
        }
        Ok(Board { dim, squares })
    }
}

/// The start of a long text, for error messages.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// The OTN position record of a position.
///
/// # Errors
///
/// [`OtnError::Unexpressible`] when the board is not square or larger than OTN names, or
/// the rules have piece types OTN does not know (see [`Roles::of`]).
pub fn position_to_otn(rules: &Rules, position: &Position) -> Result<Board, OtnError> {
    let roles = Roles::of(rules)?;
    let dim = usize::from(rules.width());
    if rules.width() != rules.height() {
        return Err(super::unexpressible(
            "dim",
            format!(
                "the board is {}x{}, OTN boards are square",
                rules.width(),
                rules.height()
            ),
        ));
    }
    let mut board = Board::empty(dim).ok_or_else(|| {
        super::unexpressible("dim", format!("OTN boards are at most {MAX_DIM} wide"))
    })?;
    for (square, piece) in position.pieces() {
        board.set(
            usize::from(square.x()),
            usize::from(square.y()),
            roles.man(piece),
        );
    }
    Ok(board)
}

/// Our position of an OTN board under these rules, with `to_move` to move.
///
/// # Errors
///
/// [`OtnError::Position`] when the board does not fit the rules: another size, a kind of
/// taflman the rules do not have, or a man on a square his type may not stand on.
pub fn position_from_otn(
    rules: &Rules,
    board: &Board,
    to_move: Player,
) -> Result<Position, OtnError> {
    let roles = Roles::of(rules)?;
    let bad = |message: String| OtnError::Position(message);
    if board.dim() != usize::from(rules.width()) || board.dim() != usize::from(rules.height()) {
        return Err(bad(format!(
            "the position is {0}x{0}, the board of the rules {1}x{2}",
            board.dim(),
            rules.width(),
            rules.height()
        )));
    }
    let mut pieces = Vec::new();
    for (index, man) in board.squares().iter().enumerate() {
        let Some(man) = man else { continue };
        let Some(square) = rules.square_of_index(index) else {
            continue;
        };
        let name = super::square_name(square);
        let piece = roles.piece(*man).ok_or_else(|| {
            bad(format!(
                "{name}: these rules have no `{}` (a {:?} of the {})",
                man.letter(),
                man.kind,
                man.side.word()
            ))
        })?;
        let stands = rules
            .square_type(square)
            .zip(rules.piece_rule(piece))
            .is_some_and(|(kind, rule)| rule.occupies & kind.bit() != 0);
        if !stands {
            return Err(bad(format!(
                "{name}: a `{}` may not stand there in these rules",
                man.letter()
            )));
        }
        pieces.push((square, piece));
    }
    Position::from_setup(rules, &Setup::new(pieces, to_move))
        .map_err(|error| bad(error.to_string()))
}
