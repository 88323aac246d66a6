//! Text from clients that other people see: which characters are hidden or steer the
//! display, removed from chat and refused in names and uploaded rules' ids and names.
//! The one place that decides, for the server and the clients that check before they
//! send.
//!
//! Hidden are control characters (Unicode category Cc), format characters (Cf: the
//! bidirectional overrides and isolates U+202A-202E and U+2066-2069, zero-width spaces and
//! joiners, the soft hyphen, tags, ...) and the line and paragraph separators (Zl, Zp).
//! The format characters are listed here, from the Unicode Character Database (version
//! 15.1, category Cf), rather than taken from a crate: the list is 21 ranges, changes
//! rarely, and no crate of the dependency tree carries the categories.

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

/// Whether `c` is hidden or steers the display: a control, format, line or paragraph
/// separator character.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || c == '\u{2028}'
        || c == '\u{2029}'
        || FORMAT
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

/// A chat line as others see it: hidden characters removed, at most `limit` characters.
pub fn clean(text: &str, limit: usize) -> String {
    text.chars().filter(|&c| !hidden(c)).take(limit).collect()
}

/// The first hidden character of `text`, for an error that names it (`U+202E`).
pub fn first_hidden(text: &str) -> Option<String> {
    text.chars()
        .find(|&c| hidden(c))
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
    fn the_table_is_sorted_and_disjoint() {
        for pair in FORMAT.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
        }
    }
}
