//! The engine against the real rules engine: legality, determinism, the transposition
//! table under `forbid_repeat`, the stop flag and decisive scores.

use aim::{Engine, EngineConfig, Limits, Score};
use hnefatafl_core::random::{SplitMix, random_opening};
use hnefatafl_core::{Game, Move, Position, Rules};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const BRANDUB: &str = include_str!("rules/brandub.txt");
const TABLUT: &str = include_str!("rules/tablut.txt");
const FETLAR: &str = include_str!("rules/fetlar.txt");
const PETTEIA: &str = include_str!("rules/petteia.txt");
const CORRIDOR: &str = include_str!("rules/corridor.txt");

fn rules(text: &str, forbid_repeat: bool) -> Rules {
    let text = if forbid_repeat {
        format!("{text}\nforbid_repeat\n")
    } else {
        text.to_string()
    };
    Rules::parse(text.as_bytes()).expect("test rules are valid")
}

/// The shuffled openings of seeds `0..seeds`, `plies(seed)` plies each, that have not
/// ended, with their seeds.
fn unfinished_openings(
    rules: &Rules,
    seeds: u64,
    plies: impl Fn(u64) -> usize,
) -> impl Iterator<Item = (u64, Game)> {
    (0..seeds)
        .map(move |seed| (seed, shuffled_opening(rules, plies(seed), seed)))
        .filter(|(_, game)| game.outcome().is_none())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn one_thread(hash_mib: usize) -> Engine {
    Engine::new(EngineConfig {
        threads: 1,
        hash_mib,
    })
}

/// One thread with a fixed tree at each depth: null-move pruning off (whether a pass cuts
/// a node off depends on the window, so the tree does too; see `docs/ai.md`), history
/// pruning and late-move reductions off (what they prune or reduce depends on the
/// history, the killers and the table's moves), and the tree's repetitions off (their
/// scores depend on the line that reached a position).
fn one_thread_fixed_tree(hash_mib: usize) -> Engine {
    Engine::with_tuning(
        EngineConfig {
            threads: 1,
            hash_mib,
        },
        aim::Tuning {
            null_move: false,
            history_pruning: false,
            late_move_reductions: false,
            tree_repetition: false,
            ..aim::Tuning::default()
        },
    )
}

/// The test rule files with and without `forbid_repeat`, each with the depth its tests
/// search to.
fn variants() -> Vec<(Rules, u32)> {
    let mut all = Vec::new();
    for forbid in [false, true] {
        all.push((rules(BRANDUB, forbid), 4));
        all.push((rules(TABLUT, forbid), 3));
        all.push((rules(FETLAR, forbid), 3));
        all.push((rules(PETTEIA, forbid), 3));
    }
    all
}

#[test]
fn one_thread_at_fixed_depth_is_deterministic() {
    for (rules, d) in variants() {
        for seed in 0..2 {
            let game = random_opening(&rules, 6, seed);
            let first = one_thread(8).search_within(&game, &depth(d));
            let second = one_thread(8).search_within(&game, &depth(d));
            assert_eq!(
                (first.best, first.score, &first.pv, first.nodes),
                (second.best, second.score, &second.pv, second.nodes),
                "{}",
                rules.id()
            );
            // The same engine again, its table now full of this position: the same move
            // and score where the tree is the depth's alone (history pruning's and
            // late-move reductions' depend on the history and on the table's moves too).
            let mut engine = Engine::with_tuning(
                EngineConfig {
                    threads: 1,
                    hash_mib: 8,
                },
                aim::Tuning {
                    history_pruning: false,
                    late_move_reductions: false,
                    ..aim::Tuning::default()
                },
            );
            let fresh = engine.search_within(&game, &depth(d));
            let again = engine.search_within(&game, &depth(d));
            assert_eq!(
                (fresh.best, fresh.score),
                (again.best, again.score),
                "{}",
                rules.id()
            );
        }
    }
}

/// A random opening followed by a move there and back by each side but the last, so that
/// positions of the game are a move or two away from the tree (repetition matters).
fn shuffled_opening(rules: &Rules, plies: usize, seed: u64) -> Game {
    let mut game = random_opening(rules, plies, seed);
    let mut random = SplitMix::new(seed ^ 0x5555);
    let mut there = Vec::new();
    for _ in 0..2 {
        let moves = game.legal_moves().collect::<Vec<_>>();
        if moves.is_empty() {
            return game;
        }
        let mv = moves[random.below(moves.len())];
        game.try_play(mv).expect("a legal move");
        there.push(mv);
    }
    let back = Move::new(there[0].to(), there[0].from());
    if game.check(back).is_ok() {
        game.try_play(back).expect("a legal move");
    }
    game
}

#[test]
fn the_table_does_not_change_move_or_score_at_fixed_depth() {
    let mut compared = 0;
    let mut differ_from_depth_below = 0;
    let mut repetition_decided = 0;
    for forbid in [false, true] {
        for (text, d) in [
            (BRANDUB, 5),
            (PETTEIA, 4),
            (TABLUT, 4),
            (FETLAR, 3),
            (CORRIDOR, 12),
            (CORRIDOR, 15),
        ] {
            let rules = rules(text, forbid);
            for (seed, game) in unfinished_openings(&rules, 8, |seed| 6 + 4 * seed as usize) {
                let with = one_thread_fixed_tree(16).search_within(&game, &depth(d));
                let without = one_thread_fixed_tree(0).search_within(&game, &depth(d));
                assert_eq!(
                    (with.best, with.score),
                    (without.best, without.score),
                    "{} forbid_repeat={forbid} seed={seed}",
                    rules.id()
                );
                compared += 1;
                let shallower = one_thread_fixed_tree(16).search_within(&game, &depth(d - 1));
                differ_from_depth_below += usize::from(shallower.score != with.score);
                // In the two-piece game only repetition ends the game: running out of new
                // positions must show as a decisive score.
                repetition_decided += usize::from(forbid && with.score.mate_plies().is_some());
            }
        }
    }
    assert!(compared >= 70, "only {compared} positions compared");
    // The depths really differ, so a table entry of the wrong depth would show.
    assert!(differ_from_depth_below > compared / 2);
    assert!(repetition_decided > 0);
}

#[test]
fn aspiration_windows_keep_the_move_and_score_at_fixed_depth() {
    // A pass that misses its window is searched again wider, so the depth's best move
    // (ties to the earlier static rank) and exact score are those of the full window, on
    // one thread with or without the table and with threads sharing the root.
    let aspiring = |threads, hash_mib| {
        Engine::with_tuning(
            EngineConfig { threads, hash_mib },
            aim::Tuning {
                null_move: false,
                history_pruning: false,
                late_move_reductions: false,
                tree_repetition: false,
                aspiration: true,
                ..aim::Tuning::default()
            },
        )
    };
    let mut compared = 0;
    let mut narrowed = 0;
    for forbid in [false, true] {
        for (text, d) in [(BRANDUB, 5), (PETTEIA, 5), (TABLUT, 4), (CORRIDOR, 12)] {
            let rules = rules(text, forbid);
            for (seed, game) in unfinished_openings(&rules, 6, |seed| 6 + 3 * seed as usize) {
                let full = one_thread_fixed_tree(16).search_within(&game, &depth(d));
                for (threads, hash_mib) in [(1, 16), (1, 0), (2, 0)] {
                    let found = aspiring(threads, hash_mib).search_within(&game, &depth(d));
                    assert_eq!(
                        (found.best, found.score, found.depth),
                        (full.best, full.score, full.depth),
                        "{} forbid_repeat={forbid} seed={seed} threads={threads} table {hash_mib} MiB",
                        rules.id()
                    );
                    compared += 1;
                    if (threads, hash_mib) == (1, 16) {
                        narrowed += usize::from(found.nodes != full.nodes);
                    }
                }
            }
        }
    }
    assert!(compared >= 100, "only {compared} searches compared");
    // The windows really changed the trees searched.
    assert!(
        narrowed * 3 > compared / 3,
        "the windows changed {narrowed} searches"
    );
}

#[test]
fn threads_sharing_the_root_find_the_same_move_and_score_without_a_table() {
    // Without a table (and without null-move pruning, whose tree depends on the window,
    // nor history pruning and late-move reductions, whose trees depend on the history)
    // every root move is searched to the same tree by whichever thread takes it, so the
    // best move (ties to the earlier static rank) and its exact score must be those of
    // one thread.
    let mut compared = 0;
    for (rules, d) in variants() {
        let forbid = rules.forbid_repeat();
        for (seed, game) in unfinished_openings(&rules, 4, |seed| 6 + 3 * seed as usize) {
            let one = one_thread_fixed_tree(0).search_within(&game, &depth(d));
            for threads in [2, 3] {
                let mut engine = Engine::with_tuning(
                    EngineConfig {
                        threads,
                        hash_mib: 0,
                    },
                    aim::Tuning {
                        null_move: false,
                        history_pruning: false,
                        late_move_reductions: false,
                        ..aim::Tuning::default()
                    },
                );
                let several = engine.search_within(&game, &depth(d));
                assert_eq!(
                    (one.best, one.score, one.depth),
                    (several.best, several.score, several.depth),
                    "{} forbid_repeat={forbid} seed={seed} threads={threads}",
                    rules.id()
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 50, "only {compared} searches compared");
}

/// Plays a game engine against engine to the end or a ply cap, checking every move.
fn play_out(rules: &Rules, seed: u64, limits: &Limits, threads: usize, cap: usize) {
    let mut game = random_opening(rules, 4, seed);
    let mut engine = Engine::new(EngineConfig {
        threads,
        hash_mib: 4,
    });
    for _ in 0..cap {
        let result = engine.search_within(&game, limits);
        match result.best {
            None => {
                assert!(
                    game.outcome().is_some() || game.legal_moves().collect::<Vec<_>>().is_empty(),
                    "no move in a live game"
                );
                return;
            }
            Some(mv) => {
                assert!(game.outcome().is_none(), "a move after the end");
                if rules.forbid_repeat() {
                    let mut after = game.position().clone();
                    after.play_unchecked(mv);
                    assert!(!game.has_occurred(&after), "a repeating move");
                }
                game.try_play(mv)
                    .unwrap_or_else(|e| panic!("illegal move {mv:?}: {e:?}"));
            }
        }
    }
}

#[test]
fn never_an_illegal_or_repeating_move() {
    for forbid in [true, false] {
        for (text, cap) in [(BRANDUB, 300), (PETTEIA, 300), (TABLUT, 120), (FETLAR, 80)] {
            let rules = rules(text, forbid);
            for seed in 0..2 {
                play_out(&rules, seed, &depth(2), 2, cap);
            }
        }
    }
    // The weak levels play random moves too.
    play_out(
        &rules(BRANDUB, true),
        7,
        &Limits {
            level: Some(1),
            ..Limits::default()
        },
        1,
        300,
    );
}

#[test]
fn stop_flag_is_honoured_quickly() {
    let game = Game::new(rules(FETLAR, false));
    let mut engine = Engine::new(EngineConfig {
        threads: 2,
        hash_mib: 8,
    });
    let stop = Arc::new(AtomicBool::new(false));
    // Another thread sets the flag once the search has finished depth 3, as an interface
    // does when the player asks for the move now.
    let (depths, finished) = std::sync::mpsc::channel::<u32>();
    let setter = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            while finished.recv().is_ok_and(|depth| depth < 3) {}
            let stopped_at = Instant::now();
            stop.store(true, Ordering::Relaxed);
            stopped_at
        })
    };
    let result = engine.search(&game, &depth(60), stop, &mut |progress| {
        // The setter may have stopped listening: then nothing needs the depth.
        let _ = depths.send(progress.depth);
    });
    let returned = Instant::now();
    drop(depths);
    let stopped_at = setter.join().expect("the stopping thread");
    let mv = result.best.expect("a move");
    assert!(game.legal_moves().collect::<Vec<_>>().contains(&mv));
    assert!(
        (3..60).contains(&result.depth),
        "stopped after depth {}",
        result.depth
    );
    // Generous: the flag is read every thousand nodes or so.
    let took = returned.duration_since(stopped_at);
    assert!(
        took < Duration::from_secs(5),
        "took {took:?} after the stop"
    );

    // Stopped before it starts: still a legal move.
    let result = engine.search(
        &game,
        &depth(60),
        Arc::new(AtomicBool::new(true)),
        &mut |_| {},
    );
    assert!(
        game.legal_moves()
            .collect::<Vec<_>>()
            .contains(&result.best.expect("a move"))
    );
}

/// A 7x7 position where the king (player 0, to move) has one open line to a corner.
const KING_NEAR_CORNER: &str = include_str!("rules/king_near_corner.txt");

#[test]
fn a_win_in_one_is_found_and_scored() {
    let rules = rules(KING_NEAR_CORNER, false);
    let game = Game::new(rules.clone());
    let corner = rules.square_at(0, 0).expect("a square");
    let king = rules.square_at(0, 2).expect("a square");
    for (d, hash) in [(1, 0), (2, 8), (3, 8), (4, 0)] {
        let result = one_thread(hash).search_within(&game, &depth(d));
        assert_eq!(result.best, Some(Move::new(king, corner)), "depth {d}");
        assert_eq!(result.score, Score::win_in(1), "depth {d}");
        assert_eq!(result.score.mate_plies(), Some(1));
    }
    // The attackers, to move, must block the line (or lose at once).
    let mut game = Game::new(rules.clone());
    let bishop = Move::new(
        rules.square_at(3, 4).expect("a square"),
        rules.square_at(2, 4).expect("a square"),
    );
    game.try_play(bishop).expect("a legal move");
    let result = one_thread(8).search_within(&game, &depth(3));
    let mv = result.best.expect("a move");
    let mut after = game.clone();
    after.try_play(mv).expect("a legal move");
    let reply = one_thread(8).search_within(&after, &depth(1));
    assert_ne!(
        reply.score,
        Score::win_in(1),
        "the attackers left the corner open: {mv:?}"
    );
}

#[test]
fn progress_reports_each_depth() {
    let game = Game::new(rules(BRANDUB, false));
    let mut depths = Vec::new();
    let result = one_thread(8).search(
        &game,
        &depth(4),
        Arc::new(AtomicBool::new(false)),
        &mut |p| {
            assert!(!p.pv.is_empty());
            assert!((0.0..=1.0).contains(&p.fraction));
            depths.push(p.depth);
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4]);
    assert_eq!(result.depth, 4);
    assert_eq!(result.pv.first().copied(), result.best);
}

#[test]
fn no_move_when_the_game_is_over() {
    let rules = rules(KING_NEAR_CORNER, false);
    let mut game = Game::new(rules.clone());
    let win = Move::new(
        rules.square_at(0, 2).expect("a square"),
        rules.square_at(0, 0).expect("a square"),
    );
    game.try_play(win).expect("a legal move");
    assert!(game.outcome().is_some());
    let result = one_thread(8).search_within(&game, &depth(3));
    assert_eq!(result.best, None);
}

/// A 19x19 board with corner escape, built in code: the largest boards work too.
fn big_board() -> Rules {
    let size = 19;
    let mut pieces = vec![0u8; size * size];
    let mut squares = vec![1u8; size * size];
    for corner in [0, size - 1, size * (size - 1), size * size - 1] {
        squares[corner] = 2;
    }
    let centre = size * (size / 2) + size / 2;
    pieces[centre] = 1;
    for offset in [1, 2] {
        for square in [
            centre - offset,
            centre + offset,
            centre - offset * size,
            centre + offset * size,
        ] {
            pieces[square] = 2;
        }
    }
    for i in 6..13 {
        for square in [i, size * i, size * i + size - 1, size * (size - 1) + i] {
            pieces[square] = 4;
        }
    }
    let list = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    let text = format!(
        "id test_big\nname \"19x19 (test)\"\nwidth {size}\nheight {size}\npieces {}\nsquares {}\n\
         piece bit 1\npiece 1 owner 1\npiece 1 escape\npiece 1 capt_loss\npiece 1 capt_sides 4\n\
         piece 1 captures 4\npiece 1 occupies 3\npiece bit 2\npiece 2 owner 1\npiece 2 captures 4\n\
         piece 2 custodial\npiece 2 occupies 1\npiece bit 4\npiece 4 owner 0\npiece 4 captures 3\n\
         piece 4 custodial\npiece 4 occupies 1\nsquare bit 1\nsquare bit 2\nsquare 2 escape\n\
         square 2 captures 7\n",
        list(&pieces),
        list(&squares)
    );
    Rules::parse(text.as_bytes()).expect("the 19x19 test rules are valid")
}

#[test]
fn plays_on_a_19x19_board() {
    let rules = big_board();
    play_out(&rules, 3, &depth(2), 1, 40);
    let game = random_opening(&rules, 10, 5);
    let with = one_thread(16).search_within(&game, &depth(3));
    let without = one_thread(0).search_within(&game, &depth(3));
    assert_eq!((with.best, with.score), (without.best, without.score));
}

/// A plain negamax alpha-beta search written from the rules alone: core's moves in
/// generation order, no table, no reductions, no ordering; of the engine it takes only the
/// static evaluation at the leaves. The rules it follows are the engine's documented ones
/// (`docs/ai.md`): a game end at a node is a win or loss in that many plies (or a draw,
/// 0), a side left
/// without a legal move loses, under `forbid_repeat` a move back to a position of the game
/// or of the line is not legal, and without it a root move back to a position of the game
/// is worth at most a draw unless it wins.
struct Reference {
    forbid_repeat: bool,
    evaluator: Engine,
    game_hashes: Vec<u64>,
    line: Vec<u64>,
}

impl Reference {
    fn root(game: &Game, depth: i32) -> i32 {
        let mut reference = Reference {
            forbid_repeat: game.rules().forbid_repeat(),
            evaluator: one_thread(0),
            game_hashes: game.position_hashes().to_vec(),
            line: Vec::new(),
        };
        let mut best = None;
        for mv in game.legal_moves() {
            let mut position = game.position().clone();
            position.play(mv);
            reference.line.push(position.hash());
            let mut score = -reference.value(&mut position, depth - 1, 1, -i32::MAX, i32::MAX);
            reference.line.pop();
            let decisive = Score(score).mate_plies().is_some();
            if !reference.forbid_repeat && game.has_occurred(&position) && score > 0 && !decisive {
                score = 0;
            }
            best = best.max(Some(score));
        }
        best.expect("the game is not over")
    }

    fn value(
        &mut self,
        position: &mut Position,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let side = position.side_to_move();
        if let Some(outcome) = position.outcome_with(true) {
            return match outcome.winner {
                Some(winner) if winner == side => Score::win_in(ply).0,
                Some(_) => Score::loss_in(ply).0,
                None => 0,
            };
        }
        if depth <= 0 {
            return self.evaluator.evaluate(position).0;
        }
        let moves: Vec<Move> = position.moves().collect();
        let mut best = None;
        for mv in moves {
            let undo = position.play(mv);
            let hash = position.hash();
            if self.forbid_repeat && (self.game_hashes.contains(&hash) || self.line.contains(&hash))
            {
                position.take_back(&undo);
                continue;
            }
            self.line.push(hash);
            let score = -self.value(position, depth - 1, ply + 1, -beta, -alpha);
            self.line.pop();
            position.take_back(&undo);
            best = best.max(Some(score));
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best.unwrap_or(Score::loss_in(ply).0)
    }
}

#[test]
fn scores_equal_a_plain_alpha_beta_search_with_reductions_and_extensions_off() {
    let no_reductions = |hash_mib| {
        Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib,
            },
            aim::Tuning {
                reductions: false,
                escape_extension: false,
                null_move: false,
                history_pruning: false,
                quiescence: aim::Quiescence::Off,
                ..aim::Tuning::default()
            },
        )
    };
    let mut compared = 0;
    let mut compare = |game: &Game, d: u32| {
        let expected = Reference::root(game, d as i32);
        for hash_mib in [0, 8] {
            let found = no_reductions(hash_mib).search_within(game, &depth(d));
            assert_eq!(
                found.score,
                Score(expected),
                "{} depth {d} table {hash_mib} MiB after {:?}",
                game.rules().id(),
                game.moves().collect::<Vec<_>>()
            );
        }
        compared += 1;
    };
    for (rules, _) in variants() {
        for (_, game) in unfinished_openings(&rules, 2, |_| 6) {
            for d in 1..=3 {
                compare(&game, d);
            }
        }
    }
    // Deep enough for the reductions to change the score (+0.25 with them, +0.19 without).
    compare(&shuffled_opening(&rules(BRANDUB, false), 6, 0), 5);
    assert!(compared >= 40, "only {compared} positions compared");
}

