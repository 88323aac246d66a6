//! The drawing: the strips below the board, the output, the game-end banner, and the
//! pixel work beneath them (lines, arrows, discs, frames, blending, scaling images and the
//! fallback graphics of squares and pieces).

use image::imageops::{self, FilterType};
use image::{Rgba, RgbaImage};

use super::layout::{Layout, MESSAGE_ROWS, PAD};
use super::palette::*;
use super::text::{fit_hint, fit_line, text_item, wrap, wrap_items, wrap_output};
use super::{Scene, TextItem};
use crate::x11::host::BoardView;

/// The status strip (with the progress bar) and the terminal strip with its prompt.
pub(super) fn strips(
    scene: &Scene<'_>,
    layout: &Layout,
    image: &mut RgbaImage,
    texts: &mut Vec<TextItem>,
) {
    let width = layout.window_width;
    let metrics = layout.metrics;
    fill_rect(
        image,
        0,
        layout.status_top,
        width,
        layout.messages_top - layout.status_top,
        STATUS_BACKGROUND,
    );
    if let Some(fraction) = scene.view.thinking {
        let bar_height = (PAD - 2).max(2);
        let bar_top = layout.messages_top.saturating_sub(bar_height + 1);
        let filled = ((width as f32) * fraction.clamp(0.0, 1.0)).round() as u32;
        fill_rect(image, 0, bar_top, filled, bar_height, PROGRESS);
    }
    fill_rect(
        image,
        0,
        layout.messages_top,
        width,
        layout.terminal_top - layout.messages_top,
        MESSAGE_BACKGROUND,
    );
    fill_rect(
        image,
        0,
        layout.terminal_top,
        width,
        layout.window_height - layout.terminal_top,
        TERMINAL_BACKGROUND,
    );
    let status_baseline = layout.status_top + PAD - 1 + metrics.ascent;
    texts.push(text_item(
        PAD,
        status_baseline,
        fit_line(&scene.view.status, layout.text_columns()),
        STATUS_BACKGROUND,
    ));
    let terminal_baseline = layout.terminal_top + PAD + metrics.ascent;
    match scene.typed {
        Some(typed) => {
            // A line longer than the window shows its end, where the typing is.
            let room = layout.text_columns().saturating_sub(3);
            let skip = typed.chars().count().saturating_sub(room);
            let shown: String = typed.chars().skip(skip).collect();
            texts.push(text_item(
                PAD,
                terminal_baseline,
                format!("> {shown}_"),
                TERMINAL_BACKGROUND,
            ));
        }
        None => {
            texts.push(text_item(
                PAD,
                terminal_baseline,
                "> _".to_owned(),
                TERMINAL_BACKGROUND,
            ));
            texts.push(TextItem {
                foreground: DIM_TEXT,
                ..text_item(
                    PAD + 4 * metrics.cell_width,
                    terminal_baseline,
                    fit_hint(&scene.view.hint, layout.text_columns().saturating_sub(4)),
                    TERMINAL_BACKGROUND,
                )
            });
        }
    }
}

/// The output of the last command: in the message area, or over the board when it is
/// longer and expanded.
pub(super) fn messages(
    scene: &Scene<'_>,
    layout: &Layout,
    image: &mut RgbaImage,
    texts: &mut Vec<TextItem>,
) {
    let line = layout.metrics.line_height().max(1);
    let lines: Vec<String> = scene
        .messages
        .iter()
        .flat_map(|message| wrap_output(message, layout.text_columns()))
        .collect();
    let rows = MESSAGE_ROWS as usize;
    // The last rows shown that are the note that more follows, dimmed.
    let mut note_rows = 0;
    let (top, shown, background) = if scene.expanded && lines.len() > rows {
        // Grow upwards over the board, at most to the top of the window.
        let room = (layout.terminal_top.saturating_sub(PAD) / line) as usize;
        let count = (lines.len() - scene.scroll.min(lines.len()))
            .min(room)
            .max(1);
        let top = layout
            .terminal_top
            .saturating_sub(count as u32 * line + PAD);
        fill_rect(
            image,
            0,
            top,
            layout.window_width,
            layout.terminal_top - top,
            MESSAGE_BACKGROUND,
        );
        fill_rect(image, 0, top, layout.window_width, 1, DIM_TEXT);
        let first = scene.scroll.min(lines.len().saturating_sub(count));
        // What the output covers is not written over it.
        texts.retain(|item| item.y < top as i32);
        let mut shown = lines[first..first + count].to_vec();
        if first + count < lines.len() {
            note_rows = more_note(&scene.view.more, layout.text_columns(), &mut shown);
        }
        (top, shown, MESSAGE_BACKGROUND)
    } else {
        // The last lines of the output, in the area's rows.
        let first = lines.len().saturating_sub(rows);
        (
            layout.messages_top,
            lines[first..].to_vec(),
            MESSAGE_BACKGROUND,
        )
    };
    let note_from = shown.len() - note_rows;
    for (row, text) in shown.iter().enumerate() {
        let baseline = top + PAD / 2 + row as u32 * line + layout.metrics.ascent;
        let mut item = text_item(PAD, baseline, text.clone(), background);
        if row >= note_from {
            item.foreground = DIM_TEXT;
        }
        texts.push(item);
    }
}

