//! The real `hnefatafl` program's X window on a real X server (Xvfb): `-x`, `x` at the
//! prompt, themes, clicks, the terminal line, the computer's answer, closing, and X failures.
//!
//! Run under `xvfb-run -a cargo test -p uicx`; without `$DISPLAY` these tests fail.

mod x11_support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use image::RgbaImage;
use uicx::x11::render::{Layout, Renderer, Scene};
use uicx::x11::{BoardView, theme};
use x11_support::{
    Driver, Program, data_dir, near, one_window, require_display, square_mean, wait_until,
};

const WAIT: Duration = Duration::from_secs(30);
const TITLE: &str = "Hnefatafl: Hnefatafl (Fetlar rules)";

/// The opening of `data/rules/hnefatafl` as the window should show it, read from the rule
/// file itself: the attackers (bit 4) are player 0's, the king and defenders player 1's.
fn opening() -> BoardView {
    let text = std::fs::read_to_string(data_dir().join("rules/hnefatafl")).expect("rule file");
    let grid = |keyword: &str| -> Vec<u8> {
        let start = text.find(&format!("\n{keyword} \\")).expect(keyword) + 1;
        text[start..]
            .lines()
            .skip(1)
            .take(11)
            .flat_map(|line| {
                line.trim_end_matches('\\')
                    .split_whitespace()
                    .map(|word| word.parse::<u8>().expect("bit"))
            })
            .collect()
    };
    let pieces = grid("pieces");
    let owners = pieces
        .iter()
        .map(|&bit| u8::from(bit != 4 && bit != 0))
        .collect();
    BoardView {
        width: 11,
        height: 11,
        squares: grid("squares"),
        pieces,
        owners,
        ..BoardView::default()
    }
}

fn shipped_theme(name: Option<&str>) -> theme::Theme {
    let read = |relative: &str| std::fs::read(data_dir().join(relative)).ok();
    theme::load(&read, name, None).theme
}

/// The board as the renderer draws it in the window's layout.
fn reference(theme: &theme::Theme, view: &BoardView, layout: &Layout) -> RgbaImage {
    let scene = Scene::of(view);
    Renderer::new(theme.clone())
        .render(
            &scene,
            layout.window_width,
            layout.window_height,
            layout.metrics,
        )
        .image
}

/// The squares whose inner part differs between the screenshot and the reference.
fn differing_squares(shot: &RgbaImage, want: &RgbaImage, layout: &Layout) -> Vec<usize> {
    (0..121)
        .filter(|&index| {
            !near(
                square_mean(shot, layout, index),
                square_mean(want, layout, index),
                2,
            )
        })
        .collect()
}

fn home() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary home")
}

/// The program started with these arguments, a driver, its window (found by its title)
/// and the home (removed when dropped).
fn open(arguments: &[&str]) -> (Program, Driver, u32, tempfile::TempDir) {
    let home = home();
    let program = Program::start(home.path(), None, arguments, true);
    let driver = Driver::connect();
    let window = driver.find_window(TITLE, &[], WAIT);
    (program, driver, window, home)
}

#[test]
fn x_flag_plays_with_the_default_theme_and_exits_when_closed() {
    let _one = one_window();
    let (program, driver, window, _home) = open(&["-x"]);
    let layout = driver.layout(window, 11, 11);
    let theme = shipped_theme(None);
    assert_ne!(theme.name, "null", "the shipped default theme has images");
    let mut view = opening();

    // The opening, drawn with the default theme's images.
    let start_shot = driver.screenshot(window);
    assert_eq!(
        differing_squares(&start_shot, &reference(&theme, &view, &layout), &layout),
        Vec::<usize>::new()
    );

    // Player 1 is a computer (the default rc file); make it quick, then move d11-d10.
    driver.type_text(window, "p 1 c d1\n");
    let (x, y) = layout.square_centre(3);
    driver.click(window, x, y);
    let (sx, sy) = layout.square_origin(3);
    wait_until("the selection", WAIT, || {
        driver.pixel(window, sx + 1, sy + layout.square / 2) == uicx::x11::render::SELECTION
    });
    let (x, y) = layout.square_centre(14);
    driver.click(window, x, y);
    view.pieces.swap(3, 14);
    view.owners.swap(3, 14);
    let after_move = reference(&theme, &view, &layout);
    wait_until("the human move and the computer's answer", WAIT, || {
        let shot = driver.screenshot(window);
        let differing = differing_squares(&shot, &after_move, &layout);
        // The human move is on the board, and the computer moved one of its pieces.
        !differing.contains(&3) && !differing.contains(&14) && differing.len() >= 2
    });

    // `n` typed in the window's terminal: a new game, the opening again.
    driver.type_text(window, "n\n");
    let opening_again = reference(&theme, &opening(), &layout);
    wait_until("the new game", WAIT, || {
        differing_squares(&driver.screenshot(window), &opening_again, &layout).is_empty()
    });

    driver.close(window);
    let output = program.finish(WAIT);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!driver.exists(window));
}

