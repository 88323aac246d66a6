//! The shipped language files give every key and no other.

use uicx::lang::{Key, Language, Message};

fn shipped(name: &str) -> Vec<u8> {
    let path = format!("{}/../data/lang/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

#[test]
fn english_is_complete() {
    if let Err(error) = Language::parse(&shipped("eng")) {
        panic!("eng: {error}");
    }
}

#[test]
fn swedish_is_complete() {
    if let Err(error) = Language::parse(&shipped("swe")) {
        panic!("swe: {error}");
    }
}

#[test]
fn loaded_language_fills_in_values() {
    let Ok(english) = Language::parse(&shipped("eng")) else {
        panic!("eng must load")
    };
    assert_eq!(
        english.text(&Message::new(Key::Turn, ["1"])),
        "Player 1 to move."
    );
    let Ok(swedish) = Language::parse(&shipped("swe")) else {
        panic!("swe must load")
    };
    assert_ne!(swedish.get(Key::Turn), english.get(Key::Turn));
}

#[test]
fn a_file_missing_a_key_is_refused() {
    let text = String::from_utf8(shipped("eng")).expect("UTF-8");
    let short: String = text
        .lines()
        .filter(|line| !line.starts_with("turn"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(Language::parse(short.as_bytes()).is_err());
    let extra = format!("{text}\nno_such_key Hello\n");
    assert!(Language::parse(extra.as_bytes()).is_err());
}