/// Puts the note that more follows (and how to close the text) in the last rows shown,
/// when they leave a row of the output above it; returns how many rows it takes.
fn more_note(note: &str, columns: usize, shown: &mut Vec<String>) -> usize {
    let note = wrap(note, columns);
    if note.is_empty() || note.len() >= shown.len() {
        return 0;
    }
    let rows = note.len();
    shown.truncate(shown.len() - rows);
    shown.extend(note);
    rows
}

/// The game-end banner over the middle of the board: who won and why, and how to go on.
pub(super) fn banner(
    status: &str,
    how: &str,
    layout: &Layout,
    image: &mut RgbaImage,
    texts: &mut Vec<TextItem>,
) {
    let metrics = layout.metrics;
    let line = metrics.line_height();
    let board_width = layout.columns * layout.square;
    let board_height = layout.rows * layout.square;
    let columns = (board_width.saturating_sub(4 * PAD) / metrics.cell_width.max(1)).max(1);
    let mut lines = wrap(status, columns as usize);
    lines.extend(wrap_items(how, columns as usize));
    let longest = lines
        .iter()
        .map(|text| text.chars().count() as u32)
        .max()
        .unwrap_or(0);
    let width = (longest * metrics.cell_width + 4 * PAD).min(board_width);
    let height = (lines.len() as u32 * line + 4 * PAD).min(board_height.max(1));
    let left = layout.board_x + board_width.saturating_sub(width) / 2;
    let top = layout.board_y + board_height.saturating_sub(height) / 2;
    fill_rect(image, left, top, width, height, BANNER_FRAME);
    fill_rect(
        image,
        left + 2,
        top + 2,
        width.saturating_sub(4),
        height.saturating_sub(4),
        BANNER_BACKGROUND,
    );
    for (row, text) in lines.into_iter().enumerate() {
        let baseline = top + 2 * PAD + row as u32 * line + metrics.ascent;
        texts.push(text_item(left + 2 * PAD, baseline, text, BANNER_BACKGROUND));
    }
}

/// An arrow from one square's centre to another's.
pub(super) fn draw_arrow(image: &mut RgbaImage, layout: &Layout, from: usize, to: usize) {
    let (x1, y1) = layout.square_centre(from);
    let (x2, y2) = layout.square_centre(to);
    let (x1, y1, x2, y2) = (x1 as f32, y1 as f32, x2 as f32, y2 as f32);
    let length = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
    let (ux, uy) = ((x2 - x1) / length, (y2 - y1) / length);
    let width = (layout.square as f32 / 9.0).max(2.0);
    let head = (layout.square as f32 * 0.4).max(4.0);
    let base = (x2 - ux * head, y2 - uy * head);
    draw_line(image, (x1, y1), base, width, BEST_MOVE, 200);
    let (px, py) = (-uy * head * 0.5, ux * head * 0.5);
    draw_triangle(
        image,
        [
            (x2, y2),
            (base.0 + px, base.1 + py),
            (base.0 - px, base.1 - py),
        ],
        BEST_MOVE,
        255,
    );
}