/// Checks a pruning knob: with `on` the search reaches the same depth in fewer nodes,
/// summed over two shuffled Fetlar openings, still plays a legal move, and never misses
/// a win in one; `off` is the same tuning without the knob. `what` names it in messages.
fn prunes_and_keeps_wins_and_legal_moves(
    what: &str,
    on: &aim::Tuning,
    off: &aim::Tuning,
    search_depth: u32,
) {
    let engine = |tuning: &aim::Tuning| {
        Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 8,
            },
            tuning.clone(),
        )
    };
    let rules_of = |text| rules(text, false);
    let fetlar = rules_of(FETLAR);
    let (mut with, mut without) = (0, 0);
    for seed in 0..2 {
        let game = shuffled_opening(&fetlar, 8, seed);
        let pruned = engine(on).search_within(&game, &depth(search_depth));
        let full = engine(off).search_within(&game, &depth(search_depth));
        assert!(pruned.best.is_some_and(|mv| game.check(mv).is_ok()));
        with += pruned.nodes;
        without += full.nodes;
    }
    assert!(
        with < without,
        "{with} nodes with {what}, {without} without"
    );
    // Pruning never hides a win in one.
    let game = Game::new(rules_of(KING_NEAR_CORNER));
    for d in 3..=5 {
        assert_eq!(
            engine(on).search_within(&game, &depth(d)).score,
            Score::win_in(1),
            "{what} at depth {d}"
        );
    }
}

