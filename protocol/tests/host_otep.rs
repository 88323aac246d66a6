//! The host side of OTEP against an engine that keeps the game from the moves it is told
//! alone, as OpenTafl does: it applies each move by its own rules and never reads the
//! position that comes with it. Started on an opening's position, such an engine must be
//! told where the game starts, or it soon moves a piece that is not there.
//!
//! The engine here is a fake one, written below and run as a process of its own (this
//! test program started again to run only `fake_engine`). It checks its board against
//! every position record the host sends and, at the first that differs, answers
//! `error -1` with both, which fails the game.

use hnefatafl_core::otn::{self, OtnMove, RulesString};
use hnefatafl_core::random::random_opening;
use hnefatafl_core::{Game, Rules};
use hnefatafl_protocol::host::{self, Protocol};

/// Brandubh as an OTN rules string describes it: the fake engine reads the same rules
/// back from what the host sends.
const BRANDUBH: &str = "dim:7 name:Brandubh surf:n tfr:i ks:w cenp:K cenh:t \
                        start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn brandubh() -> Rules {
    RulesString::parse(BRANDUBH)
        .and_then(|otn| otn.to_rules())
        .expect("expressible")
}

/// The fake engine's command line: the test harness takes what follows as test names
/// and options.
fn fake_command() -> Vec<String> {
    let program = std::env::current_exe().expect("this test program's path");
    [
        program.display().to_string().as_str(),
        "--ignored",
        "--exact",
        "--nocapture",
        "fake_engine",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Plays `plies` plies from `start` between two fake engines hosted over OTEP; the error
/// of the first that fails.
fn hosted_game(start: &Game, plies: usize) -> Result<Game, String> {
    let command = fake_command();
    let mut engines = [
        host::start(Protocol::Otep, &command, start.rules())?,
        host::start(Protocol::Otep, &command, start.rules())?,
    ];
    for engine in &mut engines {
        engine.start(start, None)?;
    }
    let mut game = start.clone();
    let mut result = Ok(());
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let mover = game.side_to_move().index();
        let mv = match engines[mover].choose(&game, None) {
            Ok(Some(mv)) => mv,
            Ok(None) => break,
            Err(error) => {
                result = Err(error);
                break;
            }
        };
        let before = game.clone();
        game.play(mv);
        if let Err(error) = engines[1 - mover].moved(&before, mv) {
            result = Err(error);
            break;
        }
    }
    for engine in &mut engines {
        engine.finish(game.outcome());
    }
    result.map(|()| game)
}

#[test]
fn an_engine_that_tracks_moves_only_follows_a_game_from_an_opening() {
    let rules = brandubh();
    // An even and an odd opening: the side to move differs.
    for (plies, seed) in [(4, 3), (3, 5), (4, 9)] {
        let opening = random_opening(&rules, plies, seed);
        assert_eq!(opening.ply(), plies);
        let game = hosted_game(&opening, 24).unwrap_or_else(|error| {
            panic!("from a {plies}-ply opening (seed {seed}): {error}");
        });
        assert!(
            game.ply() > plies + 2 || game.outcome().is_some(),
            "{} plies",
            game.ply()
        );
    }
}

#[test]
fn an_engine_that_tracks_moves_only_follows_a_game_from_the_start() {
    let game = hosted_game(&Game::new(brandubh()), 24).expect("no failure");
    assert!(game.ply() > 2 || game.outcome().is_some());
}

#[test]
#[ignore = "the fake engine that the other tests start; not a test"]
fn fake_engine() {
    use std::io::BufRead;
    println!("hello");
    let mut game: Option<Game> = None;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["rules", ..] => {
                let text = line.trim_start()["rules".len()..].trim();
                let rules = RulesString::parse(text)
                    .and_then(|otn| otn.to_rules_nearest())
                    .map(|(rules, _)| rules);
                match rules {
                    Ok(rules) => game = Some(Game::new(rules)),
                    Err(error) => println!("error -1 rules: {error}"),
                }
            }
            ["opponent-move", mv, record] => {
                let Some(game) = game.as_mut() else {
                    println!("error -1 a move before the rules");
                    continue;
                };
                // The move is played on this engine's own board, by its own rules.
                let played = OtnMove::parse(game.rules(), mv)
                    .map_err(|error| error.to_string())
                    .and_then(|otn| game.try_play(otn.mv).map_err(|error| error.to_string()));
                if let Err(error) = played {
                    println!("error -1 illegal move {mv}: {error}");
                    continue;
                }
                let own = otn::position_to_otn(game.rules(), game.position())
                    .map(|board| board.to_string())
                    .unwrap_or_default();
                if own != *record {
                    println!("error -1 desync after {mv}: mine {own}, the host's {record}");
                }
            }
            ["play", _] => {
                let Some(game) = game.as_mut() else {
                    println!("error -1 play before the rules");
                    continue;
                };
                match game.legal_moves().next() {
                    Some(mv) => {
                        game.play(mv);
                        println!("move {}", otn::format_simple_move(mv));
                    }
                    None => println!("move ---"),
                }
            }
            ["goodbye"] => break,
            // `move <position>` (the host took our move), `finish`, clocks: nothing to do.
            _ => {}
        }
    }
}
