//! Without `forbid_repeat`, two engines playing each other must not repeat the same
//! positions forever: a side that is ahead avoids a move back to a position of the game.

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::{Game, Move, Player, Rules};
use std::collections::HashMap;

/// The shipped brandub rules, played here without their `forbid_repeat` (see `play`).
const BRANDUB: &str = include_str!("../../data/rules/brandub");
/// The test suite's own brandub variant (no `forbid_repeat`).
const TEST_BRANDUB: &str = include_str!("rules/brandub.txt");

fn engine() -> Engine {
    Engine::new(EngineConfig {
        threads: 1,
        hash_mib: 8,
    })
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A search to depth `d` on one thread with a small table and these knobs.
fn search_tuned(game: &Game, tuning: aim::Tuning, d: u32) -> aim::SearchResult {
    let mut engine = Engine::with_tuning(
        EngineConfig {
            threads: 1,
            hash_mib: 8,
        },
        tuning,
    );
    engine.search_within(game, &depth(d))
}

/// Plays engines at these depths against each other from the start, at most `cap` plies;
/// returns the most times one position occurred and whether the game ended.
fn play(text: &str, depths: [u32; 2], cap: usize) -> (usize, bool) {
    // The shipped files forbid repetition; the test is about engines that may repeat.
    let text = text.replace("\nforbid_repeat\n", "\n");
    let rules = Rules::parse(text.as_bytes()).expect("valid rules");
    assert!(!rules.forbid_repeat());
    let mut game = Game::new(rules);
    let mut engines = [engine(), engine()];
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut most = 1;
    seen.insert(game.position().hash(), 1);
    for _ in 0..cap {
        if game.outcome().is_some() {
            return (most, true);
        }
        let side = game.side_to_move().index();
        let result = engines[side].search_within(&game, &depth(depths[side]));
        let Some(mv) = result.best else {
            return (most, true);
        };
        game.try_play(mv).expect("the engine plays legal moves");
        let count = seen.entry(game.position().hash()).or_insert(0);
        *count += 1;
        most = most.max(*count);
    }
    (most, game.outcome().is_some())
}

#[test]
fn engines_do_not_repeat_positions_forever() {
    for text in [BRANDUB, TEST_BRANDUB] {
        for depths in [[2, 2], [2, 3], [3, 2]] {
            let (most, ended) = play(text, depths, 400);
            assert!(
                most <= 3,
                "depths {depths:?}: a position occurred {most} times (game ended: {ended})"
            );
        }
    }
}

/// The two-piece corridor game with a repetition rule added: the third occurrence of a
/// position ends the game, lost by `loser` (`mover`, `0` or `1`).
fn corridor_with_repetition(loser: &str) -> Rules {
    let text = format!(
        "{}repetition 3\nrepetition_loser {loser}\n",
        include_str!("rules/corridor.txt")
    );
    let rules = Rules::parse(text.as_bytes()).expect("valid rules");
    assert!(!rules.forbid_repeat() && rules.repetition().is_some());
    rules
}

/// The corridor game after both pieces went there and back twice but for the last move
/// of player 1: its move back `(1,1)` to `(2,1)` makes the start occur a third time.
fn one_move_from_the_third_occurrence(rules: &Rules) -> (Game, hnefatafl_core::Move) {
    let there_and_back = ["0 0 1 0", "2 1 1 1", "1 0 0 0", "1 1 2 1"];
    let mut game = Game::new(rules.clone());
    for text in there_and_back.iter().chain(&there_and_back[..3]) {
        game.try_play(text.parse().expect("a move"))
            .expect("a legal move");
    }
    assert_eq!(game.outcome(), None);
    (game, there_and_back[3].parse().expect("a move"))
}

#[test]
fn a_move_that_ends_the_game_by_repetition_scores_that_end() {
    for d in [1, 3] {
        // Player 0 loses the repetition: player 1 takes the win at once.
        let rules = corridor_with_repetition("0");
        let (game, back) = one_move_from_the_third_occurrence(&rules);
        let mut check = game.clone();
        check.try_play(back).expect("a legal move");
        assert_eq!(
            check.outcome().and_then(|outcome| outcome.winner),
            Some(hnefatafl_core::Player::One)
        );
        let result = engine().search_within(&game, &depth(d));
        assert_eq!(result.best, Some(back), "depth {d}");
        assert_eq!(result.score, aim::Score::win_in(1), "depth {d}");

        // The mover loses it: player 1 plays anything else.
        let rules = corridor_with_repetition("mover");
        let (game, back) = one_move_from_the_third_occurrence(&rules);
        let result = engine().search_within(&game, &depth(d));
        assert!(result.best.is_some_and(|mv| mv != back), "depth {d}");
        assert_ne!(result.score, aim::Score::loss_in(1), "depth {d}");
    }
}

/// The corridor game with a drawn repetition (the third occurrence) and player `king`'s
/// piece an escape piece, so that player is the king's side.
fn corridor_with_a_king(king: usize) -> Rules {
    let text = format!(
        "{}repetition 3\npiece {} escape\n",
        include_str!("rules/corridor.txt"),
        king + 1
    );
    Rules::parse(text.as_bytes()).expect("valid rules")
}

#[test]
fn a_draw_costs_the_kings_side_what_the_tuning_says() {
    let engine = |cost| {
        Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 8,
            },
            aim::Tuning {
                king_side_draw: cost,
                ..aim::Tuning::default()
            },
        )
    };
    let search = |king, cost, d| {
        let (game, back) = one_move_from_the_third_occurrence(&corridor_with_a_king(king));
        let mut check = game.clone();
        check.try_play(back).expect("a legal move");
        assert_eq!(check.outcome().map(|outcome| outcome.winner), Some(None));
        let result = engine(cost).search_within(&game, &depth(d));
        (result, back)
    };
    for d in [1, 3] {
        // Player 1 to move. As the king's side it keeps away from the draw ...
        let (result, back) = search(1, 500, d);
        assert!(result.best.is_some_and(|mv| mv != back), "depth {d}");
        assert!(result.score > aim::Score(-500), "depth {d}");
        // ... and as the other side it takes it, for what the draw costs the king's side.
        let (result, back) = search(0, 500, d);
        assert_eq!((result.best, result.score), (Some(back), aim::Score(500)));
    }
}

