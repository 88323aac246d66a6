//! Shards of the trainer's self-play data (`hnefatafl_learn::shard`): any bytes must read
//! as a shard or give an error naming the file, never a panic; the games of a shard that
//! reads have inputs of its layout, and written again they read back the same.
//!
//! The first byte chooses what is mended before reading, so that mutated bytes get past
//! the checksums to the reader behind them: bit 0 the header's checksum, bit 1 every
//! game's block's (found by their lengths). The rest is the file.

#![no_main]

use aim::nnue::fnv1a;
use hnefatafl_learn::shard::{self, write_block};
use libfuzzer_sys::fuzz_target;

/// Bytes of the header before the settings text, the last two its length.
const FIXED: usize = 42;
const CHECKSUM: usize = 8;

/// The end of the header (after its checksum), where the bytes hold one.
fn header_end(bytes: &[u8]) -> Option<usize> {
    let length = bytes.get(FIXED - 2..FIXED)?;
    let end = FIXED + usize::from(u16::from_le_bytes([length[0], length[1]]));
    (end + CHECKSUM <= bytes.len()).then_some(end + CHECKSUM)
}

/// Writes the checksum of `bytes[from..to]` at `to`.
fn mend(bytes: &mut [u8], from: usize, to: usize) {
    let sum = fnv1a(&bytes[from..to]);
    bytes[to..to + CHECKSUM].copy_from_slice(&sum.to_le_bytes());
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if let Some(end) = header_end(&bytes) {
        if mode & 1 != 0 {
            mend(&mut bytes, 0, end - CHECKSUM);
        }
        let mut at = end;
        while mode & 2 != 0 && at + 4 <= bytes.len() {
            let length = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
            let Some(sum_at) = (at + 4).checked_add(length as usize) else {
                break;
            };
            if sum_at + CHECKSUM > bytes.len() {
                break;
            }
            mend(&mut bytes, at, sum_at);
            at = sum_at + CHECKSUM;
        }
    }
    let read = match shard::parse("fuzzed.shard", &bytes) {
        Ok(read) => read,
        Err(error) => {
            assert!(error.starts_with("fuzzed.shard: "), "{error}");
            return;
        }
    };
    let layout = read.header.layout;
    assert!(read.used <= bytes.len());
    let mut again = bytes[..header_end(&bytes).expect("a header read")].to_vec();
    for game in &read.games {
        for sample in &game.samples {
            assert!(
                sample
                    .inputs
                    .iter()
                    .all(|&input| usize::from(input) < layout.inputs())
            );
        }
        write_block(&layout, game, &mut again).expect("a game read is written");
    }
    let reread = shard::parse("again", &again).expect("written, it reads");
    assert_eq!(reread.games, read.games);
});
