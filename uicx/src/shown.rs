//! Values as a message shows them: control characters written escaped, never raw, and
//! endless words shortened. The language catalogue ([`crate::lang`]) puts every value of a
//! message through [`shown`].

use std::borrow::Cow;

/// The longest run of characters without a blank shown in a message; a longer word
/// (a 1 MB line, say) is cut there and ends with `…`.
pub const MAX_WORD: usize = 200;

/// A value with its control characters written escaped (`\n`, `\0`, `\u{1b}`), and
/// nothing else changed.
pub fn escaped(value: &str) -> Cow<'_, str> {
    if !value.chars().any(char::is_control) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\0' => out.push_str("\\0"),
        c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        c => out.push(c),
    }
}

/// A value as a message shows it: control characters (NUL, escape, newline ...) are
/// written escaped, never raw, and a word longer than [`MAX_WORD`] is shortened.
pub fn shown(value: &str) -> Cow<'_, str> {
    let clean = !value.chars().any(char::is_control)
        && value
            .split(char::is_whitespace)
            .all(|word| word.len() <= MAX_WORD);
    if clean {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len().min(4 * MAX_WORD));
    let mut run = 0;
    for c in value.chars() {
        if c.is_whitespace() && !c.is_control() {
            run = 0;
        } else {
            run += 1;
        }
        match run {
            _ if run <= MAX_WORD => {}
            n if n == MAX_WORD + 1 => {
                out.push('…');
                continue;
            }
            _ => continue,
        }
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown("plain words"), "plain words");
        assert_eq!(shown("a\u{1b}[2Jb\0c\n"), "a\\u{1b}[2Jb\\0c\\n");
    }

    #[test]
    fn long_words_are_shortened() {
        let long = "x".repeat(1 << 20);
        let text = shown(&long);
        assert_eq!(text.chars().count(), MAX_WORD + 1);
        assert!(text.ends_with('…'));
        let words = format!("{} {}", "y".repeat(MAX_WORD), "z".repeat(MAX_WORD));
        assert_eq!(shown(&words), words);
    }
}
