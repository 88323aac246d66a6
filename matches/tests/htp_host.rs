//! The match runner as host of an engine in hnefatafl-copenhagen's `--host` mode: it
//! listens, starts the engine with `--host <address>`, and relays the game over the
//! connection the engine opens.
//!
//! The engine here is a fake one, written below and run as a process of its own (this
//! test program started again to run only `fake_engine`), that speaks the protocol as
//! hnefatafl-copenhagen 6.4.1's `hnefatafl-text-protocol --host` does: it connects to
//! the host it is given at port 49152, takes `play ROLE FROM TO` lines silently, answers
//! `generate_move` with `play ROLE FROM TO`, and ends with `Error: <why>` on its standard
//! error at a line it cannot take. The real engine plays when `HNEFATAFL_HTP_PEER` names
//! it.

mod programs;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

use hnefatafl_core::otn::Roles;
use hnefatafl_core::{Game, Notation, Player, Rules};
use hnefatafl_matches::contender::{Contender, Report, parse_contender, play};
use hnefatafl_matches::{GameResult, GameSettings};
use hnefatafl_protocol::host::Protocol;

/// A shipped rule file.
fn rules(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/rules/{name}"));
    Rules::parse(&std::fs::read(path).expect("reads")).expect("valid")
}

/// The fake engine's command line, with its own `arguments`: the test harness takes
/// what follows `--` as more test names, which match none.
fn fake_command(arguments: &[&str]) -> Vec<String> {
    let program = std::env::current_exe().expect("this test program's path");
    let mut command = vec![program.display().to_string()];
    command.extend(
        ["--ignored", "--exact", "--nocapture", "fake_engine", "--"]
            .into_iter()
            .chain(arguments.iter().copied())
            .map(str::to_owned),
    );
    command
}

fn fake(arguments: &[&str]) -> Contender {
    Contender::External {
        protocol: Protocol::HtpHost,
        command: fake_command(arguments),
    }
}

/// Our engine at depth 1 on one thread: quick, and the same game every run.
fn ours() -> Contender {
    parse_contender("ours:d1,j1").expect("a side")
}

fn settings(max_plies: usize) -> GameSettings {
    GameSettings {
        max_plies,
        clock: None,
        verbose: false,
    }
}

/// Copenhagen after `plies` random moves.
fn opening(plies: usize) -> Game {
    hnefatafl_matches::random_opening(&rules("copenhagen"), plies, 7)
}

/// What the fake engine logged: its arguments, then every line it was sent.
fn log_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("the fake engine wrote its log")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_game_is_relayed_move_by_move_over_the_engines_connection() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for a_player in [Player::Zero, Player::One] {
        let log = dir.path().join(format!("log{}", a_player.index()));
        let log_text = log.to_str().expect("a UTF-8 path");
        let start = opening(3);
        let engine = fake(&["--ai", "basic", "--depth", "1", "--log", log_text]);
        let report = play(&start, &ours(), &engine, a_player, &settings(16), 1);
        assert_eq!(report.failure, None, "{report:?}");
        assert_eq!(report.played.plies, 16, "{report:?}");

        let lines = log_lines(&log);
        // The user's options reach the engine, followed by the address it is to use.
        let args = lines[0].strip_prefix("args ").expect("the arguments first");
        let (options, host) = args.split_once(" --host ").expect("--host added last");
        assert_eq!(options, format!("--ai basic --depth 1 --log {log_text}"));
        assert!(host.starts_with("127."), "{host}");

        // The rules' board and first side, the opening, then the game: a `play` for each
        // of our moves and a `generate_move` for each of the engine's, and `quit` at the
        // cap (the fake checked each `play` legal in its own game).
        assert_eq!(lines[1..3], ["board_size 11", "first_move attacker"]);
        let (opening_lines, game_lines) = lines[3..].split_at(3);
        assert!(
            opening_lines.iter().all(|l| l.starts_with("play ")),
            "{lines:?}"
        );
        let asked = game_lines.iter().filter(|l| *l == "generate_move").count();
        let told = game_lines.iter().filter(|l| l.starts_with("play ")).count();
        assert_eq!((asked, told), (8, 8), "{lines:?}");
        assert_eq!(game_lines.last().map(String::as_str), Some("quit"));
        // The engine is asked first when it is the side to move after the opening.
        let engine_first = start.side_to_move() != a_player;
        assert_eq!(game_lines[0] == "generate_move", engine_first, "{lines:?}");
    }
}