/// The corridor game with player 1 to move, whose move `(0,1)` to `(1,1)` makes a new position where player 0's
/// one move, `(2,1)` to `(2,0)`, goes back to a position of the game.
fn one_move_from_forcing_a_repetition(rules: Rules) -> (Game, hnefatafl_core::Move) {
    let mut game = Game::new(rules);
    for text in ["0 0 1 0", "2 1 1 1", "1 0 2 0", "1 1 0 1", "2 0 2 1"] {
        game.try_play(text.parse().expect("a move"))
            .expect("a legal move");
    }
    let forces: hnefatafl_core::Move = "0 1 1 1".parse().expect("a move");
    let mut check = game.clone();
    check.try_play(forces).expect("a legal move");
    assert!(!game.has_occurred(check.position()), "a new position");
    let replies: Vec<_> = check.legal_moves().collect();
    assert_eq!(replies.len(), 1);
    let before = check.clone();
    check.try_play(replies[0]).expect("a legal move");
    assert!(before.has_occurred(check.position()), "a repetition");
    (game, forces)
}

#[test]
fn repetitions_in_the_tree_score_as_draws() {
    let search = |king, tree_repetition, d| {
        let (game, forces) = one_move_from_forcing_a_repetition(corridor_with_a_king(king));
        let tuning = aim::Tuning {
            king_side_draw: 500,
            tree_repetition,
            ..aim::Tuning::default()
        };
        let result = search_tuned(&game, tuning, d);
        (result, forces)
    };
    for d in [2, 3, 4] {
        // The other side forces the repetition, for what the draw costs the king's side ...
        let (result, forces) = search(0, true, d);
        assert_eq!(result.score, aim::Score(500), "depth {d}");
        if d == 2 {
            assert_eq!(result.best, Some(forces));
        }
        // ... which the search does not see without the knob ...
        let (result, _) = search(0, false, d);
        assert_ne!(result.score, aim::Score(500), "depth {d}");
        // ... and the king's side keeps away from it.
        let (result, forces) = search(1, true, d);
        assert!(result.best.is_some_and(|mv| mv != forces), "depth {d}");
        assert!(result.score > aim::Score(-500), "depth {d}");
    }
}

