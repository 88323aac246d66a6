//! The real `hnefatafl` window as a player uses it, on a real X server (Xvfb): the theme
//! changed in place, the title after `r`, the window manager's hints, the players' sides and
//! colours, long output, captures and the computer's moves marked, the move list, a paced
//! computer game, the game-end banner, the analysis arrow, flipping, dragging, and many
//! clicked games against the computer.
//!
//! Run under `xvfb-run -a cargo test -p uicx --test x11_player`; without `$DISPLAY` these
//! tests fail. Screenshots of each state are left in `target/tmp/x11-shots/`.

mod x11_support;

use std::time::{Duration, Instant};

use hnefatafl_core::{Game, Move, Rules};
use image::RgbaImage;
use tempfile::TempDir;
use uicx::x11::render::{self, Layout};
use x11_support::{Driver, Program, data_dir, near, one_window, save_shot, wait_until};

const WAIT: Duration = Duration::from_secs(30);

fn rules(name: &str) -> Rules {
    let bytes = std::fs::read(data_dir().join("rules").join(name)).expect("rule file");
    Rules::parse(&bytes).expect("shipped rules are valid")
}

/// The real program, started with these arguments (stdin open, or at its end) and a home
/// of its own, with its window found: the program, the driver that works it, the window,
/// the layout of an 11x11 board in it, and the home (removed when dropped).
fn open(arguments: &[&str], stdin_open: bool) -> (Program, Driver, u32, Layout, TempDir) {
    let home = tempfile::tempdir().expect("temporary home");
    let program = Program::start(home.path(), None, arguments, stdin_open);
    let driver = Driver::connect();
    let window = driver.find_program_window(program.id(), WAIT);
    let layout = driver.layout(window, 11, 11);
    (program, driver, window, layout, home)
}

/// Types `q` into the window and checks that the program ends well.
fn quit(driver: &Driver, window: u32, program: Program) {
    driver.type_text(window, "q\n");
    assert!(program.finish(WAIT).status.success());
}

/// The squares whose edge shows the last-move frame.
fn marked_squares(shot: &RgbaImage, layout: &Layout) -> Vec<usize> {
    let count = (layout.columns * layout.rows) as usize;
    (0..count)
        .filter(|&index| {
            let (x, y) = layout.square_origin(index);
            let left = shot.get_pixel(x, y + layout.square / 2);
            let right = shot.get_pixel(x + layout.square - 1, y + layout.square / 2);
            left.0[..3] == render::LAST_MOVE && right.0[..3] == render::LAST_MOVE
        })
        .collect()
}

/// How many pixels of a colour a region of the screenshot has.
fn count_colour(shot: &RgbaImage, region: (u32, u32, u32, u32), colour: render::Rgb) -> usize {
    let (x, y, width, height) = region;
    let mut count = 0;
    for row in y..(y + height).min(shot.height()) {
        for column in x..(x + width).min(shot.width()) {
            if shot.get_pixel(column, row).0[..3] == colour {
                count += 1;
            }
        }
    }
    count
}

fn board_region(layout: &Layout) -> (u32, u32, u32, u32) {
    (
        layout.board_x,
        layout.board_y,
        layout.columns * layout.square,
        layout.rows * layout.square,
    )
}

fn click_square(driver: &Driver, window: u32, layout: &Layout, index: usize) {
    let (x, y) = layout.square_centre(index);
    driver.click(window, x, y);
}

/// Whether the square at `index` shows a picked-up piece (its selection frame).
fn picked_up(driver: &Driver, window: u32, layout: &Layout, index: usize) -> bool {
    let (x, y) = layout.square_origin(index);
    driver.pixel(window, x + 1, y + layout.square / 2) == render::SELECTION
}

fn luminance(colour: render::Rgb) -> u32 {
    u32::from(colour[0]) * 3 + u32::from(colour[1]) * 6 + u32::from(colour[2])
}

#[test]
fn x_theme_switches_in_place_even_with_stdin_at_its_end() {
    let _one = one_window();
    // Started from a desktop menu: no terminal, stdin at its end.
    let (program, driver, window, layout, _home) = open(&["-x", "wood"], false);
    let corner = |driver: &Driver| x11_support::square_mean(&driver.screenshot(window), &layout, 0);
    let wood = corner(&driver);
    driver.type_text(window, "x stone\n");
    assert!(driver.exists(window), "the window stays");
    let stone = corner(&driver);
    assert!(
        !near(wood, stone, 10),
        "the corner is drawn anew: {wood:?} {stone:?}"
    );
    save_shot(&driver.screenshot(window), "theme-stone");
    // An unknown theme keeps the window too (with a warning in it).
    driver.type_text(window, "x nosuch\n");
    assert!(driver.exists(window));
    // `x` alone goes back to the command line, which is at its end: the program ends.
    driver.type_text(window, "x\n");
    let output = program.finish(WAIT);
    assert!(output.status.success());
}