#[test]
fn null_move_pruning_searches_less_and_keeps_wins_and_legal_moves() {
    let tuning = |null_move| aim::Tuning {
        null_move,
        ..aim::Tuning::default()
    };
    // A pass that holds beta cuts.
    prunes_and_keeps_wins_and_legal_moves("null moves", &tuning(true), &tuning(false), 6);
}

#[test]
fn late_move_reductions_search_less_than_full_width_and_keep_wins_and_legal_moves() {
    let tuning = |late_move_reductions| aim::Tuning {
        late_move_reductions,
        reductions: false,
        ..aim::Tuning::default()
    };
    prunes_and_keeps_wins_and_legal_moves("late-move reductions", &tuning(true), &tuning(false), 5);
}

#[test]
fn futility_pruning_searches_less_and_keeps_wins_and_legal_moves() {
    let tuning = |futility| aim::Tuning {
        futility,
        ..aim::Tuning::default()
    };
    prunes_and_keeps_wins_and_legal_moves("futility pruning", &tuning(true), &tuning(false), 5);
}

#[test]
fn history_pruning_searches_less_and_keeps_wins_and_legal_moves() {
    let tuning = |history_pruning| aim::Tuning {
        history_pruning,
        ..aim::Tuning::default()
    };
    prunes_and_keeps_wins_and_legal_moves("history pruning", &tuning(true), &tuning(false), 5);
}

