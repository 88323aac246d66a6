//! The `hnefatafl` program.

fn main() {
    let status = uicx::cli::run(std::env::args_os().skip(1).collect());
    std::process::exit(status);
}
