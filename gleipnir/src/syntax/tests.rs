//! Tests of the line syntax.

use super::*;
use proptest::prelude::*;

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let lines = parse(b"\xEF\xBB\xBFl eng\nr x\n").expect("parses");
    assert_eq!(lines[0].words, ["l", "eng"]);
    let mut reader = LineReader::new(&b"\xEF\xBB\xBFb\n"[..]);
    assert_eq!(
        reader
            .next()
            .map(|line| line.map(|l| l.words))
            .transpose()
            .ok()
            .flatten(),
        Some(vec!["b".to_owned()])
    );
    assert_eq!(
        parse(quote("\u{feff}").as_bytes()).expect("parses")[0].words,
        ["\u{feff}"]
    );
    // Only at the start: elsewhere it is part of a word.
    let lines = parse(b"b\n\xEF\xBB\xBFq\n").expect("parses");
    assert_eq!(lines[1].words, ["\u{feff}q"]);
}

/// The words of every line, for short assertions.
fn words(text: &str) -> Vec<Vec<String>> {
    match parse(text.as_bytes()) {
        Ok(lines) => lines.into_iter().map(|line| line.words).collect(),
        Err(error) => panic!("{text:?} should parse, got {error}"),
    }
}

/// The words of the only line of `text`.
fn one(text: &str) -> Vec<String> {
    let mut lines = words(text);
    assert_eq!(
        lines.len(),
        1,
        "{text:?} should give exactly one line: {lines:?}"
    );
    lines.remove(0)
}

fn numbers(text: &[u8]) -> Vec<u32> {
    match parse(text) {
        Ok(lines) => lines.iter().map(|line| line.number).collect(),
        Err(error) => panic!("{text:?} should parse, got {error}"),
    }
}

/// Every item a `LineReader` yields over `text`, errors as their `SyntaxError`.
fn read_all(text: &[u8]) -> Vec<Result<Line, SyntaxError>> {
    LineReader::new(text)
        .map(|item| {
            item.map_err(|error| match error {
                ReadError::Syntax(syntax) => syntax,
                ReadError::Io(io) => panic!("reading a slice cannot fail: {io}"),
            })
        })
        .collect()
}

#[test]
fn one_command_per_line() {
    assert_eq!(words("a b\nc\n"), [vec!["a", "b"], vec!["c"]]);
    assert_eq!(numbers(b"a\nb\nc"), [1, 2, 3]);
}

#[test]
fn last_line_needs_no_newline() {
    assert_eq!(words("a\nb c"), [vec!["a"], vec!["b", "c"]]);
}

#[test]
fn empty_text_and_blank_lines_give_no_lines() {
    assert!(words("").is_empty());
    assert!(words("\n\n  \t \n").is_empty());
    assert_eq!(numbers(b"\n\n x\n\n"), [3]);
}

#[test]
fn runs_of_blanks_and_tabs_are_one_separator() {
    assert_eq!(one("  a \t\t b\t  c  \t"), ["a", "b", "c"]);
    assert_eq!(one("\ta"), ["a"]);
}

#[test]
fn other_whitespace_is_part_of_a_word() {
    assert_eq!(one("a\u{a0}b\u{b}c\u{3000}d"), ["a\u{a0}b\u{b}c\u{3000}d"]);
}

#[test]
fn comment_runs_to_end_of_line() {
    assert_eq!(words("a b # c d\ne"), [vec!["a", "b"], vec!["e"]]);
    assert!(words("# only a comment\n   # indented").is_empty());
    assert_eq!(one("a#b c"), ["a"]);
    assert_eq!(numbers(b"# one\ntwo # 2\n"), [2]);
}

