//! The real `hnefatafl` binary driven through standard input: arguments, variables, the
//! rc file, the data lookup, bad input of every kind, computer games and saved games.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

mod common;
use common::{data, file_names, home, on_rules, on_shipped, output_of, program, stdout_of};

/// The program on brandub in English, with no rc file.
fn brandub(home: &Path) -> Command {
    on_shipped(home, "brandub")
}

/// The boards printed by `b` (the lines between the column header and the status line).
fn boards(stdout: &str) -> Vec<String> {
    let mut boards = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in stdout.lines() {
        let is_row = line.len() > 6
            && line[..6].split_whitespace().count() == 2
            && line[..6]
                .split_whitespace()
                .all(|word| word.parse::<u32>().is_ok());
        if line.trim_start().starts_with("0  1") {
            current = Some(Vec::new());
        } else if let Some(rows) = current.as_mut() {
            if is_row || line.trim_start().starts_with("a  b") {
                rows.push(line);
            } else {
                boards.push(rows.join("\n"));
                current = None;
            }
        }
    }
    if let Some(rows) = current {
        boards.push(rows.join("\n"));
    }
    boards
}

/// A copy of the shipped brandub rules with another name.
fn brandub_named(name: &str) -> String {
    let text = std::fs::read_to_string(data().join("rules/brandub")).expect("brandub");
    text.replace("name\t\"Brandub\"", &format!("name\t\"{name}\""))
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[test]
fn help_lists_every_flag() {
    let home = home();
    let assert = program(home.path()).arg("-h").assert().success();
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for flag in [
        "-c <path>",
        "-C",
        "-d <path>",
        "-e <path>",
        "-i",
        "-l <file>",
        "-L",
        "-n [<var>]",
    ] {
        assert!(text.contains(flag), "{flag} missing from {text}");
    }
    for flag in ["-r <file>", "-s", "-v", "-x [<theme>]"] {
        assert!(text.contains(flag), "{flag} missing from {text}");
    }
    for flag in [
        "--check [-w] [<file> ...]",
        "\n  -w ",
        "--engine <protocol>",
        "--limits <words>",
        "--perft <depth>",
    ] {
        assert!(text.contains(flag), "{flag} missing from {text}");
    }
}

#[test]
fn an_unknown_option_is_one_clean_line() {
    let home = home();
    program(home.path())
        .arg("--bogus")
        .assert()
        .code(1)
        .stderr(predicate::function(|text: &str| {
            text.lines().count() == 1 && text.contains("'--bogus'") && !text.contains("\\n")
        }));
}

#[test]
fn help_in_swedish_with_the_variable() {
    let home = home();
    program(home.path())
        .env("HNEFATAFL_LANG", "swe")
        .arg("-h")
        .assert()
        .success()
        .stdout(predicate::str::contains("Användning"));
}

#[test]
fn info_gives_copyright_and_licence() {
    let home = home();
    program(home.path())
        .arg("-i")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "© 2026 The hnefatafl-rs developers",
        ))
        .stdout(predicate::str::contains(
            "Permission to use, copy, modify, and distribute",
        ));
}

#[test]
fn versions_of_every_component() {
    let home = home();
    let assert = program(home.path()).arg("-v").assert().success();
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|line| line.split(' ').next())
        .collect();
    assert_eq!(names, ["gleipnir", "hnefatafl-core", "aim", "uicx"]);
}

#[test]
fn keys_are_listed_one_per_line() {
    let home = home();
    let assert = program(home.path()).arg("-L").assert().success();
    let listed = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let listed: Vec<&str> = listed.lines().collect();
    // Each key once (that they are the program's every key, in its order, is a unit test
    // of `lang`).
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), listed.len(), "{listed:?}");
    // The English file gives exactly these keys.
    let english = std::fs::read_to_string(data().join("lang/eng")).expect("eng");
    let mut given: Vec<&str> = english
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    given.sort_unstable();
    assert_eq!(given, sorted);
}