#[test]
fn a_repetition_in_the_tree_that_loses_by_the_rules_scores_a_loss() {
    let search = |loser: &str, tree_repetition, d| {
        let (game, forces) = one_move_from_forcing_a_repetition(corridor_with_repetition(loser));
        let tuning = aim::Tuning {
            tree_repetition,
            ..aim::Tuning::default()
        };
        let result = search_tuned(&game, tuning, d);
        (result, forces)
    };
    for d in [2, 3] {
        // Player 0's one answer repeats, which loses it the game: player 1 wins.
        for loser in ["0", "mover"] {
            let (result, forces) = search(loser, true, d);
            assert_eq!(
                (result.best, result.score),
                (Some(forces), aim::Score::win_in(2)),
                "loser {loser}, depth {d}"
            );
            let (result, _) = search(loser, false, d);
            assert!(
                result.score.mate_plies().is_none(),
                "loser {loser}, depth {d}"
            );
        }
        // Repeating wins player 0 the game, but player 1 need not let it: no end is scored.
        let (result, _) = search("1", true, d);
        assert!(result.score.mate_plies().is_none(), "loser 1, depth {d}");
    }
}

/// A game of level 3 against an earlier version on the shipped 11x11 rules (a 4-ply
/// opening, then 15 plies), with the king's side to move. Its pieces on c10 and the
/// attackers' on b10 had gone back and forth: c10 to c11 lets b10 to b11 make the third
/// occurrence of a position, which ended that game drawn.
fn shuffled_11x11() -> (Game, hnefatafl_core::Move) {
    let rules = Rules::parse(include_bytes!("../../data/rules/hnefatafl")).expect("valid");
    let mut game = Game::new(rules.clone());
    let line = "j6 j5, f4 g4, g11 g8, e7 e9, a8 e8, e6 e7, f10 f9, d6 d9, d11 d10, f6 c6, \
                d1 d8, c6 c11, b6 b11, c11 c1, b11 b1, c1 c11, b1 b11, c11 c10, b11 b10";
    for text in line.split(',') {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mv = rules.parse_move(&words).expect("a move");
        game.try_play(mv).expect("a legal move");
    }
    let allows = rules.parse_move(&["c10", "c11"]).expect("a move");
    let mut check = game.clone();
    check.try_play(allows).expect("a legal move");
    check
        .try_play(rules.parse_move(&["b10", "b11"]).expect("a move"))
        .expect("a legal move");
    assert_eq!(check.outcome().map(|outcome| outcome.winner), Some(None));
    (game, allows)
}

#[test]
fn the_kings_side_does_not_let_the_attackers_repeat_on_11x11() {
    let search = |tree_repetition, d| {
        let (game, allows) = shuffled_11x11();
        let tuning = aim::Tuning {
            king_side_draw: 150,
            tree_repetition,
            ..aim::Tuning::default()
        };
        let result = search_tuned(&game, tuning, d);
        result.best == Some(allows)
    };
    // The third occurrence is the rules' end, which the search sees with the knob off too
    // (before it counted occurrences, it did not at depths 3 and 5).
    for tree_repetition in [true, false] {
        for d in [3, 4, 5] {
            assert!(!search(tree_repetition, d), "{tree_repetition}, depth {d}");
        }
    }
}

