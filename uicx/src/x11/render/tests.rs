use super::*;
use image::imageops::FilterType;
use layout::PANEL_UNDER_LINES;
use std::time::Duration;
use text::{fit_hint, fit_line, wrap_items};

#[test]
fn a_long_move_list_entry_goes_on_whole_on_the_next_lines() {
    let moves = ["e6-e4-c4xe5xd4".to_owned(), "a1-a2".to_owned()];
    let rows = list_rows(&moves, (PANEL_COLUMNS - LABEL_COLUMNS) as usize);
    assert_eq!(
        rows,
        [
            (Some(0), "e6-e4-c4xe5".to_owned()),
            (None, "xd4".to_owned()),
            (Some(1), "a1-a2".to_owned()),
        ]
    );
    let rows = list_rows(&moves[..1], 4);
    let joined: String = rows.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(joined, moves[0]);
    assert!(rows.iter().all(|(_, text)| text.chars().count() <= 4));
}
use crate::x11::theme;
use std::path::PathBuf;

/// A 7x7 board with a frame of square type 2, corners of type 4, a centre of type 8,
/// attackers (bit 1, player 1) on the edges and defenders (bit 2) and a king (bit 4)
/// of player 0 in the middle.
fn view() -> BoardView {
    let (width, height) = (7u8, 7u8);
    let count = usize::from(width) * usize::from(height);
    let mut squares = vec![1u8; count];
    let mut pieces = vec![0u8; count];
    let mut owners = vec![0u8; count];
    for corner in [0, 6, 42, 48] {
        squares[corner] = 4;
    }
    squares[24] = 8;
    squares[1] = 2;
    for attacker in [3, 21, 27, 45] {
        pieces[attacker] = 1;
        owners[attacker] = 1;
    }
    for defender in [17, 23, 25, 31] {
        pieces[defender] = 2;
    }
    pieces[24] = 4;
    BoardView {
        width,
        height,
        squares,
        pieces,
        owners,
        last_move: Some((10, 3)),
        side_to_move: 0,
        status: "White to move".to_owned(),
        ..BoardView::default()
    }
}

fn pixel(frame: &Frame, x: u32, y: u32) -> Rgb {
    let pixel = frame.image.get_pixel(x, y);
    [pixel[0], pixel[1], pixel[2]]
}

fn near(a: Rgb, b: Rgb, tolerance: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tolerance)
}

fn region_mean(image: &RgbaImage, x: u32, y: u32, width: u32, height: u32) -> Rgb {
    let mut sums = [0u64; 3];
    let mut count = 0u64;
    for row in y..(y + height).min(image.height()) {
        for column in x..(x + width).min(image.width()) {
            let pixel = image.get_pixel(column, row);
            for channel in 0..3 {
                sums[channel] += u64::from(pixel[channel]);
            }
            count += 1;
        }
    }
    sums.map(|sum| (sum / count.max(1)) as u8)
}

/// The mean colour a square should have: its image (or fallback tile) at the theme's
/// own square size with the piece image centred on it, before any scaling.
fn expected_cell(
    theme: &Theme,
    square_bit: u8,
    light: bool,
    piece: Option<(u8, u8, bool)>,
    side: u32,
) -> Rgb {
    let native = theme.native_square_side().unwrap_or(side);
    let mut cell = match theme.squares.get(&square_bit) {
        Some(image) => image.clone(),
        None => fallback_square(
            FALLBACK_SQUARES[square_bit.trailing_zeros() as usize],
            light,
            native,
        ),
    };
    if let Some((bit, owner, marked)) = piece {
        let image = match theme.pieces.get(&bit) {
            Some(image) if theme.native_square_side().is_some() => image.clone(),
            Some(image) => {
                let largest = image.width().max(image.height()) as f32;
                let factor = native as f32 * 0.75 / largest;
                let (w, h) = (
                    (image.width() as f32 * factor) as u32,
                    (image.height() as f32 * factor) as u32,
                );
                imageops::resize(image, w.max(1), h.max(1), FilterType::Triangle)
            }
            None => fallback_piece(bit, owner, marked, native),
        };
        let x = (cell.width().saturating_sub(image.width()) / 2) as i64;
        let y = (cell.height().saturating_sub(image.height()) / 2) as i64;
        imageops::overlay(&mut cell, &image, x, y);
    }
    region_mean(&cell, 0, 0, cell.width(), cell.height())
}

