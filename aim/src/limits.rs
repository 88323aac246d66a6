//! Search limits, the words that name them and the difficulty levels.

use crate::clock::Clock;
use crate::evaluator::Evaluation;
use std::time::Duration;

/// What bounds a search. Empty limits mean the default level's limits.
///
/// ```
/// use aim::{Clock, Limits};
/// use std::time::Duration;
///
/// // Level 3 on two threads, as `p 1 c 3 j2` asks for it.
/// let limits = Limits::from_words(&["3", "j2"]).expect("valid words");
/// assert_eq!((limits.level, limits.threads), (Some(3), Some(2)));
///
/// // A protocol's clock: 1 minute + 1 second per move.
/// let limits = Limits::from_clock(Clock::fischer(Duration::from_secs(60), Duration::from_secs(1)));
/// assert!(limits.clock.is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Time for the move.
    pub time: Option<Duration>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Difficulty level (1 = beginner, up to [`MAX_LEVEL`]), which sets limits and, for the
    /// weak levels, deliberate imperfection. Explicit limits above override the level's.
    pub level: Option<u32>,
    /// Search threads for this search, overriding
    /// [`EngineConfig::threads`](crate::EngineConfig::threads) (the limit word `j<N>`).
    pub threads: Option<usize>,
    /// The clock of the side to move: the time for the move comes from its
    /// [`Clock::budget`], in place of the level's time. With `time` as well, the smaller
    /// hard limit applies.
    pub clock: Option<Clock>,
    /// The evaluation asked for (the limit word `eval=classic` or `eval=network`); without
    /// it, the engine's network where it has one that fits the rules
    /// ([`Engine::set_network`](crate::Engine::set_network), the one place a network is
    /// given), else the classic evaluation.
    pub evaluation: Option<Evaluation>,
    /// How many best moves an analysis reports, each with its line (the limit word
    /// `lines=3`, read by [`Engine::search_lines`](crate::Engine::search_lines)); a move's
    /// search ([`Engine::search`](crate::Engine::search)) looks for one whatever it says.
    pub lines: Option<usize>,
}

/// The most lines an analysis may ask for (`lines=`).
pub const MAX_LINES: usize = 64;

/// The strongest difficulty level.
pub const MAX_LEVEL: u32 = 6;

/// The level used when no limit at all is given.
pub const DEFAULT_LEVEL: u32 = 3;

/// The most search threads a limit word may ask for.
pub const MAX_THREADS: usize = 1024;

/// The deepest search the engine will try; a front end refuses a deeper `d` limit.
pub const MAX_DEPTH: u32 = 100;

/// A limit word that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad limit `{0}`")]
pub struct LimitsError(pub String);

impl Limits {
    /// Limits that come from a clock alone: the time for the move is the clock's
    /// [`Clock::budget`], searched at full strength.
    pub fn from_clock(clock: Clock) -> Limits {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }

    /// The words that [`Limits::from_words`] reads back to these limits. A clock has no
    /// word: it comes from a protocol or a server, not from a player's command.
    pub fn to_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(level) = self.level {
            words.push(level.to_string());
        }
        if let Some(depth) = self.depth {
            words.push(format!("d{depth}"));
        }
        if let Some(time) = self.time {
            let nanos = time.subsec_nanos();
            if nanos == 0 {
                words.push(format!("t{}", time.as_secs()));
            } else {
                let fraction = format!("{nanos:09}");
                words.push(format!(
                    "t{}.{}",
                    time.as_secs(),
                    fraction.trim_end_matches('0')
                ));
            }
        }
        if let Some(nodes) = self.nodes {
            words.push(format!("n{nodes}"));
        }
        if let Some(threads) = self.threads {
            words.push(format!("j{threads}"));
        }
        if let Some(evaluation) = self.evaluation {
            words.push(format!("{}={}", Evaluation::KEY, evaluation.word()));
        }
        if let Some(lines) = self.lines {
            words.push(format!("lines={lines}"));
        }
        words
    }
}

/// What a search will actually do: the limits resolved against the level.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    /// Deepest iteration.
    pub depth: u32,
    /// Stop starting new iterations after this.
    pub soft_time: Option<Duration>,
    /// The time comes from a clock, so time saved on one move is there for the next.
    pub banked: bool,
    /// Stop searching at once after this.
    pub hard_time: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Largest random amount added to each root move's score (weak levels).
    pub noise: i32,
    /// Chance in percent of playing a random legal move (weak levels).
    pub random_move_percent: u32,
}

/// The limits of each level. Levels 1 and 2 play with deliberate mistakes; 3 to 6 are
/// time-based and play their best.
fn level_plan(level: u32) -> Plan {
    let timed = |millis: u64| Plan {
        depth: MAX_DEPTH,
        soft_time: None,
        banked: false,
        hard_time: Some(Duration::from_millis(millis)),
        nodes: None,
        noise: 0,
        random_move_percent: 0,
    };
    let mut plan = match level {
        0 | 1 => Plan {
            depth: 1,
            noise: 150,
            random_move_percent: 20,
            ..timed(1000)
        },
        2 => Plan {
            depth: 2,
            noise: 50,
            random_move_percent: 5,
            ..timed(1000)
        },
        3 => timed(1500),
        4 => timed(3000),
        5 => timed(6000),
        _ => timed(15000),
    };
    plan.soft_time = plan.hard_time.map(soft_of);
    plan
}

/// The time after which no new iteration starts: the next one would rarely finish.
fn soft_of(hard: Duration) -> Duration {
    hard.mul_f64(0.45)
}