#[test]
fn title_hints_and_identity_are_set() {
    let _one = one_window();
    let (program, driver, window, _, home) = open(&["-x", "null"], true);
    assert_eq!(
        driver.window_title(window),
        "Hnefatafl: Hnefatafl (Fetlar rules)"
    );
    // WM_CLASS, _NET_WM_PID with WM_CLIENT_MACHINE, and a minimum size in WM_NORMAL_HINTS.
    assert_eq!(
        driver.property(window, "WM_CLASS"),
        b"hnefatafl\0Hnefatafl\0"
    );
    let pid = driver.property(window, "_NET_WM_PID");
    assert_eq!(
        u32::from_le_bytes(pid[..4].try_into().expect("a 32-bit value")),
        program.id()
    );
    assert!(!driver.property(window, "WM_CLIENT_MACHINE").is_empty());
    let hints = driver.property(window, "WM_NORMAL_HINTS");
    let word = |index: usize| {
        u32::from_le_bytes(hints[index * 4..index * 4 + 4].try_into().expect("word"))
    };
    assert_ne!(word(0) & 16, 0, "PMinSize is set");
    assert!(word(5) >= 300 && word(6) >= 300, "a usable minimum size");
    // `r` loads other rules: the title follows.
    driver.type_text(window, "r brandub\n");
    wait_until("the new title", WAIT, || {
        driver.window_title(window) == "Hnefatafl: Brandub"
    });
    // So does `e`: a brandub game saved, other rules loaded, the game loaded again.
    let saved = home.path().join("brandub.save");
    driver.type_text(window, &format!("w {}\nr tablut\n", saved.display()));
    wait_until("tablut's title", WAIT, || {
        driver.window_title(window) == "Hnefatafl: Tablut (Linnaeus)"
    });
    driver.type_text(window, &format!("e {}\n", saved.display()));
    wait_until("the loaded game's title", WAIT, || {
        driver.window_title(window) == "Hnefatafl: Brandub"
    });
    quit(&driver, window, program);
}

#[test]
fn sides_have_one_colour_in_every_theme() {
    let _one = one_window();
    for theme in ["wood", "null", "stone"] {
        let (program, driver, window, layout, _home) = open(&["-x", theme], true);
        let shot = driver.screenshot(window);
        save_shot(&shot, &format!("sides-{theme}"));
        // The attackers (player 0, d11) are darker than the defenders (player 1, f7).
        let attacker = x11_support::square_mean(&shot, &layout, 3);
        let defender = x11_support::square_mean(&shot, &layout, 5 * 11 + 3);
        assert!(
            luminance(attacker) + 300 < luminance(defender),
            "{theme}: attacker {attacker:?} defender {defender:?}"
        );
        // The strip that names the sides shows each side's piece: dark first, then light.
        let strip = layout.status_top - layout.sides_top;
        let icon = |left: u32| {
            let mut darkest = u32::MAX;
            let mut lightest = 0;
            for y in layout.sides_top + 2..layout.status_top - 2 {
                for x in left + 6..left + 6 + strip - 4 {
                    let pixel = shot.get_pixel(x, y).0;
                    let value = luminance([pixel[0], pixel[1], pixel[2]]);
                    darkest = darkest.min(value);
                    lightest = lightest.max(value);
                }
            }
            (darkest, lightest)
        };
        // Each side is named by the rules' piece names, the side to move highlighted.
        for (label, background) in [
            ("Attackers (player 0): human", render::TO_MOVE_BACKGROUND),
            ("Defenders (player 1): computer", render::SIDES_BACKGROUND),
        ] {
            assert!(
                driver.shows_text(window, label, render::TEXT, background),
                "{theme}: {label}"
            );
        }
        let (_, player0_light) = icon(0);
        let (_, player1_light) = icon(layout.window_width / 2);
        assert!(
            player0_light < player1_light,
            "{theme}: the side icons {player0_light} {player1_light}"
        );
        quit(&driver, window, program);
    }
}

#[test]
fn help_opens_over_the_board_and_a_click_closes_it() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let last_row = layout.board_y + layout.rows * layout.square - layout.square / 2;
    let top_row = (layout.board_x, last_row, layout.columns * layout.square, 2);
    let before = count_colour(
        &driver.screenshot(window),
        top_row,
        render::MESSAGE_BACKGROUND,
    );
    driver.type_text(window, "h\n");
    let shot = driver.screenshot(window);
    save_shot(&shot, "help");
    // The help opens over the board: every command is there.
    let covered = count_colour(&shot, top_row, render::MESSAGE_BACKGROUND);
    assert!(covered > before + 100, "{before} -> {covered}");
    // A click closes it and does nothing else.
    click_square(&driver, window, &layout, 3);
    let after = driver.screenshot(window);
    assert_eq!(
        count_colour(&after, top_row, render::MESSAGE_BACKGROUND),
        before
    );
    assert_eq!(
        count_colour(&after, board_region(&layout), render::SELECTION),
        0,
        "the click selected nothing"
    );
    // In the smallest window the help still reads as a list: each command's text under
    // the command, indented.
    driver.resize(window, 360, 360);
    driver.type_text(window, "h\n");
    save_shot(&driver.screenshot(window), "help-narrow");
    assert!(
        driver.shows_text(
            window,
            "  make the computer move now",
            render::TEXT,
            render::MESSAGE_BACKGROUND
        ),
        "the narrow help puts f's text under it"
    );
    // Longer than the window: the wheel scrolls it, down and back up.
    let first = "h m b p f a live s review u n r l d e";
    let shows =
        |text: &str| driver.shows_text(window, text, render::TEXT, render::MESSAGE_BACKGROUND);
    assert!(shows(first), "the help starts at its first line");
    // Its first page says at its foot that more follows, and how to close it.
    let more = "more below: PageDown";
    let shows_note =
        |text: &str| driver.shows_text(window, text, render::DIM_TEXT, render::MESSAGE_BACKGROUND);
    assert!(shows_note(more), "the first page says that more follows");
    let (x, y) = layout.square_centre(60);
    for _ in 0..3 {
        driver.wheel(window, x.min(300), y.min(300), true);
    }
    assert!(!shows(first), "the wheel scrolled the help down");
    for _ in 0..3 {
        driver.wheel(window, x.min(300), y.min(300), false);
    }
    assert!(shows(first), "and back up");
    // At its end nothing more follows, and the note is gone. (Wheeling on past the end
    // does nothing; the help is far shorter than 150 notches.)
    for _ in 0..150 {
        driver.wheel(window, x.min(300), y.min(300), true);
    }
    save_shot(&driver.screenshot(window), "help-end");
    assert!(!shows_note(more), "no note at the end of the help");
    // Escape closes it, as the note says.
    driver.type_text(window, "\x1b");
    assert!(!shows(first), "Escape closed the help");
    quit(&driver, window, program);
}

