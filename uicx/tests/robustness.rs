//! The real `hnefatafl` binary under faults: commands that arrive while the computer
//! thinks, closed pipes, special files, saves that are killed, bad saved games, bad
//! environment and unsafe text. Nothing may hang, panic or destroy a file.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command as StdCommand, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use predicates::prelude::*;

mod common;
use common::{LIMIT, VARIABLES, file_names, home, on_rules, output_of, process, program, write};

/// The same program as a plain process, for tests that talk to it over time.
fn spawn(home: &Path, args: &[&str]) -> Child {
    process(home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts")
}

/// Standard output line by line, as it comes.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Waits for a line that satisfies `wanted`; returns every line read up to it.
fn wait_for(lines: &mpsc::Receiver<String>, mut wanted: impl FnMut(&str) -> bool) -> Vec<String> {
    let deadline = Instant::now() + LIMIT;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = wanted(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("the line never came; got {seen:#?}"),
        }
    }
}

/// Waits for the process to end within [`LIMIT`]; kills it and fails if it does not.
fn wait_end(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("the program did not end");
}

/// Runs the program on `rules` in English, with no rc file, on this input.
fn run(home: &Path, rules: &str, input: impl Into<Vec<u8>>) -> Output {
    output_of(&mut on_rules(home, rules), input)
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn mkfifo(path: &Path) {
    let status = StdCommand::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

// ---- 1 to 3: the interpreter never stops reading ----

#[test]
fn commands_queued_behind_computer_moves_still_run() {
    // The issue's command: both players become computers, then humans again; `p` and
    // `q` come later, once the computer has moved.
    let home = home();
    let mut child = spawn(home.path(), &["-C", "-l", "eng", "-r", "hnefatafl"]);
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"p 1 c 3\nm 5 1 2 1\nm f10 c10\np 0 c t0.3\np 0 h\np 1 h\n")
        .expect("writes");
    let seen = wait_for(&lines, |line| line == "Player 1: human.");
    // The two humans come right after the second computer, before any computer move.
    // Fetlar's rules have a shipped network, which the line names.
    let computer = "Player 0: computer, 0.3 s a move, network (built-in)/networks/hnefatafl.nnue";
    let second = seen
        .iter()
        .position(|line| line == computer)
        .expect("player 0 became a computer");
    assert_eq!(
        seen[second + 1..],
        ["Player 0: human.", "Player 1: human."],
        "{seen:#?}"
    );
    stdin.write_all(b"p\nq\n").expect("writes");
    let seen = wait_for(&lines, |line| line == "Player 1: human.");
    assert_eq!(seen, ["Player 0: human.", "Player 1: human."]);
    assert!(wait_end(&mut child).success());
}

#[test]
fn f_and_q_act_at_once_behind_queued_commands() {
    let home = home();
    // `b` waits for the computer's move; `f` behind it makes the move come now.
    let output = run(home.path(), "brandub", "p 1 c t600\nm 3 1 1 1\nb\nf\n");
    assert!(output.status.success(), "{}", stderr_of(&output));
    let text = stdout_of(&output);
    let reply = text.find("\nm ").expect("the computer moved");
    let board = text.find("\n       0  1").expect("a board");
    assert!(reply < board, "{text}");
    // `q` behind a queued move quits at once.
    on_rules(home.path(), "brandub")
        .write_stdin("p 1 c t600\nm 3 1 1 1\nm 0 0 0 1\nq\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("\nm ").not());
}

#[test]
fn undo_and_new_during_a_search_stop_it_first() {
    let home = home();
    let output = run(
        home.path(),
        "brandub",
        "p 1 c t600\nm 3 1 1 1\nu\np 1 h\nb\n",
    );
    let text = stdout_of(&output);
    assert!(text.contains("1 move taken back."), "{text}");
    assert!(!text.contains("\nm "), "the search was cancelled: {text}");
    on_rules(home.path(), "brandub")
        .write_stdin("p 1 c t600\nm 3 1 1 1\nn\np 1 h\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("New game."));
}

#[test]
fn depth_beyond_the_engine_is_refused_and_eof_ends_a_deep_search() {
    let home = home();
    on_rules(home.path(), "brandub")
        .write_stdin("p 1 c d999999\na d1000\np\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Depth 999999 is beyond the deepest search of the engine, 100.",
        ))
        .stderr(predicate::str::contains("Depth 1000 is beyond"))
        .stdout(predicate::str::contains("Player 1: human."));
    // The deepest search allowed has no clock: the end of input still ends it.
    on_rules(home.path(), "hnefatafl")
        .write_stdin("p 1 c d100\nm 5 1 2 1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("\nm "));
}

// ---- 4 and 5: output and arguments ----

/// Runs the program with its standard output closed before it writes anything.
fn with_closed_stdout(home: &Path, args: &[&str]) -> std::process::Output {
    let mut child = spawn(home, args);
    drop(child.stdout.take());
    drop(child.stdin.take());
    let status = wait_end(&mut child);
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    std::process::Output {
        status,
        stdout: Vec::new(),
        stderr: stderr.into_bytes(),
    }
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let home = home();
    for args in [
        &["-L"][..],
        &["-v"],
        &["-h"],
        &["-i"],
        &["-n"],
        &["-r", "brandub", "--perft", "2"],
        // The rc file's echo, then the game.
        &[],
        &["-C", "-r", "brandub", "-l", "eng"],
    ] {
        let output = with_closed_stdout(home.path(), args);
        let errors = stderr_of(&output);
        assert!(!errors.contains("panicked"), "{args:?}: {errors}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {errors}");
    }
}

#[test]
fn long_help_and_version() {
    let home = home();
    let short = program(home.path()).arg("-h").output().expect("runs");
    let long = program(home.path()).arg("--help").output().expect("runs");
    assert!(long.status.success());
    assert_eq!(short.stdout, long.stdout);
    assert!(stdout_of(&long).contains("--help"));
    let short = program(home.path()).arg("-v").output().expect("runs");
    let long = program(home.path())
        .arg("--version")
        .output()
        .expect("runs");
    assert!(long.status.success());
    assert_eq!(short.stdout, long.stdout);
}

// ---- 6: rc files ----

#[test]
fn rc_errors_name_the_line_and_the_rest_runs() {
    let home = home();
    let rc = home.path().join("hnefataflrc");
    write(&rc, "l eng\nr brandub\nzzz\nr 'open\np 1 c d1\n");
    let output = program(home.path())
        .arg("-c")
        .arg(&rc)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let errors = stderr_of(&output);
    let rc = rc.display();
    assert!(
        errors.contains(&format!("{rc}:3: Unknown command `zzz`")),
        "{errors}"
    );
    assert!(errors.contains(&format!("{rc}:4: ")), "{errors}");
    assert!(
        stdout_of(&output).contains("Player 1: computer, depth 1"),
        "{}",
        stdout_of(&output)
    );
}

#[test]
fn a_byte_order_mark_is_skipped_in_every_text_file() {
    let home = home();
    let data = home.path().join("data");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let bom = |text: Vec<u8>| [b"\xEF\xBB\xBF".to_vec(), text].concat();
    let read = |name: &str| std::fs::read(shipped.join(name)).expect("shipped file");
    write(&data.join("rules/bom"), bom(read("rules/brandub")));
    write(&data.join("lang/bom"), bom(read("lang/eng")));
    let save = home.path().join("bom.sav");
    write(
        &save,
        bom(b"rules brandub brandub\nsize 7 7\nmove 3 1 1 1\n".to_vec()),
    );
    let rc = home.path().join("rc");
    write(
        &rc,
        bom(format!("l bom\nr bom\ne {}\n", save.display()).into_bytes()),
    );
    let output = program(home.path())
        .arg("-c")
        .arg(&rc)
        .arg("-d")
        .arg(&data)
        .output()
        .expect("runs");
    assert_eq!(stderr_of(&output), "");
    let text = stdout_of(&output);
    assert!(text.starts_with("# l bom\nLanguage: English."), "{text}");
    assert!(text.contains("Rules: Brandub"), "{text}");
    assert!(text.contains("1 move."), "{text}");
}

#[test]
fn x_in_an_rc_file_without_a_display_stays_on_the_command_line() {
    let home = home();
    let rc = home.path().join("rc");
    write(&rc, "l eng\nr brandub\nx\np 1 c 2\n");
    program(home.path())
        .arg("-c")
        .arg(&rc)
        .write_stdin("p\n")
        .assert()
        .success()
        .stderr(predicate::str::contains("The X interface could not run"))
        .stdout(predicate::str::contains("Back on the command line.").not())
        .stdout(predicate::str::contains("Player 1: computer, level 2"));
}

// ---- 7: special files ----

#[test]
fn special_files_are_refused_at_once() {
    let home = home();
    let dir = home.path().join("special");
    std::fs::create_dir_all(dir.join("rules")).expect("mkdir");
    std::fs::create_dir_all(dir.join("lang")).expect("mkdir");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    mkfifo(&dir.join("rules/piped"));
    mkfifo(&dir.join("lang/piped"));
    std::fs::create_dir_all(dir.join("rules/folder")).expect("mkdir");
    let fifo_name = fifo.display().to_string();
    let dir_name = dir.display().to_string();

    // Saved games, rule and language files typed by name or path, and by lookup.
    let script = format!(
        "e {fifo_name}\ne {dir_name}\ne /dev/zero\nr {fifo_name}\nr piped\nr folder\nl {fifo_name}\nl piped\nb\n"
    );
    let output = on_rules(home.path(), "brandub")
        .arg("-d")
        .arg(&dir)
        .write_stdin(script)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let errors: Vec<String> = stderr_of(&output).lines().map(str::to_owned).collect();
    assert_eq!(errors.len(), 8, "{errors:#?}");
    assert!(errors[0].ends_with("it is a fifo (named pipe), not a file"));
    assert!(errors[1].ends_with("it is a directory, not a file"));
    assert!(errors[2].ends_with("it is a device, not a file"));
    assert!(errors[3].contains("fifo"), "{}", errors[3]);
    assert!(errors[4].contains("fifo"), "{}", errors[4]);
    assert!(errors[5].contains("directory"), "{}", errors[5]);
    assert!(errors[6].contains("fifo") && errors[7].contains("fifo"));
    assert!(stdout_of(&output).contains("Player 0 to move."));

    // At start: an rc file and a saved game that are no files.
    for (flag, path) in [("-c", &fifo), ("-c", &dir), ("-e", &fifo), ("-e", &dir)] {
        program(home.path())
            .args(["-l", "eng", "-r", "brandub"])
            .arg(flag)
            .arg(path)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("not a file"))
            .stderr(predicate::str::contains("not found").not());
    }
}

#[test]
fn reading_is_capped() {
    let home = home();
    let big = home.path().join("big.sav");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(17 << 20).expect("a sparse 17 MiB file");
    on_rules(home.path(), "brandub")
        .write_stdin(format!("e {}\n", big.display()))
        .assert()
        .success()
        .stderr(predicate::str::contains("larger than 16 MiB"));
}

// ---- 8 and 9: saving ----

fn save_with_umask(home: &Path, umask: &str, script: &str) -> std::process::Output {
    let mut command = StdCommand::new("sh");
    command
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" -C -l eng -r brandub",))
        .arg(env!("CARGO_BIN_EXE_hnefatafl"))
        .env("HOME", home)
        .env_remove("DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in VARIABLES {
        command.env_remove(name);
    }
    let mut child = command.spawn().expect("sh runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("writes");
    wait_end(&mut child);
    child.wait_with_output().expect("output")
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o7777
}

#[test]
fn saving_never_destroys_anything() {
    let home = home();
    let dir = home.path().join("saves");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let real = dir.join("real.sav");
    write(&real, "old");
    let link = dir.join("link.sav");
    std::os::unix::fs::symlink("real.sav", &link).expect("symlink");
    let kept = dir.join("kept.sav");
    write(&kept, "old");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let fresh = dir.join("fresh.sav");
    // As root a program that replaced a device would replace the system's /dev/null:
    // root gets a null device of its own to be refused. Others cannot replace
    // /dev/null at all, and try that.
    let own_null = home.path().join("null");
    let made = StdCommand::new("mknod")
        .arg(&own_null)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    let device = if made {
        own_null
    } else {
        Path::new("/dev/null").to_owned()
    };
    let script = format!(
        "m 3 1 1 1\nw {}\nw {}\nw {}\nw {}\nw {}\nw /proc/nowhere/x.sav\nw {}/later/\n",
        device.display(),
        fifo.display(),
        link.display(),
        kept.display(),
        fresh.display(),
        dir.display(),
    );
    let output = save_with_umask(home.path(), "027", &script);
    let errors = stderr_of(&output);
    assert!(
        errors.contains(&format!(
            "{}: cannot write: it is a device, not a file",
            device.display()
        )),
        "{errors}"
    );
    assert!(
        errors.contains("fifo: cannot write: it is a fifo"),
        "{errors}"
    );
    assert!(
        errors.contains("/proc/nowhere/x.sav: cannot write"),
        "{errors}"
    );
    assert!(
        errors.contains("later/: cannot write: it is a directory"),
        "a name ending in / is a directory: {errors}"
    );
    // Each error names the path given and no other (never a temporary file).
    for line in errors.lines() {
        let (_, reason) = line.split_once(": cannot write: ").expect("a write error");
        assert!(!reason.contains('/'), "{line}");
    }
    let still = std::fs::symlink_metadata(&device).expect("the device");
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(
        &still.file_type()
    ));
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(
            &std::fs::symlink_metadata(&fifo).expect("fifo").file_type()
        ),
        "the fifo was replaced"
    );
    // The symlink stays a symlink and its target gets the game.
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    let saved = std::fs::read_to_string(&real).expect("saved");
    assert!(saved.contains("move 3 1 1 1"), "{saved}");
    // An existing file keeps its mode; a new one follows the umask.
    assert_eq!(mode(&kept), 0o640);
    assert!(
        std::fs::read_to_string(&kept)
            .expect("kept")
            .contains("move 3 1 1 1")
    );
    assert_eq!(mode(&fresh), 0o640);
    let names = file_names(&dir);
    assert_eq!(names.len(), 5, "{names:?}");
}

