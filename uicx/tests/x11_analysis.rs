//! The analysis in the real program's X window on a real X server (Xvfb): the review
//! view's graph read back against the chances the review printed, stepping through it;
//! the heat map of a held piece; the analysis pane with several lines, and a live
//! analysis that follows a move and stops on Escape.
//!
//! Run under `xvfb-run -a cargo test -p uicx`; without `$DISPLAY` these tests fail. The
//! screenshots are left in `target/tmp/x11-shots/` (`docs/analysis.md` shows them).

mod common;
mod x11_support;

use std::time::Duration;

use common::recorded::game_commands;
use image::RgbaImage;
use tempfile::TempDir;
use uicx::x11::render::{
    BEST_MOVE, GRAPH_AT, GRAPH_BLUNDER, GRAPH_CURVE, GRAPH_MISTAKE, GraphArea, Layout,
    PANEL_BACKGROUND, Rgb, TEXT,
};
use x11_support::{Driver, Program, near, one_window, save_shot, wait_until};

const WAIT: Duration = Duration::from_secs(60);

/// The program on `rules` in English, given `input` and then `x` on its standard input:
/// the program, a driver, its window, the layout of a `size` by `size` board in it, and
/// the home (removed when dropped).
fn open(rules: &str, input: &str, size: u32) -> (Program, Driver, u32, Layout, TempDir) {
    let home = tempfile::tempdir().expect("temporary home");
    let mut program = Program::start(home.path(), None, &["-C", "-r", rules, "-l", "eng"], true);
    program.send(&format!("{input}x\n"));
    let driver = Driver::connect();
    let window = driver.find_program_window(program.id(), WAIT);
    let layout = driver.layout(window, size, size);
    (program, driver, window, layout, home)
}

/// A review line's mover and chances, and its mark (`12. m 3 5 1 5 (d2-b2)  attackers
/// 55% -> attackers 41%  mistake (-14), best m ...`).
struct Line {
    side: String,
    before: i32,
    after: i32,
    mark: Option<String>,
}

fn review_line(line: &str) -> Option<Line> {
    let (_, rest) = line.split_once(". m ")?;
    let (_, rest) = rest.split_once(")  ")?;
    let (before, rest) = rest.split_once(" -> ")?;
    let (after, mark) = match rest.split_once("  ") {
        Some((after, mark)) => (after, Some(mark)),
        None => (rest, None),
    };
    let chance = |text: &str| -> (String, i32) {
        let (side, percent) = text.trim().rsplit_once(' ').expect("side and chance");
        let percent = percent.trim_end_matches('%').parse().expect("a percentage");
        (side.to_owned(), percent)
    };
    let (side, before) = chance(before);
    let (_, after) = chance(after);
    let mark = mark.map(|mark| mark.split(' ').next().unwrap_or_default().to_owned());
    Some(Line {
        side,
        before,
        after,
        mark,
    })
}

/// The pixels of a colour in one row of the panel.
fn row_hits(shot: &RgbaImage, left: u32, right: u32, y: u32, colour: Rgb) -> Vec<u32> {
    (left..right)
        .filter(|&x| {
            let pixel = shot.get_pixel(x, y);
            near([pixel[0], pixel[1], pixel[2]], colour, 24)
        })
        .collect()
}

fn pixel(shot: &RgbaImage, x: u32, y: u32) -> Rgb {
    let pixel = shot.get_pixel(x, y);
    [pixel[0], pixel[1], pixel[2]]
}

/// Whether the panel shows any pixel of the graph's curve.
fn shows_curve(driver: &Driver, window: u32, layout: &Layout) -> bool {
    let Some(panel) = layout.panel else {
        return false;
    };
    let shot = driver.screenshot(window);
    (panel.y..panel.y + panel.height)
        .any(|y| !row_hits(&shot, panel.x, panel.x + panel.width, y, GRAPH_CURVE).is_empty())
}