#[test]
fn x_null_draws_fallback_graphics_and_q_quits() {
    let _one = one_window();
    let (program, driver, window, _home) = open(&["-x", "null"]);
    let layout = driver.layout(window, 11, 11);
    let want = reference(&theme::Theme::fallback(), &opening(), &layout);
    let shot = driver.screenshot(window);
    assert_eq!(
        differing_squares(&shot, &want, &layout),
        Vec::<usize>::new()
    );
    let (x, y) = layout.square_centre(3);
    assert_eq!(
        driver.pixel(window, x, y),
        uicx::x11::render::FALLBACK_PIECE_FILL[0]
    );
    driver.type_text(window, "q\n");
    let output = program.finish(WAIT);
    assert!(output.status.success());
    assert!(!driver.exists(window));
}

#[test]
fn an_unknown_theme_is_said_not_to_exist_with_the_themes_there_are() {
    let _one = one_window();
    let (program, driver, window, _home) = open(&["-x", "nosuch"]);
    driver.type_text(window, "q\n");
    let output = program.finish(WAIT);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "theme \"nosuch\" does not exist; the themes are wood, stone, null. Drawing with theme wood."
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("fallback"), "{stderr}");
}

#[test]
fn x_at_the_prompt_returns_to_the_prompt() {
    let _one = one_window();
    let home = home();
    let mut program = Program::start(home.path(), None, &[], true);
    let driver = Driver::connect();
    program.send("x\n");
    let first = driver.find_window(TITLE, &[], WAIT);
    // Closing the window goes back to the prompt: `x` opens a new one.
    driver.close(first);
    wait_until("the window to go", WAIT, || !driver.exists(first));
    program.send("x stone\n");
    // (The server may give the new window the old one's id.)
    let second = driver.find_window(TITLE, &[], WAIT);
    let layout = driver.layout(second, 11, 11);
    let shot = driver.screenshot(second);
    let stone = reference(&shipped_theme(Some("stone")), &opening(), &layout);
    assert_eq!(
        differing_squares(&shot, &stone, &layout),
        Vec::<usize>::new(),
        "drawn with the stone theme"
    );
    // `x` typed in the window goes back too.
    driver.type_text(second, "x\n");
    wait_until("the window to go", WAIT, || !driver.exists(second));
    program.send("b\nq\n");
    let output = program.finish(WAIT);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains('a') && stdout.contains("11"),
        "the board was printed after the window: {stdout}"
    );
}

#[test]
fn no_x_server_means_an_frx_error_and_the_command_line() {
    let home = home();
    let mut program = Program::start(home.path(), Some(":250"), &["-x"], true);
    program.send("b\nq\n");
    let all = finished_output(program);
    assert!(all.contains("FRX"), "{all}");
}

/// Everything the program wrote, once it has ended well.
fn finished_output(program: Program) -> String {
    let output = program.finish(WAIT);
    assert!(output.status.success());
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Starts an X server of the test's own on a free display number.
fn own_x_server() -> (Child, String) {
    for number in 180..240 {
        // A lock whose process is gone (an X server killed before) is free: Xvfb takes
        // such a display over itself.
        let lock = std::fs::read_to_string(format!("/tmp/.X{number}-lock"));
        let held = lock.is_ok_and(|pid| Path::new(&format!("/proc/{}", pid.trim())).exists());
        if held {
            continue;
        }
        let display = format!(":{number}");
        let server = Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "800x900x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (apt-get install -y xvfb)");
        let socket = format!("/tmp/.X11-unix/X{number}");
        wait_until("Xvfb to start", WAIT, || Path::new(&socket).exists());
        return (server, display);
    }
    panic!("no free display number");
}

#[test]
fn losing_the_x_server_keeps_the_game() {
    require_display();
    let (mut server, display) = own_x_server();
    let home = home();
    let mut program = Program::start(home.path(), Some(&display), &[], true);
    program.send("m d11 d10\nx\n");
    let driver = Driver::connect_to(Some(&display));
    driver.find_window(TITLE, &[], WAIT);
    server.kill().expect("stop Xvfb");
    server.wait().expect("Xvfb ended");
    program.send("b\nq\n");
    let all = finished_output(program);
    assert!(all.contains("FRX"), "{all}");
    assert!(!all.contains("panicked"), "{all}");
}