#[test]
fn killing_the_program_while_it_saves_leaves_no_litter() {
    let home = home();
    let dir = home.path().join("saves");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let target = dir.join("game.sav");
    let script = format!(
        "m 3 1 1 1\n{}",
        format!("w {}\n", target.display()).repeat(400)
    );
    // A clean save gives the content every save must have.
    let clean = run(
        home.path(),
        "brandub",
        format!("m 3 1 1 1\nw {}\n", target.display()),
    );
    assert!(clean.status.success());
    let expected = std::fs::read(&target).expect("saved");
    for round in 0..200 {
        let mut child = spawn(home.path(), &["-C", "-l", "eng", "-r", "brandub"]);
        let mut stdin = child.stdin.take().expect("stdin");
        let lines = lines_of(&mut child);
        stdin.write_all(script.as_bytes()).expect("writes");
        // Kill it in the middle of its saves: after it reports a few.
        let wanted = 1 + round % 7;
        let mut saved = 0;
        wait_for(&lines, |line| {
            saved += usize::from(line.starts_with("Game saved"));
            saved >= wanted
        });
        child.kill().expect("SIGKILL");
        let _ = child.wait();
        // The save is always complete: the old or the new content, never a part.
        assert_eq!(
            std::fs::read(&target).expect("save"),
            expected,
            "round {round}"
        );
    }
    // The next save cleans what dead processes left.
    on_rules(home.path(), "brandub")
        .write_stdin(format!("m 3 1 1 1\nw {}\n", target.display()))
        .assert()
        .success();
    let names = file_names(&dir);
    assert_eq!(names, ["game.sav"]);
}

