//! The command line as a network client: real `hnefatafl` processes talk over real TLS on
//! loopback to a real `hnefataflserver`, started by hand or by `c localhost`.

// The server's tests' helpers: the server's binary, built if missing, and clients.
#[path = "../../server/tests/server_support/mod.rs"]
mod server_support;

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::pty::{self, expect, quit, type_line};
use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{EndReason, Game, Notation, Rules};
use server_support::{PATIENCE, Random, ServerProcess};

/// A running `hnefatafl` fed line by line, its output gathered as it comes.
struct Player {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Arc<Mutex<String>>,
    /// The threads that gather standard output and error; they end with the program.
    readers: Vec<std::thread::JoinHandle<()>>,
    name: &'static str,
}

impl Player {
    fn start(name: &'static str, home: &Path) -> Player {
        let program = Path::new(env!("CARGO_BIN_EXE_hnefatafl"));
        Player::start_program(Command::new(program), name, home)
    }

    fn start_program(mut command: Command, name: &'static str, home: &Path) -> Player {
        let mut child = command
            .args(["-C", "-l", "eng"])
            .env("HOME", home)
            .env_remove("DISPLAY")
            .env_remove("HNEFATAFL_RC")
            .env_remove("HNEFATAFL_PATH")
            .env_remove("HNEFATAFL_LANG")
            .env_remove("HNEFATAFL_RULES")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hnefatafl");
        let output = Arc::new(Mutex::new(String::new()));
        let mut readers = Vec::new();
        for stream in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let sink = output.clone();
            readers.push(std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    if let Ok(mut text) = sink.lock() {
                        text.push_str(&line);
                        text.push('\n');
                    }
                }
            }));
        }
        let stdin = child.stdin.take();
        Player {
            child,
            stdin,
            output,
            readers,
            name,
        }
    }

    fn send(&mut self, lines: &[&str]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        for line in lines {
            writeln!(stdin, "{line}").expect("write a line");
        }
        stdin.flush().expect("flush");
    }

    fn text(&self) -> String {
        self.output.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// Polls the output until it holds `wanted`, for at most [`PATIENCE`].
    fn wait_for(&self, wanted: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let text = self.text();
            if text.contains(wanted) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{}: no `{wanted}` in:\n{text}",
                self.name
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Closes standard input and waits for the program to end by itself.
    fn finish(&mut self) -> String {
        self.stdin = None;
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // The readers end at the end of the program's output: all of it is read.
                for reader in self.readers.drain(..) {
                    let _ = reader.join();
                }
                assert!(status.success(), "{}: {status}\n{}", self.name, self.text());
                return self.text();
            }
            assert!(
                Instant::now() < deadline,
                "{}: did not end:\n{}",
                self.name,
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Ann makes game 1 with `new` (which must seat her as player 0) and Bob joins it, each in
/// Both players leave the program; each must end by itself.
fn quit_both(ann: &mut Player, bob: &mut Player) {
    ann.send(&["q"]);
    bob.send(&["q"]);
    ann.finish();
    bob.finish();
}

/// A server of its own on a fresh data directory, and two homes for its players; the
/// server stops when this is dropped.
struct Club {
    homes: Vec<tempfile::TempDir>,
    connect: String,
    _server: ServerProcess,
    _data: tempfile::TempDir,
}

impl Club {
    fn start() -> Club {
        let data = tempfile::tempdir().expect("data");
        let homes = (0..2).map(|_| tempfile::tempdir().expect("home")).collect();
        let server = ServerProcess::start(data.path(), 0, &[]);
        Club {
            homes,
            connect: format!("c localhost:{}", server.port),
            _server: server,
            _data: data,
        }
    }
}

/// a program of their own with their own home; both are logged in when this returns.
fn seated_at_game_one(connect: &str, homes: &[tempfile::TempDir], new: &str) -> (Player, Player) {
    let mut ann = Player::start("ann", homes[0].path());
    ann.send(&[connect, "register ann", "ann secret", new]);
    ann.wait_for("you play player 0");
    let mut bob = Player::start("bob", homes[1].path());
    bob.send(&[connect, "register bob", "bob secret", "join 1"]);
    ann.wait_for("bob takes the seat of player 1 in game 1.");
    (ann, bob)
}

fn brandub() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/brandub");
    Rules::parse(&std::fs::read(path).expect("the rule file")).expect("the rules read")
}

/// A random game of brandub that ends within 40 moves, numeric, from the first seed
/// that gives one.
fn short_game() -> (Vec<String>, Game) {
    let rules = brandub();
    for seed in 1.. {
        let mut random = Random(seed);
        let mut game = Game::new(rules.clone());
        let mut moves = Vec::new();
        while game.outcome().is_none() && moves.len() < 40 {
            let legal: Vec<_> = game.legal_moves().collect();
            let mv = legal[random.below(legal.len())];
            moves.push(rules.format_move(mv, Notation::Numeric));
            game.try_play(mv).expect("a legal move");
        }
        if game.outcome().is_some() {
            return (moves, game);
        }
    }
    unreachable!("some seed gives a short game")
}

/// A port that nothing listens on now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}

#[test]
fn two_players_and_a_watcher_play_a_whole_game_through_the_server() {
    let data = tempfile::tempdir().expect("data");
    let homes: Vec<tempfile::TempDir> =
        (0..3).map(|_| tempfile::tempdir().expect("home")).collect();
    let server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);
    let (moves, finished) = short_game();

    let mut ann = Player::start("ann", homes[0].path());
    ann.send(&[&connect, "register ann", "ann secret", "new brandub 5+3"]);
    ann.wait_for("Game 1 (brandub): you play player 0; ann against (free seat).");
    let mut bob = Player::start("bob", homes[1].path());
    bob.send(&[&connect, "register bob", "bob secret", "join 1"]);
    bob.wait_for("Game 1 (brandub): you play player 1; ann against bob.");
    ann.wait_for("bob takes the seat of player 1 in game 1.");
    let mut guest = Player::start("guest", homes[2].path());
    guest.send(&[&connect, "watch 1"]);
    guest.wait_for("Watching game 1 (brandub): ann against bob.");

    // Each script holds all of its side's moves at once: each waits for its turn.
    let save = homes[0].path().join("archived.save");
    let fetch = format!("fetch 1 {}", save.display());
    let load = format!("e {}", save.display());
    let mut lines: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for (ply, mv) in moves.iter().enumerate() {
        lines[ply % 2].push(format!("m {mv}"));
    }
    // Bob speaks before his first move, while everyone still waits for it.
    lines[1].insert(0, "say good game".to_owned());
    lines[0].extend([fetch, load, "b".to_owned()]);
    let refs = |side: usize| lines[side].iter().map(String::as_str).collect::<Vec<_>>();
    ann.send(&refs(0));
    bob.send(&refs(1));

    // The rules' end, in the words of a local game's end (brandub's king is the only
    // piece that escapes or is lost).
    let outcome = finished.outcome().expect("over");
    let winner = outcome.winner.expect("brandub has no draw here").index();
    let loser = 1 - winner;
    let how = match outcome.reason {
        EndReason::Escape(_) => "the king reached an escape square.".to_owned(),
        EndReason::CaptureLoss(_) => format!("player {loser} lost every king."),
        EndReason::NoMoves => format!("player {loser} has no legal move."),
        other => panic!("brandub does not end by {other}"),
    };
    let ended = format!("Game 1 is over. Player {winner} wins: {how}");
    let [ann_text, bob_text, guest_text] = [&mut ann, &mut bob, &mut guest].map(Player::finish);
    for (name, text) in [
        ("ann", &ann_text),
        ("bob", &bob_text),
        ("guest", &guest_text),
    ] {
        assert!(text.contains(&ended), "{name}: no `{ended}` in\n{text}");
        assert!(!text.contains("Server:"), "{name}: refused\n{text}");
    }
    // The end is said once where nobody asked for the board again.
    for (name, text) in [("bob", &bob_text), ("guest", &guest_text)] {
        let said = text.matches(&how).count();
        assert_eq!(said, 1, "{name}: `{how}` said {said} times in\n{text}");
    }
    // The other side's moves show as the computer's do; the watcher sees them all.
    let rules = brandub();
    for (ply, mv) in moves.iter().enumerate() {
        let words: Vec<&str> = mv.split_whitespace().collect();
        let parsed = rules.parse_move(&words).expect("a move");
        let from = rules.format_square(parsed.from(), Notation::Algebraic);
        let to = rules.format_square(parsed.to(), Notation::Algebraic);
        let shown = format!("m {mv} ({from}-{to})");
        let other = if ply % 2 == 0 { &bob_text } else { &ann_text };
        assert!(other.contains(&shown), "no `{shown}` in\n{other}");
        assert!(guest_text.contains(&shown), "no `{shown}` in\n{guest_text}");
    }
    assert!(ann_text.contains("Clocks: player 0 "), "{ann_text}");
    assert!(ann_text.contains("bob says: good game"), "{ann_text}");
    assert!(guest_text.contains("bob says: good game"), "{guest_text}");

    // The archive's copy loads with `e`, every move in it.
    let count = moves.len();
    assert!(
        ann_text.contains(&format!(
            "Game loaded from {}: {count} moves.",
            save.display()
        )),
        "{ann_text}"
    );
    let saved = SavedGame::parse(&std::fs::read(&save).expect("fetched")).expect("a saved game");
    let replayed = saved.replay(&rules).expect("replays");
    assert_eq!(replayed.ply(), count);
    assert_eq!(replayed.position().hash(), finished.position().hash());
    drop(server);
}

/// Whether a process is gone (or has ended and waits to be reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

fn server_pid(text: &str) -> u32 {
    let start = text
        .find("Started a private server (process ")
        .unwrap_or_else(|| panic!("no server started in\n{text}"));
    text[start..]
        .split_whitespace()
        .nth(5)
        .and_then(|word| word.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("no process id in\n{text}"))
}

#[test]
fn c_localhost_starts_a_private_server_that_stops_when_the_last_player_leaves() {
    // The program starts the server it finds beside itself: make sure it is built.
    server_support::binaries::server_binary();
    let home = tempfile::tempdir().expect("home");
    let other_home = tempfile::tempdir().expect("home");
    let port = free_port();
    let connect = format!("c localhost:{port}");
    let mut ann = Player::start("ann", home.path());
    ann.send(&[&connect, "register ann", "ann secret"]);
    let text = ann.wait_for("Logged in as ann.");
    let pid = server_pid(&text);
    assert!(
        text.contains(&format!("on localhost:{port}; it stops")),
        "{text}"
    );
    assert!(!gone(pid), "the server runs");
    // Its certificate is its own: no operator to ask about it.
    assert!(
        text.contains(&format!(
            "First connection to localhost:{port}, the private server this program started: its certificate sha256:"
        )),
        "{text}"
    );
    assert!(!text.contains("operator"), "{text}");
    let data = remote_data(home.path());
    assert!(data.join("server.db").is_file(), "its own data directory");
    let pins = std::fs::read_to_string(home.path().join(".hnefatafl/known_servers"))
        .expect("the certificate is pinned");
    assert!(
        pins.contains(&format!("127.0.0.1:{port} sha256:")),
        "{pins}"
    );

    // A second player on this computer finds the same server rather than starting one.
    let mut bob = Player::start("bob", other_home.path());
    bob.send(&[&connect, "register bob", "bob secret", "games"]);
    let bob_text = bob.wait_for("Logged in as bob.");
    assert!(!bob_text.contains("Started a private server"), "{bob_text}");

    // Bad commands on the network get a clear error, and the session goes on.
    ann.send(&[
        "join 999",
        "watch 998",
        "new nosuchrules",
        "new brandub 5+x",
        "join x",
        "say hello",
        "register ann",
        "wrong",
    ]);
    ann.wait_for("Server: there is no game 999");
    ann.wait_for("Server: there is no game 998");
    ann.wait_for("`5+x` is not a clock");
    ann.wait_for("`x` is not a positive number.");
    ann.wait_for("No network game. Make one with new, or join or watch one.");
    let text = ann.wait_for("Server: ");
    assert!(text.contains("nosuchrules"), "{text}");
    ann.send(&["games"]);
    ann.wait_for("No games.");

    ann.send(&["q"]);
    ann.finish();
    assert!(!gone(pid), "bob is still there");
    bob.send(&["q"]);
    bob.finish();
    let deadline = Instant::now() + PATIENCE;
    while !gone(pid) {
        assert!(Instant::now() < deadline, "the private server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn c_localhost_without_the_server_installed_says_how_to_install_it() {
    // The program alone in a directory (a hard link, so it runs from there), with no
    // server beside it nor on $PATH.
    let program = Path::new(env!("CARGO_BIN_EXE_hnefatafl"));
    let alone = tempfile::tempdir_in(program.parent().expect("a directory")).expect("dir");
    let linked = alone.path().join("hnefatafl");
    std::fs::hard_link(program, &linked).expect("link the program");
    let home = tempfile::tempdir().expect("home");
    let mut command = Command::new(&linked);
    command.env("PATH", alone.path());
    let mut player = Player::start_program(command, "alone", home.path());
    player.send(&[&format!("c localhost:{}", free_port())]);
    let text = player.wait_for("cargo install --path server");
    assert!(text.contains("hnefataflserver is not installed"), "{text}");
    player.finish();
}

#[test]
fn c_localhost_starts_the_server_found_on_the_path() {
    // The program alone in one directory, the server alone in another that $PATH names
    // (hard links, so each runs from where it lies).
    let program = Path::new(env!("CARGO_BIN_EXE_hnefatafl"));
    let server = server_support::binaries::server_binary();
    let near = |path: &Path| tempfile::tempdir_in(path.parent().expect("a directory"));
    let alone = near(program).expect("dir");
    let bin = near(&server).expect("dir");
    let linked = alone.path().join("hnefatafl");
    std::fs::hard_link(program, &linked).expect("link the program");
    std::fs::hard_link(&server, bin.path().join("hnefataflserver")).expect("link the server");
    let home = tempfile::tempdir().expect("home");
    let mut command = Command::new(&linked);
    command.env("PATH", bin.path());
    let mut player = Player::start_program(command, "path", home.path());
    player.send(&[&format!("c localhost:{}", free_port())]);
    let text = player.wait_for("Connected to ");
    let pid = server_pid(&text);
    player.send(&["q"]);
    player.finish();
    let deadline = Instant::now() + PATIENCE;
    while !gone(pid) {
        assert!(Instant::now() < deadline, "the private server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The private server's data directory, where the manual puts it.
fn remote_data(home: &Path) -> PathBuf {
    home.join(".hnefatafl").join("local-server")
}

#[test]
fn h_c_explains_connecting() {
    let home = tempfile::tempdir().expect("home");
    let mut player = Player::start("help", home.path());
    player.send(&["h c", "h register", "c nowhere.invalid:0"]);
    let text = player.finish();
    assert!(text.contains("connect to a game server"), "{text}");
    assert!(text.contains("the password is the next line"), "{text}");
    assert!(text.contains("`0` is not a port"), "{text}");
}

#[test]
fn a_password_is_the_next_line_as_typed_whatever_it_holds() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);
    // An unpaired quote, a backslash at the end, a comment sign and doubled spaces: the
    // command syntax would refuse the line or change it.
    let password = r#"it's  "a # x\"#;

    let mut ann = Player::start("ann", homes[0].path());
    ann.send(&[connect, "register ann", password, "q"]);
    let text = ann.finish();
    assert!(text.contains("Logged in as ann."), "{text}");
    assert!(
        !text.contains("a # x"),
        "the password is not shown:\n{text}"
    );

    let mut again = Player::start("ann again", homes[1].path());
    // The same words with the quote paired, then the password itself.
    again.send(&[
        connect,
        "login ann",
        r#"it's  "a # x\""#,
        "login ann",
        password,
        "q",
    ]);
    let text = again.finish();
    // One refusal and one login (errors come on standard error, so the order of the
    // two in the text is not known).
    assert_eq!(text.matches("wrong name or password").count(), 1, "{text}");
    assert_eq!(text.matches("Logged in as ann.").count(), 1, "{text}");
}

/// After a `login` with no connection (a `c` that failed, say), the next line is still
/// the password: never run as a command, nor shown in an error.
#[test]
fn after_a_login_with_no_server_the_next_line_is_still_the_password() {
    let home = tempfile::tempdir().expect("home");
    let mut player = Player::start("alone", home.path());
    player.send(&["r brandub", "login ann", "Sup3r-secret", "m d7 c7"]);
    let text = player.finish();
    assert!(
        text.contains("Not connected to a server: the next line, the password for ann"),
        "{text}"
    );
    assert!(!text.contains("Sup3r"), "the password shows: {text}");
    // The line after the password is a command again.
    assert!(text.contains("Player 1 to move."), "{text}");
}

/// At a terminal the password has a prompt of its own, unlike the command line's `> `,
/// and is not echoed.
#[test]
fn at_a_terminal_the_password_prompt_is_not_the_command_prompt() {
    let home = tempfile::tempdir().expect("home");
    let mut terminal = at_a_terminal(home.path());
    expect(&mut terminal, "> ");
    type_line(&mut terminal, "login ann");
    expect(&mut terminal, "the password for ann");
    expect(&mut terminal, "password (not shown): ");
    type_line(&mut terminal, "hunter2");
    let before = expect(&mut terminal, "> ");
    assert!(
        !before.contains("hunter2"),
        "the password was echoed: {before:?}"
    );
    quit(&mut terminal);
}

/// `hnefatafl` at a terminal (a pty) in English, with `home` as its HOME.
fn at_a_terminal(home: &Path) -> rexpect::session::PtySession {
    let mut command = common::process(home);
    command.args(["-C", "-l", "eng"]);
    pty::at_a_terminal(command, PATIENCE)
}

/// Ann registers at a terminal (asked for her password once, which is not echoed) and
/// makes game 1 of brandub; Bob, through a pipe, takes its other seat.
fn ann_at_a_terminal_with_bob(
    connect: &str,
    homes: &[tempfile::TempDir],
) -> (rexpect::session::PtySession, Player) {
    let mut ann = at_a_terminal(homes[0].path());
    type_line(&mut ann, connect);
    type_line(&mut ann, "register ann");
    expect(&mut ann, "Account ann: the next line is its password.");
    // The password is asked for once, by the prompt.
    let between = expect(&mut ann, "password (not shown): ");
    assert!(!between.contains("Password"), "asked twice: {between:?}");
    type_line(&mut ann, "ann secret");
    let before = expect(&mut ann, "Logged in as ann.");
    assert!(
        !before.contains("ann secret"),
        "the password was echoed:\n{before}"
    );
    type_line(&mut ann, "new brandub");
    expect(&mut ann, "you play player 0");

    let mut bob = Player::start("bob", homes[1].path());
    bob.send(&[connect, "register bob", "bob secret", "join 1"]);
    expect(&mut ann, "bob takes the seat of player 1 in game 1.");
    (ann, bob)
}

#[test]
fn at_a_terminal_a_move_out_of_turn_is_refused_and_the_game_goes_on() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);

    let (mut ann, mut bob) = ann_at_a_terminal_with_bob(connect, homes);

    type_line(&mut ann, "m d7 c7");
    expect(&mut ann, "Player 1 to move.");
    // Bob has not moved: the server refuses ann's second move, and she can go on.
    type_line(&mut ann, "m c7 b7");
    expect(&mut ann, "Server: it is not your turn");
    type_line(&mut ann, "b");
    expect(&mut ann, "Player 1 to move.");

    bob.wait_for("m 3 0 2 0 (d7-c7)");
    bob.send(&["m d5 c5"]);
    expect(&mut ann, "(d5-c5)");
    expect(&mut ann, "Player 0 to move.");
    type_line(&mut ann, "m c7 b7");
    expect(&mut ann, "Player 1 to move.");
    bob.wait_for("(c7-b7)");
    quit(&mut ann);
    drop(club);
}

#[test]
fn a_player_whose_program_died_logs_in_again_and_plays_on() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);

    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub 5+3");
    ann.send(&["m d7 c7"]);
    bob.wait_for("(d7-c7)");
    // Ann's program is killed; Bob moves while she is away.
    drop(ann);
    bob.send(&["m d5 c5"]);
    bob.wait_for("Clocks: player 0 ");

    let mut again = Player::start("ann again", homes[0].path());
    again.send(&[connect, "login ann", "ann secret"]);
    again.wait_for("Your unfinished games: 1 (join one to go on).");
    again.send(&["join 1", "b"]);
    again.wait_for("Game 1 (brandub): you play player 0; ann against bob.");
    // Both moves are there, and it is her turn.
    let text = again.wait_for("Player 0 to move.");
    let board = &text[text.find("ann against bob").expect("joined")..];
    let plain: Vec<String> = board
        .lines()
        .map(|line| {
            line.replace(['[', ']'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for row in ["0 7 * . A . . . *", "2 5 . . d . . . ."] {
        assert!(
            plain.iter().any(|line| line == row),
            "no row `{row}` in\n{board}"
        );
    }
    again.send(&["m c7 b7"]);
    bob.wait_for("(c7-b7)");
}

/// The lists of games say "1 move", and an archived game's line says how it ended
/// without naming the game a second time.
#[test]
fn lists_of_games_read_as_sentences() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);

    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub");
    ann.send(&["m d7 c7"]);
    bob.wait_for("(d7-c7)");
    bob.send(&["games"]);
    let listed = "Game 1: brandub, ann against bob, untimed, 1 move\n";
    bob.wait_for(listed);
    // Bob, whose turn it is, resigns.
    bob.send(&["resign"]);
    bob.wait_for("Game 1 is over. Player 0 wins: player 1 resigned.");
    bob.send(&["archive"]);
    let archived =
        "Game 1: brandub, ann against bob, untimed, 1 move. Player 0 wins: player 1 resigned.\n";
    bob.wait_for(archived);
    drop(club);
}

/// What arrives by itself at a terminal (the other side's move) starts on a line of its
/// own, not after the prompt, and the prompt is written again after it.
#[test]
fn at_a_terminal_a_move_from_the_server_starts_on_a_fresh_line() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);

    let (mut ann, mut bob) = ann_at_a_terminal_with_bob(connect, homes);
    type_line(&mut ann, "m d7 c7");
    expect(&mut ann, "Player 1 to move.");
    // Ann waits at her prompt for Bob's move.
    expect(&mut ann, "> ");
    bob.wait_for("(d7-c7)");
    bob.send(&["m d5 c5"]);
    let before = expect(&mut ann, "(d5-c5)");
    let line = before.rsplit('\n').next().unwrap_or_default();
    assert!(
        line.trim_start_matches('\r').starts_with("m "),
        "the move shares a line with the prompt: {line:?}"
    );
    expect(&mut ann, "Player 0 to move.");
    // The prompt is back, on a line of its own.
    let after = expect(&mut ann, "> ");
    assert!(after.ends_with('\n'), "no prompt after the move: {after:?}");
    quit(&mut ann);
    drop(club);
}

