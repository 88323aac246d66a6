//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the key XOR the data, and the data. A reader accepts an
//! entry only if `key_word ^ data == key`, so an entry torn by two threads writing at once
//! is simply a miss: no locks and no data race.

use hnefatafl_core::{Move, Square};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least this.
    Lower = 1,
    /// The true score is at most this.
    Upper = 2,
    /// The true score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Best or refuting move, if any.
    pub mv: Option<Move>,
    /// Score, relative to the node (decisive scores count plies from the node).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: u32,
    /// What the score means.
    pub bound: Bound,
}

struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// A table of `2^k` slots, always replacing.
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: u64,
}

const SQUARE_BITS: u32 = 10;
const SQUARE_MASK: u64 = (1 << SQUARE_BITS) - 1;
const DEPTH_MASK: u64 = 0x7f;

fn pack(entry: &Entry) -> u64 {
    let mut data = u64::from(entry.score as u32);
    if let Some(mv) = entry.mv {
        data |= (u64::from(mv.from.code()) & SQUARE_MASK) << 32;
        data |= (u64::from(mv.to.code()) & SQUARE_MASK) << 42;
        data |= 1 << 61;
    }
    data |= (u64::from(entry.depth.min(DEPTH_MASK as u32)) & DEPTH_MASK) << 52;
    data |= (entry.bound as u64) << 59;
    data
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 59) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let square = |shift: u32| Square::from_code(((data >> shift) & SQUARE_MASK) as u16);
    let mv = match (data >> 61 & 1 == 1, square(32), square(42)) {
        (true, Some(from), Some(to)) => Some(Move::new(from, to)),
        _ => None,
    };
    Some(Entry {
        mv,
        score: data as u32 as i32,
        depth: ((data >> 52) & DEPTH_MASK) as u32,
        bound,
    })
}

impl Table {
    /// A table of about `mib` MiB; `None` for 0.
    pub fn new(mib: usize) -> Option<Table> {
        if mib == 0 {
            return None;
        }
        let bytes = mib.saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Slot>()).max(1);
        // The largest power of two that fits.
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let slots = (0..count)
            .map(|_| Slot {
                key_xor_data: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        let table = Table {
            slots,
            mask: count as u64 - 1,
        };
        // The zeroed allocation is mapped lazily: write every slot now, so that its pages
        // are not faulted in during the first search, where each fault costs time and
        // two threads faulting at once wait for each other in the kernel.
        table.clear();
        Some(table)
    }

    fn slot(&self, key: u64) -> &Slot {
        // The low bits choose the slot; the whole key is checked.
        &self.slots[(key & self.mask) as usize]
    }

    /// The entry stored for this key, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let key_xor_data = slot.key_xor_data.load(Ordering::Relaxed);
        if key_xor_data ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores an entry for this key, replacing what was there.
    pub fn store(&self, key: u64, entry: &Entry) {
        let data = pack(entry);
        let slot = self.slot(key);
        slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.key_xor_data.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let table = Table::new(1).expect("a table");
        let mv = Move::new(
            Square::new(30, 30).expect("a square"),
            Square::new(3, 0).expect("a square"),
        );
        let entry = Entry {
            mv: Some(mv),
            score: -999_990,
            depth: 12,
            bound: Bound::Upper,
        };
        table.store(0xdead_beef_1234_5678, &entry);
        assert_eq!(table.probe(0xdead_beef_1234_5678), Some(entry));
        // Same slot, other key: a miss.
        assert_eq!(table.probe(0xdead_beef_1234_5678 ^ (1 << 63)), None);
        let entry = Entry {
            mv: None,
            score: 42,
            depth: 0,
            bound: Bound::Exact,
        };
        table.store(7, &entry);
        assert_eq!(table.probe(7), Some(entry));
        table.clear();
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn no_table_for_zero() {
        assert!(Table::new(0).is_none());
    }
}
