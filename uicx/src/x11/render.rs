//! Drawing: a pure function from what the window shows to one RGBA frame.
//!
//! The frame holds everything but the glyphs: the board (theme images scaled to the square
//! size, or the fallback graphics), the marks, the move list, the strips below the board
//! (the players, the status with its progress bar, the messages and the terminal line) and
//! the game-end banner. The text is returned as [`TextItem`]s for the window to draw with
//! the server's fonts over the frame, so that any font the server has can be used.
//!
//! The work is in rooms of its own: `palette` (the colours), `layout` (where things go in
//! the window), `text` (wrapping and fitting the words) and `drawing` (the strips, the
//! banner and the pixel work); this file holds the scene, the frame and the [`Renderer`]
//! that puts the board together from them.

mod analysis;
mod drawing;
mod layout;
mod palette;
#[cfg(test)]
mod tests;
mod text;

use std::collections::HashMap;

use image::RgbaImage;
use image::imageops;

use super::host::BoardView;
use super::theme::Theme;
use drawing::{
    banner, draw_arrow, draw_disc, draw_line, fallback_piece, fallback_square, fill_rect,
    frame_square, messages, most_numerous_types, opaque, scale, strips,
};
use layout::{LABEL_COLUMNS, PAD, PANEL_COLUMNS, side_room};
use text::{fit_label, list_rows, text_item};

pub use analysis::{GraphArea, heat_colour};
pub use layout::{Layout, MESSAGE_ROWS, Panel, TextMetrics};
pub use palette::*;
pub use text::{clock_change, clock_text, wrap, wrap_output};

/// A piece being dragged: it is drawn under the pointer instead of on its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drag {
    /// The square it was picked up from.
    pub from: usize,
    /// The pointer, in window pixels.
    pub x: i32,
    /// The pointer, in window pixels.
    pub y: i32,
}

/// Everything the window shows at one moment.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The game as the host gives it.
    pub view: &'a BoardView,
    /// The selected square, if a piece is selected.
    pub selected: Option<usize>,
    /// The selected piece's legal targets.
    pub targets: &'a [usize],
    /// The line being typed at the prompt; `None` when nothing is typed (the prompt then
    /// shows the view's hint).
    pub typed: Option<&'a str>,
    /// The output of the last command, line by line.
    pub messages: &'a [String],
    /// Whether output longer than the message area is shown in full over the board.
    pub expanded: bool,
    /// The first wrapped message line shown when the output is expanded.
    pub scroll: usize,
    /// Whether the board is drawn turned by half a turn (row 1 at the top).
    pub flipped: bool,
    /// The piece being dragged, if any.
    pub drag: Option<Drag>,
}

impl<'a> Scene<'a> {
    /// A scene that shows the view alone: no selection, no output, nothing typed.
    pub fn of(view: &'a BoardView) -> Scene<'a> {
        Scene {
            view,
            selected: None,
            targets: &[],
            typed: None,
            messages: &[],
            expanded: false,
            scroll: 0,
            flipped: false,
            drag: None,
        }
    }
}

/// A piece of text for the window to draw, baseline at `(x, y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextItem {
    /// Left edge in pixels.
    pub x: i32,
    /// Baseline in pixels.
    pub y: i32,
    /// The text.
    pub text: String,
    /// Glyph colour.
    pub foreground: Rgb,
    /// Colour behind the glyphs (the strip it stands on).
    pub background: Rgb,
}

/// A rendered frame: the pixels, the text to draw over them and the layout used.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The composited picture, as large as the window.
    pub image: RgbaImage,
    /// Text to draw over the picture.
    pub texts: Vec<TextItem>,
    /// Where the board and strips are.
    pub layout: Layout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum CacheKey {
    Square {
        bit: u8,
        light: bool,
        side: u32,
    },
    Piece {
        bit: u8,
        owner: u8,
        marked: bool,
        side: u32,
    },
}

/// Draws frames with one theme, keeping the images scaled to the current square size.
#[derive(Debug)]
pub struct Renderer {
    theme: Theme,
    cache: HashMap<CacheKey, RgbaImage>,
    cached_side: u32,
}

impl Renderer {
    /// A renderer for a theme.
    pub fn new(theme: Theme) -> Renderer {
        Renderer {
            theme,
            cache: HashMap::new(),
            cached_side: 0,
        }
    }

