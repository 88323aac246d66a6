//! A fake engine in hnefatafl-copenhagen's `--host` mode, for the tests of the host side
//! (`protocol/tests/host_htp.rs`) and of the match runner (`matches/tests/htp_host.rs`,
//! which includes this file by path).
//!
//! It runs as a process of its own: the test program started again to run only
//! `fake_engine`. It speaks the protocol as hnefatafl-copenhagen 6.4.1's
//! `hnefatafl-text-protocol --host` does: it connects to the host it is given at port
//! 49152, takes `play ROLE FROM TO` lines silently (checking each legal in its own game),
//! answers `generate_move` with `play ROLE FROM TO`, and ends with `Error: <why>` on its
//! standard error at a line it cannot take.

// Each test crate that includes this module uses some of its helpers, not all.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

use hnefatafl_core::otn::Roles;
use hnefatafl_core::{Game, Notation, Player, Rules};

/// A shipped rule file.
pub fn rules(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/rules/{name}"));
    Rules::parse(&std::fs::read(path).expect("reads")).expect("valid")
}

/// The fake engine's command line, with its own `arguments`: the test harness takes
/// what follows `--` as more test names, which match none.
pub fn fake_command(arguments: &[&str]) -> Vec<String> {
    let program = std::env::current_exe().expect("this test program's path");
    // The harness names a test by its path below the crate.
    let test = module_path!()
        .split_once("::")
        .map_or("fake_engine".to_owned(), |(_, path)| {
            format!("{path}::fake_engine")
        });
    let mut command = vec![program.display().to_string()];
    command.extend(
        ["--ignored", "--exact", "--nocapture", test.as_str(), "--"]
            .into_iter()
            .chain(arguments.iter().copied())
            .map(str::to_owned),
    );
    command
}

/// The fake engine, run as a process of its own by the tests (the host passes it
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
