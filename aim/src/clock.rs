//! Game clocks and time management: how long a move may take when a clock is running.

use std::time::Duration;

/// The clock of the side to move, as a protocol or a server reports it before each move.
///
/// It covers the common time controls:
///
/// - **sudden death**: only `remaining` (e.g. 5 minutes for the whole game);
/// - **Fischer increment**: `remaining` plus `increment` added after each move
///   (1 minute + 1 second: `remaining: 60 s, increment: 1 s`);
/// - **byo-yomi** (overtime periods, as OpenTafl and Go servers use them): once `remaining`
///   is spent, each move must be made within one `overtime` period; a move that runs past
///   a period uses up one of the `overtimes` periods, and the game is lost when the last
///   one is used up;
/// - **moves to go** (classical controls, 40 moves in 2 hours): `moves_to_go` is the number
///   of moves, this one included, before the next control adds time.
///
/// A search gets its limits from a clock through [`Clock::budget`], usually by way of
/// [`Limits::from_clock`](crate::Limits::from_clock). The budget never spends more than the
/// clock holds, less a [`Clock::MARGIN`] for the time the move takes to reach the other
/// side.
///
/// ```
/// use aim::Clock;
/// use std::time::Duration;
///
/// // 1 minute + 1 second, 40 s left: a couple of seconds for this move, never 40.
/// let clock = Clock::fischer(Duration::from_secs(40), Duration::from_secs(1));
/// let budget = clock.budget();
/// assert!(budget.target <= budget.hard);
/// assert!(budget.hard < Duration::from_secs(40));
///
/// // After the move: 1.5 s used, the increment added.
/// let mut clock = clock;
/// clock.spend(Duration::from_millis(1500)).expect("in time");
/// assert_eq!(clock.remaining, Duration::from_millis(39_500));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Main time left on the clock of the side to move.
    pub remaining: Duration,
    /// Time added to `remaining` after each move (Fischer increment); zero for none.
    pub increment: Duration,
    /// Length of one overtime (byo-yomi) period; zero for none.
    pub overtime: Duration,
    /// Overtime periods left.
    pub overtimes: u32,
    /// Moves to make, this one included, before the next time control adds time; `None`
    /// when the main time must last the rest of the game.
    pub moves_to_go: Option<u32>,
}

/// How long one move may take: what [`Clock::budget`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The time the move should take on average. The search starts no new depth once
    /// about half of it is spent (more when the best move keeps changing, less when it is
    /// stable).
    pub target: Duration,
    /// The search stops at once after this, whatever it is doing. Never more than half
    /// the main time (plus an overtime period) less [`Clock::MARGIN`], or a quarter of
    /// what the clock holds when that is more, so a move searched to this limit still
    /// arrives in time.
    pub hard: Duration,
}

/// The clock ran out: [`Clock::spend`] was given more time than the clock held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of time")]
pub struct OutOfTime;

/// How many more moves the main time is assumed to last when `moves_to_go` is not given.
/// A tafl game on 11x11 lasts about 60 to 150 plies, 30 to 75 moves a side; 30 keeps time in
/// hand for a long game, and the increment (spent in full) carries the rest.
const ASSUMED_MOVES_LEFT: u32 = 30;

/// The hard limit is at most this many times the target.
const HARD_PER_TARGET: u32 = 3;

/// The part of the increment a move's target spends.
const INCREMENT_SPENT: f64 = 0.8;

impl Clock {
    /// Time held back from every move for what happens outside the search: sending the
    /// move, the other side's reading of it, a busy machine's scheduling. 50 ms.
    pub const MARGIN: Duration = Duration::from_millis(50);

    /// A clock with main time and a Fischer increment, nothing else.
    pub fn fischer(remaining: Duration, increment: Duration) -> Clock {
        Clock {
            remaining,
            increment,
            ..Clock::default()
        }
    }

    /// A clock with main time and `overtimes` byo-yomi periods of `overtime` each.
    pub fn byo_yomi(remaining: Duration, overtime: Duration, overtimes: u32) -> Clock {
        Clock {
            remaining,
            overtime,
            overtimes,
            ..Clock::default()
        }
    }

