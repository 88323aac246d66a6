//! Game clocks as the wire gives them ([`ClockSpec`]), and the clock words players type
//! (`5+3`, `10+3x30`, `3d`) that [`ClockSpec::parse`] reads and `Display` writes.

use serde::{Deserialize, Serialize};

/// A game clock, in milliseconds, of one of three kinds ([`ClockKind`]):
///
/// - Fischer: `main_ms` for the game, `increment_ms` added after each move;
/// - byo-yomi: `main_ms`, then `periods` periods of `period_ms` each: once the main time
///   is out each move must be made within a period, and a move that takes longer uses
///   one up;
/// - correspondence: `move_ms` for each move, on the wall clock (whole days, typically).
///
/// The fields of the other kinds are 0, and left out of the message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Each player's main time (0 for correspondence; may be 0 for byo-yomi).
    pub main_ms: u64,
    /// Time added after each move (Fischer only).
    pub increment_ms: u64,
    /// Byo-yomi periods after the main time.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub periods: u32,
    /// The length of one byo-yomi period.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub period_ms: u64,
    /// Correspondence: the time for each move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub move_ms: u64,
}

/// The kind of a [`ClockSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockKind {
    /// Main time plus an increment per move.
    Fischer,
    /// Main time, then periods.
    ByoYomi,
    /// A time for each move.
    Correspondence,
}

fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The most of any one quantity of a clock word: minutes, seconds, days or periods.
const CLOCK_LIMIT: f64 = 1e6;

/// Milliseconds in a day.
const DAY_MS: f64 = 24.0 * 3600.0 * 1000.0;

impl ClockSpec {
    /// A Fischer clock.
    pub const fn fischer(main_ms: u64, increment_ms: u64) -> ClockSpec {
        ClockSpec {
            main_ms,
            increment_ms,
            periods: 0,
            period_ms: 0,
            move_ms: 0,
        }
    }

    /// The clock's kind: correspondence when it has a time per move, byo-yomi when it
    /// has periods, Fischer otherwise.
    pub fn kind(&self) -> ClockKind {
        if self.move_ms > 0 {
            ClockKind::Correspondence
        } else if self.periods > 0 || self.period_ms > 0 {
            ClockKind::ByoYomi
        } else {
            ClockKind::Fischer
        }
    }

    /// Checks that the fields make one clock of one kind, and answers what is wrong in
    /// words.
    ///
    /// # Errors
    ///
    /// A Fischer clock without main time, a byo-yomi clock without periods or their
    /// length or with an increment, a correspondence clock with any other field.
    pub fn check(&self) -> Result<(), String> {
        match self.kind() {
            ClockKind::Fischer if self.main_ms == 0 => {
                Err("a clock needs some main time".to_owned())
            }
            ClockKind::ByoYomi if self.periods == 0 || self.period_ms == 0 => {
                Err("a byo-yomi clock needs periods of some length".to_owned())
            }
            ClockKind::ByoYomi if self.increment_ms > 0 => {
                Err("a byo-yomi clock has no increment".to_owned())
            }
            ClockKind::Correspondence
                if self.main_ms > 0
                    || self.increment_ms > 0
                    || self.periods > 0
                    || self.period_ms > 0 =>
            {
                Err("a correspondence clock has a time per move and nothing else".to_owned())
            }
            _ => Ok(()),
        }
    }

    /// Reads the command line's clock word, decimals allowed everywhere:
    ///
    /// - `<minutes>+<seconds>`: Fischer, e.g. `5+3`; `<minutes>` alone for no increment;
    /// - `<minutes>+<periods>x<seconds>`: byo-yomi, e.g. `10+3x30` (ten minutes, then
    ///   three periods of 30 seconds); the minutes may be 0;
    /// - `<days>d`: correspondence, e.g. `3d` (three days for each move).
    pub fn parse(word: &str) -> Option<ClockSpec> {
        let number = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|value| (0.0..CLOCK_LIMIT).contains(value))
        };
        let millis = |value: f64, unit: f64| (value * unit).round() as u64;
        let clock = if let Some(days) = word.strip_suffix('d') {
            ClockSpec {
                move_ms: millis(number(days)?, DAY_MS),
                ..ClockSpec::default()
            }
        } else {
            let (main, rest) = word.split_once('+').unwrap_or((word, "0"));
            let main = millis(number(main)?, 60_000.0);
            match rest.split_once('x') {
                Some((periods, seconds)) => ClockSpec {
                    main_ms: main,
                    periods: periods
                        .parse()
                        .ok()
                        .filter(|&p| f64::from(p) < CLOCK_LIMIT)?,
                    period_ms: millis(number(seconds)?, 1000.0),
                    ..ClockSpec::default()
                },
                None => ClockSpec::fischer(main, millis(number(rest)?, 1000.0)),
            }
        };
        clock.check().ok()?;
        Some(clock)
    }
}

impl std::fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let minutes = self.main_ms as f64 / 60_000.0;
        match self.kind() {
            ClockKind::Fischer => {
                write!(f, "{minutes}+{}", self.increment_ms as f64 / 1000.0)
            }
            ClockKind::ByoYomi => write!(
                f,
                "{minutes}+{}x{}",
                self.periods,
                self.period_ms as f64 / 1000.0
            ),
            ClockKind::Correspondence => write!(f, "{}d", self.move_ms as f64 / DAY_MS),
        }
    }
}
