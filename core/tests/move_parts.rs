//! A `Move` whose parts contradict each other cannot be made: not by its constructor, not
//! by deserialising.

use hnefatafl_core::{Direction, Jumps, Move, MovePathError, Square};

fn square(x: u8, y: u8) -> Square {
    Square::new(x, y).expect("below MAX_SIDE")
}

fn jumps(directions: &[Direction]) -> Jumps {
    Jumps::try_from(directions.to_vec()).expect("a short path")
}

#[test]
fn the_constructor_refuses_jumps_that_end_elsewhere() {
    let (east, south) = (Direction::East, Direction::South);
    let path = jumps(&[east, south]);
    let mv = Move::with_jumps(square(0, 0), square(2, 2), path).expect("consistent");
    assert_eq!(
        (mv.from(), mv.to(), mv.jumps()),
        (square(0, 0), square(2, 2), path)
    );
    assert_eq!(mv, "0 0 2 0 2 2".parse().expect("a jump capture"));

    assert_eq!(
        Move::with_jumps(square(0, 0), square(2, 0), path),
        Err(MovePathError::WrongEnd {
            from: square(0, 0),
            to: square(2, 0),
            landing: square(2, 2),
        })
    );
    assert_eq!(
        Move::with_jumps(square(1, 0), square(1, 0), jumps(&[Direction::North])),
        Err(MovePathError::OffBoard { from: square(1, 0) })
    );
    // Without jumps, any two squares make an ordinary move: the rules judge it.
    let ordinary = Move::with_jumps(square(0, 0), square(3, 4), Jumps::EMPTY);
    assert_eq!(ordinary, Ok(Move::new(square(0, 0), square(3, 4))));
}

#[test]
fn a_jump_move_names_the_square_it_ends_on() {
    let path = jumps(&[Direction::East]);
    let mv = Move::jump(square(4, 4), path).expect("on the board");
    assert_eq!(Move::with_jumps(mv.from(), mv.to(), mv.jumps()), Ok(mv));
}

#[cfg(feature = "serde")]
#[test]
fn deserialising_refuses_a_move_whose_jumps_end_elsewhere() {
    let consistent = r#"{"from":[0,0],"to":[2,2],"jumps":["East","South"]}"#;
    let mv: Move = serde_json::from_str(consistent).expect("a consistent move");
    assert_eq!(mv.to(), square(2, 2));
    assert_eq!(serde_json::to_string(&mv).expect("serializes"), consistent);

    let wrong_end = r#"{"from":[0,0],"to":[0,0],"jumps":["East","South"]}"#;
    let error = serde_json::from_str::<Move>(wrong_end).expect_err("inconsistent");
    assert!(
        error
            .to_string()
            .contains("the jumps from 0 0 end on 2 2, not on 0 0"),
        "{error}"
    );
    let off_board = r#"{"from":[0,0],"to":[0,0],"jumps":["West"]}"#;
    let error = serde_json::from_str::<Move>(off_board).expect_err("off the board");
    assert!(error.to_string().contains("leave the board"), "{error}");

    // An ordinary move, as saves before jump captures wrote it, still reads.
    let old = r#"{"from":[4,1],"to":[2,1]}"#;
    let mv: Move = serde_json::from_str(old).expect("an ordinary move");
    assert_eq!(mv, Move::new(square(4, 1), square(2, 1)));
}