/// A lone player plays the server's computer: `new` takes the side and the opponent, in
/// any order after the rules, and refuses a word that is none of them.
#[test]
fn new_takes_the_side_and_a_computer_opponent() {
    let data = tempfile::tempdir().expect("data");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start(data.path(), 0, &["--computer", "1"]);
    let connect = format!("c localhost:{}", server.port);

    let mut ann = Player::start("ann", home.path());
    ann.send(&[&connect, "register ann", "ann secret", "new brandub 7"]);
    ann.wait_for("`7` is neither a clock");
    ann.send(&["new brandub 1 1"]);
    ann.wait_for("`1` is neither a clock");
    ann.send(&["new brandub computer1 1"]);
    ann.wait_for("you play player 1; computer1 against ann.");
    // The computer, player 0, moves first, and it is Ann's turn.
    ann.wait_for("Player 1 to move.");
    ann.send(&["q"]);
    ann.finish();
    drop(server);
}

/// `new` takes a byo-yomi and a correspondence clock, and refuses a bad clock in words.
#[test]
fn new_takes_byo_yomi_and_correspondence_clocks() {
    let data = tempfile::tempdir().expect("data");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);

    let mut ann = Player::start("ann", home.path());
    ann.send(&[&connect, "register ann", "ann secret", "new brandub 1+x30"]);
    ann.wait_for("`1+x30` is not a clock");
    ann.send(&["new brandub 0d"]);
    ann.wait_for("`0d` is not a clock");
    // Half a minute of main time, then three periods of thirty seconds.
    ann.send(&["new brandub 0.5+3x30"]);
    ann.wait_for("you play player 0");
    ann.wait_for(
        "Clocks: player 0 0:30.0 and 3 periods of 30 s, player 1 0:30.0 and 3 periods of 30 s.",
    );
    // Two and a half days for each move.
    let bob_home = tempfile::tempdir().expect("home");
    let mut bob = Player::start("bob", bob_home.path());
    bob.send(&[&connect, "register bob", "bob secret", "new brandub 1 2.5d"]);
    bob.wait_for("you play player 1");
    bob.wait_for("Clocks: player 0 2d 12:00:00, player 1 2d 12:00:00.");
    drop((ann, bob));
    drop(server);
}

