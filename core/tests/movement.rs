//! Hand-written tests of movement, game end, repetition, undo and redo, and notation.

mod common;

use common::{check, ended, mv, play, rules, sq};
use hnefatafl_core::{EndReason, Game, MoveError, Notation, Player};

#[test]
fn pieces_move_like_rooks_and_do_not_jump() {
    let r = rules(&["A . D .", ". . . .", ". . . .", ". . . ."], "");
    let game = Game::new(r.clone());
    let moves = game.legal_moves().collect::<Vec<_>>();
    // Right: one square (then D); down: three squares.
    assert_eq!(moves.len(), 4);
    assert_eq!(
        check(&game, 0, 0, 3, 0),
        Err(MoveError::Blocked(sq(&r, 2, 0)))
    );
    assert_eq!(
        check(&game, 0, 0, 2, 0),
        Err(MoveError::Blocked(sq(&r, 2, 0)))
    );
    assert_eq!(check(&game, 0, 0, 1, 1), Err(MoveError::NotStraight));
    assert_eq!(check(&game, 0, 0, 0, 0), Err(MoveError::SameSquare));
    assert_eq!(check(&game, 1, 0, 1, 1), Err(MoveError::NoPiece));
    assert_eq!(check(&game, 2, 0, 2, 1), Err(MoveError::NotYourPiece));
}

#[test]
fn occupies_blocks_passage_and_stopping() {
    // Attackers may not stand on the throne (type 2), so they cannot pass it either.
    let r = rules(&["A T . .", ". . . .", ". . . D", ". . . ."], "");
    let game = Game::new(r.clone());
    assert_eq!(
        check(&game, 0, 0, 1, 0),
        Err(MoveError::CannotEnter(sq(&r, 1, 0)))
    );
    assert_eq!(
        check(&game, 0, 0, 3, 0),
        Err(MoveError::CannotEnter(sq(&r, 1, 0)))
    );
    assert!(
        game.legal_moves()
            .collect::<Vec<_>>()
            .iter()
            .all(|m| m.to().y() >= 1)
    );
}

#[test]
fn off_board_squares_block_every_piece() {
    let r = rules(&["A X . .", ". . . .", ". . . D", ". . . ."], "");
    let game = Game::new(r.clone());
    assert_eq!(
        check(&game, 0, 0, 2, 0),
        Err(MoveError::CannotEnter(sq(&r, 1, 0)))
    );
}

#[test]
fn noreturn_is_judged_at_every_step() {
    // The king starts on the throne, leaves it, and may neither stop on it nor pass it.
    let r = rules(
        &[
            "A . . . .",
            ". . . . .",
            ". . k . .",
            ". . . . .",
            ". . . . .",
        ],
        "piece 1 noreturn 2\n",
    );
    let game = play(&r, &[(0, 0, 1, 0), (2, 2, 2, 1), (1, 0, 0, 0)]);
    assert_eq!(
        check(&game, 2, 1, 2, 2),
        Err(MoveError::NoReturn(sq(&r, 2, 2)))
    );
    assert_eq!(
        check(&game, 2, 1, 2, 4),
        Err(MoveError::NoReturn(sq(&r, 2, 2)))
    );
    assert!(
        game.legal_moves()
            .collect::<Vec<_>>()
            .iter()
            .all(|m| m.to() != sq(&r, 2, 2) && m.to() != sq(&r, 2, 4))
    );
}

#[test]
fn noreturn_allows_moving_within_the_area() {
    // Two throne squares side by side: the king may move from one to the other.
    let r = rules(
        &["A . . .", ". k T .", ". . . .", ". . . ."],
        "piece 1 noreturn 2\n",
    );
    let game = play(&r, &[(0, 0, 0, 1)]);
    assert_eq!(check(&game, 1, 1, 2, 1), Ok(()));
    // And out and over the ordinary square, but not back onto the area.
    let game = play(&r, &[(0, 0, 0, 3), (1, 1, 1, 0), (0, 3, 0, 2)]);
    assert_eq!(
        check(&game, 1, 0, 1, 1),
        Err(MoveError::NoReturn(sq(&r, 1, 1)))
    );
}

#[test]
fn escape_wins_for_the_owner() {
    let r = rules(
        &["A . . .", ". . . .", ". . . .", "K . . E"],
        "piece 1 escape\nsquare 4 escape\n",
    );
    let game = play(&r, &[(0, 0, 1, 0), (0, 3, 3, 3)]);
    assert_eq!(
        game.outcome(),
        ended(
            Some(Player::One),
            EndReason::Escape(hnefatafl_core::PieceType::from_bit(1).expect("bit"))
        )
    );
    assert!(game.legal_moves().collect::<Vec<_>>().is_empty());
    assert_eq!(
        game.clone().try_play(mv(&r, 1, 0, 2, 0)).err(),
        Some(MoveError::GameOver)
    );
}

#[test]
fn losing_every_capt_loss_piece_loses() {
    let r = rules(
        &[". A . .", "A K . .", ". A . .", ". . A D"],
        "piece 1 capt_loss\n",
    );
    let game = play(&r, &[(2, 3, 2, 1)]);
    let outcome = game.outcome().expect("the king is captured");
    assert_eq!(outcome.winner, Some(Player::Zero));
    assert!(matches!(outcome.reason, EndReason::CaptureLoss(p) if p.bit() == 1));
}