/// A game of the test's own: the computer's replies are read from the board's last-move
/// marks, the human's moves are clicked, and the two must agree with the engine's game.
struct ClickedGame {
    game: Game,
    seed: u64,
}

impl ClickedGame {
    fn new(rules: &Rules, seed: u64) -> ClickedGame {
        ClickedGame {
            game: Game::new(rules.clone()),
            seed,
        }
    }

    /// A capturing move when there is one, else a pseudo-random legal move.
    fn choose(&mut self) -> Move {
        let moves: Vec<Move> = self.game.legal_moves().collect();
        let capture = moves.iter().copied().find(|&mv| {
            let mut trial = self.game.clone();
            trial.play(mv).captures().next().is_some()
        });
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        capture.unwrap_or(moves[(self.seed >> 33) as usize % moves.len()])
    }

    /// The square index (row-major from the top-left) of a move's squares.
    fn indices(&self, mv: Move) -> (usize, usize) {
        let rules = self.game.rules();
        rules
            .index(mv.from())
            .zip(rules.index(mv.to()))
            .expect("a move on the board")
    }

    /// Chooses the player's next move and clicks it: the piece, which must then show as
    /// picked up (`what` names the click in the failure), and the square it goes to.
    /// Returns the move and its two squares; the caller plays it on [`ClickedGame::game`].
    fn click_next(
        &mut self,
        driver: &Driver,
        window: u32,
        layout: &Layout,
        what: &str,
    ) -> (Move, usize, usize) {
        let mv = self.choose();
        let (from, to) = self.indices(mv);
        click_square(driver, window, layout, from);
        assert!(
            picked_up(driver, window, layout, from),
            "{what}: the click on {from} picked it up"
        );
        click_square(driver, window, layout, to);
        (mv, from, to)
    }

    /// The computer's reply, from the two marked squares.
    fn reply_from(&self, marked: &[usize]) -> Option<Move> {
        let [a, b] = marked else { return None };
        self.game.legal_moves().find(|&mv| {
            let squares = self.indices(mv);
            squares == (*a, *b) || squares == (*b, *a)
        })
    }
}

#[test]
fn many_clicked_games_against_the_computer_never_lose_a_click() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let rules = rules("hnefatafl");
    // The default rc file makes player 1 a computer; make it quick.
    driver.type_text(window, "p 1 c d1\n");
    let mut captures_seen = 0;
    // Human moves clicked right after a move that captured (either side's).
    let mut clicked_after_a_capture = 0;
    for round in 0..3u64 {
        let mut game = ClickedGame::new(&rules, round + 1);
        let mut after_capture = false;
        for ply in 0..30 {
            if game.game.outcome().is_some() {
                break;
            }
            let (mv, from, to) =
                game.click_next(&driver, window, &layout, &format!("game {round} ply {ply}"));
            let captured = game.game.play(mv).captures().count();
            // The move is drawn, or the computer has answered it already.
            let shot = driver.screenshot(window);
            let mut marked = marked_squares(&shot, &layout);
            marked.sort_unstable();
            let mut want = vec![from, to];
            want.sort_unstable();
            let answered = marked != want && game.reply_from(&marked).is_some();
            assert!(
                marked == want || answered,
                "game {round} ply {ply}: the click on {to} moved: {marked:?}"
            );
            captures_seen += captured;
            if after_capture {
                clicked_after_a_capture += 1;
            }
            if captured > 0 && !answered {
                let crosses = count_colour(&shot, board_region(&layout), render::CAPTURE);
                assert!(crosses > 20, "the capture is marked");
                save_shot(&shot, "capture");
            }
            if game.game.outcome().is_some() {
                break;
            }
            // The computer's reply: two other marked squares.
            let mut reply = None;
            let mut reply_shot = RgbaImage::new(1, 1);
            wait_until("the computer's reply", WAIT, || {
                reply_shot = driver.screenshot(window);
                let marked = marked_squares(&reply_shot, &layout);
                reply = game.reply_from(&marked).filter(|_| marked != want);
                reply.is_some()
            });
            let reply = reply.expect("found");
            let undo = game
                .game
                .try_play(reply)
                .expect("the computer plays legal moves");
            let answer_captured = undo.captures().count();
            if answer_captured > 0 {
                let crosses = count_colour(&reply_shot, board_region(&layout), render::CAPTURE);
                assert!(crosses > 20, "the computer's capture is marked");
                save_shot(&reply_shot, "capture");
            }
            captures_seen += answer_captured;
            after_capture = captured + answer_captured > 0;
        }
        if round == 0 {
            save_shot(&driver.screenshot(window), "move-list");
        }
        driver.type_text(window, "n\n");
    }
    assert!(captures_seen > 0, "the games had captures");
    assert!(
        clicked_after_a_capture > 0,
        "moves were clicked after captures"
    );
    quit(&driver, window, program);
}

