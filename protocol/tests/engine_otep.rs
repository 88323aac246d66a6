//! `hnefatafl --engine otep`: the real binary driven by a host that speaks the OpenTafl
//! Engine Protocol as OpenTafl's `opentafl-engine-protocol.txt` describes it, through
//! pipes, with positions checked by the core crate's OTN.

// The `hnefatafl` binary is uicx's; this finds it, built and up to date.
#[path = "../../server/tests/server_support/binaries.rs"]
mod binaries;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use hnefatafl_core::otn::{self, Board, OtnMove, RulesString};
use hnefatafl_core::{Game, Player, Rules};

/// Brandub with a weak king, which the rule language expresses exactly.
const RULES: &str =
    "dim:7 name:Brandubh surf:n tfr:i ks:w cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// What the engine may write: the protocol's engine-to-host commands.
const ENGINE_WORDS: [&str; 7] = [
    "hello",
    "move",
    "status",
    "error",
    "analysis",
    "rules",
    "simple-moves",
];

const WAIT: Duration = Duration::from_secs(60);

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// A host: the engine's stdin, and its stdout line by line.
struct Host {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Host {
    fn start(limits: &str) -> Host {
        Host::start_with(&["--limits", limits])
    }

    /// The engine with these arguments after `--engine otep`.
    fn start_with(arguments: &[&str]) -> Host {
        let mut child = Command::new(binaries::client_binary())
            .args(["--engine", "otep"])
            .args(arguments)
            .arg("-d")
            .arg(data())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Host {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{line}").expect("the engine reads");
        stdin.flush().expect("flushes");
    }

    /// The next line that starts with `word`; the lines before it must be `status`.
    fn expect(&mut self, word: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("no `{word}` from the engine"));
            let first = line.split_whitespace().next().unwrap_or("");
            assert!(ENGINE_WORDS.contains(&first), "not protocol: {line:?}");
            if first == word {
                return line;
            }
            assert_eq!(first, "status", "waiting for `{word}`: {line}");
        }
    }

    /// Closes stdin and returns every remaining line and the exit status.
    fn finish(mut self) -> (Vec<String>, bool, String) {
        self.stdin = None;
        let status = self.child.wait().expect("exits");
        let rest: Vec<String> = self.lines.iter().collect();
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut err, &mut stderr);
        }
        (rest, status.success(), stderr)
    }
}

fn rules() -> Rules {
    RulesString::parse(RULES)
        .and_then(|r| r.to_rules())
        .expect("expressible")
}

/// The move of a `move` line, checked legal in the game, then played.
fn play_reply(game: &mut Game, line: &str) -> String {
    let text = line.strip_prefix("move ").expect("a move");
    let mv = OtnMove::parse(game.rules(), text).expect("OTN").mv;
    game.try_play(mv)
        .unwrap_or_else(|e| panic!("{text} is illegal: {e}"));
    text.to_owned()
}

fn record(game: &Game) -> String {
    otn::position_to_otn(game.rules(), game.position())
        .expect("OTN")
        .to_string()
}

