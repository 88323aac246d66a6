//! Drawing: a pure function from what the window shows to one RGBA frame.
//!
//! The frame holds everything but the glyphs: the board (theme images scaled to the square
//! size, or the fallback graphics), the marks, the move list, the strips below the board
//! (the players, the status with its progress bar, the messages and the terminal line) and
//! the game-end banner. The text is returned as [`TextItem`]s for the window to draw with
//! the server's fonts over the frame, so that any font the server has can be used.

use std::collections::HashMap;
use std::time::Duration;

use image::imageops::{self, FilterType};
use image::{Rgba, RgbaImage};

use super::host::BoardView;
use super::theme::Theme;

/// An opaque colour.
pub type Rgb = [u8; 3];

/// Colour of the window's background and of the off-board squares.
pub const BACKGROUND: Rgb = [38, 34, 30];
/// Colour of the strip that names the players.
pub const SIDES_BACKGROUND: Rgb = [30, 28, 30];
/// Colour behind the label of the side to move.
pub const TO_MOVE_BACKGROUND: Rgb = [70, 62, 40];
/// Colour of the status strip.
pub const STATUS_BACKGROUND: Rgb = [24, 24, 28];
/// Colour of the message area.
pub const MESSAGE_BACKGROUND: Rgb = [16, 16, 20];
/// Colour of the terminal strip.
pub const TERMINAL_BACKGROUND: Rgb = [8, 8, 8];
/// Colour of the move list beside the board.
pub const PANEL_BACKGROUND: Rgb = [28, 26, 24];
/// Colour of the progress bar while a computer thinks.
pub const PROGRESS: Rgb = [86, 140, 214];
/// Colour of the frame around the selected piece's square.
pub const SELECTION: Rgb = [255, 208, 0];
/// Colour of the dots on the selected piece's legal targets.
pub const TARGET: Rgb = [40, 200, 90];
/// Colour of the frames on the last move's squares.
pub const LAST_MOVE: Rgb = [70, 150, 255];
/// Colour of the cross on a piece the last move captured.
pub const CAPTURE: Rgb = [230, 40, 40];
/// Colour of the arrow that shows the analysis's best move.
pub const BEST_MOVE: Rgb = [236, 96, 210];
/// Colour of the game-end banner.
pub const BANNER_BACKGROUND: Rgb = [20, 18, 16];
/// Colour of the game-end banner's frame.
pub const BANNER_FRAME: Rgb = [226, 180, 60];
/// Text colour on the dark strips and the margin.
pub const TEXT: Rgb = [226, 222, 210];
/// Colour of hints and of the move numbers.
pub const DIM_TEXT: Rgb = [140, 136, 128];

/// Fallback square colours by square type bit index (bit 1 first).
pub const FALLBACK_SQUARES: [Rgb; 8] = [
    [214, 178, 126],
    [150, 82, 54],
    [104, 134, 84],
    [84, 118, 160],
    [168, 120, 168],
    [196, 156, 64],
    [96, 160, 160],
    [170, 170, 170],
];
/// Fallback piece fill colour of each player: player 0 dark and player 1 light, as the
/// shipped themes and rule files have it (the attackers, player 0, are dark).
pub const FALLBACK_PIECE_FILL: [Rgb; 2] = [[44, 40, 38], [244, 236, 214]];
/// Fallback piece outline colour of each player.
pub const FALLBACK_PIECE_OUTLINE: [Rgb; 2] = [[196, 186, 166], [72, 60, 48]];
/// Colours of the inner mark that tells piece types apart in the fallback graphics, by
/// piece type bit index. Each player's most numerous type on the board has no mark, so the
/// rare pieces (a king) stand out.
pub const FALLBACK_PIECE_MARKS: [Rgb; 8] = [
    [222, 180, 40],
    [200, 40, 40],
    [200, 90, 160],
    [50, 110, 210],
    [40, 160, 80],
    [150, 60, 180],
    [230, 120, 30],
    [40, 170, 190],
];

/// Rows of the message area below the status strip. Longer output opens over the board
/// until the next key or click.
pub const MESSAGE_ROWS: u32 = 2;