#[test]
fn a_narrow_window_lists_the_moves_under_the_board() {
    let _one = one_window();
    let (program, driver, window, _, _home) = open(&["-x", "null"], true);
    driver.type_text(window, "p 1 h\n");
    driver.resize(window, 420, 760);
    let layout = driver.layout(window, 11, 11);
    let place = layout.panel.expect("the move list fits under the board");
    assert!(place.y > layout.board_y + layout.rows * layout.square);
    let panel = (place.x, place.y, place.width, place.height);
    let shot = driver.screenshot(window);
    assert!(
        count_colour(&shot, panel, render::PANEL_BACKGROUND)
            > (place.width * place.height / 2) as usize,
        "the list's panel is drawn under the board"
    );
    assert_eq!(count_colour(&shot, panel, render::TEXT), 0, "no move yet");
    // Drag d11 to d10: the move shows in the list under the board.
    driver.drag(window, layout.square_centre(3), layout.square_centre(14));
    wait_until("the move in the list", WAIT, || {
        count_colour(&driver.screenshot(window), panel, render::TEXT) > 10
    });
    save_shot(&driver.screenshot(window), "move-list-under");
    quit(&driver, window, program);
}

#[test]
fn move_list_flip_and_drag() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let place = layout.panel.expect("the move list fits beside the board");
    assert!(place.x > layout.board_x + layout.columns * layout.square);
    let panel = (
        place.x,
        place.y,
        place.width,
        layout.metrics.line_height() + 6,
    );
    driver.type_text(window, "p 1 h\n");
    assert_eq!(
        count_colour(&driver.screenshot(window), panel, render::TEXT),
        0
    );
    // Drag d11 to d10.
    let from = layout.square_centre(3);
    let to = layout.square_centre(14);
    driver.drag(window, from, to);
    let shot = driver.screenshot(window);
    let mut marked = marked_squares(&shot, &layout);
    marked.sort_unstable();
    assert_eq!(marked, [3, 14], "the drag moved the piece");
    assert!(
        count_colour(&shot, panel, render::TEXT) > 10,
        "the move is listed"
    );
    // Ctrl+F turns the board: d10 is drawn where h2 was.
    driver.control(window, 'f');
    let flipped = layout.flip(true);
    let shot = driver.screenshot(window);
    save_shot(&shot, "flipped");
    let mut marked = marked_squares(&shot, &flipped);
    marked.sort_unstable();
    assert_eq!(marked, [3, 14], "the marks follow the turned board");
    let (x, y) = flipped.square_centre(14);
    assert!(near(
        driver.pixel(window, x, y),
        render::FALLBACK_PIECE_FILL[0],
        8
    ));
    // Clicks follow the turned board too: the defender on f4 (player 1, to move) is
    // selected where the turned board draws it.
    click_square(&driver, window, &flipped, 7 * 11 + 5);
    assert!(picked_up(&driver, window, &flipped, 7 * 11 + 5));
    // `flip` typed turns it back.
    driver.type_text(window, "\x1bflip\n");
    let marked = marked_squares(&driver.screenshot(window), &layout);
    assert_eq!(marked.len(), 2);
    quit(&driver, window, program);
}

/// Writes a rule file of the test's own into the home, loads it with `r` in the window
/// and waits for the title to name it.
fn load_rules_text(driver: &Driver, window: u32, home: &std::path::Path, text: &str, name: &str) {
    let rules_file = home.join("own_rules");
    std::fs::write(&rules_file, text).expect("write the rules");
    driver.type_text(window, &format!("r {}\n", rules_file.display()));
    wait_until("the new rules", WAIT, || {
        driver.window_title(window) == format!("Hnefatafl: {name}")
    });
}

/// A 1x3 board: player 0's man moves to the middle, and player 1's man is shut in.
const SHUT_IN: &str = "id shut_in\nname \"Shut in\"\nwidth 3\nheight 1\npieces 1 0 2\nsquares 1 1 1\n\
piece bit 1\npiece 1 owner 0\npiece 1 occupies 1\npiece bit 2\npiece 2 owner 1\npiece 2 occupies 1\n\
square bit 1\n";

/// The same game on a 3x3 board whose two lower rows are not part of it: as narrow a
/// board as a square one.
const SHUT_IN_NARROW: &str = "id shut_in_narrow\nname \"Shut in, narrow\"\nwidth 3\nheight 3\n\
pieces 1 0 2 0 0 0 0 0 0\nsquares 1 1 1 0 0 0 0 0 0\npiece bit 1\npiece 1 owner 0\npiece 1 occupies 1\n\
piece bit 2\npiece 2 owner 1\npiece 2 occupies 1\nsquare bit 1\n";

