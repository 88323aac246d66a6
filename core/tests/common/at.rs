//! Moves and squares named by `(x, y)` pairs, for tests whose moves read `((x1, y1), (x2, y2))`.

use hnefatafl_core::{Game, Move, Rules};

/// A column and a row.
pub type At = (u8, u8);

/// The move from one square to another.
pub fn mv(rules: &Rules, (x1, y1): At, (x2, y2): At) -> Move {
    super::mv(rules, x1, y1, x2, y2)
}

/// Plays moves that must be legal.
pub fn play(rules: &Rules, moves: &[(At, At)]) -> Game {
    let mut game = Game::new(rules.clone());
    for &(from, to) in moves {
        if let Err(error) = game.try_play(mv(rules, from, to)) {
            panic!("move {from:?} {to:?}: {error}");
        }
    }
    game
}

/// Whether a square holds a piece.
pub fn occupied(game: &Game, (x, y): At) -> bool {
    super::occupied(game, x, y)
}
