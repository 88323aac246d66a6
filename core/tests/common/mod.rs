//! Building small rule sets from board diagrams for the hand-written tests.
#![allow(dead_code)]

pub mod at;
pub mod naive;

use hnefatafl_core::{EndReason, Game, Move, MoveError, Outcome, PieceType, Player, Rules, Square};

/// Reads a diagram: one row per string, squares separated by spaces.
///
/// `.` empty ordinary square (type 1), `T` empty throne (type 2), `E` empty escape square
/// (type 4), `X` not part of the board (0); `A` attacker (piece 4, player 0, moves first),
/// `D` defender (piece 2, player 1), `K` king (piece 1, player 1) on an ordinary square,
/// `k` the king on the throne, `d` a defender on the throne.
pub fn rules(rows: &[&str], extra: &str) -> Rules {
    parse(&rules_text(rows, extra))
}

/// Parses rules a test wrote, panicking with the error and the text.
pub fn parse(text: &str) -> Rules {
    Rules::parse(text.as_bytes()).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

/// A diagram read cell by cell: one string per row, cells separated by spaces.
pub struct Diagram {
    pub width: usize,
    pub height: usize,
    /// The piece type of each cell (0 for none), row by row.
    pub pieces: Vec<u8>,
    /// The square type of each cell (0 for none).
    pub squares: Vec<u8>,
}

impl Diagram {
    /// Reads the rows with `cell`, which gives a cell's piece and square types.
    pub fn read(rows: &[&str], cell: impl Fn(&str) -> (u8, u8)) -> Diagram {
        let (mut pieces, mut squares) = (Vec::new(), Vec::new());
        for row in rows {
            for (piece, square) in row.split_whitespace().map(&cell) {
                pieces.push(piece);
                squares.push(square);
            }
        }
        Diagram {
            width: rows[0].split_whitespace().count(),
            height: rows.len(),
            pieces,
            squares,
        }
    }

    /// The rule file's `width`, `height`, `pieces` and `squares` lines.
    pub fn board_lines(&self) -> String {
        let join = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "width {}\nheight {}\npieces {}\nsquares {}\n",
            self.width,
            self.height,
            join(&self.pieces),
            join(&self.squares)
        )
    }
}

pub fn rules_text(rows: &[&str], extra: &str) -> String {
    let diagram = Diagram::read(rows, |cell| match cell {
        "." => (0, 1),
        "T" => (0, 2),
        "E" => (0, 4),
        "X" => (0, 0),
        "A" => (4, 1),
        "D" => (2, 1),
        "K" => (1, 1),
        "k" => (1, 2),
        "d" => (2, 2),
        other => panic!("unknown cell {other}"),
    });
    let has = |bit: u8| diagram.pieces.contains(&bit);
    let has_square = |bit: u8| diagram.squares.contains(&bit);
    let mut text = format!("id test\nname Test\n{}", diagram.board_lines());
    let defenders: u8 = [1u8, 2].iter().filter(|&&b| has(b)).sum();
    if has(1) {
        text += "piece bit 1\npiece 1 owner 1\npiece 1 occupies 7\n";
        if has(4) {
            text += "piece 1 captures 4\n";
        }
    }
    if has(2) {
        text += "piece bit 2\npiece 2 owner 1\npiece 2 occupies 5\n";
        if has(4) {
            text += "piece 2 captures 4\n";
        }
    }
    if has(4) {
        text += &format!(
            "piece bit 4\npiece 4 owner 0\npiece 4 occupies 5\npiece 4 captures {defenders}\n"
        );
    }
    for bit in [1u8, 2, 4] {
        if has_square(bit) {
            text += &format!("square bit {bit}\n");
        }
    }
    text += extra;
    text
}

/// The square at `x y`.
pub fn sq(rules: &Rules, x: u8, y: u8) -> Square {
    rules.square_at(x, y).expect("square on the board")
}

/// The move `x1 y1 x2 y2`.
pub fn mv(rules: &Rules, x1: u8, y1: u8, x2: u8, y2: u8) -> Move {
    Move::new(sq(rules, x1, y1), sq(rules, x2, y2))
}

/// Whether the move `x1 y1 x2 y2` is legal in the game's position, or why not.
pub fn check(game: &Game, x1: u8, y1: u8, x2: u8, y2: u8) -> Result<(), MoveError> {
    game.position().check_move(mv(game.rules(), x1, y1, x2, y2))
}

/// Plays a move that must be legal and returns the game.
pub fn play(rules: &Rules, moves: &[(u8, u8, u8, u8)]) -> Game {
    let mut game = Game::new(rules.clone());
    for &(x1, y1, x2, y2) in moves {
        let m = mv(rules, x1, y1, x2, y2);
        if let Err(e) = game.try_play(m) {
            panic!("move {x1} {y1} {x2} {y2}: {e}");
        }
    }
    game
}

/// The piece bits of the board as a diagram row string per row (for messages).
pub fn board(game: &Game) -> Vec<u8> {
    game.position()
        .board()
        .map(|piece| piece.map_or(0, |piece| piece.bit()))
        .collect()
}

/// The outcome of a game that ended: who won (`None`: a draw) and why.
pub const fn ended(winner: Option<Player>, reason: EndReason) -> Option<Outcome> {
    Some(Outcome { winner, reason })
}

/// The piece type of this bit.
pub fn piece(bit: u8) -> PieceType {
    PieceType::from_bit(bit).expect("a single bit")
}

/// Whether the move from 2 3 to 2 1, the capture tests' usual one, captures the piece at
/// 1 1.
pub fn captures_1_1(rules: &Rules) -> bool {
    !occupied(&play(rules, &[(2, 3, 2, 1)]), 1, 1)
}

/// Whether a square holds a piece.
pub fn occupied(game: &Game, x: u8, y: u8) -> bool {
    game.position().piece_at(sq(game.rules(), x, y)).is_some()
}
