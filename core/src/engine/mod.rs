//! The board engine: its state ([`board`]) and the record that takes a move back
//! ([`undo`]), and the board rules on compiled tables, by what they do: move generation
//! ([`movegen`]), making a move with its captures ([`capture`]), the end of the game
//! ([`end_rules`], with the flood fills of [`enclosure`]) and move counting ([`perft`]).
//! It knows nothing of [`Position`](crate::Position), which is built on it.

mod board;
mod capture;
mod enclosure;
mod end_rules;
mod movegen;
mod perft;
mod undo;

pub(crate) use board::Board;
pub(crate) use capture::{make_move, unmake_move};
pub(crate) use end_rules::outcome;
pub(crate) use movegen::{check_move, count_moves, has_move, try_for_each_move};
pub(crate) use perft::perft;
pub use undo::Undo;

/// The index (0..8) of a piece or square type bit.
#[inline]
fn type_index(bit: u8) -> usize {
    bit.trailing_zeros() as usize
}