/// Blends a line of the given width between two points.
pub(super) fn draw_line(
    image: &mut RgbaImage,
    from: (f32, f32),
    to: (f32, f32),
    width: f32,
    colour: Rgb,
    alpha: u8,
) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length_squared = (dx * dx + dy * dy).max(f32::EPSILON);
    let half = width / 2.0;
    let left = (from.0.min(to.0) - half - 1.0).max(0.0) as u32;
    let top = (from.1.min(to.1) - half - 1.0).max(0.0) as u32;
    let right = ((from.0.max(to.0) + half + 2.0) as u32).min(image.width());
    let bottom = ((from.1.max(to.1) + half + 2.0) as u32).min(image.height());
    for y in top..bottom {
        for x in left..right {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let t = (((px - from.0) * dx + (py - from.1) * dy) / length_squared).clamp(0.0, 1.0);
            let (cx, cy) = (from.0 + t * dx, from.1 + t * dy);
            let distance = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
            let coverage = (half - distance + 0.5).clamp(0.0, 1.0);
            blend(image, x, y, colour, coverage * f32::from(alpha) / 255.0);
        }
    }
}

/// Blends a filled triangle.
fn draw_triangle(image: &mut RgbaImage, corners: [(f32, f32); 3], colour: Rgb, alpha: u8) {
    let xs = corners.map(|corner| corner.0);
    let ys = corners.map(|corner| corner.1);
    let left = xs.iter().copied().fold(f32::MAX, f32::min).max(0.0) as u32;
    let top = ys.iter().copied().fold(f32::MAX, f32::min).max(0.0) as u32;
    let right = (xs.iter().copied().fold(0.0, f32::max) as u32 + 1).min(image.width());
    let bottom = (ys.iter().copied().fold(0.0, f32::max) as u32 + 1).min(image.height());
    let edge = |a: (f32, f32), b: (f32, f32), p: (f32, f32)| {
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    };
    let [a, b, c] = corners;
    for y in top..bottom {
        for x in left..right {
            let p = (x as f32 + 0.5, y as f32 + 0.5);
            let sides = [edge(a, b, p), edge(b, c, p), edge(c, a, p)];
            let inside =
                sides.iter().all(|&side| side >= 0.0) || sides.iter().all(|&side| side <= 0.0);
            if inside {
                blend(image, x, y, colour, f32::from(alpha) / 255.0);
            }
        }
    }
}

/// Blends `colour` over one pixel with the given coverage (0..=1).
pub(super) fn blend(image: &mut RgbaImage, x: u32, y: u32, colour: Rgb, coverage: f32) {
    if coverage <= 0.0 {
        return;
    }
    let pixel = image.get_pixel_mut(x, y);
    for channel in 0..3 {
        let under = f32::from(pixel[channel]);
        pixel[channel] =
            (f32::from(colour[channel]) * coverage + under * (1.0 - coverage)).round() as u8;
    }
}

pub(super) fn opaque(colour: Rgb) -> Rgba<u8> {
    Rgba([colour[0], colour[1], colour[2], 255])
}

pub(super) fn fill_rect(
    image: &mut RgbaImage,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    colour: Rgb,
) {
    let right = (x + width).min(image.width());
    let bottom = (y + height).min(image.height());
    for row in y..bottom {
        for column in x..right {
            image.put_pixel(column, row, opaque(colour));
        }
    }
}

pub(super) fn frame_square(
    image: &mut RgbaImage,
    layout: &Layout,
    index: usize,
    thickness: u32,
    colour: Rgb,
) {
    let (x, y) = layout.square_origin(index);
    let side = layout.square;
    let thickness = thickness.min(side / 2).max(1);
    fill_rect(image, x, y, side, thickness, colour);
    fill_rect(image, x, y + side - thickness, side, thickness, colour);
    fill_rect(image, x, y, thickness, side, colour);
    fill_rect(image, x + side - thickness, y, thickness, side, colour);
}