#[test]
fn variables_are_printed() {
    let home = home();
    program(home.path())
        .env("HNEFATAFL_RULES", "tablut")
        .args(["-n", "HNEFATAFL_RULES"])
        .assert()
        .success()
        .stdout("HNEFATAFL_RULES=tablut\n");
    let assert = program(home.path())
        .args(["-l", "eng", "-n"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert_eq!(text.lines().count(), 11, "{text}");
    assert!(text.contains("HNEFATAFL_PATH is not set."), "{text}");
    assert!(
        text.contains(&format!("HOME={}", home.path().display())),
        "{text}"
    );
}

#[test]
fn bad_arguments_exit_with_one() {
    let home = home();
    for args in [
        &["-q"][..],
        &["-r"],
        &["stray"],
        &["--perft", "x"],
        &["-c"],
        &["-x", "a", "b"],
    ] {
        program(home.path())
            .args(args)
            .assert()
            .code(1)
            .stderr(predicate::str::is_empty().not());
    }
}

#[test]
fn bad_files_at_start_exit_with_one() {
    let home = home();
    let dir = home.path().join("data");
    write(&dir.join("rules/unreadable"), "id x\nwidth 7\nbogus 3\n");
    write(
        &dir.join("rules/invalid"),
        "id x\nname x\nwidth 1\nheight 1\npieces 1\nsquares 1\n",
    );
    write(&dir.join("lang/broken"), "turn only this\n");
    write(&dir.join("saved"), "this is not a saved game\n");
    let cases: [(&[&str], &str); 7] = [
        (&["-r", "unreadable"], "rules/unreadable:3: "),
        (&["-r", "invalid"], "not valid"),
        (&["-r", "nosuch"], "nosuch"),
        (&["-e", "/nonexistent/saved"], "/nonexistent/saved"),
        (&["-e", "relative/saved"], "relative/saved: cannot read"),
        (&["-c", "relative/rc"], "relative/rc: cannot read"),
        (&["-c", "/nonexistent/rc"], "/nonexistent/rc"),
    ];
    for (args, expected) in cases {
        let mut command = program(home.path());
        command.args(["-d"]).arg(&dir).args(args);
        if !args.contains(&"-l") {
            command.args(["-l", "eng"]);
        }
        command
            .assert()
            .code(1)
            .stderr(predicate::str::contains(expected));
    }
    let saved = dir.join("saved");
    program(home.path())
        .args(["-C", "-l", "eng", "-r", "brandub", "-e"])
        .arg(&saved)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("saved game refused"));
    // Without a language file, errors are in the built-in English, `file:line: message`.
    program(home.path())
        .args(["-C", "-d"])
        .arg(&dir)
        .args(["-r", "unreadable"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "rules/unreadable:3: the rule file cannot be read: ",
        ));
    program(home.path())
        .args(["-d", "/nonexistent/data"])
        .assert()
        .code(1);
}

#[test]
fn without_rc_and_variables_nothing_is_loaded() {
    let home = home();
    program(home.path())
        .arg("-C")
        .write_stdin("b\nh\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Commands (type h <command> for one)",
        ))
        .stderr("No rules are loaded. Load a rule file with r <file>.\n");
}

#[test]
fn default_rc_is_found_in_the_embedded_data() {
    let home = home();
    let text = stdout_of(&mut program(home.path()), "p\n");
    assert!(
        text.starts_with("# l eng\nLanguage: English.\n# r hnefatafl\n"),
        "{text}"
    );
    assert!(
        text.contains("# p 1 c 3\nPlayer 1: computer, level 3 (up to 1.5 s a move)"),
        "{text}"
    );
    assert!(text.contains("(built-in)/rules/hnefatafl"), "{text}");
}

#[test]
fn rc_file_is_echoed_after_parsing() {
    let home = home();
    let rc = home.path().join("rc");
    write(
        &rc,
        "l   eng # English\nr 'brandub'\np 1 c \"d1\"   t1\nh \"two words\"\n",
    );
    let output = program(home.path())
        .arg("-c")
        .arg(&rc)
        .arg("-d")
        .arg(data())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("# l eng\n"), "{text}");
    assert!(text.contains("# r brandub\n"), "{text}");
    assert!(text.contains("# p 1 c d1 t1\n"), "{text}");
    assert!(text.contains("# h \"two words\"\n"), "{text}");
    // The bad help request is reported with its line, and the start goes on.
    assert_eq!(output.status.code(), Some(0));
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        errors.trim_end(),
        format!("{}:4: There is no command `two words`.", rc.display()),
    );
}