/// A rated game counts at the end of the rating period: `ratings` lists the winner first
/// and `rating` shows an account's rating and history, in words.
#[test]
fn a_rated_game_shows_in_ratings_and_rating() {
    let data = tempfile::tempdir().expect("data");
    let homes: Vec<tempfile::TempDir> =
        (0..2).map(|_| tempfile::tempdir().expect("home")).collect();
    let server = ServerProcess::start(data.path(), 0, &["--rating-period", "1s"]);
    let connect = format!("c localhost:{}", server.port);

    let mut ann = Player::start("ann", homes[0].path());
    ann.send(&[&connect, "register ann", "ann secret", "rating"]);
    ann.wait_for("ann has no rating yet");
    ann.send(&["ratings brandub 0"]);
    ann.wait_for("`0` is not a page");
    ann.send(&["new brandub rated rated"]);
    ann.wait_for("`rated` is neither");
    ann.send(&["new brandub rated"]);
    ann.wait_for("you play player 0");
    let mut bob = Player::start("bob", homes[1].path());
    bob.send(&[&connect, "register bob", "bob secret", "join 1"]);
    ann.wait_for("bob takes the seat of player 1 in game 1.");
    ann.send(&["m d7 c7"]);
    bob.wait_for("(d7-c7)");
    bob.send(&["resign"]);
    bob.wait_for("Game 1 is over. Player 0 wins: player 1 resigned.");
    // The period closes within a second or two: ask until it has.
    let deadline = Instant::now() + PATIENCE;
    let text = loop {
        bob.send(&["ratings brandub"]);
        std::thread::sleep(Duration::from_millis(200));
        let text = bob.text();
        if text.contains("2. bob: ") {
            break text;
        }
        assert!(Instant::now() < deadline, "no ratings in:\n{text}");
    };
    let board = text
        .rsplit("Ratings in brandub, page 1:")
        .next()
        .unwrap_or_default();
    let ann_line = board.find("1. ann: ").expect("ann first");
    let bob_line = board.find("2. bob: ").expect("bob second");
    assert!(ann_line < bob_line, "{board}");
    assert!(board.contains(", 1 rated game"), "{board}");
    bob.send(&["rating"]);
    let text = bob.wait_for("after the period ending");
    let own = text.rsplit("Ratings of bob:").next().unwrap_or_default();
    let line = own.lines().nth(1).unwrap_or_default();
    // bob lost his one game from 1500: his rating is below it.
    let rating: i32 = line
        .strip_prefix("brandub: ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("a rating line: {line:?}"));
    assert!(rating < 1500, "{line}");
    drop(server);
}

/// A server that goes away (killed: no TLS goodbye) is reported in words, not in the TLS
/// library's message with its web address.
#[test]
fn a_server_that_goes_away_is_said_in_words() {
    let data = tempfile::tempdir().expect("data");
    let home = tempfile::tempdir().expect("home");
    let mut server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);
    let mut ann = Player::start("ann", home.path());
    ann.send(&[&connect, "register ann", "ann secret", "new brandub"]);
    ann.wait_for("you play player 0");
    server.kill();
    let text = ann.wait_for("closed the connection");
    assert!(
        !text.contains("close_notify") && !text.contains("https://"),
        "{text}"
    );
    ann.send(&["q"]);
    ann.finish();
}

