//! The one table of aim's settings ([`SETTINGS`]): every limit of a search, every knob of
//! the search and the evaluation, and every evaluation weight, each with its name, the
//! values it takes, its default and what it does. The limit words ([`Limits::from_words`]:
//! `d4`, `t2.5`, `3`, `eval=classic`), the match runner's sides (`depth=4`, `null=1`,
//! `mobility=5`), the tuner and the settings table of `docs/ai.md` all read it, so a
//! setting is added in one place.

use crate::classic::EvalWeights;
use crate::evaluator::Evaluation;
use crate::limits::{Limits, LimitsError, MAX_LEVEL, MAX_LINES, MAX_THREADS};
use crate::params::{EngineConfig, Parallel, Quiescence, Tuning};
use std::time::Duration;

/// Everything the table sets: the limits of a search, the engine's configuration and the
/// knobs of its search and evaluation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// What bounds each search.
    pub limits: Limits,
    /// The engine's threads and table.
    pub config: EngineConfig,
    /// The search's and the evaluation's knobs and weights.
    pub tuning: Tuning,
}

/// The values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number from `min` to `max`, digits only.
    Count {
        /// The least.
        min: u64,
        /// The most.
        max: u64,
    },
    /// A whole number from `min` to `max`, perhaps negative.
    Integer {
        /// The least.
        min: i64,
        /// The most.
        max: i64,
    },
    /// Seconds above zero, up to nine decimals.
    Seconds,
    /// `0` (off) or `1` (on).
    Switch,
    /// One of these words.
    Choice(&'static [&'static str]),
}

impl Kind {
    /// The values in words, for usage texts and the docs: `1 to 6`, `0 or 1`.
    pub fn describe(self) -> String {
        match self {
            Kind::Count { min, max } if max >= u64::from(u32::MAX) => format!("{min} or more"),
            Kind::Count { min, max } => format!("{min} to {max}"),
            Kind::Integer { min, max }
                if min <= i64::from(i32::MIN) && max >= i64::from(i32::MAX) =>
            {
                "a whole number".to_owned()
            }
            Kind::Integer { min, max } => format!("{min} to {max}"),
            Kind::Seconds => "seconds above 0".to_owned(),
            Kind::Switch => "0 or 1".to_owned(),
            Kind::Choice(words) => words.join(" or "),
        }
    }
}

/// How a setting is written among the limit words of a command (`p 1 c 3 j2`,
/// `--limits`), if it is one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// Not a limit word: only `name=value`.
    None,
    /// The value after a letter: `d4`.
    Letter(char),
    /// The bare value: `3`.
    Bare,
    /// `name=value` among the limit words too: `eval=classic`.
    Key,
}

/// A setting's value, read into the settings; `None` when the text is not a value of it.
type Setter = fn(&mut Settings, &str) -> Option<()>;

/// A setting's value as its word (`-` when it has none), read from the settings.
type Getter = fn(&Settings) -> String;

/// One setting: its name and what it takes, how it is read and shown.
pub struct Setting {
    /// Its name: `depth` in `depth=4`.
    pub name: &'static str,
    /// How it is written among the limit words.
    pub word: Word,
    /// The values it takes.
    pub kind: Kind,
    /// What it does, in a sentence or two.
    pub doc: &'static str,
    set: Setter,
    get: Getter,
}

impl Setting {
    /// Its value in `settings`, as the word that sets it (`-`: none given).
    pub fn value(&self, settings: &Settings) -> String {
        (self.get)(settings)
    }

    /// Its default: its value in the default settings.
    pub fn default_value(&self) -> String {
        self.value(&Settings::default())
    }
}

/// A setting that could not be set: an unknown name or a value it does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// No setting has this name.
    #[error("unknown setting `{0}`")]
    Unknown(String),
    /// The value is not one the setting takes.
    #[error("bad value in `{name}={value}` ({expected})")]
    Value {
        /// The setting.
        name: String,
        /// What was given.
        value: String,
        /// What it takes.
        expected: String,
    },
}