/// Blends an anti-aliased disc of `colour` (at most `alpha` opaque) into the image.
pub(super) fn draw_disc(
    image: &mut RgbaImage,
    centre_x: f32,
    centre_y: f32,
    radius: f32,
    colour: Rgb,
    alpha: u8,
) {
    let left = (centre_x - radius - 1.0).max(0.0) as u32;
    let top = (centre_y - radius - 1.0).max(0.0) as u32;
    let right = ((centre_x + radius + 1.0) as u32).min(image.width());
    let bottom = ((centre_y + radius + 1.0) as u32).min(image.height());
    for y in top..bottom {
        for x in left..right {
            let distance =
                ((x as f32 + 0.5 - centre_x).powi(2) + (y as f32 + 0.5 - centre_y).powi(2)).sqrt();
            let coverage = (radius - distance + 0.5).clamp(0.0, 1.0) * f32::from(alpha) / 255.0;
            if coverage <= 0.0 {
                continue;
            }
            let pixel = image.get_pixel_mut(x, y);
            let under_alpha = f32::from(pixel[3]) / 255.0;
            let out_alpha = coverage + under_alpha * (1.0 - coverage);
            for channel in 0..3 {
                let over = f32::from(colour[channel]) * coverage;
                let under = f32::from(pixel[channel]) * under_alpha * (1.0 - coverage);
                pixel[channel] = ((over + under) / out_alpha.max(f32::EPSILON)).round() as u8;
            }
            pixel[3] = (out_alpha * 255.0).round() as u8;
        }
    }
}

/// Scales an image with a good filter; colours are premultiplied by alpha while scaling so
/// that transparent pixels do not bleed a dark fringe into a piece's edge.
pub(super) fn scale(source: &RgbaImage, width: u32, height: u32) -> RgbaImage {
    if source.dimensions() == (width, height) {
        return source.clone();
    }
    let mut premultiplied = source.clone();
    for pixel in premultiplied.pixels_mut() {
        let alpha = u16::from(pixel[3]);
        for channel in 0..3 {
            pixel[channel] = ((u16::from(pixel[channel]) * alpha + 127) / 255) as u8;
        }
    }
    let mut scaled = imageops::resize(&premultiplied, width, height, FilterType::CatmullRom);
    for pixel in scaled.pixels_mut() {
        let alpha = u16::from(pixel[3]);
        for channel in 0..3 {
            let straight = (u16::from(pixel[channel]) * 255 + alpha / 2).checked_div(alpha);
            pixel[channel] = straight.map_or(0, |value| value.min(255) as u8);
        }
    }
    scaled
}

pub(super) fn fallback_square(base: Rgb, light: bool, side: u32) -> RgbaImage {
    let shade = |colour: Rgb, factor: f32| {
        colour.map(|channel| (f32::from(channel) * factor).min(255.0) as u8)
    };
    let fill = if light { base } else { shade(base, 0.88) };
    let edge = shade(base, 0.62);
    let mut tile = RgbaImage::from_pixel(side, side, opaque(fill));
    if side >= 4 {
        // A one-pixel darker edge at the right and bottom marks the grid.
        fill_rect(&mut tile, side - 1, 0, 1, side, edge);
        fill_rect(&mut tile, 0, side - 1, side, 1, edge);
    }
    tile
}

/// Each player's most numerous piece type on the board (ties to the lower bit; 0 when the
/// player has no piece).
pub(super) fn most_numerous_types(view: &BoardView) -> [u8; 2] {
    let mut counts = [[0usize; 8]; 2];
    for (&bit, &owner) in view.pieces.iter().zip(&view.owners) {
        if bit != 0 {
            counts[usize::from(owner.min(1))][bit.trailing_zeros() as usize] += 1;
        }
    }
    counts.map(|per_type| {
        let mut best = 0;
        for (index, &count) in per_type.iter().enumerate() {
            if count > per_type[best] {
                best = index;
            }
        }
        if per_type[best] == 0 { 0 } else { 1 << best }
    })
}

pub(super) fn fallback_piece(bit: u8, owner: u8, marked: bool, side: u32) -> RgbaImage {
    let owner = usize::from(owner.min(1));
    let mut piece = RgbaImage::new(side, side);
    let centre = side as f32 / 2.0;
    let radius = side as f32 * 0.40;
    let outline = (side as f32 / 24.0).max(1.0);
    draw_disc(
        &mut piece,
        centre,
        centre,
        radius,
        FALLBACK_PIECE_OUTLINE[owner],
        255,
    );
    draw_disc(
        &mut piece,
        centre,
        centre,
        radius - outline,
        FALLBACK_PIECE_FILL[owner],
        255,
    );
    if marked {
        let mark = FALLBACK_PIECE_MARKS[bit.trailing_zeros() as usize % 8];
        draw_disc(&mut piece, centre, centre, radius * 0.42, mark, 255);
    }
    piece
}
