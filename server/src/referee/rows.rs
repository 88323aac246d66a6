//! The storage keeps rows of its own ([`crate::storage`]); the wire's types are mapped onto
//! them at this seam, and back when a game is resumed.

use std::time::Duration;

use hnefatafl_net::protocol::{ClockKind, ClockSpec, GameResult, SeekTerms};

use crate::clock::Left;
use crate::storage::{StoredClock, StoredClocks, StoredResult, StoredSeek};

pub(super) fn stored_clock(clock: ClockSpec) -> StoredClock {
    StoredClock {
        main_ms: clock.main_ms,
        increment_ms: clock.increment_ms,
        periods: clock.periods,
        period_ms: clock.period_ms,
        move_ms: clock.move_ms,
    }
}

pub(super) fn wire_clock(clock: StoredClock) -> ClockSpec {
    ClockSpec {
        main_ms: clock.main_ms,
        increment_ms: clock.increment_ms,
        periods: clock.periods,
        period_ms: clock.period_ms,
        move_ms: clock.move_ms,
    }
}

pub(super) fn stored_clocks(left: &[Left; 2]) -> StoredClocks {
    StoredClocks {
        times: left.map(|side| millis(side.time)),
        periods: left.map(|side| side.periods),
    }
}

pub(super) fn live_clocks(stored: StoredClocks) -> [Left; 2] {
    [0, 1].map(|side| Left {
        time: Duration::from_millis(stored.times[side]),
        periods: stored.periods[side],
    })
}

/// Both sides' byo-yomi periods left, for the wire, when the clock has periods.
pub(super) fn wire_periods(clock: Option<ClockSpec>, left: &[Left; 2]) -> Option<[u32; 2]> {
    clock
        .filter(|clock| clock.kind() == ClockKind::ByoYomi)
        .map(|_| left.map(|side| side.periods))
}

/// A duration in whole milliseconds, as the wire and the storage count time.
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

pub(super) fn stored_result(result: &GameResult) -> StoredResult {
    StoredResult {
        winner: result.winner,
        reason: result.reason.to_string(),
    }
}

/// A stored result as the wire has it; the database keeps the reason in
/// [`EndCause`](protocol::EndCause)'s words.
pub(super) fn wire_result(result: StoredResult) -> Result<GameResult, String> {
    let reason = result
        .reason
        .parse()
        .map_err(|error| format!("its result: {error}"))?;
    Ok(GameResult {
        winner: result.winner,
        reason,
    })
}

pub(super) fn stored_seek(terms: &SeekTerms) -> StoredSeek {
    StoredSeek {
        to: terms.to.clone(),
        min_rating: terms.min_rating,
        max_rating: terms.max_rating,
    }
}

pub(super) fn wire_seek(seek: StoredSeek) -> SeekTerms {
    SeekTerms {
        to: seek.to,
        min_rating: seek.min_rating,
        max_rating: seek.max_rating,
    }
}