#[test]
fn the_game_end_is_shown_with_how_to_go_on() {
    let _one = one_window();
    let (program, driver, window, _, home) = open(&["-x", "null"], true);
    load_rules_text(&driver, window, home.path(), SHUT_IN, "Shut in");
    driver.type_text(window, "p 1 h\n");
    let layout = driver.layout(window, 3, 1);
    let before = count_colour(
        &driver.screenshot(window),
        board_region(&layout),
        render::BANNER_FRAME,
    );
    assert_eq!(before, 0);
    click_square(&driver, window, &layout, 0);
    click_square(&driver, window, &layout, 1);
    let shot = driver.screenshot(window);
    save_shot(&shot, "game-end");
    assert!(count_colour(&shot, board_region(&layout), render::BANNER_FRAME) > 50);
    // `n` starts again: the banner goes.
    driver.type_text(window, "n\n");
    let shot = driver.screenshot(window);
    assert_eq!(
        count_colour(&shot, board_region(&layout), render::BANNER_FRAME),
        0
    );
    // On a narrow board in the smallest window, the ways to go on are broken between
    // them, each whole on its line.
    load_rules_text(
        &driver,
        window,
        home.path(),
        SHUT_IN_NARROW,
        "Shut in, narrow",
    );
    driver.resize(window, 360, 360);
    let layout = driver.layout(window, 3, 3);
    click_square(&driver, window, &layout, 0);
    click_square(&driver, window, &layout, 1);
    save_shot(&driver.screenshot(window), "game-end-narrow");
    for text in ["n: new game", "u: take back a move", "q: quit"] {
        assert!(
            driver.shows_text(window, text, render::TEXT, render::BANNER_BACKGROUND),
            "the banner shows {text:?} whole"
        );
    }
    // The status strip, too narrow for the whole line, cuts it after a word.
    assert!(
        driver.shows_text(
            window,
            "Player 0 wins: player 1 has no...",
            render::TEXT,
            render::STATUS_BACKGROUND
        ),
        "the status is cut after a word"
    );
    quit(&driver, window, program);
}

#[test]
fn the_analysis_arrow_and_the_thinking_bar() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    assert_eq!(
        count_colour(
            &driver.screenshot(window),
            board_region(&layout),
            render::BEST_MOVE
        ),
        0
    );
    driver.type_text(window, "a d2\n");
    wait_until("the best move's arrow", WAIT, || {
        // The arrow's head is opaque.
        count_colour(
            &driver.screenshot(window),
            board_region(&layout),
            render::BEST_MOVE,
        ) > 20
    });
    save_shot(&driver.screenshot(window), "analysis");
    // The computer thinks for three seconds: the bar grows with the time used.
    driver.type_text(window, "p 0 c t3\n");
    let bar_y = layout.messages_top - 3;
    let filled = |driver: &Driver| {
        let shot = driver.screenshot(window);
        (0..layout.window_width)
            .filter(|&x| shot.get_pixel(x, bar_y).0[..3] == render::PROGRESS)
            .count()
    };
    wait_until("the bar", WAIT, || filled(&driver) > 0);
    let mut widths = vec![filled(&driver)];
    let start = Instant::now();
    while widths.len() < 4 && start.elapsed() < Duration::from_secs(3) {
        let frames = driver.frames(window);
        driver.wait_for_frame(window, frames);
        let width = filled(&driver);
        if width > *widths.last().expect("a width") {
            widths.push(width);
        }
    }
    assert!(widths.len() >= 4, "the bar grew steadily: {widths:?}");
    save_shot(&driver.screenshot(window), "thinking");
    driver.type_text(window, "p 0 h\nq\n");
    assert!(program.finish(WAIT).status.success());
}

#[test]
fn a_computer_game_is_paced() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    driver.type_text(window, "delay 0.6\np 1 c d1\np 0 c d1\n");
    // Each move is seen by the first screenshot that shows it; it was made after the start
    // of the screenshot before that one. So the time between two moves is at most the
    // time from that earlier start to the later sighting, however slow a screenshot is.
    let mut changes: Vec<(Instant, Instant)> = Vec::new();
    let mut last = Vec::new();
    let start = Instant::now();
    let mut previous_shot = start;
    while changes.len() < 4 && start.elapsed() < WAIT {
        let shot = Instant::now();
        let marked = marked_squares(&driver.screenshot(window), &layout);
        if marked.len() == 2 && marked != last {
            changes.push((previous_shot, Instant::now()));
            last = marked;
        }
        previous_shot = shot;
    }
    assert_eq!(changes.len(), 4, "the computers moved");
    for pair in changes.windows(2) {
        let at_most = pair[1].1 - pair[0].0;
        assert!(
            at_most >= Duration::from_millis(450),
            "moves at most {at_most:?} apart"
        );
    }
    driver.type_text(window, "p 0 h\np 1 h\nq\n");
    assert!(program.finish(WAIT).status.success());
}