/// The first connection to a server says its certificate's fingerprint (the one the
/// server printed at its start) and where it was pinned; later ones do not.
#[test]
fn the_first_connection_tells_the_fingerprint_and_where_it_is_pinned() {
    let data = tempfile::tempdir().expect("data");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start(data.path(), 0, &[]);
    let printed = server.output_until(|text| text.contains("certificate sha256:"));
    let fingerprint = printed
        .split("certificate ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the server prints its fingerprint")
        .to_owned();
    let connect = format!("c localhost:{}", server.port);

    let mut first = Player::start("first", home.path());
    first.send(&[&connect]);
    let text = first.wait_for("Connected to");
    let pins = home.path().join(".hnefatafl").join("known_servers");
    let told = format!(
        "First connection to localhost:{}: its certificate {fingerprint} is trusted from now on and pinned in {}.",
        server.port,
        pins.display()
    );
    assert!(text.contains(&told), "no {told:?} in:\n{text}");
    first.send(&["q"]);
    first.finish();

    let mut again = Player::start("again", home.path());
    again.send(&[&connect]);
    let text = again.wait_for("Connected to");
    assert!(!text.contains("First connection"), "{text}");
    again.send(&["q"]);
    again.finish();
    drop(server);
}

/// What `b` shows (the board, then whose turn it is or how the game ended, then the
/// clocks of a timed game), between the help lines of `rules` and `leave` (on the same
/// standard output) that mark it.
fn board_status(player: &mut Player) -> String {
    let before = "rules                  list the rule sets";
    let after = "leave                  stop playing";
    let seen = player.text().matches(after).count();
    player.send(&["h rules", "b", "h leave"]);
    let deadline = Instant::now() + PATIENCE;
    while player.text().matches(after).count() <= seen {
        assert!(Instant::now() < deadline, "no `b`:\n{}", player.text());
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = player.text();
    let end = text.rfind(after).expect("the second mark");
    let start = text[..end].rfind(before).expect("the first mark") + before.len();
    text[start..end].to_owned()
}

/// A game that ends by resignation, at both players' tables: said in the words of a
/// local game's end, the status (`b`) says so instead of whose turn it is, the clocks
/// stand still.
#[test]
fn a_resignation_ends_the_game_at_both_tables() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);
    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub 5+0");
    ann.send(&["m d7 c7"]);
    bob.wait_for("(d7-c7)");
    bob.send(&["resign"]);
    let ended = "Game 1 is over. Player 0 wins: player 1 resigned.";
    ann.wait_for(ended);
    bob.wait_for(ended);
    for player in [&mut ann, &mut bob] {
        let status = board_status(player);
        assert!(
            status.contains("\nPlayer 0 wins: player 1 resigned.\n"),
            "{}: {status}",
            player.name
        );
        assert!(!status.contains("to move"), "{}: {status}", player.name);
    }
    // Bob's clock, which ran when he resigned, stands still: two looks agree.
    let clocks = |status: &str| {
        status
            .lines()
            .find(|line| line.starts_with("Clocks: "))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no clocks in {status}"))
    };
    let first = clocks(&board_status(&mut ann));
    std::thread::sleep(Duration::from_millis(300));
    let second = clocks(&board_status(&mut ann));
    assert_eq!(first, second, "the clocks stopped");
    assert_ne!(
        first, "Clocks: player 0 5:00.0, player 1 5:00.0.",
        "Bob's ran"
    );
    // `leave` leaves the finished game's table, keeping it on the board.
    ann.send(&["leave"]);
    ann.wait_for("Left game 1.");
    quit_both(&mut ann, &mut bob);
    drop(club);
}