#[test]
fn by_default_the_quiescence_search_runs_on_small_boards_and_not_at_the_weak_levels() {
    let engine = |quiescence| {
        let mut engine = Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 0,
            },
            aim::Tuning {
                quiescence,
                ..aim::Tuning::default()
            },
        );
        engine.seed(7);
        engine
    };
    let level = |level| Limits {
        level: Some(level),
        ..Limits::default()
    };
    let nodes = |text, forbid, limits: &Limits, quiescence| {
        (0..3)
            .map(|seed| {
                let game = shuffled_opening(&rules(text, forbid), 10 + 2 * seed as usize, seed);
                engine(quiescence).search_within(&game, limits).nodes
            })
            .sum::<u64>()
    };
    let default = aim::Tuning::default().quiescence;
    for (text, forbid) in [(BRANDUB, false), (TABLUT, true)] {
        // At a fixed depth the default searches what the quiescence search does ...
        assert_eq!(
            nodes(text, forbid, &depth(3), default),
            nodes(text, forbid, &depth(3), aim::Quiescence::On)
        );
        assert_ne!(
            nodes(text, forbid, &depth(3), default),
            nodes(text, forbid, &depth(3), aim::Quiescence::Off)
        );
        // ... and levels 1 and 2, with their noise, what a search without it does (even
        // with `On`).
        for weak in [1, 2] {
            assert_eq!(
                nodes(text, forbid, &level(weak), default),
                nodes(text, forbid, &level(weak), aim::Quiescence::Off),
                "level {weak}"
            );
            assert_eq!(
                nodes(text, forbid, &level(weak), aim::Quiescence::On),
                nodes(text, forbid, &level(weak), aim::Quiescence::Off),
                "level {weak} with `On`"
            );
        }
    }
    // On 11x11 the default is a search without it, which there searches other nodes.
    assert_eq!(
        nodes(FETLAR, false, &depth(3), default),
        nodes(FETLAR, false, &depth(3), aim::Quiescence::Off)
    );
    assert_ne!(
        nodes(FETLAR, false, &depth(3), aim::Quiescence::On),
        nodes(FETLAR, false, &depth(3), aim::Quiescence::Off)
    );
}

