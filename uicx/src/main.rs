//! The `hnefatafl` program.

fn main() {
    println!("hnefatafl");
}
