//! `hnefatafl --check [-w] [FILE...]`: the rule-file checker, after lev_comp's `-w`.
//!
//! Reads each file (a path, or a rule file's name looked up as `-r` does; standard input
//! when none is named), prints every error, not only the first, as
//! `file:line: RREAD: ...` or `file:line: RVALID: ...` (`file: RVALID: ...` for a rule that
//! is missing, so has no line), and with `-w` also the warnings,
//! `file:line: warning: ...`, all on standard error; a file without errors is said to be
//! good on standard output (`file: good: no errors, no warnings`). The exit status is 1
//! when any file has an error (or cannot be read), else 0: warnings do not change it.

use std::ffi::OsString;
use std::io::{Read, Write};

use gleipnir::Line;
use hnefatafl_core::{PieceType, Player, Rules, Square};

/// The name standard input goes by in messages.
const STDIN_NAME: &str = "<stdin>";

/// Runs the checker on the arguments after `--check`; returns the exit status.
pub fn run(args: &[OsString]) -> i32 {
    let mut warnings = false;
    let mut files = Vec::new();
    let mut options_done = false;
    for arg in args {
        match arg.to_str() {
            Some("-w") if !options_done => warnings = true,
            Some("--") if !options_done => options_done = true,
            _ => files.push(arg.clone()),
        }
    }
    let mut stderr = std::io::stderr().lock();
    let mut failed = false;
    if files.is_empty() {
        let mut text = Vec::new();
        match std::io::stdin().lock().read_to_end(&mut text) {
            Ok(_) => failed |= !report(&mut stderr, STDIN_NAME, &text, warnings),
            Err(error) => {
                let _ = writeln!(stderr, "{STDIN_NAME}: cannot read: {error}");
                failed = true;
            }
        }
    }
    let dirs = crate::cli::data_dirs(None);
    for file in &files {
        let name = file.to_string_lossy();
        // A path that is not there may be the name of a rule file, looked up as `-r` does.
        let named = match std::path::Path::new(file).exists() {
            true => None,
            false => dirs
                .read_named("rules", &name, crate::data::Origin::Indirect)
                .ok(),
        };
        if let Some((found, text)) = named {
            failed |= !report(&mut stderr, &found.to_string(), &text, warnings);
            continue;
        }
        match std::fs::read(file) {
            Ok(text) => failed |= !report(&mut stderr, &name, &text, warnings),
            Err(error) => {
                let _ = writeln!(stderr, "{name}: cannot read: {error}");
                failed = true;
            }
        }
    }
    i32::from(failed)
}

/// The most errors reported for one file: past them the file is more likely not a rule
/// file at all.
const MAX_ERRORS: usize = 100;

/// Checks one file's text and prints what it finds; returns whether it has no error.
fn report(out: &mut impl Write, name: &str, text: &[u8], warnings: bool) -> bool {
    let errors = errors(text);
    for error in &errors {
        let _ = writeln!(out, "{}", error.at(name));
    }
    if !errors.is_empty() {
        return false;
    }
    let mut verdict = "good: no errors".to_owned();
    if warnings {
        if let Ok(rules) = Rules::parse(text) {
            let lines = gleipnir::parse(text).unwrap_or_default();
            let found = warn(&rules, &lines);
            for warning in &found {
                let _ = writeln!(out, "{name}:{}: warning: {}", warning.line, warning.message);
            }
            verdict = match found.len() {
                0 => "good: no errors, no warnings".to_owned(),
                1 => "no errors, 1 warning".to_owned(),
                many => format!("no errors, {many} warnings"),
            };
        }
    }
    println!("{name}: {verdict}");
    true
}

/// One error of a file: its line (none for a rule that is not written at all) and
/// `CLASS: reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The 1-based line, when the error has one.
    pub line: Option<u32>,
    /// `RREAD: ...` or `RVALID: ...`.
    pub text: String,
}