fn render(
    renderer: &mut Renderer,
    view: &BoardView,
    selected: Option<usize>,
    targets: &[usize],
    size: (u32, u32),
) -> Frame {
    let scene = Scene {
        selected,
        targets,
        typed: Some("m d7"),
        ..Scene::of(view)
    };
    renderer.render(&scene, size.0, size.1, TextMetrics::default())
}

fn check_theme(theme: &Theme) {
    let view = view();
    let mut renderer = Renderer::new(theme.clone());
    for size in [(200, 260), (420, 500), (800, 800), (1000, 700)] {
        let frame = render(&mut renderer, &view, Some(17), &[10, 16], size);
        let layout = frame.layout;
        assert_eq!(frame.image.dimensions(), size);
        assert!(layout.square * 7 <= size.0 && layout.square * 7 <= size.1);
        // The board uses most of the smaller free dimension.
        assert!(
            layout.square * 7 * 10 >= (size.0.min(layout.status_top)) * 6,
            "{size:?}: {layout:?}"
        );
        // Squares and pieces: the mean colour of each drawn square matches the theme's
        // images (or the fallback graphics) composited at their own size.
        let cells = [
            (8usize, 1u8, None),
            (1, 2, None),
            (0, 4, None),
            (48, 4, None),
            (21, 1, Some(1u8)),
            (23, 1, Some(2)),
            (24, 8, Some(4)),
        ];
        for (index, square_bit, piece_bit) in cells {
            let (x, y) = layout.square_origin(index);
            let got = region_mean(&frame.image, x, y, layout.square, layout.square);
            let light = (index % 7 + index / 7) % 2 == 0;
            let piece = piece_bit.map(|bit| (bit, view.owners[index], bit == 4));
            let want = expected_cell(theme, square_bit, light, piece, layout.square);
            assert!(
                near(got, want, 14),
                "{size:?} square {index}: {got:?} vs {want:?}"
            );
            if let (Some(bit), false) = (
                piece_bit,
                theme.pieces.contains_key(&piece_bit.unwrap_or(0)),
            ) {
                // The middle of a fallback piece shows its owner or its type's mark.
                let owner = usize::from(view.owners[index]);
                let centre = pixel(&frame, x + layout.square / 2, y + layout.square / 2);
                // The king (bit 4, alone) is marked; the others are plain.
                let mark = if bit == 4 {
                    FALLBACK_PIECE_MARKS[2]
                } else {
                    FALLBACK_PIECE_FILL[owner]
                };
                assert!(
                    near(centre, mark, 8),
                    "{size:?} fallback piece {bit}: {centre:?} vs {mark:?}"
                );
            }
        }
        // The selection frame, the target dots and the last move.
        let (x, y) = layout.square_origin(17);
        assert_eq!(pixel(&frame, x + 1, y + layout.square / 2), SELECTION);
        for target in [10, 16] {
            let (x, y) = layout.square_centre(target);
            assert!(near(pixel(&frame, x, y), TARGET, 30), "target {target}");
        }
        let (x, y) = layout.square_origin(3);
        assert_eq!(pixel(&frame, x, y + layout.square / 2), LAST_MOVE);
        // A square that is neither selected nor a target has no mark.
        let (x, y) = layout.square_centre(9);
        assert!(!near(pixel(&frame, x, y), TARGET, 30));
        // Hit-testing agrees with drawing.
        let (x, y) = layout.square_centre(30);
        assert_eq!(layout.square_at(x as i32, y as i32), Some(30));
        assert_eq!(layout.square_at(0, 0), None);
    }
}

use crate::fixtures::{own_images, samples};