/// A whole number above zero, digits only.
pub(crate) fn parse_positive(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|&n| n > 0)
}

/// Seconds with up to nine decimals, read exactly (no floating point), above zero.
pub(crate) fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 9
    {
        return None;
    }
    let secs = if whole.is_empty() {
        0
    } else {
        whole.parse::<u64>().ok()?
    };
    let nanos = if fraction.is_empty() {
        0
    } else {
        fraction.parse::<u32>().ok()? * 10u32.pow(9 - fraction.len() as u32)
    };
    let time = Duration::new(secs, nanos);
    (!time.is_zero()).then_some(time)
}

/// A count within `min..=max`.
fn count(text: &str, min: u64, max: u64) -> Option<u64> {
    parse_positive(text)
        .or_else(|| (text == "0").then_some(0))
        .filter(|n| (min..=max).contains(n))
}

/// A whole number within `min..=max`.
fn integer(text: &str, min: i64, max: i64) -> Option<i64> {
    text.parse::<i64>().ok().filter(|n| (min..=max).contains(n))
}

/// `0` or `1`.
fn switch(text: &str) -> Option<bool> {
    match text {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// A switch's word.
fn on(value: bool) -> String {
    if value { "1" } else { "0" }.to_owned()
}

/// An optional value's word.
fn or_none<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |value| value.to_string())
}

const SWITCH: Kind = Kind::Switch;
/// The range of the evaluation's weights and the cost of a draw.
const WEIGHT: Kind = Kind::Integer {
    min: i32::MIN as i64,
    max: i32::MAX as i64,
};

/// A table entry for an evaluation weight: its field in [`EvalWeights`].
macro_rules! weight {
    ($name:literal, $($field:tt)+) => {
        Setting {
            name: $name,
            word: Word::None,
            kind: WEIGHT,
            doc: "An evaluation weight, in hundredths of a piece (see `EvalWeights`).",
            set: |s, v| {
                let value = i32::try_from(integer(v, i64::from(i32::MIN), i64::from(i32::MAX))?).ok()?;
                s.tuning.weights.$($field)+ = value;
                Some(())
            },
            get: |s| s.tuning.weights.$($field)+.to_string(),
        }
    };
}

