//! Positions bound to their rules: what stands where, the moves, playing and taking back,
//! and the end by the board. Set-ups and the board diagram are in `setup.rs`, the
//! iterator over the moves in `move_iter.rs`.

use std::fmt;
use std::ops::ControlFlow;

use crate::engine::{self, Board, Undo};
use crate::error::MoveError;
use crate::{BitBoard, Move, Moves, Outcome, PieceType, Player, Rules, Square};

/// A position: the pieces and the side to move, bound to the [`Rules`] it is played by.
///
/// Every board method lives here, so that a position can only be played by its own
/// rules. Positions compare equal when their rules, pieces and side to move are equal.
///
/// ```
/// use hnefatafl_core::{Player, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let mut position = rules.start_position();
/// assert_eq!(position.side_to_move(), Player::Zero);
/// let moves = position.count_moves();
/// assert_eq!(position.moves().count() as u64, moves);
/// let undo = position.play("3 0 3 2".parse()?);
/// assert_eq!(position.side_to_move(), Player::One);
/// position.take_back(&undo);
/// assert_eq!(position, rules.start_position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) state: Board,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules.id())
            .field("side", &self.state.side)
            .field("hash", &format_args!("{:#018x}", self.state.hash))
            .finish_non_exhaustive()
    }
}

impl Position {
    /// The start position of the rules.
    pub(crate) fn start(rules: &Rules) -> Position {
        let tables = rules.tables();
        let mut state = Board::empty(tables);
        for (square, &bit) in rules.start_pieces().iter().enumerate() {
            if bit != 0 {
                state.put(tables, square, bit);
            }
        }
        Position {
            rules: rules.clone(),
            state,
        }
    }

