//! The real `hnefatafl` window in a network game: a real `hnefataflserver` on loopback
//! (real TLS), the window's player against a second `hnefatafl` on the command line. The
//! window shows both accounts, their clocks (the running one redrawn once a second, none
//! drawn while nothing runs), whose turn it is, the other player's moves and chat, and
//! masks the password typed into it.
//!
//! Run under `xvfb-run -a cargo test -p uicx --test x11_network`.

// The server's tests' helpers: the server's binary, built if missing, and clients.
#[path = "../../server/tests/server_support/mod.rs"]
mod server_support;
mod x11_support;

use std::time::{Duration, Instant};

use hnefatafl_core::{Game, Move, Notation, Rules};
use server_support::ServerProcess;
use tempfile::TempDir;
use uicx::x11::render;
use x11_support::{Driver, Program, data_dir, one_window, save_shot, wait_until};

const WAIT: Duration = Duration::from_secs(60);

fn brandub() -> Rules {
    let bytes = std::fs::read(data_dir().join("rules/brandub")).expect("rule file");
    Rules::parse(&bytes).expect("shipped rules are valid")
}

/// A server on loopback, its data folder (removed when dropped, after the server stops)
/// and the command that connects to it.
fn start_server() -> (TempDir, ServerProcess, String) {
    let data = tempfile::tempdir().expect("server data");
    let server = ServerProcess::start(data.path(), 0, &[]);
    let connect = format!("c localhost:{}", server.port);
    (data, server, connect)
}

/// Ann's program with its window (`-x null`): her home, the program, a driver and the
/// window.
fn ann_in_the_window() -> (TempDir, Program, Driver, u32) {
    let home = tempfile::tempdir().expect("home");
    let ann = Program::start(home.path(), None, &["-x", "null"], true);
    let driver = Driver::connect();
    let window = driver.find_program_window(ann.id(), WAIT);
    (home, ann, driver, window)
}

/// The first legal move of the side to move.
fn first_move(game: &Game) -> Move {
    game.legal_moves().next().expect("a legal move")
}

/// The square indices (row-major from the top-left) of a move.
fn indices(rules: &Rules, mv: Move) -> (usize, usize) {
    rules
        .index(mv.from())
        .zip(rules.index(mv.to()))
        .expect("on the board")
}

/// The clocks the window may show for a side whose clock has run for a few seconds of
/// five minutes.
fn run_down(seconds: std::ops::RangeInclusive<u64>) -> Vec<String> {
    seconds
        .map(|used| format!(" {}", render::clock_text(Duration::from_secs(300 - used))))
        .collect()
}

