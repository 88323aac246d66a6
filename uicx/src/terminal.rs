//! What the command line writes: replies on standard output and errors on standard error,
//! never panicking on a closed pipe, and the progress line while the computer thinks.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::lang::{Key, Language, Message};
use crate::session::{Reply, SearchProgress};

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

/// Whether the board may be coloured: what `anstream` decides for standard output from
/// the terminal, `NO_COLOR`, `CLICOLOR` and `CLICOLOR_FORCE`.
pub fn colour() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

/// The command line's output: replies, the prompt and the progress line.
pub struct Terminal {
    closed: bool,
    prompt: bool,
    progress: Option<ProgressBar>,
    show_progress: bool,
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
        }
    }

    /// Whether standard output is gone: the program then ends quietly.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Whether there is a prompt (standard input is a terminal).
    pub fn interactive(&self) -> bool {
        self.prompt
    }

    /// Writes lines to standard output.
    pub fn lines(&mut self, lines: &[String]) {
        for line in lines {
            self.line(line);
        }
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
    }

    /// Writes an error line to standard error.
    pub fn error(&mut self, text: &str) {
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
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
    }
}
