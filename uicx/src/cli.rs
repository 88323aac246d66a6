//! The program: arguments, start-up (language, rules, rc file, saved game) and the
//! command loop on standard input.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;

use crate::args::{self, Args, VARIABLES};
use crate::data::{DataDirs, Origin};
use crate::lang::{Key, Language, Message};
use crate::session::{Action, Locks, Reply, Session, Source};
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

/// Runs the program with these arguments (without the program name); returns the exit
/// status.
pub fn run(arguments: Vec<OsString>) -> i32 {
    let args = match args::parse(arguments) {
        Ok(args) => args,
        Err(error) => {
            let language = early_language(None);
            eprintln!("{}", language.text(&Message::new(Key::FrArgs, [error])));
            return FAILURE;
        }
    };
    if args.keys {
        for name in gleipnir::key_names::<Key>() {
            println!("{name}");
        }
        return SUCCESS;
    }
    if let Some(name) = &args.env {
        let language = early_language(args.lang.as_deref());
        let names: Vec<&str> = match name {
            Some(name) => vec![name.as_str()],
            None => VARIABLES.to_vec(),
        };
        for name in names {
            match std::env::var(name) {
                Ok(value) => println!("{name}={value}"),
                Err(_) => println!("{}", language.text(&Message::new(Key::EnvUnset, [name]))),
            }
        }
        return SUCCESS;
    }
    if args.version {
        println!("{}", versions());
        return SUCCESS;
    }
    if args.info {
        let language = early_language(args.lang.as_deref());
        println!("{}", language.get(Key::Info));
        println!("{COPYRIGHT}\n\n{LICENCE}");
        return SUCCESS;
    }
    if args.help {
        let language = early_language(args.lang.as_deref());
        println!("{}", language.get(Key::HelpArgs));
        return SUCCESS;
    }
    match start(&args) {
        Ok(mut session) => {
            let status = command_loop(&mut session, &args);
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

fn data_dirs(argument: Option<&Path>) -> DataDirs {
    DataDirs {
        user: None,
        argument: argument.map(Path::to_owned),
        environment: variable("HNEFATAFL_PATH").map(PathBuf::from),
        rc: None,
        home: variable("HOME").map(PathBuf::from),
        ..DataDirs::default()
    }
}

fn print_reply(reply: &Reply) {
    let mut stdout = std::io::stdout().lock();
    let count = reply.lines.len();
    for (index, line) in reply.lines.iter().enumerate() {
        if reply.failed && index + 1 == count {
            eprintln!("{line}");
        } else {
            let _ = writeln!(stdout, "{line}");
        }
    }
    let _ = stdout.flush();
}

fn print_lines(lines: &[String]) {
    print_reply(&Reply {
        lines: lines.to_vec(),
        ..Reply::default()
    });
}

fn fail(session: &Session, message: Message) -> i32 {
    eprintln!("{}", session.text(&message));
    FAILURE
}

/// Everything before the command loop. `Err` is the exit status.
fn start(args: &Args) -> Result<Session, i32> {
    if let Some(dir) = &args.data {
        if !dir.is_dir() {
            let language = early_language(args.lang.as_deref());
            let message = Message::new(Key::FrNotDir, [dir.display().to_string()]);
            eprintln!("{}", language.text(&message));
            return Err(FAILURE);
        }
    }
    let dirs = data_dirs(args.data.as_deref());
    let locks = Locks {
        saved: args.saved.is_some(),
        data: dirs.argument.is_some() || dirs.environment.is_some(),
        lang: args.lang.is_some() || variable("HNEFATAFL_LANG").is_some(),
        rules: args.rules.is_some() || variable("HNEFATAFL_RULES").is_some(),
    };
    let mut session = Session::new(dirs, locks);
    let colour = std::io::stdout().is_terminal() && variable("NO_COLOR").is_none();
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    session.set_display(colour, interactive, args.no_locale);
    let quiet = args.perft.is_some();
    let report = |reply: &Reply| {
        if !quiet {
            print_reply(reply);
        }
    };

    // `-l` (or its variable) comes first, so the rc file already speaks it; the rc file
    // leaves `l` alone then.
    let lang = match (&args.lang, variable("HNEFATAFL_LANG")) {
        (Some(name), _) => Some((name.clone(), Origin::Typed)),
        (None, Some(name)) => Some((name, Origin::Indirect)),
        (None, None) => None,
    };
    if let Some((name, origin)) = lang {
        let reply = session.apply(|session| session.load_language(&name, origin));
        if reply.failed {
            print_reply(&reply);
            return Err(FAILURE);
        }
        report(&reply);
    }
    if !args.no_rc {
        run_rc(&mut session, args, quiet)?;
    }
    // The rc file leaves `r` alone when `-r` or the variable names the rules.
    let rules = match (&args.rules, variable("HNEFATAFL_RULES")) {
        (Some(name), _) => Some((name.clone(), Origin::Typed)),
        (None, Some(name)) => Some((name, Origin::Indirect)),
        (None, None) => None,
    };
    if let Some((name, origin)) = rules {
        let reply = session.apply(|session| session.load_rules(&name, origin));
        if reply.failed {
            print_reply(&reply);
            return Err(FAILURE);
        }
        report(&reply);
    }

    if let Some(depth) = args.perft {
        let Some(game) = session.game() else {
            return Err(fail(&session, Message::plain(Key::CmdNoRules)));
        };
        let rules = game.rules();
        println!("{}", rules.start_position().perft(depth));
        return Err(SUCCESS);
    }

    if let Some(path) = &args.saved {
        // As for `-c`, the manual asks for the full path: nothing is guessed at start-up.
        if !path.is_absolute() {
            let message = Message::new(Key::FrFullPath, [path.display().to_string()]);
            return Err(fail(&session, message));
        }
        let path = path.display().to_string();
        let reply = session.apply(|session| session.load_saved(&path));
        if reply.failed {
            print_reply(&reply);
            return Err(FAILURE);
        }
        report(&reply);
    }
    Ok(session)
}

/// Finds and runs the rc file: `-c`, `$HNEFATAFL_RC` (full paths), else `hnefataflrc`
/// by lookup (never as given).
fn run_rc(session: &mut Session, args: &Args, quiet: bool) -> Result<(), i32> {
    let named = args
        .rc
        .clone()
        .or_else(|| variable("HNEFATAFL_RC").map(PathBuf::from));
    let (name, bytes) = match named {
        Some(path) => {
            if !path.is_absolute() {
                let message = Message::new(Key::FrFullPath, [path.display().to_string()]);
                return Err(fail(session, message));
            }
            match std::fs::read(&path) {
                Ok(bytes) => (path.display().to_string(), bytes),
                Err(error) => {
                    let message =
                        Message::new(Key::FrIo, [path.display().to_string(), error.to_string()]);
                    return Err(fail(session, message));
                }
            }
        }
        None => match session.dirs().read(None, "hnefataflrc") {
            Ok((found, bytes)) => (found.to_string(), bytes),
            Err(_) => return Ok(()),
        },
    };
    let lines = match gleipnir::parse(&bytes) {
        Ok(lines) => lines,
        Err(error) => {
            let message = Message::new(Key::FrSyntax, [name, error.to_string()]);
            return Err(fail(session, message));
        }
    };
    for line in lines {
        if !quiet {
            let echo: Vec<String> = line
                .words
                .iter()
                .map(|word| gleipnir::quote(word))
                .collect();
            println!("# {}", echo.join(" "));
        }
        let reply = session.run_command(&line.words, Source::Rc);
        if reply.failed {
            print_reply(&reply);
            return Err(FAILURE);
        }
        if !quiet {
            print_reply(&reply);
        }
        if reply.action == Action::Quit {
            return Err(SUCCESS);
        }
    }
    Ok(())
}

/// What reaches the command loop.
enum Input {
    /// A line of standard input.
    Line(Vec<String>),
    /// A line that could not be read.
    Bad(String),
    /// The end of standard input.
    End,
    /// The search has news.
    Wake,
}

fn command_loop(session: &mut Session, args: &Args) -> i32 {
    let (sender, receiver) = mpsc::channel::<Input>();
    let wake_sender = sender.clone();
    session.set_notify(Arc::new(move || {
        let _ = wake_sender.send(Input::Wake);
    }));
    std::thread::spawn(move || {
        let stdin = std::io::stdin().lock();
        for item in gleipnir::LineReader::new(stdin) {
            let input = match item {
                Ok(line) => Input::Line(line.words),
                Err(error) => Input::Bad(error.to_string()),
            };
            if sender.send(input).is_err() {
                return;
            }
        }
        let _ = sender.send(Input::End);
    });

    if let Some(theme) = &args.x {
        match session.run_x(theme.clone()) {
            Ok(XExit::Closed | XExit::Quit) => return SUCCESS,
            Ok(XExit::LeaveX) => {}
            Err(message) => eprintln!("{}", session.text(&message)),
        }
    }

    let prompt = std::io::stdin().is_terminal();
    let mut queue: VecDeque<Vec<String>> = VecDeque::new();
    let mut ended = false;
    let mut prompted = false;
    loop {
        if session.start_computer() && prompt {
            let side = session.game().map_or(0, |game| game.side_to_move().index());
            println!(
                "{}",
                session.text(&Message::new(Key::Thinking, [side.to_string()]))
            );
        }
        if session.is_thinking() {
            let Ok(input) = receiver.recv() else { break };
            match input {
                Input::Wake => print_lines(&session.poll_thinker()),
                Input::Line(words) => match words.first().map(String::as_str) {
                    // While the computer thinks, commands that leave the position alone act
                    // at once; the rest waits for its move, so scripts read in order.
                    Some("f") if queue.is_empty() => session.stop_thinking(),
                    Some("q" | "p" | "h" | "l" | "d" | "w") if queue.is_empty() => {
                        if let Some(status) = run_line(session, &words) {
                            return status;
                        }
                    }
                    Some(_) => queue.push_back(words),
                    None => {}
                },
                Input::Bad(error) => report_bad_line(session, &error),
                Input::End => ended = true,
            }
            continue;
        }
        if let Some(words) = queue.pop_front() {
            if let Some(status) = run_line(session, &words) {
                return status;
            }
            continue;
        }
        if ended {
            return SUCCESS;
        }
        if prompt && !prompted {
            print!("> ");
            let _ = std::io::stdout().flush();
            prompted = true;
        }
        let Ok(input) = receiver.recv() else {
            return SUCCESS;
        };
        match input {
            Input::Wake => print_lines(&session.poll_thinker()),
            Input::Line(words) => {
                prompted = false;
                if let Some(status) = run_line(session, &words) {
                    return status;
                }
            }
            Input::Bad(error) => {
                prompted = false;
                report_bad_line(session, &error);
            }
            Input::End => ended = true,
        }
    }
    SUCCESS
}

fn report_bad_line(session: &Session, error: &str) {
    let message = Message::new(Key::FrSyntax, ["stdin", error]);
    eprintln!("{}", session.text(&message));
}

/// Runs a line from standard input; `Some` is the exit status when the program ends.
fn run_line(session: &mut Session, words: &[String]) -> Option<i32> {
    let reply = session.run_command(words, Source::Stdin);
    print_reply(&reply);
    (reply.action == Action::Quit).then_some(SUCCESS)
}
