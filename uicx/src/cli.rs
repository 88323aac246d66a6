//! The command-line front end: arguments, start-up (language, rules, rc file, saved
//! game) and the command loop on standard input. It owns the switch to the X window and
//! back (see [`crate::session`] for the seam).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::args::{self, Args, VARIABLES};
use crate::data::{DataDirs, Origin};
use crate::lang::{Key, Language, Message};
use crate::session::commands::{self, WhileThinking};
use crate::session::{Action, COMPUTER_PACE, Locks, Reply, Session, Source};
use crate::terminal::{self, Terminal, print_error, print_line};
use crate::window_host;
use crate::x11::XExit;

/// The licence of the program.
pub const LICENCE: &str = "\
Permission to use, copy, modify, and distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED \"AS IS\" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.";

/// The copyright line.
pub const COPYRIGHT: &str = "Copyright © 2026 The hnefatafl-rs developers";

/// The version of every component (they share the workspace version).
pub fn versions() -> String {
    let version = env!("CARGO_PKG_VERSION");
    ["gleipnir", "hnefatafl-core", "aim", "uicx"]
        .iter()
        .map(|component| format!("{component} {version}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn variable(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

/// The exit status of a run.
const SUCCESS: i32 = 0;
const FAILURE: i32 = 1;

/// How often the loop looks at a running search: the progress line is redrawn and the
/// end-of-input grace is checked.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// After the end of input, how long each search bounded only by its depth may go on
/// before it is made to move: a small depth finishes well within it, and a search that
/// could run for hours cannot keep the program from ending.
const EOF_GRACE: Duration = Duration::from_secs(2);

/// Writes lines to standard output and ends: a closed pipe (`hnefatafl -L | head -1`)
/// ends the listing quietly, as a success.
fn listing(lines: impl IntoIterator<Item = String>) -> i32 {
    for line in lines {
        if !print_line(&line) {
            break;
        }
    }
    SUCCESS
}

/// Runs the program with these arguments (without the program name); returns the exit
/// status.
pub fn run(arguments: Vec<OsString>) -> i32 {
    let args = match args::parse(arguments) {
        Ok(args) => args,
        Err(error) => {
            let language = early_language(None);
            print_error(&language.text(&Message::new(Key::FrArgs, [error])));
            return FAILURE;
        }
    };
    if args.keys {
        return listing(gleipnir::key_names::<Key>().map(str::to_owned));
    }
    if let Some(name) = &args.env {
        let language = early_language(args.lang.as_deref());
        let names: Vec<&str> = match name {
            Some(name) => vec![name.as_str()],
            None => VARIABLES.to_vec(),
        };
        return listing(names.into_iter().map(|name| match std::env::var(name) {
            Ok(value) => format!("{name}={}", crate::shown::escaped(&value)),
            Err(_) => language.text(&Message::new(Key::EnvUnset, [name])),
        }));
    }
    if args.version {
        return listing([versions()]);
    }
    if args.info {
        let language = early_language(args.lang.as_deref());
        return listing([language.get(Key::Info), format!("{COPYRIGHT}\n\n{LICENCE}")]);
    }
    if args.help {
        let language = early_language(args.lang.as_deref());
        return listing([args::help(&language)]);
    }
    if let Some(protocol) = &args.engine {
        let rules = args.rules.clone().or_else(|| variable("HNEFATAFL_RULES"));
        let dirs = data_dirs(args.data.as_deref());
        return crate::protocol::serve(protocol, args.limits.as_deref(), rules, &dirs);
    }
    let mut terminal = Terminal::new(std::io::stdin().is_terminal());
    match start(&args, &mut terminal) {
        Ok(mut session) => {
            let status = command_loop(&mut session, &args, &mut terminal);
            terminal::set_echo(true);
            session.shutdown();
            status
        }
        Err(status) => status,
    }
}

/// The language for messages before the rc file runs: `-l`, `$HNEFATAFL_LANG`, else
/// English; none when it cannot be read.
fn early_language(typed: Option<&str>) -> Language {
    let dirs = data_dirs(None);
    let (name, origin) = match (typed, variable("HNEFATAFL_LANG")) {
        (Some(name), _) => (name.to_owned(), Origin::Typed),
        (None, Some(name)) => (name, Origin::Indirect),
        (None, None) => ("eng".to_owned(), Origin::Indirect),
    };
    dirs.read_named("lang", &name, origin)
        .ok()
        .and_then(|(_, bytes)| Language::parse(&bytes).ok())
        .unwrap_or_default()
}

/// The data directories of the start: `-d`, `$HNEFATAFL_PATH`, the home directory's, the
/// system's and the built-in data.
pub(crate) fn data_dirs(argument: Option<&Path>) -> DataDirs {
    DataDirs {
        user: None,
        argument: argument.map(Path::to_owned),
        environment: variable("HNEFATAFL_PATH").map(PathBuf::from),
        rc: None,
        home: variable("HOME").map(PathBuf::from),
        ..DataDirs::default()
    }
}

/// Whether a directory given at start (`-d`, `$HNEFATAFL_PATH`) is usable; the message
/// says why not.
fn check_dir(path: &Path, full_path: bool) -> Result<(), Message> {
    let name = path.display().to_string();
    if full_path && !path.is_absolute() {
        return Err(Message::new(Key::FrFullPath, [name]));
    }
    if !path.is_dir() {
        return Err(Message::new(Key::FrNotDir, [name]));
    }
    Ok(())
}

/// Everything before the command loop. `Err` is the exit status.
fn start(args: &Args, terminal: &mut Terminal) -> Result<Session, i32> {
    let early = || early_language(args.lang.as_deref());
    if let Some(dir) = &args.data {
        if let Err(message) = check_dir(dir, false) {
            terminal.error(&early().text(&message));
            return Err(FAILURE);
        }
    }
    // The manual: `$HNEFATAFL_PATH` must be a full path to a directory.
    if let Some(dir) = variable("HNEFATAFL_PATH") {
        if let Err(message) = check_dir(Path::new(&dir), true) {
            let language = early();
            let text = language.text(&message);
            let message = Message::new(Key::FrVariable, ["HNEFATAFL_PATH".to_owned(), text]);
            terminal.error(&language.text(&message));
            return Err(FAILURE);
        }
    }
    let dirs = data_dirs(args.data.as_deref());
    let mut locks = Locks {
        saved: args.saved.is_some(),
        data: dirs.argument.is_some() || dirs.environment.is_some(),
        lang: false,
        rules: args.rules.is_some() || variable("HNEFATAFL_RULES").is_some(),
    };
    let mut session = Session::new(dirs, locks);
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    session.set_display(terminal::colour(), interactive, args.no_locale);
    let quiet = args.perft.is_some();

    // `-l` (or its variable) comes first, so the rc file already speaks it. Only a
    // language that loads wins over the rc file's `l`; one that fails is reported and
    // the rc file's applies.
    let lang = match (&args.lang, variable("HNEFATAFL_LANG")) {
        (Some(name), _) => Some((name.clone(), Origin::Typed)),
        (None, Some(name)) => Some((name, Origin::Indirect)),
        (None, None) => None,
    };
    if let Some((name, origin)) = lang {
        let reply = session.apply(|session| session.load_language(&name, origin));
        if !reply.failed {
            locks.lang = true;
            session.set_locks(locks);
        }
        if !quiet || reply.failed {
            terminal.reply(&reply);
        }
    }
    // The rc file leaves `r` alone when `-r` or the variable names the rules.
    let rules = match (&args.rules, variable("HNEFATAFL_RULES")) {
        (Some(name), _) => Some((name.clone(), Origin::Typed)),
        (None, Some(name)) => Some((name, Origin::Indirect)),
        (None, None) => None,
    };
    // The files that the arguments name are checked before the rc file runs, so that a
    // mistyped name is the first thing said; they are loaded after it.
    let checked = match &rules {
        Some((name, origin)) => check_rules(&session, name, *origin),
        None => Ok(()),
    };
    let checked = checked.and_then(|()| match &args.saved {
        Some(path) => crate::files::read(path).map(drop).map_err(|error| {
            let name = path.display().to_string();
            crate::messages::read_message(session.language(), &name, &error)
        }),
        None => Ok(()),
    });
    if let Err(message) = checked {
        terminal.error(&session.text(&message));
        return Err(FAILURE);
    }
    if !args.no_rc {
        run_rc(&mut session, args, quiet, terminal)?;
    }
    if let Some((name, origin)) = rules {
        let reply = session.apply(|session| session.load_rules(&name, origin));
        if reply.failed {
            terminal.reply(&reply);
            return Err(FAILURE);
        }
        if !quiet {
            terminal.reply(&reply);
        }
    }

    if let Some(depth) = args.perft {
        let Some(game) = session.game() else {
            terminal.error(&session.text(&Message::plain(Key::CmdNoRules)));
            return Err(FAILURE);
        };
        let rules = game.rules();
        print_line(&rules.start_position().perft(depth).to_string());
        return Err(SUCCESS);
    }

    if let Some(path) = &args.saved {
        // As given: a full path or one from the current directory, never looked up.
        let path = path.display().to_string();
        let reply = session.apply(|session| session.load_saved(&path));
        if reply.failed {
            terminal.reply(&reply);
            return Err(FAILURE);
        }
        terminal.reply(&reply);
    }
    Ok(session)
}

/// Whether the rule file that `-r` (or its variable) names is found and valid.
fn check_rules(session: &Session, name: &str, origin: Origin) -> Result<(), Message> {
    let (found, bytes) = session
        .dirs()
        .read_named("rules", name, origin)
        .map_err(|error| crate::messages::lookup_message(session.language(), name, &error))?;
    hnefatafl_core::Rules::parse(&bytes)
        .map(drop)
        .map_err(|error| crate::messages::rules_message(&found, &error))
}

/// Finds and runs the rc file: `-c` (a path as given), `$HNEFATAFL_RC` (a full path),
/// else `hnefataflrc` by lookup (never as given). A named rc file that cannot be read ends the start; an
/// error inside the file is reported with its line, and the rest of the file runs.
fn run_rc(
    session: &mut Session,
    args: &Args,
    quiet: bool,
    terminal: &mut Terminal,
) -> Result<(), i32> {
    // `-c` is a path as typed, from the current directory; the variable, which nobody
    // types at the moment it is used, must be a full path.
    let named = match (&args.rc, variable("HNEFATAFL_RC")) {
        (Some(path), _) => Some((path.clone(), false)),
        (None, Some(path)) => Some((PathBuf::from(path), true)),
        (None, None) => None,
    };
    let (name, bytes) = match named {
        Some((path, full_path)) => {
            if full_path && !path.is_absolute() {
                let message = Message::new(Key::FrFullPath, [path.display().to_string()]);
                terminal.error(&session.text(&message));
                return Err(FAILURE);
            }
            let name = path.display().to_string();
            match crate::files::read(&path) {
                Ok(bytes) => (name, bytes),
                Err(error) => {
                    let message = crate::messages::read_message(session.language(), &name, &error);
                    terminal.error(&session.text(&message));
                    return Err(FAILURE);
                }
            }
        }
        None => match session.dirs().read(None, "hnefataflrc") {
            Ok((found, bytes)) => (found.to_string(), bytes),
            Err(crate::data::LookupError::NotFound) => return Ok(()),
            Err(error) => {
                let message =
                    crate::messages::lookup_message(session.language(), "hnefataflrc", &error);
                terminal.error(&session.text(&message));
                return Ok(());
            }
        },
    };
    for item in gleipnir::LineReader::new(&bytes[..]) {
        let at_line = |session: &Session, line: u32, text: String| {
            session.text(&Message::new(
                Key::FrLine,
                [name.clone(), line.to_string(), text],
            ))
        };
        let line = match item {
            Ok(line) if line.words.is_empty() => continue,
            Ok(line) => line,
            Err(gleipnir::ReadError::Syntax(error)) => {
                let text = at_line(session, error.line(), error.reason().to_owned());
                terminal.error(&text);
                continue;
            }
            Err(error) => {
                terminal.error(&at_line(session, 0, error.to_string()));
                break;
            }
        };
        if !quiet {
            let echo: Vec<String> = line
                .words
                .iter()
                .map(|word| crate::shown::shown(&gleipnir::quote(word)).into_owned())
                .collect();
            terminal.line(&format!("# {}", echo.join(" ")));
        }
        let mut reply = session.run_command(&line.words, Source::Rc);
        if reply.failed {
            if let Some(last) = reply.lines.last_mut() {
                *last = at_line(session, line.number, std::mem::take(last));
            }
            terminal.reply(&reply);
        } else if !quiet {
            terminal.reply(&reply);
        }
        match reply.action {
            Action::Quit => return Err(SUCCESS),
            Action::EnterX(theme) => {
                if switch_to_window(session, theme, terminal) == Some(XExit::Quit) {
                    return Err(SUCCESS);
                }
            }
            Action::Continue | Action::LeaveX => {}
        }
    }
    Ok(())
}

/// Opens the X window (`x`); when it cannot run, says why and stays on the command line,
/// as `-x` does. Returns how the window ended, `None` when it did not run.
fn switch_to_window(
    session: &mut Session,
    theme: Option<String>,
    terminal: &mut Terminal,
) -> Option<XExit> {
    terminal.progress(session.language(), None);
    match window_host::run(session, theme) {
        Ok(exit) => {
            if exit != XExit::Quit {
                terminal.line(&session.text(&Message::plain(Key::BackFromX)));
            }
            Some(exit)
        }
        Err(message) => {
            terminal.error(&session.text(&message));
            None
        }
    }
}

/// What reaches the command loop.
enum Input {
    /// A line of standard input.
    Line(Vec<String>),
    /// A line of standard input read as typed: the password after `login` or `register`.
    Secret(String),
    /// A line that could not be read.
    Bad(String),
    /// The end of standard input.
    End,
    /// The search has news.
    Wake,
    /// A key was pressed while standard input is read a key at a time.
    Key,
}

/// A line of standard input to run: a command, or a line read as typed.
enum Typed {
    /// A command's words.
    Command(Vec<String>),
    /// The line after `login` or `register`, as typed.
    Secret(String),
}

impl From<Input> for Typed {
    fn from(input: Input) -> Self {
        match input {
            Input::Secret(text) => Typed::Secret(text),
            Input::Line(words) => Typed::Command(words),
            Input::Bad(_) | Input::End | Input::Wake | Input::Key => Typed::Command(Vec::new()),
        }
    }
}

/// How a command typed while the computer thinks is handled.
#[derive(Debug, PartialEq, Eq)]
enum DuringSearch {
    /// Run it now.
    Now,
    /// Run it after the search, in order.
    Queue,
    /// Stop the search (it moves now), then run it in order.
    StopThenQueue,
}

/// `f` and `q` act at once, even behind queued commands; at a terminal, so do the
/// commands that only read (`b`, `p`, `h`), while a script gets their answers in order.
/// With nothing queued, commands that leave the position alone also act at once, and
/// `u` and `n` stop the search and act; behind queued commands `u` and `n` make the
/// search move now and wait their turn. Everything else waits for the computer's move,
/// so that scripts run in order.
fn during_search(words: &[String], queued: bool, interactive: bool) -> DuringSearch {
    let Some(command) = words.first().and_then(|name| commands::find(name)) else {
        return DuringSearch::Queue;
    };
    match (command.while_thinking, queued) {
        (WhileThinking::Now, _) => DuringSearch::Now,
        _ if interactive && command.reads_only(words.len() - 1) => DuringSearch::Now,
        (WhileThinking::StopsSearch | WhileThinking::WhenNothingQueued, false) => DuringSearch::Now,
        (WhileThinking::StopsSearch, true) => DuringSearch::StopThenQueue,
        _ => DuringSearch::Queue,
    }
}

/// Reads standard input on a thread of its own, line by line (a password as typed), and
/// sends each to the command loop; `Input::End` at its end. While `keys` is on, each
/// key press is sent as `Input::Key` instead.
fn spawn_reader(sender: mpsc::Sender<Input>, keys: terminal::KeyMode) {
    std::thread::spawn(move || {
        let key_sender = sender.clone();
        let watch = terminal::KeyWatch::new(std::io::stdin(), keys, move || {
            key_sender.send(Input::Key).is_ok()
        });
        let mut reader = gleipnir::LineReader::new(std::io::BufReader::new(watch));
        while let Some(item) = reader.next() {
            let secret = match &item {
                Ok(line) => Session::secret_follows(&line.words),
                Err(_) => false,
            };
            let input = match item {
                Ok(line) => Input::Line(line.words),
                Err(error) => Input::Bad(error.to_string()),
            };
            if sender.send(input).is_err() {
                return;
            }
            // A password is taken as typed, so that it may hold any character.
            let input = match secret.then(|| reader.next_verbatim()).flatten() {
                None => continue,
                Some(Ok(text)) => Input::Secret(text),
                Some(Err(error)) => Input::Bad(error.to_string()),
            };
            if sender.send(input).is_err() {
                return;
            }
        }
        let _ = sender.send(Input::End);
    });
}

/// What the command loop keeps between its turns.
#[derive(Default)]
struct LoopState {
    /// Lines that wait for the computer's move or the server's answer, in order.
    queue: VecDeque<Typed>,
    /// When standard input ended.
    ended: Option<Instant>,
    /// When the last computer move came, for the pace of a game between two computers.
    last_computer_move: Option<Instant>,
    /// Whether the prompt is shown.
    prompted: bool,
}

/// What waiting for input gave.
enum Waited {
    /// An input to handle.
    Input(Input),
    /// Time to look again (a pause ran out, or the progress line is due).
    Again,
    /// No more input can come.
    Closed,
}

/// Waits for the next input: up to the pause of a game between two computers, or the
/// next progress line while the computer thinks (stopping a search bounded only by its
/// depth once input has ended), or for as long as it takes.
fn wait_input(
    session: &mut Session,
    terminal: &mut Terminal,
    receiver: &Receiver<Input>,
    state: &LoopState,
) -> Waited {
    let received = |result: Result<Input, RecvTimeoutError>| match result {
        Ok(input) => Waited::Input(input),
        Err(RecvTimeoutError::Timeout) => Waited::Again,
        Err(RecvTimeoutError::Disconnected) => Waited::Closed,
    };
    if let Some(pause) = pace_left(session, terminal, state.last_computer_move)
        .filter(|_| !session.is_thinking() && !session.is_busy())
    {
        received(receiver.recv_timeout(pause))
    } else if session.is_thinking() {
        // After the end of input nothing else could stop a search bounded only by
        // its depth.
        let late = |elapsed: Duration| elapsed >= EOF_GRACE;
        if state.ended.is_some_and(|at| late(at.elapsed()))
            && late(session.search_elapsed())
            && session.search_unbounded()
        {
            session.stop_thinking();
        }
        terminal.progress(session.language(), session.search_progress());
        received(receiver.recv_timeout(PROGRESS_EVERY))
    } else {
        receiver.recv().map_or(Waited::Closed, Waited::Input)
    }
}

/// A line typed while the computer thinks or the server is waited for: run now, queued,
/// or queued after stopping the search ([`during_search`]); `Some` is the exit status.
fn line_while_busy(
    session: &mut Session,
    terminal: &mut Terminal,
    state: &mut LoopState,
    input: Input,
) -> Option<i32> {
    let line = Typed::from(input);
    let during = match (&line, session.is_thinking()) {
        // The password asked for answers the question at once.
        (Typed::Secret(_), _) if session.wants_secret() => DuringSearch::Now,
        (Typed::Command(words), true) => {
            during_search(words, !state.queue.is_empty(), terminal.interactive())
        }
        // At a terminal the player acts at once while the network is waited
        // for; a script waits, in order.
        _ if terminal.interactive() && state.queue.is_empty() => DuringSearch::Now,
        _ => DuringSearch::Queue,
    };
    match during {
        DuringSearch::Now => return run_line(session, &line, terminal),
        DuringSearch::StopThenQueue => {
            session.stop_thinking();
            state.queue.push_back(line);
        }
        DuringSearch::Queue => state.queue.push_back(line),
    }
    None
}

/// Handles one input; `Some` is the exit status when the program ends.
fn handle_input(
    session: &mut Session,
    terminal: &mut Terminal,
    state: &mut LoopState,
    input: Input,
) -> Option<i32> {
    match input {
        Input::Wake => {
            let thinking = session.is_thinking();
            let shown = session.poll_shown();
            if !session.is_thinking() {
                terminal.progress(session.language(), None);
                if thinking {
                    state.last_computer_move = Some(Instant::now());
                }
            }
            // What arrives by itself starts on a line of its own, below the
            // prompt, which is written again after it.
            if state.prompted && !shown.is_empty() {
                terminal.leave_prompt();
                state.prompted = false;
            }
            terminal.shown(&shown);
        }
        Input::Line(words) if words.is_empty() => state.prompted = false,
        Input::Line(_) | Input::Secret(_) if session.is_busy() => {
            return line_while_busy(session, terminal, state, input);
        }
        Input::Line(_) | Input::Secret(_) => {
            state.prompted = false;
            return run_line(session, &Typed::from(input), terminal);
        }
        Input::Bad(error) => {
            state.prompted = false;
            let message = Message::new(Key::FrSyntax, ["stdin", error.as_str()]);
            terminal.error(&session.text(&message));
        }
        Input::End => state.ended = Some(Instant::now()),
        // Any key stops a live analysis at a terminal.
        Input::Key if session.live_analysis() => session.stop_thinking(),
        Input::Key => {}
    }
    None
}

/// Runs commands from standard input (after the window, with `-x`, closes or is left)
/// until the input ends or `q`, and lets the computer play its moves between them.
fn command_loop(session: &mut Session, args: &Args, terminal: &mut Terminal) -> i32 {
    let (sender, receiver) = mpsc::channel::<Input>();
    let wake_sender = sender.clone();
    let notify: crate::thinker::Notify = Arc::new(move || {
        let _ = wake_sender.send(Input::Wake);
    });
    session.set_notify(notify);
    spawn_reader(sender, terminal.key_mode());

    if let Some(theme) = &args.x {
        match window_host::run(session, theme.clone()) {
            Ok(XExit::Closed | XExit::Quit) => return SUCCESS,
            Ok(XExit::LeaveX) => {}
            Err(message) => terminal.error(&session.text(&message)),
        }
    }

    let mut state = LoopState::default();
    loop {
        if terminal.closed() {
            return SUCCESS;
        }
        terminal.read_keys(session.live_analysis());
        if !session.is_thinking() {
            terminal.progress(session.language(), None);
        }
        // While the game server is waited for (an answer, the other side's move), a
        // script's commands wait in the queue as they do for the computer's move.
        if !session.is_busy() {
            // Queued commands run before the computer's next search, so that a command
            // that waited for a search runs when it ends.
            if let Some(line) = state.queue.pop_front() {
                if let Some(status) = run_line(session, &line, terminal) {
                    return status;
                }
                continue;
            }
            let pause = pace_left(session, terminal, state.last_computer_move);
            if pause.is_none() && session.start_computer() {
                state.prompted = false;
                if terminal.interactive() {
                    let side = session.game().map_or(0, |game| game.side_to_move().index());
                    let text = session.text(&Message::new(Key::Thinking, [side.to_string()]));
                    terminal.line(&text);
                }
                continue;
            }
            if state.ended.is_some() && pause.is_none() {
                return SUCCESS;
            }
        }
        if !session.is_thinking() && !state.prompted {
            let secret = session
                .wants_secret()
                .then(|| session.language().get(Key::NetPasswordPrompt));
            terminal.prompt(secret.as_deref());
            state.prompted = true;
        }
        let input = match wait_input(session, terminal, &receiver, &state) {
            Waited::Input(input) => input,
            Waited::Again => continue,
            Waited::Closed => return SUCCESS,
        };
        if let Some(status) = handle_input(session, terminal, &mut state, input) {
            return status;
        }
    }
}

/// How long the next computer move must still wait: at a terminal, a game between two
/// computers goes at [`COMPUTER_PACE`], as in the window; a script is never slowed.
fn pace_left(session: &Session, terminal: &Terminal, last: Option<Instant>) -> Option<Duration> {
    if !terminal.interactive() || !session.computers_only() {
        return None;
    }
    let left = COMPUTER_PACE.checked_sub(last?.elapsed())?;
    (!left.is_zero()).then_some(left)
}

/// Runs a line from standard input; `Some` is the exit status when the program ends.
fn run_line(session: &mut Session, line: &Typed, terminal: &mut Terminal) -> Option<i32> {
    let secret = session.wants_secret();
    let reply: Reply = match line {
        Typed::Command(words) => session.run_command(words, Source::Stdin),
        Typed::Secret(text) => session.run_secret(text, Source::Stdin),
    };
    if secret && terminal.interactive() {
        // The newline typed after the password was not echoed either.
        terminal.line("");
    }
    terminal.reply(&reply);
    // The line after `login` or `register` is a password: not echoed at a terminal.
    terminal::set_echo(!session.wants_secret());
    match reply.action {
        Action::Quit => Some(SUCCESS),
        Action::EnterX(theme) => {
            (switch_to_window(session, theme, terminal) == Some(XExit::Quit)).then_some(SUCCESS)
        }
        Action::Continue | Action::LeaveX => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn force_quit_and_reading_commands_act_at_once_behind_a_queue() {
        for line in ["f", "q"] {
            assert_eq!(during_search(&words(line), true, false), DuringSearch::Now);
        }
        for line in ["b", "p", "h", "h m"] {
            assert_eq!(during_search(&words(line), true, true), DuringSearch::Now);
            assert_eq!(
                during_search(&words(line), true, false),
                DuringSearch::Queue
            );
        }
        for line in ["m 1 1 1 2", "p 0 h", "a", "b 1", "e /x", "r brandub"] {
            let during = during_search(&words(line), true, true);
            assert_eq!(during, DuringSearch::Queue, "{line}");
        }
        for line in ["u", "n"] {
            assert_eq!(during_search(&words(line), false, true), DuringSearch::Now);
            let during = during_search(&words(line), true, true);
            assert_eq!(during, DuringSearch::StopThenQueue);
        }
    }
}