#[test]
fn the_quiescence_search_searches_captures_and_keeps_the_table_exact() {
    let tuned = |quiescence, hash_mib| {
        Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib,
            },
            aim::Tuning {
                quiescence,
                null_move: false,
                history_pruning: false,
                ..aim::Tuning::default()
            },
        )
    };
    let (mut with, mut without, mut compared) = (0, 0, 0);
    for (rules, d) in variants() {
        let forbid = rules.forbid_repeat();
        for (seed, game) in unfinished_openings(&rules, 3, |seed| 8 + 4 * seed as usize) {
            let on = tuned(aim::Quiescence::On, 16).search_within(&game, &depth(d));
            let on_no_table = tuned(aim::Quiescence::On, 0).search_within(&game, &depth(d));
            let off = tuned(aim::Quiescence::Off, 16).search_within(&game, &depth(d));
            assert!(on.best.is_some_and(|mv| game.check(mv).is_ok()));
            // The captures below the horizon are a function of the position alone, so
            // the table still changes neither the move nor the score.
            assert_eq!(
                (on.best, on.score),
                (on_no_table.best, on_no_table.score),
                "{} forbid_repeat={forbid} seed={seed}",
                rules.id()
            );
            with += on.nodes;
            without += off.nodes;
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} positions compared");
    // Captures were searched below the horizon somewhere.
    assert!(
        with > without,
        "{with} nodes with quiescence, {without} without"
    );
}