/// Every setting, the limits first, then the engine's, the knobs, and the evaluation
/// weights (the piece first: it sets the scale).
pub const SETTINGS: [Setting; 44] = [
    Setting {
        name: "level",
        word: Word::Bare,
        kind: Kind::Count {
            min: 1,
            max: MAX_LEVEL as u64,
        },
        doc: "The difficulty level: 1 and 2 play with deliberate mistakes, 3 to 6 search 1.5, 3, 6 and 15 s a move. Level 3 when no limit is given.",
        set: |s, v| {
            s.limits.level = Some(count(v, 1, u64::from(MAX_LEVEL))? as u32);
            Some(())
        },
        get: |s| or_none(s.limits.level),
    },
    Setting {
        name: "depth",
        word: Word::Letter('d'),
        kind: Kind::Count {
            min: 1,
            max: u32::MAX as u64,
        },
        doc: "The deepest iteration, in plies (a search goes 100 deep at most).",
        set: |s, v| {
            s.limits.depth = Some(u32::try_from(count(v, 1, u64::from(u32::MAX))?).ok()?);
            Some(())
        },
        get: |s| or_none(s.limits.depth),
    },
    Setting {
        name: "time",
        word: Word::Letter('t'),
        kind: Kind::Seconds,
        doc: "The time for a move.",
        set: |s, v| {
            s.limits.time = Some(parse_seconds(v)?);
            Some(())
        },
        get: |s| or_none(s.limits.time.map(|t| t.as_secs_f64())),
    },
    Setting {
        name: "nodes",
        word: Word::Letter('n'),
        kind: Kind::Count {
            min: 1,
            max: u64::MAX,
        },
        doc: "The most nodes a search visits.",
        set: |s, v| {
            s.limits.nodes = Some(count(v, 1, u64::MAX)?);
            Some(())
        },
        get: |s| or_none(s.limits.nodes),
    },
    Setting {
        name: "threads",
        word: Word::Letter('j'),
        kind: Kind::Count {
            min: 1,
            max: MAX_THREADS as u64,
        },
        doc: "Search threads (without it, the engine's: every core).",
        set: |s, v| {
            s.limits.threads = Some(count(v, 1, MAX_THREADS as u64)? as usize);
            Some(())
        },
        get: |s| or_none(s.limits.threads),
    },
    Setting {
        name: Evaluation::KEY,
        word: Word::Key,
        kind: Kind::Choice(&["classic", "network"]),
        doc: "The evaluation: the hand-written one, or the learned network of the rule file (the classic one where it has none). Without it, the network where the engine has one.",
        set: |s, v| {
            s.limits.evaluation = Some(Evaluation::from_word(v)?);
            Some(())
        },
        get: |s| or_none(s.limits.evaluation.map(Evaluation::word)),
    },
    Setting {
        name: "lines",
        word: Word::Key,
        kind: Kind::Count {
            min: 1,
            max: MAX_LINES as u64,
        },
        doc: "How many best moves an analysis reports, each with its score, win chance and line (MultiPV); a move's search looks for one.",
        set: |s, v| {
            s.limits.lines = Some(count(v, 1, MAX_LINES as u64)? as usize);
            Some(())
        },
        get: |s| or_none(s.limits.lines),
    },
    Setting {
        name: "hash",
        word: Word::None,
        kind: Kind::Count {
            min: 0,
            max: 1 << 20,
        },
        doc: "The transposition table's size in MiB (0: none).",
        set: |s, v| {
            s.config.hash_mib = count(v, 0, 1 << 20)? as usize;
            Some(())
        },
        get: |s| s.config.hash_mib.to_string(),
    },
    Setting {
        name: "reductions",
        word: Word::None,
        kind: SWITCH,
        doc: "Moves that the static guess ranks late are searched one or two plies less deeply.",
        set: |s, v| {
            s.tuning.reductions = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.reductions),
    },
    Setting {
        name: "extension",
        word: Word::None,
        kind: SWITCH,
        doc: "At the last ply, a move that gives an escape piece an open line to an escape square is searched one ply deeper.",
        set: |s, v| {
            s.tuning.escape_extension = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.escape_extension),
    },
    Setting {
        name: "null",
        word: Word::None,
        kind: SWITCH,
        doc: "Null-move pruning.",
        set: |s, v| {
            s.tuning.null_move = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.null_move),
    },
    Setting {
        name: "stability",
        word: Word::None,
        kind: SWITCH,
        doc: "Time management by the best move's stability.",
        set: |s, v| {
            s.tuning.stability = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.stability),
    },
    Setting {
        name: "quiescence",
        word: Word::None,
        kind: SWITCH,
        doc: "The capture quiescence search at the horizon on every board (1) or none (0); by default on boards of 81 squares or fewer.",
        set: |s, v| {
            s.tuning.quiescence = if switch(v)? {
                Quiescence::On
            } else {
                Quiescence::Off
            };
            Some(())
        },
        get: |s| match s.tuning.quiescence {
            Quiescence::On => "1".to_owned(),
            Quiescence::Off => "0".to_owned(),
            Quiescence::UpTo(squares) => format!("up to {squares} squares"),
        },
    },
    Setting {
        name: "lmr",
        word: Word::None,
        kind: SWITCH,
        doc: "Late-move reductions in place of the static ones, from the 5th depth of the iterative deepening.",
        set: |s, v| {
            s.tuning.late_move_reductions = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.late_move_reductions),
    },
    Setting {
        name: "aspiration",
        word: Word::None,
        kind: SWITCH,
        doc: "Aspiration windows: each depth from the 4th is searched first within a half a piece of the depth before's score.",
        set: |s, v| {
            s.tuning.aspiration = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.aspiration),
    },
    Setting {
        name: "futility",
        word: Word::None,
        kind: SWITCH,
        doc: "Futility pruning: one or two plies from the horizon, quiet moves are not searched where the static evaluation is a margin below alpha.",
        set: |s, v| {
            s.tuning.futility = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.futility),
    },
    Setting {
        name: "hprune",
        word: Word::None,
        kind: SWITCH,
        doc: "History pruning: one or two plies from the horizon, late quiet moves that never cut off are not searched.",
        set: |s, v| {
            s.tuning.history_pruning = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.history_pruning),
    },
    Setting {
        name: "threats",
        word: Word::None,
        kind: SWITCH,
        doc: "Answer escape threats near the horizon: no shallow pruning where the enemy's escape piece has an open line, and escapes in the quiescence search.",
        set: |s, v| {
            s.tuning.escape_threats = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.escape_threats),
    },
    Setting {
        name: "forts",
        word: Word::None,
        kind: SWITCH,
        doc: "History pruning spares the moves of an escape piece and those beside it, of which exit forts are made.",
        set: |s, v| {
            s.tuning.spare_forts = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.spare_forts),
    },
    Setting {
        name: "singular",
        word: Word::None,
        kind: SWITCH,
        doc: "Singular extensions: the table's move is searched a ply deeper where no other move comes near its score.",
        set: |s, v| {
            s.tuning.singular = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.singular),
    },
    Setting {
        name: "unfinished",
        word: Word::None,
        kind: SWITCH,
        doc: "Use what an unfinished depth found, and with a fixed time a move search until the time is up.",
        set: |s, v| {
            s.tuning.unfinished_depths = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.unfinished_depths),
    },
    Setting {
        name: "draw",
        word: Word::None,
        kind: WEIGHT,
        doc: "What a draw costs the king's side, in hundredths of a piece.",
        set: |s, v| {
            s.tuning.king_side_draw =
                i32::try_from(integer(v, i64::from(i32::MIN), i64::from(i32::MAX))?).ok()?;
            Some(())
        },
        get: |s| s.tuning.king_side_draw.to_string(),
    },
    Setting {
        name: "repetition",
        word: Word::None,
        kind: SWITCH,
        doc: "Repetitions inside the tree short of the rules' count score as its end.",
        set: |s, v| {
            s.tuning.tree_repetition = switch(v)?;
            Some(())
        },
        get: |s| on(s.tuning.tree_repetition),
    },
    Setting {
        name: "parallel",
        word: Word::None,
        kind: Kind::Choice(&["split", "lazy"]),
        doc: "How several threads share a search: the root moves split between them, or Lazy SMP.",
        set: |s, v| {
            s.tuning.parallel = match v {
                "split" => Parallel::RootSplit,
                "lazy" => Parallel::LazySmp,
                _ => return None,
            };
            Some(())
        },
        get: |s| match s.tuning.parallel {
            Parallel::RootSplit => "split".to_owned(),
            Parallel::LazySmp => "lazy".to_owned(),
        },
    },
    weight!("piece", piece),
    weight!("mobility", mobility),
    weight!("escape1", escape_distance[1]),
    weight!("escape2", escape_distance[2]),
    weight!("escape3", escape_distance[3]),
    weight!("open_move", open_line_to_move),
    weight!("open_one", open_line_one),
    weight!("open_two", open_line_two),
    weight!("two_moves", two_moves_to_escape),
    weight!("routes", escape_route),
    weight!("guard", guard),
    weight!("enclosure1", enclosure[0]),
    weight!("enclosure2", enclosure[1]),
    weight!("enclosure3", enclosure[2]),
    weight!("threat", threat_percent),
    weight!("tempo", tempo),
    weight!("fork_move", fork_to_move),
    weight!("fork_one", fork_one),
    weight!("fork_two", fork_two),
    weight!("three_moves", three_moves_to_escape),
];

