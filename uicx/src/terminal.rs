//! What the command line writes: replies on standard output and errors on standard error,
//! never panicking on a closed pipe, the progress line while the computer thinks, and a
//! live analysis's block of lines, rewritten in place at a terminal.

use std::io::{IsTerminal, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::lang::{Key, Language, Message};
use crate::session::{Reply, SearchProgress, Shown};

/// Writes one line to standard output; `false` when standard output is gone (a closed
/// pipe), so the caller can end quietly instead of panicking.
pub fn print_line(text: &str) -> bool {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// Writes one line to standard error; a closed standard error is ignored.
pub fn print_error(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{text}");
}

/// Turns the echo of typed characters on or off when standard input is a terminal (for
/// a password); elsewhere does nothing.
pub fn set_echo(on: bool) {
    use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return;
    }
    let Ok(mut modes) = tcgetattr(&stdin) else {
        return;
    };
    if modes.local_modes.contains(LocalModes::ECHO) == on {
        return;
    }
    modes.local_modes.set(LocalModes::ECHO, on);
    let _ = tcsetattr(&stdin, OptionalActions::Now, &modes);
}

/// Turns the terminal's line discipline off (`raw`: each key is read as it is pressed,
/// not echoed, and Control-C is a key too) or back on, when standard input is a
/// terminal; elsewhere does nothing.
fn set_raw(raw: bool) {
    use rustix::termios::{LocalModes, OptionalActions, SpecialCodeIndex, tcgetattr, tcsetattr};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return;
    }
    let Ok(mut modes) = tcgetattr(&stdin) else {
        return;
    };
    let line = LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG;
    modes.local_modes.set(line, !raw);
    if raw {
        modes.special_codes[SpecialCodeIndex::VMIN] = 1;
        modes.special_codes[SpecialCodeIndex::VTIME] = 0;
    }
    let _ = tcsetattr(&stdin, OptionalActions::Now, &modes);
}

/// Whether standard input is read a key at a time (while a live analysis runs at a
/// terminal, so that any key stops it): shared by the command loop, which turns it on
/// and off, and the reader of standard input ([`KeyWatch`]).
#[derive(Clone, Debug, Default)]
pub struct KeyMode(Arc<AtomicBool>);

impl KeyMode {
    /// Turns the key mode on or off, and with it the terminal's line discipline.
    pub fn set(&self, on: bool) {
        if self.0.load(Ordering::SeqCst) == on {
            return;
        }
        // Off: the reader stops taking keys before the lines come back, so that no
        // key pressed in between is read as part of a line.
        if on {
            set_raw(true);
            self.0.store(true, Ordering::SeqCst);
        } else {
            self.0.store(false, Ordering::SeqCst);
            set_raw(false);
        }
    }

    /// Whether the key mode is on.
    pub fn on(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Standard input as its reader reads it: while the [`KeyMode`] is on, whatever
/// arrives is a key press, handed to `pressed` and never part of a line; `pressed`
/// answers `false` when nobody listens any more, which ends the input.
pub struct KeyWatch<R, F> {
    input: R,
    mode: KeyMode,
    pressed: F,
}

impl<R, F> KeyWatch<R, F> {
    /// Watches `input` for keys while `mode` is on.
    pub fn new(input: R, mode: KeyMode, pressed: F) -> KeyWatch<R, F> {
        KeyWatch {
            input,
            mode,
            pressed,
        }
    }
}

impl<R: Read, F: FnMut() -> bool> Read for KeyWatch<R, F> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let count = self.input.read(buffer)?;
            if count == 0 || !self.mode.on() {
                return Ok(count);
            }
            if !(self.pressed)() {
                return Ok(0);
            }
        }
    }
}

/// Whether the board may be coloured: what `anstream` decides for standard output from
/// the terminal, `NO_COLOR`, `CLICOLOR` and `CLICOLOR_FORCE`.
pub fn colour() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

/// Whether standard output is a terminal that moves its cursor (any but `TERM=dumb`),
/// where a live analysis's lines are rewritten in place; colour plays no part.
fn moves_cursor() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("TERM").is_none_or(|term| term != "dumb")
}

/// The width of standard output's terminal in columns; `None` where it is not known.
fn columns() -> Option<usize> {
    rustix::termios::tcgetwinsize(std::io::stdout())
        .ok()
        .map(|size| usize::from(size.ws_col))
        .filter(|&columns| columns > 0)
}

/// How many rows of a terminal `columns` wide a line takes once it wraps.
fn rows_of(line: &str, columns: Option<usize>) -> usize {
    let width = line.chars().count();
    columns.map_or(1, |columns| width.div_ceil(columns)).max(1)
}

/// The command line's output: replies, the prompt, the progress line and a live
/// analysis's block.
pub struct Terminal {
    closed: bool,
    prompt: bool,
    progress: Option<ProgressBar>,
    show_progress: bool,
    keys: KeyMode,
    /// Whether a live analysis's block is rewritten in place ([`moves_cursor`]).
    in_place: bool,
    /// The rows of the block last written, just above the cursor: 0 once anything
    /// else was written below it.
    block_rows: usize,
}

