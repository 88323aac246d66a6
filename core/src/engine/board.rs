//! The engine's state: the pieces and the side to move with their Zobrist key, kept
//! apart from the rules so that the engine can borrow both at once.

use crate::Player;
use crate::tables::{Tables, WORDS};

/// The pieces and the side to move, with the Zobrist key: what the engine reads and
/// changes. It does not hold the rules, so that the engine can borrow both at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The piece bit on each square, row-major (0: empty).
    pub(crate) board: Box<[u8]>,
    pub(crate) side: Player,
    pub(crate) hash: u64,
    /// Pieces on the board per type index.
    pub(crate) counts: [u16; 8],
    /// The squares of each player's pieces.
    pub(crate) occupied: [[u64; WORDS]; 2],
    /// The piece bit that the last move left on one of its `lose_on` squares (0: none):
    /// the game is lost for the player who made it.
    pub(crate) lost: u8,
}

impl Board {
    /// An empty board of these tables with player 0 to move.
    pub(crate) fn empty(tables: &Tables) -> Board {
        Board {
            board: vec![0; tables.squares].into_boxed_slice(),
            side: Player::Zero,
            hash: 0,
            counts: [0; 8],
            occupied: [[0; WORDS]; 2],
            lost: 0,
        }
    }

    /// Puts a piece on an empty square.
    // Always inlined: called a few times per move on the hot path, where a call costs
    // more than its body. The type index is masked to 0..8 so that no bound is checked.
    #[inline(always)]
    pub(crate) fn put(&mut self, tables: &Tables, square: usize, bit: u8) {
        let index = bit.trailing_zeros() as usize & 7;
        self.board[square] = bit;
        self.hash ^= tables.key(index, square);
        self.counts[index] += 1;
        let owner = usize::from(tables.pieces[index].owner);
        self.occupied[owner][square / 64] |= 1 << (square % 64);
    }

    /// Takes the piece off a square (not an empty one) and returns its bit.
    #[inline(always)]
    pub(crate) fn take(&mut self, tables: &Tables, square: usize) -> u8 {
        let bit = self.board[square];
        let index = bit.trailing_zeros() as usize & 7;
        self.board[square] = 0;
        self.hash ^= tables.key(index, square);
        self.counts[index] -= 1;
        let owner = usize::from(tables.pieces[index].owner);
        self.occupied[owner][square / 64] &= !(1 << (square % 64));
        bit
    }

    /// Passes the turn.
    #[inline]
    pub(crate) fn pass(&mut self, tables: &Tables) {
        self.side = self.side.opponent();
        self.hash ^= tables.zobrist_side;
    }
}