// ---- 10: saved games ----

#[test]
fn refused_saved_games_name_the_line_and_why() {
    let home = home();
    let robot = home.path().join("robot.sav");
    write(
        &robot,
        "rules brandub brandub\nsize 7 7\nplayer 0 human\nplayer 1 robot\n",
    );
    let bare = home.path().join("bare.sav");
    write(&bare, "rules brandub brandub\nsize 7 7\nmove 3 1 1 1\n");
    let lost = home.path().join("lost.sav");
    write(&lost, "rules gone gone_rules\nsize 7 7\n");
    let bad_size = home.path().join("size.sav");
    write(&bad_size, "rules brandub brandub\nsize 7 x\n");
    let script = format!(
        "e {}\ne {}\ne {}\ne {}\n",
        robot.display(),
        lost.display(),
        bad_size.display(),
        bare.display()
    );
    let output = run(home.path(), "tablut", script);
    let errors: Vec<String> = stderr_of(&output).lines().map(str::to_owned).collect();
    assert_eq!(
        errors[0],
        format!(
            "{}:4: saved game refused: unknown player kind `robot` (human or computer)",
            robot.display()
        )
    );
    assert!(
        errors[1].starts_with(&lost.display().to_string()),
        "{}",
        errors[1]
    );
    assert!(errors[1].contains("gone_rules"), "{}", errors[1]);
    assert!(
        errors[2].starts_with(&format!("{}:2: ", bad_size.display())),
        "{}",
        errors[2]
    );
    assert_eq!(errors.len(), 3, "{errors:#?}");
    let text = stdout_of(&output);
    assert!(text.contains(": 1 move."), "the bare save loads: {text}");
}