#[test]
fn fallback_graphics_are_drawn() {
    check_theme(&Theme::fallback());
    // Players differ, and so do types: the king is marked.
    let a = fallback_piece(1, 0, false, 40);
    let b = fallback_piece(1, 1, false, 40);
    let king = fallback_piece(4, 0, true, 40);
    assert_ne!(a.get_pixel(20, 20), b.get_pixel(20, 20));
    assert_ne!(a.get_pixel(20, 20), king.get_pixel(20, 20));
    assert_eq!(a.get_pixel(0, 0)[3], 0, "outside the disc is transparent");
}

#[test]
fn own_images_are_drawn() {
    let reader = |relative: &str| -> Option<Vec<u8>> {
        if relative == "xlib/themes" {
            return Some(b"own".to_vec());
        }
        std::fs::read(own_images().join(relative.strip_prefix("xlib/own/")?)).ok()
    };
    let loaded = theme::load(&reader, None, None);
    assert_eq!(loaded.warning, None);
    assert_eq!(loaded.theme.squares.len(), 2);
    check_theme(&loaded.theme);
}

#[test]
fn sample_sets_are_drawn() {
    let Some(samples) = samples() else { return };
    for set in ["20", "30", "40", "50"] {
        let reader = |relative: &str| -> Option<Vec<u8>> {
            if relative == "xlib/themes" {
                return Some(set.as_bytes().to_vec());
            }
            std::fs::read(samples.join(relative.strip_prefix("xlib/")?)).ok()
        };
        let loaded = theme::load(&reader, None, None);
        assert_eq!(loaded.warning, None);
        assert!(!loaded.theme.squares.is_empty());
        check_theme(&loaded.theme);
    }
}

#[test]
fn partial_theme_mixes_images_and_fallback() {
    let reader = |relative: &str| -> Option<Vec<u8>> {
        match relative {
            "xlib/themes" => Some(b"half".to_vec()),
            "xlib/half/s001.xpm" => std::fs::read(own_images().join("s001.xpm")).ok(),
            "xlib/half/p004.xpm" => std::fs::read(own_images().join("p004.xpm")).ok(),
            _ => None,
        }
    };
    let loaded = theme::load(&reader, None, None);
    assert_eq!(loaded.theme.squares.len(), 1);
    check_theme(&loaded.theme);
}

#[test]
fn shipped_themes_are_drawn() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data");
    let reader = |relative: &str| std::fs::read(data.join(relative)).ok();
    let listed = reader("xlib/themes")
        .map(|bytes| theme::parse_theme_list(&bytes))
        .unwrap_or_default();
    for name in listed {
        let loaded = theme::load(&reader, Some(&name), None);
        assert_eq!(loaded.warning, None, "shipped theme {name}");
        assert_eq!(loaded.theme.name, name);
        if name != theme::NULL_THEME {
            assert!(
                !loaded.theme.squares.is_empty() && !loaded.theme.pieces.is_empty(),
                "{name}"
            );
        }
        check_theme(&loaded.theme);
    }
}

#[test]
fn output_in_two_columns_wraps_under_its_first_column() {
    let line = "f                      make the computer move now";
    assert_eq!(wrap_output(line, 60), [line]);
    assert_eq!(wrap_output(line, 30), ["f", "  make the computer move now"]);
    assert_eq!(
        wrap_output(line, 20),
        ["f", "  make the computer", "  move now"]
    );
    // Other lines wrap as always, each of their own lines.
    assert_eq!(
        wrap_output("one two three\nfour", 9),
        ["one two", "three", "four"]
    );
}

#[test]
fn a_list_wraps_between_its_items() {
    let how = "n: new game   u: take back a move   q: quit";
    assert_eq!(wrap_items(how, 50), [how]);
    assert_eq!(
        wrap_items(how, 19),
        ["n: new game", "u: take back a move", "q: quit"]
    );
    assert_eq!(
        wrap_items(how, 33),
        ["n: new game   u: take back a move", "q: quit"]
    );
    // An item longer than a line is wrapped in itself.
    assert_eq!(
        wrap_items(how, 12),
        ["n: new game", "u: take back", "a move", "q: quit"]
    );
}

