//! Rule files: `Rules::parse` must never panic, whatever the text.

#![no_main]

use hnefatafl_core::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &[u8]| {
    if let Ok(rules) = Rules::parse(text) {
        // A rule file that was accepted has an id and a name.
        assert!(!rules.id().is_empty());
        assert!(!rules.name().is_empty());
    }
});
