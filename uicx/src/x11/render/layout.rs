//! The layout: where the board, the move list, the players' strip, the status, the message
//! area and the terminal line go in a window of a given size and font, and which square is
//! under a pixel.

/// Rows of the message area below the status strip. Longer output opens over the board
/// until the next key or click.
pub const MESSAGE_ROWS: u32 = 2;

/// Characters of one line of the move list beside the board (`123. ae31-ae30x`).
pub(super) const PANEL_COLUMNS: u32 = 16;

/// Lines the move list needs at least when it goes under the board, in a window too
/// narrow for it beside the board.
pub(super) const PANEL_UNDER_LINES: u32 = 3;

/// Characters of a move list line taken by the move number (`123. `).
pub(super) const LABEL_COLUMNS: u32 = 5;

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

pub(super) const PAD: u32 = 6;
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

/// The characters of a player's label (and clock) that fit in half a window of this
/// width, after the side's piece: the same for both halves.
pub(super) fn side_room(window_width: u32, one_line: u32, metrics: TextMetrics) -> u32 {
    let icon = one_line.saturating_sub(4).max(1);
    (window_width / 2).saturating_sub(3 * PAD + icon) / metrics.cell_width.max(1)
}
