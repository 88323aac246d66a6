//! The command interpreter: any text as commands (as an rc file gives them, so `w` is
//! refused and nothing is written) must never panic, and a session that refused a line
//! must still answer the next one.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_data::DataDirs;
use hnefatafl_fuzz::shipped;
use libfuzzer_sys::fuzz_target;
use uicx::session::{Locks, Session, Source};

/// The shipped brandub rules, read once: reading a rule file would otherwise take most of
/// each run, and `r` is fuzzed through the commands themselves.
fn brandub() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    shipped(&RULES, "brandub")
}

fuzz_target!(|text: &[u8]| {
    let dirs = DataDirs {
        system: Vec::new(),
        ..DataDirs::default()
    };
    // The built-in English speaks without a language file, which would only be read
    // again for every input.
    let mut session = Session::new(dirs, Locks::default());
    let _ = session.apply(|session| {
        session.use_rules(brandub().clone(), "brandub", "(built-in)/rules/brandub");
        Ok(())
    });
    for line in gleipnir::LineReader::new(text).flatten() {
        // An analysis searches on its own thread, `c` connects to a server on one, and `x`
        // is the window's: each would only slow the target down (or reach outside it).
        if line
            .words
            .first()
            .is_some_and(|word| matches!(word.as_str(), "a" | "c" | "x"))
        {
            continue;
        }
        let _ = session.run_command(&line.words, Source::Rc);
    }
    let reply = session.run_command(&["b".to_owned()], Source::Rc);
    assert!(!reply.lines.is_empty());
    session.shutdown();
});