#[test]
fn an_illegal_move_from_the_engine_loses_the_game_and_is_named() {
    let report = play(
        &opening(0),
        &fake(&["--illegal"]),
        &ours(),
        Player::Zero,
        &settings(10),
        1,
    );
    assert_eq!(report.played.result, GameResult::Loss, "{report:?}");
    let (side, why) = report.failure.expect("the engine failed");
    assert_eq!(side, 0);
    assert!(why.contains("illegal move `play attacker a1 a2`"), "{why}");
}

#[test]
fn a_resigning_engine_loses_without_failing() {
    let report = play(
        &opening(0),
        &ours(),
        &fake(&["--resign"]),
        Player::Zero,
        &settings(10),
        1,
    );
    assert_eq!(report.failure, None, "{report:?}");
    assert_eq!(report.played.result, GameResult::Win, "{report:?}");
    assert_eq!(report.played.plies, 1, "{report:?}");
}

/// The report quotes what the engine said when it ended.
fn failure_of(report: Report) -> String {
    assert_eq!(report.played.result, GameResult::Win, "{report:?}");
    let (side, why) = report.failure.expect("the engine failed");
    assert_eq!(side, 1);
    why
}

#[test]
fn an_engine_that_ends_before_connecting_is_reported_in_its_words() {
    let report = play(
        &opening(0),
        &ours(),
        &fake(&["--fail-start"]),
        Player::Zero,
        &settings(10),
        1,
    );
    let why = failure_of(report);
    assert!(why.contains("without connecting to 127."), "{why}");
    assert!(why.contains("Error: no such AI"), "{why}");
}

#[test]
fn an_engine_that_refuses_a_move_and_ends_is_reported_in_its_words() {
    let report = play(
        &opening(0),
        &ours(),
        &fake(&["--refuse-play", "2"]),
        Player::Zero,
        &settings(10),
        1,
    );
    let why = failure_of(report);
    assert!(why.contains("the engine ended"), "{why}");
    assert!(why.contains("Error: refused move 2"), "{why}");
}