/// A square's name as the board's labels write it: columns `a` ... from the left, rows
/// from 1 at the bottom (the boards here have at most 26 columns).
fn board_name(layout: &Layout, index: usize) -> String {
    let columns = layout.columns as usize;
    let column = char::from(b'a' + (index % columns) as u8);
    let row = layout.rows as usize - index / columns;
    format!("{column}{row}")
}

#[test]
fn messages_name_squares_by_the_board() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let rules = rules("hnefatafl");
    let shows =
        |text: &str| driver.shows_text(window, text, render::TEXT, render::MESSAGE_BACKGROUND);
    driver.type_text(window, "p 1 c d1\n");
    // An error: a8 to g8 is blocked by the defender on f8. The square is named as the
    // board names it, and nothing follows the name.
    click_square(&driver, window, &layout, 3 * 11);
    click_square(&driver, window, &layout, 3 * 11 + 6);
    assert!(
        shows("a piece stands in the way at f8   "),
        "the error names f8 alone"
    );
    // The computer's move: read from the board's marks, named as the board names it.
    let mut game = ClickedGame::new(&rules, 1);
    let mv = game
        .game
        .legal_moves()
        .find(|mv| game.indices(*mv) == (3, 14))
        .expect("d11-d10 is legal");
    click_square(&driver, window, &layout, 3);
    click_square(&driver, window, &layout, 14);
    game.game.play(mv);
    let mut reply = None;
    wait_until("the computer's reply", WAIT, || {
        let marked = marked_squares(&driver.screenshot(window), &layout);
        reply = game.reply_from(&marked).filter(|_| marked != [3, 14]);
        reply.is_some()
    });
    let (from, to) = game.indices(reply.expect("found"));
    let played = format!(
        "m {} {}",
        board_name(&layout, from),
        board_name(&layout, to)
    );
    driver.wait_for_text(window, &played, render::TEXT, render::MESSAGE_BACKGROUND);
    // The analysis: its best move in the board's names too (a letter after `m`).
    driver.type_text(window, "a d1\n");
    wait_until("the analysis's best move", WAIT, || {
        let shot_has = |column: char| shows(&format!("Best move: m {column}"));
        ('a'..='k').any(shot_has)
    });
    quit(&driver, window, program);
}

#[test]
fn a_picked_up_piece_stays_picked_up_while_output_comes_by_itself() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let selected = |driver: &Driver, index: usize| picked_up(driver, window, &layout, index);
    // The analysis reports each depth for two seconds (its pane and its arrow follow
    // them), then its lines, with no click or key: a piece picked up meanwhile stays
    // picked up, and its move is then made with one click.
    driver.type_text(window, "a t2\n");
    click_square(&driver, window, &layout, 3);
    assert!(selected(&driver, 3), "d11 is picked up");
    wait_until("the analysis's arrow", WAIT, || {
        count_colour(
            &driver.screenshot(window),
            board_region(&layout),
            render::BEST_MOVE,
        ) > 20
    });
    assert!(
        selected(&driver, 3),
        "d11 is picked up while the depths come"
    );
    driver.wait_for_text(
        window,
        "Best move: m ",
        render::TEXT,
        render::MESSAGE_BACKGROUND,
    );
    assert!(selected(&driver, 3), "d11 is still picked up");
    click_square(&driver, window, &layout, 14);
    let mut marked = marked_squares(&driver.screenshot(window), &layout);
    marked.sort_unstable();
    assert!(
        marked == [3, 14] || marked.len() == 2 && !marked.contains(&3),
        "the one click moved d11 to d10 (or the computer has answered): {marked:?}"
    );
    quit(&driver, window, program);
}

/// Halatafl's pieces on a board of their own: white (player 0) on d2 can take the black
/// pieces on d3, c4 and b3 in one chain of jumps, `d2 d4 b4 b2`, and must.
const JUMP_CHAIN: &str = "id jump_chain\nname \"Jump chain\"\nwidth 7\nheight 7\njump_compulsory\n\
pieces 0 0 0 0 0 0 0  0 0 0 0 0 0 0  0 0 0 0 0 0 0  0 0 2 0 0 0 0  0 2 0 2 0 0 0  0 0 0 4 0 0 0  \
0 0 0 0 0 0 0\nsquares 1 1 1 1 1 1 1  1 1 1 1 1 1 1  1 1 1 1 1 1 1  1 1 1 1 1 1 1  1 1 1 1 1 1 1  \
1 1 1 1 1 1 1  1 1 1 1 1 1 1\n\
piece bit 4\npiece 4 name white\npiece 4 owner 0\npiece 4 jump 2\npiece 4 steps 1\npiece 4 occupies 1\n\
piece bit 2\npiece 2 name black\npiece 2 owner 1\npiece 2 jump 4\npiece 2 steps 1\npiece 2 occupies 1\n\
square bit 1\n";

