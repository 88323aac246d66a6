//! Language catalogues: `Catalogue::parse` must never panic, and an accepted catalogue has
//! a message, not empty, for every key.

#![no_main]

use gleipnir::{Catalogue, LanguageKey};
use libfuzzer_sys::fuzz_target;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Key {
    GameOver,
    Fr1,
    Help,
}

impl LanguageKey for Key {
    const ALL: &'static [Self] = &[Key::GameOver, Key::Fr1, Key::Help];
    fn name(self) -> &'static str {
        match self {
            Key::GameOver => "cli_cmd_game_over",
            Key::Fr1 => "fr_1",
            Key::Help => "help",
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

fuzz_target!(|text: &[u8]| {
    match Catalogue::<Key>::parse(text) {
        Ok(language) => {
            assert!(!language.is_empty());
            for &key in Key::ALL {
                assert!(
                    !language.get(key).is_empty(),
                    "{} has no message",
                    key.name()
                );
            }
        }
        Err(error) => {
            // Every error can be shown.
            let _ = error.to_string();
        }
    }
});