#[test]
fn the_review_view_draws_the_printed_chances_and_steps_through_the_game() {
    let _one = one_window();
    let input = format!("{}review t0.05\n", game_commands());
    let (program, driver, window, layout, _home) = open("copenhagen", &input, 11);
    let panel = layout.panel.expect("the window has room for the move list");
    wait_until("the review graph", WAIT, || {
        shows_curve(&driver, window, &layout)
    });
    let shot = driver.screenshot(window);
    save_shot(&shot, "review-view");

    // Step back a move with Left, then to the start with a click at the graph's top.
    let area = GraphArea::of(panel);
    let band = |at: usize| area.point(at, 19, 0.5).1.round() as u32;
    let band_x = panel.x + 1;
    assert!(near(pixel(&shot, band_x, band(18)), GRAPH_AT, 2));
    driver.type_text(window, "\u{2190}");
    assert!(near(driver.pixel(window, band_x, band(17)), GRAPH_AT, 2));
    assert!(!near(driver.pixel(window, band_x, band(18)), GRAPH_AT, 2));
    // d1, left by the game's first move, holds its attacker again at the start.
    let d1 = 10 * 11 + 3;
    let end_d1 = x11_support::square_mean(&driver.screenshot(window), &layout, d1);
    let (x, y) = area.point(0, 19, 0.5);
    driver.click(window, x as u32, y as u32);
    assert!(near(driver.pixel(window, band_x, band(0)), GRAPH_AT, 2));
    let start_d1 = x11_support::square_mean(&driver.screenshot(window), &layout, d1);
    assert!(!near(end_d1, start_d1, 8), "{end_d1:?} {start_d1:?}");
    // Escape closes the review: the move list is back.
    driver.type_text(window, "\x1b");
    assert!(!shows_curve(&driver, window, &layout));

    driver.close(window);
    let output = program.finish(WAIT);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines: Vec<Line> = text.lines().filter_map(review_line).collect();
    assert_eq!(lines.len(), 18, "{text}");
    // The attackers' (the first player's) chance at each position, as printed.
    let mut attackers: Vec<i32> = lines
        .iter()
        .map(|line| match line.side.as_str() {
            "attackers" => line.before,
            _ => 100 - line.before,
        })
        .collect();
    attackers.push(100 - lines[17].after);

    // Each position's point is on the curve (or a mark's dot, where its move is
    // marked), on the side of the 50% line that its printed chance is.
    let middle = area.point(0, 19, 0.5).0;
    for (index, &percent) in attackers.iter().enumerate() {
        let (x, y) = area.point(index, 19, percent as f32 / 100.0);
        let y = y.round() as u32;
        let mark = index
            .checked_sub(1)
            .and_then(|before| lines[before].mark.as_deref());
        let colour = match mark {
            Some("blunder") => GRAPH_BLUNDER,
            Some("mistake") => GRAPH_MISTAKE,
            _ => GRAPH_CURVE,
        };
        // The point's row and the rows beside it (a line's end is drawn a little thin).
        let hits: Vec<u32> = (y.saturating_sub(2)..=y + 2)
            .flat_map(|row| row_hits(&shot, panel.x, panel.x + panel.width, row, colour))
            .collect();
        let near_point: Vec<u32> = hits
            .into_iter()
            .filter(|&hit| (hit as f32 - x).abs() <= 4.0)
            .collect();
        assert!(
            !near_point.is_empty(),
            "position {index}: no {colour:?} near x {x} in row {y} for {percent}%"
        );
        if (percent - 50).abs() >= 5 {
            let right = near_point.iter().all(|&hit| hit as f32 > middle);
            let left = near_point.iter().all(|&hit| (hit as f32) < middle);
            assert!(
                if percent > 50 { right } else { left },
                "position {index}: {percent}% drawn on the wrong side of 50%"
            );
        }
    }
}