/// A draw agreed over the network ends the game for both, in words. Bob's script
/// answers the offer though it is not his turn: an offer to answer does not wait.
#[test]
fn an_agreed_draw_ends_the_game_at_both_tables() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);
    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub");
    ann.send(&["draw"]);
    bob.wait_for("ann offers a draw: accept or decline.");
    bob.send(&["accept"]);
    let ended = "Game 1 is over. Draw: the players agreed to it.";
    ann.wait_for(ended);
    bob.wait_for(ended);
    let status = board_status(&mut ann);
    assert!(
        status.contains("\nDraw: the players agreed to it.\n"),
        "{status}"
    );
    assert!(!status.contains("to move"), "{status}");
    quit_both(&mut ann, &mut bob);
    drop(club);
}

/// A player whose time runs out loses: both tables say so, and the loser's clock shows
/// nothing left.
#[test]
fn a_time_loss_ends_the_game_at_both_tables_with_the_clock_at_nothing() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);
    // A second and a half each: Ann's runs from Bob's arrival, and she does not move.
    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub 0.025+0");
    let ended = "Game 1 is over. Player 1 wins: player 0 ran out of time.";
    ann.wait_for(ended);
    bob.wait_for(ended);
    let status = board_status(&mut bob);
    assert!(
        status.contains("\nPlayer 1 wins: player 0 ran out of time.\n"),
        "{status}"
    );
    assert!(
        status.contains("\nClocks: player 0 0:00.0, player 1 0:01.5.\n"),
        "{status}"
    );
    quit_both(&mut ann, &mut bob);
    drop(club);
}

