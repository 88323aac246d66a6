//! The X window against a real X server (Xvfb) with a small fake game behind it: drawing,
//! clicks, the one-line terminal, the computer's progress and answer, and closing.
//!
//! Run under `xvfb-run -a cargo test -p uicx`; without `$DISPLAY` these tests fail.

mod x11_support;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use uicx::x11::render::{self, Renderer, Scene};
use uicx::x11::{self, BoardView, Flow, Waker, XExit, XHost, XOptions, theme};
use x11_support::{Driver, near, one_window, square_mean, wait_until};

const SIDE: u8 = 7;
const WAIT: Duration = Duration::from_secs(30);

/// What the fake game shares with the test's driver thread.
#[derive(Debug, Default)]
struct Shared {
    commands: Vec<String>,
    polls: usize,
}

/// A 7x7 board: player 0 has a piece (type 1) in the middle, player 1 one (type 2) at the
/// top. Pieces slide like rooks; nothing is captured. Player 1 may be a computer that
/// "thinks" for 600 ms on a thread and then moves its piece one square down (or up).
struct FakeGame {
    title: String,
    pieces: Vec<u8>,
    owners: Vec<u8>,
    side_to_move: u8,
    history: Vec<(usize, usize)>,
    computer: bool,
    thinking_since: Option<Instant>,
    finished: Arc<Mutex<bool>>,
    shared: Arc<Mutex<Shared>>,
    theme_dir: Option<PathBuf>,
}

const THINK: Duration = Duration::from_millis(600);

impl FakeGame {
    fn new(title: &str, shared: Arc<Mutex<Shared>>, theme_dir: Option<PathBuf>) -> FakeGame {
        let mut game = FakeGame {
            title: title.to_owned(),
            pieces: Vec::new(),
            owners: Vec::new(),
            side_to_move: 0,
            history: Vec::new(),
            computer: false,
            thinking_since: None,
            finished: Arc::new(Mutex::new(false)),
            shared,
            theme_dir,
        };
        game.reset();
        game
    }

    fn reset(&mut self) {
        let count = usize::from(SIDE) * usize::from(SIDE);
        self.pieces = vec![0; count];
        self.owners = vec![0; count];
        self.pieces[24] = 1;
        self.pieces[3] = 2;
        self.owners[3] = 1;
        self.side_to_move = 0;
        self.history.clear();
    }

    fn slide_targets(&self, from: usize) -> Vec<usize> {
        let side = i32::from(SIDE);
        let (x, y) = ((from % 7) as i32, (from / 7) as i32);
        let mut targets = Vec::new();
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut cx, mut cy) = (x + dx, y + dy);
            while (0..side).contains(&cx) && (0..side).contains(&cy) {
                let index = (cy * side + cx) as usize;
                if self.pieces[index] != 0 {
                    break;
                }
                targets.push(index);
                cx += dx;
                cy += dy;
            }
        }
        targets
    }

    fn play(&mut self, from: usize, to: usize) {
        self.pieces.swap(from, to);
        self.owners.swap(from, to);
        self.history.push((from, to));
        self.side_to_move ^= 1;
    }
}

impl XHost for FakeGame {
    fn title(&self) -> String {
        self.title.clone()
    }

    fn view(&self) -> BoardView {
        let mut squares = vec![1u8; usize::from(SIDE) * usize::from(SIDE)];
        for corner in [0, 6, 42, 48] {
            squares[corner] = 2;
        }
        squares[24] = 4;
        BoardView {
            width: SIDE,
            height: SIDE,
            squares,
            pieces: self.pieces.clone(),
            owners: self.owners.clone(),
            last_move: self.history.last().copied(),
            side_to_move: self.side_to_move,
            status: format!("Player {} to move", self.side_to_move),
            thinking: self
                .thinking_since
                .map(|since| (since.elapsed().as_secs_f32() / THINK.as_secs_f32()).min(1.0)),
            ..BoardView::default()
        }
    }

    fn targets(&self, from: usize) -> Vec<usize> {
        let human = !(self.computer && self.side_to_move == 1);
        if human
            && self.pieces.get(from).is_some_and(|&bit| bit != 0)
            && self.owners[from] == self.side_to_move
        {
            self.slide_targets(from)
        } else {
            Vec::new()
        }
    }