/// Characters of one line of the move list beside the board (`123. ae31-ae30x`).
const PANEL_COLUMNS: u32 = 16;

/// Lines the move list needs at least when it goes under the board, in a window too
/// narrow for it beside the board.
const PANEL_UNDER_LINES: u32 = 3;

/// Characters of a move list line taken by the move number (`123. `).
const LABEL_COLUMNS: u32 = 5;

/// The move list's lines: each entry with its index, and an entry longer than `width`
/// characters (a chain of jumps and its captures) goes on, whole, on the lines after it,
/// without a number. A line is broken before a `-` or an `x` where it can be.
fn list_rows(moves: &[String], width: usize) -> Vec<(Option<usize>, String)> {
    let width = width.max(1);
    let mut rows = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let mut rest: Vec<char> = text.chars().collect();
        let mut number = Some(index);
        while rest.len() > width {
            let cut = (1..=width)
                .rev()
                .find(|&at| matches!(rest[at], '-' | 'x'))
                .unwrap_or(width);
            let tail = rest.split_off(cut);
            rows.push((number.take(), rest.into_iter().collect()));
            rest = tail;
        }
        rows.push((number, rest.into_iter().collect()));
    }
    rows
}

/// Where the move list is drawn: a rectangle of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The size of the server font's character cell, which the layout leaves room for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextMetrics {
    /// Width of one character in pixels (the font is meant to be fixed-width).
    pub cell_width: u32,
    /// Pixels above the baseline.
    pub ascent: u32,
    /// Pixels below the baseline.
    pub descent: u32,
}

impl Default for TextMetrics {
    /// The cell of the default font, `-misc-fixed-medium-r-normal--14-...` (7x14).
    fn default() -> TextMetrics {
        TextMetrics {
            cell_width: 7,
            ascent: 11,
            descent: 3,
        }
    }
}

impl TextMetrics {
    /// The height of one line of text.
    pub fn line_height(self) -> u32 {
        self.ascent + self.descent
    }
}

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

/// Where things are in a window of a given size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Window width in pixels.
    pub window_width: u32,
    /// Window height in pixels.
    pub window_height: u32,
    /// Left edge of the board.
    pub board_x: u32,
    /// Top edge of the board.
    pub board_y: u32,
    /// Side of one square in pixels (at least 1).
    pub square: u32,
    /// Board width in squares.
    pub columns: u32,
    /// Board height in squares.
    pub rows: u32,
    /// Whether the board is turned by half a turn.
    pub flipped: bool,
    /// The move list's place: beside the board, or under it (and its column names) in a
    /// window too narrow for it beside; none where neither leaves the board nine tenths
    /// of its size.
    pub panel: Option<Panel>,
    /// Top of the strip that names the players.
    pub sides_top: u32,
    /// Lines of text in that strip: two where a window is too narrow for a player's
    /// whole label on one line.
    pub side_lines: u32,
    /// Top of the status strip.
    pub status_top: u32,
    /// Top of the message area.
    pub messages_top: u32,
    /// Top of the terminal strip.
    pub terminal_top: u32,
    /// Show the column name of every this many columns (1: all; more on crowded boards).
    pub column_label_step: u32,
    /// Show the row name of every this many rows.
    pub row_label_step: u32,
    /// The font cell the layout was made for.
    pub metrics: TextMetrics,
}

const PAD: u32 = 6;
/// The characters a player's whole label and clock take on one line
/// (`Attackers (player 0): ann (you)` and ` 4:58`, with a little air): where half the
/// window holds fewer, the players' strip has two lines.
const SIDE_COLUMNS: u32 = 38;

