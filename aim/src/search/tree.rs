//! Below the root: the principal-variation alpha-beta search, the transposition table's
//! probes and stores, null moves, repetitions, and the quiescence search at the horizon.

use super::{
    INFINITE, MAX_PLY, POLL_MASK, QUIESCENCE_PLIES, RepeatEnd, Step, Worker, from_table, to_table,
};
use crate::classic::{self, ESCAPE_GUESS};
use crate::evaluator::Evaluator;
use crate::movepick::{CAPTURE_GUESS, Hints, KILLER_KEY, QUIET_GUESS, Scored};
use crate::score::{Score, is_decisive};
use crate::tt::{Bound, Entry};
use hnefatafl_core::Move;

impl<'a, E: Evaluator> Worker<'a, E> {
    /// Whether the current position (the last of the line) was on the search's line
    /// before, or among the game's.
    fn repeats(&self) -> bool {
        let Some((current, before)) = self.path.split_last() else {
            return false;
        };
        before.iter().any(|step| step.key == current.key)
            || self.context.game_positions.count(current.key) > 0
    }

    /// The end of the game that its history makes here, the current position being the
    /// last of the line (`ply` > 0): the rules' repetition count reached (the position's
    /// occurrences in the game and on the line), `draw_plies` plies without a capture, or,
    /// with [`Tuning::tree_repetition`], a repetition short of the count that scores the
    /// rules' end as if it were reached. The score is the side to move's.
    fn history_end(&self, ply: usize) -> Option<i32> {
        let context = self.context;
        let (current, before) = self.path.split_last()?;
        let side = self.position.side_to_move();
        if let Some(repetition) = &context.repetition {
            let occurrences = 1
                + before.iter().filter(|step| step.key == current.key).count()
                + context.game_positions.count(current.key);
            let end = repetition.ends[side.opponent().index()];
            let heuristic = context.tree_repetition && ply >= 2 && occurrences >= 2;
            if occurrences >= repetition.count || (heuristic && end != RepeatEnd::Win) {
                // For the side to move, the mover's opponent.
                return Some(match end {
                    RepeatEnd::Draw => context.draw[side.index()],
                    RepeatEnd::Loss => Score::win_in(ply as i32).0,
                    RepeatEnd::Win => Score::loss_in(ply as i32).0,
                });
            }
        }
        let limit = context.draw_plies?;
        (current.quiet >= limit).then_some(context.draw[side.index()])
    }

    /// What every node does first: counts itself, polls the clock and the stop flags now
    /// and then, and scores a game that the board rules end here. `Some` ends the node.
    fn enter(&mut self, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.unreported += 1;
        // Also at a node limit below the next poll, so that a shallow search stops at its
        // limit rather than at a multiple of the poll interval.
        if self.nodes & POLL_MASK == 0 || Some(self.nodes) == self.context.shared.plan.nodes {
            self.poll();
        }
        if self.aborted {
            return Some(0);
        }
        self.pv[ply].clear();
        let side = self.position.side_to_move();
        if let Some(outcome) = self.position.outcome_with(true) {
            let plies = ply as i32;
            return Some(match outcome.winner {
                Some(winner) if winner == side => Score::win_in(plies).0,
                Some(_) => Score::loss_in(plies).0,
                None => self.context.draw[side.index()],
            });
        }
        let end = self.history_end(ply)?;
        // The score depends on the line: the nodes above must not store theirs.
        self.history_ends += 1;
        Some(end)
    }