    /// The rules the position is played by.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().rules(), &rules);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().side_to_move(), Player::Zero);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn side_to_move(&self) -> Player {
        self.state.side
    }

    /// The piece on a square (`None` when empty or outside the board).
    ///
    /// ```
    /// # use hnefatafl_core::{Rules, Square};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// let king = position.piece_at(Square::new(4, 4).unwrap()).unwrap();
    /// assert_eq!(king.bit(), 1);
    /// assert_eq!(position.piece_at(Square::new(0, 0).unwrap()), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece_at(&self, square: Square) -> Option<PieceType> {
        let index = self.rules.index(square)?;
        PieceType::from_bit(self.state.board[index])
    }

    /// The Zobrist key of the pieces and the side to move.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// let before = position.hash();
    /// let undo = position.play("3 0 3 2".parse()?);
    /// assert_ne!(position.hash(), before);
    /// position.take_back(&undo);
    /// assert_eq!(position.hash(), before);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// How many pieces of a type are on the board.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let attackers = PieceType::from_bit(4).unwrap();
    /// assert_eq!(rules.start_position().count(attackers), 16);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn count(&self, piece: PieceType) -> u32 {
        u32::from(self.state.counts[piece.index()])
    }

    /// Every piece on the board with its square, by increasing row-major index.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().pieces().count(), 25);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn pieces(&self) -> impl Iterator<Item = (Square, PieceType)> + '_ {
        let squares = self.rules.squares();
        self.state
            .board
            .iter()
            .zip(squares)
            .filter(|&(&bit, _)| bit != 0)
            .map(|(&bit, square)| (square, PieceType(bit)))
    }

    /// What stands on each square, row-major from the top-left (the order of
    /// [`Rules::squares`] and [`Rules::index`]).
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// let board: Vec<_> = position.board().collect();
    /// assert_eq!(board.len(), 81);
    /// assert_eq!(board[4 * 9 + 4].map(|p| p.bit()), Some(1));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn board(&self) -> impl ExactSizeIterator<Item = Option<PieceType>> + '_ {
        self.state
            .board
            .iter()
            .map(|&bit| (bit != 0).then_some(PieceType(bit)))
    }

    /// The piece bit on each square, row-major as [`Position::board`] (0: empty): the
    /// board as the position holds it, for evaluators that read every square many times.
    /// [`Position::occupied_by`] gives the squares of one type as a typed set.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// assert_eq!(position.board_bits().len(), 81);
    /// assert_eq!(position.board_bits()[4 * 9 + 4], 1);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn board_bits(&self) -> &[u8] {
        &self.state.board
    }

    /// The squares of a player's pieces as bit words: row-major index `i` is bit `i % 64`
    /// of word `i / 64`. The raw layout behind [`Position::occupied`], which gives the
    /// same squares as a typed set and is the one to prefer.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let words = rules.start_position().occupied_words(Player::One).to_vec();
    /// assert_eq!(words.iter().map(|w| w.count_ones()).sum::<u32>(), 9);
    /// assert_ne!(words[0] & 1 << (4 * 9 + 4), 0);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn occupied_words(&self, player: Player) -> &[u64] {
        &self.state.occupied[player.index()][..self.rules.tables().words]
    }

    /// The squares of a player's pieces, as a set of row-major indices.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let attackers = rules.start_position().occupied(Player::Zero);
    /// assert_eq!(attackers.len(), 16);
    /// assert!(attackers.contains(3), "d9");
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn occupied(&self, player: Player) -> BitBoard {
        BitBoard::from_words(self.state.occupied[player.index()])
    }

    /// The squares of the pieces of one type, as a set of row-major indices (empty for a
    /// type the rules do not declare).
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let king = PieceType::from_bit(1).unwrap();
    /// let squares = rules.start_position().occupied_by(king);
    /// assert_eq!(squares.iter().collect::<Vec<_>>(), [4 * 9 + 4]);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn occupied_by(&self, piece: PieceType) -> BitBoard {
        let Some(owner) = self.rules.owner(piece) else {
            return BitBoard::EMPTY;
        };
        let board = &self.state.board;
        self.occupied(owner)
            .iter()
            .filter(|&index| board[index] == piece.bit())
            .collect()
    }

    /// The squares of the board (not those outside it, type 0) with no piece, as a set of
    /// row-major indices.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().empty_squares().len(), 81 - 25);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn empty_squares(&self) -> BitBoard {
        let [zero, one] = &self.state.occupied;
        let on_board = &self.rules.tables().on_board;
        BitBoard::from_words(std::array::from_fn(|word| {
            on_board[word] & !(zero[word] | one[word])
        }))
    }

    /// The squares of a player's pieces, by increasing row-major index.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().squares_of(Player::One).count(), 9);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn squares_of(&self, player: Player) -> impl Iterator<Item = Square> + '_ {
        let tables = self.rules.tables();
        self.occupied(player)
            .iter()
            .map(move |index| tables.square_of(index))
    }

    /// Every move the board rules allow the side to move, without allocating.
    /// Repetition is not considered: see [`Game::legal_moves`](crate::Game::legal_moves).
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// assert_eq!(position.moves().count(), 80);
    /// assert!(position.moves().all(|mv| position.check_move(mv).is_ok()));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn moves(&self) -> Moves<'_> {
        Moves::new(self.rules.tables(), &self.state)
    }

    /// Calls `f` for every move of [`Position::moves`], in the same order. Faster than
    /// the iterator; allocates nothing.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut count = 0;
    /// rules.start_position().for_each_move(|_| count += 1);
    /// assert_eq!(count, 80);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let _ = engine::try_for_each_move(self.rules.tables(), &self.state, move |mv| {
            f(mv);
            ControlFlow::Continue(())
        });
    }

    /// Like [`Position::for_each_move`], stopping when `f` breaks; returns whether it did.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # use std::ops::ControlFlow;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let found = rules.start_position().try_for_each_move(|mv| {
    ///     if mv.to().y() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(found.is_break());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn try_for_each_move(&self, f: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        engine::try_for_each_move(self.rules.tables(), &self.state, f)
    }

    /// The number of moves of [`Position::moves`], counted without listing them.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().count_moves(), 80);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn count_moves(&self) -> u64 {
        engine::count_moves(self.rules.tables(), &self.state)
    }

    /// Whether the side to move has a move by the board rules.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert!(rules.start_position().has_move());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn has_move(&self) -> bool {
        engine::has_move(self.rules.tables(), &self.state)
    }

    /// Whether the board rules allow this move (repetition not considered), and if not,
    /// why.
    ///
    /// # Errors
    ///
    /// The first rule the move breaks.
    ///
    /// ```
    /// # use hnefatafl_core::{MoveError, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// assert_eq!(position.check_move("3 0 3 2".parse()?), Ok(()));
    /// assert_eq!(position.check_move("3 0 4 1".parse()?), Err(MoveError::NotStraight));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        engine::check_move(self.rules.tables(), &self.state, self.resolve_move(mv))
    }

    /// The move that a move written with its origin and destination only stands for:
    /// under rules with jump captures, `x1 y1 x2 y2` names the one jump capture from
    /// `x1 y1` that ends on `x2 y2` when no ordinary move goes there and exactly one jump
    /// capture does. Any other move is returned as it is.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let mut position = rules.start_position();
    /// position.play(rules.parse_move(&["d3", "d4"])?);
    /// let jump = position.resolve_move(rules.parse_move(&["d5", "d3"])?);
    /// assert_eq!(jump.jumps().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve_move(&self, mv: Move) -> Move {
        let tables = self.rules.tables();
        if !tables.jumping || mv.is_jump() {
            return mv;
        }
        let mut ordinary = false;
        let mut jump = None;
        let mut jumps = 0;
        self.for_each_move(|legal| {
            if legal.from() == mv.from() && legal.to() == mv.to() {
                if legal.is_jump() {
                    jump = Some(legal);
                    jumps += 1;
                } else {
                    ordinary = true;
                }
            }
        });
        match jump {
            Some(jump) if !ordinary && jumps == 1 => jump,
            _ => mv,
        }
    }

    /// Plays a move that the board rules allow, with its captures.
    ///
    /// # Panics
    ///
    /// When the board rules do not allow the move ([`Position::check_move`]); use
    /// [`Position::try_play`] to get the reason instead.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// position.play("3 0 3 2".parse()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Undo {
        match self.try_play(mv) {
            Ok(undo) => undo,
            Err(error) => panic!("the move {mv} is not allowed: {error}"),
        }
    }

    /// Plays a move if the board rules allow it; otherwise the position is unchanged.
    ///
    /// # Errors
    ///
    /// The first rule the move breaks (see [`Position::check_move`]).
    ///
    /// ```
    /// # use hnefatafl_core::{MoveError, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// assert_eq!(position.try_play("4 4 4 5".parse()?).err(), Some(MoveError::NotYourPiece));
    /// assert_eq!(position, rules.start_position());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<Undo, MoveError> {
        let mv = self.resolve_move(mv);
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move without checking it: the fast path for moves that came from
    /// [`Position::moves`] or [`Position::for_each_move`]. Allocates nothing.
    ///
    /// For a move the board rules do not allow, the result is unspecified but memory-safe:
    /// a move with no piece on its origin, onto a taken square or off the board changes
    /// nothing; other moves (a diagonal one, a jump over pieces) move the piece there as
    /// asked and judge captures around it.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// let mv = position.moves().next().unwrap();
    /// let undo = position.play_unchecked(mv);
    /// position.take_back(&undo);
    /// assert_eq!(position, rules.start_position());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Undo {
        engine::make_move(self.rules.tables(), &mut self.state, mv)
    }

    /// Passes the turn without moving a piece (a null move): the other side is to move,
    /// the pieces stay. No rule of a game allows it; it is for analysis ("what if the
    /// other side were to move?") and a search's null-move pruning. Passing again gives
    /// the position back.
    ///
    /// # Errors
    ///
    /// [`MoveError::GameOver`] when the game is over on the board
    /// ([`Position::outcome`]): the side to move has no move, or the last move ended it.
    /// Passing then would hand the turn to a side whose game is already decided. The
    /// position is unchanged.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// position.pass()?;
    /// assert_eq!(position.side_to_move(), Player::One);
    /// assert_ne!(position.hash(), rules.start_position().hash());
    /// position.pass()?;
    /// assert_eq!(position, rules.start_position());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pass(&mut self) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        self.pass_unchecked();
        Ok(())
    }

    /// Passes the turn like [`Position::pass`] without asking whether the game is over:
    /// the fast path for a search, which knows it. Allocates nothing and generates no
    /// move. Passing where the game is over gives a position no game reaches, which is
    /// still memory-safe to play on.
    ///
    /// ```
    /// # use hnefatafl_core::{Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// position.pass_unchecked();
    /// assert_eq!(position.side_to_move(), Player::One);
    /// position.pass_unchecked();
    /// assert_eq!(position, rules.start_position());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    #[inline]
    pub fn pass_unchecked(&mut self) {
        self.state.pass(self.rules.tables());
    }

    /// Takes back the last move played on this position, from its [`Undo`]. An `Undo` of
    /// another position or an older move gives an unspecified, memory-safe result.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// let undo = position.play("3 0 3 2".parse()?);
    /// position.take_back(&undo);
    /// assert_eq!(position, rules.start_position());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn take_back(&mut self, undo: &Undo) {
        engine::unmake_move(self.rules.tables(), &mut self.state, undo)
    }

    /// The end of the game by the board alone, in the order of docs/rules.md: the side to move has
    /// no move, an escape, a lost `capt_loss` type. Repetition is not considered: see
    /// [`Game::outcome`](crate::Game::outcome).
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.start_position().outcome(), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_with(self.has_move())
    }

    /// Like [`Position::outcome`], with the caller saying whether the side to move has a
    /// legal move (repetition may rule some out; a search that is about to generate the
    /// moves anyway passes `true` to learn of escapes and losses only).
    ///
    /// ```
    /// # use hnefatafl_core::{EndReason, Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let outcome = rules.start_position().outcome_with(false).unwrap();
    /// assert_eq!((outcome.winner, outcome.reason), (Some(Player::One), EndReason::NoMoves));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn outcome_with(&self, has_move: bool) -> Option<Outcome> {
        engine::outcome(self.rules.tables(), &self.state, has_move)
    }

    /// Counts the move sequences of `depth` plies from the position, with no move after
    /// the end. Only the board rules count: repetition is not considered.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// assert_eq!(position.perft(1), 80);
    /// assert_eq!(position.perft(0), 1);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        let mut state = self.state.clone();
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        engine::perft(self.rules.tables(), &mut state, depth, &mut buffers)
    }
}