/// Where the evaluation weights start in [`SETTINGS`].
const FIRST_WEIGHT: usize = SETTINGS.len() - WEIGHT_KEYS.len();

/// The names of the evaluation weights, the piece first, as [`SETTINGS`] lists them.
pub const WEIGHT_KEYS: [&str; 20] = {
    let mut keys = [""; 20];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = SETTINGS[SETTINGS.len() - 20 + i].name;
        i += 1;
    }
    keys
};

/// The setting of this name.
pub fn setting(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|setting| setting.name == name)
}

/// The weight a key of [`WEIGHT_KEYS`] names, or `None` for any other text.
pub fn weight_mut<'a>(weights: &'a mut EvalWeights, key: &str) -> Option<&'a mut i32> {
    let index = WEIGHT_KEYS.iter().position(|name| *name == key)?;
    let field: &mut i32 = match index {
        0 => &mut weights.piece,
        1 => &mut weights.mobility,
        2 => &mut weights.escape_distance[1],
        3 => &mut weights.escape_distance[2],
        4 => &mut weights.escape_distance[3],
        5 => &mut weights.open_line_to_move,
        6 => &mut weights.open_line_one,
        7 => &mut weights.open_line_two,
        8 => &mut weights.two_moves_to_escape,
        9 => &mut weights.escape_route,
        10 => &mut weights.guard,
        11 => &mut weights.enclosure[0],
        12 => &mut weights.enclosure[1],
        13 => &mut weights.enclosure[2],
        14 => &mut weights.threat_percent,
        15 => &mut weights.tempo,
        16 => &mut weights.fork_to_move,
        17 => &mut weights.fork_one,
        18 => &mut weights.fork_two,
        _ => &mut weights.three_moves_to_escape,
    };
    Some(field)
}

