//! The record of what a move changed, to take it back.

use super::board::Board;
use crate::tables::Tables;
use crate::{Move, PieceType, Square};

/// Captures recorded in the [`Undo`] itself: every ordinary move's (four neighbours, each
/// possibly with a double-trap partner). Longer lists (a long shieldwall, a long chain of
/// jumps) go on in a vector, allocated only then, so that the record stays small enough
/// to be copied cheaply on every move of a search.
const INLINE_CAPTURES: usize = 8;

/// What a move changed, to take it back with [`Position::take_back`](crate::Position::take_back). It allocates
/// nothing but for a move that captures more than eight pieces.
///
/// ```
/// use hnefatafl_core::Rules;
/// let rules = Rules::parse(include_bytes!("../../../data/rules/tablut"))?;
/// let mut position = rules.start_position();
/// let mv = position.moves().next().unwrap();
/// let undo = position.play(mv);
/// assert_eq!(undo.mv(), mv);
/// assert_eq!(undo.captures().count(), 0);
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    pub(crate) mv: Move,
    /// The row-major indices of the move's squares.
    pub(crate) from: u16,
    pub(crate) to: u16,
    pub(crate) width: u8,
    pub(crate) hash: u64,
    /// The first captured pieces, each as its row-major index times 8 plus its type index
    /// (see [`Undo::push_capture`]).
    pub(crate) captured: [u16; INLINE_CAPTURES],
    /// The captured pieces after the first [`INLINE_CAPTURES`], the same way. Boxed, so
    /// that the record of an ordinary move holds one null pointer, not a vector's three
    /// words.
    #[allow(
        clippy::box_collection,
        reason = "one word in every Undo, not a Vec's three"
    )]
    pub(crate) more_captured: Option<Box<Vec<u16>>>,
    pub(crate) capture_count: u8,
    /// False when the move could not be made at all and nothing changed.
    pub(crate) played: bool,
    /// The board's `lost` before the move.
    pub(crate) lost: u8,
}

impl Undo {
    /// A record of a move not yet made.
    #[inline(always)]
    pub(crate) fn new(board: &Board, mv: Move) -> Undo {
        Undo {
            mv,
            from: 0,
            to: 0,
            width: 0,
            hash: board.hash,
            captured: [0; INLINE_CAPTURES],
            more_captured: None,
            capture_count: 0,
            played: false,
            lost: board.lost,
        }
    }

    /// Records the row-major indices of the move's squares on a board of these tables.
    #[inline]
    pub(crate) fn set_squares(&mut self, tables: &Tables, from: usize, to: usize) {
        self.from = from as u16;
        self.to = to as u16;
        self.width = tables.width as u8;
    }

    /// The move.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../../data/rules/tablut"))?;
    /// let mut position = rules.start_position();
    /// let mv = "3 0 3 2".parse()?;
    /// assert_eq!(position.play(mv).mv(), mv);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// The captured pieces and where they stood.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # let rules = Rules::parse(include_bytes!("../../../data/rules/tablut"))?;
    /// let position = rules.start_position();
    /// let capturing = position.moves().find(|&mv| {
    ///     let mut after = position.clone();
    ///     after.play(mv).captures().next().is_some()
    /// });
    /// assert_eq!(capturing, None, "nothing can be captured in the first move");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn captures(&self) -> impl Iterator<Item = (Square, PieceType)> + '_ {
        let width = usize::from(self.width.max(1));
        self.captured_pieces().map(move |(index, bit)| {
            let square = Square((index % width) as u16 | ((index / width) as u16) << 5);
            (square, PieceType(bit))
        })
    }

    /// Records a captured piece: its row-major index (below 1024) and its piece bit.
    #[inline]
    pub(crate) fn push_capture(&mut self, square: usize, bit: u8) {
        let entry = (square as u16) << 3 | bit.trailing_zeros() as u16 & 7;
        let index = usize::from(self.capture_count);
        if index < INLINE_CAPTURES {
            self.captured[index] = entry;
        } else {
            self.more_captured.get_or_insert_default().push(entry);
        }
        // A board has at most 961 squares, so the count never passes 255.
        self.capture_count += 1;
    }

    /// Forgets every recorded capture.
    pub(crate) fn clear_captures(&mut self) {
        self.capture_count = 0;
        self.more_captured = None;
    }

    /// The captured pieces as row-major index and piece bit.
    #[inline]
    pub(crate) fn captured_pieces(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let inline = usize::from(self.capture_count).min(INLINE_CAPTURES);
        self.captured[..inline]
            .iter()
            .chain(self.more_captured.iter().flat_map(|more| more.iter()))
            .map(|&entry| (usize::from(entry >> 3), 1u8 << (entry & 7)))
    }
}

#[cfg(test)]
mod tests {
    use super::Undo;

    #[test]
    fn the_undo_of_a_move_stays_small() {
        // Copied on every move of a search: eight inline captures, one word for more.
        assert!(
            std::mem::size_of::<Undo>() <= 48,
            "{}",
            std::mem::size_of::<Undo>()
        );
    }
}
