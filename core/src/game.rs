//! A game: a position with its history, undo and redo, repetition and the outcome.

use std::ops::ControlFlow;

use crate::display::BoardDisplay;
use crate::engine::Board;
use crate::error::MoveError;
use crate::{EndReason, Move, Moves, Outcome, Player, Position, Rules, Undo, engine};

/// A game: a position with its history, undo and redo, repetition and the outcome.
///
/// ```
/// use hnefatafl_core::{Game, MoveError, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let mut game = Game::new(rules);
/// let first = game.legal_moves().next().unwrap();
/// game.play(first);
/// assert_eq!(game.ply(), 1);
/// assert_eq!(game.try_play(first).err(), Some(MoveError::NoPiece));
/// assert_eq!(game.undo(), Some(first));
/// assert_eq!(game.ply(), 0);
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The moves played with what they captured, oldest first.
    history: Vec<Undo>,
    /// The key of every position, the start first and the current one last.
    hashes: Vec<u64>,
    /// Every position, as `hashes`: a key that matches is confirmed on the pieces.
    boards: Vec<Board>,
    /// Moves taken back, the next one to replay last.
    redo: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the rules' start position.
    ///
    /// ```
    /// use hnefatafl_core::{Game, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules.clone());
    /// assert_eq!(game.position(), &rules.start_position());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules.start_position())
    }

    /// A new game from any position of its rules, for instance one made by
    /// [`Position::from_setup`].
    ///
    /// ```
    /// use hnefatafl_core::{Game, Player, Position, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut setup = rules.start_position().setup();
    /// setup.side_to_move = Player::One;
    /// let game = Game::from_position(Position::from_setup(&rules, &setup)?);
    /// assert_eq!(game.side_to_move(), Player::One);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_position(position: Position) -> Game {
        let mut game = Game {
            hashes: vec![position.hash()],
            boards: vec![position.state.clone()],
            position,
            history: Vec::new(),
            redo: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The rules.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(Game::new(rules.clone()).rules(), &rules);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// The current position.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules);
    /// assert_eq!(game.position().count_moves(), 80);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Player, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(Game::new(rules).side_to_move(), Player::Zero);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    /// The number of moves played (half-moves, plies).
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// game.play("3 0 3 2".parse()?);
    /// assert_eq!(game.ply(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves played, oldest first.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// let mv = "3 0 3 2".parse()?;
    /// game.play(mv);
    /// assert!(game.moves().eq([mv]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + DoubleEndedIterator + '_ {
        self.history.iter().map(Undo::mv)
    }

    /// The last move played.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules);
    /// assert_eq!(game.last_move(), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(Undo::mv)
    }

    /// The position as a text board with the last move's squares in brackets: what the
    /// interpreter's `b` command prints (without colours). See [`Position::display`].
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/brandub"))?;
    /// let mut game = Game::new(rules.clone());
    /// game.try_play(rules.read_move("d6-b6")?)?;
    /// assert_eq!(game.display().to_string().lines().nth(3), Some(" 1  6  . [A] . [.] .  .  ."));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn display(&self) -> BoardDisplay<'_> {
        BoardDisplay::new(self.position(), self.last_move())
    }

    /// What each move played captured, oldest first.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// game.play("3 0 3 2".parse()?);
    /// assert_eq!(game.history()[0].captures().count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The moves that [`Game::redo`] would replay, the next one first.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// let mv = "3 0 3 2".parse()?;
    /// game.play(mv);
    /// game.undo();
    /// assert!(game.redo_moves().eq([mv]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }

    /// The outcome, once the game is over.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(Game::new(rules).outcome(), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether this board has occurred in the game: the key matches and the pieces and
    /// side to move are the same, so that a key collision never counts.
    fn occurred(&self, board: &Board) -> bool {
        self.hashes
            .iter()
            .zip(&self.boards)
            .any(|(&hash, past)| hash == board.hash && past.side == board.side && past == board)
    }

    /// Whether the move would repeat a position, played on `scratch` (a copy of the
    /// current board, given back unchanged).
    fn repeats_on(&self, scratch: &mut Board, mv: Move) -> bool {
        let tables = self.rules().tables();
        let undo = engine::make_move(tables, scratch, mv);
        let repeats = self.occurred(scratch);
        engine::unmake_move(tables, scratch, &undo);
        repeats
    }

    /// Every legal move, in the order of [`Position::moves`]: with `forbid_repeat`, the
    /// moves that would repeat a position are left out. None when the game is over.
    /// Allocates nothing, but one copy of the board when `forbid_repeat` is set.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules);
    /// assert_eq!(game.legal_moves().count(), 80);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn legal_moves(&self) -> LegalMoves<'_> {
        LegalMoves {
            game: self,
            moves: (self.outcome.is_none()).then(|| self.position.moves()),
            scratch: self
                .rules()
                .forbid_repeat()
                .then(|| self.position.state.clone()),
        }
    }

    /// Whether this position has occurred in the game (for `forbid_repeat`), compared
    /// piece by piece.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules.clone());
    /// game.play("3 0 3 2".parse()?);
    /// assert!(game.has_occurred(&rules.start_position()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_occurred(&self, position: &Position) -> bool {
        position.rules() == self.rules() && self.occurred(&position.state)
    }

    /// The keys of every position of the game so far, the current one last.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules.clone());
    /// assert_eq!(game.position_hashes(), [rules.start_position().hash()]);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn position_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Whether the move is legal now, and if not, why.
    ///
    /// # Errors
    ///
    /// The rule the move breaks, [`MoveError::Repetition`] or [`MoveError::GameOver`].
    ///
    /// ```
    /// # use hnefatafl_core::{Game, MoveError, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let game = Game::new(rules);
    /// assert_eq!(game.check("3 0 3 2".parse()?), Ok(()));
    /// assert_eq!(game.check("4 4 4 5".parse()?), Err(MoveError::NotYourPiece));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        let mv = self.position.resolve_move(mv);
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        self.position.check_move(mv)?;
        if self.rules().forbid_repeat() && self.repeats_on(&mut self.position.state.clone(), mv) {
            return Err(MoveError::Repetition);
        }
        Ok(())
    }

    /// Plays a legal move.
    ///
    /// # Panics
    ///
    /// When the move is not legal ([`Game::check`]); use [`Game::try_play`] to get the
    /// reason instead.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// let undo = game.play("3 0 3 2".parse()?);
    /// assert_eq!(undo.captures().count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> &Undo {
        let mv = self.position.resolve_move(mv);
        if let Err(error) = self.check(mv) {
            panic!("the move {mv} is not legal: {error}");
        }
        self.play_unchecked(mv)
    }

    /// Plays a move if it is legal; otherwise the game is left unchanged.
    ///
    /// # Errors
    ///
    /// Why the move is not legal (see [`Game::check`]).
    ///
    /// ```
    /// # use hnefatafl_core::{Game, MoveError, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// assert_eq!(game.try_play("3 0 4 1".parse()?).err(), Some(MoveError::NotStraight));
    /// assert_eq!(game.ply(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<&Undo, MoveError> {
        let mv = self.position.resolve_move(mv);
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move without checking it, keeping the history and judging the outcome:
    /// for moves that came from [`Game::legal_moves`]. A move that is not legal gives a
    /// memory-safe but unspecified game (see [`Position::play_unchecked`]).
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// let mv = game.legal_moves().next().unwrap();
    /// game.play_unchecked(mv);
    /// assert_eq!(game.last_move(), Some(mv));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn play_unchecked(&mut self, mv: Move) -> &Undo {
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.push(mv)
    }

    fn push(&mut self, mv: Move) -> &Undo {
        let undo = self.position.play_unchecked(mv);
        self.history.push(undo);
        self.hashes.push(self.position.hash());
        self.boards.push(self.position.state.clone());
        self.outcome = self.judge();
        &self.history[self.history.len() - 1]
    }

    /// Takes back the last move; it can be replayed with [`Game::redo`].
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules.clone());
    /// let mv = "3 0 3 2".parse()?;
    /// game.play(mv);
    /// assert_eq!(game.undo(), Some(mv));
    /// assert_eq!(game.position(), &rules.start_position());
    /// assert_eq!(game.undo(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        self.position.take_back(&undo);
        self.hashes.pop();
        self.boards.pop();
        self.redo.push(undo.mv());
        self.outcome = self.judge();
        Some(undo.mv())
    }

    /// Replays the last move taken back.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// let mv = "3 0 3 2".parse()?;
    /// game.play(mv);
    /// game.undo();
    /// assert_eq!(game.redo(), Some(mv));
    /// assert_eq!(game.redo(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        self.push(mv);
        Some(mv)
    }

    /// The outcome of the current position.
    fn judge(&self) -> Option<Outcome> {
        let has_move = if self.rules().forbid_repeat() {
            let mut scratch = self.position.state.clone();
            self.position
                .try_for_each_move(|mv| {
                    if self.repeats_on(&mut scratch, mv) {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                })
                .is_break()
        } else {
            self.position.has_move()
        };
        if let Some(outcome) = self.position.outcome_with(has_move) {
            return Some(outcome);
        }
        let rules = self.rules();
        if let Some(rule) = rules.repetition() {
            let board = &self.position.state;
            let occurrences = self
                .hashes
                .iter()
                .zip(&self.boards)
                .filter(|&(&hash, past)| hash == board.hash && past == board)
                .count();
            if occurrences >= usize::from(rule.count) {
                return rules.repetition_outcome(board.side.opponent());
            }
        }
        let limit = rules.draw_plies()?;
        let quiet = self
            .history
            .iter()
            .rev()
            .take_while(|undo| undo.captures().next().is_none())
            .count();
        (quiet >= limit as usize).then_some(Outcome {
            winner: None,
            reason: EndReason::NoCapture,
        })
    }
}

