//! Benchmark: movegen (to be written).
fn main() {}