/// A game on the shipped Copenhagen rules (123 plies, attackers first), where the fourth
/// occurrence of a position ends the game lost for the king's side (player 1), whoever
/// makes it. The defenders are to move: `g1-f1` lets the attackers answer `g2-f2`, the
/// fourth occurrence.
fn copenhagen_cycle() -> (Game, hnefatafl_core::Move, hnefatafl_core::Move) {
    let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen")).expect("valid");
    let line = "a8-c8 g5-i5 d11-d8 e7-d7 d1-d3 e6-e8 k8-i8 g7-g9 e11-e9 g6-g3 a7-c7 f5-g5 \
        h11-h9 g9-g8 j6-j2 h6-h4 k6-j6 h4-j4 e1-e2 f6-h6 f2-i2 h6-h3 k4-k3 h3-h7 j6-j10 h7-h6 \
        e2-e3 j4-k4 k5-k6 k4-h4 f1-f2 f7-g7 a4-d4 h6-f6 j2-j4 g7-h7 c7-c5 f6-j6 i8-i10 j6-j9 \
        k7-k9 j9-j5 j4-j2 j5-k5 j10-j7 k5-k4 h1-i1 g8-h8 a5-a4 g3-i3 f10-e10 h8-g8 g1-g3 \
        g8-i8 e3-e4 h4-h6 j2-j3 k4-g4 b6-b10 i3-i4 j7-j4 h6-j6 i1-h1 i4-h4 f2-h2 f4-f2 g3-i3 \
        f2-e2 d3-e3 e2-d2 k9-j9 i8-i9 h9-h11 h7-h9 k6-k5 d7-k7 j9-k9 g4-g1 e3-e1 g1-f1 e1-d1 \
        d2-e2 i3-e3 e2-c2 j3-f3 f1-e1 d1-c1 c2-b2 d4-d1 e1-f1 h2-f2 i9-j9 k3-i3 e8-e7 \
        i10-i9 j6-j9 e10-j10 k7-j7 i3-g3 f1-e1 e3-e2 b2-b3 e4-e3 e1-f1 i2-i4 h4-e4 i4-i1 \
        f1-g1 f2-g2 g1-f1 g2-f2 e5-d5 a4-b4 f1-g1 f2-g2 g1-f1 g2-f2 f1-g1 f2-g2 g1-f1 g2-f2 \
        f1-g1 f2-g2";
    let mv = |text: &str| {
        let words: Vec<&str> = text.split('-').collect();
        rules.parse_move(&words).expect("a move")
    };
    let mut game = Game::new(rules.clone());
    for text in line.split_whitespace() {
        game.try_play(mv(text)).expect("a legal move");
    }
    assert_eq!(game.ply(), 123);
    assert_eq!(game.side_to_move(), hnefatafl_core::Player::One);
    let (allows, repeats) = (mv("g1-f1"), mv("g2-f2"));
    // The rules, not the engine, say what the two moves make of the game.
    let mut check = game.clone();
    check.try_play(allows).expect("a legal move");
    assert_eq!(check.outcome(), None);
    check.try_play(repeats).expect("a legal move");
    let outcome = check
        .outcome()
        .expect("the fourth occurrence ends the game");
    assert_eq!(outcome.winner, Some(hnefatafl_core::Player::Zero));
    assert_eq!(outcome.reason, hnefatafl_core::EndReason::Repetition);
    (game, allows, repeats)
}

#[test]
fn the_kings_side_does_not_let_the_attackers_make_the_fourth_occurrence_on_copenhagen() {
    let (game, allows, repeats) = copenhagen_cycle();
    for tree_repetition in [true, false] {
        let tuning = aim::Tuning {
            tree_repetition,
            ..aim::Tuning::default()
        };
        for d in [2, 3, 4] {
            let result = search_tuned(&game, tuning.clone(), d);
            assert!(
                result.best.is_some_and(|mv| mv != allows),
                "tree repetition {tree_repetition}, depth {d}: {:?}",
                result.best
            );
        }
        // After `g1-f1`, the attackers see their win by repeating.
        let mut after = game.clone();
        after.try_play(allows).expect("a legal move");
        for d in [1, 2, 3] {
            let result = search_tuned(&after, tuning.clone(), d);
            assert_eq!(
                (result.best, result.score),
                (Some(repeats), aim::Score::win_in(1)),
                "tree repetition {tree_repetition}, depth {d}"
            );
        }
    }
}

/// Whether the last move of `game` captured nothing and did not end the game.
fn quiet_and_going(game: &Game) -> bool {
    game.outcome().is_none()
        && game
            .history()
            .last()
            .is_some_and(|undo| undo.captures().next().is_none())
}

/// Four moves from `game`'s position that come back to it: the side to move goes there,
/// the other side goes there, and each goes back; none captures or ends the game, and
/// the positions between are new to the game.
fn shuffle(game: &Game) -> Option<[Move; 4]> {
    for first in game.legal_moves() {
        let mut one = game.clone();
        one.try_play(first).ok()?;
        if !quiet_and_going(&one) || game.has_occurred(one.position()) {
            continue;
        }
        for second in one.legal_moves() {
            let mut cycle = one.clone();
            let moves = [
                first,
                second,
                Move::new(first.to(), first.from()),
                Move::new(second.to(), second.from()),
            ];
            if moves[1..].iter().all(|&mv| {
                let new = !game.has_occurred(cycle.position());
                new && cycle.try_play(mv).is_ok() && quiet_and_going(&cycle)
            }) && cycle.position().hash() == game.position().hash()
            {
                return Some(moves);
            }
        }
    }
    None
}

