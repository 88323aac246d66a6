//! Hand-made cases of the manual's rules that the recorded games do not reach: `capt_sides`
//! 1 and 3, `capt_edge` beside 0-squares, which pieces and squares enclose, the double trap
//! next to a 0-square, `forbid_repeat` over the whole game and the order of the game's end.
//!
//! Diagrams: one string per row, cells separated by spaces. `.` is an ordinary empty square
//! (type 1), `#` a square that is not part of the board (0). A piece letter stands on an
//! ordinary square: `A` (piece 1) and `B` (piece 2) belong to player 0, who moves first;
//! `D` (piece 4) and `K` (piece 8) to player 1. A suffix puts the cell on another square
//! type: `h` type 2, `e` type 4 (`.h` is an empty square of type 2). Each test declares
//! the arguments it needs; every piece may stand on every square type.

mod common;

use common::at::{mv, play};
use common::{Diagram, captures_1_1, ended, occupied, parse, piece};
use hnefatafl_core::{EndReason, Game, MoveError, Player, Rules};

fn rules(rows: &[&str], arguments: &str) -> Rules {
    let diagram = Diagram::read(rows, |cell| {
        let (piece, rest) = cell.split_at(1);
        let piece: u8 = match piece {
            "." | "#" => 0,
            "A" => 1,
            "B" => 2,
            "D" => 4,
            "K" => 8,
            other => panic!("unknown piece {other}"),
        };
        let square: u8 = match (cell, rest) {
            ("#", _) => 0,
            (_, "") => 1,
            (_, "h") => 2,
            (_, "e") => 4,
            (_, other) => panic!("unknown square {other}"),
        };
        (piece, square)
    });
    let mut text = format!("id edges\nname Edges\n{}", diagram.board_lines());
    for bit in [1u8, 2, 4, 8] {
        if diagram.pieces.contains(&bit) {
            let owner = u8::from(bit >= 4);
            text +=
                &format!("piece bit {bit}\npiece {bit} owner {owner}\npiece {bit} occupies 7\n");
        }
    }
    for bit in [1u8, 2, 4] {
        if diagram.squares.contains(&bit) {
            text += &format!("square bit {bit}\n");
        }
    }
    text += arguments;
    parse(&text)
}

#[test]
fn capt_sides_one_is_captured_by_the_mover_alone() {
    let board = [". . . .", ". D . .", ". . . .", "B . A ."];
    let r = rules(
        &board,
        "piece 1 captures 4\npiece 2 captures 4\npiece 4 capt_sides 1\n",
    );
    assert!(captures_1_1(&r));
    // Only the neighbours of the destination are judged: a move elsewhere captures nothing,
    // even beside a capturer.
    let board = [". . . .", "A D . .", ". . . .", ". . B ."];
    let r = rules(
        &board,
        "piece 1 captures 4\npiece 2 captures 4\npiece 4 capt_sides 1\n",
    );
    assert!(occupied(&play(&r, &[((2, 3), (3, 3))]), 1, 1));
}

#[test]
fn capt_sides_three_counts_three_sides() {
    let arguments = "piece 1 captures 4\npiece 4 capt_sides 3\n";
    let three = [". A . .", "A D . .", ". . . .", ". . A ."];
    let two = [". A . .", ". D . .", ". . . .", ". . A ."];
    assert!(captures_1_1(&rules(&three, arguments)));
    assert!(!captures_1_1(&rules(&two, arguments)));
}

#[test]
fn custodial_with_capt_sides_three_needs_the_pair_on_the_movers_axis() {
    let arguments = "piece 1 captures 4\npiece 4 capt_sides 3\npiece 4 custodial\n";
    // Three sides, the mover's row closed by A: captured.
    let row = [". A . .", "A D . .", ". . . .", ". . A ."];
    assert!(captures_1_1(&rules(&row, arguments)));
    // Three sides, but the mover's row is open opposite it: the pair is on the column.
    let column = [". A . .", ". D . .", ". A . .", ". . A ."];
    assert!(!captures_1_1(&rules(&column, arguments)));
}

#[test]
fn capt_edge_lowers_capt_sides_beside_0_squares_inside_the_board() {
    // D has 0-squares to its west and north: two on-board neighbours, so capt_sides 3 drops
    // to 2; custodial is lifted since no custodial pair is possible on either axis.
    let board = [". # . .", "# D . .", ". A . .", ". . A ."];
    let plain = "piece 1 captures 4\npiece 4 capt_sides 3\npiece 4 custodial\n";
    let edge = format!("{plain}piece 4 capt_edge\n");
    assert!(captures_1_1(&rules(&board, &edge)));
    // Without capt_edge the 0-squares do not help.
    assert!(!captures_1_1(&rules(&board, plain)));
    // With capt_edge but one enclosing piece short, nothing happens.
    let board = [". # . .", "# D . .", ". . . .", ". . A ."];
    assert!(!captures_1_1(&rules(&board, &edge)));
}