// ---- 11: environment ----

#[test]
fn bad_data_path_variables_are_refused_as_arguments_are() {
    let home = home();
    let file = home.path().join("file");
    write(&file, "x");
    for (value, expected) in [
        ("relative/dir", "give the full path"),
        ("/nonexistent/dir", "not a directory"),
        (file.to_str().expect("utf-8"), "not a directory"),
    ] {
        program(home.path())
            .args(["-C", "-l", "eng"])
            .env("HNEFATAFL_PATH", value)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!("HNEFATAFL_PATH: {value}")))
            .stderr(predicate::str::contains(expected));
    }
    program(home.path())
        .env("HNEFATAFL_RC", "relative/rc")
        .args(["-l", "eng"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("give the full path"));
}

// ---- 12: safe messages ----

#[test]
fn echoed_text_is_safe_to_print() {
    let home = home();
    let long = "w".repeat(1 << 20);
    let script = format!("z\u{1b}[2Jz\u{7}\nr \"\"\nl ''\n{long}\nm \u{1b}x 1\n");
    let output = run(home.path(), "brandub", script);
    let errors = stderr_of(&output);
    assert!(
        !errors.chars().any(|c| c.is_control() && c != '\n'),
        "raw control characters: {errors:?}"
    );
    assert!(errors.contains("z\\u{1b}[2Jz\\u{7}"), "{errors}");
    assert!(errors.len() < 2000, "the long word is shortened");
    assert!(errors.contains("`r` needs a name, and the name given is empty."));
    assert!(errors.contains("`l` needs a name, and the name given is empty."));
    // Before any language file: the built-in English, and the rc file's language still
    // comes.
    program(home.path())
        .args(["-l", ""])
        .assert()
        .success()
        .stderr(predicate::str::starts_with("`l` needs a name"))
        .stdout(predicate::str::contains("Language: English."));
}