impl FileError {
    /// The error as printed for a file: `file:line: CLASS: reason`, or `file: CLASS:
    /// reason` without a line.
    pub fn at(&self, file: &str) -> String {
        match self.line {
            Some(line) => format!("{file}:{line}: {}", self.text),
            None => format!("{file}: {}", self.text),
        }
    }
}

/// Every error of a rule file, as lev_comp goes on after an error: the rule parser stops
/// at the first line that cannot be read (RREAD), so each such line is left out in turn
/// and the rest read again. An invalid rule (RVALID) is judged on the whole file, so the
/// violations (every one the parser finds, each with its line) are reported only when
/// every line reads; after a line is left out, the rules are incomplete and their
/// validity is not judged. In the order of the lines, those without a line first.
pub fn errors(text: &[u8]) -> Vec<FileError> {
    let mut found: Vec<FileError> = Vec::new();
    let push = |found: &mut Vec<FileError>, line: Option<u32>, text: String| {
        found.push(FileError { line, text });
    };
    // First the syntax (quotes, escapes, UTF-8): the physical line at fault is emptied.
    let mut bytes = text.to_vec();
    let lines = loop {
        match gleipnir::parse(&bytes) {
            Ok(lines) => break lines,
            Err(error) => {
                push(
                    &mut found,
                    Some(error.line()),
                    format!("RREAD: {}", error.reason()),
                );
                if found.len() >= MAX_ERRORS || !empty_line(&mut bytes, error.line()) {
                    return in_order(found);
                }
            }
        }
    };
    // Then the rules, read again without each line that cannot be read. A logical line is
    // written whole on the physical line it starts on, so that every number stays.
    let mut left_out = std::collections::BTreeSet::new();
    loop {
        let kept = lines.iter().filter(|line| !left_out.contains(&line.number));
        let Err(error) = Rules::parse(&rewrite(kept)) else {
            return in_order(found);
        };
        if error.kind() == hnefatafl_core::RulesErrorKind::Valid {
            if found.is_empty() {
                for violation in error.violations() {
                    let text = format!("RVALID: {}: {}", violation.rule, violation.message);
                    push(&mut found, violation.line, text);
                }
            }
            return in_order(found);
        }
        let line = error.line();
        push(
            &mut found,
            Some(line.unwrap_or(1)),
            format!("{}: {}", error.code(), error.reason()),
        );
        match line {
            Some(line) if found.len() < MAX_ERRORS && left_out.insert(line) => {}
            _ => return in_order(found),
        }
    }
}

/// The errors by line, those without a line first.
fn in_order(mut found: Vec<FileError>) -> Vec<FileError> {
    found.sort_by_key(|error| error.line);
    found
}

/// Empties a physical line (1-based) of a text, keeping its newline; false when the text
/// has no such line.
fn empty_line(bytes: &mut Vec<u8>, number: u32) -> bool {
    let mut start = 0;
    for _ in 1..number {
        match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(at) => start += at + 1,
            None => return false,
        }
    }
    if start >= bytes.len() {
        return false;
    }
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |at| start + at);
    bytes.drain(start..end);
    true
}

/// Logical lines written back as text, each on the physical line it started on.
fn rewrite<'a>(lines: impl Iterator<Item = &'a Line>) -> Vec<u8> {
    let mut out = String::new();
    let mut number = 1;
    for line in lines {
        while number < line.number {
            out.push('\n');
            number += 1;
        }
        let words: Vec<String> = line
            .words
            .iter()
            .map(|word| gleipnir::quote(word))
            .collect();
        out.push_str(&words.join(" "));
    }
    out.push('\n');
    out.into_bytes()
}

/// A warning about valid rules, with the line it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The 1-based line.
    pub line: u32,
    /// What may be wrong, in English.
    pub message: String,
}

impl Warning {
    /// A warning about the line whose first words are `words` (see [`line_of`]).
    fn at(lines: &[Line], words: &[&str], message: String) -> Warning {
        Warning {
            line: line_of(lines, words),
            message,
        }
    }
}

