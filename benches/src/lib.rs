//! Shared helpers for the benchmarks and the match runner.