#[test]
fn games_at_once_each_host_their_own_engine() {
    let games: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|seed| {
                scope.spawn(move || {
                    play(
                        &opening(2),
                        &ours(),
                        &fake(&[]),
                        Player::Zero,
                        &settings(8),
                        seed,
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game"))
            .collect()
    });
    for report in games {
        assert_eq!(report.failure, None, "{report:?}");
        assert_eq!(report.played.plies, 8, "{report:?}");
    }
}

#[test]
fn the_match_program_plays_a_host_mode_engine() {
    let side = format!("htp-host:{}", fake_command(&[]).join(" "));
    let copenhagen = programs::rules("copenhagen");
    let (ok, out, err) = programs::run(
        "match",
        &[
            "--rules",
            &copenhagen,
            "--games",
            "2",
            "--jobs",
            "2",
            "--plies",
            "12",
            "--a",
            "d1,j1",
            "--b",
            &side,
        ],
    );
    assert!(ok, "{err}");
    assert!(!err.contains("failed"), "{err}");
    assert_eq!(
        out.lines().filter(|l| l.contains("in 12 plies")).count(),
        2,
        "{out}"
    );
}

/// hnefatafl-copenhagen's own engine, when `HNEFATAFL_HTP_PEER` names it (a command
/// line, for instance `hnefatafl-text-protocol`): in `--host` mode at `--depth 1`, where
/// that option acts, a game of up to 60 plies each way, every move of the engine checked
/// legal by our rules. Only the variable turns the test on.
///
/// Its rules and the shipped file differ on one point: it refuses any move of the
/// defenders that brings back an earlier position, where ours let them repeat and lose
/// at the fourth occurrence. When it refuses such a move of ours it ends, naming the
/// reason; that disagreement is let pass, any other failure is not.
#[test]
fn a_game_against_hnefatafl_copenhagen_in_its_host_mode() {
    let Some(peer) = std::env::var_os("HNEFATAFL_HTP_PEER") else {
        eprintln!(
            "not run: HNEFATAFL_HTP_PEER is not set (cargo install hnefatafl-copenhagen \
             --no-default-features --bin hnefatafl-text-protocol, then \
             HNEFATAFL_HTP_PEER=hnefatafl-text-protocol)"
        );
        return;
    };
    let command = format!("htp-host:{} --ai basic --depth 1", peer.to_string_lossy());
    let peer = parse_contender(&command).expect("a command");
    for a_player in [Player::Zero, Player::One] {
        let report = play(
            &Game::new(rules("copenhagen")),
            &parse_contender("ours:d2,j1").expect("a side"),
            &peer,
            a_player,
            &settings(60),
            1,
        );
        if let Some((_, why)) = &report.failure {
            assert!(
                why.contains("you already reached that position"),
                "{report:?}"
            );
        }
        assert!(report.played.plies >= 10, "{report:?}");
    }
}

/// The fake engine, run as a process of its own by the tests above (which pass it
/// `--host`); never a test itself. Its own options: `--log FILE` (its arguments, then
/// each line it is sent), `--illegal` (answers `play ROLE a1 a2`), `--resign`,
/// `--fail-start` (ends at once, as the real engine does on a bad `--ai`) and
/// `--refuse-play N` (ends at the Nth `play`, as the real engine does on a move its rules
/// refuse).
#[test]
#[ignore = "the fake engine that the other tests start; not a test"]
fn fake_engine() {
    let args: Vec<String> = std::env::args().collect();
    let Some(host) = option_value(&args, "--host") else {
        return;
    };
    let code = match fake_engine_serves(&host, &args) {
        Ok(()) => 0,
        Err(why) => {
            // As the real engine's error reads when `RUST_BACKTRACE` is set.
            eprintln!("Error: {why}\n\nStack backtrace:");
            for frame in 0..10 {
                eprintln!("   {frame}: somewhere\n             at ./src/somewhere.rs:{frame}:1");
            }
            1
        }
    };
    // Without the harness's report on standard output.
    std::process::exit(code);
}

fn option_value(args: &[String], name: &str) -> Option<String> {
    let at = args.iter().position(|arg| arg == name)?;
    args.get(at + 1).cloned()
}

fn fake_engine_serves(host: &str, args: &[String]) -> Result<(), String> {
    let flag = |name: &str| args.iter().any(|arg| arg == name);
    let mut log = match option_value(args, "--log") {
        Some(path) => Some(std::fs::File::create(PathBuf::from(path)).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut note = |line: &str| {
        if let Some(log) = &mut log {
            let _ = writeln!(log, "{line}");
        }
    };
    let own = args.iter().skip_while(|arg| *arg != "--").skip(1);
    note(&format!(
        "args {}",
        own.cloned().collect::<Vec<_>>().join(" ")
    ));
    if flag("--fail-start") {
        return Err("no such AI".to_owned());
    }
    let refuse_play: Option<usize> =
        option_value(args, "--refuse-play").and_then(|n| n.parse().ok());
    // The real engine adds its server's port to the host it is given.
    let socket = TcpStream::connect(format!("{host}:49152")).map_err(|e| e.to_string())?;
    let mut answers = socket.try_clone().map_err(|e| e.to_string())?;
    let mut game = Game::new(rules("copenhagen"));
    let role = |game: &Game, player: Player| {
        let attackers = Roles::of(game.rules()).expect("a king's side").attackers;
        if player == attackers {
            "attacker"
        } else {
            "defender"
        }
    };
    let mut plays = 0;
    for line in BufReader::new(socket).lines() {
        let line = line.map_err(|e| e.to_string())?;
        note(&line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let to_move = role(&game, game.side_to_move());
        match words.as_slice() {
            ["board_size", "11"] => game = Game::new(rules("copenhagen")),
            ["first_move", first] if *first == to_move && game.ply() == 0 => {}
            ["play", who, from, to] => {
                plays += 1;
                if refuse_play == Some(plays) {
                    return Err(format!("refused move {plays}"));
                }
                if *who != to_move {
                    return Err(format!("`{line}`: not the {who}'s turn"));
                }
                let mv = game
                    .rules()
                    .parse_move(&[from, to])
                    .map_err(|e| e.to_string())?;
                game.try_play(mv).map_err(|e| format!("`{line}`: {e}"))?;
            }
            ["generate_move"] => {
                let answer = if flag("--resign") {
                    format!("play {to_move} resigns _")
                } else if flag("--illegal") {
                    format!("play {to_move} a1 a2")
                } else {
                    let count = game.legal_moves().count();
                    let mv = game
                        .legal_moves()
                        .nth(game.ply() * 7 % count)
                        .ok_or("no move")?;
                    let text = game.rules().format_move(mv, Notation::Algebraic);
                    game.play(mv);
                    format!("play {to_move} {text}")
                };
                writeln!(answers, "{answer}").map_err(|e| e.to_string())?;
            }
            ["quit"] => return Ok(()),
            _ => return Err(format!("cannot take `{line}`")),
        }
        // The real engine leaves when its game is over.
        if game.outcome().is_some() {
            return Ok(());
        }
    }
    Ok(())
}