#[test]
fn a_jump_chain_is_clicked_landing_by_landing_or_by_its_last_square() {
    let _one = one_window();
    let (program, driver, window, _, home) = open(&["-x", "null"], true);
    driver.type_text(window, "p 1 h\n");
    load_rules_text(&driver, window, home.path(), JUMP_CHAIN, "Jump chain");
    let layout = driver.layout(window, 7, 7);
    let square = |name: &str| {
        let column = usize::from(name.as_bytes()[0] - b'a');
        let row = 7 - usize::from(name.as_bytes()[1] - b'0');
        row * 7 + column
    };
    let taken = [square("d3"), square("c4"), square("b3")];
    // The dots are drawn a little transparent.
    let is_target = |shot: &RgbaImage, index: usize| {
        let (x, y) = layout.square_centre(index);
        let pixel = shot.get_pixel(x, y).0;
        near([pixel[0], pixel[1], pixel[2]], render::TARGET, 30)
    };
    let chain_made = |name: &str| {
        let shot = driver.screenshot(window);
        let mut marked = marked_squares(&shot, &layout);
        marked.sort_unstable();
        let mut want = vec![square("d2"), square("b2")];
        want.sort_unstable();
        assert_eq!(marked, want, "{name}: the chain d2 d4 b4 b2 is made");
        for &index in &taken {
            let (x, y) = layout.square_origin(index);
            let region = (x, y, layout.square, layout.square);
            assert!(
                count_colour(&shot, region, render::CAPTURE) > 10,
                "{name}: the piece on {index} is taken"
            );
        }
        shot
    };
    // Landing by landing: d2, then d4 and b4 (the piece stays picked up, the next
    // landing marked), then b2.
    click_square(&driver, window, &layout, square("d2"));
    let shot = driver.screenshot(window);
    assert!(is_target(&shot, square("d4")) && is_target(&shot, square("b2")));
    for landing in ["d4", "b4"] {
        click_square(&driver, window, &layout, square(landing));
        let shot = driver.screenshot(window);
        assert!(
            marked_squares(&shot, &layout).is_empty(),
            "{landing}: no move yet"
        );
        let (x, y) = layout.square_origin(square("d2"));
        assert_eq!(
            shot.get_pixel(x + 1, y + layout.square / 2).0[..3],
            render::SELECTION,
            "{landing}: d2 stays picked up"
        );
    }
    assert!(is_target(&driver.screenshot(window), square("b2")));
    click_square(&driver, window, &layout, square("b2"));
    save_shot(&chain_made("landing by landing"), "jump-chain");
    // The last square alone: the chain is the only one that ends there.
    driver.type_text(window, "n\n");
    click_square(&driver, window, &layout, square("d2"));
    click_square(&driver, window, &layout, square("b2"));
    chain_made("by its last square");
    quit(&driver, window, program);
}

#[test]
fn board_names_are_thinned_on_a_big_board_in_a_small_window() {
    let _one = one_window();
    let (program, driver, window, _, _home) = open(&["-x", "null"], true);
    driver.type_text(window, "r alea_evangelii\n");
    wait_until("the 19x19 rules", WAIT, || {
        driver.window_title(window).contains("Alea")
    });
    // The smallest size the window asks the window manager for: squares of about 10
    // pixels, less than a line of text.
    driver.resize(window, 360, 360);
    let layout = driver.layout(window, 19, 19);
    let shot = driver.screenshot(window);
    save_shot(&shot, "thinned-names");
    // The pixel rows of the left margin where row names are written.
    let written: Vec<u32> = (layout.board_y..layout.board_y + 19 * layout.square)
        .filter(|&y| (0..layout.board_x).any(|x| shot.get_pixel(x, y).0[..3] == render::TEXT))
        .collect();
    let mut names: Vec<(u32, u32)> = Vec::new();
    for y in written {
        match names.last_mut() {
            Some((_, end)) if *end + 1 == y => *end = y,
            _ => names.push((y, y)),
        }
    }
    let line = layout.metrics.line_height();
    assert!(names.len() >= 5, "row names are written: {names:?}");
    for pair in names.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 >= line,
            "two row names closer than a line ({line}): {names:?}"
        );
    }
    // Row 1 is always named, in the bottom row's place.
    let bottom = layout.board_y + 18 * layout.square;
    assert!(
        names
            .last()
            .is_some_and(|&(start, end)| end >= bottom && start < bottom + layout.square),
        "row 1 is named: {names:?}"
    );
    quit(&driver, window, program);
}

#[test]
fn the_prompt_hints_at_help_and_up_brings_back_typed_lines() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let terminal =
        |text: &str| driver.shows_text(window, text, render::TEXT, render::TERMINAL_BACKGROUND);
    let hint =
        |text: &str| driver.shows_text(window, text, render::DIM_TEXT, render::TERMINAL_BACKGROUND);
    assert!(terminal("> _"), "the prompt is shown");
    assert!(hint("h: help"), "the hint names h");
    // Two lines typed (the second a move), then Up twice brings back the first, Down the
    // second; Enter runs the recalled line.
    driver.type_text(window, "p 1 h\nm d11 d10\n");
    let moved = || {
        let mut marked = marked_squares(&driver.screenshot(window), &layout);
        marked.sort_unstable();
        marked
    };
    assert_eq!(moved(), [3, 14]);
    driver.type_text(window, "\u{2191}\u{2191}");
    assert!(terminal("> p 1 h_"), "Up twice: the first line");
    assert!(!hint("h: help"), "no hint while a line is there");
    driver.type_text(window, "\u{2193}");
    assert!(terminal("> m d11 d10_"), "Down: the second line");
    driver.type_text(window, "\u{2193}");
    assert!(
        terminal("> _") && hint("h: help"),
        "Down again: an empty line"
    );
    driver.type_text(window, "u\n");
    assert!(moved().is_empty(), "the move is taken back");
    driver.type_text(window, "\u{2191}\u{2191}\n");
    assert_eq!(
        moved(),
        [3, 14],
        "the move, brought back with Up, is made again"
    );
    // In the narrowest window the hint keeps what it is for: where to find help.
    driver.resize(window, 360, 360);
    assert!(hint("h: help"), "the hint names h in a narrow window");
    save_shot(&driver.screenshot(window), "narrow");
    quit(&driver, window, program);
}