impl Settings {
    /// Sets the setting `name` to `value`.
    ///
    /// # Errors
    ///
    /// An unknown name, or a value the setting does not take.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let setting = setting(name).ok_or_else(|| SettingError::Unknown(name.to_owned()))?;
        (setting.set)(self, value).ok_or_else(|| SettingError::Value {
            name: name.to_owned(),
            value: value.to_owned(),
            expected: setting.kind.describe(),
        })
    }

    /// Reads one limit word (`d4`, `t2.5`, `3`, `j2`, `eval=classic`, in any case) into
    /// the limits.
    ///
    /// # Errors
    ///
    /// The word, when it is no limit word or its value is out of range.
    pub fn limit_word(&mut self, word: &str) -> Result<(), LimitsError> {
        self.read_limit_word(word)
            .ok_or_else(|| LimitsError(word.to_string()))
    }

    fn read_limit_word(&mut self, word: &str) -> Option<()> {
        let lower = word.to_ascii_lowercase();
        let (setting, value) = if let Some((key, value)) = lower.split_once('=') {
            (setting(key).filter(|s| s.word == Word::Key)?, value)
        } else if lower.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let letter = lower.chars().next()?;
            let setting = SETTINGS.iter().find(|s| s.word == Word::Letter(letter))?;
            (setting, &lower[1..])
        } else {
            (SETTINGS.iter().find(|s| s.word == Word::Bare)?, &lower[..])
        };
        (setting.set)(self, value)
    }
}

/// The table of every setting in Markdown, as `docs/ai.md` shows it: name, limit word,
/// values, default and what it does.
pub fn markdown_table() -> String {
    let mut table = String::from(
        "| setting | limit word | values | default | what it does |\n|---|---|---|---|---|\n",
    );
    for setting in &SETTINGS[..FIRST_WEIGHT] {
        let word = match setting.word {
            Word::None => String::new(),
            Word::Letter(letter) => format!("`{letter}<n>`"),
            Word::Bare => "`<n>`".to_owned(),
            Word::Key => format!("`{}=<value>`", setting.name),
        };
        table += &format!(
            "| `{}` | {word} | {} | {} | {} |\n",
            setting.name,
            setting.kind.describe(),
            setting.default_value(),
            setting.doc
        );
    }
    let defaults = Settings::default();
    let weights: Vec<String> = SETTINGS[FIRST_WEIGHT..]
        .iter()
        .map(|setting| format!("`{}` {}", setting.name, setting.value(&defaults)))
        .collect();
    table += &format!(
        "| the weights | | whole numbers | | {}: the evaluation's weights, in hundredths of a piece, with their defaults |\n",
        weights.join(", ")
    );
    table
}