    fn execute(&mut self, line: &str) -> (Vec<String>, Flow) {
        self.shared
            .lock()
            .expect("lock")
            .commands
            .push(line.to_owned());
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["m", x1, y1, x2, y2] => {
                let number = |word: &str| word.parse::<usize>().unwrap_or(usize::MAX);
                let from = number(y1).saturating_mul(7).saturating_add(number(x1));
                let to = number(y2).saturating_mul(7).saturating_add(number(x2));
                if from < 49 && self.targets(from).contains(&to) {
                    self.play(from, to);
                    (vec!["moved".to_owned()], Flow::Continue)
                } else {
                    (vec!["illegal move: blocked".to_owned()], Flow::Continue)
                }
            }
            ["u"] => {
                if let Some((from, to)) = self.history.pop() {
                    self.pieces.swap(from, to);
                    self.owners.swap(from, to);
                    self.side_to_move ^= 1;
                }
                (vec!["undone".to_owned()], Flow::Continue)
            }
            ["n"] => {
                self.reset();
                (vec!["new game".to_owned()], Flow::Continue)
            }
            ["p", "1", "c", ..] => {
                self.computer = true;
                (vec!["player 1 is a computer".to_owned()], Flow::Continue)
            }
            ["x", theme] => (Vec::new(), Flow::Theme((*theme).to_owned())),
            ["x"] => (Vec::new(), Flow::LeaveX),
            ["q"] => (Vec::new(), Flow::Quit),
            _ => (vec![format!("unknown command: {line}")], Flow::Continue),
        }
    }

    fn poll(&mut self, wake: &Waker) -> Vec<String> {
        self.shared.lock().expect("lock").polls += 1;
        if self.thinking_since.is_some() && *self.finished.lock().expect("lock") {
            self.thinking_since = None;
            let from = self
                .pieces
                .iter()
                .zip(&self.owners)
                .position(|(&bit, &owner)| bit != 0 && owner == 1);
            let Some(from) = from else {
                return Vec::new();
            };
            let to = if from + 7 < 49 && self.pieces[from + 7] == 0 {
                from + 7
            } else {
                from - 7
            };
            self.play(from, to);
            return vec![format!(
                "computer: m {} {} {} {}",
                from % 7,
                from / 7,
                to % 7,
                to / 7
            )];
        }
        if self.computer && self.side_to_move == 1 && self.thinking_since.is_none() {
            self.thinking_since = Some(Instant::now());
            *self.finished.lock().expect("lock") = false;
            let (finished, wake) = (self.finished.clone(), wake.clone());
            thread::spawn(move || {
                thread::sleep(THINK);
                *finished.lock().expect("lock") = true;
                wake();
            });
        }
        Vec::new()
    }

    fn read_data(&self, relative: &str) -> Option<Vec<u8>> {
        let dir = self.theme_dir.as_ref()?;
        if relative == "xlib/themes" {
            return Some(b"sample\n".to_vec());
        }
        let name = relative.strip_prefix("xlib/sample/")?;
        std::fs::read(dir.join(name)).ok()
    }

    fn suggested_theme(&self) -> Option<String> {
        None
    }
}

/// The project's own test images (`tests/xpm/`): square types 1 and 2, pieces 1, 2 and 4.
fn own_images() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/xpm")
}

/// Runs the window for `game` on this thread while `drive` works it from another. When a
/// check of `drive` fails, the window is closed so that the test ends.
fn with_window(
    mut game: FakeGame,
    options: XOptions,
    drive: impl FnOnce(&Driver) + Send + 'static,
) -> XExit {
    let _one = one_window();
    let title = game.title.clone();
    let driver = thread::spawn(move || {
        let driver = Driver::connect();
        let checks = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drive(&driver)));
        if let Err(failure) = checks {
            for window in driver.windows(&title) {
                driver.close(window);
            }
            std::panic::resume_unwind(failure);
        }
    });
    let result = x11::run(&mut game, &options);
    driver.join().expect("the driver's checks hold");
    result.expect("the window ran")
}

/// What the board part of the window should look like for a view, as the renderer draws
/// it in a window of that size.
fn expected_frame(
    theme: &theme::Theme,
    view: &BoardView,
    driver: &Driver,
    window: u32,
    selected: Option<usize>,
    targets: &[usize],
) -> render::Frame {
    let (width, height) = driver.size(window);
    let scene = Scene {
        selected,
        targets,
        ..Scene::of(view)
    };
    Renderer::new(theme.clone()).render(&scene, width, height, x11_support::server_metrics(driver))
}