/// A game under `rules` where `maker` is to move and the last move of the shuffle
/// ([`shuffle`]) makes a position occur for the `occurrence`-th time: the game from the
/// start (after one quiet move when `maker` moves first, so that the shuffle's last move
/// is its own), the shuffle played over and over. Also that move.
fn shuffled(rules: &Rules, maker: Player, occurrence: usize) -> (Game, Move) {
    let mut base = Game::new(rules.clone());
    if base.side_to_move() == maker {
        let lead = base
            .legal_moves()
            .find(|&mv| {
                let mut after = base.clone();
                after.try_play(mv).is_ok() && quiet_and_going(&after) && shuffle(&after).is_some()
            })
            .expect("a quiet first move");
        base.try_play(lead).expect("a legal move");
    }
    let cycle = shuffle(&base).expect("a shuffle");
    let mut game = base;
    for _ in 0..occurrence - 2 {
        for mv in cycle {
            game.try_play(mv).expect("a legal move");
        }
    }
    for mv in &cycle[..3] {
        game.try_play(*mv).expect("a legal move");
    }
    assert_eq!(game.side_to_move(), maker);
    (game, cycle[3])
}

/// The game one ply before [`shuffled`]'s: the other side is to move, and its move of the
/// shuffle lets `maker` answer with the `occurrence`-th occurrence. Also that move.
fn allowing(rules: &Rules, maker: Player, occurrence: usize) -> (Game, Move) {
    let (mut game, _) = shuffled(rules, maker, occurrence);
    let allows = game.last_move().expect("a move");
    game.undo();
    (game, allows)
}

/// What the rules (not the engine) make of `mv` in `game`.
fn outcome_after(game: &Game, mv: Move) -> Option<hnefatafl_core::Outcome> {
    let mut after = game.clone();
    after.try_play(mv).expect("a legal move");
    after.outcome()
}

/// The shipped rule files whose repetition end names a loser (player 1, the king's side),
/// and one made to name the mover: the `count`-th occurrence ends the game as they say,
/// whoever makes it, and one fewer does not.
#[test]
fn every_repetition_loser_scores_what_the_rules_say_at_the_count_and_not_before() {
    let shipped = [
        include_str!("../../data/rules/brandubh"),
        include_str!("../../data/rules/copenhagen"),
        include_str!("../../data/rules/copenhagen13"),
    ];
    let mover = shipped[0].replace("repetition_loser\t1", "repetition_loser mover");
    assert!(mover != shipped[0], "brandubh names its loser");
    for text in shipped.iter().copied().chain([mover.as_str()]) {
        let rules = Rules::parse(text.as_bytes()).expect("valid rules");
        let count = usize::from(rules.repetition().expect("a repetition end").count);
        let name = rules.name().to_owned();
        for maker in [Player::Zero, Player::One] {
            let (game, repeats) = shuffled(&rules, maker, count);
            let winner = outcome_after(&game, repeats)
                .expect("the count ends the game")
                .winner
                .expect("a winner");
            let (before, allows) = allowing(&rules, maker, count);
            for tree_repetition in [true, false] {
                let tuning = aim::Tuning {
                    tree_repetition,
                    ..aim::Tuning::default()
                };
                let what = format!("{name}, maker {maker:?}, knob {tree_repetition}");
                for d in [1, 2, 3] {
                    let result = search_tuned(&game, tuning.clone(), d);
                    if winner == maker {
                        assert_eq!(
                            (result.best, result.score),
                            (Some(repeats), aim::Score::win_in(1)),
                            "{what}, depth {d}"
                        );
                    } else {
                        assert!(result.best != Some(repeats), "{what}, depth {d}");
                    }
                }
                if winner == maker {
                    // The other side does not let the maker win by repeating.
                    for d in [2, 3] {
                        let result = search_tuned(&before, tuning.clone(), d);
                        assert!(result.best != Some(allows), "{what}, depth {d}");
                    }
                }
            }
            // One occurrence short: no end, and with the knob off nothing decisive.
            let (game, repeats) = shuffled(&rules, maker, count - 1);
            assert_eq!(outcome_after(&game, repeats), None);
            let (before, _) = allowing(&rules, maker, count - 1);
            let tuning = aim::Tuning {
                tree_repetition: false,
                ..aim::Tuning::default()
            };
            for d in [1, 2, 3] {
                for position in [&game, &before] {
                    let result = search_tuned(position, tuning.clone(), d);
                    assert!(
                        result.score.mate_plies().is_none(),
                        "{name}, maker {maker:?}, one short, depth {d}: {:?}",
                        result.score
                    );
                }
            }
        }
    }
}

