//! The board rules on compiled tables, by what they do: move generation ([`movegen`]),
//! making a move with its captures ([`capture`]), the end of the game ([`outcome`], with
//! the flood fills of [`enclosure`]) and move counting ([`perft`]).

mod capture;
mod enclosure;
mod movegen;
mod outcome;
mod perft;

pub(crate) use capture::{make_move, unmake_move};
pub(crate) use movegen::{check_move, count_moves, has_move, try_for_each_move};
pub(crate) use outcome::outcome;
pub(crate) use perft::perft;

/// The index (0..8) of a piece or square type bit.
#[inline]
fn type_index(bit: u8) -> usize {
    bit.trailing_zeros() as usize
}
