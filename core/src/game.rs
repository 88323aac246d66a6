//! A game: rules, position, history with undo and redo, repetition and the outcome.

use std::ops::ControlFlow;

use crate::error::MoveError;
use crate::{Move, Outcome, Player, Position, Rules, Undo};

/// A game: rules, position, history with undo and redo, and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    position: Position,
    /// The moves played with what they captured, oldest first.
    history: Vec<Undo>,
    /// The key of every position, the start first and the current one last.
    hashes: Vec<u64>,
    /// Moves taken back, the next one to replay last.
    redo: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the rules' start position.
    pub fn new(rules: Rules) -> Game {
        let position = rules.start_position();
        let hashes = vec![position.hash()];
        let mut game = Game {
            rules,
            position,
            history: Vec::new(),
            hashes,
            redo: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// A new game from any position of these rules.
    pub fn from_position(rules: Rules, position: Position) -> Game {
        let hashes = vec![position.hash()];
        let mut game = Game {
            rules,
            position,
            history: Vec::new(),
            hashes,
            redo: Vec::new(),
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> Vec<Move> {
        self.history.iter().map(Undo::mv).collect()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(Undo::mv)
    }

    /// What each move played captured, oldest first.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The moves that [`Game::redo`] would replay, the next one first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the move is refused only because it repeats a position.
    fn repeats(&self, mv: Move) -> bool {
        if !self.rules.forbid_repeat() {
            return false;
        }
        let mut position = self.position.clone();
        self.rules.make_move(&mut position, mv);
        self.has_occurred(position.hash())
    }

    /// Every legal move, in the order of [`Rules::for_each_move`]: with `forbid_repeat`, the
    /// moves that would repeat a position are left out. Empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.rules.generate_moves(&self.position, &mut moves);
        if self.rules.forbid_repeat() {
            let mut position = self.position.clone();
            moves.retain(|&mv| {
                let undo = self.rules.make_move(&mut position, mv);
                let fresh = !self.has_occurred(position.hash());
                self.rules.unmake_move(&mut position, &undo);
                fresh
            });
        }
        moves
    }

    /// Whether the position with this key ([`Position::hash`]) has occurred in this game
    /// (for `forbid_repeat`).
    pub fn has_occurred(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }

    /// The keys of every position of the game so far, the current one last.
    pub fn position_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Whether the move is legal now, and if not, why.
    ///
    /// # Errors
    ///
    /// The rule the move breaks, [`MoveError::Repetition`] or [`MoveError::GameOver`].
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        self.rules.check_move(&self.position, mv)?;
        if self.repeats(mv) {
            return Err(MoveError::Repetition);
        }
        Ok(())
    }

    /// Plays a legal move. On error the game is unchanged.
    ///
    /// # Errors
    ///
    /// Why the move is not legal (see [`Game::check`]).
    pub fn play(&mut self, mv: Move) -> Result<&Undo, MoveError> {
        self.check(mv)?;
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.push(mv);
        self.history.last().ok_or(MoveError::GameOver)
    }

    fn push(&mut self, mv: Move) {
        let undo = self.rules.make_move(&mut self.position, mv);
        self.history.push(undo);
        self.hashes.push(self.position.hash());
        self.outcome = self.judge();
    }

    /// Takes back the last move; it can be replayed with [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        self.rules.unmake_move(&mut self.position, &undo);
        self.hashes.pop();
        self.redo.push(undo.mv());
        self.outcome = self.judge();
        Some(undo.mv())
    }

    /// Replays the last move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        self.push(mv);
        Some(mv)
    }

    /// The outcome of the current position.
    fn judge(&self) -> Option<Outcome> {
        let has_move = if self.rules.forbid_repeat() {
            self.rules
                .try_for_each_move(&self.position, |mv| {
                    if self.repeats(mv) {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                })
                .is_break()
        } else {
            self.rules.has_move(&self.position)
        };
        self.rules.outcome(&self.position, has_move)
    }
}