    /// The theme in use.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// Draws a scene into a frame of the window's size. The result depends only on the
    /// arguments and the theme; the cache only saves scaling work.
    pub fn render(
        &mut self,
        scene: &Scene<'_>,
        window_width: u32,
        window_height: u32,
        metrics: TextMetrics,
    ) -> Frame {
        let view = scene.view;
        let layout = Layout::new(
            u32::from(view.width),
            u32::from(view.height),
            window_width.max(1),
            window_height.max(1),
            metrics,
        )
        .flip(scene.flipped);
        if layout.square != self.cached_side {
            self.cache.clear();
            self.cached_side = layout.square;
        }
        let mut image = RgbaImage::from_pixel(
            layout.window_width,
            layout.window_height,
            opaque(BACKGROUND),
        );
        let mut texts = Vec::new();

        let count = usize::from(view.width) * usize::from(view.height);
        let plain = most_numerous_types(view);
        let dragged = scene.drag.map(|drag| drag.from);
        for index in 0..count {
            let (x, y) = layout.square_origin(index);
            let column = index % usize::from(view.width.max(1));
            let row = index / usize::from(view.width.max(1));
            let square_bit = view.squares.get(index).copied().unwrap_or(0);
            if square_bit != 0 {
                let light = (column + row) % 2 == 0;
                let tile = self.square_image(square_bit, light, layout.square);
                imageops::replace(&mut image, tile, i64::from(x), i64::from(y));
            }
            let piece_bit = view.pieces.get(index).copied().unwrap_or(0);
            if piece_bit != 0 && dragged != Some(index) {
                let owner = view.owners.get(index).copied().unwrap_or(0).min(1);
                let marked = plain[usize::from(owner)] != piece_bit;
                self.put_piece(&mut image, &layout, index, piece_bit, owner, marked, 255);
            }
        }

        self.captured_ghosts(view, &layout, &mut image, plain);
        let thin = (layout.square / 16).max(2);
        analysis::heat(view, &layout, &mut image);
        if let Some((from, to)) = view.last_move {
            for index in [from, to].into_iter().filter(|&index| index < count) {
                frame_square(&mut image, &layout, index, thin, LAST_MOVE);
            }
        }
        if let Some((from, to)) = view
            .best_move
            .filter(|&(from, to)| from < count && to < count)
        {
            draw_arrow(&mut image, &layout, from, to);
        }
        if let Some(selected) = scene.selected.filter(|&index| index < count) {
            frame_square(
                &mut image,
                &layout,
                selected,
                (layout.square / 10).max(3),
                SELECTION,
            );
        }
        for &target in scene.targets.iter().filter(|&&index| index < count) {
            let (centre_x, centre_y) = layout.square_centre(target);
            let radius = (layout.square as f32 / 6.0).max(2.0);
            draw_disc(
                &mut image,
                centre_x as f32,
                centre_y as f32,
                radius,
                TARGET,
                230,
            );
        }
        if let Some(drag) = scene.drag.filter(|drag| drag.from < count) {
            let bit = view.pieces.get(drag.from).copied().unwrap_or(0);
            if bit != 0 {
                let owner = view.owners.get(drag.from).copied().unwrap_or(0).min(1);
                let marked = plain[usize::from(owner)] != bit;
                let piece = self.piece_image(bit, owner, marked, layout.square).clone();
                let x = i64::from(drag.x) - i64::from(piece.width() / 2);
                let y = i64::from(drag.y) - i64::from(piece.height() / 2);
                imageops::overlay(&mut image, &piece, x, y);
            }
        }

        self.coordinates(view, &layout, &mut texts);
        self.move_list(view, &layout, &mut image, &mut texts);
        self.sides(view, &layout, &mut image, &mut texts);
        strips(scene, &layout, &mut image, &mut texts);
        if let Some(how) = &view.game_over {
            banner(&view.status, how, &layout, &mut image, &mut texts);
        }
        messages(scene, &layout, &mut image, &mut texts);
        Frame {
            image,
            texts,
            layout,
        }
    }

    /// Draws each piece captured by the last move as a faint ghost, crossed out, until the
    /// next move.
    fn captured_ghosts(
        &mut self,
        view: &BoardView,
        layout: &Layout,
        image: &mut RgbaImage,
        plain: [u8; 2],
    ) {
        let count = usize::from(view.width) * usize::from(view.height);
        for captured in view
            .captured
            .iter()
            .filter(|captured| captured.square < count)
        {
            // A ghost of the captured piece, crossed out, until the next move.
            let owner = captured.owner.min(1);
            let marked = plain[usize::from(owner)] != captured.piece;
            let square = captured.square;
            self.put_piece(image, layout, square, captured.piece, owner, marked, 110);
            let (x, y) = layout.square_origin(square);
            let inset = layout.square as f32 * 0.22;
            let (left, top) = (x as f32 + inset, y as f32 + inset);
            let (right, bottom) = (
                (x + layout.square) as f32 - inset,
                (y + layout.square) as f32 - inset,
            );
            let width = (layout.square as f32 / 12.0).max(1.5);
            draw_line(image, (left, top), (right, bottom), width, CAPTURE, 255);
            draw_line(image, (left, bottom), (right, top), width, CAPTURE, 255);
        }
    }