/// A byo-yomi time loss: the loser's periods are spent, and the end is said once.
#[test]
fn a_byo_yomi_time_loss_spends_the_periods_and_is_said_once() {
    let club = Club::start();
    let (homes, connect) = (&club.homes, &club.connect);
    // No main time and one period of two seconds: Ann does not move.
    let (mut ann, mut bob) = seated_at_game_one(connect, homes, "new brandub 0+1x2");
    let ended = "Player 1 wins: player 0 ran out of time.";
    bob.wait_for(ended);
    let status = board_status(&mut bob);
    assert!(
        status.contains("\nClocks: player 0 0:00.0 and 0 periods of 2 s, player 1 "),
        "{status}"
    );
    // Once when it ended, once for `b`.
    let said = bob.text().matches(ended).count();
    assert_eq!(said, 2, "{}", bob.text());
    quit_both(&mut ann, &mut bob);
    drop(club);
}

/// A 1x3 board: player 0's man moves to the middle, and player 1's man is shut in.
const SHUT_IN: &str = "id shut_in\nname \"Shut in\"\nwidth 3\nheight 1\npieces 1 0 2\nsquares 1 1 1\n\
piece bit 1\npiece 1 owner 0\npiece 1 occupies 1\npiece bit 2\npiece 2 owner 1\npiece 2 occupies 1\n\
square bit 1\n";