#[test]
fn capt_edge_custodial_piece_enclosed_on_every_board_side_beside_a_0_square() {
    // The manual's capt_edge example with a 0-square instead of the border: S enclosed on
    // all its on-board sides is captured although no piece stands opposite the mover.
    let board = [". A . .", "# D . .", ". A . .", ". . A ."];
    let arguments = "piece 1 captures 4\npiece 4 custodial\npiece 4 capt_edge\n";
    assert!(captures_1_1(&rules(&board, arguments)));
    // The same S walking in between the two attackers is not captured.
    let board = [". A . .", "# . D .", ". A . .", ". . . A"];
    let game = play(
        &rules(&board, arguments),
        &[((3, 3), (3, 2)), ((2, 1), (1, 1))],
    );
    assert!(occupied(&game, 1, 1));
}

#[test]
fn friendly_pieces_enclose_only_what_they_capture() {
    // B belongs to the mover's side but does not capture D.
    let board = [". . . .", "B D . .", ". . . .", ". . A ."];
    let r = rules(&board, "piece 1 captures 4\n");
    assert!(!captures_1_1(&r));
    let r = rules(&board, "piece 1 captures 4\npiece 2 captures 4\n");
    assert!(captures_1_1(&r));
}

#[test]
fn an_occupied_hostile_square_counts_only_by_its_piece() {
    // Square type 2 captures D when empty. B on it does not capture D, so it does not
    // enclose; the friend K on it does not either.
    let arguments = "piece 1 captures 4\nsquare 2 captures 4\n";
    let empty = [". . . .", ".h D . .", ". . . .", ". . A ."];
    assert!(captures_1_1(&rules(&empty, arguments)));
    let enemy = [". . . .", "Bh D . .", ". . . .", ". . A ."];
    assert!(!captures_1_1(&rules(&enemy, arguments)));
    let friend = [". . . .", "Kh D . .", ". . . .", ". . A ."];
    assert!(!captures_1_1(&rules(&friend, arguments)));
    // A piece that captures D encloses from the square, hostile or not.
    let capturer = format!("{arguments}piece 2 captures 4\n");
    assert!(captures_1_1(&rules(&enemy, &capturer)));
}

/// K and D of player 1 trap each other; both are fully enclosed to be captured, with the
/// double-trap edge rule.
const DOUBLE_TRAP: &str = "piece 1 captures 12\n\
piece 4 dbl_trap\npiece 4 dbl_trap_capt\npiece 4 dbl_trap_encl\npiece 4 dbl_trap_edge\npiece 4 dbl_trap_squares 7\n\
piece 8 dbl_trap\npiece 8 dbl_trap_capt\npiece 8 dbl_trap_encl\npiece 8 dbl_trap_edge\npiece 8 dbl_trap_squares 7\n\
piece 8 capt_sides 4\npiece 4 capt_sides 4\n";

#[test]
fn the_board_end_beyond_the_double_trap_partner_is_an_edge_like_a_0_square() {
    // The pair K D stands against the east border, then against a 0-square: the manual
    // counts both as edges, also beyond the partner, where K's east side is judged.
    let border = [". . A A", ". A K D", ". . A .", ". . . A"];
    let hole = [". . A A .", ". A K D #", ". . A . .", ". . . A ."];
    let by_border = play(&rules(&border, DOUBLE_TRAP), &[((3, 3), (3, 2))]);
    let by_hole = play(&rules(&hole, DOUBLE_TRAP), &[((3, 3), (3, 2))]);
    assert_eq!(
        (occupied(&by_border, 2, 1), occupied(&by_border, 3, 1)),
        (occupied(&by_hole, 2, 1), occupied(&by_hole, 3, 1)),
    );
    // With dbl_trap_edge, K needs only its three other sides: both are taken.
    assert_eq!(by_border.history()[0].captures().count(), 2);
    assert_eq!(by_hole.history()[0].captures().count(), 2);
    // Without it, K would need a fourth side that does not exist: no double trap, and D
    // alone (capt_sides 4, no capt_edge) is not captured either.
    let no_edge = DOUBLE_TRAP
        .replace("piece 4 dbl_trap_edge\n", "")
        .replace("piece 8 dbl_trap_edge\n", "");
    let by_border = play(&rules(&border, &no_edge), &[((3, 3), (3, 2))]);
    let by_hole = play(&rules(&hole, &no_edge), &[((3, 3), (3, 2))]);
    assert_eq!(by_border.history()[0].captures().count(), 0);
    assert_eq!(by_hole.history()[0].captures().count(), 0);
}

#[test]
fn double_trap_needs_no_mover_in_the_custodial_pair() {
    // D is custodial and enclosed along the row (by A, and by A beyond its partner K); the
    // mover comes from below, off that axis. In a double trap that is enough.
    let arguments = "piece 1 captures 12\npiece 4 custodial\n\
piece 4 dbl_trap\npiece 4 dbl_trap_capt\npiece 4 dbl_trap_squares 7\n\
piece 8 dbl_trap\npiece 8 dbl_trap_capt\npiece 8 dbl_trap_squares 7\npiece 8 capt_sides 4\n";
    let board = [". A . . .", "A K D A .", ". A . . .", ". . A . ."];
    let game = play(&rules(&board, arguments), &[((2, 3), (2, 2))]);
    assert!(!occupied(&game, 1, 1) && !occupied(&game, 2, 1));
    // Outside a double trap (no dbl_trap), D stays: the mover is not on its row.
    let single = "piece 1 captures 12\npiece 4 custodial\npiece 8 capt_sides 4\n";
    let game = play(&rules(&board, single), &[((2, 3), (2, 2))]);
    assert!(occupied(&game, 2, 1));
}