#[test]
fn a_long_status_is_cut_after_a_word() {
    let status = "Player 0 wins: player 1 has no legal move.";
    assert_eq!(fit_line(status, 50), status);
    assert_eq!(fit_line(status, 38), "Player 0 wins: player 1 has no...");
    assert_eq!(fit_line("Unbreakable", 8), "Unbre...");
}

#[test]
fn the_hint_keeps_its_last_part_in_a_narrow_window() {
    let hint = "type a command and press Enter; h: help";
    assert_eq!(fit_hint(hint, 40), hint);
    assert_eq!(fit_hint(hint, 30), "h: help");
    assert_eq!(fit_hint(hint, 4), "h: h");
}

#[test]
fn a_label_is_fitted_into_its_half() {
    let forms = ["Attackers (player 0): ann (you)", "Attackers: ann (you)"];
    let whole = vec!["Attackers (player 0): ann (you)".to_owned()];
    // Room for all of it and the clock on one line.
    assert_eq!(fit_label(&forms, 40, 1, 5), (whole.clone(), 0));
    // The whole label on its line, the clock below it.
    assert_eq!(fit_label(&forms, 33, 2, 5), (whole, 1));
    // Broken after its `: `, the clock beside the shorter line.
    assert_eq!(
        fit_label(&forms, 25, 2, 5),
        (
            vec!["Attackers (player 0)".to_owned(), "ann (you)".to_owned()],
            0
        )
    );
    // The short form, on one line or two.
    assert_eq!(
        fit_label(&forms, 25, 1, 5),
        (vec!["Attackers: ann (you)".to_owned()], 0)
    );
    assert_eq!(
        fit_label(&forms, 15, 2, 5),
        (vec!["Attackers".to_owned(), "ann (you)".to_owned()], 0)
    );
    // Nothing fits: the short form cut, never longer than the room.
    let (cut, _) = fit_label(&forms, 8, 2, 5);
    assert_eq!(cut.len(), 2);
    assert!(cut.iter().all(|line| line.chars().count() <= 3), "{cut:?}");
    // Without a short form, or a clock.
    assert_eq!(
        fit_label(&["Player 0: human", ""], 15, 1, 0),
        (vec!["Player 0: human".to_owned()], 0)
    );
}

#[test]
fn clocks_show_whole_seconds_and_change_once_a_second() {
    assert_eq!(clock_text(Duration::from_millis(298_900)), "4:58");
    assert_eq!(clock_text(Duration::from_secs(59)), "0:59");
    assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
    assert_eq!(clock_text(Duration::ZERO), "0:00");
    assert_eq!(clock_text(Duration::from_secs(216_000)), "2d 12:00:00");
    assert_eq!(
        clock_change(Duration::from_millis(298_900)),
        Duration::from_millis(900)
    );
    assert_eq!(clock_change(Duration::from_secs(5)), Duration::from_secs(1));
    assert_eq!(clock_change(Duration::ZERO), Duration::MAX);
    // Each side's clock stands at the right end of its half of the players' strip.
    let mut view = view();
    view.clocks = Some([Duration::from_secs(300), Duration::from_millis(61_500)]);
    let frame = render(
        &mut Renderer::new(Theme::fallback()),
        &view,
        None,
        &[],
        (600, 480),
    );
    let layout = frame.layout;
    let clock = |text: &str| {
        frame
            .texts
            .iter()
            .find(|item| item.text == text)
            .unwrap_or_else(|| panic!("{text} in {:?}", frame.texts))
            .clone()
    };
    let (first, second) = (clock(" 5:00"), clock(" 1:01"));
    let end = |item: &TextItem| item.x as u32 + 5 * layout.metrics.cell_width;
    assert!(end(&first) <= 300 && end(&first) > 280, "{first:?}");
    assert!(end(&second) <= 600 && end(&second) > 580, "{second:?}");
    assert!(first.y as u32 > layout.sides_top && (first.y as u32) < layout.status_top);
}