#[test]
fn rc_file_restrictions() {
    let home = home();
    let rc = home.path().join("rc");
    write(&rc, "r brandub\nw /tmp/never-written\nb\n");
    program(home.path())
        .arg("-c")
        .arg(&rc)
        .args(["-l", "eng"])
        .assert()
        .success()
        .stdout(predicate::str::contains("# b\n"))
        .stderr(predicate::str::contains(
            "rc:2: `w` is not allowed in an rc file",
        ));
    assert!(!Path::new("/tmp/never-written").exists());

    // `r` and `l` in the rc file give way to -r and $HNEFATAFL_LANG; `d` to -d.
    write(&rc, "l eng\nr brandub\nd /nonexistent\n");
    let text = stdout_of(
        program(home.path())
            .env("HNEFATAFL_LANG", "swe")
            .arg("-c")
            .arg(&rc)
            .args(["-r", "tablut", "-d"])
            .arg(data()),
        "",
    );
    assert!(text.contains("Regler: Tablut"), "{text}");
    assert!(!text.contains("Brandub"), "{text}");
    assert_eq!(text.matches("ignoreras").count(), 3, "{text}");

    // $HNEFATAFL_RC needs a full path; -C reads none even with -c.
    write(&rc, "r brandub\n");
    program(home.path())
        .env("HNEFATAFL_RC", "rc")
        .assert()
        .code(1);
    let text = stdout_of(program(home.path()).arg("-C").arg("-c").arg(&rc), "");
    assert!(text.is_empty(), "{text}");
    let text = stdout_of(
        program(home.path())
            .env("HNEFATAFL_RC", &rc)
            .args(["-r", "brandub"]),
        "",
    );
    assert!(text.contains("# r brandub"), "{text}");

    // An rc file's names are never tried as given.
    let rules = home.path().join("myrules");
    write(&rules, &brandub_named("Mine"));
    write(&rc, &format!("r {}\n", rules.display()));
    program(home.path())
        .arg("-c")
        .arg(&rc)
        .assert()
        .success()
        .stderr(predicate::str::contains("not found in any data directory"));
}

#[test]
fn lookup_order() {
    let home = home();
    let root = home.path();
    let places = [
        ("typed", None),
        ("user", Some(root.join("user"))),
        ("argument", Some(root.join("argument"))),
        ("environment", Some(root.join("environment"))),
        ("rcdir", Some(root.join("rcdir"))),
        ("home", Some(root.join("hnefatafl"))),
        ("dothome", Some(root.join(".hnefatafl"))),
    ];
    for (name, dir) in &places {
        match dir {
            Some(dir) => write(&dir.join("rules/custom"), &brandub_named(name)),
            None => write(&root.join("custom"), &brandub_named(name)),
        }
    }
    let rc = root.join("rc");
    write(&rc, &format!("d {}\n", root.join("rcdir").display()));
    let run = |user: bool, argument: bool, environment: bool, rc_dir: bool| {
        let mut command = program(root);
        command.current_dir(root).args(["-l", "eng"]);
        if rc_dir {
            command.arg("-c").arg(&rc);
        } else {
            command.arg("-C");
        }
        if argument {
            command.arg("-d").arg(root.join("argument"));
        }
        if environment {
            command.env("HNEFATAFL_PATH", root.join("environment"));
        }
        let mut input = String::new();
        if user {
            input.push_str(&format!("d {}\n", root.join("user").display()));
        }
        input.push_str("r custom\n");
        stdout_of(&mut command, &input)
    };
    assert!(run(true, true, true, true).contains("Rules: typed"));
    std::fs::remove_file(root.join("custom")).expect("remove");
    assert!(run(true, true, true, true).contains("Rules: user"));
    assert!(run(false, true, true, true).contains("Rules: argument"));
    assert!(run(false, false, true, true).contains("Rules: environment"));
    assert!(run(false, false, false, true).contains("Rules: rcdir"));
    assert!(run(false, false, false, false).contains("Rules: home"));
    std::fs::remove_dir_all(root.join("hnefatafl")).expect("remove");
    assert!(run(false, false, false, false).contains("Rules: dothome"));
}

#[test]
fn lookup_from_variables_and_embedded_data() {
    let home = home();
    let root = home.path();
    write(
        &root.join(".hnefatafl/rules/custom"),
        &brandub_named("Home"),
    );
    let text = stdout_of(
        program(root)
            .args(["-C", "-l", "eng"])
            .env("HNEFATAFL_RULES", "custom"),
        "",
    );
    assert!(text.contains("Rules: Home"), "{text}");
    // A full path in the variable is not tried as given.
    let full = root.join(".hnefatafl/rules/custom");
    program(root)
        .args(["-C", "-l", "eng"])
        .env("HNEFATAFL_RULES", &full)
        .assert()
        .code(1);
    // Nothing installed: the embedded data.
    let text = stdout_of(
        program(root).args(["-C", "-l", "eng", "-r", "tawlbwrdd"]),
        "",
    );
    assert!(text.contains("(built-in)/rules/tawlbwrdd"), "{text}");
}