#[test]
fn a_network_game_shows_names_clocks_turns_moves_and_chat() {
    let _one = one_window();
    let (_data, server, connect) = start_server();
    let rules = brandub();

    // Ann plays in the window.
    let (_ann_home, ann, driver, window) = ann_in_the_window();
    let shows = |text: &str, background: render::Rgb| {
        driver.shows_text(window, text, render::TEXT, background)
    };
    let wait_for = |text: &str, background: render::Rgb| {
        let start = Instant::now();
        while !shows(text, background) {
            if start.elapsed() > WAIT {
                save_shot(&driver.screenshot(window), "network-failed");
                panic!("no {text:?} in the window (see network-failed.png)");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    driver.type_text(window, &format!("{connect}\nregister ann\n"));
    // The password is masked while typed, and never comes back with Up.
    driver.type_text(window, "secret");
    assert!(
        shows("> ******_", render::TERMINAL_BACKGROUND),
        "the password is masked"
    );
    assert!(!shows("secret", render::TERMINAL_BACKGROUND));
    driver.type_text(window, "\n");
    wait_for("Logged in as ann.", render::MESSAGE_BACKGROUND);
    driver.type_text(window, "\u{2191}");
    assert!(
        shows("> register ann_", render::TERMINAL_BACKGROUND),
        "Up skips the password"
    );
    driver.type_text(window, "\x1bnew brandub 5+3\n");
    // Alone at the table: both clocks stand at five minutes, nothing runs, so the window
    // draws no frame without input.
    wait_for("ann (you)", render::TO_MOVE_BACKGROUND);
    wait_for("(free seat)", render::SIDES_BACKGROUND);
    wait_for(" 5:00", render::TO_MOVE_BACKGROUND);
    wait_for(" 5:00", render::SIDES_BACKGROUND);
    let frames = driver.frames(window);
    let idle = Instant::now();
    while idle.elapsed() < Duration::from_millis(1500) {
        std::thread::yield_now();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        driver.frames(window),
        frames,
        "no frames while no clock runs"
    );

    // Bob joins from the command line, says hello, and answers Ann's first move.
    let mut game = Game::new(rules.clone());
    let ann_move = first_move(&game);
    game.try_play(ann_move).expect("legal");
    let bob_move = first_move(&game);
    let bob_home = tempfile::tempdir().expect("home");
    let mut bob = Program::start(bob_home.path(), None, &["-C", "-l", "eng"], true);
    bob.send(&format!("{connect}\nregister bob\nbob secret\njoin 1\n"));
    wait_for("bob", render::SIDES_BACKGROUND);
    // Bob speaks in his turn: his line waits for Ann's move.
    bob.send("say hello ann\n");
    // Ann's clock runs now: it counts down, redrawn about once a second.
    let ann_running = run_down(2..=20);
    wait_until("Ann's clock to run", WAIT, || {
        ann_running
            .iter()
            .any(|clock| shows(clock, render::TO_MOVE_BACKGROUND))
    });
    assert!(
        shows(" 5:00", render::SIDES_BACKGROUND),
        "Bob's clock waits"
    );
    let frames = driver.frames(window);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let drawn = driver.frames(window).wrapping_sub(frames);
    assert!(
        (2..=5).contains(&drawn),
        "{drawn} frames in 3 s with a clock running"
    );
    save_shot(&driver.screenshot(window), "network");

    // Ann clicks her move; Bob's answer comes in without any input in the window.
    let layout = driver.layout(window, 7, 7);
    let (from, to) = indices(&rules, ann_move);
    for square in [from, to] {
        let (x, y) = layout.square_centre(square);
        driver.click(window, x, y);
    }
    wait_for("bob says: hello ann", render::MESSAGE_BACKGROUND);
    bob.send(&format!(
        "m {}\n",
        rules.format_move(bob_move, Notation::Numeric)
    ));
    let (bob_from, bob_to) = indices(&rules, bob_move);
    wait_until("Bob's move on the board", WAIT, || {
        let shot = driver.screenshot(window);
        [bob_from, bob_to].iter().all(|&square| {
            let (x, y) = layout.square_origin(square);
            shot.get_pixel(x, y + layout.square / 2).0[..3] == render::LAST_MOVE
        })
    });
    let bob_named = format!(
        "m {} {}",
        rules.format_square(bob_move.from(), Notation::Algebraic),
        rules.format_square(bob_move.to(), Notation::Algebraic)
    );
    wait_for(&bob_named, render::MESSAGE_BACKGROUND);
    // Ann's turn again: her half is highlighted.
    wait_for("ann (you)", render::TO_MOVE_BACKGROUND);
    assert!(shows("bob", render::SIDES_BACKGROUND));
    save_shot(&driver.screenshot(window), "network-moved");
    // Between the name and the clock, each half of the strip is plain.
    let layout = driver.layout(window, 7, 7);
    let shot = driver.screenshot(window);
    let end_of_bob = layout.window_width / 2
        + 2 * 6
        + layout.metrics.line_height()
        + 8
        + "Defenders (player 1): bob".len() as u32 * layout.metrics.cell_width;
    let clock_start = layout.window_width - 6 - 6 * layout.metrics.cell_width;
    for y in layout.sides_top..layout.status_top {
        for x in end_of_bob..clock_start {
            assert_eq!(
                shot.get_pixel(x, y).0[..3],
                render::SIDES_BACKGROUND,
                "nothing drawn at {x},{y} after Bob's name"
            );
        }
    }

    // In narrow windows the labels and clocks keep to their halves, whole.
    for (width, height) in [(360, 360), (480, 560), (700, 600)] {
        driver.resize(window, width, height);
        let layout = driver.layout(window, 7, 7);
        let shot = driver.screenshot(window);
        save_shot(&shot, &format!("network-{width}"));
        for (text, background) in [
            ("Attackers", render::TO_MOVE_BACKGROUND),
            ("ann (you)", render::TO_MOVE_BACKGROUND),
            ("Defenders", render::SIDES_BACKGROUND),
            ("bob", render::SIDES_BACKGROUND),
        ] {
            assert!(shows(text, background), "{width}x{height}: {text}");
        }
        // Both clocks, whole: Ann's runs, Bob's got its increment.
        let clocks = |background: render::Rgb| {
            (200..=305).any(|seconds| {
                let clock = format!(" {}", render::clock_text(Duration::from_secs(seconds)));
                shows(&clock, background)
            })
        };
        wait_until("Ann's clock", WAIT, || clocks(render::TO_MOVE_BACKGROUND));
        assert!(
            clocks(render::SIDES_BACKGROUND),
            "{width}x{height}: Bob's clock"
        );
        // No text crosses from one half into the other's piece.
        let half = layout.window_width / 2;
        let icon_end = half + 2 * 6 + layout.metrics.line_height() + 8;
        for y in layout.sides_top..layout.status_top {
            for x in half - 6..icon_end {
                assert_ne!(
                    shot.get_pixel(x, y).0[..3],
                    render::TEXT,
                    "{width}x{height}: text at {x},{y}, between the halves"
                );
            }
        }
    }

    driver.type_text(window, "q\n");
    assert!(ann.finish(WAIT).status.success());
    // Bob's next line would wait for Ann's move: he is stopped with the server.
    drop(bob);
    drop(server);
}

/// The pixels of `colour` over the board.
fn over_board(shot: &image::RgbaImage, layout: &render::Layout, colour: render::Rgb) -> usize {
    let (width, height) = (layout.columns * layout.square, layout.rows * layout.square);
    (layout.board_y..(layout.board_y + height).min(shot.height()))
        .flat_map(|y| {
            (layout.board_x..(layout.board_x + width).min(shot.width())).map(move |x| (x, y))
        })
        .filter(|&(x, y)| shot.get_pixel(x, y).0[..3] == colour)
        .count()
}

/// A network game that ends by the server's word, here the opponent's resignation, shows
/// the game-end banner as a local game's end does: who won and why, and the ways on.
#[test]
fn a_network_game_that_ends_shows_the_banner() {
    let _one = one_window();
    let (_data, server, connect) = start_server();

    let (_ann_home, ann, driver, window) = ann_in_the_window();
    let wait_for = |text: &str, background: render::Rgb| {
        wait_until(text, WAIT, || {
            driver.shows_text(window, text, render::TEXT, background)
        });
    };
    driver.type_text(window, &format!("{connect}\nregister ann\nsecret\n"));
    wait_for("Logged in as ann.", render::MESSAGE_BACKGROUND);
    // Ann plays player 1, so that Bob, who joins as player 0, may resign at once.
    driver.type_text(window, "new brandub 5+0 1\n");
    wait_for("ann (you)", render::SIDES_BACKGROUND);
    let layout = driver.layout(window, 7, 7);
    assert_eq!(
        over_board(&driver.screenshot(window), &layout, render::BANNER_FRAME),
        0,
        "no banner while the game goes on"
    );

    let bob_home = tempfile::tempdir().expect("home");
    let mut bob = Program::start(bob_home.path(), None, &["-C", "-l", "eng"], true);
    bob.send(&format!(
        "{connect}\nregister bob\nbob secret\njoin 1\nresign\n"
    ));
    wait_for(
        "Player 1 wins: player 0 resigned.",
        render::BANNER_BACKGROUND,
    );
    let shot = driver.screenshot(window);
    save_shot(&shot, "network-game-end");
    assert!(
        over_board(&shot, &layout, render::BANNER_FRAME) > 50,
        "the banner's frame"
    );
    assert!(
        driver.shows_text(window, "q: quit", render::TEXT, render::BANNER_BACKGROUND),
        "the ways on"
    );
    // The clocks stand still: no frames are drawn while nothing happens.
    let frames = driver.frames(window);
    let idle = Instant::now();
    while idle.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(driver.frames(window), frames, "no clock runs after the end");

    driver.type_text(window, "q\n");
    assert!(ann.finish(WAIT).status.success());
    bob.send("q\n");
    drop(bob);
    drop(server);
}
