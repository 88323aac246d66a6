//! Iterative deepening and the root: the depths one after another, the root moves searched
//! by one thread or shared between the threads ([`Split`]), and the helpers' part.

use super::time::stable_soft_time;
use super::{Done, INFINITE, Iteration, RootMove, Worker};
use crate::evaluator::Evaluator;
use crate::score::{Score, is_decisive};
use std::sync::PoisonError;
use std::sync::atomic::Ordering;

/// Half the width of a depth's first aspiration window ([`crate::Tuning::aspiration`]), in
/// hundredths of a piece: each miss makes the missed side four times wider, and past
/// [`ASPIRATION_LIMIT`] unbounded.
const ASPIRATION: i32 = 50;
/// The widest a side of an aspiration window gets before it has no bound.
const ASPIRATION_LIMIT: i32 = 400;
/// The first depth searched within an aspiration window.
const ASPIRATION_DEPTH: u32 = 4;

/// The bounds of one pass over the root moves: a score at or below `low` says only that
/// the depth's score is no higher, one at or above `high` that it is no lower.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Window {
    pub(super) low: i32,
    pub(super) high: i32,
}

impl Default for Window {
    fn default() -> Self {
        Window::FULL
    }
}

impl Window {
    /// No bounds: every score is exact.
    pub(super) const FULL: Window = Window {
        low: -INFINITE,
        high: INFINITE,
    };

    /// Whether a pass's score fell outside, so that the depth must be searched again.
    fn missed(self, score: i32) -> bool {
        (score <= self.low && self.low > -INFINITE) || (score >= self.high && self.high < INFINITE)
    }

    /// The window of the next pass after a miss at `score`, `width` the missed side's new
    /// half-width.
    fn widened(self, score: i32, width: i32) -> Window {
        let unbounded = width > ASPIRATION_LIMIT || is_decisive(score);
        if score <= self.low {
            Window {
                low: if unbounded { -INFINITE } else { score - width },
                ..self
            }
        } else {
            Window {
                high: if unbounded { INFINITE } else { score + width },
                ..self
            }
        }
    }

    /// The lowest score a root move other than the first must beat: the best so far
    /// (one less where the move comes earlier in the static order, so that a tie goes to
    /// it), and never below the window.
    fn floor(self, best: i32, earlier: bool) -> i32 {
        let floor = if earlier { best - 1 } else { best };
        floor.max(self.low)
    }
}