    /// Draws a piece centred on a square, at most `alpha` opaque.
    #[allow(clippy::too_many_arguments)]
    fn put_piece(
        &mut self,
        image: &mut RgbaImage,
        layout: &Layout,
        index: usize,
        bit: u8,
        owner: u8,
        marked: bool,
        alpha: u8,
    ) {
        let (x, y) = layout.square_origin(index);
        let square = layout.square;
        let piece = self.piece_image(bit, owner, marked, square);
        let offset_x = i64::from(square.saturating_sub(piece.width()) / 2);
        let offset_y = i64::from(square.saturating_sub(piece.height()) / 2);
        let (x, y) = (i64::from(x) + offset_x, i64::from(y) + offset_y);
        if alpha == 255 {
            imageops::overlay(image, piece, x, y);
        } else {
            let mut faded = piece.clone();
            for pixel in faded.pixels_mut() {
                pixel[3] = (u16::from(pixel[3]) * u16::from(alpha) / 255) as u8;
            }
            imageops::overlay(image, &faded, x, y);
        }
    }

    fn coordinates(&self, view: &BoardView, layout: &Layout, texts: &mut Vec<TextItem>) {
        let metrics = layout.metrics;
        let letters_baseline =
            layout.board_y + layout.rows * layout.square + PAD / 2 + metrics.ascent;
        for column in 0..layout.columns {
            if column % layout.column_label_step != 0 {
                continue;
            }
            let name = view
                .column_labels
                .get(column as usize)
                .cloned()
                .unwrap_or_else(|| hnefatafl_core::column_name(column as u8));
            let width = metrics.cell_width * name.chars().count() as u32;
            let (x, _) = layout.square_origin(column as usize);
            let x = x + layout.square.saturating_sub(width) / 2;
            texts.push(text_item(x, letters_baseline, name, BACKGROUND));
        }
        for row in 0..layout.rows {
            // Counted from the bottom row, so that row 1 is always named.
            if (layout.rows - 1 - row) % layout.row_label_step != 0 {
                continue;
            }
            let name = view
                .row_labels
                .get(row as usize)
                .cloned()
                .unwrap_or_else(|| (layout.rows - row).to_string());
            let width = metrics.cell_width * name.chars().count() as u32;
            let x = layout.board_x.saturating_sub(PAD + width);
            let (_, top) = layout.square_origin(row as usize * layout.columns as usize);
            let middle = top + layout.square / 2;
            let y = (middle + metrics.ascent).saturating_sub(metrics.line_height() / 2);
            texts.push(text_item(x, y, name, BACKGROUND));
        }
    }

    /// The numbered move list, its end in view: in columns, each filled from the top,
    /// as many as the panel holds; the analysis pane above it, or the review graph in
    /// its place.
    fn move_list(
        &self,
        view: &BoardView,
        layout: &Layout,
        image: &mut RgbaImage,
        texts: &mut Vec<TextItem>,
    ) {
        let Some(whole) = layout.panel else {
            return;
        };
        if let Some(review) = &view.review {
            analysis::review_graph(review, whole, image);
            return;
        }
        fill_rect(
            image,
            whole.x,
            whole.y,
            whole.width,
            whole.height,
            PANEL_BACKGROUND,
        );
        // The analysis pane at the top, the moves below it.
        let pane = analysis::pane(view, whole, layout, image, texts);
        let panel = Panel {
            y: whole.y + pane,
            height: whole.height.saturating_sub(pane),
            ..whole
        };
        let metrics = layout.metrics;
        let line = metrics.line_height();
        let column_width = PANEL_COLUMNS * metrics.cell_width + PAD;
        let columns = (panel.width.saturating_sub(PAD) / column_width.max(1)).max(1) as usize;
        let rows = (panel.height.saturating_sub(PAD) / line.max(1)) as usize;
        let entries = list_rows(&view.moves, (PANEL_COLUMNS - LABEL_COLUMNS) as usize);
        let first = entries.len().saturating_sub(columns * rows);
        let indent = metrics.cell_width * LABEL_COLUMNS;
        for (place, (number, text)) in entries.into_iter().skip(first).enumerate() {
            let x = panel.x + PAD + (place / rows) as u32 * column_width;
            let baseline = panel.y + PAD / 2 + (place % rows) as u32 * line + metrics.ascent;
            if let Some(number) = number {
                let label = format!("{:>3}.", number + 1);
                texts.push(TextItem {
                    foreground: DIM_TEXT,
                    ..text_item(x, baseline, label, PANEL_BACKGROUND)
                });
            }
            texts.push(text_item(x + indent, baseline, text, PANEL_BACKGROUND));
        }
    }

