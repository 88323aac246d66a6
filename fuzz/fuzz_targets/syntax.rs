//! The text syntax: `parse` must never panic, `LineReader` must agree with it, and every
//! word read must come back unchanged through `quote`.

#![no_main]

use gleipnir::{LineReader, ReadError, parse, quote};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &[u8]| {
    let parsed = parse(text);

    let mut read = Vec::new();
    let mut first_error = None;
    for item in LineReader::new(text) {
        match item {
            Ok(line) => read.push(line),
            Err(ReadError::Syntax(error)) => {
                first_error = Some(error);
                break;
            }
            Err(ReadError::Io(error)) => panic!("reading a slice failed: {error}"),
        }
    }

    match parsed {
        Ok(lines) => {
            assert_eq!(first_error, None, "LineReader failed where parse did not");
            read.retain(|line| !line.words.is_empty());
            assert_eq!(read, lines, "LineReader and parse disagree");
            for line in &lines {
                let text = line
                    .words
                    .iter()
                    .map(|word| quote(word))
                    .collect::<Vec<_>>()
                    .join(" ");
                let again = parse(text.as_bytes()).expect("quoted words must parse");
                assert_eq!(again.len(), 1);
                assert_eq!(again[0].words, line.words, "quote did not round-trip");
            }
        }
        Err(error) => assert_eq!(first_error, Some(error), "LineReader and parse disagree"),
    }
});
