//! The board as text, as the interpreter's `b` command prints it: [`BoardDisplay`].
//!
//! Pieces are letters by type bit (after `ui_bit`): 1 `K`, 2 `D`, 4 `A`, 8 `B`, 16 `C`,
//! 32 `E`, 64 `F`, 128 `G`; upper case for player 0, lower case for player 1. Empty
//! squares by type (after `ui_bit`): `*` an escape square, `+` a square that captures (a
//! hostile throne or corner), `.` the most common type, `:` any other type; squares that
//! are not part of the board are blank. Columns are numbered from 0 across the top with
//! their letters below; rows are numbered from 0 down the left side, with the algebraic
//! row number beside.

use std::fmt::{self, Write};

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
        let shown = rule.and_then(|rule| rule.ui_bit()).unwrap_or(piece);
        let by_bit = PIECE_LETTERS[shown.index() % PIECE_LETTERS.len()];
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
}

/// The square type a square shows (after `ui_bit`).
fn shown_square(rules: &Rules, square: SquareType) -> SquareType {
    rules
        .square_rule(square)
        .and_then(|rule| rule.ui_bit())
        .unwrap_or(square)
}

/// The mark of an empty square of a type, where `common` is the board's most common
/// (shown) type.
fn square_mark(rules: &Rules, square: SquareType, common: Option<SquareType>) -> char {
    let shown = shown_square(rules, square);
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
            counts[shown_square(rules, square).index()] += 1;
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

impl fmt::Display for BoardDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.position.rules();
        let (width, height) = (rules.width(), rules.height());
        let common = common_square(rules);
        let mut line = String::from("      ");
        for x in 0..width {
            write!(line, "{x:>2} ")?;
        }
        end_line(f, &mut line)?;
        // The algebraic column names: `a`..`z`, then `aa`..`ae`.
        line.push_str("      ");
        for x in 0..width {
            write!(line, "{:>2} ", column_name(x))?;
        }
        end_line(f, &mut line)?;
        for y in 0..height {
            write!(line, "{y:>2} {:>2} ", height - y)?;
            for x in 0..width {
                let Some(square) = rules.square_at(x, y) else {
                    continue;
                };
                let marked = self
                    .last
                    .is_some_and(|mv| mv.from == square || mv.to == square);
                let glyph = match (rules.square_type(square), self.position.piece_at(square)) {
                    (None, _) => ' ',
                    (Some(_), Some(piece)) => rules.piece_letter(piece),
                    (Some(kind), None) => square_mark(rules, kind, common),
                };
                let (open, close) = if marked { ('[', ']') } else { (' ', ' ') };
                line.extend([open, glyph, close]);
            }
            end_line(f, &mut line)?;
        }
        Ok(())
    }
}

/// Writes a line without its trailing blanks, and empties it for the next.
fn end_line(f: &mut fmt::Formatter<'_>, line: &mut String) -> fmt::Result {
    writeln!(f, "{}", line.trim_end_matches(' '))?;
    line.clear();
    Ok(())
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
