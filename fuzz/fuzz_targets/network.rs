//! Network files of the learned evaluation: any bytes must read as a network or give an
//! error naming the file, never a panic; a network that reads writes back to bytes that
//! read as the same network, and one checked against a rule file evaluates its start.
//!
//! The first byte chooses what is mended before reading, so that mutated bytes get past
//! the checks to the reader behind them: bit 0 the checksum at the end, bit 1 the layout's
//! fingerprint in the header (from the width, height and owners there). The rest is the
//! file.

#![no_main]

use std::sync::OnceLock;

use aim::nnue::{Layout, Network, fnv1a};
use hnefatafl_core::{Player, Rules};
use hnefatafl_fuzz::shipped;
use libfuzzer_sys::fuzz_target;

/// Where the header's parts are (`aim/src/nnue/format.rs`).
const SIZE_AT: usize = 10;
const OWNERS_AT: usize = 12;
const FINGERPRINT_AT: usize = 20;
const CHECKSUM: usize = 8;

/// Writes the fingerprint of the header's width, height and owners into it, where they
/// make a layout.
fn mend_fingerprint(bytes: &mut [u8]) {
    let Some(header) = bytes.get(SIZE_AT..FINGERPRINT_AT + 8) else {
        return;
    };
    let mut owners = [None; 8];
    for (owner, &byte) in owners.iter_mut().zip(&header[OWNERS_AT - SIZE_AT..][..8]) {
        *owner = match byte {
            0 => None,
            1 | 2 => Player::from_index(usize::from(byte - 1)),
            _ => return,
        };
    }
    let layout = Layout::new(header[0], header[1], owners);
    bytes[FINGERPRINT_AT..FINGERPRINT_AT + 8].copy_from_slice(&layout.fingerprint().to_le_bytes());
}

/// Writes the checksum of the bytes before the last eight into them.
fn mend_checksum(bytes: &mut [u8]) {
    if let Some(body) = bytes.len().checked_sub(CHECKSUM) {
        let sum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if mode & 2 != 0 {
        mend_fingerprint(&mut bytes);
    }
    if mode & 1 != 0 {
        mend_checksum(&mut bytes);
    }
    let network = match Network::from_bytes("fuzzed.nnue", &bytes) {
        Ok(network) => network,
        Err(error) => {
            assert!(error.to_string().starts_with("network fuzzed.nnue: "));
            return;
        }
    };
    let again = Network::from_bytes("again", &network.to_bytes()).expect("written, it reads");
    assert_eq!(again, network);
    static RULES: OnceLock<Rules> = OnceLock::new();
    let rules = shipped(&RULES, "brandubh");
    if network.check_rules("fuzzed.nnue", rules).is_ok() {
        let start = rules.start_position();
        let side = start.side_to_move();
        let _ = network.evaluate(&network.refresh(&start), side);
    }
});