/// One thread, no table and a fixed tree, with or without [`aim::Tuning::unfinished_depths`]:
/// each search of a position then searches exactly the same tree up to where it stops.
fn exact(unfinished_depths: bool) -> Engine {
    Engine::with_tuning(
        EngineConfig {
            threads: 1,
            hash_mib: 0,
        },
        aim::Tuning {
            unfinished_depths,
            null_move: false,
            history_pruning: false,
            ..aim::Tuning::default()
        },
    )
}

#[test]
fn a_better_move_found_by_an_unfinished_depth_is_played_with_its_score() {
    let (mut changed, mut found_the_next_depths_move) = (0, 0);
    for text in [TABLUT, FETLAR] {
        let rules = rules(text, false);
        for seed in 0..3 {
            let game = shuffled_opening(&rules, 6, seed);
            for nodes in (1..=12).map(|k| k * 12_000) {
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let on = exact(true).search_within(&game, &limits);
                let off = exact(false).search_within(&game, &limits);
                // The same tree, stopped at the same node: the same depth finished.
                assert_eq!(on.depth, off.depth, "seed {seed}, {nodes} nodes");
                if on.best == off.best {
                    assert_eq!(on.score, off.score);
                    continue;
                }
                changed += 1;
                let mv = on.best.expect("a move");
                assert!(game.check(mv).is_ok());
                assert_eq!(on.pv.first(), Some(&mv));
                // The next depth searched to the end: the unfinished one's best so far is
                // never better than its final best, and is it when it is the same move.
                let next = exact(true).search_within(&game, &depth(on.depth + 1));
                assert!(on.score <= next.score, "{} after {}", on.score, next.score);
                if next.best == Some(mv) {
                    assert_eq!(on.score, next.score);
                    found_the_next_depths_move += 1;
                }
            }
        }
    }
    // The sweep must reach cases where the knob matters, else it tested nothing.
    assert!(changed >= 3, "only {changed} searches changed their move");
    assert!(found_the_next_depths_move >= 1);
}