#[test]
fn a_player_without_moves_loses_and_that_is_judged_first() {
    // The defender in the corner is walled in once the attacker closes the gap.
    let r = rules(&["D A . .", ". . . .", "A . . .", ". . . ."], "");
    let game = play(&r, &[(0, 2, 0, 1)]);
    assert_eq!(
        game.outcome(),
        ended(Some(Player::Zero), EndReason::NoMoves)
    );
    // The no-move check comes before escape: the king escapes and captures the last
    // attacker that could move.
    let board = [
        "A D . . .",
        "D . . . K",
        ". . . . .",
        ". . . A .",
        ". . D . E",
    ];
    let r = rules(&board, "piece 1 escape\nsquare 4 escape\n");
    let game = play(&r, &[(3, 3, 3, 4), (4, 1, 4, 4)]);
    assert_eq!(game.outcome(), ended(Some(Player::One), EndReason::NoMoves));
}

#[test]
fn forbid_repeat_refuses_a_position_seen_before() {
    let r = rules(
        &["A . . .", ". . . .", ". . . .", ". . . D"],
        "forbid_repeat\n",
    );
    let mut game = play(&r, &[(0, 0, 1, 0), (3, 3, 2, 3), (1, 0, 0, 0)]);
    let back = mv(&r, 2, 3, 3, 3);
    assert_eq!(game.check(back), Err(MoveError::Repetition));
    assert!(!game.legal_moves().collect::<Vec<_>>().contains(&back));
    assert_eq!(game.try_play(back).err(), Some(MoveError::Repetition));
    // Without the rule the same move is legal.
    let r = rules(&["A . . .", ". . . .", ". . . .", ". . . D"], "");
    let mut game = play(&r, &[(0, 0, 1, 0), (3, 3, 2, 3), (1, 0, 0, 0)]);
    assert!(game.try_play(back).is_ok());
}

#[test]
fn undo_and_redo_walk_the_history() {
    let r = rules(&[". A . .", "A D . .", ". . . .", ". . A ."], "");
    let mut game = Game::new(r.clone());
    let start = game.position().clone();
    game.try_play(mv(&r, 2, 3, 2, 1)).expect("legal");
    let after = game.position().clone();
    assert_eq!(game.position_hashes().len(), 2);
    assert_eq!(game.undo(), Some(mv(&r, 2, 3, 2, 1)));
    assert_eq!(game.position(), &start);
    assert_eq!(game.redo(), Some(mv(&r, 2, 3, 2, 1)));
    assert_eq!(game.position(), &after);
    assert_eq!(game.redo(), None);
    game.undo();
    game.undo();
    assert_eq!(game.undo(), None);
    // A different move drops the redo list.
    game.try_play(mv(&r, 0, 1, 0, 3)).expect("legal");
    assert_eq!(game.redo(), None);
    assert_eq!(game.moves().collect::<Vec<_>>(), vec![mv(&r, 0, 1, 0, 3)]);
}

#[test]
fn notation_round_trips() {
    let r = rules(&["A . . .", ". . . .", ". . . .", ". . . D"], "");
    let m = mv(&r, 0, 0, 2, 0);
    assert_eq!(r.format_move(m, Notation::Numeric), "0 0 2 0");
    assert_eq!(r.format_move(m, Notation::Algebraic), "a4 c4");
    assert_eq!(r.parse_move(&["a4", "c4"]), Ok(m));
    assert_eq!(r.parse_move(&["0", "0", "2", "0"]), Ok(m));
    assert!(r.parse_move(&["a5", "c4"]).is_err());
    assert!(r.parse_move(&["e1", "c4"]).is_err());
    assert!(r.parse_move(&["0", "0", "4", "0"]).is_err());
    assert!(r.parse_move(&["0", "0", "x", "0"]).is_err());
    assert!(r.parse_move(&["a4"]).is_err());
}

#[test]
fn wide_boards_name_columns_beyond_z() {
    let row = std::iter::repeat_n(".", 30).collect::<Vec<_>>().join(" ");
    let first = format!("A {row}");
    let last = format!("{row} D");
    let r = rules(&[&first, &last], "");
    let corner = sq(&r, 30, 0);
    assert_eq!(r.format_square(corner, Notation::Algebraic), "ae2");
    assert_eq!(r.parse_square(&["ae2"]), Ok(corner));
    for square in r.squares() {
        for notation in [Notation::Numeric, Notation::Algebraic] {
            let text = r.format_square(square, notation);
            let words: Vec<&str> = text.split(' ').collect();
            assert_eq!(r.parse_square(&words), Ok(square), "{text}");
        }
    }
}

#[test]
fn a_move_that_cannot_be_made_changes_nothing() {
    let r = rules(&["A . . .", ". . . .", ". . . .", ". . . D"], "");
    let mut position = r.start_position();
    let before = position.clone();
    for m in [
        mv(&r, 1, 1, 2, 1),
        mv(&r, 0, 0, 3, 3),
        hnefatafl_core::Move::new(
            sq(&r, 0, 0),
            hnefatafl_core::Square::new(30, 30).expect("below MAX_SIDE"),
        ),
    ] {
        let undo = position.play_unchecked(m);
        assert_eq!(position, before);
        position.take_back(&undo);
        assert_eq!(position, before);
    }
}

#[test]
fn position_lists_its_pieces() {
    let r = rules(&["A . . .", ". . . .", ". . . .", ". . . D"], "");
    let position = r.start_position();
    let pieces: Vec<_> = position
        .pieces()
        .map(|(s, p)| (r.index(s).expect("on the board"), p.bit()))
        .collect();
    assert_eq!(pieces, vec![(0, 4), (15, 2)]);
    assert_eq!(
        position
            .squares_of(Player::Zero)
            .map(|s| r.index(s).expect("on the board"))
            .collect::<Vec<_>>(),
        vec![0]
    );
    assert_eq!(
        position
            .squares_of(Player::One)
            .map(|s| r.index(s).expect("on the board"))
            .collect::<Vec<_>>(),
        vec![15]
    );
    assert_eq!(position.side_to_move(), Player::Zero);
    assert_eq!(position.count_moves(), 6);
}
