//! The board as text, as the interpreter's `b` command prints it: [`BoardDisplay`].
//!
//! Pieces are letters by type bit (after `ui_bit`): 1 `K`, 2 `D`, 4 `A`, 8 `B`, 16 `C`,
//! 32 `E`, 64 `F`, 128 `G`; upper case for player 0, lower case for player 1. Empty
//! squares by type (after `ui_bit`): `*` an escape square, `+` a square that captures (a
//! hostile throne or corner), `.` the most common type, `:` any other type; squares that
//! are not part of the board are blank. Columns are numbered from 0 across the top with
//! their letters below; rows are numbered from 0 down the left side, with the algebraic
//! row number beside.

use std::fmt;

use crate::{Move, PieceType, Player, Position, Rules, SquareType, column_name};

/// The letters of piece types, by bit index.
const PIECE_LETTERS: [char; 8] = ['K', 'D', 'A', 'B', 'C', 'E', 'F', 'G'];

/// The upper-case initial of a piece type's name, when it begins with an ASCII letter.
fn initial(name: Option<&str>) -> Option<char> {
    name.and_then(|name| name.chars().next())
        .filter(char::is_ascii_alphabetic)
        .map(|letter| letter.to_ascii_uppercase())
}

/// Whether every declared piece type has a name with an initial of its own, so that the
/// initials tell the types apart on a text board.
fn initials_differ(rules: &Rules) -> bool {
    let mut seen = Vec::new();
    rules
        .piece_rules()
        .iter()
        .all(|rule| match initial(rule.name()) {
            Some(letter) if !seen.contains(&letter) => {
                seen.push(letter);
                true
            }
            _ => false,
        })
}

impl Rules {
    /// The letter of a piece type on a text board: the initial of its `name` when every
    /// declared type has a name and their initials differ (`king`, `defender`,
    /// `attacker`: `K`, `D`, `A`; halatafl's `white` and `black`: `W`, `B`), else by its
    /// bit (after its `ui_bit`): `K`, `D`, `A`, `B`, `C`, `E`, `F`, `G` for bits 1 to
    /// 128. Upper case for player 0's pieces, lower case for player 1's.
    ///
    /// ```
    /// # use hnefatafl_core::PieceType;
    #[doc = doc_rules!()]
    /// assert_eq!(rules.piece_letter(PieceType::from_bit(1).unwrap()), 'k');
    /// assert_eq!(rules.piece_letter(PieceType::from_bit(4).unwrap()), 'A');
    /// let halatafl = hnefatafl_core::Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// assert_eq!(halatafl.piece_letter(PieceType::from_bit(4).unwrap()), 'W');
    /// assert_eq!(halatafl.piece_letter(PieceType::from_bit(2).unwrap()), 'b');
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece_letter(&self, piece: PieceType) -> char {
        let rule = self.piece_rule(piece);
        let by_bit = PIECE_LETTERS[self.shown_piece(piece).index() % PIECE_LETTERS.len()];
        let letter = rule
            .and_then(|rule| initial(rule.name()))
            .filter(|_| initials_differ(self))
            .unwrap_or(by_bit);
        match rule.map(|rule| rule.owner()) {
            Some(Player::One) => letter.to_ascii_lowercase(),
            _ => letter,
        }
    }

    /// The mark of an empty square of a type on a text board (after its `ui_bit`): `*`
    /// an escape square, `+` a square that captures, `.` the board's most common type,
    /// `:` any other.
    ///
    /// ```
    /// # use hnefatafl_core::SquareType;
    #[doc = doc_rules!()]
    /// let mark = |bit| rules.square_mark(SquareType::from_bit(bit).unwrap());
    /// assert_eq!([mark(1), mark(2), mark(4)], ['.', '*', '+']);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_mark(&self, square: SquareType) -> char {
        square_mark(self, square, common_square(self))
    }

    /// The piece type a piece of this type is shown as, on a text board and in the window:
    /// its `ui_bit` when it has one, else itself.
    pub fn shown_piece(&self, piece: PieceType) -> PieceType {
        self.piece_rule(piece)
            .and_then(|rule| rule.ui_bit())
            .unwrap_or(piece)
    }

    /// The square type a square of this type is shown as, on a text board and in the
    /// window: its `ui_bit` when it has one, else itself.
    pub fn shown_square(&self, square: SquareType) -> SquareType {
        self.square_rule(square)
            .and_then(|rule| rule.ui_bit())
            .unwrap_or(square)
    }
}

/// The mark of an empty square of a type, where `common` is the board's most common
/// (shown) type.
fn square_mark(rules: &Rules, square: SquareType, common: Option<SquareType>) -> char {
    let shown = rules.shown_square(square);
    // A `ui_bit` may name a type the file does not declare: then the square's own rule
    // says what it is.
    let rule = rules
        .square_rule(shown)
        .or_else(|| rules.square_rule(square));
    match rule {
        Some(rule) if rule.escape() => '*',
        Some(rule) if !rule.captures().is_empty() => '+',
        _ if Some(shown) == common => '.',
        _ => ':',
    }
}

/// The most common square type (shown), the plain board; on a tie the lowest bit.
fn common_square(rules: &Rules) -> Option<SquareType> {
    let mut counts = [0usize; 8];
    for square in rules.squares() {
        if let Some(square) = rules.square_type(square) {
            counts[rules.shown_square(square).index()] += 1;
        }
    }
    let (index, &count) = counts
        .iter()
        .enumerate()
        .max_by_key(|&(index, count)| (count, 8 - index))?;
    if count == 0 {
        return None;
    }
    SquareType::from_bit(1 << index)
}

