//! The move picker: a node's moves with their ordering keys (the table's move, captures,
//! killers, history), handed to the search best first, and the captures of the quiescence
//! search. The lists are kept per ply and reused, so a node allocates nothing once the
//! search has run a while.

use crate::classic::{self, Tables};
use crate::history::History;
use hnefatafl_core::{Move, Position};

/// The static guess of a move that closes a custodial pair on an enemy piece (or moves
/// an escape piece onto an escape square): at least this much ([`classic::move_guess`]).
pub(crate) const CAPTURE_GUESS: i32 = 1000;
/// The static guess below which a move that captures nothing is quiet: no reduction
/// spares it, and shallow pruning may leave it out.
pub(crate) const QUIET_GUESS: i32 = 150;
/// The ordering key of the second killer move: the table's move, the captures and the
/// killers order at or above it, the history's moves below.
pub(crate) const KILLER_KEY: i32 = 1_400_000;

/// A move in a node's list.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scored {
    pub mv: Move,
    /// The static guess ([`classic::NodeGuesses::guess`]).
    pub guess: i32,
    /// Searched a ply deeper (see [`crate::Tuning::escape_extension`]).
    pub extend: bool,
    /// Place in the static order (by the guess) when the node sorted by it, else in the
    /// order of generation.
    pub rank: usize,
    /// The ordering key: higher first.
    pub key: i32,
}

/// What the search learned that orders a node's moves.
#[derive(Clone, Copy)]
pub(crate) struct Hints<'a> {
    /// The table's move.
    pub hash_move: Option<Move>,
    /// The ply's killer moves.
    pub killers: [Option<Move>; 2],
    /// The thread's history table.
    pub history: History<'a>,
}

/// A node's moves, handed out best first by [`NodeMoves::next`].
pub(crate) struct NodeMoves {
    moves: Vec<Scored>,
    /// The ordering keys again, side by side, for a quick scan.
    keys: Vec<i32>,
    /// Moves handed out so far.
    next: usize,
}

impl NodeMoves {
    /// The best remaining move by its ordering key, the first of equal ones.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<Scored> {
        let i = self.next;
        let rest = self.keys.get(i..).filter(|rest| !rest.is_empty())?;
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let pick = i + rest.iter().position(|&key| key == top).unwrap_or(0);
        self.moves.swap(i, pick);
        self.keys.swap(i, pick);
        self.next += 1;
        Some(self.moves[i])
    }

    /// The moves in the order they were made, for a search that takes them all in that
    /// order (the quiescence search's captures).
    pub(crate) fn in_order(&self) -> &[Scored] {
        &self.moves
    }
}

/// One search thread's move picker: the lists of every ply and the scratch space of the
/// static guesses.
pub(crate) struct MovePicker {
    lists: Vec<Vec<Scored>>,
    keys: Vec<Vec<i32>>,
    generated: Vec<Move>,
    /// A copy of the board that [`classic::threatens_escape`] may move a piece on and back.
    board: Vec<u8>,
    /// The move guesses of the node that orders its moves.
    guesses: classic::NodeGuesses,
}

impl MovePicker {
    /// A picker for `plies` plies on a board of `squares` squares.
    pub(crate) fn new(plies: usize, squares: usize) -> MovePicker {
        MovePicker {
            lists: vec![Vec::new(); plies],
            keys: vec![Vec::new(); plies],
            generated: Vec::new(),
            board: Vec::new(),
            guesses: classic::NodeGuesses::new(squares),
        }
    }

    /// The moves of the position at `ply`, keyed for the search. With `static_order` they
    /// are first sorted by their static guess, which depends on the position only, so that
    /// their ranks may decide reductions. With `extensions`, a move that gives an escape
    /// piece an open line to an escape square is marked to be searched deeper.
    pub(crate) fn node(
        &mut self,
        ply: usize,
        tables: &Tables,
        position: &Position,
        hints: Hints<'_>,
        static_order: bool,
        extensions: bool,
    ) -> NodeMoves {
        let side = position.side_to_move();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        self.generated.clear();
        let generated = &mut self.generated;
        position.for_each_move(|mv| generated.push(mv));
        if extensions {
            self.board.clear();
            self.board.extend_from_slice(position.board_bits());
        }
        let beside = classic::beside_enemy(tables, position);
        self.guesses.next_node();
        let (guesses, copy, board) = (&mut self.guesses, &mut self.board, position.board_bits());
        moves.extend(self.generated.iter().map(|&mv| Scored {
            mv,
            guess: guesses.guess(tables, board, beside, mv, side),
            extend: extensions && classic::threatens_escape(tables, copy, mv),
            rank: 0,
            key: 0,
        }));
        if static_order {
            moves.sort_unstable_by(|a, b| {
                b.guess
                    .cmp(&a.guess)
                    .then(a.mv.from().cmp(&b.mv.from()))
                    .then(a.mv.to().cmp(&b.mv.to()))
            });
        }
        for (rank, m) in moves.iter_mut().enumerate() {
            m.rank = rank;
            m.key = if Some(m.mv) == hints.hash_move {
                i32::MAX
            } else if m.guess >= CAPTURE_GUESS {
                2_000_000 + m.guess.min(1_000_000)
            } else if Some(m.mv) == hints.killers[0] {
                1_500_000
            } else if Some(m.mv) == hints.killers[1] {
                KILLER_KEY
            } else {
                hints.history.score(tables, m.mv) + m.guess
            };
        }
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        keys.extend(moves.iter().map(|m| m.key));
        NodeMoves {
            moves,
            keys,
            next: 0,
        }
    }

    /// The moves of the position at `ply` that the static guess calls captures, best
    /// guess first (then by squares), for the quiescence search.
    pub(crate) fn captures(
        &mut self,
        ply: usize,
        tables: &Tables,
        position: &Position,
    ) -> NodeMoves {
        let side = position.side_to_move();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        let board = position.board_bits();
        let beside = classic::beside_enemy(tables, position);
        position.for_each_move(|mv| {
            let guess = classic::move_guess(tables, board, beside, mv, side);
            if guess >= CAPTURE_GUESS {
                moves.push(Scored {
                    mv,
                    guess,
                    extend: false,
                    rank: 0,
                    key: guess,
                });
            }
        });
        moves.sort_unstable_by(|a, b| {
            b.key
                .cmp(&a.key)
                .then(a.mv.from().cmp(&b.mv.from()))
                .then(a.mv.to().cmp(&b.mv.to()))
        });
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        NodeMoves {
            moves,
            keys,
            next: 0,
        }
    }

    /// Takes back a node's lists for reuse at its ply.
    pub(crate) fn give_back(&mut self, ply: usize, moves: NodeMoves) {
        self.lists[ply] = moves.moves;
        self.keys[ply] = moves.keys;
    }
}
