//! Hand-written tests of each capture rule of the manual, including its `capt_edge` and
//! `custodial` examples. Attackers (`A`, player 0) move first; defenders (`D`) and the
//! king (`K`) belong to player 1.

mod common;

use common::{captures_1_1, occupied, play, rules};

// The manual's `custodial` example: S has `capt_sides 2` and `custodial`.
const CUSTODIAL: &str = "piece 2 custodial\n";

#[test]
fn custodial_piece_that_walks_between_two_enemies_is_not_captured() {
    let r = rules(&[". A . .", ". . D .", ". A . .", ". . . A"], CUSTODIAL);
    // A spare attacker moves, then the defender walks in between the two attackers.
    let game = play(&r, &[(3, 3, 3, 2), (2, 1, 1, 1)]);
    assert!(occupied(&game, 1, 1));
    // Attackers moving elsewhere do not capture it afterwards either.
    let game = play(&r, &[(3, 3, 3, 2), (2, 1, 1, 1), (3, 2, 3, 3)]);
    assert!(occupied(&game, 1, 1));
}

#[test]
fn custodial_piece_is_not_captured_without_a_piece_opposite_the_mover() {
    let r = rules(&[". A . .", ". D . .", ". A . .", ". . A ."], CUSTODIAL);
    let game = play(&r, &[(2, 3, 2, 1)]);
    assert!(
        occupied(&game, 1, 1),
        "no piece on the other side of the mover"
    );
}

#[test]
fn custodial_piece_is_captured_between_the_mover_and_an_enemy() {
    let r = rules(&[". A . .", "A D . .", ". A . .", ". . A ."], CUSTODIAL);
    let game = play(&r, &[(2, 3, 2, 1)]);
    assert!(!occupied(&game, 1, 1));
    assert_eq!(game.history()[0].captures().count(), 1);
}

#[test]
fn strict_custodial_needs_the_mover_on_the_capturing_axis() {
    // Enclosed on the column by two attackers; the mover comes along the row.
    let r = rules(&[". A . .", ". D . .", ". A . .", "A . . ."], CUSTODIAL);
    let game = play(&r, &[(0, 3, 0, 1)]);
    assert!(occupied(&game, 1, 1));
}

#[test]
fn non_custodial_piece_is_captured_on_any_two_sides() {
    let r = rules(&[". A . .", ". D . .", ". . . .", ". . A ."], "");
    let game = play(&r, &[(2, 3, 2, 1)]);
    assert!(!occupied(&game, 1, 1));
}

// The manual's `capt_edge` example: S has `capt_edge`, `custodial` and `capt_sides 2`.
const CAPT_EDGE: &str = "piece 2 custodial\npiece 2 capt_edge\n";

#[test]
fn capt_edge_piece_that_moves_in_is_not_captured() {
    let r = rules(&["A . . .", ". D . .", "A . . .", ". . . A"], CAPT_EDGE);
    let game = play(&r, &[(3, 3, 3, 2), (1, 1, 0, 1)]);
    assert!(occupied(&game, 0, 1));
}

#[test]
fn capt_edge_piece_enclosed_on_every_board_side_is_captured() {
    let r = rules(&["A . . .", "D . . .", "A . . .", ". A . ."], CAPT_EDGE);
    let game = play(&r, &[(1, 3, 1, 1)]);
    assert!(!occupied(&game, 0, 1), "enclosed on all sides on the board");
}

#[test]
fn without_capt_edge_the_same_piece_is_not_captured() {
    let r = rules(&["A . . .", "D . . .", "A . . .", ". A . ."], CUSTODIAL);
    let game = play(&r, &[(1, 3, 1, 1)]);
    assert!(occupied(&game, 0, 1), "no piece opposite the mover");
}

