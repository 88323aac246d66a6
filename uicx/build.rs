//! Rebuilds the program when the embedded data (`data/`) changes.

fn main() {
    println!("cargo:rerun-if-changed=../data");
}
