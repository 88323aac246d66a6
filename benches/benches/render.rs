//! Benchmark: render (to be written).
fn main() {}