/// The line whose first words are `words`, else the first line of the file.
fn line_of(lines: &[Line], words: &[&str]) -> u32 {
    lines
        .iter()
        .find(|line| {
            line.words.len() >= words.len() && line.words.iter().zip(words).all(|(a, b)| a == b)
        })
        .or(lines.first())
        .map_or(1, |line| line.number)
}

/// Every warning of valid rules (lev_comp's `-w`): see docs/rules.md, "Checking rule
/// files". Each check of `WARNINGS` in turn.
pub fn warn(rules: &Rules, lines: &[Line]) -> Vec<Warning> {
    let mut found = Vec::new();
    for check in WARNINGS {
        check(rules, lines, &mut found);
    }
    found
}

/// A check of valid rules that adds each warning it finds.
type WarningCheck = fn(&Rules, &[Line], &mut Vec<Warning>);

/// The checks of `-w`, in the order their warnings are printed.
const WARNINGS: [WarningCheck; 7] = [
    never_captured,
    unreachable_escape,
    cannot_win,
    noreturn_never_started_on,
    undeclared_ui_bit,
    asymmetric_start,
    never_ends,
];

/// The line of a piece type's declaration.
fn piece_line(lines: &[Line], piece: PieceType) -> u32 {
    line_of(lines, &["piece", "bit", &piece.to_string()])
}

/// A piece type that nothing can capture.
fn never_captured(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    let pieces = rules.piece_rules();
    for rule in pieces {
        let piece = rule.piece();
        let captured = pieces.iter().any(|enemy| {
            enemy.owner() != rule.owner()
                && (enemy.captures().contains(piece) || enemy.jump().contains(piece))
        });
        if !captured {
            found.push(Warning {
                line: piece_line(lines, piece),
                message: format!(
                    "piece type {piece} can never be captured: no enemy type captures it"
                ),
            });
        }
    }
}

/// An escape square that no escape piece may stand on.
fn unreachable_escape(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    for square in rules.square_rules().iter().filter(|s| s.escape()) {
        let reachable = rules.piece_rules().iter().any(|rule| {
            rule.escape()
                && rule.occupies().contains(square.square())
                && rule.escape_on().contains(square.square())
        });
        if !reachable {
            let square = square.square();
            found.push(Warning::at(
                lines,
                &["square", "bit", &square.to_string()],
                format!(
                    "escape square type {square} can never be reached: no escape piece occupies it"
                ),
            ));
        }
    }
}

/// A player who cannot win (leaving the opponent without a move aside).
fn cannot_win(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    let pieces = rules.piece_rules();
    for player in Player::BOTH {
        let escapes = pieces
            .iter()
            .any(|rule| rule.owner() == player && rule.escape())
            && rules.escape_squares().next().is_some();
        let captures_loss = pieces.iter().any(|victim| {
            victim.owner() != player
                && victim.capture_loss()
                && pieces
                    .iter()
                    .any(|rule| rule.owner() == player && rule.captures().contains(victim.piece()))
        });
        if !escapes && !captures_loss && rules.encircle() != Some(player) {
            found.push(Warning::at(
                lines,
                &["id"],
                format!(
                    "player {player} cannot win except by leaving the other without a move: \
                     no escape, no `capt_loss` type he captures, no `encircle`"
                ),
            ));
        }
    }
}

/// `noreturn` squares that no piece of the type starts on.
fn noreturn_never_started_on(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    let start = rules.start_position();
    for rule in rules
        .piece_rules()
        .iter()
        .filter(|rule| !rule.noreturn().is_empty())
    {
        let starts_there = start.pieces().any(|(square, piece)| {
            piece == rule.piece()
                && rules
                    .square_type(square)
                    .is_some_and(|t| rule.noreturn().contains(t))
        });
        if !starts_there {
            let piece = rule.piece().to_string();
            found.push(Warning::at(
                lines,
                &["piece", &piece, "noreturn"],
                format!("piece type {piece} has `noreturn` squares but starts on none of them"),
            ));
        }
    }
}

