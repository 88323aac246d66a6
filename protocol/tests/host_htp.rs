//! The host side of hnefatafl-copenhagen's `--host` mode (`htp-host`): the host listens,
//! starts the engine with `--host <address>`, and relays the game over the connection the
//! engine opens. The lines the host sends, the engine's answers, and an engine that
//! breaks the protocol or ends, reported in its own words.
//!
//! The engine is the fake one of `fake_htp_host/`; our side plays legal moves chosen by
//! the ply, so that every game is the same.

mod fake_htp_host;

use std::path::Path;

use fake_htp_host::{fake_command, rules};
use hnefatafl_core::{Game, Move, Player};
use hnefatafl_protocol::host::{self, Mover, Protocol};

/// Copenhagen after `plies` random moves.
fn opening(plies: usize) -> Game {
    hnefatafl_core::random::random_opening(&rules("copenhagen"), plies, 7)
}

/// Our side's move: a legal move that depends on the ply alone.
fn our_move(game: &Game) -> Move {
    let count = game.legal_moves().count();
    game.legal_moves()
        .nth(game.ply() * 5 % count)
        .expect("a legal move")
}

/// Plays up to `plies` plies from `start` between our side and the fake engine (with its
/// own `arguments`) playing `engine_side`, as the match runner's games do: the game, or
/// the first error of the engine. The engine answering no move (resigning) ends the game.
fn hosted_game(
    start: &Game,
    arguments: &[&str],
    engine_side: Player,
    plies: usize,
) -> Result<Game, String> {
    let mut engine = host::start(Protocol::HtpHost, &fake_command(arguments), start.rules())?;
    let played = relay(engine.as_mut(), start, engine_side, plies);
    engine.finish(played.as_ref().ok().and_then(Game::outcome));
    played
}

fn relay(
    engine: &mut dyn Mover,
    start: &Game,
    engine_side: Player,
    plies: usize,
) -> Result<Game, String> {
    engine.start(start, None)?;
    let mut game = start.clone();
    while game.ply() < start.ply() + plies && game.outcome().is_none() {
        if game.side_to_move() == engine_side {
            let Some(mv) = engine.choose(&game, None)? else {
                break;
            };
            game.play(mv);
        } else {
            let mv = our_move(&game);
            let before = game.clone();
            game.play(mv);
            engine.moved(&before, mv)?;
        }
    }
    Ok(game)
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
    for engine_side in [Player::Zero, Player::One] {
        let log = dir.path().join(format!("log{}", engine_side.index()));
        let log_text = log.to_str().expect("a UTF-8 path");
        let start = opening(3);
        let arguments = ["--ai", "basic", "--depth", "1", "--log", log_text];
        let game = hosted_game(&start, &arguments, engine_side, 16).expect("no failure");
        assert_eq!(game.ply() - start.ply(), 16);

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
        let engine_first = start.side_to_move() == engine_side;
        assert_eq!(game_lines[0] == "generate_move", engine_first, "{lines:?}");
    }
}

#[test]
fn an_illegal_move_from_the_engine_is_an_error_that_names_it() {
    let why = hosted_game(&opening(0), &["--illegal"], Player::Zero, 10)
        .expect_err("the move is refused");
    assert!(why.contains("illegal move `play attacker a1 a2`"), "{why}");
}

#[test]
fn a_resigning_engine_answers_no_move() {
    let mut engine = host::start(
        Protocol::HtpHost,
        &fake_command(&["--resign"]),
        opening(0).rules(),
    )
    .expect("the engine connects");
    let start = opening(0);
    engine.start(&start, None).expect("the game starts");
    assert_eq!(engine.choose(&start, None), Ok(None));
    engine.finish(None);
}

#[test]
fn an_engine_that_ends_before_connecting_is_reported_in_its_words() {
    let why =
        hosted_game(&opening(0), &["--fail-start"], Player::One, 10).expect_err("the engine ends");
    assert!(why.contains("without connecting to 127."), "{why}");
    assert!(why.contains("Error: no such AI"), "{why}");
}

#[test]
fn an_engine_that_refuses_a_move_and_ends_is_reported_in_its_words() {
    let why = hosted_game(&opening(0), &["--refuse-play", "2"], Player::One, 10)
        .expect_err("the engine ends");
    assert!(why.contains("the engine ended"), "{why}");
    assert!(why.contains("Error: refused move 2"), "{why}");
}

#[test]
fn games_at_once_each_host_their_own_engine() {
    let games: Vec<Result<Game, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| hosted_game(&opening(2), &[], Player::One, 8)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game"))
            .collect()
    });
    for game in games {
        let game = game.expect("no failure");
        assert_eq!(game.ply(), 2 + 8);
    }
}