    /// The quiescence search below the horizon ([`Tuning::quiescence`]): the static
    /// evaluation, unless the side to move can capture, when its capturing moves (the
    /// static guess's closing of a custodial pair) are searched too and the best of those
    /// and standing pat is the score. `left` plies more at most.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, left: u32) -> i32 {
        let context = self.context;
        let tables = context.tables;
        let (stand, threat) = self.evaluator.evaluate_with_threat(&self.position);
        if left == 0 || !threat || stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let moves = self.picker.captures(ply, tables, &self.position);
        let mut best = stand;
        for m in moves.in_order() {
            let undo = self.play(m.mv);
            // A guess that captured nothing (the pair did not close) is a quiet move, but
            // for an escape.
            let escape = context.escape_threats && m.guess >= ESCAPE_GUESS;
            if (undo.captures().next().is_none() && !escape)
                || (tables.forbid_repeat && self.repeats())
            {
                self.take_back(&undo);
                continue;
            }
            let score = match self.enter(ply + 1) {
                Some(end) => -end,
                None => -self.quiesce(ply + 1, -beta, -alpha, left - 1),
            };
            self.take_back(&undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.picker.give_back(ply, moves);
        if self.aborted { 0 } else { best }
    }

    /// The principal-variation alpha-beta search of the current position, `depth` plies
    /// deep, `ply` plies from the root: its score from the side to move's view.
    pub(super) fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some(end) = self.enter(ply) {
            return end;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 - QUIESCENCE_PLIES as usize {
            return self.horizon(ply, alpha, beta);
        }
        let key = self.position.hash();
        let history_ends = self.history_ends;
        // A search without one move (a singular extension's test) neither reads nor
        // writes the table, whose entry is of the node with all its moves.
        let excluded = self.excluded[ply];
        let probed = if excluded.is_some() {
            Probed::default()
        } else {
            self.probe(key, depth, ply, alpha, beta)
        };
        if let Some(score) = probed.cutoff {
            return score;
        }
        if excluded.is_none()
            && let Some(score) = self.null_move(depth, ply, alpha, beta)
        {
            return score;
        }
        let hash_move = probed.mv;
        let extended = match self.singular(hash_move, probed.lower, depth, ply, beta) {
            Singular::Cut(score) => return score,
            Singular::Extend(mv) => Some(mv),
            Singular::No => None,
        };

        let context = self.context;
        let tables = context.tables;
        let hints = Hints {
            hash_move,
            killers: self.killers.at(ply),
            history: self.history,
        };
        // The static rank decides reductions: it must depend on the position only.
        let static_order = context.reductions && depth >= 3;
        // Only at the last ply, where the answer to a threat would fall off the horizon.
        let extensions = context.escape_extension && depth == 1;
        let mut moves =
            self.picker
                .node(ply, tables, &self.position, hints, static_order, extensions);
        let alpha_start = alpha;
        let prune = self.shallow_pruning(depth, alpha, beta);
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut legal = 0;
        while let Some(m) = moves.next() {
            if Some(m.mv) == excluded {
                continue;
            }
            let (history, board) = (&self.history, self.position.board_bits());
            if legal > 0
                && prune.skips(
                    &m,
                    legal,
                    || history.score(tables, m.mv),
                    || classic::near_own_escape_piece(tables, board, m.mv),
                )
            {
                continue;
            }
            let undo = self.play(m.mv);
            if tables.forbid_repeat && self.repeats() {
                // The rules forbid the move.
                self.take_back(&undo);
                continue;
            }
            legal += 1;
            let captured = undo.captures().next().is_some();
            let (mut child, mut reduced) = self.child_depths(&m, depth, legal, captured);
            if Some(m.mv) == extended {
                child += 1;
                reduced += 1;
            }
            let score = self.search_child(legal == 1, child, reduced, ply, alpha, beta);
            self.take_back(&undo);
            if self.aborted {
                self.picker.give_back(ply, moves);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m.mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m.mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !captured && m.guess < CAPTURE_GUESS {
                            self.killers.add(ply, m.mv);
                            self.history.reward(tables, m.mv, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.picker.give_back(ply, moves);
        if legal == 0 && excluded.is_some() {
            // The excluded move was the only one.
            return alpha;
        }
        if legal == 0 {
            // No legal move (repetition may rule them all out): the side to move loses.
            return Score::loss_in(ply as i32).0;
        }
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A score that an end by the game's history decided holds for this line only.
        let line_only = self.history_ends != history_ends;
        let entry = Entry {
            mv: best_move,
            score: to_table(best, ply),
            depth: depth as u32,
            bound,
        };
        if excluded.is_none() {
            self.store(key, entry, line_only);
        }
        best
    }

    /// The score at the horizon: the quiescence search's, or the static evaluation.
    fn horizon(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.context.quiescence {
            self.quiesce(ply, alpha, beta, QUIESCENCE_PLIES)
        } else {
            self.evaluator.evaluate_with_threat(&self.position).0
        }
    }

    /// What the table holds for the position of `key`: its move, its score when the entry
    /// is deep enough and its bound ends the node, and its lower bound.
    fn probe(&self, key: u64, depth: i32, ply: usize, alpha: i32, beta: i32) -> Probed {
        let context = self.context;
        let Some(entry) = context.table.and_then(|table| table.probe(key)) else {
            return Probed::default();
        };
        // Under `forbid_repeat` a score depends on the line: only the move is used.
        if context.tables.forbid_repeat {
            return Probed {
                mv: entry.mv,
                ..Probed::default()
            };
        }
        let score = from_table(entry.score, ply);
        let lower = (entry.bound != Bound::Upper).then_some((score, entry.depth));
        let deep_enough =
            entry.depth == depth as u32 || (!context.strict && entry.depth > depth as u32);
        let cutoff = match entry.bound {
            _ if !deep_enough => None,
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        };
        Probed {
            mv: entry.mv,
            cutoff,
            lower,
        }
    }

    /// The singular extension test ([`Tuning::singular`]) of the table's move `mv`, whose
    /// entry says the node scores at least `score` at depth `entry_depth`: the node is
    /// searched again at half the depth without `mv`, against a bound a little below
    /// `score`. If no other move reaches it, `mv` stands alone and is searched a ply
    /// deeper. If the bound is at or above `beta` and another move reaches it too, two
    /// moves hold beta and the node is cut (multi-cut).
    fn singular(
        &mut self,
        mv: Option<Move>,
        lower: Option<(i32, u32)>,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> Singular {
        // The knob and the depth first: off, this is all a node pays.
        if !(self.context.singular && depth >= SINGULAR_FROM_DEPTH) {
            return Singular::No;
        }
        let (Some(mv), Some((score, entry_depth))) = (mv, lower) else {
            return Singular::No;
        };
        if !(self.excluded[ply].is_none() && entry_depth as i32 >= depth - 3 && !is_decisive(score))
        {
            return Singular::No;
        }
        let bound = score - SINGULAR_MARGIN * depth;
        self.excluded[ply] = Some(mv);
        let others = self.negamax((depth - 1) / 2, ply, bound - 1, bound);
        self.excluded[ply] = None;
        // The search without the move may have left its line here.
        self.pv[ply].clear();
        if self.aborted {
            Singular::No
        } else if others < bound {
            Singular::Extend(mv)
        } else if bound >= beta {
            Singular::Cut(bound)
        } else {
            Singular::No
        }
    }

    /// Null-move pruning ([`Tuning::null_move`]): if passing still holds beta, a move will
    /// too (tafl has hardly any zugzwang), and the node's score is `Some`. Two passes in a
    /// row are not tried.
    fn null_move(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if !(self.context.null_move
            && depth >= 3
            && beta - alpha == 1
            && !self.passed[ply]
            && !is_decisive(beta)
            && self.evaluator.evaluate_with_threat(&self.position).0 >= beta)
        {
            return None;
        }
        let reduction = if depth >= 7 { 3 } else { 2 };
        self.position.pass_unchecked();
        // A pass is no ply of the game: the count without a capture stays.
        let quiet = self.quiet();
        self.path.push(Step {
            key: self.position.hash(),
            quiet,
        });
        self.passed[ply + 1] = true;
        let score = -self.negamax(depth - 1 - reduction, ply + 1, -beta, -beta + 1);
        self.passed[ply + 1] = false;
        self.path.pop();
        self.position.pass_unchecked();
        if self.aborted {
            return Some(0);
        }
        // A decisive score after a pass proves nothing about the moves.
        (score >= beta).then(|| if is_decisive(score) { beta } else { score })
    }

    /// What [`Tuning::futility`] and [`Tuning::history_pruning`] prune at this node: only
    /// at depth 1 and 2, from the [`PRUNING_FROM_DEPTH`]th depth searched, with a null
    /// window and no decisive bound.
    fn shallow_pruning(&mut self, depth: i32, alpha: i32, beta: i32) -> Prune {
        let context = self.context;
        if !(context.futility || context.history_pruning)
            || !(1..=2).contains(&depth)
            || self.iteration < PRUNING_FROM_DEPTH
            || beta - alpha != 1
            || is_decisive(alpha)
            || is_decisive(beta)
            || (context.escape_threats
                && classic::escape_threatened(context.tables, &self.position))
        {
            return Prune::default();
        }
        let futile = context.futility && {
            let margin = if depth == 1 { 100 } else { 300 };
            self.evaluator.evaluate_with_threat(&self.position).0 + margin <= alpha
        };
        Prune {
            futile,
            late_after: context.history_pruning.then_some(8 * depth as usize),
            spare_forts: context.spare_forts,
        }
    }

    /// The depth to search a move to, and the depth of its first, reduced try: the static
    /// reductions by its rank ([`Tuning::reductions`]), or late-move reductions by its
    /// place in the search ([`Tuning::late_move_reductions`], from the
    /// [`PRUNING_FROM_DEPTH`]th depth searched, so that a short analysis stays exact), for
    /// quiet moves only.
    fn child_depths(&self, m: &Scored, depth: i32, legal: usize, captured: bool) -> (i32, i32) {
        let context = self.context;
        let mut child = if m.extend { depth } else { depth - 1 };
        let quiet = !captured && m.guess < QUIET_GUESS && !m.extend;
        let mut reduced = child;
        if context.late_move_reductions && self.iteration >= PRUNING_FROM_DEPTH {
            if depth >= 3 && legal > 3 && quiet && m.key < KILLER_KEY {
                reduced -=
                    1 + i32::from(depth >= 5 && legal > 10) + i32::from(depth >= 7 && legal > 40);
            }
        } else if context.reductions && depth >= 3 && m.rank >= 6 && quiet {
            child -= if depth >= 5 && m.rank >= 20 { 2 } else { 1 };
            reduced = child;
        }
        (child, reduced)
    }

    /// The score of the move just played: the first move with the full window, the others
    /// with a null window (at the `reduced` depth first), searched again with the full
    /// window when they beat alpha.
    fn search_child(
        &mut self,
        first: bool,
        child: i32,
        reduced: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if first {
            return -self.negamax(child, ply + 1, -beta, -alpha);
        }
        let mut score = -self.negamax(reduced, ply + 1, -alpha - 1, -alpha);
        if reduced < child && score > alpha && !self.aborted {
            score = -self.negamax(child, ply + 1, -alpha - 1, -alpha);
        }
        if score > alpha && score < beta && !self.aborted {
            -self.negamax(child, ply + 1, -beta, -alpha)
        } else {
            score
        }
    }

    /// Stores a node's result in the table. A score that holds for this line only
    /// (`line_only`) is kept out: the entry keeps the move, at a depth no probe takes a
    /// score from.
    fn store(&self, key: u64, entry: Entry, line_only: bool) {
        if let Some(table) = self.context.table {
            let depth = if line_only { 0 } else { entry.depth };
            table.store(key, &Entry { depth, ..entry });
        }
    }
}

/// The first depth of the iterative deepening that prunes by history or futility or
/// reduces late moves: a search of 4 plies or fewer (a short analysis) stays exact, and
/// the depths before cost next to nothing.
const PRUNING_FROM_DEPTH: u32 = 5;

/// The least depth at which [`Tuning::singular`] tests the table's move.
const SINGULAR_FROM_DEPTH: i32 = 6;

/// How far below the table's score, per ply of depth, the other moves must stay for the
/// table's move to be singular (hundredths of a piece).
const SINGULAR_MARGIN: i32 = 2;

/// What the table holds for a node ([`Worker::probe`]).
#[derive(Default)]
struct Probed {
    /// The table's move.
    mv: Option<Move>,
    /// Its score, when the entry is deep enough and its bound ends the node.
    cutoff: Option<i32>,
    /// Its score as a lower bound (an exact or lower entry) and the depth it was searched
    /// to; none under `forbid_repeat`, where a score depends on the line.
    lower: Option<(i32, u32)>,
}

/// What a singular extension's test found ([`Worker::singular`]).
enum Singular {
    /// Nothing: the node is searched as usual.
    No,
    /// The move stands alone: it is searched a ply deeper.
    Extend(Move),
    /// Another move holds the bound too, at or above beta: the node's score.
    Cut(i32),
}

/// The quiet moves that a node leaves out ([`Worker::shallow_pruning`]).
#[derive(Clone, Copy, Default)]
struct Prune {
    /// Every quiet move after the first ([`Tuning::futility`]).
    futile: bool,
    /// Quiet moves after this many legal ones that never cut off
    /// ([`Tuning::history_pruning`]).
    late_after: Option<usize>,
    /// Those spare the moves near the mover's own escape piece ([`Tuning::spare_forts`]).
    spare_forts: bool,
}

impl Prune {
    /// Whether to leave out `m`, `legal` legal moves having been searched; `history` gives
    /// its history count, `near_king` whether it moves near its own escape piece.
    #[inline]
    fn skips(
        &self,
        m: &Scored,
        legal: usize,
        history: impl FnOnce() -> i32,
        near_king: impl FnOnce() -> bool,
    ) -> bool {
        let quiet = m.key < KILLER_KEY && m.guess < QUIET_GUESS && !m.extend;
        quiet
            && (self.futile
                || self.late_after.is_some_and(|after| {
                    legal >= after && history() <= 0 && !(self.spare_forts && near_king())
                }))
    }
}
