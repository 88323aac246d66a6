//! The session as the X window sees it (`Host`), without a window.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use hnefatafl_data::{DataDirs, Origin};

use super::*;
use crate::session::Locks;
use crate::x11::{Flow, Role, Waker, XHost};

fn rules(name: &str) -> hnefatafl_core::Rules {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/rules")
        .join(name);
    hnefatafl_core::Rules::parse(&std::fs::read(path).expect("rule file")).expect("valid")
}

#[test]
fn sides_without_a_role_are_named_after_their_pieces() {
    let halatafl = rules("halatafl");
    assert_eq!(
        side_name(&halatafl, Player::BOTH[0]).as_deref(),
        Some("White")
    );
    assert_eq!(
        side_name(&halatafl, Player::BOTH[1]).as_deref(),
        Some("Black")
    );
    // Sides of several named types have no one name.
    assert_eq!(side_name(&rules("hnefatafl"), Player::BOTH[1]), None);
}

fn brandub() -> Session {
    let dirs = DataDirs {
        argument: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")),
        ..DataDirs::default()
    };
    let mut session = Session::new(dirs, Locks::default());
    let reply = session.apply(|session| session.load_language("eng", Origin::Indirect));
    assert!(!reply.failed, "{:?}", reply.lines);
    let reply = session.apply(|session| session.load_rules("brandub", Origin::Indirect));
    assert!(!reply.failed, "{:?}", reply.lines);
    session
}

#[test]
fn view_targets_and_moves() {
    let mut session = brandub();
    let mut session = Host::new(&mut session);
    assert_eq!(session.title(), "Hnefatafl: Brandub");
    let view = session.view();
    assert_eq!((view.width, view.height), (7, 7));
    assert_eq!(view.pieces.len(), 49);
    // The attacker at (3, 1) belongs to player 0, the king in the middle to player 1.
    assert_eq!((view.pieces[7 + 3], view.owners[7 + 3]), (4, 0));
    assert_eq!((view.pieces[3 * 7 + 3], view.owners[3 * 7 + 3]), (1, 1));
    assert_eq!(view.squares[0], 2);
    assert_eq!(view.status, "Player 0 to move.");
    assert_eq!(view.last_move, None);

    let mut targets = session.targets(7 + 3);
    targets.sort_unstable();
    assert_eq!(targets, [7, 7 + 1, 7 + 2, 7 + 4, 7 + 5, 7 + 6]);
    // Not the side to move's piece: no targets.
    assert!(session.targets(3 * 7 + 3).is_empty());

    // The window sees each side's name and who plays it.
    let view = session.view();
    assert_eq!(view.roles, [Role::Attackers, Role::Defenders]);
    assert!(
        view.sides[0].starts_with("Attackers (player 0)"),
        "{:?}",
        view.sides
    );
    assert!(
        view.sides[1].starts_with("Defenders (player 1)"),
        "{:?}",
        view.sides
    );
    assert!(view.hint.contains('h'), "{}", view.hint);

    // A move without a capture writes nothing in the window: the status strip shows
    // whose turn it is.
    let (lines, flow) = session.execute("m 3 1 1 1");
    assert_eq!((lines, flow), (Vec::<String>::new(), Flow::Continue));
    let view = session.view();
    assert_eq!(view.status, "Player 1 to move.");
    assert_eq!(view.last_move, Some((7 + 3, 7 + 1)));
    assert_eq!(view.moves, ["d6-b6"]);
    let (lines, _) = session.execute("m 0 0 0 1");
    assert!(lines[0].starts_with("Illegal move"), "{lines:?}");
    // Help in the window: every command, shorter than on the command line.
    let (lines, _) = session.execute("h");
    assert!(lines[0].contains("h m b p"), "{lines:?}");
    for command in ["m <from>", "p [<player>", "x [<theme>]", "q "] {
        assert!(
            lines.iter().any(|line| line.starts_with(command)),
            "{command} in {lines:?}"
        );
    }
    // `x <theme>` changes the theme in the window; `x` alone leaves it.
    assert_eq!(
        session.execute("x stone"),
        (Vec::new(), Flow::Theme("stone".to_owned()))
    );
    assert_eq!(session.execute("x").1, Flow::LeaveX);
    assert_eq!(session.execute("q").1, Flow::Quit);
    assert_eq!(session.suggested_theme(), None);
    assert!(session.read_data("lang/eng").is_some());
    assert!(session.read_data("lang/none").is_none());
}

#[test]
fn poll_plays_the_computer_and_wakes_the_window() {
    let mut session = brandub();
    let mut session = Host::new(&mut session);
    let (lines, _) = session.execute("p 0 c d2");
    // Brandub has a built-in network: the computer says it plays with it.
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("Player 0: computer, depth 2, network ")
            && lines[0].ends_with("networks/brandub.nnue"),
        "{lines:?}"
    );
    let wakes = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&wakes);
    let waker: Waker = Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(session.poll(&waker), Vec::<String>::new());
    // While the computer thinks, the status says so.
    assert_eq!(session.view().status, "Player 0 is thinking.");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut shown = Vec::new();
    while shown.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        if wakes.load(Ordering::SeqCst) > 0 {
            shown = session.poll(&waker);
        }
    }
    // The computer's move, named as the board names it; the turn is in the status.
    assert!(
        shown.len() == 1 && shown[0].starts_with("m ") && shown[0].split(' ').count() == 3,
        "{shown:?}"
    );
    assert_eq!(session.view().status, "Player 1 to move.");
    assert!(session.view().last_move.is_some());
    assert!(session.targets(0).is_empty());
}
