//! The position addition (`docs/protocol.md`, "Positions"): a client that asks for it in its
//! `hello` (`"positions": 1`) is sent, with every position it sees, the board and the legal
//! moves of the side to move, so that it can show captures, highlight targets and refuse an
//! illegal move before it is sent, with no rules engine of its own. The terminal and X
//! clients do not ask, and their traffic does not grow.

use hnefatafl_core::{Game, Rules, Square};
use serde::{Deserialize, Serialize};

/// The version of the position addition that this program speaks: a client asks for it
/// with `"positions": 1` in `hello`, and the server's `welcome` says the version it will
/// send (the lower of the two).
pub const POSITIONS_VERSION: u32 = 1;

/// The most bytes the legal moves of one position may take as JSON; a position whose
/// moves would take more (only jump chains of some rule file on a large board could) is
/// sent without them, and the client leaves the check to the server. Ordinary moves stay
/// far below it: each empty square is reached by at most four pieces, one along each
/// line, so a 19x19 board has at most 1,444 targets, about 6 KB.
pub const MAX_LEGAL_JSON: usize = 32 * 1024;

/// A square's number in a [`BoardPosition`]: `y * width + x`, row by row from the top
/// left, as core numbers them.
pub type SquareIndex = u16;

/// The legal moves of the side to move, compactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegalMoves {
    /// For each square a piece may move from by an ordinary move, the squares it may go
    /// to: `[[from, [to, …]], …]`, by increasing square.
    pub steps: Vec<(SquareIndex, Vec<SquareIndex>)>,
    /// Every jump capture as the square it starts from and the squares it lands on, in
    /// order: `[from, landing, …]`. A client makes one by successive clicks, each landing
    /// the next step of a chain.
    pub jumps: Vec<Vec<SquareIndex>>,
}

impl LegalMoves {
    /// The legal moves of the side to move in `game` (none once it is over; under
    /// `forbid_repeat`, none that repeats a position).
    pub fn of(game: &Game) -> LegalMoves {
        let rules = game.rules();
        let mut legal = LegalMoves::default();
        for mv in game.legal_moves() {
            let from = index(rules, mv.from());
            if mv.is_jump() {
                let mut chain = vec![from];
                chain.extend(mv.landings().map(|square| index(rules, square)));
                legal.jumps.push(chain);
                continue;
            }
            let to = index(rules, mv.to());
            match legal.steps.iter_mut().find(|(square, _)| *square == from) {
                Some((_, targets)) => targets.push(to),
                None => legal.steps.push((from, vec![to])),
            }
        }
        legal.steps.sort_unstable();
        for (_, targets) in &mut legal.steps {
            targets.sort_unstable();
        }
        legal.jumps.sort_unstable();
        legal
    }

    /// The moves, unless they would take more than [`MAX_LEGAL_JSON`] bytes.
    pub fn bounded(self) -> Option<LegalMoves> {
        let length = serde_json::to_string(&self).map_or(usize::MAX, |json| json.len());
        (length <= MAX_LEGAL_JSON).then_some(self)
    }
}

/// A position of a game as [`crate::protocol::ServerMessage::Position`] sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardPosition {
    /// The moves played before it: the position after move `ply` (0: the start).
    pub ply: u32,
    /// The piece type's bit on each square (0: empty), by [`SquareIndex`].
    pub board: Vec<u8>,
    /// Whose turn it is, 0 or 1.
    pub to_move: u8,
    /// The legal moves of the side to move (empty once the game is over); `None` when
    /// they would take more than [`MAX_LEGAL_JSON`] bytes, and for a past position asked
    /// for by ply.
    pub legal: Option<LegalMoves>,
}

impl BoardPosition {
    /// The current position of `game`, with its legal moves.
    pub fn of(game: &Game) -> BoardPosition {
        BoardPosition {
            legal: LegalMoves::of(game).bounded(),
            ..BoardPosition::without_moves(game)
        }
    }

    /// The current position of `game`, without its legal moves.
    pub fn without_moves(game: &Game) -> BoardPosition {
        BoardPosition {
            ply: game.moves().len() as u32,
            board: game.position().board_bits().to_vec(),
            to_move: game.side_to_move().index() as u8,
            legal: None,
        }
    }
}

/// A square's [`SquareIndex`].
fn index(rules: &Rules, square: Square) -> SquareIndex {
    SquareIndex::from(square.y()) * SquareIndex::from(rules.width()) + SquareIndex::from(square.x())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(file: &[u8]) -> Game {
        Game::new(Rules::parse(file).expect("rules"))
    }

    #[test]
    fn the_start_of_brandub_has_its_pieces_and_moves() {
        let game = game(include_bytes!("../../../data/rules/brandub"));
        let position = BoardPosition::of(&game);
        assert_eq!(position.ply, 0);
        assert_eq!(position.board.len(), 49);
        // The king in the middle, an empty corner.
        assert_ne!(position.board[3 * 7 + 3], 0);
        assert_eq!(position.board[0], 0);
        let legal = position.legal.expect("moves");
        let counted: usize = legal.steps.iter().map(|(_, targets)| targets.len()).sum();
        assert_eq!(counted, game.legal_moves().count());
        assert!(legal.jumps.is_empty());
        // The attacker at the top's middle (d7, square 3) moves along the top row.
        let (_, targets) = legal
            .steps
            .iter()
            .find(|(from, _)| *from == 3)
            .expect("d7 moves");
        assert!(targets.contains(&1) && targets.contains(&5), "{targets:?}");
    }

    #[test]
    fn a_halatafl_jump_chain_is_its_landings() {
        let rules = Rules::parse(include_bytes!("../../../data/rules/halatafl")).expect("rules");
        let mut game = Game::new(rules.clone());
        // White onto the centre; black must take it by a jump from d5 to d3.
        game.play(rules.parse_move(&["d3", "d4"]).expect("a move"));
        let legal = LegalMoves::of(&game);
        assert!(legal.steps.is_empty(), "a jump is compulsory: {legal:?}");
        let d5 = 2 * 7 + 3;
        let d3 = 4 * 7 + 3;
        assert!(
            legal.jumps.iter().any(|chain| chain[..2] == [d5, d3]),
            "{legal:?}"
        );
        assert_eq!(legal.jumps.len(), game.legal_moves().count());
    }

    #[test]
    fn the_largest_board_stays_within_its_bound() {
        let game = game(include_bytes!("../../../data/rules/alea_evangelii"));
        let position = BoardPosition::of(&game);
        assert_eq!(position.board.len(), 19 * 19);
        let legal = position.legal.clone().expect("moves");
        let json = serde_json::to_string(&position).expect("json");
        assert!(json.len() < 16 * 1024, "{} bytes", json.len());
        let counted: usize = legal.steps.iter().map(|(_, targets)| targets.len()).sum();
        assert_eq!(counted, game.legal_moves().count());
    }

    #[test]
    fn moves_over_the_bound_are_left_out() {
        let many = LegalMoves {
            steps: (0..361).map(|from| (from, (0..361).collect())).collect(),
            jumps: Vec::new(),
        };
        assert_eq!(many.bounded(), None);
        let few = LegalMoves {
            steps: vec![(0, vec![1, 2])],
            jumps: vec![vec![3, 5, 7]],
        };
        assert_eq!(few.clone().bounded(), Some(few.clone()));
        assert_eq!(
            serde_json::to_string(&few).expect("json"),
            r#"{"steps":[[0,[1,2]]],"jumps":[[3,5,7]]}"#
        );
    }
}
