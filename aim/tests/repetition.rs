//! Without `forbid_repeat`, two engines playing each other must not repeat the same
//! positions forever: a side that is ahead avoids a move back to a position of the game.

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::{Game, Rules};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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
        let result = engines[side].search(
            &game,
            &depth(depths[side]),
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
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