/// A position written as a text board, the way the interpreter's `b` command prints it
/// (without colours): see [`Position::display`] and
/// [`Game::display`](crate::Game::display), which marks the last move's squares in
/// brackets. Lines end without blanks.
///
/// ```
/// use hnefatafl_core::Rules;
/// let rules = Rules::parse(include_bytes!("../../data/rules/brandub"))?;
/// let board = rules.start_position().display().to_string();
/// assert_eq!(board.lines().nth(5), Some(" 3  4  A  A  d  k  d  A  A"));
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BoardDisplay<'a> {
    position: &'a Position,
    last: Option<Move>,
}

impl<'a> BoardDisplay<'a> {
    /// The board of a position, with the squares of `last` in brackets.
    pub(crate) fn new(position: &'a Position, last: Option<Move>) -> BoardDisplay<'a> {
        BoardDisplay { position, last }
    }
}

impl BoardDisplay<'_> {
    /// The board as text, each square written onto its line by `square`, which is given
    /// what the square holds and whether the last move marked it: so a front end may
    /// colour it while the letters, marks and layout stay these. Lines end without
    /// blanks; [`plain_square`] writes the squares as `Display` does.
    ///
    /// ```
    /// use hnefatafl_core::{BoardCell, Rules, plain_square};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/brandub"))?;
    /// let start = rules.start_position();
    /// let board = start.display();
    /// assert_eq!(board.painted(plain_square), board.to_string());
    /// let kings = board.painted(|line, cell, _| {
    ///     line.push(if cell == BoardCell::Off { ' ' } else { cell.glyph() })
    /// });
    /// assert_eq!(kings.lines().nth(5), Some(" 3  4 AAdkdAA"));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn painted(&self, mut square: impl FnMut(&mut String, BoardCell, bool)) -> String {
        let rules = self.position.rules();
        let (width, height) = (rules.width(), rules.height());
        let common = common_square(rules);
        let mut out = String::new();
        let mut line = String::from("      ");
        for x in 0..width {
            line.push_str(&format!("{x:>2} "));
        }
        end_line(&mut out, &mut line);
        // The algebraic column names: `a`..`z`, then `aa`..`ae`.
        line.push_str("      ");
        for x in 0..width {
            line.push_str(&format!("{:>2} ", column_name(x)));
        }
        end_line(&mut out, &mut line);
        for y in 0..height {
            line.push_str(&format!("{y:>2} {:>2} ", height - y));
            for x in 0..width {
                let Some(at) = rules.square_at(x, y) else {
                    continue;
                };
                let marked = self.last.is_some_and(|mv| mv.from == at || mv.to == at);
                let cell = match (rules.square_type(at), self.position.piece_at(at)) {
                    (None, _) => BoardCell::Off,
                    (Some(_), Some(piece)) => BoardCell::Piece(
                        rules.piece_letter(piece),
                        rules
                            .piece_rule(piece)
                            .map_or(Player::Zero, |rule| rule.owner()),
                    ),
                    (Some(kind), None) => BoardCell::Empty(square_mark(rules, kind, common)),
                };
                square(&mut line, cell, marked);
            }
            end_line(&mut out, &mut line);
        }
        out
    }
}

impl fmt::Display for BoardDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.painted(plain_square))
    }
}

/// What one square of a text board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardCell {
    /// A square that is not part of the board: shown blank.
    Off,
    /// An empty square, with its mark (see [`Rules::square_mark`]).
    Empty(char),
    /// A piece, with its letter (see [`Rules::piece_letter`]) and its owner.
    Piece(char, Player),
}

impl BoardCell {
    /// The character the square shows: blank, the mark or the letter.
    pub fn glyph(self) -> char {
        match self {
            BoardCell::Off => ' ',
            BoardCell::Empty(mark) => mark,
            BoardCell::Piece(letter, _) => letter,
        }
    }
}

/// Writes a square as the plain text board does: its glyph between blanks, or between
/// brackets when the last move marked it.
pub fn plain_square(line: &mut String, cell: BoardCell, marked: bool) {
    let (open, close) = if marked { ('[', ']') } else { (' ', ' ') };
    line.extend([open, cell.glyph(), close]);
}

/// Ends a line without its trailing blanks, and empties it for the next.
fn end_line(out: &mut String, line: &mut String) {
    out.push_str(line.trim_end_matches(' '));
    out.push('\n');
    line.clear();
}

impl Position {
    /// The position as a text board, the way the interpreter's `b` command prints it:
    /// letters for the pieces (see [`Rules::piece_letter`]), marks for the empty squares
    /// (see [`Rules::square_mark`]), column and row numbers with their algebraic names.
    /// (`Display` on the position itself writes the diagram that [`Setup`](crate::Setup)
    /// reads back.)
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/brandub"))?;
    /// let board = rules.start_position().display().to_string();
    /// assert_eq!(board.lines().next(), Some("       0  1  2  3  4  5  6"));
    /// assert_eq!(board.lines().nth(2), Some(" 0  7  *  .  .  A  .  .  *"));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn display(&self) -> BoardDisplay<'_> {
        BoardDisplay::new(self, None)
    }
}