/// Whether the window shows a picked-up piece anywhere on the board.
fn shows_selection(driver: &Driver, window: u32, layout: &Layout) -> bool {
    count_colour(
        &driver.screenshot(window),
        board_region(layout),
        render::SELECTION,
    ) > 0
}

#[test]
fn clicks_around_the_computers_reply_never_lose_the_next_click() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    let rules = rules("hnefatafl");
    // Three seconds a move: long enough to click, press and drag while the computer
    // thinks, even when screenshots are slow on a busy machine.
    driver.type_text(window, "p 1 c t3\n");
    let mut game = ClickedGame::new(&rules, 7);
    let mut captured_squares_clicked = 0;
    let mut presses_in_think = 0;
    for ply in 0..12 {
        if game.game.outcome().is_some() {
            break;
        }
        // The first click after whatever came before picks the piece up at once.
        let (mv, from, to) = game.click_next(&driver, window, &layout, &format!("ply {ply}"));
        game.game.play(mv);
        if game.game.outcome().is_some() {
            break;
        }
        let mut want = vec![from, to];
        want.sort_unstable();
        let answered = |driver: &Driver| {
            let marked = marked_squares(&driver.screenshot(window), &layout);
            game.reply_from(&marked).filter(|_| marked != want)
        };
        // While the computer thinks: clicks on the moved piece pick up nothing, and a
        // press is released only after the reply: on the same square, or dragged back to
        // where the piece came from. When the reply comes early (the search may end before
        // its time), the clicks are the player's in their own turn and are not judged.
        for _ in 0..3 {
            click_square(&driver, window, &layout, to);
        }
        let in_think = answered(&driver).is_none();
        if in_think {
            assert!(
                !shows_selection(&driver, window, &layout),
                "ply {ply}: nothing is picked up in the computer's turn"
            );
        }
        let (to_x, to_y) = layout.square_centre(to);
        driver.press(window, to_x, to_y);
        let pressed_in_think = in_think && answered(&driver).is_none();
        let mut reply = None;
        wait_until("the computer's reply", WAIT, || {
            reply = answered(&driver);
            reply.is_some()
        });
        let reply = reply.expect("found");
        let (release_x, release_y) = match (pressed_in_think, ply % 2) {
            (true, 1) => layout.square_centre(from),
            _ => (to_x, to_y),
        };
        driver.release(window, release_x, release_y);
        if pressed_in_think {
            presses_in_think += 1;
            let mut marked = marked_squares(&driver.screenshot(window), &layout);
            marked.sort_unstable();
            let (a, b) = game.indices(reply);
            let mut replied = vec![a, b];
            replied.sort_unstable();
            assert_eq!(marked, replied, "ply {ply}: the late release moved nothing");
            assert!(
                !shows_selection(&driver, window, &layout),
                "ply {ply}: the late release picked up nothing"
            );
        } else {
            // Put down whatever the early clicks picked up.
            driver.click(window, 2, 2);
        }
        let undo = game
            .game
            .try_play(reply)
            .expect("the computer plays legal moves");
        // A click on a piece the reply captured (its ghost) picks up nothing.
        let taken: Vec<usize> = undo
            .captures()
            .filter_map(|(square, _)| rules.index(square))
            .collect();
        for square in taken {
            click_square(&driver, window, &layout, square);
            assert!(
                !shows_selection(&driver, window, &layout),
                "ply {ply}: the captured piece's square {square} picks up nothing"
            );
            captured_squares_clicked += 1;
        }
    }
    // Enough presses fell in the computer's turn to try both releases (same square and
    // dragged back); a busy machine may answer some moves before the press.
    assert!(
        presses_in_think >= 3,
        "{presses_in_think} presses in the computer's turn"
    );
    eprintln!(
        "captured squares clicked: {captured_squares_clicked}, presses in the computer's turn: {presses_in_think}"
    );
    quit(&driver, window, program);
}

#[test]
fn a_move_made_while_the_analysis_runs_is_answered_at_once() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open(&["-x", "null"], true);
    driver.type_text(window, "p 1 c d1\n");
    // An analysis far too deep to end by itself while the test runs.
    driver.type_text(window, "a d60\n");
    click_square(&driver, window, &layout, 3);
    click_square(&driver, window, &layout, 14);
    // The move ends the analysis of the position before it: the computer answers.
    wait_until("the computer's reply", WAIT, || {
        let marked = marked_squares(&driver.screenshot(window), &layout);
        marked.len() == 2 && !marked.contains(&14)
    });
    // And the player's next click is taken.
    click_square(&driver, window, &layout, 14);
    assert!(picked_up(&driver, window, &layout, 14), "d10 is picked up");
    quit(&driver, window, program);
}
