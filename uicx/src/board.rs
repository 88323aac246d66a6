//! The board as text, in colour where the terminal takes it: core's text board
//! ([`BoardDisplay`](hnefatafl_core::BoardDisplay), its letters, marks and layout, see
//! [`Rules::piece_letter`](hnefatafl_core::Rules::piece_letter) and
//! [`Rules::square_mark`](hnefatafl_core::Rules::square_mark)), with player 0's pieces
//! bold yellow, player 1's bold red and the last move's brackets cyan.

use anstyle::{AnsiColor, Style};
use hnefatafl_core::{BoardCell, Game, Player, plain_square};

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
    let board = game.display();
    if colour {
        board.painted(coloured_square)
    } else {
        board.painted(plain_square)
    }
}

/// Writes a square in colour: a piece in its owner's colour, the last move's brackets
/// in theirs.
fn coloured_square(line: &mut String, cell: BoardCell, marked: bool) {
    let (open, close) = if marked {
        (painted(COLOUR_MARK, '['), painted(COLOUR_MARK, ']'))
    } else {
        (" ".to_owned(), " ".to_owned())
    };
    line.push_str(&open);
    match cell {
        BoardCell::Piece(letter, Player::One) => line.push_str(&painted(COLOUR_ONE, letter)),
        BoardCell::Piece(letter, Player::Zero) => line.push_str(&painted(COLOUR_ZERO, letter)),
        BoardCell::Off | BoardCell::Empty(_) => line.push(cell.glyph()),
    }
    line.push_str(&close);
}

#[cfg(test)]
mod tests;