/// `ui_bit` naming an undeclared type.
fn undeclared_ui_bit(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    let pieces = rules.piece_rules().iter().filter_map(|rule| {
        let shown = rule
            .ui_bit()
            .filter(|bit| rules.piece_rule(*bit).is_none())?;
        Some(("piece", rule.piece().to_string(), shown.to_string()))
    });
    let squares = rules.square_rules().iter().filter_map(|rule| {
        let shown = rule
            .ui_bit()
            .filter(|bit| rules.square_rule(*bit).is_none())?;
        Some(("square", rule.square().to_string(), shown.to_string()))
    });
    for (kind, name, shown) in pieces.chain(squares) {
        found.push(Warning::at(
            lines,
            &[kind, &name, "ui_bit"],
            format!("{kind} type {name} has `ui_bit {shown}`, an undeclared {kind} type"),
        ));
    }
}

/// A start position that is not symmetric where the squares are.
fn asymmetric_start(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    let start = rules.start_position();
    for (symmetry, name) in SYMMETRIES {
        let Some(squares_symmetric) = symmetric(rules, symmetry, |s| rules.square_type(s)) else {
            continue;
        };
        if squares_symmetric {
            // The same pieces on both sides, or each side's pieces facing the other's
            // (two armies on their back rows).
            // Or, as in halatafl, one army is the other turned round: facing under
            // another symmetry than the squares'.
            let same = symmetric(rules, symmetry, |s| start.piece_at(s)) == Some(true);
            let owner = |s: Square| start.piece_at(s).and_then(|piece| rules.owner(piece));
            let facing = SYMMETRIES.iter().any(|&(any, _)| {
                symmetric_by(rules, any, |a, b| match (owner(a), owner(b)) {
                    (Some(p), Some(q)) => p != q,
                    (p, q) => p.is_none() && q.is_none(),
                }) == Some(true)
            });
            if !same && !facing {
                found.push(Warning::at(
                    lines,
                    &["pieces"],
                    format!("the squares are symmetric {name}, but the start position is not"),
                ));
            }
        }
    }
}

/// A game that may never end.
fn never_ends(rules: &Rules, lines: &[Line], found: &mut Vec<Warning>) {
    if !rules.forbid_repeat() && rules.repetition().is_none() && rules.draw_plies().is_none() {
        found.push(Warning::at(
            lines,
            &["id"],
            "a game may never end: no `forbid_repeat`, `repetition` or `draw_plies`".to_owned(),
        ));
    }
}

/// A mirror or turn of the board: the square a square goes to.
type Symmetry = fn(u8, u8, u8, u8) -> (u8, u8);

/// The symmetries a start position is checked for, with their names in warnings.
const SYMMETRIES: [(Symmetry, &str); 3] = [
    (|x, y, w, _| (w - 1 - x, y), "left to right"),
    (|x, y, _, h| (x, h - 1 - y), "top to bottom"),
    (|x, y, w, h| (w - 1 - x, h - 1 - y), "under a half turn"),
];

/// Whether `value` is the same on every square and its image; `None` when the image of a
/// square is not on the board.
fn symmetric<T: PartialEq>(
    rules: &Rules,
    symmetry: Symmetry,
    value: impl Fn(Square) -> T,
) -> Option<bool> {
    symmetric_by(rules, symmetry, |a, b| value(a) == value(b))
}

/// Whether `matches` holds for every square and its image; `None` when the image of a
/// square is not on the board.
fn symmetric_by(
    rules: &Rules,
    symmetry: Symmetry,
    matches: impl Fn(Square, Square) -> bool,
) -> Option<bool> {
    let (width, height) = (rules.width(), rules.height());
    let mut all = true;
    for square in rules.squares() {
        let (x, y) = symmetry(square.x(), square.y(), width, height);
        let image = rules.square_at(x, y)?;
        all &= matches(square, image);
    }
    Some(all)
}
