//! The board as text.
//!
//! Pieces are letters by type bit (after `ui_bit`): 1 `K`, 2 `D`, 4 `A`, 8 `B`, 16 `C`,
//! 32 `E`, 64 `F`, 128 `G`; upper case for player 0, lower case for player 1. Empty
//! squares by type (after `ui_bit`): `*` an escape square, `+` a square that captures
//! (a hostile throne or corner), `.` the most common type, `:` any other type; squares
//! that are not part of the board are blank. The last move's squares are in brackets.
//! Columns are numbered from 0 across the top with their letters below; rows are
//! numbered from 0 down the left side, with the algebraic row number beside.

use anstyle::{AnsiColor, Style};
use hnefatafl_core::{Game, PieceType, Player, Rules, SquareType, column_name};

/// The letters of piece types, by bit index.
pub const PIECE_LETTERS: [char; 8] = ['K', 'D', 'A', 'B', 'C', 'E', 'F', 'G'];

/// A piece type as its letter (after `ui_bit`), in the owner's case.
pub fn piece_letter(rules: &Rules, piece: PieceType) -> char {
    let rule = rules.piece_rule(piece);
    let shown = rule.and_then(|rule| rule.ui_bit()).unwrap_or(piece);
    let letter = PIECE_LETTERS[shown.index() % PIECE_LETTERS.len()];
    match rule.map(|rule| rule.owner()) {
        Some(Player::One) => letter.to_ascii_lowercase(),
        _ => letter,
    }
}

/// The piece type a square shows (after `ui_bit`).
pub fn shown_piece(rules: &Rules, piece: PieceType) -> PieceType {
    rules
        .piece_rule(piece)
        .and_then(|rule| rule.ui_bit())
        .unwrap_or(piece)
}

/// The square type a square shows (after `ui_bit`).
pub fn shown_square(rules: &Rules, square: SquareType) -> SquareType {
    rules
        .square_rule(square)
        .and_then(|rule| rule.ui_bit())
        .unwrap_or(square)
}

/// The mark of an empty square of a type.
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

/// The most common square type (shown), the plain board.
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

/// Player 0's pieces: bold yellow.
const COLOUR_ZERO: Style = AnsiColor::Yellow.on_default().bold();
/// Player 1's pieces: bold red.
const COLOUR_ONE: Style = AnsiColor::Red.on_default().bold();
/// The brackets of the last move: cyan.
const COLOUR_MARK: Style = AnsiColor::Cyan.on_default();

/// Text in a style, reset after it.
fn painted(style: Style, text: char) -> String {
    format!("{style}{text}{style:#}")
}

/// Draws the game's board; with `colour`, pieces and the last move are in ANSI colours.
pub fn render(game: &Game, colour: bool) -> String {
    let rules = game.rules();
    let position = game.position();
    let (width, height) = (rules.width(), rules.height());
    let common = common_square(rules);
    let last = game.last_move();
    let mut out = String::new();

    out.push_str("      ");
    for x in 0..width {
        out.push_str(&format!("{x:>2} "));
    }
    trim_line(&mut out);
    // The algebraic column names: `a`..`z`, then `aa`..`ae`.
    out.push_str("      ");
    for x in 0..width {
        out.push_str(&format!("{:>2} ", column_name(x)));
    }
    trim_line(&mut out);
    for y in 0..height {
        out.push_str(&format!("{y:>2} {:>2} ", height - y));
        for x in 0..width {
            let Some(square) = rules.square_at(x, y) else {
                continue;
            };
            let marked = last.is_some_and(|mv| mv.from() == square || mv.to() == square);
            let (open, close) = if marked { ('[', ']') } else { (' ', ' ') };
            let (glyph, paint) = match (rules.square_type(square), position.piece_at(square)) {
                (None, _) => (' ', None),
                (Some(_), Some(piece)) => {
                    let owner = rules.piece_rule(piece).map(|rule| rule.owner());
                    let paint = if owner == Some(Player::One) {
                        COLOUR_ONE
                    } else {
                        COLOUR_ZERO
                    };
                    (piece_letter(rules, piece), Some(paint))
                }
                (Some(kind), None) => (square_mark(rules, kind, common), None),
            };
            if colour && marked {
                out.push_str(&painted(COLOUR_MARK, open));
            } else {
                out.push(open);
            }
            match paint.filter(|_| colour) {
                Some(paint) => out.push_str(&painted(paint, glyph)),
                None => out.push(glyph),
            }
            if colour && marked {
                out.push_str(&painted(COLOUR_MARK, close));
            } else {
                out.push(close);
            }
        }
        trim_line(&mut out);
    }
    out
}

/// Ends a line without trailing blanks.
fn trim_line(out: &mut String) {
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('\n');
}