/// The legal moves of a game, walked one by one: see [`Game::legal_moves`].
///
/// ```
/// # use hnefatafl_core::{Game, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let game = Game::new(rules);
/// assert!(game.legal_moves().all(|mv| game.check(mv).is_ok()));
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug)]
pub struct LegalMoves<'a> {
    game: &'a Game,
    /// `None` once the game is over.
    moves: Option<Moves<'a>>,
    /// A copy of the board to try moves on, when repetition is forbidden.
    scratch: Option<Board>,
}

impl Iterator for LegalMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let moves = self.moves.as_mut()?;
        match self.scratch.as_mut() {
            None => moves.next(),
            Some(scratch) => moves.find(|&mv| !self.game.repeats_on(scratch, mv)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repeating_rules() -> Rules {
        let mut text = include_bytes!("../../data/rules/tablut").to_vec();
        text.extend_from_slice(b"\nforbid_repeat\n");
        Rules::parse(&text).expect("tablut with forbid_repeat")
    }

    #[test]
    fn a_key_collision_does_not_refuse_a_move() {
        let mut game = Game::new(repeating_rules());
        let mv = game.legal_moves().next().expect("a move");
        let mut after = game.position().clone();
        after.play(mv);
        // Another board with the key of the position after the move: a collision.
        game.hashes[0] = after.hash();
        assert_eq!(game.check(mv), Ok(()));
        assert!(game.legal_moves().any(|m| m == mv));
        // The same pieces and side as well: a repetition.
        game.boards[0] = after.state.clone();
        assert_eq!(game.check(mv), Err(MoveError::Repetition));
        assert!(!game.legal_moves().any(|m| m == mv));
    }
}
