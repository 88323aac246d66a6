//! Positions and the record that takes a move back.

use crate::tables::{Tables, WORDS};
use crate::{Move, PieceType, Player, Square};

/// The most pieces one move can capture: four neighbours, each possibly with a double-trap
/// partner (8), or a shieldwall along each of two edges of a 31x31 board's corner
/// (2 x 29) with the neighbours.
pub(crate) const MAX_CAPTURES: usize = 64;

/// What a move changed, to take it back. Fixed size: no allocation.
#[derive(Clone, Debug)]
pub struct Undo {
    pub(crate) mv: Move,
    pub(crate) hash: u64,
    pub(crate) captured: [(u16, u8); MAX_CAPTURES],
    pub(crate) capture_count: u8,
    /// False when the move could not be made at all and nothing changed.
    pub(crate) played: bool,
}

impl Undo {
    /// The move.
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// The captured pieces and where they stood.
    pub fn captures(&self) -> impl Iterator<Item = (Square, PieceType)> + '_ {
        self.captured[..usize::from(self.capture_count)]
            .iter()
            .map(|&(square, bit)| (Square(square), PieceType(bit)))
    }

    pub(crate) fn push_capture(&mut self, square: usize, bit: u8) {
        let index = usize::from(self.capture_count);
        if index < MAX_CAPTURES {
            self.captured[index] = (square as u16, bit);
            self.capture_count += 1;
        }
    }
}

/// A position: the pieces and the side to move, with its Zobrist key.
///
/// A position belongs to the [`Rules`](crate::Rules) that made it (their start position
/// and the moves played on it): the board-rule methods of other rules, with another board
/// size, may panic on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The piece bit on each square (0: empty).
    pub(crate) board: Box<[u8]>,
    pub(crate) side: Player,
    pub(crate) hash: u64,
    /// Pieces on the board per type index.
    pub(crate) counts: [u16; 8],
    /// The squares of each player's pieces.
    pub(crate) occupied: [[u64; WORDS]; 2],
}

impl Position {
    /// The start position of compiled rules.
    pub(crate) fn start(tables: &Tables, pieces: &[u8]) -> Position {
        let mut position = Position {
            board: vec![0; tables.squares].into_boxed_slice(),
            side: Player::Zero,
            hash: 0,
            counts: [0; 8],
            occupied: [[0; WORDS]; 2],
        };
        for (square, &bit) in pieces.iter().enumerate() {
            if bit != 0 {
                position.put(tables, square, bit);
            }
        }
        position
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub(crate) fn put(&mut self, tables: &Tables, square: usize, bit: u8) {
        let index = bit.trailing_zeros() as usize;
        self.board[square] = bit;
        self.hash ^= tables.key(index, square);
        self.counts[index] += 1;
        let owner = usize::from(tables.pieces[index].owner);
        self.occupied[owner][square / 64] |= 1 << (square % 64);
    }

    /// Takes the piece off a square and returns its bit.
    #[inline]
    pub(crate) fn take(&mut self, tables: &Tables, square: usize) -> u8 {
        let bit = self.board[square];
        let index = bit.trailing_zeros() as usize;
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

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// The piece on a square (`None` when empty or outside the board).
    pub fn piece_at(&self, square: Square) -> Option<PieceType> {
        self.board
            .get(square.index())
            .copied()
            .and_then(PieceType::from_bit)
    }

    /// The Zobrist key of the pieces and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How many pieces of a type are on the board.
    pub fn count(&self, piece: PieceType) -> u32 {
        u32::from(self.counts[piece.index()])
    }

    /// Every piece on the board with its square, by increasing square index.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, PieceType)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter(|&(_, &bit)| bit != 0)
            .map(|(square, &bit)| (Square(square as u16), PieceType(bit)))
    }

    /// The squares of a player's pieces, by increasing index.
    pub fn squares_of(&self, player: Player) -> impl Iterator<Item = Square> + '_ {
        let words = self.board.len().div_ceil(64);
        self.occupied[player.index()][..words]
            .iter()
            .enumerate()
            .flat_map(|(word, &bits)| {
                let mut bits = bits;
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let square = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Some(Square(square as u16))
                })
            })
    }

    /// The piece bit on each square, row-major from the top-left (0: empty).
    pub fn board(&self) -> &[u8] {
        &self.board
    }
}