/// Checks that the window shows `view` with nothing selected, as the renderer draws it.
fn assert_shows(driver: &Driver, window: u32, theme: &theme::Theme, view: &BoardView) {
    let frame = expected_frame(theme, view, driver, window, None, &[]);
    assert_board_matches(driver, window, &frame);
}

/// The board area of the screenshot equals the renderer's frame there.
fn assert_board_matches(driver: &Driver, window: u32, frame: &render::Frame) {
    let shot = driver.screenshot(window);
    let layout = frame.layout;
    for index in 0..49 {
        let (x, y) = layout.square_origin(index);
        for (dx, dy) in [
            (1, 1),
            (layout.square / 2, layout.square / 2),
            (layout.square / 3, layout.square - 2),
        ] {
            let got = shot.get_pixel(x + dx, y + dy);
            let want = frame.image.get_pixel(x + dx, y + dy);
            assert_eq!(got.0[..3], want.0[..3], "square {index} at +{dx}+{dy}");
        }
    }
}

fn sample_theme() -> theme::Theme {
    let read = |relative: &str| {
        if relative == "xlib/themes" {
            return Some(b"sample".to_vec());
        }
        std::fs::read(own_images().join(relative.strip_prefix("xlib/sample/")?)).ok()
    };
    theme::load(&read, None, None).theme
}

#[test]
fn window_draws_moves_types_thinks_and_closes() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let game = FakeGame::new("Fake: play", shared.clone(), Some(own_images()));
    let log = shared.clone();
    let exit = with_window(game, XOptions::default(), move |driver| {
        let window = driver.find_window("Fake: play", &[], WAIT);
        assert_eq!(driver.window_title(window), "Fake: play");
        let theme = sample_theme();
        let mut reference = FakeGame::new("", Arc::default(), None);

        // The board is drawn with the theme's images.
        assert_shows(driver, window, &theme, &reference.view());

        // Select the middle piece: the selection and its targets are drawn.
        let layout = driver.layout(window, 7, 7);
        let (x, y) = layout.square_centre(24);
        driver.click(window, x, y);
        let targets = reference.targets(24);
        let selected = expected_frame(
            &theme,
            &reference.view(),
            driver,
            window,
            Some(24),
            &targets,
        );
        assert_board_matches(driver, window, &selected);
        let (sx, sy) = layout.square_origin(24);
        assert_eq!(
            driver.pixel(window, sx + 1, sy + layout.square / 2),
            render::SELECTION
        );

        // Move it two squares left: the window sends `m 3 3 1 3`.
        let (x, y) = layout.square_centre(22);
        driver.click(window, x, y);
        wait_for_command(&log, "the move", "m 3 3 1 3");
        reference.play(24, 22);
        assert_shows(driver, window, &theme, &reference.view());

        // An illegal target: the move is sent, refused, and the board stays.
        // (Player 1 to move now: select its piece and try a diagonal step.)
        let (x, y) = layout.square_centre(3);
        driver.click(window, x, y);
        let (x, y) = layout.square_centre(11);
        driver.click(window, x, y);
        wait_for_command(&log, "the refused move", "m 3 0 4 1");
        assert_shows(driver, window, &theme, &reference.view());

        // Typed commands: `u` takes the move back; Escape and BackSpace edit the line.
        driver.type_text(window, "zz\x1bn\x08u\n");
        wait_for_command(&log, "`u`", "u");
        reference.execute("u");
        assert_shows(driver, window, &theme, &reference.view());

        // Upper case and symbols through Shift: an unknown command is still sent whole.
        driver.type_text(window, "H?\n");
        wait_for_command(&log, "`H?`", "H?");

        // The computer: make player 1 a computer, move, and see the progress bar and
        // then its answer, without touching the window.
        driver.type_text(window, "p 1 c d1\n");
        let (x, y) = layout.square_centre(24);
        driver.click(window, x, y);
        let (x, y) = layout.square_centre(25);
        driver.click(window, x, y);
        wait_for_command(&log, "the move", "m 3 3 4 3");
        let bar_y = layout.messages_top - 3;
        wait_until("the progress bar", WAIT, || {
            driver.pixel(window, 2, bar_y) == render::PROGRESS
        });
        reference.execute("p 1 c");
        reference.play(24, 25);
        reference.play(3, 10);
        wait_until("the computer's move", WAIT, || {
            let shot = driver.screenshot(window);
            let want = expected_frame(&theme, &reference.view(), driver, window, None, &[]);
            square_mean(&shot, &layout, 10) == square_mean(&want.image, &layout, 10)
                && square_mean(&shot, &layout, 3) == square_mean(&want.image, &layout, 3)
        });
        assert_ne!(
            driver.pixel(window, 2, bar_y),
            render::PROGRESS,
            "the bar is gone"
        );
        assert!(log.lock().expect("lock").polls > 3);

        // The board follows the window's size.
        driver.resize(window, 400, 520);
        let small = driver.layout(window, 7, 7);
        assert!(small.square < layout.square);
        assert_shows(driver, window, &theme, &reference.view());

        driver.close(window);
        wait_until("the window to go", WAIT, || !driver.exists(window));
    });
    assert_eq!(exit, XExit::Closed);
    let commands = shared.lock().expect("lock").commands.clone();
    assert_eq!(
        commands,
        ["m 3 3 1 3", "m 3 0 4 1", "u", "H?", "p 1 c d1", "m 3 3 4 3"]
    );
}