impl Layout {
    /// Lays out a board of `columns` x `rows` squares in a window of the given size, the
    /// right way up.
    pub fn new(
        columns: u32,
        rows: u32,
        window_width: u32,
        window_height: u32,
        metrics: TextMetrics,
    ) -> Layout {
        let line = metrics.line_height();
        let strip = line + 2 * PAD;
        let terminal_top = window_height.saturating_sub(strip);
        let messages_top = terminal_top.saturating_sub(MESSAGE_ROWS * line + PAD);
        let status_top = messages_top.saturating_sub(strip);
        let side_lines = if side_room(window_width, strip, metrics) < SIDE_COLUMNS {
            2
        } else {
            1
        };
        let sides_top = status_top.saturating_sub(strip + (side_lines - 1) * line);
        // Room for row names on the left and column names below the board.
        let left = 2 * metrics.cell_width + 2 * PAD;
        let below = line + PAD;
        let free_width = window_width.saturating_sub(left + PAD);
        let free_height = sides_top.saturating_sub(below + PAD);
        let fit = |width: u32| {
            (width / columns.max(1))
                .min(free_height / rows.max(1))
                .max(1)
        };
        // The move list goes beside the board when that costs the board at most a tenth,
        // else under it (below the column names) on the same terms.
        let panel_width = PANEL_COLUMNS * metrics.cell_width + 2 * PAD;
        let alone = fit(free_width);
        let beside = fit(free_width.saturating_sub(panel_width + PAD));
        let with_panel = free_width > panel_width + PAD && beside * 10 >= alone * 9;
        let under_height = PANEL_UNDER_LINES * line + 2 * PAD;
        let under_square = (free_width / columns.max(1))
            .min(free_height.saturating_sub(under_height + PAD) / rows.max(1));
        let with_panel_under = !with_panel
            && free_width > panel_width
            && free_height > under_height + PAD
            && under_square * 10 >= alone * 9;
        let square = if with_panel {
            beside
        } else if with_panel_under {
            under_square.max(1)
        } else {
            alone
        };
        let board_width = square * columns;
        let board_height = square * rows;
        let used_width = if with_panel {
            board_width + PAD + panel_width
        } else {
            board_width
        };
        let board_x = left + free_width.saturating_sub(used_width) / 2;
        let board_y = if with_panel_under {
            PAD
        } else {
            PAD + free_height.saturating_sub(board_height) / 2
        };
        let panel = if with_panel {
            let x = board_x + board_width + PAD + left / 2;
            Some(Panel {
                x,
                y: board_y,
                width: window_width.saturating_sub(x + PAD),
                height: board_height,
            })
        } else if with_panel_under {
            let y = board_y + board_height + below + PAD;
            Some(Panel {
                x: PAD,
                y,
                width: window_width.saturating_sub(2 * PAD),
                height: sides_top.saturating_sub(y + PAD),
            })
        } else {
            None
        };
        // Thin the names where they would touch: a name needs its width (or the line
        // height) and a little air.
        let name_width = metrics.cell_width * if columns > 26 { 2 } else { 1 };
        let step = |need: u32| need.div_ceil(square).max(1);
        Layout {
            window_width,
            window_height,
            board_x,
            board_y,
            square,
            columns,
            rows,
            flipped: false,
            panel,
            sides_top,
            side_lines,
            status_top,
            messages_top,
            terminal_top,
            column_label_step: step(name_width + 4),
            row_label_step: step(line + 2),
            metrics,
        }
    }

    /// The same layout with the board turned by half a turn (or back).
    pub fn flip(self, flipped: bool) -> Layout {
        Layout { flipped, ..self }
    }

    /// Where a square of the board is drawn: its column and row on the screen.
    fn screen_place(&self, index: usize) -> (u32, u32) {
        let columns = self.columns.max(1) as usize;
        let column = (index % columns) as u32;
        let row = (index / columns) as u32;
        if self.flipped {
            (
                self.columns.saturating_sub(column + 1),
                self.rows.saturating_sub(row + 1),
            )
        } else {
            (column, row)
        }
    }

