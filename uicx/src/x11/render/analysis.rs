//! What the window draws of an analysis: the pane of its lines at the top of the move
//! list, the heat map of a held piece's targets, and the review view's graph of the win
//! chance over the game, drawn down the move list's place.

use image::RgbaImage;

use super::TextItem;
use super::drawing::{blend, draw_disc, draw_line, fill_rect};
use super::layout::{Layout, PAD, Panel};
use super::palette::{
    GRAPH_AT, GRAPH_BLUNDER, GRAPH_CURVE, GRAPH_MIDDLE, GRAPH_MISTAKE, GRAPH_QUARTER, HEAT_HIGH,
    HEAT_LOW, PANEL_BACKGROUND, Rgb,
};
use super::text::{text_item, wrap};
use crate::x11::host::{BoardView, ReviewGraph, ReviewMark};

/// The most of the move list's height the analysis pane takes.
const PANE_SHARE: f32 = 0.6;
/// How strongly a heat map's colour covers a square.
const HEAT_COVER: f32 = 0.55;

/// Where the review graph is drawn in the move list's place: the position `i` of a game
/// of `n` moves is at `y = top + i * height / n`, the first player's chance `p` at
/// `x = left + p * width` (0% at the left, 100% at the right).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphArea {
    /// The left edge: 0%.
    pub left: f32,
    /// The top edge: the start position.
    pub top: f32,
    /// The width: 0% to 100%.
    pub width: f32,
    /// The height: the start to the last position.
    pub height: f32,
}

impl GraphArea {
    /// The graph's area in the move list's place.
    pub fn of(panel: Panel) -> GraphArea {
        let pad = PAD as f32;
        GraphArea {
            left: panel.x as f32 + 2.0 * pad,
            top: panel.y as f32 + pad,
            width: (panel.width as f32 - 4.0 * pad).max(1.0),
            height: (panel.height as f32 - 2.0 * pad).max(1.0),
        }
    }

    /// Where position `index` of `positions`, at the first player's chance `chance`, is.
    pub fn point(self, index: usize, positions: usize, chance: f32) -> (f32, f32) {
        let moves = positions.saturating_sub(1).max(1) as f32;
        (
            self.left + chance.clamp(0.0, 1.0) * self.width,
            self.top + index as f32 * self.height / moves,
        )
    }

    /// The position of `positions` nearest to the row `y`, when `(x, y)` is on the graph.
    pub fn position_at(self, positions: usize, x: i32, y: i32) -> Option<usize> {
        let (x, y) = (x as f32, y as f32);
        let inside = (self.left - PAD as f32..=self.left + self.width + PAD as f32).contains(&x)
            && (self.top - PAD as f32..=self.top + self.height + PAD as f32).contains(&y);
        if !inside || positions == 0 {
            return None;
        }
        let moves = positions.saturating_sub(1).max(1) as f32;
        let index = ((y - self.top) * moves / self.height).round().max(0.0) as usize;
        Some(index.min(positions - 1))
    }
}

/// Shades each target square of the held piece by the mover's win chance after moving
/// there: from [`HEAT_LOW`] at 0% to [`HEAT_HIGH`] at 100%.
pub(super) fn heat(view: &BoardView, layout: &Layout, image: &mut RgbaImage) {
    let count = usize::from(view.width) * usize::from(view.height);
    for &(square, chance) in view.heat.iter().filter(|(square, _)| *square < count) {
        let colour = heat_colour(chance);
        let (x, y) = layout.square_origin(square);
        for row in y..(y + layout.square).min(image.height()) {
            for column in x..(x + layout.square).min(image.width()) {
                blend(image, column, row, colour, HEAT_COVER);
            }
        }
    }
}

/// The heat map's colour for a chance: red at 0%, green at 100%.
pub fn heat_colour(chance: f32) -> Rgb {
    let chance = chance.clamp(0.0, 1.0);
    let mix = |low: u8, high: u8| {
        (f32::from(low) * (1.0 - chance) + f32::from(high) * chance).round() as u8
    };
    [
        mix(HEAT_LOW[0], HEAT_HIGH[0]),
        mix(HEAT_LOW[1], HEAT_HIGH[1]),
        mix(HEAT_LOW[2], HEAT_HIGH[2]),
    ]
}

