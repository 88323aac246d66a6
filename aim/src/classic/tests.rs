use super::*;
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{PieceType, Setup, Square};

/// The 11x11 rules: corners to escape to, the king (bit 1) for player 1, attackers
/// (bit 4) for player 0.
fn rules() -> Rules {
    Rules::parse(include_bytes!("../../../data/rules/hnefatafl")).expect("the shipped rules")
}

/// The evaluation with the escape-path terms on less the one with them off, from the
/// side to move's view: the king on d6 (x 3, y 5) of an otherwise empty board but for
/// the attackers on `attackers`.
fn paths_term(attackers: &[(u8, u8)], to_move: Player) -> i32 {
    let rules = rules();
    let piece = |bit| PieceType::from_bit(bit).expect("a piece type");
    let square = |x, y| Square::new(x, y).expect("a square");
    let mut pieces = vec![(square(3, 5), piece(1)), (square(9, 9), piece(2))];
    pieces.extend(attackers.iter().map(|&(x, y)| (square(x, y), piece(4))));
    let position = Position::from_setup(&rules, &Setup::new(pieces, to_move)).expect("a position");
    let on = EvalWeights {
        fork_to_move: 700,
        fork_one: 100,
        fork_two: 400,
        three_moves_to_escape: 30,
        ..EvalWeights::default()
    };
    let with = evaluate(&Tables::new(&rules, on), &position);
    let without = evaluate(&Tables::new(&rules, EvalWeights::default()), &position);
    with - without
}

/// Every evaluation weight on, each a different odd amount, so that no two terms can
/// make up for each other.
fn all_terms() -> EvalWeights {
    EvalWeights {
        piece: 101,
        mobility: 7,
        escape_distance: [3, 41, 17, 5],
        open_line_to_move: 2003,
        open_line_one: 151,
        open_line_two: 907,
        two_moves_to_escape: 61,
        escape_route: 27,
        guard: 23,
        enclosure: [251, 71, 19],
        threat_percent: 63,
        tempo: 11,
        fork_to_move: 701,
        fork_one: 103,
        fork_two: 401,
        three_moves_to_escape: 31,
    }
}