#[test]
fn computer_plays_computer_to_the_end() {
    let home = home();
    let output = output_of(&mut brandub(home.path()), "p 0 c d2\np 1 c d3\n");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let moves: Vec<&str> = text.lines().filter(|line| line.starts_with("m ")).collect();
    assert!(!moves.is_empty(), "{text}");
    for line in &moves {
        // `m x1 y1 x2 y2` for scripts, then the move as the board names it.
        let words: Vec<&str> = line.split(' ').collect();
        assert!(words.len() >= 6, "{line}");
        assert!(
            words[1..5]
                .iter()
                .all(|number| number.parse::<u8>().is_ok()),
            "{line}"
        );
        assert!(
            words[5].starts_with('(') && words[5].contains('-'),
            "{line}"
        );
    }
    let last = text.lines().next_back();
    assert!(last.is_some_and(|line| line.contains(" wins: ")), "{text}");
}

#[test]
fn bad_input_leaves_the_game_unchanged() {
    let home = home();
    let dir = home.path().join("data");
    write(&dir.join("rules/broken"), "id x\nwidth 40\n");
    write(&dir.join("lang/broken"), "turn Spieler {0}\n");
    write(
        &dir.join("saved"),
        "rules brandub brandub\nsize 7 7\nmove 0 0 9 9\n",
    );
    let script = format!(
        "m 3 1 1 1\nb\nzz\nm 9 9 9 9\nm 0 0 0 1\nm 3 0 4 0\nm a\nm z9 a1\nr nosuch\nr broken\nl broken\nl nosuch\n\
         e /nonexistent\ne {saved}\nw /nonexistent/x\nw {dir}\np 2 h\np 0 c zz\np 0 x\nu x\nu 0\nd /nonexistent\nh zz\nb 1\nf\nb\n",
        saved = dir.join("saved").display(),
        dir = dir.display(),
    );
    let output = program(home.path())
        .args(["-C", "-r", "brandub", "-l", "eng", "-d"])
        .arg(&dir)
        .write_stdin(script)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let boards = boards(&stdout);
    assert_eq!(boards.len(), 2, "{stdout}");
    assert_eq!(boards[0], boards[1]);
    assert_eq!(stderr.lines().count(), 23, "{stderr}");
    assert!(
        stderr.contains("Illegal move: there is no piece on a7 (0 0)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Illegal move: the piece on d7 (3 0) belongs to the other player"),
        "{stderr}"
    );
    assert!(stderr.contains("Unknown command `zz`"), "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    // The language stayed English and the rules brandub.
    assert!(stdout.trim_end().ends_with("Player 1 to move."), "{stdout}");
}

#[test]
fn saved_games_round_trip_with_captures_and_undo() {
    let home = home();
    // A computer game gives a move list with captures.
    let played = stdout_of(&mut brandub(home.path()), "p 0 c d2\np 1 c d3\n");
    // Each computer move's first five words are the `m` command that plays it.
    let moves: Vec<String> = played
        .lines()
        .filter(|line| line.starts_with("m "))
        .map(|line| line.split(' ').take(5).collect::<Vec<_>>().join(" "))
        .collect();
    let initial = stdout_of(&mut brandub(home.path()), "b\n");
    let initial_pieces = boards(&initial)[0]
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count();

    let end = home.path().join("end.sav");
    let back = home.path().join("back.sav");
    let script = format!(
        "{}\nb\nw {}\nu 3\nb\nw {}\n",
        moves.join("\n"),
        end.display(),
        back.display()
    );
    let text = stdout_of(&mut brandub(home.path()), &script);
    let original = boards(&text);
    assert_eq!(original.len(), 2);
    let final_pieces = original[0]
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count();
    assert!(final_pieces < initial_pieces, "no capture in {played}");

    let text = stdout_of(
        &mut brandub(home.path()),
        &format!("e {}\nb\ne {}\nb\n", end.display(), back.display()),
    );
    assert_eq!(boards(&text), original);
    // Loading from the start with -e too, on other rules: the saved game names its own.
    let text = stdout_of(
        program(home.path())
            .args(["-C", "-l", "eng", "-r", "tablut", "-e"])
            .arg(&end),
        "b\n",
    );
    assert_eq!(boards(&text).last(), original.first());

    // A saved game whose moves are illegal is refused and changes nothing.
    let saved = std::fs::read_to_string(&end).expect("saved");
    let corrupt = home.path().join("corrupt.sav");
    std::fs::write(&corrupt, format!("{saved}move 0 0 0 0\n")).expect("write");
    let output = output_of(
        &mut brandub(home.path()),
        format!("b\ne {}\nb\n", corrupt.display()),
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let boards = boards(&text);
    assert_eq!(boards[0], boards[1]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("saved game refused"));
}

#[test]
fn saving_is_refused_where_it_cannot_write() {
    let home = home();
    let target = home.path().join("dir-not-file");
    std::fs::create_dir(&target).expect("mkdir");
    brandub(home.path())
        .write_stdin(format!("w {}\nw /proc/nope/x\n", target.display()))
        .assert()
        .success()
        .stderr(predicate::str::contains("cannot write").count(2));
}

#[test]
fn perft_counts_the_start_position() {
    let home = home();
    let text = std::fs::read(data().join("rules/brandub")).expect("brandub");
    let rules = hnefatafl_core::Rules::parse(&text).expect("valid");
    let expected = rules.start_position().perft(2);
    program(home.path())
        .args(["-r", "brandub", "--perft", "2"])
        .assert()
        .success()
        .stdout(format!("{expected}\n"));
}

#[test]
fn x_without_a_display_stays_on_the_command_line() {
    let home = home();
    brandub(home.path())
        .arg("-x")
        .write_stdin("x\nb\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Player 0 to move."))
        .stderr(predicate::str::contains("The X interface could not run").count(2));
}

#[test]
fn analysis_reports_each_depth_and_the_best_move() {
    let home = home();
    let text = stdout_of(&mut brandub(home.path()), "a d3\n");
    let depths: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("depth "))
        .collect();
    assert_eq!(depths.len(), 3, "{text}");
    assert!(depths[2].contains(" pv "), "{text}");
    assert!(text.contains("Best move: m "), "{text}");
    // The principal variation names its moves in both notations, as the best move.
    let pv = depths[2].split(" pv ").nth(1).expect("a pv");
    let first = pv.split(", ").next().expect("a move");
    let (numbers, names) = first.split_once(" (").expect("both notations");
    assert_eq!(numbers.split(' ').count(), 4, "{pv}");
    assert!(names.ends_with(')') && names.contains('-'), "{pv}");
}