#[test]
fn capt_edge_lowers_capt_sides_to_the_squares_on_the_board() {
    // A king with capt_sides 4 against the edge: three attackers are enough with capt_edge.
    let with = rules(
        &["A . . .", "K . . .", "A . . .", ". A . ."],
        "piece 1 capt_sides 4\npiece 1 capt_edge\n",
    );
    assert!(!occupied(&play(&with, &[(1, 3, 1, 1)]), 0, 1));
    let without = rules(
        &["A . . .", "K . . .", "A . . .", ". A . ."],
        "piece 1 capt_sides 4\n",
    );
    assert!(occupied(&play(&without, &[(1, 3, 1, 1)]), 0, 1));
}

#[test]
fn capt_edge_custodial_piece_in_a_corner_is_captured_without_a_pair() {
    // In a corner no custodial pair is possible; two enclosing pieces suffice.
    let r = rules(&["D . . .", ". . . .", "A . . .", ". A . ."], CAPT_EDGE);
    let game = play(&r, &[(1, 3, 1, 0)]);
    assert!(occupied(&game, 0, 0), "one side only");
    let r = rules(&["D . . .", "A . . .", ". . . .", ". A . ."], CAPT_EDGE);
    let game = play(&r, &[(1, 3, 1, 0)]);
    assert!(!occupied(&game, 0, 0));
}

#[test]
fn off_board_squares_count_as_edges() {
    // X squares beside the defender act like the board's edge for capt_edge.
    let r = rules(&[". A . .", "X D . .", ". A . .", ". . A ."], CAPT_EDGE);
    let game = play(&r, &[(2, 3, 2, 1)]);
    assert!(!occupied(&game, 1, 1));
    let r = rules(&[". A . .", "X D . .", ". A . .", ". . A ."], CUSTODIAL);
    let game = play(&r, &[(2, 3, 2, 1)]);
    assert!(occupied(&game, 1, 1));
}

#[test]
fn capt_sides_four_needs_every_side() {
    let extra = "piece 1 capt_sides 4\n";
    let r = rules(&[". A . .", "A K . .", ". A . .", ". . A ."], extra);
    assert!(captures_1_1(&r));
    let r = rules(&[". A . .", ". K . .", ". A . .", ". . A ."], extra);
    assert!(!captures_1_1(&r));
}