impl<'a, E: Evaluator> Worker<'a, E> {
    /// Iterative deepening from `first_depth`; calls `report` after each finished depth
    /// and returns the last one finished.
    pub(super) fn iterate(
        &mut self,
        root: &[RootMove],
        first_depth: u32,
        report: &mut dyn FnMut(&Worker<'a, E>, &Done),
    ) -> Option<Done> {
        let plan = &self.context.shared.plan;
        let mut order: Vec<RootMove> = root.to_vec();
        let mut last: Option<Done> = None;
        // Finished depths in a row that kept the best move of the depth before.
        let mut stable = 0;
        for depth in first_depth..=plan.depth {
            let done = match self.deepen(&mut order, depth, last.as_ref()) {
                Iteration::Finished(done) => done,
                Iteration::Improved(done) if self.context.unfinished_depths => {
                    // The deepest finished depth stays the one reported.
                    if let Some(finished) = &last {
                        last = Some(Done {
                            depth: finished.depth,
                            ..done
                        });
                    }
                    break;
                }
                Iteration::Improved(_) | Iteration::Stopped => break,
            };
            report(self, &done);
            let decisive = Score(done.score)
                .mate_plies()
                .is_some_and(|plies| plies <= depth as i32);
            if last
                .as_ref()
                .is_some_and(|last| last.pv.first() == done.pv.first())
            {
                stable += 1;
            } else {
                stable = 0;
            }
            last = Some(done);
            if decisive && plan.hard_time.is_some() {
                break;
            }
            let elapsed = self.context.shared.start.elapsed();
            // With a fixed time a move, the time not spent is lost; an unfinished depth
            // still counts, so the search goes on until the hard limit.
            let run_out = self.context.unfinished_depths && !plan.banked;
            let soft = plan.soft_time.filter(|_| !run_out).map(|soft| {
                if self.context.stability {
                    stable_soft_time(soft, plan, depth, stable)
                } else {
                    soft
                }
            });
            if soft.is_some_and(|soft| elapsed >= soft) {
                break;
            }
            if self.context.shared.abort.load(Ordering::Relaxed) {
                break;
            }
        }
        last
    }

    /// One depth: a pass over the root moves, within an aspiration window around the
    /// depth before's score where [`crate::Tuning::aspiration`] asks for one, and again,
    /// wider on the side the score fell outside, until it falls inside.
    fn deepen(&mut self, order: &mut [RootMove], depth: u32, last: Option<&Done>) -> Iteration {
        let mut width = ASPIRATION;
        let mut window = match last {
            Some(last)
                if self.context.aspiration
                    && depth >= ASPIRATION_DEPTH
                    && !is_decisive(last.score) =>
            {
                Window {
                    low: last.score - width,
                    high: last.score + width,
                }
            }
            _ => Window::FULL,
        };
        // The last pass's move at or above its window: proved better than the best move
        // of the depth before, so played if the search stops in the next pass.
        let mut fail_high: Option<Done> = None;
        loop {
            let iteration = if self.context.split {
                self.root_split(order, depth, window)
            } else {
                self.root_search(order, depth, window)
            };
            match iteration {
                Iteration::Finished(done) if window.missed(done.score) => {
                    let high = done.score >= window.high;
                    width *= 4;
                    window = window.widened(done.score, width);
                    fail_high = high.then_some(done);
                }
                Iteration::Stopped => {
                    return fail_high.map_or(Iteration::Stopped, Iteration::Improved);
                }
                _ => return iteration,
            }
        }
    }

    /// One pass over the root moves within `window`: the best move, ties going to the
    /// lower static rank, and its score, exact inside the window. `order` is reordered so
    /// that the best move comes first next time, unless every move scored at or below the
    /// window; a move at or above it ends the pass.
    fn root_search(&mut self, order: &mut [RootMove], depth: u32, window: Window) -> Iteration {
        self.iteration = depth;
        let noisy = order.iter().any(|m| m.noise != 0);
        let mut best: Option<(i32, usize)> = None;
        let mut best_pv = Vec::new();
        for i in 0..order.len() {
            let candidate = order[i];
            let undo = self.play(candidate.mv);
            let child = depth as i32 - 1;
            let (score, better) = match best {
                None => (
                    candidate.capped(-self.negamax(child, 1, -window.high, -window.low)),
                    true,
                ),
                Some((best_score, best_index)) if noisy => {
                    let score = candidate.capped(-self.negamax(child, 1, -INFINITE, INFINITE));
                    let noisy_score =
                        |s: i32, m: &RootMove| if is_decisive(s) { s } else { s + m.noise };
                    (
                        score,
                        noisy_score(score, &candidate)
                            > noisy_score(best_score, &order[best_index]),
                    )
                }
                Some((best_score, best_index)) => {
                    // Is this move better, or as good and earlier in the static order?
                    let floor = window.floor(best_score, candidate.rank < order[best_index].rank);
                    let mut score = -self.negamax(child, 1, -floor - 1, -floor);
                    if score > floor && !self.aborted {
                        score = -self.negamax(child, 1, -window.high, -floor);
                    }
                    // Capping lowers a score, or gives the exact score of a game end.
                    let score = candidate.capped(score);
                    (score, score > floor)
                }
            };
            self.take_back(&undo);
            if self.aborted {
                return match best {
                    Some((score, index)) if index > 0 => Iteration::Improved(Done {
                        depth,
                        score,
                        pv: best_pv,
                    }),
                    _ => Iteration::Stopped,
                };
            }
            if better {
                best = Some((score, i));
                best_pv.clear();
                best_pv.push(candidate.mv);
                best_pv.extend_from_slice(&self.pv[1]);
                if score >= window.high {
                    break;
                }
            }
        }
        let Some((score, index)) = best else {
            return Iteration::Stopped;
        };
        if score > window.low {
            order[..=index].rotate_right(1);
        }
        Iteration::Finished(Done {
            depth,
            score,
            pv: best_pv,
        })
    }

    fn stopped(&self) -> bool {
        let shared = self.context.shared;
        shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed)
    }

