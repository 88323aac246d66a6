//! Our engine plays whole games against itself through each protocol: two `hnefatafl
//! --engine` processes driven by the match runner's host, which checks every move.

// The `hnefatafl` binary is uicx's; this finds it, built and up to date.
#[path = "../../server/tests/server_support/binaries.rs"]
mod binaries;

use std::path::Path;

use hnefatafl_core::{Game, Player, Rules};
use hnefatafl_matches::contender::{Contender, play};
use hnefatafl_matches::{GameResult, GameSettings};
use hnefatafl_protocol::host::Protocol;

fn engine(protocol: Protocol) -> Contender {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let name = match protocol {
        Protocol::Otep => "otep",
        Protocol::Htp => "htp",
        Protocol::HtpHost => panic!("our engine has no `--host` mode"),
    };
    let program = binaries::client_binary().display().to_string();
    let mut command: Vec<String> = vec![program, "--engine".to_owned(), name.to_owned()];
    // One thread: the same game every run.
    command.extend(["--limits", "d2,j1", "-d"].map(str::to_owned));
    command.push(data.display().to_string());
    command.extend(["-r", "hnefatafl"].map(str::to_owned));
    Contender::External { protocol, command }
}

/// The shipped Fetlar file (HTP engines load it by name).
fn fetlar() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/hnefatafl");
    Rules::parse(&std::fs::read(path).expect("reads")).expect("valid")
}

/// Fetlar as an OpenTafl rules string describes it (OTEP engines get it from the host).
fn fetlar_otn() -> Rules {
    hnefatafl_core::otn::RulesString::parse(
        "dim:11 name:Fetlar surf:n tfr:i corh:tT cenp:K \
         start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    )
    .and_then(|otn| otn.to_rules())
    .expect("expressible")
}

/// Plays a game; on a depth limit with one thread it is the same game every run, and
/// must end by the rules before the cap.
fn whole_game(a: Contender, b: Contender, rules: Rules, clock: Option<aim::Clock>) {
    let settings = GameSettings {
        max_plies: 400,
        clock,
        verbose: false,
    };
    let start = Game::new(rules);
    let report = play(&start, &a, &b, Player::Zero, &settings, 1);
    assert_eq!(report.failure, None, "{report:?}");
    assert!(!report.played.on_time, "{report:?}");
    if clock.is_none() {
        assert_ne!(report.played.result, GameResult::Draw, "{report:?}");
    }
    assert!(report.played.plies > 0);
}

#[test]
fn a_whole_game_over_htp() {
    whole_game(engine(Protocol::Htp), engine(Protocol::Htp), fetlar(), None);
}

#[test]
fn a_whole_game_over_otep() {
    whole_game(
        engine(Protocol::Otep),
        engine(Protocol::Otep),
        fetlar_otn(),
        None,
    );
}

#[test]
fn a_whole_game_against_our_engine_over_otep_on_a_clock() {
    let clock = aim::Clock::fischer(
        std::time::Duration::from_secs(60),
        std::time::Duration::from_secs(1),
    );
    let ours = hnefatafl_matches::contender::parse_contender("ours:level=2,j1").expect("a side");
    whole_game(engine(Protocol::Otep), ours, fetlar_otn(), Some(clock));
}

/// hnefatafl-copenhagen's own HTP engine over standard input, when asked for: the
/// command line in `HNEFATAFL_HTP_PEER` (for instance `hnefatafl-text-protocol`). Over
/// standard input it always searches depth 4, which takes seconds to minutes a move on
/// two cores; its `--depth`, `--ai` and `--seconds` act only in its `--host` mode, which
/// `tests/htp_host.rs` plays. Only the variable turns the test on, so that the suite
/// stays fast where the peer happens to be installed.
fn htp_peer() -> Option<Vec<String>> {
    let command = std::env::var_os("HNEFATAFL_HTP_PEER")?;
    let command: Vec<String> = command
        .to_string_lossy()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    (!command.is_empty()).then_some(command)
}

/// The shipped Copenhagen file, the rules hnefatafl-copenhagen plays.
fn copenhagen() -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen");
    Rules::parse(&std::fs::read(path).expect("reads")).expect("valid")
}

#[test]
fn the_opening_of_a_game_against_hnefatafl_copenhagen_over_htp() {
    let Some(command) = htp_peer() else {
        eprintln!(
            "not run: HNEFATAFL_HTP_PEER is not set (cargo install hnefatafl-copenhagen \
             --no-default-features --bin hnefatafl-text-protocol, then \
             HNEFATAFL_HTP_PEER=hnefatafl-text-protocol)"
        );
        return;
    };
    let peer = Contender::External {
        protocol: Protocol::Htp,
        command,
    };
    let ours = hnefatafl_matches::contender::parse_contender("ours:d2,j1").expect("a side");
    // Six plies, three of each side, with each side as the attackers once: every move of
    // the other engine is checked legal by our rules, and both understand each other.
    for a_player in [Player::Zero, Player::One] {
        let settings = GameSettings {
            max_plies: 6,
            clock: None,
            verbose: false,
        };
        let report = play(
            &Game::new(copenhagen()),
            &ours,
            &peer,
            a_player,
            &settings,
            1,
        );
        assert_eq!(report.failure, None, "{report:?}");
        assert_eq!(report.played.plies, 6, "{report:?}");
    }
}