#[test]
fn hash_is_literal_in_quotes_and_after_backslash() {
    assert_eq!(
        one(r#""a # b" 'c#d' e\#f \# g"#),
        ["a # b", "c#d", "e#f", "#", "g"]
    );
}

#[test]
fn comment_does_not_join_lines() {
    // A `\` inside a comment is part of the comment.
    assert_eq!(words("a # b \\\nc"), [vec!["a"], vec!["c"]]);
}

#[test]
fn backslash_makes_next_character_literal() {
    assert_eq!(one(r"a\ b \\ \' \x\y"), ["a b", "\\", "'", "xy"]);
    assert_eq!(one(r#"\"quoted\""#), ["\"quoted\""]);
    assert_eq!(one("a\\\tb"), ["a\tb"]);
}

#[test]
fn escaped_blank_alone_is_a_word() {
    assert_eq!(one(r"a \  b"), ["a", " ", "b"]);
}

#[test]
fn backslash_t_is_a_tab_and_backslash_n_a_newline() {
    assert_eq!(one(r"a\tb c\nd \t \n"), ["a\tb", "c\nd", "\t", "\n"]);
    assert_eq!(one(r#""a\tb\nc""#), ["a\tb\nc"]);
}

#[test]
fn backslash_at_end_joins_lines() {
    let lines = parse(b"a \\\nb\nc").expect("valid");
    assert_eq!(
        lines[0],
        Line {
            number: 1,
            words: vec!["a".into(), "b".into()]
        }
    );
    assert_eq!(
        lines[1],
        Line {
            number: 3,
            words: vec!["c".into()]
        }
    );
}

#[test]
fn joining_inside_a_word_continues_the_word() {
    assert_eq!(one("ab\\\ncd"), ["abcd"]);
    assert_eq!(one("ab\\\n cd"), ["ab", "cd"]);
}

#[test]
fn joining_across_several_lines() {
    let text = b"pieces \\\n1 2 \\\n\\\n3\\\n4\nnext";
    let lines = parse(text).expect("valid");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].number, 1);
    assert_eq!(lines[0].words, ["pieces", "1", "2", "34"]);
    assert_eq!(lines[1].number, 6);
    assert_eq!(lines[1].words, ["next"]);
}

#[test]
fn joined_line_keeps_first_line_number_after_empty_lines() {
    assert_eq!(numbers(b"\n\n  a \\\n  b\nc"), [3, 5]);
}

#[test]
fn comment_after_a_joined_line() {
    assert_eq!(one("a \\\nb # c \\ d"), ["a", "b"]);
}

#[test]
fn single_quotes_keep_everything() {
    assert_eq!(
        one(r#"'a  b' '\n' 'x\' '"' '#'"#),
        ["a  b", "\\n", "x\\", "\"", "#"]
    );
    assert_eq!(one("'a\tb'"), ["a\tb"]);
}

#[test]
fn double_quotes_keep_everything_but_backslash_escapes() {
    assert_eq!(
        one(r#""a  b" "c'd" "e\"f" "g\\h" "\q""#),
        ["a  b", "c'd", "e\"f", "g\\h", "q"]
    );
    assert_eq!(one("\"a\tb\""), ["a\tb"]);
}

#[test]
fn quotes_join_with_adjacent_text() {
    assert_eq!(one(r#"a"b c"d 'e'"f"g"#), ["ab cd", "efg"]);
}

#[test]
fn empty_quotes_are_empty_words() {
    assert_eq!(one(r#"a "" '' b"#), ["a", "", "", "b"]);
    assert_eq!(one("''"), [""]);
    assert_eq!(one(r#"x""y"#), ["xy"]);
}

#[test]
fn crlf_line_ends_are_accepted() {
    assert_eq!(words("a b\r\nc\r\n"), [vec!["a", "b"], vec!["c"]]);
    assert_eq!(one("a \\\r\nb\r\n"), ["a", "b"]);
    assert_eq!(one("'q'\r\n"), ["q"]);
    assert_eq!(numbers(b"x\r\n\r\ny\r\n"), [1, 3]);
}

#[test]
fn carriage_return_inside_a_line_is_kept() {
    assert_eq!(one("a\rb"), ["a\rb"]);
}

#[test]
fn unterminated_quotes_and_invalid_utf8_name_their_line() {
    use SyntaxError::{InvalidUtf8, UnterminatedQuote};
    let cases: [(&[u8], SyntaxError); 7] = [
        (b"ok\n'open", UnterminatedQuote { line: 2 }),
        (b"\"open\nclose\"", UnterminatedQuote { line: 1 }),
        // A quote does not run on over a joining `\`.
        (b"a \\\n'b\nc'", UnterminatedQuote { line: 2 }),
        // Inside double quotes a final `\` escapes nothing and cannot close the quote.
        (b"\"a\\\nb\"", UnterminatedQuote { line: 1 }),
        (b"a\nb\n\xc3\x28\n", InvalidUtf8 { line: 3 }),
        (b"# \xff in a comment", InvalidUtf8 { line: 1 }),
        (b"a \\\n\xff", InvalidUtf8 { line: 2 }),
    ];
    for (text, error) in cases {
        assert_eq!(parse(text), Err(error), "{text:?}");
    }
}

#[test]
fn utf8_words_are_kept() {
    assert_eq!(
        one("name \"Partiet är slut\" ᚺᚾᛖ"),
        ["name", "Partiet är slut", "ᚺᚾᛖ"]
    );
}

#[test]
fn dangling_backslash_at_end_of_text_is_an_error() {
    assert_eq!(parse(b"a \\"), Err(SyntaxError::DanglingEscape { line: 1 }));
    assert_eq!(
        parse(b"a \\\n"),
        Err(SyntaxError::DanglingEscape { line: 1 })
    );
    assert_eq!(parse(b"\\"), Err(SyntaxError::DanglingEscape { line: 1 }));
    assert_eq!(
        parse(b"x\r\n\\\r\n"),
        Err(SyntaxError::DanglingEscape { line: 2 })
    );
}

#[test]
fn dangling_backslash_names_the_line_it_is_on() {
    assert_eq!(
        parse(b"a \\\nb \\\nc \\"),
        Err(SyntaxError::DanglingEscape { line: 3 })
    );
    assert_eq!(
        read_all(b"a \\\nb \\\n"),
        [Err(SyntaxError::DanglingEscape { line: 2 })]
    );
}

#[test]
fn errors_display_their_line() {
    assert_eq!(
        SyntaxError::InvalidUtf8 { line: 7 }.to_string(),
        "line 7: invalid UTF-8"
    );
    assert_eq!(SyntaxError::DanglingEscape { line: 4 }.line(), 4);
    assert_eq!(SyntaxError::UnterminatedQuote { line: 9 }.line(), 9);
}

#[test]
fn reader_yields_every_logical_line() {
    let items = read_all(b"\na b\n# c\nd \\\ne\n");
    let lines: Vec<Line> = items.into_iter().collect::<Result<_, _>>().expect("valid");
    let numbers: Vec<u32> = lines.iter().map(|line| line.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert!(lines[0].words.is_empty());
    assert_eq!(lines[1].words, ["a", "b"]);
    assert!(lines[2].words.is_empty());
    assert_eq!(lines[3].words, ["d", "e"]);
}

#[test]
fn reader_goes_on_after_an_error() {
    let items = read_all(b"'open\na \\\n\xff\nok\n\"x");
    assert_eq!(
        items,
        [
            Err(SyntaxError::UnterminatedQuote { line: 1 }),
            Err(SyntaxError::InvalidUtf8 { line: 3 }),
            Ok(Line {
                number: 4,
                words: vec!["ok".into()]
            }),
            Err(SyntaxError::UnterminatedQuote { line: 5 }),
        ]
    );
}

#[test]
fn reader_passes_on_stream_errors_and_stops() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("unplugged"))
        }
    }
    let mut reader = LineReader::new(std::io::BufReader::new(Broken));
    assert!(matches!(reader.next(), Some(Err(ReadError::Io(_)))));
    assert!(reader.next().is_none());
}

#[test]
fn quote_leaves_plain_words_alone() {
    assert_eq!(quote("brandub"), "brandub");
    assert_eq!(quote("Partiet_är_slut"), "Partiet_är_slut");
}

#[test]
fn quote_quotes_what_needs_it() {
    assert_eq!(quote(""), "\"\"");
    assert_eq!(quote("a b"), "\"a b\"");
    assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
    assert_eq!(quote("a\nb\tc"), r#""a\nb\tc""#);
    assert_eq!(quote("#"), "\"#\"");
    assert_eq!(quote("it's"), "\"it's\"");
}

/// Words biased toward the characters the syntax treats specially.
fn word() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![' ', '\t', '\n', '\r', '"', '\'', '\\', '#', 'n', 't']);
    prop_oneof![
        any::<String>(),
        prop::collection::vec(prop_oneof![any::<char>(), special], 0..12)
            .prop_map(String::from_iter),
    ]
}

/// Bytes biased toward the syntax's special bytes, with some invalid UTF-8.
fn text() -> impl Strategy<Value = Vec<u8>> {
    let special = prop::sample::select(b" \t\n\r\"'\\#abnt\xc3\xa4\xff".to_vec());
    prop::collection::vec(prop_oneof![special, any::<u8>()], 0..200)
}

proptest! {
    #[test]
    fn quoted_words_read_back(words in prop::collection::vec(word(), 0..8)) {
        let text = words.iter().map(|word| quote(word)).collect::<Vec<_>>().join(" ");
        let lines = parse(text.as_bytes());
        prop_assert!(lines.is_ok(), "{text:?}: {lines:?}");
        let lines = lines.unwrap_or_default();
        if words.is_empty() {
            prop_assert!(lines.is_empty());
        } else {
            prop_assert_eq!(lines.len(), 1);
            prop_assert_eq!(&lines[0].words, &words);
            prop_assert_eq!(lines[0].number, 1);
        }
    }

    #[test]
    fn quoted_word_is_one_word(word in word()) {
        let quoted = quote(&word);
        let lines = parse(quoted.as_bytes());
        prop_assert_eq!(lines, Ok(vec![Line { number: 1, words: vec![word] }]));
    }

    #[test]
    fn parse_never_panics_and_reader_agrees(text in text()) {
        let parsed = parse(&text);
        let items = read_all(&text);
        let first_error = items.iter().find_map(|item| item.as_ref().err().cloned());
        match parsed {
            Ok(lines) => {
                prop_assert_eq!(first_error, None);
                let read: Vec<Line> = items
                    .into_iter()
                    .filter_map(Result::ok)
                    .filter(|line| !line.words.is_empty())
                    .collect();
                prop_assert_eq!(read, lines);
            }
            Err(error) => {
                prop_assert_eq!(first_error, Some(error.clone()));
                let error_line = error.line();
                // The reader's lines before the error are those parse read before it.
                let before: Vec<Line> = items
                    .into_iter()
                    .map_while(Result::ok)
                    .filter(|line| !line.words.is_empty())
                    .collect();
                prop_assert!(before.iter().all(|line| line.number <= error_line));
            }
        }
    }

    #[test]
    fn line_numbers_increase(text in text()) {
        if let Ok(lines) = parse(&text) {
            let count = text.split(|&b| b == b'\n').count();
            for pair in lines.windows(2) {
                prop_assert!(pair[0].number < pair[1].number);
            }
            for line in &lines {
                prop_assert!(line.number >= 1 && line.number as usize <= count);
            }
        }
    }
}