#[test]
fn empty_hostile_square_encloses_like_an_enemy() {
    let extra = "square 2 captures 2\n";
    let r = rules(
        &[". . . .", "T D . .", ". . . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    assert!(captures_1_1(&r));
    // Without `captures` the throne is neutral.
    let r = rules(&[". . . .", "T D . .", ". . . .", ". . A ."], CUSTODIAL);
    assert!(!captures_1_1(&r));
}

#[test]
fn a_hostile_square_with_a_piece_on_it_uses_that_piece() {
    // The king stands on the throne: the king does not capture defenders.
    let extra = "square 2 captures 2\n";
    let r = rules(
        &[". . . .", "k D . .", ". . . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    assert!(!captures_1_1(&r));
}

#[test]
fn square_capt_sides_overrides_the_pieces_it_names() {
    // Defenders on ordinary squares need four sides; 4 also turns custodial off.
    let extra = "square 1 capt_sides 4\nsquare 1 capt_sides_pieces 2\n";
    let r = rules(
        &[". A . .", "A D . .", ". . . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    assert!(!captures_1_1(&r), "three sides of four");
    let r = rules(
        &[". A . .", "A D . .", ". A . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    assert!(captures_1_1(&r));
    // A square whose capt_sides_pieces does not name the piece has no effect.
    let extra = "square 1 capt_sides 4\nsquare 1 capt_sides_pieces 1\n";
    let r = rules(
        &[". A . .", "A D . .", ". K . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    assert!(captures_1_1(&r));
}

#[test]
fn square_capt_sides_below_four_keeps_custodial() {
    let extra = "square 1 capt_sides 3\nsquare 1 capt_sides_pieces 2\n";
    let r = rules(
        &[". A . .", "A D . .", ". . . .", ". . A ."],
        &format!("{CUSTODIAL}{extra}"),
    );
    // Three sides with custodial kept: the mover's axis (the row) has only the mover and A.
    assert!(captures_1_1(&r));
}

const DOUBLE_TRAP: &str = "piece 1 capt_sides 4\n\
piece 1 dbl_trap\npiece 1 dbl_trap_capt\npiece 1 dbl_trap_squares 7\n\
piece 2 custodial\npiece 2 dbl_trap\npiece 2 dbl_trap_capt\npiece 2 dbl_trap_squares 7\n";

const TRAP_BOARD: [&str; 4] = [". A A .", "A K D A", ". A . .", ". . A ."];

#[test]
fn double_trap_captures_both_pieces() {
    let r = rules(&TRAP_BOARD, DOUBLE_TRAP);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(
        !occupied(&game, 1, 1),
        "the king is taken in the double trap"
    );
    assert!(!occupied(&game, 2, 1));
    assert_eq!(game.history()[0].captures().count(), 2);
}

#[test]
fn without_double_trap_the_king_survives() {
    let r = rules(&TRAP_BOARD, "piece 1 capt_sides 4\npiece 2 custodial\n");
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(occupied(&game, 1, 1));
    assert!(!occupied(&game, 2, 1), "the defender is captured as usual");
}

#[test]
fn a_trigger_only_piece_stays() {
    let extra = DOUBLE_TRAP.replace("piece 1 dbl_trap_capt\n", "");
    let r = rules(&TRAP_BOARD, &extra);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(occupied(&game, 1, 1), "the king only triggers the trap");
    assert!(!occupied(&game, 2, 1));
}

#[test]
fn double_trap_squares_limit_the_rule() {
    // The king must stand on a throne (type 2) for the double trap: here it does not.
    let extra = DOUBLE_TRAP.replace("piece 1 dbl_trap_squares 7", "piece 1 dbl_trap_squares 2");
    let board = [". A A .", "A K D A", ". A . .", ". . A T"];
    let r = rules(&board, &extra);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(occupied(&game, 1, 1));
}

#[test]
fn double_trap_complements_do_not_trap_each_other() {
    // Two defenders, both complements: no double trap; the king lacks the argument.
    let extra = "piece 1 dbl_trap\npiece 1 dbl_trap_squares 7\npiece 1 capt_sides 4\n\
piece 2 capt_sides 4\npiece 2 dbl_trap\npiece 2 dbl_trap_capt\npiece 2 dbl_trap_compl\npiece 2 dbl_trap_squares 7\n";
    let board = [". A A . K", "A D D A .", ". A . . .", ". . A . ."];
    let r = rules(&board, extra);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(occupied(&game, 1, 1) && occupied(&game, 2, 1));
    // The same without dbl_trap_compl: both are captured.
    let r = rules(&board, &extra.replace("piece 2 dbl_trap_compl\n", ""));
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(!occupied(&game, 1, 1) && !occupied(&game, 2, 1));
}

#[test]
fn dbl_trap_encl_needs_full_enclosure() {
    // The defender with dbl_trap_encl judged as capt_sides 4, not custodial.
    let extra = format!("{DOUBLE_TRAP}piece 2 dbl_trap_encl\n");
    let board = [". A . .", "A K D A", ". A . .", ". . A ."];
    let r = rules(&board, &extra);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(occupied(&game, 1, 1), "the defender is open at the top");
    let r = rules(&TRAP_BOARD, &extra);
    let game = play(&r, &[(2, 3, 2, 2)]);
    assert!(!occupied(&game, 1, 1) && !occupied(&game, 2, 1));
}

#[test]
fn dbl_trap_edge_replaces_capt_edge_in_a_double_trap() {
    // King and defender against the top edge; the king has capt_sides 4.
    let board = ["A K D A", ". A . .", ". . A .", ". . . ."];
    let r = rules(&board, DOUBLE_TRAP);
    let game = play(&r, &[(2, 2, 2, 1)]);
    assert!(
        occupied(&game, 1, 0),
        "no dbl_trap_edge: the edge does not help"
    );
    let r = rules(
        &board,
        &format!("{DOUBLE_TRAP}piece 1 dbl_trap_edge\npiece 2 dbl_trap_edge\n"),
    );
    let game = play(&r, &[(2, 2, 2, 1)]);
    assert!(!occupied(&game, 1, 0) && !occupied(&game, 2, 0));
}
