//! The front-end seam of the output: what the command line and the X window show
//! differently, said once for each. The interpreter asks its front end and never tests
//! where a command came from.

use crate::lang::{Key, Message};
use crate::messages::Naming;

use super::commands::{self, Group};
use super::{Action, Source};

/// What a front end shows in its own way.
pub(crate) trait Frontend {
    /// How squares and moves are named.
    fn naming(&self) -> Naming;
    /// Whether the board, whose turn it is and the clocks are written as text (after
    /// each move and on `b`); the window shows them in strips of its own.
    fn board_as_text(&self) -> bool;
    /// Whether each depth of an analysis is written as a line; the window shows the
    /// analysis in a pane of its own instead.
    fn analysis_as_text(&self) -> bool;
    /// How the input is named in a syntax error: `stdin`, `X`.
    fn input_name(&self) -> &'static str;
    /// The line before the help of every command (`h`).
    fn help_intro(&self) -> Message;
    /// The line after it.
    fn help_outro(&self) -> Key;
    /// What `x` asks for: the window (with a theme), or to leave it.
    fn x(&self, theme: Option<&str>) -> Action;
}

/// The command line (standard input and rc files): numbers and names, the board as
/// text, `x` opens the window.
struct CommandLine;

impl Frontend for CommandLine {
    fn naming(&self) -> Naming {
        Naming::Both
    }

    fn board_as_text(&self) -> bool {
        true
    }

    fn analysis_as_text(&self) -> bool {
        true
    }

    fn input_name(&self) -> &'static str {
        "stdin"
    }

    fn help_intro(&self) -> Message {
        Message::plain(Key::HelpIntro)
    }

    fn help_outro(&self) -> Key {
        Key::HelpBoard
    }

    fn x(&self, theme: Option<&str>) -> Action {
        Action::EnterX(theme.map(str::to_owned))
    }
}

/// The X window: the labelled board's names, the board drawn, the window's keys in the
/// help, `x` leaves it.
struct Window;

impl Frontend for Window {
    fn naming(&self) -> Naming {
        Naming::Board
    }

    fn board_as_text(&self) -> bool {
        false
    }

    fn analysis_as_text(&self) -> bool {
        false
    }

    fn input_name(&self) -> &'static str {
        "X"
    }

    fn help_intro(&self) -> Message {
        // Shorter than on the command line (no board key), but every command.
        Message::new(Key::HelpX, [commands::names(Group::Local)])
    }

    fn help_outro(&self) -> Key {
        Key::XHelpWindow
    }

    fn x(&self, _theme: Option<&str>) -> Action {
        Action::LeaveX
    }
}

impl Source {
    /// The front end that commands from here are answered for.
    pub(crate) fn frontend(self) -> &'static dyn Frontend {
        match self {
            Source::Stdin | Source::Rc => &CommandLine,
            Source::X => &Window,
        }
    }
}