impl Limits {
    /// The longest a move may take under these limits, the level's clock included; `None`
    /// when only depth or nodes bound the search.
    pub fn move_time(&self) -> Option<Duration> {
        self.plan().hard_time
    }

    /// Resolves the limits against the level (the default level when all are empty).
    pub(crate) fn plan(&self) -> Plan {
        let all_empty = self.depth.is_none() && self.time.is_none() && self.nodes.is_none();
        let mut plan = match self.level {
            Some(level) => level_plan(level),
            None if all_empty => level_plan(DEFAULT_LEVEL),
            None => Plan {
                depth: MAX_DEPTH,
                soft_time: None,
                banked: false,
                hard_time: None,
                nodes: None,
                noise: 0,
                random_move_percent: 0,
            },
        };
        if let Some(depth) = self.depth {
            plan.depth = depth.clamp(1, MAX_DEPTH);
            if self.time.is_none() && self.level.is_some() {
                // An explicit depth with a level: the depth rules, not the level's clock.
                plan.hard_time = None;
                plan.soft_time = None;
            }
        }
        if let Some(time) = self.time {
            plan.hard_time = Some(time);
            plan.soft_time = Some(soft_of(time));
        }
        if let Some(nodes) = self.nodes {
            plan.nodes = Some(nodes);
        }
        if let Some(clock) = &self.clock {
            let budget = clock.budget();
            let hard = match self.time {
                Some(time) => budget.hard.min(time),
                None => budget.hard,
            };
            plan.hard_time = Some(hard);
            plan.banked = true;
            // A level keeps its depth and imperfection; the clock only says how long.
            plan.soft_time = Some((budget.target / 2).min(soft_of(hard)));
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_words() {
        let limits = Limits::from_words(&["d4", "t2.5", "n1000", "3", "J2"]).expect("valid words");
        assert_eq!(limits.threads, Some(2));
        assert_eq!(limits.depth, Some(4));
        assert_eq!(limits.time, Some(Duration::from_millis(2500)));
        assert_eq!(limits.nodes, Some(1000));
        assert_eq!(limits.level, Some(3));
        assert_eq!(Limits::from_words(&[]), Ok(Limits::default()));
        assert_eq!(
            Limits::from_words(&["t.5"]).map(|l| l.time),
            Ok(Some(Duration::from_millis(500)))
        );
        let words = ["3", "eval=classic"];
        assert_eq!(
            Limits::from_words(&words).map(|l| l.evaluation),
            Ok(Some(Evaluation::Classic))
        );
        assert_eq!(
            Limits::from_words(&["EVAL=Network"]).map(|l| l.evaluation),
            Ok(Some(Evaluation::Network))
        );
    }

    #[test]
    fn refuses_bad_words() {
        for word in [
            "",
            "d",
            "d0",
            "dx",
            "t",
            "t0",
            "t-1",
            "t1.2.3",
            "t1.0000000001",
            "n0",
            "0",
            "7",
            "x3",
            "d99999999999",
            "j",
            "j0",
            "j1025",
            "jx",
            "eval",
            "eval=",
            "eval=neural",
            "evals=classic",
            "=classic",
        ] {
            assert_eq!(
                Limits::from_words(&[word]),
                Err(LimitsError(word.to_string())),
                "{word}"
            );
        }
    }

    #[test]
    fn empty_limits_are_the_default_level() {
        assert_eq!(Limits::default().plan(), level_plan(DEFAULT_LEVEL));
        let plan = Limits {
            depth: Some(3),
            ..Limits::default()
        }
        .plan();
        assert_eq!((plan.depth, plan.hard_time, plan.noise), (3, None, 0));
        let plan = Limits {
            level: Some(1),
            time: Some(Duration::from_secs(2)),
            ..Limits::default()
        }
        .plan();
        assert_eq!(
            (plan.depth, plan.hard_time),
            (1, Some(Duration::from_secs(2)))
        );
    }

    #[test]
    fn a_clock_sets_the_time() {
        let clock = Clock::fischer(Duration::from_secs(60), Duration::from_secs(1));
        let budget = clock.budget();
        let plan = Limits::from_clock(clock).plan();
        assert_eq!(plan.hard_time, Some(budget.hard));
        assert_eq!(plan.soft_time, Some(budget.target / 2));
        assert_eq!((plan.depth, plan.noise), (MAX_DEPTH, 0));
        // A shorter explicit time wins; a level keeps its imperfection, not its time.
        let limits = Limits {
            time: Some(Duration::from_millis(100)),
            level: Some(1),
            ..Limits::from_clock(clock)
        };
        let plan = limits.plan();
        assert_eq!(plan.hard_time, Some(Duration::from_millis(100)));
        assert_eq!(plan.noise, level_plan(1).noise);
    }

    proptest! {
        #[test]
        fn words_round_trip(depth in proptest::option::of(1u32..1000),
                            millis in proptest::option::of(1u64..10_000_000),
                            nanos in 0u32..1_000_000,
                            nodes in proptest::option::of(1u64..u64::MAX),
                            level in proptest::option::of(1..=MAX_LEVEL),
                            threads in proptest::option::of(1..=MAX_THREADS),
                            evaluation in proptest::option::of(proptest::sample::select(Evaluation::ALL.to_vec())),
                            lines in proptest::option::of(1..=MAX_LINES)) {
            let time = millis.map(|m| Duration::from_millis(m) + Duration::from_nanos(u64::from(nanos)));
            let limits = Limits { depth, time, nodes, level, threads, clock: None, evaluation, lines };
            let words = limits.to_words();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            prop_assert_eq!(Limits::from_words(&words), Ok(limits));
        }
    }
}