    /// The most this move may take without losing on time (or an overtime period),
    /// before the margin: the main time, plus one overtime period when one is left.
    fn available(&self) -> Duration {
        if self.overtimes > 0 {
            self.remaining + self.overtime
        } else {
            self.remaining
        }
    }

    /// The time for this move.
    ///
    /// The target is an even share of the main time over the moves to go (or over an
    /// assumed 30 more moves), plus 80% of the increment, which comes back after the move
    /// (the other 20% builds a reserve: with 1 s a move the main time settles near 6 s
    /// rather than near nothing). With overtime periods left, the target is at least 80%
    /// of one period, since a period comes back whole after each move. The hard limit is
    /// three times the target and never more than half the main time (all of it on the
    /// last move before a control) plus one period, less [`Clock::MARGIN`]: a move that
    /// runs past its limit on a busy machine still has time in hand. On a clock holding
    /// less than four margins the limit is a quarter of what it holds, so some search is
    /// still done and the move is still in time. A clock with nothing left gives one
    /// millisecond: the search plays its statically best move at once.
    pub fn budget(&self) -> Budget {
        let available = self.available();
        let main_share = if self.moves_to_go == Some(1) {
            self.remaining
        } else {
            self.remaining / 2
        };
        let periods = if self.overtimes > 0 {
            self.overtime
        } else {
            Duration::ZERO
        };
        let hard_cap = (main_share + periods)
            .saturating_sub(Clock::MARGIN)
            .max(available / 4)
            .max(Duration::from_millis(1));
        let moves = self.moves_to_go.unwrap_or(ASSUMED_MOVES_LEFT).max(1);
        let mut target = self.remaining / moves;
        // Most of the increment comes back after the move: spend it, but never more than
        // the main time left.
        target += self.increment.mul_f64(INCREMENT_SPENT).min(self.remaining);
        if self.overtimes > 0 {
            target = target.max(self.overtime.mul_f64(0.8));
        }
        let target = target.clamp(Duration::from_millis(1), hard_cap);
        let hard = (target * HARD_PER_TARGET).min(hard_cap);
        Budget { target, hard }
    }