    /// The square (row-major index from the top-left of the board) under a window pixel.
    pub fn square_at(&self, x: i32, y: i32) -> Option<usize> {
        let column = (i64::from(x) - i64::from(self.board_x)).div_euclid(i64::from(self.square));
        let row = (i64::from(y) - i64::from(self.board_y)).div_euclid(i64::from(self.square));
        let inside = (0..i64::from(self.columns)).contains(&column)
            && (0..i64::from(self.rows)).contains(&row);
        if !inside {
            return None;
        }
        let (column, row) = if self.flipped {
            (
                i64::from(self.columns) - 1 - column,
                i64::from(self.rows) - 1 - row,
            )
        } else {
            (column, row)
        };
        Some((row * i64::from(self.columns) + column) as usize)
    }

    /// The top-left pixel of a square.
    pub fn square_origin(&self, index: usize) -> (u32, u32) {
        let (column, row) = self.screen_place(index);
        (
            self.board_x + column * self.square,
            self.board_y + row * self.square,
        )
    }

    /// The centre pixel of a square.
    pub fn square_centre(&self, index: usize) -> (u32, u32) {
        let (x, y) = self.square_origin(index);
        (x + self.square / 2, y + self.square / 2)
    }

    /// How many characters fit on one line across the window.
    pub fn text_columns(&self) -> usize {
        (self.window_width.saturating_sub(2 * PAD) / self.metrics.cell_width.max(1)).max(1) as usize
    }
}

/// Wraps a command's output as the message area shows it: like [`wrap`], but a line in
/// two columns (`f                      make the computer move now`, as the help is) that
/// does not fit puts its second column under its first, indented, so that a narrow window
/// still reads as a list.
pub fn wrap_output(text: &str, columns: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let two_columns = line
            .split_once("  ")
            .filter(|(first, second)| !first.trim().is_empty() && !second.trim().is_empty());
        match two_columns {
            Some((first, second)) if line.chars().count() > columns => {
                lines.extend(wrap(first.trim_end(), columns));
                let indented = wrap(second.trim_start(), columns.saturating_sub(2).max(1));
                lines.extend(indented.into_iter().map(|text| format!("  {text}")));
            }
            _ => lines.extend(wrap(line, columns)),
        }
    }
    lines
}

/// Wraps a list whose items stand apart by runs of spaces (`n: new game   u: take back a
/// move   q: quit`) between its items, never inside one where the item fits on a line.
fn wrap_items(text: &str, columns: usize) -> Vec<String> {
    const GAP: &str = "   ";
    if text.chars().count() <= columns {
        return vec![text.to_owned()];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for item in text
        .split("  ")
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let length = line.chars().count();
        if length > 0 && length + GAP.len() + item.chars().count() > columns {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str(GAP);
        }
        line.push_str(item);
    }
    lines.push(line);
    lines.iter().flat_map(|line| wrap(line, columns)).collect()
}

