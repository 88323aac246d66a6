//! A proof search for forced wins: whether the side to move wins within `n` of its own
//! moves whatever the other side does, and with which first moves ([`Solver`]), and the
//! puzzle sets made from such positions of recorded games ([`puzzle`]), which the
//! `puzzles` program makes and runs the engine on.
//!
//! The search is AND/OR over core's move generator and core's end of the game by the
//! board ([`Position::outcome`]: escapes, captured kings, exit forts, encirclement, a
//! side without a move, as the rule file has them). At the winner's turns (OR) one move
//! must win; at the other side's turns (AND) every move is tried, so a win it reports is
//! proven. Repetition and the draw by plies without a capture are not looked at: a puzzle
//! is a position, with no game before it.
//!
//! Depth counts the winner's moves: a win in 1 is a move that ends the game; a win in 2
//! a move after which every answer leaves a win in 1. The search deepens one move at a
//! time, so the depth it reports is the least. The exact search tries every move at
//! every turn; its cost grows about a hundredfold a depth on 11x11 (from the copenhagen
//! start, 28,000 moves played show there is no win in 2, 3.5 million no win in 3). [`Search::Threats`] makes the deepest
//! depth tried cheaper and incomplete: there the winner's first move must threaten a win
//! at once (were the other side to pass); every later move and every defence is still
//! searched in full, so what it finds is still proven, and every shallower depth is
//! searched exactly, so the depth it finds is still the least.
//!
//! The search orders moves by threats: the winner's by how many wins at once they
//! threaten; the defender's to meet the threats first (onto the squares the winner's
//! winning moves pass or land on, then moves of the pieces beside where they land, then
//! moves beside the pieces that make them), after the answer that last refuted a move at
//! that depth.

pub mod puzzle;

use hnefatafl_core::{EndReason, Move, Player, Position, Square};

/// How the winner's first moves at the deepest depth are chosen ([`Solver::solve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every move at every depth: finds every forced win within the depth.
    Exact,
    /// At the deepest depth, only first moves that threaten to win at once: cheaper,
    /// and misses wins that begin with a quiet move.
    Threats,
}

/// The search stopped at its node limit before it could answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the proof search stopped at its limit of {0} nodes")]
pub struct OutOfNodes(pub u64);

/// A forced win of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    /// The least number of the winner's moves that wins, whatever the other side does.
    pub depth: u32,
    /// Every first move that wins within `depth`, in the move generator's order.
    pub moves: Vec<Move>,
    /// A line of play: the first winning move, then at each turn of the loser the first
    /// answer that holds out longest, and the winner's reply, up to the move that ends the
    /// game.
    pub line: Vec<Move>,
    /// How the game ends at the end of `line`.
    pub reason: EndReason,
}

/// What a move did to the game, for the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The game is over, won by the winner.
    Won,
    /// The game is over, drawn or lost.
    Lost,
    /// The game goes on.
    Open,
}

fn verdict(position: &Position, winner: Player) -> Verdict {
    match position.outcome() {
        None => Verdict::Open,
        Some(outcome) if outcome.winner == Some(winner) => Verdict::Won,
        Some(_) => Verdict::Lost,
    }
}

fn moves_of(position: &Position) -> Vec<Move> {
    let mut moves = Vec::with_capacity(128);
    position.for_each_move(|mv| moves.push(mv));
    moves
}

/// The proof search, with a limit on the moves it plays (its nodes).
#[derive(Clone, Debug)]
pub struct Solver {
    nodes: u64,
    node_limit: u64,
    /// Per depth left to the winner, the defence that last refuted a winner's move.
    refutations: Vec<Option<Move>>,
}

impl Solver {
    /// A solver that gives up after `node_limit` moves played in one call.
    pub fn new(node_limit: u64) -> Solver {
        Solver {
            nodes: 0,
            node_limit,
            refutations: Vec::new(),
        }
    }