/// Positions of random games from the start, and random set-ups: pieces of random
/// types on random squares they may stand on, either side to move.
fn random_positions(rules: &Rules, seed: u64) -> Vec<Position> {
    let mut random = SplitMix::new(seed);
    let mut positions = Vec::new();
    for _ in 0..12 {
        let mut position = rules.start_position();
        for _ in 0..150 {
            positions.push(position.clone());
            let mut moves = Vec::new();
            position.for_each_move(|mv| moves.push(mv));
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            position.play_unchecked(moves[random.below(moves.len())]);
        }
    }
    let types: Vec<PieceType> = rules.piece_rules().iter().map(|r| r.piece()).collect();
    for _ in 0..600 {
        let density = 1 + random.below(6);
        let mut pieces = Vec::new();
        for square in rules.squares() {
            let Some(kind) = rules.square_type(square) else {
                continue;
            };
            if random.below(10) >= density {
                continue;
            }
            let piece = types[random.below(types.len())];
            let may_stand = rules
                .piece_rule(piece)
                .is_some_and(|rule| rule.occupies().bits() & kind.bit() != 0);
            if may_stand {
                pieces.push((square, piece));
            }
        }
        let side = if random.below(2) == 0 {
            Player::Zero
        } else {
            Player::One
        };
        if let Ok(position) = Position::from_setup(rules, &Setup::new(pieces, side)) {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn the_bitboard_evaluation_adds_up_the_same_terms_as_the_scalar_one() {
    let files: [(&str, &[u8]); 10] = [
        ("brandub", include_bytes!("../../../data/rules/brandub")),
        ("ard_ri", include_bytes!("../../../data/rules/ard_ri")),
        ("halatafl", include_bytes!("../../../data/rules/halatafl")),
        ("petteia", include_bytes!("../../../data/rules/petteia")),
        ("tablut", include_bytes!("../../../data/rules/tablut")),
        (
            "foteviken_tablut",
            include_bytes!("../../../data/rules/foteviken_tablut"),
        ),
        ("hnefatafl", include_bytes!("../../../data/rules/hnefatafl")),
        (
            "copenhagen",
            include_bytes!("../../../data/rules/copenhagen"),
        ),
        ("tawlbwrdd", include_bytes!("../../../data/rules/tawlbwrdd")),
        ("brandubh", include_bytes!("../../../data/rules/brandubh")),
    ];
    let mut files_with_threats = 0;
    for (seed, (name, text)) in files.iter().enumerate() {
        let rules = Rules::parse(text).expect("the shipped rules");
        let positions = random_positions(&rules, seed as u64 + 1);
        for weights in [EvalWeights::default(), all_terms()] {
            let tables = Tables::new(&rules, weights);
            let bits = tables
                .bits
                .as_ref()
                .expect("a board of at most 128 squares");
            let mut threats = 0;
            for position in &positions {
                let scalar = evaluate_scalar(&tables, position);
                assert_eq!(
                    evaluate_bits(&tables, bits, position),
                    scalar,
                    "{name}: {:?}",
                    position.setup()
                );
                threats += usize::from(scalar.1);
            }
            // Not every position has a threat.
            assert!(threats < positions.len(), "{name}: {threats}");
            files_with_threats += usize::from(threats > 0);
        }
    }
    // The threat term is exercised (halatafl captures by jumping only: it has none).
    assert!(
        files_with_threats >= 2 * (files.len() - 1),
        "{files_with_threats}"
    );
}

#[test]
fn the_evaluation_memo_gives_what_the_evaluation_does() {
    let files: [&[u8]; 2] = [
        include_bytes!("../../../data/rules/hnefatafl"),
        include_bytes!("../../../data/rules/tablut"),
    ];
    for (seed, text) in files.iter().enumerate() {
        let rules = Rules::parse(text).expect("the shipped rules");
        let tables = Tables::new(&rules, EvalWeights::default());
        // Each position with either side to move: the same pieces, another key.
        let positions: Vec<Position> = random_positions(&rules, seed as u64 + 7)
            .into_iter()
            .flat_map(|position| {
                let mut passed = position.clone();
                passed.pass_unchecked();
                [position, passed]
            })
            .collect();
        // One slot: every other position takes it over; two and the search's size.
        for mut memo in [0, 1, 16].map(EvalCache::with_slots) {
            for round in 0..2 {
                for (i, position) in positions.iter().enumerate() {
                    // The second round goes back and forth: hits and misses mixed.
                    let position = if round == 1 && i % 2 == 1 {
                        &positions[i - 1]
                    } else {
                        position
                    };
                    assert_eq!(
                        memo.evaluate_with_threat(&tables, position),
                        evaluate_with_threat(&tables, position),
                        "{:?}",
                        position.setup()
                    );
                }
            }
        }
    }
}

#[test]
fn a_nodes_remembered_guesses_are_the_guesses() {
    let files: [&[u8]; 4] = [
        include_bytes!("../../../data/rules/hnefatafl"),
        include_bytes!("../../../data/rules/brandub"),
        // Jump captures, guessed each time.
        include_bytes!("../../../data/rules/halatafl"),
        // More than 128 squares: every square counts as beside an enemy.
        include_bytes!("../../../data/rules/alea_evangelii"),
    ];
    for (seed, text) in files.iter().enumerate() {
        let rules = Rules::parse(text).expect("the shipped rules");
        let tables = Tables::new(&rules, EvalWeights::default());
        let mut guesses = NodeGuesses::new(tables.square_count);
        let mut guessed = 0;
        // Consecutive positions of random games: a guess of the last one is stale.
        for position in random_positions(&rules, seed as u64 + 11) {
            let board = position.board_bits();
            let beside = beside_enemy(&tables, &position);
            let mover = position.side_to_move();
            guesses.next_node();
            for mv in position.moves() {
                let guess = move_guess(&tables, board, beside, mv, mover);
                assert_eq!(
                    guesses.guess(&tables, board, beside, mv, mover),
                    guess,
                    "{mv} in {:?}",
                    position.setup()
                );
                guessed += usize::from(guess != 0);
            }
        }
        assert!(guessed > 100, "{guessed}");
    }
}

#[test]
fn a_king_one_move_from_a_fork_scores_the_fork() {
    // To any edge (d1, d11, a6, k6), each square seeing two corners along it.
    assert_eq!(paths_term(&[(7, 7)], Player::One), 700);
    assert_eq!(paths_term(&[(7, 7)], Player::Zero), -400);
    // With the row and the way north closed only the way south is left: one blocking
    // move answers it.
    assert_eq!(paths_term(&[(2, 5), (4, 5), (3, 2)], Player::Zero), -100);
}

#[test]
fn a_king_three_moves_from_a_corner_scores_that() {
    // The row and the ways to both edges closed: d6-d4, d4-a4, a4-a1.
    let closed = [(2, 5), (4, 5), (3, 2), (3, 8)];
    assert_eq!(paths_term(&closed, Player::Zero), -30);
    assert_eq!(paths_term(&closed, Player::One), 30);
    // With the second moves closed too (every square of column d it reaches walled
    // in on its row) the term is gone.
    let walled = [
        (2, 5),
        (4, 5),
        (3, 2),
        (3, 8),
        (2, 3),
        (4, 3),
        (2, 4),
        (4, 4),
        (2, 6),
        (4, 6),
        (2, 7),
        (4, 7),
    ];
    assert_eq!(paths_term(&walled, Player::One), 0);
}

#[test]
fn an_enemy_king_with_an_open_line_to_a_corner_is_a_threat() {
    let rules = rules();
    let tables = Tables::new(&rules, EvalWeights::default());
    let piece = |bit| PieceType::from_bit(bit).expect("a piece type");
    let square = |x, y| Square::new(x, y).expect("a square");
    // The king on a6 (x 0, y 5), with a defender on j10 and attackers on `attackers`.
    let threatened = |attackers: &[(u8, u8)], to_move| {
        let mut pieces = vec![(square(0, 5), piece(1)), (square(9, 9), piece(2))];
        pieces.extend(attackers.iter().map(|&(x, y)| (square(x, y), piece(4))));
        let position =
            Position::from_setup(&rules, &Setup::new(pieces, to_move)).expect("a position");
        escape_threatened(&tables, &position)
    };
    // Both ways along the edge open, one, none: the attackers face a threat while one is.
    assert!(threatened(&[(5, 6)], Player::Zero));
    assert!(threatened(&[(0, 2)], Player::Zero));
    assert!(threatened(&[(0, 8)], Player::Zero));
    assert!(!threatened(&[(0, 2), (0, 8)], Player::Zero));
    // The king's own side to move faces none: it escapes.
    assert!(!threatened(&[(5, 6)], Player::One));
    // A line to an edge square that is no corner is no threat.
    assert!(!threatened(&[(0, 4), (0, 6)], Player::Zero));
}
