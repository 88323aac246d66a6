//! Rebuilds the crate when a shipped data file is added, changed or removed:
//! `include_dir!` embeds every folder of the crate, but on stable Rust it cannot tell
//! Cargo which files it read, so without this a new file (a network under `networks/`, a
//! rule file) would not reach the binary until something in `src/` changed.

fn main() {
    // Cargo scans a directory named here, and everything under it, for changes.
    println!("cargo:rerun-if-changed=.");
}