    /// The strip that names both players, each with a small piece of its own, its label
    /// fitted into its half (see [`fit_label`]) and its clock at the half's right end.
    fn sides(
        &mut self,
        view: &BoardView,
        layout: &Layout,
        image: &mut RgbaImage,
        texts: &mut Vec<TextItem>,
    ) {
        let metrics = layout.metrics;
        let strip = layout.status_top - layout.sides_top;
        fill_rect(
            image,
            0,
            layout.sides_top,
            layout.window_width,
            strip,
            SIDES_BACKGROUND,
        );
        let plain = most_numerous_types(view);
        let half = layout.window_width / 2;
        let one_line = metrics.line_height() + 2 * PAD;
        let icon = one_line.saturating_sub(4).max(1);
        let room = side_room(layout.window_width, one_line, metrics) as usize;
        for player in 0..2u8 {
            let index = usize::from(player);
            let left = u32::from(player) * half;
            let to_move = view.game_over.is_none() && view.side_to_move == player;
            let background = if to_move {
                TO_MOVE_BACKGROUND
            } else {
                SIDES_BACKGROUND
            };
            if to_move {
                fill_rect(image, left, layout.sides_top, half, strip, background);
            }
            // A side without pieces shows the shipped themes' man of its colour.
            let bit = match plain[index] {
                0 => [4, 2][index],
                bit => bit,
            };
            let piece = self.piece_image(bit, player, false, icon).clone();
            let y = layout.sides_top + (strip - piece.height().min(strip)) / 2;
            imageops::overlay(image, &piece, i64::from(left + PAD), i64::from(y));
            let clock = view
                .clocks
                .map(|clocks| format!(" {}", clock_text(clocks[index])));
            let clock_columns = clock.as_ref().map_or(0, |clock| clock.chars().count());
            let forms = [view.sides[index].as_str(), view.sides_short[index].as_str()];
            let (lines, clock_line) =
                fit_label(&forms, room, layout.side_lines as usize, clock_columns);
            let baseline = layout.sides_top + PAD - 1 + metrics.ascent;
            let line_y = |line: usize| baseline + line as u32 * metrics.line_height();
            for (line, text) in lines.into_iter().enumerate() {
                texts.push(text_item(
                    left + 2 * PAD + icon,
                    line_y(line),
                    text,
                    background,
                ));
            }
            if let Some(clock) = clock {
                let width = clock_columns as u32 * metrics.cell_width;
                let x = (left + half).saturating_sub(width + PAD);
                texts.push(text_item(x, line_y(clock_line), clock, background));
            }
        }
    }

    fn square_image(&mut self, bit: u8, light: bool, side: u32) -> &RgbaImage {
        let themed = self.theme.squares.get(&bit);
        // Theme images look the same on light and dark places; only the fallback checkers.
        let key = CacheKey::Square {
            bit,
            light: light || themed.is_some(),
            side,
        };
        self.cache.entry(key).or_insert_with(|| match themed {
            Some(source) => scale(source, side, side),
            None => {
                let base = FALLBACK_SQUARES[bit.trailing_zeros() as usize % 8];
                fallback_square(base, light, side)
            }
        })
    }

    fn piece_image(&mut self, bit: u8, owner: u8, marked: bool, side: u32) -> &RgbaImage {
        let themed = self.theme.pieces.get(&bit);
        let key = CacheKey::Piece {
            bit,
            owner: if themed.is_some() { 0 } else { owner },
            marked: marked && themed.is_none(),
            side,
        };
        let native_square = self.theme.native_square_side();
        self.cache.entry(key).or_insert_with(|| match themed {
            Some(source) => {
                // Keep the theme's proportion of piece to square; without square images,
                // let the piece fill three quarters of a square.
                let largest = source.width().max(source.height()).max(1);
                let factor = match native_square {
                    Some(native) => side as f32 / native.max(1) as f32,
                    None => side as f32 * 0.75 / largest as f32,
                };
                let width = ((source.width() as f32 * factor).round() as u32).clamp(1, side);
                let height = ((source.height() as f32 * factor).round() as u32).clamp(1, side);
                scale(source, width, height)
            }
            None => fallback_piece(bit, owner, marked, side),
        })
    }
}