#[test]
fn the_move_list_goes_beside_the_board_under_it_or_nowhere() {
    let metrics = TextMetrics::default();
    let wide = Layout::new(11, 11, 900, 700, metrics);
    let beside = wide.panel.expect("room beside the board");
    assert!(beside.x >= wide.board_x + 11 * wide.square, "{wide:?}");
    assert_eq!((beside.y, beside.height), (wide.board_y, 11 * wide.square));
    // Too narrow for the list beside, tall enough for it under the column names.
    let tall = Layout::new(11, 11, 420, 760, metrics);
    let under = tall.panel.expect("room under the board");
    let names_bottom = tall.board_y + 11 * tall.square + metrics.line_height();
    assert!(under.y > names_bottom, "{tall:?}");
    assert!(under.y + under.height <= tall.sides_top, "{tall:?}");
    assert!(under.height >= PANEL_UNDER_LINES * metrics.line_height());
    assert!(under.x + under.width <= 420);
    // The board is as large as the window's width allows: the list costs it nothing.
    let left = 2 * metrics.cell_width + 2 * PAD;
    assert_eq!(tall.square, (420 - left - PAD) / 11);
    // The smallest window is short: the list fits beside its board.
    let smallest = Layout::new(11, 11, 360, 360, metrics);
    assert!(
        smallest
            .panel
            .is_some_and(|panel| panel.y == smallest.board_y)
    );
    // A window small both ways has room for neither.
    assert_eq!(Layout::new(11, 11, 200, 260, metrics).panel, None);
}

#[test]
fn the_move_list_under_the_board_shows_the_last_moves_in_columns() {
    let mut view = view();
    view.moves = (1..=200).map(|n| format!("m{n}")).collect();
    let frame = render(
        &mut Renderer::new(Theme::fallback()),
        &view,
        None,
        &[],
        (420, 900),
    );
    let panel = frame.layout.panel.expect("room under the board");
    assert!(panel.y > frame.layout.board_y + 7 * frame.layout.square);
    let listed: Vec<&TextItem> = frame
        .texts
        .iter()
        .filter(|item| item.text.starts_with('m') && item.text[1..].parse::<u32>().is_ok())
        .collect();
    let texts: Vec<&str> = listed.iter().map(|item| item.text.as_str()).collect();
    assert!(
        texts.contains(&"m200"),
        "the last move is in view: {texts:?}"
    );
    assert!(!texts.contains(&"m1"), "the first is not: {texts:?}");
    let columns: std::collections::BTreeSet<i32> = listed.iter().map(|item| item.x).collect();
    assert!(columns.len() >= 2, "{columns:?}");
    for item in &listed {
        let (x, y) = (item.x as u32, item.y as u32);
        assert!(
            x >= panel.x && x < panel.x + panel.width,
            "{item:?} in {panel:?}"
        );
        assert!(
            y > panel.y && y < panel.y + panel.height,
            "{item:?} in {panel:?}"
        );
    }
    // The panel's background is drawn where the list is.
    assert_eq!(pixel(&frame, panel.x + 1, panel.y + 1), PANEL_BACKGROUND);
}

