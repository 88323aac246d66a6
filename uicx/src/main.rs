//! The `hnefatafl` program.

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `--check` is a program of its own (a rule-file checker): it takes file names,
    // which the interactive program's arguments do not.
    let status = match args.split_first() {
        Some((first, rest)) if first == "--check" => uicx::check::run(rest),
        _ => uicx::cli::run(args),
    };
    std::process::exit(status);
}
