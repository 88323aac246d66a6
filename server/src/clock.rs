//! The arithmetic of a game's clocks, one side at a time: what a turn of some length
//! leaves of a side's time, and how long the side to move may take. The referee keeps
//! the times and the turn's start; this is the rule, apart, so that it can be tested
//! apart.
//!
//! - Fischer: the main time runs; a move adds the increment.
//! - Byo-yomi: the main time runs; once it is out, each move must be made within one
//!   period, and a move that takes longer uses up a period (or more) and goes on in the
//!   next. A side with no period left loses.
//! - Correspondence: each move must be made within the time per move; the next move has
//!   it all again.

use std::time::Duration;

use hnefatafl_net::protocol::{ClockKind, ClockSpec};

/// What one side has left: main time (for correspondence, the time for this move) and
/// byo-yomi periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Left {
    pub(crate) time: Duration,
    pub(crate) periods: u32,
}

impl Left {
    /// A side's clock before its first move.
    pub(crate) fn full(spec: &ClockSpec) -> Left {
        let time = match spec.kind() {
            ClockKind::Correspondence => spec.move_ms,
            ClockKind::Fischer | ClockKind::ByoYomi => spec.main_ms,
        };
        Left {
            time: Duration::from_millis(time),
            periods: spec.periods,
        }
    }
}

fn period(spec: &ClockSpec) -> Duration {
    Duration::from_millis(spec.period_ms)
}

/// How long the side to move may take, from the start of its turn, before it loses.
pub(crate) fn allowance(spec: &ClockSpec, left: Left) -> Duration {
    match spec.kind() {
        ClockKind::ByoYomi => period(spec)
            .checked_mul(left.periods)
            .and_then(|periods| periods.checked_add(left.time))
            .unwrap_or(Duration::MAX),
        ClockKind::Fischer | ClockKind::Correspondence => left.time,
    }
}

/// Takes `used` off a side's clock; `None` when that is more than it had (it lost on
/// time). Nothing is added: this is the time spent, by a move or by a turn that an undo
/// cut short.
pub(crate) fn spend(spec: &ClockSpec, left: Left, used: Duration) -> Option<Left> {
    if used <= left.time {
        return Some(Left {
            time: left.time - used,
            periods: left.periods,
        });
    }
    if spec.kind() != ClockKind::ByoYomi || used > allowance(spec, left) {
        return None;
    }
    // Into the periods: a move within one uses none up, a longer one one for each whole
    // period it overran.
    let over = (used - left.time).as_nanos();
    let period = period(spec).as_nanos().max(1);
    let spent = u32::try_from((over - 1) / period).unwrap_or(u32::MAX);
    Some(Left {
        time: Duration::ZERO,
        periods: left.periods.saturating_sub(spent),
    })
}

/// A side's clock after a move that took `used`: spent, then the Fischer increment added,
/// or, for correspondence, the whole time per move again. `None` when it lost on time.
pub(crate) fn after_move(spec: &ClockSpec, left: Left, used: Duration) -> Option<Left> {
    let mut left = spend(spec, left, used)?;
    match spec.kind() {
        ClockKind::Fischer => {
            left.time = left
                .time
                .saturating_add(Duration::from_millis(spec.increment_ms));
        }
        ClockKind::Correspondence => left = Left::full(spec),
        ClockKind::ByoYomi => {}
    }
    Some(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    fn left(time: u64, periods: u32) -> Left {
        Left {
            time: ms(time),
            periods,
        }
    }

    #[test]
    fn fischer_spends_then_adds_the_increment() {
        let spec = ClockSpec::parse("1+2").expect("a clock");
        let full = Left::full(&spec);
        assert_eq!(full, left(60_000, 0));
        assert_eq!(after_move(&spec, full, ms(5000)), Some(left(57_000, 0)));
        assert_eq!(after_move(&spec, full, ms(60_000)), Some(left(2000, 0)));
        assert_eq!(after_move(&spec, full, ms(60_001)), None);
        assert_eq!(allowance(&spec, full), ms(60_000));
    }

    #[test]
    fn byo_yomi_uses_up_a_period_only_when_a_move_overruns_it() {
        // One minute, then three periods of ten seconds.
        let spec = ClockSpec::parse("1+3x10").expect("a clock");
        let full = Left::full(&spec);
        assert_eq!(full, left(60_000, 3));
        assert_eq!(allowance(&spec, full), ms(90_000));
        // Within the main time.
        assert_eq!(after_move(&spec, full, ms(59_000)), Some(left(1000, 3)));
        // Into the first period, but within it: no period is used up.
        assert_eq!(after_move(&spec, full, ms(70_000)), Some(left(0, 3)));
        // Over it by a little: one period gone.
        assert_eq!(after_move(&spec, full, ms(70_001)), Some(left(0, 2)));
        let overtime = left(0, 3);
        assert_eq!(after_move(&spec, overtime, ms(9_999)), Some(left(0, 3)));
        assert_eq!(after_move(&spec, overtime, ms(25_000)), Some(left(0, 1)));
        assert_eq!(after_move(&spec, overtime, ms(30_000)), Some(left(0, 1)));
        assert_eq!(after_move(&spec, overtime, ms(30_001)), None);
        assert_eq!(after_move(&spec, left(0, 1), ms(10_001)), None);
        assert_eq!(allowance(&spec, left(0, 1)), ms(10_000));
    }

    #[test]
    fn correspondence_gives_each_move_the_whole_time() {
        let spec = ClockSpec::parse("2d").expect("a clock");
        let day = 24 * 3600 * 1000;
        let full = Left::full(&spec);
        assert_eq!(full, left(2 * day, 0));
        assert_eq!(after_move(&spec, full, ms(2 * day - 1)), Some(full));
        assert_eq!(after_move(&spec, left(5, 0), ms(5)), Some(full));
        assert_eq!(after_move(&spec, full, ms(2 * day + 1)), None);
        // An undo spends without giving the time per move back.
        assert_eq!(spend(&spec, full, ms(day)), Some(left(day, 0)));
    }
}