/// The analysis pane at the top of the move list, each line wrapped to its width;
/// returns the height it takes (0: no pane).
pub(super) fn pane(
    view: &BoardView,
    panel: Panel,
    layout: &Layout,
    image: &mut RgbaImage,
    texts: &mut Vec<TextItem>,
) -> u32 {
    if view.analysis.is_empty() {
        return 0;
    }
    let metrics = layout.metrics;
    let line = metrics.line_height().max(1);
    let columns = (panel.width.saturating_sub(2 * PAD) / metrics.cell_width.max(1)) as usize;
    let most = ((panel.height as f32 * PANE_SHARE) as u32 / line) as usize;
    let rows: Vec<String> = view
        .analysis
        .iter()
        .flat_map(|text| wrap(text, columns))
        .take(most)
        .collect();
    for (row, text) in rows.iter().enumerate() {
        let baseline = panel.y + PAD / 2 + row as u32 * line + metrics.ascent;
        texts.push(text_item(
            panel.x + PAD,
            baseline,
            text.clone(),
            PANEL_BACKGROUND,
        ));
    }
    let height = rows.len() as u32 * line + PAD;
    // A line under the pane parts it from the moves.
    fill_rect(
        image,
        panel.x,
        panel.y + height,
        panel.width,
        1,
        GRAPH_QUARTER,
    );
    height + PAD / 2
}

/// The review view's graph in the move list's place: lines at 25%, 50% and 75%, a band
/// across the position shown, the first player's chance down the game, and each
/// mistake and blunder marked with a dot where its move ends.
pub(super) fn review_graph(review: &ReviewGraph, panel: Panel, image: &mut RgbaImage) {
    fill_rect(
        image,
        panel.x,
        panel.y,
        panel.width,
        panel.height,
        PANEL_BACKGROUND,
    );
    let area = GraphArea::of(panel);
    let positions = review.first.len();
    if positions == 0 {
        return;
    }
    let (_, at) = area.point(review.at.min(positions - 1), positions, 0.5);
    fill_rect(
        image,
        panel.x,
        (at - 1.0).max(0.0) as u32,
        panel.width,
        3,
        GRAPH_AT,
    );
    for (chance, colour) in [
        (0.25, GRAPH_QUARTER),
        (0.75, GRAPH_QUARTER),
        (0.5, GRAPH_MIDDLE),
    ] {
        let (x, _) = area.point(0, positions, chance);
        fill_rect(
            image,
            x.round() as u32,
            area.top as u32,
            1,
            area.height as u32 + 1,
            colour,
        );
    }
    for index in 1..positions {
        let from = area.point(index - 1, positions, review.first[index - 1]);
        let to = area.point(index, positions, review.first[index]);
        draw_line(image, from, to, 2.0, GRAPH_CURVE, 255);
    }
    let radius = (PAD as f32 * 0.7).max(2.0);
    for (index, mark) in review.marks.iter().enumerate() {
        let colour = match mark {
            ReviewMark::None => continue,
            ReviewMark::Mistake => GRAPH_MISTAKE,
            ReviewMark::Blunder => GRAPH_BLUNDER,
        };
        let Some(&chance) = review.first.get(index + 1) else {
            continue;
        };
        let (x, y) = area.point(index + 1, positions, chance);
        draw_disc(image, x, y, radius, colour, 255);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_runs_down_the_panel_and_finds_the_position_under_a_click() {
        let panel = Panel {
            x: 600,
            y: 10,
            width: 124,
            height: 412,
        };
        let area = GraphArea::of(panel);
        assert_eq!(area.point(0, 5, 0.0), (612.0, 16.0));
        assert_eq!(area.point(4, 5, 1.0), (612.0 + 100.0, 16.0 + 400.0));
        assert_eq!(area.position_at(5, 650, 16 + 210), Some(2));
        assert_eq!(area.position_at(5, 10, 100), None);
        assert_eq!(heat_colour(0.0), HEAT_LOW);
        assert_eq!(heat_colour(1.0), HEAT_HIGH);
    }
}