    /// Books a move that took `used`: takes it from the main time, then from the overtime
    /// periods (each period run past is used up; the time within a period comes back after
    /// the move), adds the increment and counts down `moves_to_go`. When `moves_to_go`
    /// reaches 0, the next control is the caller's to add (its time and its move count).
    ///
    /// # Errors
    ///
    /// [`OutOfTime`] when the move took longer than the main time and every overtime
    /// period left; the clock then shows no time left.
    pub fn spend(&mut self, used: Duration) -> Result<(), OutOfTime> {
        if let Some(moves) = &mut self.moves_to_go {
            *moves = moves.saturating_sub(1);
        }
        if used <= self.remaining {
            self.remaining = self.remaining - used + self.increment;
            return Ok(());
        }
        let mut over = used - self.remaining;
        self.remaining = Duration::ZERO;
        // Byo-yomi: the move may run through whole periods, losing each one it finishes.
        while self.overtimes > 0 && !self.overtime.is_zero() {
            if over < self.overtime {
                self.remaining = self.increment;
                return Ok(());
            }
            over -= self.overtime;
            self.overtimes -= 1;
        }
        self.overtimes = 0;
        Err(OutOfTime)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    const fn millis(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn sudden_death_shares_the_time() {
        let budget = Clock::fischer(secs(300), Duration::ZERO).budget();
        assert_eq!(budget.target, secs(10));
        assert_eq!(budget.hard, secs(30));
        // Never more than half the clock on one move.
        let budget = Clock {
            moves_to_go: Some(2),
            ..Clock::fischer(secs(10), Duration::ZERO)
        }
        .budget();
        assert_eq!(budget.hard, secs(5) - Clock::MARGIN);
    }

    #[test]
    fn increment_is_spent() {
        let budget = Clock::fischer(secs(60), secs(1)).budget();
        assert_eq!(budget.target, millis(2800));
        assert_eq!(budget.hard, millis(8400));
        // Where the main time settles with 1 s a move: each move at its target keeps it.
        let mut clock = Clock::fischer(secs(6), secs(1));
        clock.spend(clock.budget().target).expect("in time");
        assert_eq!(clock.remaining, secs(6));
        // Nearly flagged: the increment is not counted on, the margin is kept.
        let budget = Clock::fischer(millis(500), secs(1)).budget();
        assert!(budget.hard <= millis(450), "{budget:?}");
        assert!(budget.target <= budget.hard);
    }

    #[test]
    fn moves_to_go_shares_the_time_among_them() {
        let clock = Clock {
            remaining: secs(100),
            moves_to_go: Some(10),
            ..Clock::default()
        };
        assert_eq!(clock.budget().target, secs(10));
        // The last move before the control may use everything but the margin.
        let clock = Clock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(clock.budget().hard, secs(100) - Clock::MARGIN);
    }

    #[test]
    fn overtime_is_used_once_the_main_time_is_gone() {
        let clock = Clock::byo_yomi(Duration::ZERO, secs(10), 3);
        let budget = clock.budget();
        assert_eq!(budget.target, secs(8));
        assert_eq!(budget.hard, secs(10) - Clock::MARGIN);
        // No period left: nothing left at all.
        let clock = Clock::byo_yomi(Duration::ZERO, secs(10), 0);
        assert_eq!(clock.budget().hard, millis(1));
    }

    #[test]
    fn tiny_clocks_still_leave_time_to_send_the_move() {
        let budget = Clock::fischer(millis(40), Duration::ZERO).budget();
        assert!(
            !budget.hard.is_zero() && budget.hard <= millis(10),
            "{budget:?}"
        );
    }

    #[test]
    fn spending_books_the_time() {
        let mut clock = Clock::fischer(secs(10), secs(1));
        clock.spend(secs(4)).expect("in time");
        assert_eq!(clock.remaining, secs(7));
        assert_eq!(clock.spend(secs(8)), Err(OutOfTime));
        assert_eq!(clock.remaining, Duration::ZERO);

        let mut clock = Clock::byo_yomi(secs(5), secs(10), 2);
        // Main time and part of a period: the period comes back whole.
        clock.spend(secs(12)).expect("in time");
        assert_eq!((clock.remaining, clock.overtimes), (Duration::ZERO, 2));
        // Past one period: it is used up.
        clock.spend(secs(15)).expect("in time");
        assert_eq!(clock.overtimes, 1);
        assert_eq!(clock.spend(secs(10)), Err(OutOfTime));
        assert_eq!(clock.overtimes, 0);

        let mut clock = Clock {
            remaining: secs(60),
            moves_to_go: Some(2),
            ..Clock::default()
        };
        clock.spend(secs(1)).expect("in time");
        assert_eq!(clock.moves_to_go, Some(1));
    }

    proptest! {
        /// A move searched to its hard limit is always in time, and leaves the margin when
        /// the clock holds more than four margins.
        #[test]
        fn the_hard_limit_never_loses_on_time(remaining in 0u64..1_000_000,
                                              increment in 0u64..30_000,
                                              overtime in 0u64..60_000,
                                              overtimes in 0u32..5,
                                              moves_to_go in proptest::option::of(0u32..100)) {
            let clock = Clock {
                remaining: millis(remaining),
                increment: millis(increment),
                overtime: millis(overtime),
                overtimes,
                moves_to_go,
            };
            let budget = clock.budget();
            prop_assert!(budget.target <= budget.hard);
            prop_assert!(!budget.hard.is_zero());
            let available = clock.available();
            if available >= Clock::MARGIN * 4 {
                prop_assert!(budget.hard + Clock::MARGIN <= available, "{:?}", budget);
                let mut after = clock;
                prop_assert_eq!(after.spend(budget.hard), Ok(()));
                prop_assert!(after.overtimes == clock.overtimes);
            }
        }
    }
}
