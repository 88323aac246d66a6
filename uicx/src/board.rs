//! The board as text, in colour where the terminal takes it. The letters and marks are
//! core's ([`Rules::piece_letter`], [`Rules::square_mark`]), as in its
//! [`Position::display`](hnefatafl_core::Position::display):
//!
//! Pieces are the initials of their types' names when every type is named and the
//! initials differ (halatafl's `white` and `black`: `W`, `b`), else letters by type bit
//! (after `ui_bit`): 1 `K`, 2 `D`, 4 `A`, 8 `B`, 16 `C`, 32 `E`, 64 `F`, 128 `G`; upper
//! case for player 0, lower case for player 1. Empty
//! squares by type (after `ui_bit`): `*` an escape square, `+` a square that captures
//! (a hostile throne or corner), `.` the most common type, `:` any other type; squares
//! that are not part of the board are blank. The last move's squares are in brackets.
//! Columns are numbered from 0 across the top with their letters below; rows are
//! numbered from 0 down the left side, with the algebraic row number beside.

use anstyle::{AnsiColor, Style};
use hnefatafl_core::{Game, PieceType, Player, Rules, SquareType, column_name};

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
    // Each square type's mark, found once: finding one looks at the whole board.
    let mut marks = [None; 8];
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
                    (rules.piece_letter(piece), Some(paint))
                }
                (Some(kind), None) => (
                    *marks[kind.index()].get_or_insert_with(|| rules.square_mark(kind)),
                    None,
                ),
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

#[cfg(test)]
mod tests;