#[test]
fn a_fixed_time_a_move_is_used_to_the_end() {
    let game = shuffled_opening(&rules(FETLAR, false), 6, 1);
    let limits = Limits {
        time: Some(Duration::from_millis(400)),
        ..Limits::default()
    };
    let result = exact(true).search_within(&game, &limits);
    assert!(result.score.mate_plies().is_none());
    // Without the knob no depth starts after 45% of the time, and the next rarely ends.
    assert!(
        result.elapsed >= Duration::from_millis(400),
        "stopped after {:?} at depth {}",
        result.elapsed,
        result.depth
    );
}

/// Whether the side to move can win with one move.
fn wins_in_one(position: &Position) -> bool {
    let side = position.side_to_move();
    position.moves().any(|mv| {
        let mut after = position.clone();
        after.try_play(mv).is_ok() && after.outcome().is_some_and(|o| o.winner == Some(side))
    })
}

#[test]
fn answering_escape_threats_blocks_an_open_line_at_depth_one() {
    use aim::nnue::{Layout, Network};
    let rules = rules(BRANDUB, false);
    // A network that scores every position 0: only the search's own look at escapes can
    // tell the moves apart.
    let zero = Arc::new(Network::zero(Layout::of(&rules)));
    // Positions where the side to move would lose to an escape were it to pass, with the
    // moves that answer it (by a block, a capture or a win of its own) among others that
    // do not.
    let mut threatened = Vec::new();
    for seed in 0..400 {
        for plies in [6, 9, 12, 16, 20, 25] {
            let game = shuffled_opening(&rules, plies, seed);
            let position = game.position();
            let mut passed = position.clone();
            passed.pass_unchecked();
            if game.outcome().is_some() || !wins_in_one(&passed) {
                continue;
            }
            let side = position.side_to_move();
            let (answers, others): (Vec<Move>, Vec<Move>) = position.moves().partition(|&mv| {
                let mut after = position.clone();
                after.try_play(mv).expect("a legal move");
                match after.outcome() {
                    Some(outcome) => outcome.winner == Some(side),
                    None => !wins_in_one(&after),
                }
            });
            if !answers.is_empty() && !others.is_empty() {
                threatened.push((game, answers));
            }
        }
    }
    assert!(threatened.len() >= 10, "{} positions", threatened.len());
    let answered = |escape_threats| {
        threatened
            .iter()
            .filter(|(game, answers)| {
                let tuning = aim::Tuning {
                    escape_threats,
                    ..aim::Tuning::default()
                };
                let mut engine = Engine::with_tuning(
                    EngineConfig {
                        threads: 1,
                        hash_mib: 0,
                    },
                    tuning,
                );
                engine.set_network(Some(zero.clone()));
                let best = engine.search_within(game, &depth(1)).best;
                best.is_some_and(|mv| answers.contains(&mv))
            })
            .count()
    };
    assert_eq!(answered(true), threatened.len());
    // Without it the quiescence search passes over the escape, and the zero network
    // cannot see it.
    assert!(answered(false) < threatened.len());
}

