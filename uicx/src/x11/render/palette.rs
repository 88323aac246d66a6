//! The palette: every colour the window draws with, the strips' backgrounds, the marks on
//! the board, the text, and the fallback graphics drawn where a theme has no image.

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
/// The review graph's curve: the first player's win chance (as in `review --plot`).
pub const GRAPH_CURVE: Rgb = [20, 60, 200];
/// The review graph's line at 50%.
pub const GRAPH_MIDDLE: Rgb = [0, 0, 0];
/// The review graph's lines at 25% and 75%, and the line under the analysis pane.
pub const GRAPH_QUARTER: Rgb = [110, 104, 96];
/// The band across the review graph at the position shown.
pub const GRAPH_AT: Rgb = [90, 80, 40];
/// The dot of a mistake on the review graph.
pub const GRAPH_MISTAKE: Rgb = [240, 160, 0];
/// The dot of a blunder on the review graph.
pub const GRAPH_BLUNDER: Rgb = [230, 30, 30];
/// The heat map's colour of a target square where the mover's win chance is 0%.
pub const HEAT_LOW: Rgb = [220, 30, 30];
/// The heat map's colour at 100%.
pub const HEAT_HIGH: Rgb = [30, 200, 60];
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