#[test]
fn a_refused_move_names_its_square() {
    let home = home();
    brandub(home.path())
        .write_stdin("m a1 a2\nm 3 1 1 1\nm 3 0 4 0\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Illegal move: there is no piece on a1 (0 6)",
        ))
        .stderr(predicate::str::contains(
            "Illegal move: the piece on d7 (3 0) belongs to the other player",
        ));
}

/// Halatafl up to a capture of two jumps, f3-f5-d5, that player 0 must make.
const HALATAFL_CHAIN: &str = "m d3 d4\nm d5 d3\nm d2 d4\nm d6 d5\nm d4 d6\nm d7 d5\n\
    m e4 d4\nm d5 d3\nm f4 e4\nm f5 f4\n";

#[test]
fn a_jump_chain_stopped_halfway_says_where_it_goes_on() {
    let home = home();
    let output = output_of(
        &mut on_rules(home.path(), "halatafl"),
        format!("{HALATAFL_CHAIN}m f3 f5\nm 5 4 5 2 3 2\n"),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        "Illegal move: the capture by jumping must go on: play m 5 4 5 2 3 2 (f3-f5-d5)\n"
    );
    // The command line writes the chain whole, every landing.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("m 5 4 5 2 3 2 (f3-f5-d5): captures f4, e5"),
        "{stdout}"
    );
}

#[test]
fn swedish_messages() {
    let home = home();
    let text = stdout_of(
        program(home.path()).args(["-C", "-r", "brandub", "-l", "swe"]),
        "n\n",
    );
    assert!(text.contains("Nytt parti."), "{text}");
    assert!(text.contains("Spelare 0 drar."), "{text}");
}