/// `rules` lists what the server offers; `upload` offers a rule file of one's own, which
/// `new` then plays, and refuses, naming the file, what the server would refuse.
#[test]
fn rules_lists_and_upload_offers_a_rule_file_to_play() {
    let data = tempfile::tempdir().expect("data");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);
    let files = tempfile::tempdir().expect("files");
    let path = |name: &str| files.path().join(name).display().to_string();
    std::fs::write(path("own"), SHUT_IN).expect("write");
    std::fs::write(path("large"), "#".repeat(16 * 1024 + 1)).expect("write");
    std::fs::write(path("bad"), "id bad\nwidth 3\nheight 1\nbogus 1\n").expect("write");
    let long_id = SHUT_IN.replace("id shut_in", &format!("id {}", "x".repeat(65)));
    std::fs::write(path("long"), long_id).expect("write");
    let hidden = SHUT_IN.replace("\"Shut in\"", "\"Shut\u{202E}in\"");
    std::fs::write(path("hidden"), hidden).expect("write");

    let mut ann = Player::start("ann", home.path());
    ann.send(&[&connect, "register ann", "ann secret", "rules"]);
    ann.wait_for("\nbrandub: Brandub\n");
    ann.send(&[&format!("upload {}", path("missing"))]);
    ann.wait_for(&path("missing"));
    ann.send(&[&format!("upload {}", path("large"))]);
    ann.wait_for(&format!(
        "{}: the rule file has 16385 bytes; a server takes at most 16384.",
        path("large")
    ));
    ann.send(&[&format!("upload {}", path("bad"))]);
    ann.wait_for(&format!("{}:4", path("bad")));
    ann.send(&[&format!("upload {}", path("long"))]);
    ann.wait_for(&format!(
        "{}: the id of the rules is longer than the 64 characters a server takes.",
        path("long")
    ));
    ann.send(&[&format!("upload {}", path("hidden"))]);
    ann.wait_for(&format!(
        "{}: the name of the rules holds the hidden character U+202E, which a server refuses.",
        path("hidden")
    ));
    ann.send(&[&format!("upload {}", path("own"))]);
    ann.wait_for(&format!(
        "{} is on the server: shut_in (Shut in); play it with new ",
        path("own")
    ));
    ann.send(&["rules"]);
    ann.wait_for("shut_in: Shut in (uploaded; new ");
    ann.send(&["new shut_in"]);
    // Ann's script waits for an opponent now: she is stopped with the server.
    let text = ann.wait_for("Game 1 (shut_in): you play player 0; ann against (free seat).");
    assert!(
        !text.contains("Server:"),
        "nothing reached the server to refuse:\n{text}"
    );
    // Bob takes the seat and Ann's man shuts his in: the uploaded rules' end, in words,
    // also in the archive of a player who never saw the rules.
    let rules = Rules::parse(SHUT_IN.as_bytes()).expect("shut_in reads");
    let game = Game::new(rules.clone());
    let only = game.legal_moves().next().expect("player 0's one move");
    let mv = format!("m {}", rules.format_move(only, Notation::Numeric));
    let homes: Vec<tempfile::TempDir> =
        (0..2).map(|_| tempfile::tempdir().expect("home")).collect();
    let mut bob = Player::start("bob", homes[0].path());
    bob.send(&[&connect, "register bob", "bob secret", "join 1"]);
    ann.wait_for("bob takes the seat of player 1 in game 1.");
    ann.send(&[&mv]);
    let words = "Player 0 wins: player 1 has no legal move.";
    ann.wait_for(&format!("Game 1 is over. {words}"));
    let mut carl = Player::start("carl", homes[1].path());
    carl.send(&[&connect, "archive"]);
    let listed = carl.wait_for("Game 1: shut_in, ann against bob");
    let line = listed
        .lines()
        .find(|line| line.starts_with("Game 1: shut_in"))
        .expect("the archive's line");
    assert!(line.ends_with(words), "{line}");
    drop((bob, carl));
    drop(server);
}

