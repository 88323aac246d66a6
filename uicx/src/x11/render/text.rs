//! The text: wrapping and fitting lines into the columns the layout gives them (the move
//! list, the players' labels, the status, the hint, the output), the clocks' wording, and
//! the [`TextItem`]s the window draws over the frame.

use std::time::Duration;

use super::TextItem;
use super::palette::{Rgb, TEXT};

/// The move list's lines: each entry with its index, and an entry longer than `width`
/// characters (a chain of jumps and its captures) goes on, whole, on the lines after it,
/// without a number. A line is broken before a `-` or an `x` where it can be.
pub(super) fn list_rows(moves: &[String], width: usize) -> Vec<(Option<usize>, String)> {
    let width = width.max(1);
    let mut rows = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let mut rest: Vec<char> = text.chars().collect();
        let mut number = Some(index);
        while rest.len() > width {
            let cut = (1..=width)
                .rev()
                .find(|&at| matches!(rest[at], '-' | 'x'))
                .unwrap_or(width);
            let tail = rest.split_off(cut);
            rows.push((number.take(), rest.into_iter().collect()));
            rest = tail;
        }
        rows.push((number, rest.into_iter().collect()));
    }
    rows
}

/// Wraps a command's output as the message area shows it: like [`wrap`], but a line in
/// two columns (`f                      make the computer move now`, as the help is) that
/// does not fit puts its second column under its first, indented, so that a narrow window
/// still reads as a list.
pub fn wrap_output(text: &str, columns: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let two_columns = line
            .split_once("  ")
            .filter(|(first, second)| !first.trim().is_empty() && !second.trim().is_empty());
        match two_columns {
            Some((first, second)) if line.chars().count() > columns => {
                lines.extend(wrap(first.trim_end(), columns));
                let indented = wrap(second.trim_start(), columns.saturating_sub(2).max(1));
                lines.extend(indented.into_iter().map(|text| format!("  {text}")));
            }
            _ => lines.extend(wrap(line, columns)),
        }
    }
    lines
}

/// Wraps a list whose items stand apart by runs of spaces (`n: new game   u: take back a
/// move   q: quit`) between its items, never inside one where the item fits on a line.
pub(super) fn wrap_items(text: &str, columns: usize) -> Vec<String> {
    const GAP: &str = "   ";
    if text.chars().count() <= columns {
        return vec![text.to_owned()];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for item in text
        .split("  ")
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let length = line.chars().count();
        if length > 0 && length + GAP.len() + item.chars().count() > columns {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str(GAP);
        }
        line.push_str(item);
    }
    lines.push(line);
    lines.iter().flat_map(|line| wrap(line, columns)).collect()
}

/// Wraps text into lines of at most `columns` characters, breaking at spaces where it can
/// and keeping the text's own line breaks.
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut length = 0;
        for word in paragraph.split(' ') {
            let mut word: Vec<char> = word.chars().collect();
            if length > 0 && length + 1 + word.len() > columns {
                lines.push(std::mem::take(&mut line));
                length = 0;
            }
            if length > 0 {
                line.push(' ');
                length += 1;
            }
            // A word longer than a line is cut.
            while length + word.len() > columns {
                let head: String = word.drain(..columns - length).collect();
                line.push_str(&head);
                lines.push(std::mem::take(&mut line));
                length = 0;
            }
            length += word.len();
            line.extend(word);
        }
        lines.push(line);
    }
    lines
}

/// A player's label fitted into `lines` lines of `columns` characters, with `clock`
/// characters kept free at the end of one of them for the clock: the lines and the one
/// that has the clock. The first of the label's forms (the whole label, then a shorter
/// one) that fits is taken, on one line, or broken after its `: ` (`Attackers` /
/// `ann (you)`), or between words; when none fits, the last is cut, so that nothing
/// runs into the other player's half or under the clock.
pub(super) fn fit_label(
    forms: &[&str],
    columns: usize,
    lines: usize,
    clock: usize,
) -> (Vec<String>, usize) {
    let forms: Vec<&str> = forms
        .iter()
        .copied()
        .filter(|form| !form.is_empty())
        .collect();
    let room = |line: usize, clock_line: usize| match line == clock_line {
        true => columns.saturating_sub(clock),
        false => columns,
    };
    let fits = |split: &[String], clock_line: usize| {
        split.len() <= lines
            && split
                .iter()
                .enumerate()
                .all(|(line, text)| text.chars().count() <= room(line, clock_line))
    };
    for form in &forms {
        let mut splits = vec![vec![form.to_string()]];
        if let Some((side, who)) = form.split_once(": ") {
            splits.push(vec![side.to_owned(), who.to_owned()]);
        }
        splits.push(wrap(form, columns.saturating_sub(clock)));
        for split in &splits {
            if let Some(clock_line) = (0..lines).find(|&line| fits(split, line)) {
                return (split.clone(), clock_line);
            }
        }
    }
    let last = forms.last().copied().unwrap_or_default();
    let mut cut = wrap(last, columns.saturating_sub(clock));
    cut.truncate(lines);
    (cut, 0)
}

/// A line in `columns` characters: whole when it fits, else cut after its last word that
/// fits, with `...` (the game-end banner and the message area give such lines whole).
pub(super) fn fit_line(text: &str, columns: usize) -> String {
    const MORE: &str = "...";
    if text.chars().count() <= columns {
        return text.to_owned();
    }
    let room = columns.saturating_sub(MORE.len());
    let mut line = String::new();
    for word in text.split(' ') {
        let length = line.chars().count();
        let added = word.chars().count() + usize::from(length > 0);
        if length + added > room {
            break;
        }
        if length > 0 {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.is_empty() {
        line = text.chars().take(room).collect();
    }
    line + MORE
}

/// The prompt's hint in `columns` characters: where all of it does not fit, its last
/// part (after the last `; `: `h: help`), which says where to find everything else.
pub(super) fn fit_hint(hint: &str, columns: usize) -> String {
    if hint.chars().count() <= columns {
        return hint.to_owned();
    }
    let last = hint.rsplit_once("; ").map_or(hint, |(_, last)| last);
    last.chars().take(columns).collect()
}

/// A clock as the window shows it, in whole seconds: `4:58`, `1:02:03` past an hour,
/// `2d 11:59:58` past a day (a correspondence clock). Whole seconds change once a
/// second, so a running clock costs one frame a second.
pub fn clock_text(left: Duration) -> String {
    let seconds = left.as_secs();
    let (days, hours) = (seconds / 86_400, seconds / 3600 % 24);
    let (minutes, seconds) = (seconds / 60 % 60, seconds % 60);
    if days > 0 {
        format!("{days}d {hours:02}:{minutes:02}:{seconds:02}")
    } else if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// How long until a running clock that shows `left` now shows another [`clock_text`]:
/// the part of a second above its whole seconds (a whole second when there is none).
pub fn clock_change(left: Duration) -> Duration {
    match left.subsec_nanos() {
        0 if left.is_zero() => Duration::MAX,
        0 => Duration::from_secs(1),
        nanos => Duration::from_nanos(u64::from(nanos)),
    }
}

pub(super) fn text_item(x: u32, y: u32, text: String, background: Rgb) -> TextItem {
    TextItem {
        x: x as i32,
        y: y as i32,
        text,
        foreground: TEXT,
        background,
    }
}
