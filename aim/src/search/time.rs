//! Time management: how much of its budget a search has used, and when, by the best
//! move's stability, no new depth starts.

use crate::limits::Plan;
use std::time::Duration;

/// How much of the budget is used.
pub(super) fn fraction(plan: &Plan, depth: u32, nodes: u64, elapsed: Duration) -> f32 {
    let used = if let Some(hard) = plan.hard_time {
        elapsed.as_secs_f32() / hard.as_secs_f32().max(1e-6)
    } else if let Some(limit) = plan.nodes {
        nodes as f32 / limit.max(1) as f32
    } else {
        depth as f32 / plan.depth.max(1) as f32
    };
    used.clamp(0.0, 1.0)
}

/// The time after which no new depth starts, by the best move's stability: half again
/// as long when the last depth changed the best move (the search has not settled; at most
/// 90% of the hard limit), and, on a clock, where time saved is kept for later moves, half
/// as long when the best move stood for three depths. The first depths, a few
/// milliseconds, change nothing.
pub(super) fn stable_soft_time(soft: Duration, plan: &Plan, depth: u32, stable: u32) -> Duration {
    if depth < STABLE_FROM_DEPTH {
        return soft;
    }
    if stable == 0 {
        let longer = soft.mul_f64(1.5);
        plan.hard_time
            .map_or(longer, |hard| longer.min(hard.mul_f64(0.9)))
            .max(soft)
    } else if stable >= 3 && plan.banked {
        soft / 2
    } else {
        soft
    }
}

/// The first depth whose best move says something of the search's stability.
const STABLE_FROM_DEPTH: u32 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(banked: bool) -> Plan {
        Plan {
            depth: crate::limits::MAX_DEPTH,
            soft_time: Some(Duration::from_millis(450)),
            banked,
            hard_time: Some(Duration::from_millis(1000)),
            nodes: None,
            noise: 0,
            random_move_percent: 0,
        }
    }

    #[test]
    fn the_soft_limit_follows_the_best_moves_stability() {
        let soft = Duration::from_millis(450);
        for banked in [false, true] {
            let plan = plan(banked);
            // The first depths change nothing.
            assert_eq!(
                stable_soft_time(soft, &plan, STABLE_FROM_DEPTH - 1, 0),
                soft
            );
            // A changed best move: half again as long.
            assert_eq!(
                stable_soft_time(soft, &plan, STABLE_FROM_DEPTH, 0),
                Duration::from_millis(675)
            );
            assert_eq!(stable_soft_time(soft, &plan, 9, 1), soft);
        }
        // Stable for three depths: half as long, only on a clock.
        assert_eq!(stable_soft_time(soft, &plan(false), 9, 3), soft);
        assert_eq!(
            stable_soft_time(soft, &plan(true), 9, 3),
            Duration::from_millis(225)
        );
        // Never past 90% of the hard limit.
        let tight = Duration::from_millis(800);
        assert_eq!(
            stable_soft_time(tight, &plan(true), 9, 0),
            Duration::from_millis(900)
        );
    }
}