#[test]
fn a_held_piece_shades_its_target_squares_by_the_win_chance() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open("brandub", "", 7);
    // The attacker on d6 moves along its row: a6, b6, c6, e6, f6 and g6.
    let from = 7 + 3;
    let targets = [7, 8, 9, 11, 12, 13];
    let corner = |index: usize| {
        let (x, y) = layout.square_origin(index);
        (x + 3, y + 3)
    };
    let before = driver.screenshot(window);
    let base: Vec<Rgb> = targets
        .iter()
        .map(|&index| {
            let (x, y) = corner(index);
            pixel(&before, x, y)
        })
        .collect();
    let (x, y) = layout.square_centre(from);
    driver.click(window, x, y);
    let mut shaded = Vec::new();
    wait_until("every target shaded, not all alike", WAIT, || {
        let shot = driver.screenshot(window);
        shaded = targets
            .iter()
            .map(|&index| {
                let (x, y) = corner(index);
                pixel(&shot, x, y)
            })
            .collect();
        let all = shaded
            .iter()
            .zip(&base)
            .all(|(now, was)| !near(*now, *was, 6));
        let differ = shaded.iter().any(|colour| !near(*colour, shaded[0], 2));
        all && differ
    });
    save_shot(&driver.screenshot(window), "heat-map");
    // Put down (a second click on it), the piece leaves its squares unshaded.
    driver.click(window, x, y);
    wait_until("the shading gone", WAIT, || {
        let shot = driver.screenshot(window);
        targets.iter().zip(&base).all(|(&index, was)| {
            let (x, y) = corner(index);
            near(pixel(&shot, x, y), *was, 1)
        })
    });
    driver.close(window);
    let output = program.finish(WAIT);
    assert!(output.status.success());
}

#[test]
fn the_analysis_pane_shows_several_lines_and_a_live_analysis_follows_the_game() {
    let _one = one_window();
    let (program, driver, window, layout, _home) = open("brandub", "", 7);
    driver.type_text(window, "a lines=3 d3\n");
    for text in ["Depth 3,", "attackers:", "1. ", "2. ", "3. "] {
        driver.wait_for_text(window, text, TEXT, PANEL_BACKGROUND);
    }
    assert!(!driver.shows_text(window, "4. ", TEXT, PANEL_BACKGROUND));
    save_shot(&driver.screenshot(window), "analysis-pane");

    // A live analysis: its pane (the last one's lines gone) deepens by itself, and its
    // arrow shows the best move so far.
    driver.type_text(window, "live\n");
    let panel = layout.panel.expect("the move list beside the board");
    let heading = |driver: &Driver| {
        let shot = driver.screenshot(window);
        let rows = layout.metrics.line_height() + 6;
        image::imageops::crop_imm(&shot, panel.x, panel.y, panel.width, rows).to_image()
    };
    wait_until("the live analysis's pane", WAIT, || {
        driver.shows_text(window, "Depth ", TEXT, PANEL_BACKGROUND)
            && !driver.shows_text(window, "2. ", TEXT, PANEL_BACKGROUND)
    });
    let first = heading(&driver);
    wait_until("a deeper depth in the heading", WAIT, || {
        heading(&driver) != first
    });
    let arrow = |driver: &Driver| {
        let shot = driver.screenshot(window);
        let size = layout.square * 7;
        (layout.board_y..layout.board_y + size).any(|y| {
            (layout.board_x..layout.board_x + size).any(|x| near(pixel(&shot, x, y), BEST_MOVE, 8))
        })
    };
    wait_until("the arrow of the live analysis", WAIT, || arrow(&driver));
    // A move: the analysis goes on in the new position, the defenders' to move.
    driver.type_text(window, "m 3 1 1 1\n");
    wait_until("the live analysis of the new position", WAIT, || {
        driver.shows_text(window, "defenders:", TEXT, PANEL_BACKGROUND) && arrow(&driver)
    });
    save_shot(&driver.screenshot(window), "live-analysis");
    // Escape stops it: the best move so far is said.
    driver.type_text(window, "\x1b");
    driver.wait_for_text(
        window,
        "Best move: m ",
        TEXT,
        uicx::x11::render::MESSAGE_BACKGROUND,
    );
    driver.close(window);
    let output = program.finish(WAIT);
    assert!(output.status.success());
}