#[test]
fn plays_through_the_protocol_with_clocks_and_a_refused_move() {
    let mut host = Host::start("d3");
    assert_eq!(host.expect("hello"), "hello");
    host.send(&format!("rules {RULES}"));
    host.send("play attackers");
    host.send("clock 60000 60000 0 0 0");
    let mut game = Game::new(rules());
    let first = host.expect("move");
    play_reply(&mut game, &first);
    host.send(&format!("move {}", record(&game)));

    // The defenders answer; then the host refuses the engine's next move: `error`,
    // the opponent's move again with the true position, and `play`.
    let reply = game.legal_moves().next().expect("a reply");
    let text = otn::format_simple_move(reply);
    game.try_play(reply).expect("legal");
    host.send(&format!("opponent-move {text} {}", record(&game)));
    host.send("play attackers");
    host.send("clock 59000* 60000 30 2 3");
    let refused = host.expect("move");
    host.send("error 2");
    host.send(&format!("opponent-move {text} {}", record(&game)));
    host.send("play attackers");
    host.send("clock 1000* 60000 30 1 3");
    let again = host.expect("move");
    let mut check = game.clone();
    play_reply(&mut check, &refused);
    play_reply(&mut game, &again);

    host.send("finish 0");
    host.send("goodbye");
    let (rest, success, stderr) = host.finish();
    assert!(success, "{stderr}");
    assert!(rest.is_empty(), "after goodbye: {rest:?}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// A position with the defenders to move: a defender at a5 takes the attacker c6 by
/// moving to c5 (a defender stands at c7); the king at f2 stands below the attacker f1,
/// and the attacker g3 can close on him from f3.
const BEFORE: &str = "/5t1/5K1/6t/7/T6/2t4/2T4/";
const AFTER: &str = "/5t1/5K1/6t/7/2T4/7/2T4/";

#[test]
fn an_opponent_move_with_a_capture_sets_the_board() {
    // The record of the capture, as a full OTN move.
    let rules = rules();
    let before: Board = BEFORE.parse().expect("position");
    let position = otn::position_from_otn(&rules, &before, Player::One).expect("fits");
    let mv = OtnMove::parse(&rules, "a5-c5").expect("move").mv;
    let written = otn::format_move(&rules, &position, mv).expect("writes");
    assert_eq!(written, "a5-c5xc6");

    let mut host = Host::start("d2");
    host.expect("hello");
    host.send(&format!("rules {RULES}"));
    host.send(&format!("opponent-move {written} {AFTER}"));
    host.send("play attackers");
    host.send("clock 30000 30000 0 0 0");
    // The attackers take the king: only on the board after the capture.
    assert_eq!(host.expect("move"), "move g3-f3");

    // Analysis of the same board.
    host.send("side attackers");
    host.send(&format!("position {AFTER}"));
    host.send("clock 30000 30000 0 0 0");
    host.send("analyze 3 1");
    let analysis = host.expect("analysis");
    let words: Vec<&str> = analysis.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{analysis}");
    assert_eq!(words[1], "1");
    assert!(words[2].starts_with("g3-f3"), "{analysis}");
    assert!(
        words[3].parse::<i32>().expect("an evaluation") > 0,
        "{analysis}"
    );
    host.send("goodbye");
    let (_, success, stderr) = host.finish();
    assert!(success, "{stderr}");
}

#[test]
fn malformed_lines_are_answered_and_the_engine_goes_on() {
    let mut host = Host::start("d1");
    host.expect("hello");
    for (line, says) in [
        ("rules dim:7 start:/7/", "error -1"),
        ("position /7/7/7/7/7/7/7/", "error 0"),
        ("fly away", "error 0"),
        ("play everyone", "error 0"),
        ("clock soon", "error 0"),
        ("analyze many", "error 0"),
        (
            "rules dim:7 spd:2 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "error -1",
        ),
    ] {
        host.send(line);
        let answer = host.expect("error");
        assert!(answer.starts_with(says), "{line}: {answer}");
    }
    // Rules OTN has but the rule language only approaches: played, and said so.
    // (a threefold repetition won by its mover, a centre hostile to no one).
    host.send("rules dim:7 ks:w tfr:w cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    let status = host.expect("status");
    assert!(
        status.contains("tfr") && status.contains("cenh"),
        "{status}"
    );
    host.send("position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t/");
    assert!(host.expect("error").contains("rank 7"));
    host.send("play defenders");
    host.send("clock 5000 5000 0 0 0");
    let reply = host.expect("move");
    // The defenders' move is legal for the defenders from the start position.
    let rules = rules();
    let board: Board = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".parse().expect("start");
    let position = otn::position_from_otn(&rules, &board, Player::One).expect("fits");
    let mv = OtnMove::parse(&rules, reply.trim_start_matches("move ")).expect("OTN");
    position.check_move(mv.mv).expect("a legal defenders' move");
    host.send("finish 3");
    host.send("fly");
    assert!(host.expect("error").starts_with("error 0"));
    let (rest, success, stderr) = host.finish();
    assert!(
        success && rest.is_empty() && stderr.is_empty(),
        "{rest:?} {stderr}"
    );
}

#[test]
fn the_shipped_engine_file_runs_the_engine() {
    let ini = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/opentafl/hnefatafl-rs.ini");
    let text = std::fs::read_to_string(&ini).expect("the engine file");
    let mut section = "";
    let mut entries = std::collections::HashMap::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with(';') || line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let (key, value) = line.split_once('=').expect("key=value");
        if section == "[engine]" {
            entries.insert(key.to_owned(), value.to_owned());
        }
    }
    for key in ["directory", "filename", "command", "arguments", "name"] {
        assert!(entries.contains_key(key), "{key} in {entries:?}");
    }
    assert_eq!(entries["filename"], "hnefatafl");
    // OpenTafl splits the arguments at spaces and runs the command with them.
    let arguments: Vec<&str> = entries["arguments"].split(' ').collect();
    let mut child = Command::new(binaries::client_binary())
        .args(&arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("piped");
    writeln!(stdin, "goodbye").expect("writes");
    drop(stdin);
    let output = child.wait_with_output().expect("ends");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "hello\n");
}

/// Copenhagen as OTN says it: a board on which a search at full strength would think far
/// longer than the clocks below.
const COPENHAGEN: &str = "dim:11 name:Copenhagen sw:s efe:y \
    start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

#[test]
fn moves_come_within_the_clock_the_host_gives() {
    // No `--limits`: with a clock, the engine thinks at full strength within it.
    let mut host = Host::start_with(&[]);
    host.expect("hello");
    host.send(&format!("rules {COPENHAGEN}"));
    let rules = RulesString::parse(COPENHAGEN)
        .and_then(|r| r.to_rules())
        .expect("expressible");
    let mut game = Game::new(rules);
    // (the clock line, the side to move, the most the move may take on that clock)
    for (turn, (clock, side, millis)) in [
        // Main time only.
        ("clock 2500 2500 0 0 0", "attackers", 2500),
        // Main time spent: what is left of the current overtime period.
        ("clock 60000 1500* 3 0 2", "defenders", 1500),
        // Main time, with overtime periods in hand: the main time and one period.
        ("clock 2000 60000 2 3 3", "attackers", 4000),
    ]
    .into_iter()
    .enumerate()
    {
        // OpenTafl sends the clock just before `play`; the protocol's text says after it
        // (the other tests): the host's clock runs from `play` to the reply either way.
        host.send(clock);
        let asked = Instant::now();
        host.send(&format!("play {side}"));
        let line = host.expect("move");
        let took = asked.elapsed();
        assert!(
            took < Duration::from_millis(millis),
            "turn {turn}: {line} after {took:?} on `{clock}`"
        );
        play_reply(&mut game, &line);
        // The engine plays both sides in turn, each move confirmed by the host.
        host.send(&format!("move {}", record(&game)));
    }
    host.send("goodbye");
    let (_, success, stderr) = host.finish();
    assert!(success, "{stderr}");
}