// ---- 13: the language before the rc file ----

#[test]
fn a_language_argument_that_fails_lets_the_rc_file_choose() {
    let home = home();
    let output = program(home.path())
        .args(["-l", "nope"])
        .write_stdin("p\n")
        .output()
        .expect("runs");
    assert!(output.status.success());
    assert!(
        stderr_of(&output).contains("nope"),
        "{}",
        stderr_of(&output)
    );
    let text = stdout_of(&output);
    assert!(text.contains("# l eng\nLanguage: English."), "{text}");
    assert!(!text.contains("ignored"), "{text}");
    // A language that loads wins over the rc file's.
    let text = stdout_of(
        &program(home.path())
            .args(["-l", "swe"])
            .output()
            .expect("runs"),
    );
    assert!(text.contains("`l` ignoreras"), "{text}");
}

// ---- 14, 15 and 17: a player's view ----

/// The algebraic name of a numeric square on a board `height` rows high.
fn algebraic(x: u8, y: u8, height: u8) -> String {
    format!("{}{}", char::from(b'a' + x), height - y)
}

#[test]
fn moves_say_what_they_captured() {
    let home = home();
    let text = stdout_of(&run(
        home.path(),
        "brandub",
        "m 3 1 1 1\nm 3 2 1 2\nm 3 0 3 2\nm 3 4 1 4\n",
    ));
    // The defender from d3 to b3 takes the attacker on b4 against the one on b5.
    assert!(text.contains("m 3 4 1 4 (d3-b3): captures b4\n"), "{text}");
    assert_eq!(text.matches("captures").count(), 1, "{text}");
}