#[test]
fn algebraic_and_numeric_moves_agree() {
    let home = home();
    let numeric = stdout_of(&mut brandub(home.path()), "m 3 1 1 1\nb\n");
    let algebraic = stdout_of(&mut brandub(home.path()), "m d6 b6\nb\n");
    assert_eq!(boards(&numeric), boards(&algebraic));
}

#[test]
fn rc_e_gives_way_to_the_argument() {
    let home = home();
    let first = home.path().join("first.sav");
    let second = home.path().join("second.sav");
    stdout_of(
        &mut brandub(home.path()),
        &format!("m 3 1 1 1\nw {}\n", first.display()),
    );
    stdout_of(
        &mut brandub(home.path()),
        &format!("m 3 1 2 1\nm 3 2 2 2\nw {}\n", second.display()),
    );
    let rc = home.path().join("rc");
    write(&rc, &format!("l eng\ne {}\n", first.display()));
    let text = stdout_of(program(home.path()).arg("-c").arg(&rc), "");
    assert!(text.contains(": 1 move."), "{text}");
    let text = stdout_of(
        program(home.path())
            .arg("-c")
            .arg(&rc)
            .arg("-e")
            .arg(&second),
        "",
    );
    assert!(text.contains("`e` ignored"), "{text}");
    assert!(text.contains(": 2 moves."), "{text}");
}

#[test]
fn help_on_every_command_and_quit_stops_reading() {
    let home = home();
    let text = stdout_of(&mut brandub(home.path()), "h\nh m\nq\nh x\n");
    let lines: Vec<&str> = text.lines().collect();
    for command in [
        "h", "m", "b", "p", "f", "a", "u", "n", "r", "l", "d", "e", "w", "x", "q",
    ] {
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with(&format!("{command} "))),
            "no help on {command}: {text}"
        );
    }
    assert_eq!(
        lines
            .iter()
            .filter(|line| line.starts_with("m <from> <to>"))
            .count(),
        2
    );
    assert_eq!(
        lines
            .iter()
            .filter(|line| line.starts_with("x [<theme>]"))
            .count(),
        1
    );
}

/// `h` lists every command the language files have help for, in both languages, and
/// `h <command>` answers for each of them with that same line.
#[test]
fn help_lists_every_command_of_the_table() {
    for language in ["eng", "swe"] {
        let file = std::fs::read_to_string(data().join("lang").join(language)).expect("shipped");
        let helps: Vec<&str> = file
            .lines()
            .filter(|line| line.starts_with("help_cmd_"))
            .map(|line| {
                line.split_once('\t')
                    .expect("key and text")
                    .1
                    .trim_matches('"')
            })
            .collect();
        assert!(helps.len() > 20, "{language}: {helps:?}");
        let names: Vec<&str> = helps
            .iter()
            .map(|help| help.split_whitespace().next().expect("a name"))
            .collect();
        let input: String = std::iter::once("h".to_owned())
            .chain(names.iter().map(|name| format!("h {name}")))
            .map(|line| line + "\n")
            .collect();
        let home = home();
        let mut command = program(home.path());
        command.args(["-C", "-l", language]);
        let text = stdout_of(&mut command, &input);
        let lines: Vec<&str> = text.lines().collect();
        for help in &helps {
            let count = lines.iter().filter(|line| *line == help).count();
            assert_eq!(count, 2, "{language}: `{help}` in\n{text}");
        }
    }
}

#[test]
fn computer_reply_to_a_human_move_comes_before_the_next_command() {
    let home = home();
    let text = stdout_of(&mut brandub(home.path()), "p 1 c d2\nm 3 1 1 1\nb\n");
    let lines: Vec<&str> = text.lines().collect();
    let reply = lines
        .iter()
        .position(|line| line.starts_with("m "))
        .expect("a reply");
    let board = lines
        .iter()
        .position(|line| line.trim_start().starts_with("0  1"))
        .expect("a board");
    assert!(reply < board, "{text}");
}

#[test]
fn unreadable_input_lines_are_reported_and_skipped() {
    let home = home();
    brandub(home.path())
        .write_stdin("m 3 1 'open\nb\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Player 0 to move."))
        .stderr(predicate::str::contains(
            "stdin: line 1: unterminated quote",
        ));
}