#[test]
fn typed_x_and_q_leave_the_window() {
    for (line, want) in [("x\n", XExit::LeaveX), ("q\n", XExit::Quit)] {
        let title = format!("Fake: leave {}", line.trim());
        let game = FakeGame::new(&title, Arc::default(), None);
        let exit = with_window(
            game,
            XOptions {
                theme: Some("null".to_owned()),
                latin1: line == "q\n",
            },
            move |driver| {
                let window = driver.find_window(&title, &[], WAIT);
                // Fallback graphics: the pieces are the fallback discs.
                let layout = driver.layout(window, 7, 7);
                let (x, y) = layout.square_centre(3);
                assert!(near(
                    driver.pixel(window, x, y),
                    render::FALLBACK_PIECE_FILL[1],
                    8
                ));
                let (x, y) = layout.square_centre(24);
                assert!(near(
                    driver.pixel(window, x, y),
                    render::FALLBACK_PIECE_FILL[0],
                    8
                ));
                let shot = driver.screenshot(window);
                let corner = square_mean(&shot, &layout, 0);
                assert!(near(corner, render::FALLBACK_SQUARES[1], 30), "{corner:?}");
                driver.type_text(window, line);
                wait_until("the window to go", WAIT, || !driver.exists(window));
            },
        );
        assert_eq!(exit, want);
    }
}

/// Waits until the fake host has received `command` as its latest command line.
fn wait_for_command(log: &Arc<Mutex<Shared>>, what: &str, command: &str) {
    wait_until(what, WAIT, || {
        log.lock()
            .expect("lock")
            .commands
            .last()
            .map(String::as_str)
            == Some(command)
    });
}

#[test]
fn up_and_down_recall_typed_lines_and_drags_move() {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let game = FakeGame::new("Fake: history", shared.clone(), None);
    let log = shared.clone();
    let exit = with_window(game, XOptions::default(), move |driver| {
        let window = driver.find_window("Fake: history", &[], WAIT);
        driver.type_text(window, "n\nu\n");
        // Up twice brings back `n`, Down once `u` again; Escape forgets the recalled line.
        driver.type_text(window, "\u{2191}\u{2191}\u{2193}\n");
        driver.type_text(window, "\u{2191}\x1b\n");
        driver.type_text(window, "\u{2191}\u{2191}\n");
        // A drag from the middle two squares to the right is the move `m 3 3 5 3`.
        let layout = driver.layout(window, 7, 7);
        driver.drag(window, layout.square_centre(24), layout.square_centre(26));
        wait_for_command(&log, "the dragged move", "m 3 3 5 3");
        driver.close(window);
        wait_until("the window to go", WAIT, || !driver.exists(window));
    });
    assert_eq!(exit, XExit::Closed);
    let commands = shared.lock().expect("lock").commands.clone();
    assert_eq!(commands, ["n", "u", "u", "", "n", "m 3 3 5 3"]);
}