#[test]
fn computer_moves_in_both_notations_with_their_captures() {
    let home = home();
    let played = stdout_of(&run(home.path(), "brandub", "p 0 c d2\np 1 c d3\n"));
    let mut commands = String::new();
    let mut captured = 0;
    for line in played.lines().filter(|line| line.starts_with("m ")) {
        let words: Vec<&str> = line.split(' ').collect();
        let numbers: Vec<u8> = words[1..5]
            .iter()
            .map(|word| word.parse().expect("a number"))
            .collect();
        let names = format!(
            "({}-{})",
            algebraic(numbers[0], numbers[1], 7),
            algebraic(numbers[2], numbers[3], 7)
        );
        assert_eq!(words[5].trim_end_matches(':'), names, "{line}");
        if let Some((_, list)) = line.split_once(": captures ") {
            captured += list.split(", ").count();
        }
        commands += &format!("{}\n", words[..5].join(" "));
    }
    assert!(captured > 0, "no capture in {played}");
    // Replayed, the moves take exactly as many pieces as the lines said.
    let replay = stdout_of(&run(home.path(), "brandub", format!("b\n{commands}b\n")));
    let boards = pieces_per_board(&replay);
    assert_eq!(boards.len(), 2, "{replay}");
    assert_eq!(boards[0] - boards[1], captured, "{replay}");
}

/// The number of pieces on each board printed by `b`: a row starts with two numbers.
fn pieces_per_board(text: &str) -> Vec<usize> {
    let mut boards = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        let row = line.len() > 6
            && line[..6].split_whitespace().count() == 2
            && line[..6]
                .split_whitespace()
                .all(|word| word.parse::<u32>().is_ok());
        match (row, current) {
            (true, _) => {
                let count = line[6..].chars().filter(char::is_ascii_alphabetic).count();
                current = Some(current.unwrap_or(0) + count);
            }
            (false, Some(count)) => {
                boards.push(count);
                current = None;
            }
            (false, None) => {}
        }
    }
    boards.extend(current);
    boards
}

#[test]
fn errors_name_squares_as_the_board_does() {
    let home = home();
    on_rules(home.path(), "brandub")
        .write_stdin("m 3 0 3 2\n")
        .assert()
        .stderr(predicate::str::contains(
            "a piece stands in the way at d6 (3 1)",
        ));
}

#[test]
fn players_are_listed_with_their_limits_and_counts_read_right() {
    let home = home();
    let text = stdout_of(&run(
        home.path(),
        "brandub",
        "p 1 c d4 t10\np 1 c 3\np 1 h\nm 3 1 1 1\nu\nm 3 1 1 1\nm 3 2 1 2\nu 2\n",
    ));
    assert!(
        text.contains("Player 1: computer, depth 4, 10 s a move"),
        "{text}"
    );
    assert!(
        text.contains("Player 1: computer, level 3 (up to 1.5 s a move)"),
        "{text}"
    );
    assert!(text.contains("1 move taken back."), "{text}");
    assert!(text.contains("2 moves taken back."), "{text}");
    let swedish = stdout_of(
        &program(home.path())
            .args(["-C", "-l", "swe", "-r", "brandub"])
            .write_stdin("p 1 c 3\nm 3 1 1 1\nu 1\n")
            .output()
            .expect("runs"),
    );
    assert!(
        swedish.contains("Spelare 1: dator, nivå 3 (högst 1.5 s per drag)"),
        "{swedish}"
    );
    assert!(swedish.contains("1 drag togs tillbaka."), "{swedish}");
}

#[test]
fn no_progress_line_in_a_pipe() {
    let home = home();
    let output = run(home.path(), "brandub", "p 1 c t0.5\nm 3 1 1 1\n");
    assert!(!stdout_of(&output).contains("thinks"));
    assert!(!stderr_of(&output).contains("thinks"));
}