#[test]
fn without_a_language_file_messages_are_english_words() {
    let home = home();
    // The manual's script: no rc file, so no `l`.
    let output = program(home.path())
        .args(["-C", "-r", "hnefatafl"])
        .write_stdin("m 5 1 2 1\nb\np 1 c 9\n")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stdout.contains("Rules: Hnefatafl"), "{stdout}");
    assert!(stdout.contains("Player 1 to move."), "{stdout}");
    assert!(
        !stdout.contains("rules_loaded") && !stdout.contains("turn "),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "Bad limits: 9 (a level is a number from 1 to 6; the other limits are d<depth>, \
         t<seconds>, n<nodes> and j<threads>)\n"
    );

    // A language the rc file cannot find: `file:line: message`, in English.
    let rc = home.path().join("rc");
    write(&rc, "l nosuchlang\nr brandub\n");
    program(home.path())
        .arg("-c")
        .arg(&rc)
        .assert()
        .success()
        .stderr(format!(
            "{}:1: nosuchlang: not found in any data directory\n",
            rc.display()
        ))
        .stdout(predicate::str::contains("Rules: Brandub"));
}

#[test]
fn argument_errors_come_before_the_rc_file() {
    let home = home();
    // The default rc file is not echoed before the mistyped name is reported.
    for args in [&["-r", "brandubb"][..], &["-e", "nosuch.save"]] {
        program(home.path())
            .args(args)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::starts_with(args[1]));
    }
}

#[test]
fn rc_and_saved_game_paths_may_be_relative() {
    let home = home();
    let save = home.path().join("b.save");
    stdout_of(
        &mut brandub(home.path()),
        &format!("m 3 1 1 1\nw {}\n", save.display()),
    );
    write(&home.path().join("my.rc"), "l eng\nr brandub\n");
    let text = stdout_of(
        program(home.path())
            .current_dir(home.path())
            .args(["-c", "my.rc", "-e", "b.save"]),
        "",
    );
    assert!(text.contains("# r brandub"), "{text}");
    assert!(text.contains("Game loaded from b.save: 1 move."), "{text}");
}

#[test]
fn a_piece_named_in_the_rule_file_is_a_piece_in_messages() {
    let home = home();
    let dir = home.path().join("data");
    write(
        &dir.join("rules/race"),
        "id race\nname Race\nwidth 3\nheight 3\npieces 4 0 0  0 0 0  0 0 2\n\
         squares 1 1 2  1 1 1  1 1 1\npiece bit 4\npiece 4 name white\npiece 4 owner 0\n\
         piece 4 escape\npiece 4 occupies 3\npiece bit 2\npiece 2 name black\n\
         piece 2 owner 1\npiece 2 occupies 1\nsquare bit 1\nsquare bit 2\nsquare 2 escape\n",
    );
    program(home.path())
        .args(["-C", "-l", "eng", "-d"])
        .arg(&dir)
        .args(["-r", "race"])
        .write_stdin("m a3 c3\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Player 0 wins: the white piece reached an escape square.",
        ));
}

/// A game of halatafl that white (player 0) wins in 11 plies by jumping twice onto a
/// corner of black's half (6 0, type 2): squares that the file's `escape_on` makes
/// white's winning squares.
const HALATAFL_WHITE_WINS: &str = "m 4 3 3 3\nm 2 3 4 3\nm 5 3 3 3\nm 5 2 5 3\nm 6 3 4 3\n\
    m 6 2 6 3\nm 6 4 6 2\nm 6 1 6 3\nm 5 4 6 4\nm 6 0 6 1\nm 6 4 6 2 6 0\n";

#[test]
fn halatafl_is_drawn_with_its_names_and_won_on_its_own_words() {
    let home = home();
    let output = output_of(
        &mut on_rules(home.path(), "halatafl"),
        format!("b\n{HALATAFL_WHITE_WINS}"),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr, "", "{stdout}");
    // White and black, by the initials of their names, not by the bits (`D`, `a`).
    assert!(stdout.contains(" 3  4  b  b  b  .  W  W  W"), "{stdout}");
    assert!(
        stdout.contains("Player 0 wins: a white piece reached a square it wins on."),
        "{stdout}"
    );
    assert!(!stdout.contains("escape square"), "{stdout}");
}

#[test]
fn rules_that_are_nowhere_are_answered_with_the_shipped_names() {
    let home = home();
    let output = output_of(&mut on_rules(home.path(), "brandub"), "r nosuchrules\n");
    let names = file_names(&data().join("rules"));
    assert!(names.len() >= 11, "{names:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "nosuchrules: not found in any data directory; the shipped rule files are {}\n",
            names.join(", ")
        )
    );
}