/// The shipped rule files whose repetition is drawn: the count ends the game drawn, scored
/// as the draw (what it costs the king's side, here more than any evaluation) for either
/// side making it, and one fewer does not end it. (Halatafl's geese never move back, so
/// its positions cannot repeat as these do.)
#[test]
fn a_drawn_repetition_scores_the_draw_at_the_count_and_not_before() {
    let shipped = [
        include_str!("../../data/rules/hnefatafl"),
        include_str!("../../data/rules/hnefatafl13"),
    ];
    let cost = 5000;
    for text in shipped {
        let rules = Rules::parse(text.as_bytes()).expect("valid rules");
        let count = usize::from(rules.repetition().expect("a repetition end").count);
        let name = rules.name().to_owned();
        let king = Rules::start_position(&rules).side_to_move().opponent();
        for maker in [Player::Zero, Player::One] {
            let (game, repeats) = shuffled(&rules, maker, count);
            let outcome = outcome_after(&game, repeats).expect("the count ends the game");
            assert_eq!(outcome.winner, None);
            let draw = if maker == king { -cost } else { cost };
            for tree_repetition in [true, false] {
                let tuning = aim::Tuning {
                    tree_repetition,
                    king_side_draw: cost,
                    ..aim::Tuning::default()
                };
                for d in [1, 2, 3] {
                    let result = search_tuned(&game, tuning.clone(), d);
                    let what =
                        format!("{name}, maker {maker:?}, knob {tree_repetition}, depth {d}");
                    if maker == king {
                        assert!(result.best != Some(repeats), "{what}");
                        assert!(result.score > aim::Score(draw), "{what}");
                    } else {
                        assert_eq!(
                            (result.best, result.score),
                            (Some(repeats), aim::Score(draw)),
                            "{what}"
                        );
                    }
                }
            }
            let (game, repeats) = shuffled(&rules, maker, count - 1);
            assert_eq!(outcome_after(&game, repeats), None);
        }
    }
}

/// `draw_plies` inside the tree: on the corridor game (no captures), with 4 plies without
/// a capture ending it, two plies played, every line of two more plies is a draw, which
/// the search scores for the side to move, king's side or not, at every depth.
#[test]
fn draw_plies_end_the_game_inside_the_tree() {
    for king in [0, 1] {
        let text = format!(
            "{}draw_plies 4\npiece {} escape\n",
            include_str!("rules/corridor.txt"),
            king + 1
        );
        let rules = Rules::parse(text.as_bytes()).expect("valid rules");
        let mut game = Game::new(rules);
        for text in ["0 0 1 0", "2 1 1 1"] {
            game.try_play(text.parse().expect("a move"))
                .expect("a legal move");
        }
        assert_eq!(game.side_to_move(), Player::Zero);
        let cost = 500;
        let tuning = aim::Tuning {
            king_side_draw: cost,
            ..aim::Tuning::default()
        };
        let draw = if king == 0 { -cost } else { cost };
        for d in [2, 3, 4] {
            let result = search_tuned(&game, tuning.clone(), d);
            assert_eq!(result.score, aim::Score(draw), "king {king}, depth {d}");
        }
    }
}

/// A score that the game's history decided stays out of the table: on the corridor game
/// with each repetition loser, after every line of up to four plies, an engine that first
/// searched the game (its history included) then searches the same position without the
/// history exactly as an engine with an empty table does.
#[test]
fn a_score_that_the_history_decided_does_not_poison_the_table() {
    fn lines(game: &Game, plies: usize, out: &mut Vec<Game>) {
        out.push(game.clone());
        if plies == 0 || game.outcome().is_some() {
            return;
        }
        for mv in game.legal_moves() {
            let mut next = game.clone();
            next.try_play(mv).expect("a legal move");
            lines(&next, plies - 1, out);
        }
    }
    let search = |engine: &mut Engine, game: &Game, d| {
        let result = engine.search_within(game, &depth(d));
        (result.best, result.score)
    };
    for loser in ["0", "1", "mover"] {
        let mut games = Vec::new();
        lines(&Game::new(corridor_with_repetition(loser)), 4, &mut games);
        for game in games.iter().filter(|game| game.outcome().is_none()) {
            let alone = Game::from_position(game.position().clone());
            for d in [3, 4, 5] {
                let mut kept = engine();
                search(&mut kept, game, d);
                let after_history = search(&mut kept, &alone, d);
                assert_eq!(
                    after_history,
                    search(&mut engine(), &alone, d),
                    "loser {loser}, depth {d}, after {:?}",
                    game.moves().collect::<Vec<_>>()
                );
            }
        }
    }
}