impl Limits {
    /// Reads limit words: `d<depth>`, `t<seconds>` (decimals allowed), `n<nodes>`,
    /// `j<threads>`, `eval=classic` or `eval=network`, or a bare level number. E.g.
    /// `["d4", "t10"]`, `["3", "j2"]`, `["3", "eval=classic"]`. The words and the values
    /// they take are those of the table of settings ([`SETTINGS`]).
    ///
    /// # Errors
    ///
    /// A word that is none of these, a zero or out-of-range value, or a level outside
    /// `1..=MAX_LEVEL`.
    pub fn from_words(words: &[&str]) -> Result<Limits, LimitsError> {
        let mut settings = Settings::default();
        for &word in words {
            settings.limit_word(word)?;
        }
        Ok(settings.limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_read_and_shown_back() {
        for setting in &SETTINGS {
            let value = match setting.kind {
                Kind::Count { min, max } => (min + 1).min(max).to_string(),
                Kind::Integer { .. } => "12345".to_owned(),
                Kind::Seconds => "0.5".to_owned(),
                Kind::Switch => {
                    if setting.default_value() == "1" {
                        "0".to_owned()
                    } else {
                        "1".to_owned()
                    }
                }
                Kind::Choice(words) => words[words.len() - 1].to_owned(),
            };
            let mut settings = Settings::default();
            settings.set(setting.name, &value).expect(setting.name);
            assert_ne!(
                settings,
                Settings::default(),
                "`{}` is not read",
                setting.name
            );
            assert_eq!(setting.value(&settings), value, "{}", setting.name);
            assert!(matches!(
                settings.set(setting.name, "x"),
                Err(SettingError::Value { .. })
            ));
        }
        assert_eq!(
            Settings::default().set("speed", "3"),
            Err(SettingError::Unknown("speed".to_owned()))
        );
    }

    #[test]
    fn names_are_unique_and_the_weights_name_their_own_fields() {
        for (index, setting) in SETTINGS.iter().enumerate() {
            assert!(
                SETTINGS[..index]
                    .iter()
                    .all(|other| other.name != setting.name),
                "{} twice",
                setting.name
            );
        }
        let mut weights = EvalWeights::default();
        for (value, key) in (1000..).zip(WEIGHT_KEYS) {
            *weight_mut(&mut weights, key).expect(key) = value;
        }
        // Every field was written once: two keys naming one field would leave one out.
        let read: Vec<i32> = WEIGHT_KEYS
            .iter()
            .map(|key| *weight_mut(&mut weights, key).expect(key))
            .collect();
        assert_eq!(read, (1000..1020).collect::<Vec<_>>());
        assert_eq!(weights.piece, 1000);
        assert_eq!(weights.tempo, 1015);
        assert_eq!(weights.escape_distance, [0, 1002, 1003, 1004]);
        assert_eq!(weights.enclosure, [1011, 1012, 1013]);
        assert_eq!(weights.three_moves_to_escape, 1019);
        assert!(weight_mut(&mut weights, "escape0").is_none());
        // The table's weights set the same fields.
        let mut settings = Settings::default();
        for (value, key) in (2000..).zip(WEIGHT_KEYS) {
            settings.set(key, &value.to_string()).expect(key);
        }
        for (value, key) in (2000..).zip(WEIGHT_KEYS) {
            assert_eq!(
                weight_mut(&mut settings.tuning.weights, key).copied(),
                Some(value)
            );
        }
    }

    #[test]
    fn docs_ai_shows_the_table() {
        let docs = include_str!("../../docs/ai.md");
        assert!(
            docs.contains(&markdown_table()),
            "docs/ai.md must hold the table of settings as `aim::settings::markdown_table` \
             makes it:\n{}",
            markdown_table()
        );
    }
}