/// Seeks, challenges and a rematch through the real server: a challenge reaches the
/// challenged at once and only they may take it; a rematch swaps the sides; a rating
/// range keeps out who is rated outside it and lets in who is within.
#[test]
fn challenges_rematches_and_seeks_with_a_rating_range() {
    let data = tempfile::tempdir().expect("data");
    let homes: Vec<tempfile::TempDir> =
        (0..4).map(|_| tempfile::tempdir().expect("home")).collect();
    let server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);
    let start = |name: &'static str, home: &tempfile::TempDir| {
        let mut player = Player::start(name, home.path());
        player.send(&[
            &connect,
            &format!("register {name}"),
            &format!("{name} secret"),
        ]);
        player.wait_for(&format!("Logged in as {name}."));
        player
    };
    let mut bob = start("bob", &homes[1]);
    let mut carl = start("carl", &homes[2]);
    let mut ann = start("ann", &homes[0]);

    // A challenge: Bob hears of it at once; Carl may see it but not take it.
    ann.send(&["challenge bob brandub 5+3 1"]);
    ann.wait_for("Game 1 (brandub): you play player 1; (free seat) against ann.");
    bob.wait_for("ann challenges you: game 1, brandub, 5+3; join 1 to play it.");
    carl.send(&["games", "join 1"]);
    carl.wait_for("Game 1: brandub, (free seat) against ann, 5+3, 0 moves, for bob\n");
    carl.wait_for("Server: game 1 is a challenge to bob");
    bob.send(&["join 1"]);
    bob.wait_for("Game 1 (brandub): you play player 0; bob against ann.");
    bob.send(&["resign"]);
    ann.wait_for("Game 1 is over. Player 1 wins: player 0 resigned.");

    // The rematch: the same game, the sides swapped, offered to Bob.
    ann.send(&["rematch"]);
    ann.wait_for("Game 2 (brandub): you play player 0; ann against (free seat).");
    bob.wait_for("ann challenges you: game 2, brandub, 5+3; join 2 to play it.");
    bob.send(&["join 2"]);
    bob.wait_for("Game 2 (brandub): you play player 1; ann against bob.");

    // A seek for the rated: nobody has a rating yet, and counts as 1500.
    carl.send(&["seek brandub 1600- 0"]);
    carl.wait_for("Game 3 (brandub): you play player 0; carl against (free seat).");
    ann.send(&["games", "join 3"]);
    ann.wait_for("Game 3: brandub, carl against (free seat), untimed, 0 moves, ratings 1600-\n");
    ann.wait_for("Server: game 3 is for ratings 1600- in its rules; yours is 1500");
    let mut dave = start("dave", &homes[3]);
    dave.send(&["seek brandub 1400-1600 1 rated"]);
    dave.wait_for("Game 4 (brandub): you play player 1; (free seat) against dave.");
    ann.send(&["join 4"]);
    ann.wait_for("Game 4 (brandub): you play player 0; ann against dave.");
    dave.wait_for("ann takes the seat of player 0 in game 4.");
    // Words that are no seek's are refused here, naming them.
    ann.send(&[
        "seek brandub 1800-1400",
        "seek brandub computer1",
        "challenge ann brandub 1400-",
    ]);
    ann.wait_for("`1800-1400` is not a rating range");
    ann.wait_for("`computer1` is neither a clock");
    ann.wait_for("`1400-` is neither a clock");
    // A challenge to nobody is refused by the server, and nothing changes.
    ann.send(&["challenge nobody brandub", "b"]);
    ann.wait_for("Server: there is no account `nobody`");
    drop(server);
}

#[test]
fn a_seated_player_of_a_rated_game_gets_no_analysis_before_it_ends() {
    let club = Club::start();
    // A rated game (`a_rated_game_shows_in_ratings_and_rating` makes one the same way).
    let (mut ann, mut bob) = seated_at_game_one(&club.connect, &club.homes, "new brandub rated");
    // Every analysis a player could ask for during the game is refused, with the reason.
    ann.send(&["a d2", "live", "review"]);
    let refusal = "No analysis for a player of a network game before it ends";
    let deadline = Instant::now() + PATIENCE;
    while ann.text().matches(refusal).count() < 3 {
        assert!(Instant::now() < deadline, "{}", ann.text());
        std::thread::sleep(Duration::from_millis(20));
    }
    // Nothing was searched: no depth, no best move.
    let text = ann.text();
    assert!(
        !text.contains("depth 1 ") && !text.contains("Best move"),
        "{text}"
    );
    // Once the game is over, its player may analyse it.
    ann.send(&["m d7 c7"]);
    bob.wait_for("(d7-c7)");
    bob.send(&["resign"]);
    bob.wait_for("Game 1 is over.");
    ann.wait_for("Game 1 is over.");
    ann.send(&["a d1"]);
    ann.wait_for("Best move: m ");
}