#[test]
fn status_terminal_and_coordinates_are_laid_out() {
    let mut view = view();
    view.thinking = Some(0.5);
    let frame = render(
        &mut Renderer::new(Theme::fallback()),
        &view,
        None,
        &[],
        (400, 480),
    );
    let layout = frame.layout;
    let texts: Vec<&str> = frame.texts.iter().map(|item| item.text.as_str()).collect();
    for expected in ["a", "g", "1", "7", "White to move", "> m d7_"] {
        assert!(texts.contains(&expected), "{expected} in {texts:?}");
    }
    // Column letters run from the left, row numbers from the bottom.
    let a = frame.texts.iter().find(|item| item.text == "a").expect("a");
    let g = frame.texts.iter().find(|item| item.text == "g").expect("g");
    assert!(a.x < g.x);
    let one = frame.texts.iter().find(|item| item.text == "1").expect("1");
    let seven = frame.texts.iter().find(|item| item.text == "7").expect("7");
    assert!(one.y > seven.y);
    let terminal = frame
        .texts
        .iter()
        .find(|item| item.text == "> m d7_")
        .expect("terminal");
    assert!(terminal.y as u32 > layout.terminal_top && (terminal.y as u32) < layout.window_height);
    // Half the progress bar is filled.
    let bar_y = layout.messages_top - 3;
    assert_eq!(pixel(&frame, 10, bar_y), PROGRESS);
    assert_eq!(pixel(&frame, 390, bar_y), STATUS_BACKGROUND);
    view.thinking = None;
    let idle = render(
        &mut Renderer::new(Theme::fallback()),
        &view,
        None,
        &[],
        (400, 480),
    );
    assert_eq!(pixel(&idle, 10, bar_y), STATUS_BACKGROUND);
}

#[test]
fn crowded_board_names_are_thinned_and_never_touch() {
    let count = 31 * 31;
    let view = BoardView {
        width: 31,
        height: 31,
        squares: vec![1; count],
        pieces: vec![0; count],
        owners: vec![0; count],
        column_labels: (0..31).map(hnefatafl_core::column_name).collect(),
        ..BoardView::default()
    };
    let metrics = TextMetrics::default();
    let mut renderer = Renderer::new(Theme::fallback());
    let mut seen = [false; 2];
    for size in [(420, 520), (600, 700), (900, 1000), (2400, 2000)] {
        let frame = render(&mut renderer, &view, None, &[], size);
        let layout = frame.layout;
        // Two letters (`ae`) of 7 pixels and 4 of air fit a square from 18 pixels on.
        let thinned = layout.square < 18;
        seen[usize::from(thinned)] = true;
        let below = (layout.board_y + 31 * layout.square) as i32;
        let width =
            |item: &TextItem| (item.text.chars().count() as u32 * metrics.cell_width) as i32;
        let mut columns: Vec<&TextItem> = frame
            .texts
            .iter()
            .filter(|item| item.y > below && item.y < layout.sides_top as i32)
            .collect();
        columns.sort_by_key(|item| item.x);
        let mut rows: Vec<&TextItem> = frame
            .texts
            .iter()
            .filter(|item| item.x < layout.board_x as i32 && item.y <= below)
            .collect();
        rows.sort_by_key(|item| item.y);
        assert_eq!(columns.first().map(|item| item.text.as_str()), Some("a"));
        assert_eq!(rows.last().map(|item| item.text.as_str()), Some("1"));
        assert_eq!(
            columns.len() < 31,
            thinned,
            "{size:?}: {} columns",
            columns.len()
        );
        for pair in columns.windows(2) {
            assert!(pair[0].x + width(pair[0]) < pair[1].x, "{size:?}: {pair:?}");
        }
        for pair in rows.windows(2) {
            assert!(
                pair[0].y + metrics.line_height() as i32 <= pair[1].y,
                "{size:?}: {pair:?}"
            );
        }
        if !thinned {
            assert!(columns.iter().any(|item| item.text == "ae"));
        }
    }
    assert_eq!(
        seen,
        [true, true],
        "both crowded and roomy boards were drawn"
    );
}

#[test]
fn tiny_windows_and_odd_views_do_not_panic() {
    let mut renderer = Renderer::new(Theme::fallback());
    let view = view();
    for size in [(1, 1), (3, 90), (90, 3), (40, 40)] {
        let frame = render(&mut renderer, &view, Some(200), &[999], size);
        assert_eq!(frame.image.dimensions(), size);
    }
    let empty = BoardView::default();
    render(&mut renderer, &empty, None, &[], (100, 100));
    let short = BoardView {
        width: 31,
        height: 31,
        ..view
    };
    let frame = render(&mut renderer, &short, None, &[], (300, 300));
    assert!(!frame.texts.iter().any(|item| item.text == "27"));
}
