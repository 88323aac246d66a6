//! What the search learns about quiet moves as it goes, to order them: the history
//! heuristic's tables (shared between threads) and each thread's killer moves.

use crate::classic::Tables;
use hnefatafl_core::Move;
use std::sync::atomic::{AtomicI32, Ordering};

/// A history count past which every count of the table is halved, so that the counts stay
/// well below the ordering keys of the killers and the captures.
const HALVE_ABOVE: i32 = 500_000;

/// The history heuristic's tables of one search, one count per origin and destination
/// square: the quiet moves that cut off, weighted by the depth. The threads of a root split
/// share one table, ordering their moves by it and adding to it, so that each learns from
/// the whole tree, not from its share of it (the helpers of Lazy SMP keep one each, for
/// their searches to differ). Relaxed loads and stores: an add that races another may be
/// lost, which a move order can bear; one thread alone counts exactly as with a table of
/// its own.
pub(crate) struct HistoryTables {
    counts: Vec<AtomicI32>,
    /// The counts of one table.
    len: usize,
}

impl HistoryTables {
    /// `tables` empty tables for a board of `squares` squares.
    pub(crate) fn new(squares: usize, tables: usize) -> HistoryTables {
        let len = squares * squares;
        HistoryTables {
            counts: (0..len * tables).map(|_| AtomicI32::new(0)).collect(),
            len,
        }
    }

    /// The history table of a search thread (0: the main thread): the one table when there
    /// is one, else the thread's own.
    pub(crate) fn of_thread(&self, thread: usize) -> History<'_> {
        let start = (thread * self.len) % self.counts.len();
        History {
            counts: &self.counts[start..start + self.len],
        }
    }
}

/// One history table, as a search thread reads and adds to it.
#[derive(Clone, Copy)]
pub(crate) struct History<'a> {
    counts: &'a [AtomicI32],
}

impl History<'_> {
    fn count(&self, tables: &Tables, mv: Move) -> &AtomicI32 {
        &self.counts[tables.index(mv.from()) * tables.square_count + tables.index(mv.to())]
    }

    /// The move's count.
    #[inline]
    pub(crate) fn score(&self, tables: &Tables, mv: Move) -> i32 {
        self.count(tables, mv).load(Ordering::Relaxed)
    }

    /// A quiet move cut off at this depth: its count grows by the depth squared.
    pub(crate) fn reward(&self, tables: &Tables, mv: Move, depth: i32) {
        let count = self.count(tables, mv);
        let added = count.load(Ordering::Relaxed) + depth * depth;
        count.store(added, Ordering::Relaxed);
        if added > HALVE_ABOVE {
            for count in self.counts {
                count.store(count.load(Ordering::Relaxed) / 2, Ordering::Relaxed);
            }
        }
    }
}

/// A search thread's killer moves: per ply, the last two quiet moves that cut off there.
pub(crate) struct Killers {
    slots: Vec<[Option<Move>; 2]>,
}

impl Killers {
    /// No killers yet, for `plies` plies.
    pub(crate) fn new(plies: usize) -> Killers {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// The killers of a ply, the newer first.
    #[inline]
    pub(crate) fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.slots[ply]
    }

    /// A quiet move cut off at this ply: it becomes the newer killer.
    pub(crate) fn add(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threads_of_a_root_split_share_one_history_and_lazy_smp_keeps_one_each() {
        let at = |history: History<'_>, index: usize| history.counts[index].load(Ordering::Relaxed);
        // A root split: what one thread counts, every thread reads.
        let split = HistoryTables::new(11, 1);
        split.of_thread(0).counts[7].store(9, Ordering::Relaxed);
        for thread in 0..4 {
            assert_eq!(split.of_thread(thread).counts.len(), 121);
            assert_eq!(at(split.of_thread(thread), 7), 9);
        }
        // Lazy SMP on three threads: three tables, none seeing another's counts.
        let lazy = HistoryTables::new(11, 3);
        for thread in 0..3 {
            lazy.of_thread(thread).counts[120].store(thread as i32 + 1, Ordering::Relaxed);
        }
        for thread in 0..3 {
            assert_eq!(lazy.of_thread(thread).counts.len(), 121);
            assert_eq!(at(lazy.of_thread(thread), 120), thread as i32 + 1);
            assert_eq!(at(lazy.of_thread(thread), 0), 0);
        }
    }
}
