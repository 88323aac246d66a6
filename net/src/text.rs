//! Text from clients that other people see: which characters are hidden or steer the
//! display, removed from chat and refused in names and uploaded rules' ids and names.
//! The one place that decides, for the server and the clients that check before they
//! send.
//!
//! Hidden are control characters (Unicode category Cc), format characters (Cf: the
//! bidirectional overrides and isolates U+202A-202E and U+2066-2069, zero-width spaces and
//! joiners, the soft hyphen, tags, ...), the line and paragraph separators (Zl, Zp), and
//! the characters of other categories that show nothing (`BLANK`: the Hangul fillers,
//! the braille blank, the combining grapheme joiner, variation selectors, ...). Combining
//! marks (`COMBINING`) are kept, but no more than [`MAX_MARKS`] on one character: a pile
//! of hundreds runs over the lines above and below.
//!
//! The characters are listed here, from the Unicode Character Database (version 15.1),
//! rather than taken from a crate: the lists are short, change rarely, and no crate of
//! the dependency tree carries the categories.

/// The format characters (category Cf), as inclusive ranges in code point order.
const FORMAT: [(char, char); 21] = [
    ('\u{AD}', '\u{AD}'),
    ('\u{600}', '\u{605}'),
    ('\u{61C}', '\u{61C}'),
    ('\u{6DD}', '\u{6DD}'),
    ('\u{70F}', '\u{70F}'),
    ('\u{890}', '\u{891}'),
    ('\u{8E2}', '\u{8E2}'),
    ('\u{180E}', '\u{180E}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFF9}', '\u{FFFB}'),
    ('\u{110BD}', '\u{110BD}'),
    ('\u{110CD}', '\u{110CD}'),
    ('\u{13430}', '\u{1343F}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0001}', '\u{E0001}'),
    ('\u{E0020}', '\u{E007F}'),
];

/// Characters outside the format category that show nothing, as inclusive ranges in code
/// point order: the combining grapheme joiner, the Hangul fillers, the Khmer inherent
/// vowels, the Mongolian variation selectors, the braille blank, the variation selectors,
/// the halfwidth Hangul filler and the supplementary variation selectors.
const BLANK: [(char, char); 10] = [
    ('\u{34F}', '\u{34F}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{17B4}', '\u{17B5}'),
    ('\u{180B}', '\u{180D}'),
    ('\u{2800}', '\u{2800}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{FE00}', '\u{FE0F}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{1D159}', '\u{1D159}'),
    ('\u{E0100}', '\u{E01EF}'),
];

/// The blocks of combining marks that pile up on a letter (category Mn in the combining
/// diacritical marks blocks), as inclusive ranges in code point order.
const COMBINING: [(char, char); 5] = [
    ('\u{300}', '\u{36F}'),
    ('\u{1AB0}', '\u{1AFF}'),
    ('\u{1DC0}', '\u{1DFF}'),
    ('\u{20D0}', '\u{20FF}'),
    ('\u{FE20}', '\u{FE2F}'),
];

/// The most combining marks kept on one character.
pub const MAX_MARKS: usize = 4;

/// Whether `c` lies in one of the sorted, disjoint `ranges`.
fn within(ranges: &[(char, char)], c: char) -> bool {
    ranges
        .binary_search_by(|&(low, high)| {
            if high < c {
                std::cmp::Ordering::Less
            } else if low > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` is hidden or steers the display: a control, format, line or paragraph
/// separator character, or one that shows nothing.
pub fn hidden(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}' || within(&FORMAT, c) || within(&BLANK, c)
}

/// Whether `c` is a combining mark that piles up on the character before it.
pub fn combining(c: char) -> bool {
    within(&COMBINING, c)
}

/// A chat line as others see it: hidden characters removed, at most [`MAX_MARKS`]
/// combining marks on a character, at most `limit` characters.
pub fn clean(text: &str, limit: usize) -> String {
    let mut marks = 0;
    text.chars()
        .filter(|&c| !hidden(c))
        .filter(|&c| {
            if combining(c) {
                marks += 1;
                marks <= MAX_MARKS
            } else {
                marks = 0;
                true
            }
        })
        .take(limit)
        .collect()
}

/// Text for a log: each hidden character shown as its code (`<U+202E>`), so that a
/// client's line cannot steer the operator's terminal.
pub fn escaped(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) {
            shown.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            shown.push(c);
        }
    }
    shown
}

/// The first hidden character of `text`, or the first combining mark past
/// [`MAX_MARKS`] on one character, for an error that names it (`U+202E`).
pub fn first_hidden(text: &str) -> Option<String> {
    let mut marks = 0;
    text.chars()
        .find(|&c| {
            if combining(c) {
                marks += 1;
            } else {
                marks = 0;
            }
            hidden(c) || marks > MAX_MARKS
        })
        .map(|c| format!("U+{:04X}", u32::from(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_zero_widths_and_controls_go() {
        for c in [
            '\u{202A}',
            '\u{202E}',
            '\u{2066}',
            '\u{2069}',
            '\u{200B}',
            '\u{200D}',
            '\u{FEFF}',
            '\u{AD}',
            '\u{E0041}',
            '\u{0}',
            '\u{1B}',
            '\u{7F}',
            '\u{85}',
            '\u{2028}',
            '\n',
            '\u{3164}',
            '\u{2800}',
            '\u{34F}',
            '\u{FE0F}',
            '\u{115F}',
            '\u{E0100}',
        ] {
            assert!(hidden(c), "U+{:04X}", u32::from(c));
        }
        for c in ['a', ' ', 'é', 'ᚠ', '\u{2065}', '\u{200A}', '😀', 'א'] {
            assert!(!hidden(c), "U+{:04X}", u32::from(c));
        }
        assert_eq!(clean("a\u{202E}b\u{200B}c\u{1B}[31m", 500), "abc[31m");
        assert_eq!(clean("abcdef", 3), "abc");
        assert_eq!(first_hidden("ab\u{2067}c"), Some("U+2067".to_owned()));
        assert_eq!(first_hidden("abc"), None);
    }

    #[test]
    fn piles_of_marks_are_cut_and_logs_show_codes() {
        let piled = format!("e{}x", "\u{301}".repeat(300));
        assert_eq!(clean(&piled, 500), "e\u{301}\u{301}\u{301}\u{301}x");
        // Vietnamese stacks two marks on a letter: they stay.
        assert_eq!(clean("e\u{302}\u{301}", 500), "e\u{302}\u{301}");
        assert_eq!(first_hidden(&piled), Some("U+0301".to_owned()));
        assert_eq!(first_hidden("e\u{302}\u{301}"), None);
        assert_eq!(escaped("a\u{202E}b"), "a<U+202E>b");
    }

    #[test]
    fn the_tables_are_sorted_and_disjoint() {
        for table in [&FORMAT[..], &BLANK[..], &COMBINING[..]] {
            for pair in table.windows(2) {
                assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
            }
        }
    }
}
