use super::*;
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{PieceType, Rules, Setup};

/// A 5x5 board with four corners to escape to, a king captured between two attackers
/// like any piece, no throne, and no square hostile to anyone: small enough to reason
/// about every move.
const TINY: &str = "id\ttiny
name\t\"Five by five\"
width\t5
height\t5
pieces \\
0 0 0 0 0 \\
0 0 0 0 0 \\
0 0 1 0 0 \\
0 0 0 0 0 \\
0 4 0 4 0
squares \\
2 1 1 1 2 \\
1 1 1 1 1 \\
1 1 1 1 1 \\
1 1 1 1 1 \\
2 1 1 1 2
piece bit 1
piece 1 name\tking
piece 1 owner\t1
piece 1 captures\t4
piece 1 custodial
piece 1 capt_loss
piece 1 escape
piece 1 occupies\t3
piece bit 4
piece 4 name\tattacker
piece 4 owner\t0
piece 4 captures\t1
piece 4 custodial
piece 4 occupies\t1
square bit 1
square bit 2
square 2 escape
";

fn tiny() -> Rules {
    Rules::parse(TINY.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn brandub() -> Rules {
    Rules::parse(include_bytes!("../../../data/rules/brandub")).expect("brandub")
}

/// A position of `rules` from algebraic squares: the king's, the attackers'.
fn setup(rules: &Rules, king: &str, attackers: &[&str], to_move: Player) -> Position {
    let square = |name: &str| rules.parse_square(&[name]).expect("a square");
    let piece = |bit| PieceType::from_bit(bit).expect("a piece type");
    let mut pieces = vec![(square(king), piece(1))];
    pieces.extend(attackers.iter().map(|name| (square(name), piece(4))));
    Position::from_setup(rules, &Setup::new(pieces, to_move)).expect("a position")
}

fn words(rules: &Rules, moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&mv| puzzle::move_word(rules, mv))
        .collect()
}

/// The king on c3 and attackers on b5, e4, c2 and d1, the king to move.
///
/// No king move reaches a corner now: no win in 1. On a3 the king has two open lines,
/// a3-a1 over a2 and a3-a5 over a4; one attacker's move closes one at most (c2-a2 or
/// e4-a4) and none captures him (that needs attackers on a2 and a4 both), so c3-a3 wins
/// in 2. Every other move fails: on e3 (one line, over e2) he is captured by c2-e2
/// against e4; on c5 (one line, over d5, since b5 closes the other) by d1-d5 against b5;
/// b3, d3 and c4 are on no edge, so no corner is one move from them. c2 closes the way
/// down.
#[test]
fn the_king_wins_in_two_by_a_fork_and_by_nothing_else() {
    let rules = tiny();
    let position = setup(&rules, "c3", &["b5", "e4", "c2", "d1"], Player::One);
    let mut solver = Solver::new(1_000_000);
    let win = solver
        .solve(&position, 3, Search::Exact)
        .expect("within the limit")
        .expect("a forced win");
    assert_eq!(win.depth, 2);
    assert_eq!(words(&rules, &win.moves), ["c3-a3"]);
    assert_eq!(win.reason, EndReason::Escape(king()));
    assert_eq!(win.line.len(), 3, "{:?}", words(&rules, &win.line));
    // The same proof with the threat search, and move by move.
    let threats = solver.solve(&position, 2, Search::Threats).expect("limit");
    assert_eq!(threats.map(|win| win.moves), Some(win.moves.clone()));
    let a3 = rules.read_move("c3-a3").expect("a move");
    let e3 = rules.read_move("c3-e3").expect("a move");
    assert_eq!(solver.wins_with(&position, a3, 2), Ok(true));
    assert_eq!(solver.wins_with(&position, a3, 1), Ok(false));
    assert_eq!(solver.wins_with(&position, e3, 3), Ok(false));
}

/// The same board, the attackers to move: e4-c4 captures the king between c4 and c2 (no
/// other attacker reaches c4, b3 or d3 with a partner opposite).
#[test]
fn the_attackers_capture_the_king_in_one() {
    let rules = tiny();
    let position = setup(&rules, "c3", &["b5", "e4", "c2", "d1"], Player::Zero);
    let win = Solver::new(1_000_000)
        .solve(&position, 2, Search::Exact)
        .expect("within the limit")
        .expect("a forced win");
    assert_eq!(
        (win.depth, words(&rules, &win.moves)),
        (1, vec!["e4-c4".to_string()])
    );
    // The king was the last piece of his side, and core names a side left without a
    // piece by its having no move, before the lost king.
    let mut after = position.clone();
    after.play(win.line[0]);
    assert_eq!(after.count(king()), 0);
    assert_eq!(win.reason, EndReason::NoMoves);
}

#[test]
fn a_start_position_has_no_forced_win() {
    let copenhagen = Rules::parse(include_bytes!("../../../data/rules/copenhagen")).expect("rules");
    let mut solver = Solver::new(10_000_000);
    for rules in [brandub(), copenhagen] {
        let start = rules.start_position();
        assert_eq!(
            solver.solve(&start, 2, Search::Exact),
            Ok(None),
            "{}",
            rules.id()
        );
        assert!(
            solver.nodes() > 100,
            "every first move answered: {}",
            solver.nodes()
        );
    }
}

#[test]
fn the_node_limit_stops_the_search() {
    let rules = brandub();
    let mut solver = Solver::new(50);
    assert_eq!(
        solver.solve(&rules.start_position(), 2, Search::Exact),
        Err(OutOfNodes(50))
    );
}

/// Whether `mv` wins within `depth` for the side to move: every move and every answer,
/// with no order and no memory, as the definition says.
fn brute_wins(position: &Position, mv: Move, depth: u32) -> bool {
    let winner = position.side_to_move();
    let mut after = position.clone();
    after.play(mv);
    match after.outcome() {
        Some(outcome) => outcome.winner == Some(winner),
        None if depth <= 1 => false,
        None => after.moves().all(|answer| {
            let mut next = after.clone();
            next.play(answer);
            match next.outcome() {
                Some(outcome) => outcome.winner == Some(winner),
                None => next
                    .moves()
                    .any(|again| brute_wins(&next, again, depth - 1)),
            }
        }),
    }
}

/// Positions near the end of random brandub games, where wins are common.
fn endgame_positions(count: u64) -> Vec<Position> {
    let rules = brandub();
    let mut positions = Vec::new();
    for seed in 1..=count {
        let mut random = SplitMix::new(seed);
        let mut history = vec![rules.start_position()];
        while history.len() < 120 {
            let position = history.last().expect("a position").clone();
            if position.outcome().is_some() {
                break;
            }
            let moves: Vec<Move> = position.moves().collect();
            let mut next = position;
            next.play(moves[random.below(moves.len())]);
            history.push(next);
        }
        let end = history.len().saturating_sub(1);
        positions.extend(history[end.saturating_sub(5)..end].iter().cloned());
    }
    positions
}

#[test]
fn the_search_agrees_with_a_brute_force_search_on_brandub_endgames() {
    let (mut wins, mut deep) = (0, 0);
    let mut solver = Solver::new(u64::MAX);
    for position in endgame_positions(40) {
        let found = solver.solve(&position, 2, Search::Exact).expect("no limit");
        let brute = (1..=2).find_map(|depth| {
            let moves: Vec<Move> = position
                .moves()
                .filter(|&mv| brute_wins(&position, mv, depth))
                .collect();
            (!moves.is_empty()).then_some((depth, moves))
        });
        let position_text = format!("{position:?}");
        assert_eq!(
            found.as_ref().map(|win| (win.depth, win.moves.clone())),
            brute,
            "{position_text}"
        );
        if let Some(win) = found {
            wins += 1;
            deep += usize::from(win.depth == 2);
            // The line is played by the rules and ends the game as it says.
            let mut played = position.clone();
            for &mv in &win.line {
                played.try_play(mv).expect("a legal move");
            }
            let outcome = played.outcome().expect("the game is over");
            assert_eq!(outcome.winner, Some(position.side_to_move()));
            assert_eq!(outcome.reason, win.reason);
        }
    }
    assert!(wins >= 20 && deep >= 3, "{wins} wins, {deep} of them in 2");
}

#[test]
fn the_threat_search_finds_only_what_the_exact_one_finds() {
    let mut solver = Solver::new(u64::MAX);
    let mut found = 0;
    for position in endgame_positions(12) {
        let threats = solver
            .solve(&position, 3, Search::Threats)
            .expect("no limit");
        let exact = solver.solve(&position, 3, Search::Exact).expect("no limit");
        if let Some(win) = threats {
            found += 1;
            assert_eq!(Some(win), exact);
        }
    }
    assert!(found >= 5, "{found}");
}

fn king() -> PieceType {
    PieceType::from_bit(1).expect("the king's type")
}
