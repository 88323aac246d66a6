//! Engine protocol lines: any sequence of lines sent to the OTEP or the HTP engine
//! (the first byte chooses) is answered without a panic. Searches are one ply deep.

#![no_main]

use std::sync::OnceLock;

use aim::{EngineConfig, Limits};
use hnefatafl_core::Rules;
use hnefatafl_fuzz::shipped;
use hnefatafl_protocol::engine::Player;
use hnefatafl_protocol::engine::htp::Htp;
use hnefatafl_protocol::engine::otep::{Flow, Otep};
use libfuzzer_sys::fuzz_target;

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    shipped(&RULES, "brandub")
}

/// A one-ply, one-thread player without a transposition table: making the default
/// 64 MiB table for every input cost far more than the searches (14 inputs a second).
fn player() -> Player {
    let limits = Limits::from_words(&["d1", "j1"]).expect("valid limits");
    let config = EngineConfig {
        threads: 1,
        hash_mib: 0,
    };
    Player::with_config(limits, config)
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    // Long inputs only slow the searches down.
    let lines = text.lines().take(64);
    let mut output = Vec::new();
    if choice % 2 == 0 {
        let mut engine = Otep::new(player());
        for line in lines {
            match engine.handle(line, &mut output) {
                Flow::AwaitClock | Flow::Think => engine.think(&mut output),
                Flow::Quit => break,
                Flow::Continue => {}
            }
        }
    } else {
        let mut engine = Htp::new(player(), rules().clone());
        for line in lines {
            let (_, quit) = engine.handle(line);
            if quit {
                break;
            }
        }
    }
});
