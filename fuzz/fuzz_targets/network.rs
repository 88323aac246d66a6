//! Network files of the learned evaluation: any bytes must read as a network or give an
//! error naming the file, never a panic; a network that reads writes back to bytes that
//! read as the same network, and one checked against a rule file evaluates its start.

#![no_main]

use aim::nnue::Network;
use hnefatafl_core::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let network = match Network::from_bytes("fuzzed.nnue", bytes) {
        Ok(network) => network,
        Err(error) => {
            assert!(error.to_string().starts_with("network fuzzed.nnue: "));
            return;
        }
    };
    let again = Network::from_bytes("again", &network.to_bytes()).expect("written, it reads");
    assert_eq!(again, network);
    let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    if network.check_rules("fuzzed.nnue", &rules).is_ok() {
        let start = rules.start_position();
        let side = start.side_to_move();
        let _ = network.evaluate(&network.refresh(&start), side);
    }
});
