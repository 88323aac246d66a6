//! The engine match runner (to be written).
fn main() {}
