//! Files of recorded games (`hnefatafl_matches::record`) and their import as training
//! data (`hnefatafl_learn::import`): reading and replaying any text never panics, a
//! refusal names the record's line, and every record is imported, left out (no result,
//! lost on time) or counted as a repeat.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_learn::import::{Import, import};
use hnefatafl_matches::record::records;
use libfuzzer_sys::fuzz_target;

fn rules() -> &'static Rules {
    static PARSED: OnceLock<Rules> = OnceLock::new();
    PARSED.get_or_init(hnefatafl_matches::fetlar_rules)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count();
    for record in records(text) {
        assert!(record.line >= 1 && record.line <= lines);
        if let Err(error) = record.replay(rules(), usize::MAX) {
            assert!(
                error.starts_with(&format!("line {}: ", record.line)),
                "{error}"
            );
        }
    }
    // One node a position: the import's reading, not its search, is under test.
    let settings = Import {
        nodes: 1,
        network: None,
    };
    match import(rules(), text, &settings) {
        Ok(imported) => {
            for game in &imported.games {
                assert!((-1..=1).contains(&game.result));
            }
            let taken = imported.games.len() + imported.unfinished + imported.timed_out;
            assert!(taken + imported.repeated == records(text).count());
        }
        Err(error) => assert!(error.starts_with("line "), "{error}"),
    }
});
