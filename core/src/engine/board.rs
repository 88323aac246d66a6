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
    /// The squares of the side to move's pieces, by increasing index.
    #[inline(always)]
    pub(crate) fn movers<'a>(&'a self, tables: &Tables) -> SetBits<'a> {
        SetBits::new(&self.occupied[self.side.index()][..tables.words])
    }

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

/// The indices of the set bits of a bitset's words, in increasing order: the walk over
/// a side's pieces that move generation shares.
#[derive(Clone, Debug)]
pub(crate) struct SetBits<'a> {
    words: &'a [u64],
    /// The word being walked, and its bits not yet given.
    word: usize,
    bits: u64,
}

impl<'a> SetBits<'a> {
    /// The walk over these words.
    #[inline(always)]
    pub(crate) fn new(words: &'a [u64]) -> SetBits<'a> {
        SetBits {
            words,
            word: 0,
            bits: words.first().copied().unwrap_or(0),
        }
    }
}

impl Iterator for SetBits<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let index = self.word * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(index)
    }
}
