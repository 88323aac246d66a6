//! The symmetries of the square that a rule file keeps, as maps of the network's inputs,
//! so that the trainer can learn from every image of a position ([`crate::trainer`]).
//!
//! A symmetry is kept when it maps every square of the board rectangle to a square of the
//! same type (the board's shape, its corners, throne and other special squares) and the
//! start position to itself, piece type by piece type. The rules then play the same on
//! the image of any position, so the image's value is the position's. The four that swap
//! rows and columns need a square board.

use aim::nnue::Layout;
use hnefatafl_core::Rules;

/// A symmetry: `(x, y, last_x, last_y)` to the image square's `(x, y)`.
type Symmetry = fn(u8, u8, u8, u8) -> (u8, u8);

/// The eight symmetries of the square, as maps of `(x, y)` on a board of largest
/// coordinates `(last_x, last_y)`: the identity first, then the two mirrors, the half
/// turn, the two diagonal mirrors and the two quarter turns.
const SYMMETRIES: [Symmetry; 8] = [
    |x, y, _, _| (x, y),
    |x, y, last_x, _| (last_x - x, y),
    |x, y, _, last_y| (x, last_y - y),
    |x, y, last_x, last_y| (last_x - x, last_y - y),
    |x, y, _, _| (y, x),
    |x, y, last_x, last_y| (last_y - y, last_x - x),
    |x, y, _, last_y| (last_y - y, x),
    |x, y, last_x, _| (y, last_x - x),
];

/// The symmetries after the identity that swap rows and columns start here.
const FIRST_DIAGONAL: usize = 4;

/// Maps of the network's inputs, one per symmetry the rules keep other than the identity:
/// `map[input]` is the input of the same piece type on the image square. Empty when the
/// rules keep none (or when `enabled` is false).
///
/// ```
/// use aim::nnue::Layout;
/// let brandubh = hnefatafl_core::Rules::parse(include_bytes!("../../data/rules/brandubh"))?;
/// let maps = hnefatafl_learn::symmetry::input_maps(&brandubh, true);
/// assert_eq!(maps.len(), 7);
/// assert!(maps.iter().all(|map| map.len() == Layout::of(&brandubh).inputs()));
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
pub fn input_maps(rules: &Rules, enabled: bool) -> Vec<Vec<u16>> {
    if !enabled {
        return Vec::new();
    }
    let layout = Layout::of(rules);
    let (width, height) = (rules.width(), rules.height());
    let start = rules.start_position();
    let mut maps = Vec::new();
    for (number, symmetry) in SYMMETRIES.iter().enumerate().skip(1) {
        if number >= FIRST_DIAGONAL && width != height {
            continue;
        }
        let image = |index: usize| {
            let square = rules.square_of_index(index)?;
            let (x, y) = symmetry(square.x(), square.y(), width - 1, height - 1);
            rules.index(rules.square_at(x, y)?)
        };
        let kept = (0..rules.square_count()).all(|index| {
            let (Some(from), Some(to)) = (rules.square_of_index(index), image(index)) else {
                return false;
            };
            let to = rules.square_of_index(to);
            to.is_some_and(|to| {
                rules.square_type(from) == rules.square_type(to)
                    && start.piece_at(from) == start.piece_at(to)
            })
        });
        if !kept {
            continue;
        }
        let squares = layout.squares();
        let map = (0..layout.inputs())
            .map(|input| {
                let (slot, index) = (input / squares, input % squares);
                let to = image(index).expect("a kept symmetry maps every square");
                (slot * squares + to) as u16
            })
            .collect();
        maps.push(map);
    }
    maps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &[u8]) -> Rules {
        Rules::parse(text).expect("rules")
    }

    #[test]
    fn the_shipped_square_boards_keep_all_eight() {
        for text in [
            &include_bytes!("../../data/rules/brandubh")[..],
            include_bytes!("../../data/rules/tablut"),
            include_bytes!("../../data/rules/copenhagen"),
        ] {
            let rules = rules(text);
            let maps = input_maps(&rules, true);
            assert_eq!(maps.len(), 7, "{}", rules.id());
            for map in &maps {
                // A permutation of the inputs.
                let mut seen = map.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), map.len());
            }
            assert!(input_maps(&rules, false).is_empty());
        }
    }

    #[test]
    fn a_lopsided_setup_keeps_only_what_it_keeps() {
        // Brandubh with two more attackers on the top edge: only the left-right mirror
        // keeps the start position.
        let text =
            String::from_utf8(include_bytes!("../../data/rules/brandubh").to_vec()).expect("text");
        let changed = text.replacen(
            "pieces \\\n0 0 0 4 0 0 0 \\",
            "pieces \\\n0 0 4 4 4 0 0 \\",
            1,
        );
        assert_ne!(changed, text, "the top row of brandubh's setup");
        let rules = rules(changed.as_bytes());
        let maps = input_maps(&rules, true);
        assert_eq!(maps.len(), 1);
        // The mirror swaps the top row's two new attackers.
        let squares = Layout::of(&rules).squares();
        let left = rules
            .index(rules.square_at(2, 0).expect("square"))
            .expect("index");
        let right = rules
            .index(rules.square_at(4, 0).expect("square"))
            .expect("index");
        let slot = maps[0][left] as usize / squares;
        assert_eq!(maps[0][left] as usize, slot * squares + right);
    }
}