#[test]
fn singular_extensions_change_the_tree_and_keep_wins_and_legal_moves() {
    let engine = |singular: bool, threads: usize| {
        Engine::with_tuning(
            EngineConfig {
                threads,
                hash_mib: 8,
            },
            aim::Tuning {
                singular,
                ..aim::Tuning::default()
            },
        )
    };
    // From depth 6 the table's move is tested, and where it stands alone it is searched
    // deeper: the trees differ.
    for forbid_repeat in [false, true] {
        let tablut = rules(TABLUT, forbid_repeat);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for seed in 0..2 {
            let game = shuffled_opening(&tablut, 8, seed);
            let extended = engine(true, 1).search_within(&game, &depth(7));
            let plain = engine(false, 1).search_within(&game, &depth(7));
            assert!(extended.best.is_some_and(|mv| game.check(mv).is_ok()));
            with.push(extended.nodes);
            without.push(plain.nodes);
        }
        if forbid_repeat {
            // A score that depends on the line is never tested: the same tree.
            assert_eq!(with, without, "under forbid_repeat");
        } else {
            assert_ne!(with, without, "singular extensions changed nothing");
        }
    }
    // The test searches never hide a win in one, and threads sharing the table (whose
    // entries the tests read) play legal moves.
    let game = Game::new(rules(KING_NEAR_CORNER, false));
    for d in 3..=7 {
        assert_eq!(
            engine(true, 1).search_within(&game, &depth(d)).score,
            Score::win_in(1),
            "singular extensions at depth {d}"
        );
    }
    let tablut = rules(TABLUT, false);
    for seed in 2..4 {
        let game = shuffled_opening(&tablut, 8, seed);
        let found = engine(true, 2).search_within(&game, &depth(7));
        assert!(found.best.is_some_and(|mv| game.check(mv).is_ok()));
    }
}
