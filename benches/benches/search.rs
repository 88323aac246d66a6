//! Benchmark: search (to be written).
fn main() {}