    /// One pass at the root within `window` with several threads (main thread): the first
    /// move alone, then the others shared with the helpers ([`Split`]), as
    /// [`Worker::root_search`] does them on one.
    fn root_split(&mut self, order: &mut [RootMove], depth: u32, window: Window) -> Iteration {
        self.iteration = depth;
        let split = &self.context.shared.split;
        *split.order.lock().unwrap_or_else(PoisonError::into_inner) = order.to_vec();
        split.depth.store(depth, Ordering::Relaxed);
        *split.window.lock().unwrap_or_else(PoisonError::into_inner) = window;
        let generation = split.generation.load(Ordering::Relaxed) + 1;
        split.generation.store(generation, Ordering::Release);

        let first = order[0];
        let undo = self.play(first.mv);
        let score = first.capped(-self.negamax(depth as i32 - 1, 1, -window.high, -window.low));
        self.take_back(&undo);
        if self.aborted {
            return Iteration::Stopped;
        }
        let mut pv = vec![first.mv];
        pv.extend_from_slice(&self.pv[1]);
        *split.best.lock().unwrap_or_else(PoisonError::into_inner) = (score, 0, pv);

        let open = generation + 1;
        // A first move at or above the window ends the pass: no other move is opened.
        let next = if score >= window.high { order.len() } else { 1 };
        split
            .ticket
            .store((open << 32) | next as u64, Ordering::Release);
        split.generation.store(open, Ordering::Release);
        self.take_moves(open, order, depth, window);
        while split.busy.load(Ordering::Acquire) != 0 {
            std::thread::yield_now();
        }
        let (score, index, pv) = split
            .best
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if self.aborted || self.stopped() {
            // Only moves searched to the end are ever written as the best.
            return if index > 0 {
                Iteration::Improved(Done { depth, score, pv })
            } else {
                Iteration::Stopped
            };
        }
        if score > window.low {
            order[..=index].rotate_right(1);
        }
        Iteration::Finished(Done { depth, score, pv })
    }

    /// Takes root moves of the open generation until none is left: each is better than the
    /// best so far when it scores more, or as much and earlier in the static order, and
    /// more than the window's low bound.
    fn take_moves(&mut self, open: u64, order: &[RootMove], depth: u32, window: Window) {
        self.iteration = depth;
        let split = &self.context.shared.split;
        loop {
            split.busy.fetch_add(1, Ordering::AcqRel);
            let ticket = split.ticket.load(Ordering::Acquire);
            let index = (ticket & 0xffff_ffff) as usize;
            if ticket >> 32 != open || index >= order.len() {
                split.busy.fetch_sub(1, Ordering::AcqRel);
                return;
            }
            if split
                .ticket
                .compare_exchange(ticket, ticket + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_err()
            {
                split.busy.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            let candidate = order[index];
            let floor = {
                let best = split.best.lock().unwrap_or_else(PoisonError::into_inner);
                window.floor(best.0, candidate.rank < order[best.1].rank)
            };
            let child = depth as i32 - 1;
            let undo = self.play(candidate.mv);
            let mut score = -self.negamax(child, 1, -floor - 1, -floor);
            if score > floor && !self.aborted {
                score = -self.negamax(child, 1, -window.high, -floor);
            }
            self.take_back(&undo);
            let score = candidate.capped(score);
            if !self.aborted && score > floor {
                let mut best = split.best.lock().unwrap_or_else(PoisonError::into_inner);
                if score > best.0 || (score == best.0 && candidate.rank < order[best.1].rank) {
                    best.0 = score;
                    best.1 = index;
                    best.2.clear();
                    best.2.push(candidate.mv);
                    best.2.extend_from_slice(&self.pv[1]);
                }
            }
            split.busy.fetch_sub(1, Ordering::AcqRel);
            if self.aborted {
                return;
            }
        }
    }

    /// A helper thread of the root split: searches the first root move beside the main
    /// thread (until the other moves open), then takes its share of them.
    pub(super) fn help(&mut self) {
        let split = &self.context.shared.split;
        let mut seen = 0;
        loop {
            if self.stopped() {
                return;
            }
            let generation = split.generation.load(Ordering::Acquire);
            if generation == seen {
                std::thread::yield_now();
                continue;
            }
            seen = generation;
            let order = split
                .order
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            let depth = split.depth.load(Ordering::Relaxed);
            let window = *split.window.lock().unwrap_or_else(PoisonError::into_inner);
            if generation % 2 == 1 {
                self.watch = Some(generation);
                self.iteration = depth;
                let undo = self.play(order[0].mv);
                self.negamax(depth as i32 - 1, 1, -INFINITE, INFINITE);
                self.take_back(&undo);
                self.watch = None;
            } else {
                self.take_moves(generation, &order, depth, window);
            }
            self.report_nodes();
            if self.stopped() {
                return;
            }
            self.aborted = false;
        }
    }
}
