//! Reproducible random numbers and random openings, for keys, tests, benchmarks and the
//! weak levels of computer players.
//!
//! The generator is splitmix64: tiny, fast, and the same numbers from the same seed on
//! every machine, which is what keys and reproducible games need. (The `rand` crates
//! offer it too, but pull in far more than these few lines; nothing here needs
//! cryptographic quality.)

use crate::{Game, Rules};

/// The splitmix64 generator: a 64-bit state stepped by a constant and mixed.
///
/// ```
/// use hnefatafl_core::random::SplitMix;
/// let mut a = SplitMix::new(7);
/// let mut b = SplitMix::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    /// The step added to the state for each number (the golden ratio's fraction).
    const STEP: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator from a seed; equal seeds give equal sequences.
    ///
    /// ```
    /// use hnefatafl_core::random::SplitMix;
    /// assert_ne!(SplitMix::new(1).next_u64(), SplitMix::new(2).next_u64());
    /// ```
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix { state: seed }
    }

    /// The next number of the sequence.
    ///
    /// ```
    /// use hnefatafl_core::random::SplitMix;
    /// // The first output of seed 0, as published with the algorithm.
    /// assert_eq!(SplitMix::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(SplitMix::STEP);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`, or 0 when `n` is 0.
    ///
    /// ```
    /// use hnefatafl_core::random::SplitMix;
    /// let mut random = SplitMix::new(3);
    /// assert!((0..100).all(|_| random.below(6) < 6));
    /// assert_eq!(random.below(0), 0);
    /// ```
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }
}

/// A game after `plies` random legal moves from the start (fewer if it ends first), the
/// same for the same seed: each move is drawn with [`SplitMix::below`] from
/// [`Game::legal_moves`].
///
/// ```
/// use hnefatafl_core::Rules;
/// use hnefatafl_core::random::random_opening;
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let game = random_opening(&rules, 6, 42);
/// assert_eq!(game.ply(), 6);
/// assert!(game.moves().eq(random_opening(&rules, 6, 42).moves()));
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
pub fn random_opening(rules: &Rules, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(rules.clone());
    let mut random = SplitMix::new(seed);
    for _ in 0..plies {
        let count = game.legal_moves().count();
        let Some(mv) = game.legal_moves().nth(random.below(count)) else {
            break;
        };
        game.play_unchecked(mv);
    }
    game
}
