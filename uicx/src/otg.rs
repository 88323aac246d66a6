//! OpenTafl game records (`.otg`) for the interpreter's `w` and `e`: the notation is
//! core's [`otn`](hnefatafl_core::otn); this only chooses the rules and the tags.

use std::path::Path;

use hnefatafl_core::otn::{GameRecord, RulesString, rules_to_otn_nearest};
use hnefatafl_core::{Game, Rules};

/// Whether a path names an OpenTafl game record: its name ends in `.otg` (any case).
pub fn is_otg(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("otg"))
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
/// else on the nearest rules of the record's own rules string.
///
/// # Errors
///
/// Why the record cannot be read or replayed, with its line or move.
pub fn read(bytes: &[u8], current: Option<&Rules>) -> Result<Game, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())?;
    let record = GameRecord::parse(text).map_err(|error| error.to_string())?;
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
}
