//! The match runner against an engine in hnefatafl-copenhagen's `--host` mode: what the
//! engine's failures and resignation make of a game, and whole games of the `match`
//! program. The host's lines, the engine's answers and its errors in its own words are
//! tested with the host alone, in `protocol/tests/host_htp.rs`, whose fake engine (in
//! `protocol/tests/fake_htp_host/`) these tests share. The real engine plays when
//! `HNEFATAFL_HTP_PEER` names it.

// The fake engine, shared with the protocol crate's tests of the host.
#[path = "../../protocol/tests/fake_htp_host/mod.rs"]
mod fake_htp_host;
mod programs;

use fake_htp_host::{fake_command, rules};
use hnefatafl_core::{Game, Player};
use hnefatafl_matches::contender::{Contender, parse_contender, play};
use hnefatafl_matches::{GameResult, GameSettings};
use hnefatafl_protocol::host::Protocol;

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

#[test]
fn an_engines_failure_or_resignation_decides_the_game_and_its_words_are_reported() {
    // The fake engine's arguments, whether it plays side A (else B), A's result, and the
    // side reported failing with the words its report quotes (none: no failure).
    type Case = (
        &'static [&'static str],
        bool,
        GameResult,
        Option<(usize, &'static [&'static str])>,
    );
    let cases: [Case; 4] = [
        (
            &["--illegal"],
            true,
            GameResult::Loss,
            Some((0, &["illegal move `play attacker a1 a2`"])),
        ),
        (&["--resign"], false, GameResult::Win, None),
        (
            &["--fail-start"],
            false,
            GameResult::Win,
            Some((1, &["without connecting to 127.", "Error: no such AI"])),
        ),
        (
            &["--refuse-play", "2"],
            false,
            GameResult::Win,
            Some((1, &["the engine ended", "Error: refused move 2"])),
        ),
    ];
    for (arguments, engine_is_a, result, failure) in cases {
        let start = Game::new(rules("copenhagen"));
        let report = if engine_is_a {
            play(
                &start,
                &fake(arguments),
                &ours(),
                Player::Zero,
                &settings(10),
                1,
            )
        } else {
            play(
                &start,
                &ours(),
                &fake(arguments),
                Player::Zero,
                &settings(10),
                1,
            )
        };
        assert_eq!(report.played.result, result, "{arguments:?}: {report:?}");
        match failure {
            None => {
                assert_eq!(report.failure, None, "{report:?}");
                // The engine resigned at its first move.
                assert_eq!(report.played.plies, 1, "{report:?}");
            }
            Some((side, words)) => {
                let (failed, why) = report.failure.clone().expect("the engine failed");
                assert_eq!(failed, side, "{arguments:?}: {report:?}");
                for word in words {
                    assert!(why.contains(word), "{arguments:?}: {why}");
                }
            }
        }
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