#[test]
fn forbid_repeat_covers_the_whole_game() {
    let board = ["A . D", ". . .", ". . ."];
    let r = rules(&board, "forbid_repeat\n");
    // Six plies back to the start with player 0 to move: the sixth is refused.
    let moves = [
        ((0, 0), (0, 1)),
        ((2, 0), (2, 2)),
        ((0, 1), (0, 2)),
        ((2, 2), (2, 1)),
        ((0, 2), (0, 0)),
    ];
    let mut game = play(&r, &moves);
    assert_eq!(
        game.try_play(mv(&r, (2, 1), (2, 0))).err(),
        Some(MoveError::Repetition)
    );
    assert_eq!(game.moves().len(), 5, "a refused move changes nothing");
}

#[test]
fn forbid_repeat_tells_the_side_to_move_apart() {
    // Player 0 goes round a triangle in three moves, player 1 back and forth in two: the
    // pieces stand as at the start, but player 1 is to move, so it is a new position.
    let board = ["A . D", ". . .", ". . ."];
    let r = rules(&board, "forbid_repeat\n");
    let game = play(
        &r,
        &[
            ((0, 0), (0, 2)),
            ((2, 0), (2, 1)),
            ((0, 2), (0, 1)),
            ((2, 1), (2, 0)),
            ((0, 1), (0, 0)),
        ],
    );
    assert!(game.position().board().eq(r.start_position().board()));
    assert_eq!(game.side_to_move(), Player::One);
    assert_eq!(game.outcome(), None);
}

#[test]
fn with_forbid_repeat_only_repeating_moves_count_as_none() {
    // Each side has one square to go to; after three plies player 1's only move would
    // recreate the start.
    let board = ["A . # D ."];
    let moves = [((0, 0), (1, 0)), ((3, 0), (4, 0)), ((1, 0), (0, 0))];
    let game = play(&rules(&board, "forbid_repeat\n"), &moves);
    assert_eq!(
        game.outcome(),
        ended(Some(Player::Zero), EndReason::NoMoves)
    );
    assert!(game.legal_moves().collect::<Vec<_>>().is_empty());
    assert_eq!(play(&rules(&board, ""), &moves).outcome(), None);
}

#[test]
fn no_move_is_judged_before_an_escape_for_the_side_to_move() {
    // Player 0's escaping piece stands on an escape square from the start. If player 0 can
    // move, he has escaped; if not, he loses for having no move.
    let arguments = "piece 1 escape\nsquare 4 escape\n";
    let stuck = ["Ae # D ."];
    assert_eq!(
        Game::new(rules(&stuck, arguments)).outcome(),
        ended(Some(Player::One), EndReason::NoMoves)
    );
    let free = ["Ae . # D"];
    assert_eq!(
        Game::new(rules(&free, arguments)).outcome(),
        ended(Some(Player::Zero), EndReason::Escape(piece(1)))
    );
}

#[test]
fn escape_is_judged_before_capt_loss() {
    // A escapes and, arriving, captures D, player 1's last capt_loss piece.
    let board = ["A . .e", ". . D", "K . ."];
    let arguments = "piece 1 escape\npiece 1 captures 4\npiece 4 capt_sides 1\n\
piece 4 capt_loss\nsquare 4 escape\n";
    let game = play(&rules(&board, arguments), &[((0, 0), (2, 0))]);
    assert!(!occupied(&game, 2, 1));
    assert_eq!(
        game.outcome(),
        ended(Some(Player::Zero), EndReason::Escape(piece(1)))
    );
}

#[test]
fn capt_loss_ends_the_game_for_either_player() {
    // Player 0 loses his only A; player 1 loses his only K.
    let board = ["A . . .", ". . . .", ". . D .", "B . . K"];
    let arguments = "piece 1 capt_loss\npiece 1 capt_sides 1\npiece 4 captures 1\n\
piece 8 capt_loss\npiece 8 capt_sides 1\npiece 2 captures 8\n";
    let r = rules(&board, arguments);
    let game = play(&r, &[((0, 3), (1, 3)), ((2, 2), (1, 2)), ((1, 3), (2, 3))]);
    // K next to the mover B at (2, 3) is captured: player 0 wins.
    assert_eq!(
        game.outcome(),
        ended(Some(Player::Zero), EndReason::CaptureLoss(piece(8)))
    );
    let game = play(
        &r,
        &[
            ((0, 3), (0, 2)),
            ((2, 2), (1, 2)),
            ((0, 2), (0, 3)),
            ((1, 2), (1, 0)),
        ],
    );
    assert_eq!(
        game.outcome(),
        ended(Some(Player::One), EndReason::CaptureLoss(piece(1)))
    );
}