impl Terminal {
    /// Output for a run whose standard input is a terminal when `prompt`; the progress
    /// line is shown only when standard output and standard error are terminals.
    pub fn new(prompt: bool) -> Terminal {
        Terminal {
            closed: false,
            prompt,
            progress: None,
            show_progress: std::io::stdout().is_terminal() && std::io::stderr().is_terminal(),
            keys: KeyMode::default(),
            in_place: moves_cursor(),
            block_rows: 0,
        }
    }

    /// The key mode of standard input, for its reader ([`KeyWatch`]).
    pub fn key_mode(&self) -> KeyMode {
        self.keys.clone()
    }

    /// Reads standard input a key at a time (`true`, at a terminal only) or a line at a
    /// time.
    pub fn read_keys(&mut self, keys: bool) {
        self.keys.set(keys && self.prompt);
    }

    /// Whether standard output is gone: the program then ends quietly.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Whether there is a prompt (standard input is a terminal).
    pub fn interactive(&self) -> bool {
        self.prompt
    }

    /// Writes what arrived by itself: each line once, and each finished depth of a live
    /// analysis at a terminal as its whole block in place of the one before (cursor up
    /// over it, erase to the end of the screen), in a pipe as its one line.
    pub(crate) fn shown(&mut self, shown: &[Shown]) {
        for item in shown {
            match item {
                Shown::Line(line) => self.line(line),
                Shown::Depth { block, .. } if self.in_place => self.block(block),
                Shown::Depth { line, .. } => self.line(line),
            }
        }
    }

    /// Writes `block` over the block written last, when nothing came below it since.
    fn block(&mut self, block: &[String]) {
        if self.closed {
            return;
        }
        let mut text = String::new();
        if self.block_rows > 0 {
            text = format!("\r\x1b[{}A\x1b[J", self.block_rows);
        }
        for line in block {
            text.push_str(line);
            text.push('\n');
        }
        let write = || {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .is_ok()
        };
        let ok = match &self.progress {
            Some(bar) => bar.suspend(write),
            None => write(),
        };
        self.closed = !ok;
        let columns = columns();
        self.block_rows = block.iter().map(|line| rows_of(line, columns)).sum();
    }

    /// Writes one line to standard output, above the progress line if one shows.
    pub fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let ok = match &self.progress {
            Some(bar) => bar.suspend(|| print_line(text)),
            None => print_line(text),
        };
        self.closed = !ok;
        self.block_rows = 0;
    }

    /// Writes an error line to standard error.
    pub fn error(&mut self, text: &str) {
        self.block_rows = 0;
        match &self.progress {
            Some(bar) => bar.suspend(|| print_error(text)),
            None => print_error(text),
        }
    }

    /// Shows a command's reply: its last line on standard error when it failed.
    pub fn reply(&mut self, reply: &Reply) {
        let count = reply.lines.len();
        for (index, line) in reply.lines.iter().enumerate() {
            if reply.failed && index + 1 == count {
                self.error(line);
            } else {
                self.line(line);
            }
        }
    }

    /// Ends the prompt's line, so that output that arrives by itself (the server's
    /// messages, the computer's move) starts on a line of its own (at a terminal only).
    pub fn leave_prompt(&mut self) {
        if self.prompt {
            self.line("");
        }
    }

    /// Writes the prompt `> ` (at a terminal only), or, where the next line is a
    /// password, `secret` and a space: a prompt that does not look like the command
    /// line's.
    pub fn prompt(&mut self, secret: Option<&str>) {
        if !self.prompt || self.closed {
            return;
        }
        self.block_rows = 0;
        let mut stdout = std::io::stdout().lock();
        let written = match secret {
            Some(text) => write!(stdout, "{text} "),
            None => write!(stdout, "> "),
        };
        self.closed = written.and_then(|()| stdout.flush()).is_err();
    }

    /// Shows or updates the progress line of the computer's search; `None` removes it.
    pub fn progress(&mut self, language: &Language, progress: Option<SearchProgress>) {
        let Some(progress) = progress.filter(|_| self.show_progress) else {
            if let Some(bar) = self.progress.take() {
                bar.finish_and_clear();
            }
            return;
        };
        let bar = self.progress.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let seconds = |duration: std::time::Duration| format!("{:.1}", duration.as_secs_f64());
        let player = progress.player.index().to_string();
        let depth = progress.depth.to_string();
        let best = progress.best.unwrap_or_else(|| "-".to_owned());
        let message = match progress.budget {
            Some(budget) => Message::new(
                Key::ThinkingProgress,
                [
                    player,
                    depth,
                    seconds(progress.elapsed),
                    seconds(budget),
                    best,
                ],
            ),
            None => Message::new(
                Key::ThinkingProgressOpen,
                [player, depth, seconds(progress.elapsed), best],
            ),
        };
        bar.set_message(language.text(&message));
        bar.tick();
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.keys.set(false);
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
    }
}