    /// The moves played by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn start(&mut self) {
        self.nodes = 0;
        self.refutations.clear();
    }

    /// Plays a move, counting it.
    fn play(
        &mut self,
        position: &mut Position,
        mv: Move,
    ) -> Result<hnefatafl_core::Undo, OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(OutOfNodes(self.node_limit));
        }
        Ok(position.play_unchecked(mv))
    }

    /// What `look` sees of the position after `mv` (counted as `play` counts it), which
    /// is then taken back.
    fn after<T>(
        &mut self,
        position: &mut Position,
        mv: Move,
        look: impl FnOnce(&mut Self, &mut Position) -> T,
    ) -> Result<T, OutOfNodes> {
        let undo = self.play(position, mv)?;
        let seen = look(self, position);
        position.take_back(&undo);
        Ok(seen)
    }

    /// The least depth from 1 to `max_depth` at which the side to move has a forced win,
    /// with every winning first move at that depth and a line of play; `None` when there
    /// is none within `max_depth` (with [`Search::Threats`], none that it finds at the
    /// deepest depth). A position whose game is over has none.
    ///
    /// # Errors
    ///
    /// [`OutOfNodes`] when one step of the search played more moves than the limit.
    pub fn solve(
        &mut self,
        position: &Position,
        max_depth: u32,
        search: Search,
    ) -> Result<Option<Win>, OutOfNodes> {
        if position.outcome().is_some() {
            return Ok(None);
        }
        let mut board = position.clone();
        for depth in 1..=max_depth {
            self.start();
            let exact = search == Search::Exact || depth < max_depth;
            if self.win_within(&mut board, depth, exact)?.is_none() {
                continue;
            }
            let mut moves = Vec::new();
            for mv in moves_of(&board) {
                self.start();
                if self.forces_win(&mut board, mv, depth)? {
                    moves.push(mv);
                }
            }
            self.start();
            let (line, reason) = self.main_line(&mut board, depth)?;
            return Ok(Some(Win {
                depth,
                moves,
                line,
                reason,
            }));
        }
        Ok(None)
    }

    /// Whether the side to move wins within `depth` moves by playing `mv` first, every
    /// answer tried (an exact search).
    ///
    /// # Errors
    ///
    /// [`OutOfNodes`] when the search played more moves than the limit.
    pub fn wins_with(
        &mut self,
        position: &Position,
        mv: Move,
        depth: u32,
    ) -> Result<bool, OutOfNodes> {
        self.start();
        if position.outcome().is_some() || position.check_move(mv).is_err() {
            return Ok(false);
        }
        self.forces_win(&mut position.clone(), mv, depth)
    }

    /// Whether `mv` (legal) forces a win within `depth`, exactly.
    fn forces_win(
        &mut self,
        position: &mut Position,
        mv: Move,
        depth: u32,
    ) -> Result<bool, OutOfNodes> {
        let winner = position.side_to_move();
        self.after(position, mv, |solver, position| {
            match verdict(position, winner) {
                Verdict::Won => Ok(true),
                Verdict::Lost => Ok(false),
                Verdict::Open if depth <= 1 => Ok(false),
                Verdict::Open => solver.every_answer_loses(position, depth - 1),
            }
        })?
    }

    /// A move of the side to move that wins within `depth`: every move at the last depth
    /// (`exact`), or only those that threaten to win at once.
    fn win_within(
        &mut self,
        position: &mut Position,
        depth: u32,
        exact: bool,
    ) -> Result<Option<Move>, OutOfNodes> {
        let winner = position.side_to_move();
        let moves = moves_of(position);
        if let Some(&mv) = self.winning_now(position, &moves, 1)?.first() {
            return Ok(Some(mv));
        }
        if depth <= 1 {
            return Ok(None);
        }
        // From depth 3 on a refutation costs far more than counting a move's threats, so
        // the most threatening moves go first; at depth 2 the order does not pay.
        let candidates = if depth >= 3 || !exact {
            self.by_threats(position, &moves, exact)?
        } else {
            moves
        };
        for mv in candidates {
            let wins = self.after(position, mv, |solver, position| {
                match verdict(position, winner) {
                    Verdict::Open => solver.every_answer_loses(position, depth - 1),
                    _ => Ok(false),
                }
            })?;
            if wins? {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    /// Of `moves`, those that win at once, up to `cap` of them.
    fn winning_now(
        &mut self,
        position: &mut Position,
        moves: &[Move],
        cap: usize,
    ) -> Result<Vec<Move>, OutOfNodes> {
        let winner = position.side_to_move();
        let mut wins = Vec::new();
        for &mv in moves {
            if self.after(position, mv, |_, position| {
                verdict(position, winner) == Verdict::Won
            })? {
                wins.push(mv);
                if wins.len() >= cap {
                    break;
                }
            }
        }
        Ok(wins)
    }

    /// The wins at once the side not to move would have if it were its turn.
    fn threats(&mut self, position: &mut Position, cap: usize) -> Result<Vec<Move>, OutOfNodes> {
        position.pass_unchecked();
        let moves = moves_of(position);
        let threats = self.winning_now(position, &moves, cap);
        position.pass_unchecked();
        threats
    }

    /// `moves` with the most threatening first (how many wins at once each leaves, were
    /// the other side to pass, counted up to two); with `exact` false, only those that
    /// threaten one.
    fn by_threats(
        &mut self,
        position: &mut Position,
        moves: &[Move],
        exact: bool,
    ) -> Result<Vec<Move>, OutOfNodes> {
        let winner = position.side_to_move();
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in moves {
            let threats = self.after(position, mv, |solver, position| {
                match verdict(position, winner) {
                    Verdict::Open => solver.threats(position, 2).map(|t| t.len()),
                    _ => Ok(0),
                }
            })??;
            if exact || threats > 0 {
                scored.push((threats, mv));
            }
        }
        // Stable: moves as threatening keep the generator's order.
        scored.sort_by_key(|&(threats, _)| std::cmp::Reverse(threats));
        Ok(scored.into_iter().map(|(_, mv)| mv).collect())
    }

    /// Whether every move of the side to move (the loser) leaves the other side a win
    /// within `depth` of its moves, searched exactly.
    fn every_answer_loses(
        &mut self,
        position: &mut Position,
        depth: u32,
    ) -> Result<bool, OutOfNodes> {
        let loser = position.side_to_move();
        let winner = loser.opponent();
        let threats = self.threats(position, 16)?;
        let answers = self.by_defence(moves_of(position), &threats, depth);
        for answer in answers {
            let holds = self.after(position, answer, |solver, position| {
                match verdict(position, winner) {
                    Verdict::Won => Ok(true),
                    Verdict::Lost => Ok(false),
                    Verdict::Open => solver
                        .win_within(position, depth, true)
                        .map(|m| m.is_some()),
                }
            })?;
            if !holds? {
                if self.refutations.len() <= depth as usize {
                    self.refutations.resize(depth as usize + 1, None);
                }
                self.refutations[depth as usize] = Some(answer);
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The loser's answers, those likeliest to refute first: the last refutation at this
    /// depth, then by how they meet the winner's `threats` ([`defence_score`]).
    fn by_defence(&self, mut answers: Vec<Move>, threats: &[Move], depth: u32) -> Vec<Move> {
        let refutation = self.refutations.get(depth as usize).copied().flatten();
        answers.sort_by_key(|&answer| {
            let first = Some(answer) == refutation;
            std::cmp::Reverse((first, defence_score(answer, threats)))
        });
        answers
    }

    /// A line of the win found at `depth`: the first winning move, then the first answer
    /// that holds out longest (that leaves no win at once when one exists), and so on.
    fn main_line(
        &mut self,
        position: &mut Position,
        depth: u32,
    ) -> Result<(Vec<Move>, EndReason), OutOfNodes> {
        let mut line = Vec::new();
        let mut undos = Vec::new();
        let mut left = depth;
        let reason = loop {
            let Some(mv) = self.win_within(position, left, true)? else {
                break None;
            };
            undos.push(self.play(position, mv)?);
            line.push(mv);
            if let Some(outcome) = position.outcome() {
                break Some(outcome.reason);
            }
            left -= 1;
            let mut chosen = None;
            for answer in moves_of(position) {
                let undo = self.play(position, answer)?;
                let lasts = position.outcome().is_none()
                    && (left <= 1 || self.win_within(position, 1, true)?.is_none());
                position.take_back(&undo);
                if lasts || chosen.is_none() {
                    chosen = Some(answer);
                }
                if lasts {
                    break;
                }
            }
            let Some(answer) = chosen else { break None };
            undos.push(self.play(position, answer)?);
            line.push(answer);
            if let Some(outcome) = position.outcome() {
                break Some(outcome.reason);
            }
        };
        for undo in undos.iter().rev() {
            position.take_back(undo);
        }
        Ok((line, reason.unwrap_or(EndReason::NoMoves)))
    }
}

/// How squarely an answer meets the winner's threats: 4 for each threat whose path or
/// landing square it moves onto, 2 for each it moves a piece away from beside the
/// threat's landing square (the piece it would capture or the king it would shut in), 1
/// for each it lands beside the threat's moving piece.
fn defence_score(answer: Move, threats: &[Move]) -> u32 {
    threats
        .iter()
        .map(|threat| {
            let mut score = 0;
            if on_path(*threat, answer.to()) {
                score += 4;
            }
            if beside(answer.from(), threat.to()) {
                score += 2;
            }
            if beside(answer.to(), threat.from()) {
                score += 1;
            }
            score
        })
        .sum()
}

/// Whether `square` is one a move passes over or lands on.
fn on_path(mv: Move, square: Square) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let within = |a: u8, b: u8, c: u8| (a.min(b)..=a.max(b)).contains(&c);
    square != from
        && ((from.x() == to.x() && square.x() == from.x() && within(from.y(), to.y(), square.y()))
            || (from.y() == to.y()
                && square.y() == from.y()
                && within(from.x(), to.x(), square.x())))
}

fn beside(a: Square, b: Square) -> bool {
    a.x().abs_diff(b.x()) + a.y().abs_diff(b.y()) == 1
}

#[cfg(test)]
mod tests;
