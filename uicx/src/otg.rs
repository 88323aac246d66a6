//! OpenTafl game records (`.otg`) for the interpreter's `w` and `e`: the notation is
//! core's [`otn`](hnefatafl_core::otn); this only chooses the rules and the tags.

use std::path::Path;

use hnefatafl_core::otn::{GameRecord, OtnError, RulesString, rules_to_otn_nearest};
use hnefatafl_core::{Game, Rules};

/// Whether a path names an OpenTafl game record: its name ends in `.otg` (any case).
pub fn is_otg(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("otg"))
}

/// Whether a file is an OpenTafl game record: named `.otg` or `.otn`, or (named
/// otherwise, a plain text file) its first line that is not blank is a tag (`[variant:..]`)
/// or the first turn (`1. d1-d3 f8-c8`). A saved game starts with a comment or a word.
pub fn is_record(path: &str, bytes: &[u8]) -> bool {
    let named = Path::new(path).extension().is_some_and(|extension| {
        extension.eq_ignore_ascii_case("otg") || extension.eq_ignore_ascii_case("otn")
    });
    let first = String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(str::to_owned)
        .unwrap_or_default();
    let turn = first
        .split_whitespace()
        .next()
        .and_then(|word| word.strip_suffix('.'))
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    named || first.starts_with('[') || turn
}

/// The record of a game, with the variant and compiler tags.
///
/// # Errors
///
/// Why OpenTafl notation cannot describe the game's rules.
pub fn write(game: &Game) -> Result<String, String> {
    let tags = vec![
        ("variant".to_owned(), game.rules().name().to_owned()),
        ("compiler".to_owned(), "hnefatafl-rs".to_owned()),
    ];
    GameRecord::from_game(game, tags)
        .map(|record| record.to_text())
        .map_err(|error| error.to_string())
}

/// A rules string without its name, to compare what two rule sets say.
fn without_name(rules: &RulesString) -> String {
    rules
        .to_string()
        .split(' ')
        .filter(|entry| !entry.starts_with("name:"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a record and replays it: on `current` when those rules say what the record's
/// rules say (their nearest rules strings are the same, so the game keeps its rule file),
/// else on the nearest rules of the record's own rules string. A record without a rules
/// tag (its moves alone, as they are often passed around) is a game of `current`.
///
/// # Errors
///
/// Why the record cannot be read or replayed, with its line or move.
pub fn read(bytes: &[u8], current: Option<&Rules>) -> Result<Game, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())?;
    let record = parse_record(text, current).map_err(|error| error.to_string())?;
    let (own, _) = record
        .game_rules_nearest()
        .map_err(|error| error.to_string())?;
    // As written by us from `current`, or as both rule sets are written.
    let said = [
        Some(&record.rules),
        rules_to_otn_nearest(&own).ok().map(|(o, _)| o).as_ref(),
    ]
    .into_iter()
    .flatten()
    .map(without_name)
    .collect::<Vec<_>>();
    let same = |rules: &Rules| {
        rules_to_otn_nearest(rules).is_ok_and(|(ours, _)| said.contains(&without_name(&ours)))
    };
    let rules = match current {
        Some(rules) if same(rules) => rules.clone(),
        _ => own,
    };
    record.replay(&rules).map_err(|error| error.to_string())
}

/// Reads a record; one without a rules tag gets `current`'s, its lines counted as
/// written.
fn parse_record(text: &str, current: Option<&Rules>) -> Result<GameRecord, OtnError> {
    let tagged = text
        .lines()
        .any(|line| line.trim_start().starts_with("[rules:"));
    let Some(rules) = current.filter(|_| !tagged) else {
        return GameRecord::parse(text);
    };
    let (otn, _) = rules_to_otn_nearest(rules)?;
    GameRecord::parse(&format!("[rules:{otn}]\n{text}")).map_err(|error| match error {
        OtnError::Record { line, message } => OtnError::Record {
            line: line.saturating_sub(1).max(1),
            message,
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn otg_names() {
        assert!(is_otg("game.otg"));
        assert!(is_otg("/tmp/GAME.OTG"));
        assert!(!is_otg("game.otg.sav"));
        assert!(!is_otg("otg"));
    }

    #[test]
    fn records_are_known_by_name_or_by_their_first_line() {
        assert!(is_record("game.otn", b"anything"));
        assert!(is_record("game.txt", b"\n[variant:Copenhagen]\n"));
        assert!(is_record("game.txt", b"  1. d1-d3 f8-c8\n2. a4-c4"));
        assert!(!is_record(
            "game.sav",
            b"# hnefatafl saved game: Brandub\nrules x y\n"
        ));
        assert!(!is_record("game.txt", b"12 moves\n"));
    }
}