/// Wraps text into lines of at most `columns` characters, breaking at spaces where it can
/// and keeping the text's own line breaks.
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut length = 0;
        for word in paragraph.split(' ') {
            let mut word: Vec<char> = word.chars().collect();
            if length > 0 && length + 1 + word.len() > columns {
                lines.push(std::mem::take(&mut line));
                length = 0;
            }
            if length > 0 {
                line.push(' ');
                length += 1;
            }
            // A word longer than a line is cut.
            while length + word.len() > columns {
                let head: String = word.drain(..columns - length).collect();
                line.push_str(&head);
                lines.push(std::mem::take(&mut line));
                length = 0;
            }
            length += word.len();
            line.extend(word);
        }
        lines.push(line);
    }
    lines
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

        let thin = (layout.square / 16).max(2);
        for captured in view
            .captured
            .iter()
            .filter(|captured| captured.square < count)
        {
            // A ghost of the captured piece, crossed out, until the next move.
            let owner = captured.owner.min(1);
            let marked = plain[usize::from(owner)] != captured.piece;
            let square = captured.square;
            self.put_piece(
                &mut image,
                &layout,
                square,
                captured.piece,
                owner,
                marked,
                110,
            );
            let (x, y) = layout.square_origin(square);
            let inset = layout.square as f32 * 0.22;
            let (left, top) = (x as f32 + inset, y as f32 + inset);
            let (right, bottom) = (
                (x + layout.square) as f32 - inset,
                (y + layout.square) as f32 - inset,
            );
            let width = (layout.square as f32 / 12.0).max(1.5);
            draw_line(
                &mut image,
                (left, top),
                (right, bottom),
                width,
                CAPTURE,
                255,
            );
            draw_line(
                &mut image,
                (left, bottom),
                (right, top),
                width,
                CAPTURE,
                255,
            );
        }
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
    /// as many as the panel holds.
    fn move_list(
        &self,
        view: &BoardView,
        layout: &Layout,
        image: &mut RgbaImage,
        texts: &mut Vec<TextItem>,
    ) {
        let Some(panel) = layout.panel else {
            return;
        };
        let metrics = layout.metrics;
        let line = metrics.line_height();
        fill_rect(
            image,
            panel.x,
            panel.y,
            panel.width,
            panel.height,
            PANEL_BACKGROUND,
        );
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

/// The characters of a player's label (and clock) that fit in half a window of this
/// width, after the side's piece: the same for both halves.
fn side_room(window_width: u32, one_line: u32, metrics: TextMetrics) -> u32 {
    let icon = one_line.saturating_sub(4).max(1);
    (window_width / 2).saturating_sub(3 * PAD + icon) / metrics.cell_width.max(1)
}

/// A player's label fitted into `lines` lines of `columns` characters, with `clock`
/// characters kept free at the end of one of them for the clock: the lines and the one
/// that has the clock. The first of the label's forms (the whole label, then a shorter
/// one) that fits is taken, on one line, or broken after its `: ` (`Attackers` /
/// `ann (you)`), or between words; when none fits, the last is cut, so that nothing
/// runs into the other player's half or under the clock.
pub fn fit_label(
    forms: &[&str],
    columns: usize,
    lines: usize,
    clock: usize,
) -> (Vec<String>, usize) {
    let forms: Vec<&str> = forms
        .iter()
        .copied()
        .filter(|form| !form.is_empty())
        .collect();
    let room = |line: usize, clock_line: usize| match line == clock_line {
        true => columns.saturating_sub(clock),
        false => columns,
    };
    let fits = |split: &[String], clock_line: usize| {
        split.len() <= lines
            && split
                .iter()
                .enumerate()
                .all(|(line, text)| text.chars().count() <= room(line, clock_line))
    };
    for form in &forms {
        let mut splits = vec![vec![form.to_string()]];
        if let Some((side, who)) = form.split_once(": ") {
            splits.push(vec![side.to_owned(), who.to_owned()]);
        }
        splits.push(wrap(form, columns.saturating_sub(clock)));
        for split in &splits {
            if let Some(clock_line) = (0..lines).find(|&line| fits(split, line)) {
                return (split.clone(), clock_line);
            }
        }
    }
    let last = forms.last().copied().unwrap_or_default();
    let mut cut = wrap(last, columns.saturating_sub(clock));
    cut.truncate(lines);
    (cut, 0)
}

/// A line in `columns` characters: whole when it fits, else cut after its last word that
/// fits, with `...` (the game-end banner and the message area give such lines whole).
fn fit_line(text: &str, columns: usize) -> String {
    const MORE: &str = "...";
    if text.chars().count() <= columns {
        return text.to_owned();
    }
    let room = columns.saturating_sub(MORE.len());
    let mut line = String::new();
    for word in text.split(' ') {
        let length = line.chars().count();
        let added = word.chars().count() + usize::from(length > 0);
        if length + added > room {
            break;
        }
        if length > 0 {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.is_empty() {
        line = text.chars().take(room).collect();
    }
    line + MORE
}

/// The prompt's hint in `columns` characters: where all of it does not fit, its last
/// part (after the last `; `: `h: help`), which says where to find everything else.
fn fit_hint(hint: &str, columns: usize) -> String {
    if hint.chars().count() <= columns {
        return hint.to_owned();
    }
    let last = hint.rsplit_once("; ").map_or(hint, |(_, last)| last);
    last.chars().take(columns).collect()
}

/// A clock as the window shows it, in whole seconds: `4:58`, `1:02:03` past an hour.
/// Whole seconds change once a second, so a running clock costs one frame a second.
pub fn clock_text(left: Duration) -> String {
    let seconds = left.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// How long until a running clock that shows `left` now shows another [`clock_text`]:
/// the part of a second above its whole seconds (a whole second when there is none).
pub fn clock_change(left: Duration) -> Duration {
    match left.subsec_nanos() {
        0 if left.is_zero() => Duration::MAX,
        0 => Duration::from_secs(1),
        nanos => Duration::from_nanos(u64::from(nanos)),
    }
}

fn text_item(x: u32, y: u32, text: String, background: Rgb) -> TextItem {
    TextItem {
        x: x as i32,
        y: y as i32,
        text,
        foreground: TEXT,
        background,
    }
}

/// The status strip (with the progress bar) and the terminal strip with its prompt.
fn strips(scene: &Scene<'_>, layout: &Layout, image: &mut RgbaImage, texts: &mut Vec<TextItem>) {
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
fn messages(scene: &Scene<'_>, layout: &Layout, image: &mut RgbaImage, texts: &mut Vec<TextItem>) {
    let line = layout.metrics.line_height().max(1);
    let lines: Vec<String> = scene
        .messages
        .iter()
        .flat_map(|message| wrap_output(message, layout.text_columns()))
        .collect();
    let rows = MESSAGE_ROWS as usize;
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
        (top, &lines[first..first + count], MESSAGE_BACKGROUND)
    } else {
        // The last lines of the output, in the area's rows.
        let first = lines.len().saturating_sub(rows);
        (layout.messages_top, &lines[first..], MESSAGE_BACKGROUND)
    };
    for (row, text) in shown.iter().enumerate() {
        let baseline = top + PAD / 2 + row as u32 * line + layout.metrics.ascent;
        texts.push(text_item(PAD, baseline, text.clone(), background));
    }
}

/// The game-end banner over the middle of the board: who won and why, and how to go on.
fn banner(
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
fn draw_arrow(image: &mut RgbaImage, layout: &Layout, from: usize, to: usize) {
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
fn draw_line(
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
fn blend(image: &mut RgbaImage, x: u32, y: u32, colour: Rgb, coverage: f32) {
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

fn opaque(colour: Rgb) -> Rgba<u8> {
    Rgba([colour[0], colour[1], colour[2], 255])
}

fn fill_rect(image: &mut RgbaImage, x: u32, y: u32, width: u32, height: u32, colour: Rgb) {
    let right = (x + width).min(image.width());
    let bottom = (y + height).min(image.height());
    for row in y..bottom {
        for column in x..right {
            image.put_pixel(column, row, opaque(colour));
        }
    }
}

fn frame_square(image: &mut RgbaImage, layout: &Layout, index: usize, thickness: u32, colour: Rgb) {
    let (x, y) = layout.square_origin(index);
    let side = layout.square;
    let thickness = thickness.min(side / 2).max(1);
    fill_rect(image, x, y, side, thickness, colour);
    fill_rect(image, x, y + side - thickness, side, thickness, colour);
    fill_rect(image, x, y, thickness, side, colour);
    fill_rect(image, x + side - thickness, y, thickness, side, colour);
}

/// Blends an anti-aliased disc of `colour` (at most `alpha` opaque) into the image.
fn draw_disc(
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
fn scale(source: &RgbaImage, width: u32, height: u32) -> RgbaImage {
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

fn fallback_square(base: Rgb, light: bool, side: u32) -> RgbaImage {
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
fn most_numerous_types(view: &BoardView) -> [u8; 2] {
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

fn fallback_piece(bit: u8, owner: u8, marked: bool, side: u32) -> RgbaImage {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The original program's image sets beside the checkout, when they are there.
    fn samples() -> Option<PathBuf> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/xpm-samples");
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!(
                "note: {} is absent: frames with the original program's image sets are not checked",
                dir.display()
            );
            None
        }
    }

    /// The project's own test images.
    fn own_images() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/xpm")
    }

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
        assert!(
            terminal.y as u32 > layout.terminal_top && (terminal.y as u32) < layout.window_height
        );
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
}
