//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the key XOR the data, and the data. A reader accepts an
//! entry only if `key_word ^ data == key`, so an entry torn by two threads writing at once
//! is simply a miss: no locks and no data race. The move is kept whole, a jump capture's
//! path included, so that a jump can be the hash move.

use hnefatafl_core::{Direction, Jumps, Move, Square};
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

// The data word, from bit 0: the score (21 bits, two's complement: decisive scores are
// about a million), the depth (7), the bound (2), whether there is a move (1), its from and
// to squares (10 each), and its jump path (13: a leading 1, then 2 bits a jump, first jump
// lowest, so up to six jumps; 0 for an ordinary move).
const SCORE_BITS: u32 = 21;
const DEPTH_SHIFT: u32 = SCORE_BITS;
const DEPTH_MASK: u64 = 0x7f;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 7;
const MOVE_FLAG: u64 = 1 << (BOUND_SHIFT + 2);
const FROM_SHIFT: u32 = BOUND_SHIFT + 3;
const TO_SHIFT: u32 = FROM_SHIFT + SQUARE_BITS;
const JUMPS_SHIFT: u32 = TO_SHIFT + SQUARE_BITS;
const SQUARE_BITS: u32 = 10;
const SQUARE_MASK: u64 = (1 << SQUARE_BITS) - 1;
/// The most jumps of a jump capture that the table keeps: a longer one is stored without
/// its move (six jumps in one move hardly ever happen).
pub(crate) const MAX_STORED_JUMPS: usize = ((64 - JUMPS_SHIFT - 1) / 2) as usize;

/// A jump path as the table keeps it, or `None` when it is too long.
fn pack_jumps(jumps: Jumps) -> Option<u64> {
    if jumps.len() > MAX_STORED_JUMPS {
        return None;
    }
    if jumps.is_empty() {
        return Some(0);
    }
    Some(
        jumps
            .iter()
            .enumerate()
            .fold(1 << (2 * jumps.len()), |code, (i, direction)| {
                code | (direction.index() as u64) << (2 * i)
            }),
    )
}

/// The jump path of [`pack_jumps`].
fn unpack_jumps(code: u64) -> Option<Jumps> {
    if code == 0 {
        return Some(Jumps::EMPTY);
    }
    let len = (63 - code.leading_zeros()) / 2;
    (0..len).try_fold(Jumps::EMPTY, |jumps, i| {
        jumps.with(Direction::from_index(((code >> (2 * i)) & 3) as usize)?)
    })
}

fn pack(entry: &Entry) -> u64 {
    debug_assert!(entry.score.unsigned_abs() < 1 << (SCORE_BITS - 1));
    let mut data = u64::from(entry.score as u32) & ((1 << SCORE_BITS) - 1);
    if let Some((mv, jumps)) = entry.mv.and_then(|mv| Some((mv, pack_jumps(mv.jumps())?))) {
        data |= (u64::from(mv.from().code()) & SQUARE_MASK) << FROM_SHIFT;
        data |= (u64::from(mv.to().code()) & SQUARE_MASK) << TO_SHIFT;
        data |= jumps << JUMPS_SHIFT;
        data |= MOVE_FLAG;
    }
    data |= (u64::from(entry.depth.min(DEPTH_MASK as u32)) & DEPTH_MASK) << DEPTH_SHIFT;
    data |= (entry.bound as u64) << BOUND_SHIFT;
    data
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let square = |shift: u32| Square::from_code(((data >> shift) & SQUARE_MASK) as u16);
    let mv = match (
        data & MOVE_FLAG != 0,
        square(FROM_SHIFT),
        square(TO_SHIFT),
        unpack_jumps(data >> JUMPS_SHIFT),
    ) {
        (true, Some(from), Some(to), Some(jumps)) => Move::with_jumps(from, to, jumps).ok(),
        _ => None,
    };
    // The score's 21 bits, sign-extended.
    let score = ((data << (64 - SCORE_BITS)) as i64 >> (64 - SCORE_BITS)) as i32;
    Some(Entry {
        mv,
        score,
        depth: ((data >> DEPTH_SHIFT) & DEPTH_MASK) as u32,
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
    use crate::Score;

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

    /// The jump captures of random halatafl games, the longest first.
    fn halatafl_jumps() -> Vec<Move> {
        let rules = hnefatafl_core::Rules::parse(include_bytes!("../../data/rules/halatafl"))
            .expect("the shipped halatafl rules");
        let mut jumps = Vec::new();
        for seed in 0..40 {
            let game = hnefatafl_core::random::random_opening(&rules, 60, seed);
            let mut position = rules.start_position();
            for mv in game.moves() {
                position.for_each_move(|m| {
                    if !m.jumps().is_empty() {
                        jumps.push(m);
                    }
                });
                position.play(mv);
            }
        }
        jumps.sort_by_key(|m| std::cmp::Reverse(m.jumps().len()));
        jumps.dedup();
        jumps
    }

    #[test]
    fn keeps_a_jump_capture_whole() {
        let jumps = halatafl_jumps();
        assert!(jumps.len() > 10, "too few jump captures: {}", jumps.len());
        assert!(jumps[0].jumps().len() >= 2, "no jump capture of two jumps");
        let table = Table::new(1).expect("a table");
        for (key, mv) in (1u64..).zip(jumps) {
            let entry = Entry {
                mv: Some(mv),
                score: -Score::MATE + 3,
                depth: 100,
                bound: Bound::Lower,
            };
            table.store(key, &entry);
            assert_eq!(table.probe(key), Some(entry), "{mv}");
        }
    }

    #[test]
    fn a_jump_path_too_long_to_keep_is_stored_without_its_move() {
        let from = Square::new(0, 0).expect("a square");
        let path = (0..=MAX_STORED_JUMPS).try_fold(Jumps::EMPTY, |jumps, i| {
            jumps.with(if i % 2 == 0 {
                Direction::East
            } else {
                Direction::South
            })
        });
        let mv = Move::jump(from, path.expect("a path of seven jumps")).expect("on the board");
        let entry = Entry {
            mv: Some(mv),
            score: 12,
            depth: 3,
            bound: Bound::Exact,
        };
        let table = Table::new(1).expect("a table");
        table.store(9, &entry);
        assert_eq!(table.probe(9), Some(Entry { mv: None, ..entry }));
    }

    #[test]
    fn no_table_for_zero() {
        assert!(Table::new(0).is_none());
    }
}
