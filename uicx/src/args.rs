//! The program's arguments (SPEC 6.1).

use std::path::PathBuf;

use clap::{ArgAction, Parser};

/// `hnefatafl [-ChiLsv] [-c <path>] [-d <path>] [-e <path>] [-l <file>] [-n [<var>]]
/// [-r <file>] [-x [<theme>]]`
#[derive(Clone, Debug, Default, Parser)]
#[command(
    name = "hnefatafl",
    disable_help_flag = true,
    disable_version_flag = true
)]
pub struct Args {
    /// rc file (full path).
    #[arg(short = 'c', value_name = "path")]
    pub rc: Option<PathBuf>,
    /// Read no rc file.
    #[arg(short = 'C', action = ArgAction::SetTrue)]
    pub no_rc: bool,
    /// Preferred data directory.
    #[arg(short = 'd', value_name = "path")]
    pub data: Option<PathBuf>,
    /// Load a saved game (full path).
    #[arg(short = 'e', value_name = "path")]
    pub saved: Option<PathBuf>,
    /// Help on the arguments.
    #[arg(short = 'h', long = "help", action = ArgAction::SetTrue)]
    pub help: bool,
    /// Copyright and warranty.
    #[arg(short = 'i', action = ArgAction::SetTrue)]
    pub info: bool,
    /// Language file (name only).
    #[arg(short = 'l', value_name = "file")]
    pub lang: Option<String>,
    /// Print every language key.
    #[arg(short = 'L', action = ArgAction::SetTrue)]
    pub keys: bool,
    /// Print an environment variable, or all the program uses.
    #[arg(short = 'n', value_name = "var", num_args = 0..=1)]
    pub env: Option<Option<String>>,
    /// Rule file (name only).
    #[arg(short = 'r', value_name = "file")]
    pub rules: Option<String>,
    /// Do not use the locale: Latin-1 text in X.
    #[arg(short = 's', action = ArgAction::SetTrue)]
    pub no_locale: bool,
    /// Versions of every component.
    #[arg(short = 'v', long = "version", action = ArgAction::SetTrue)]
    pub version: bool,
    /// Start the X interface, with a theme.
    #[arg(short = 'x', value_name = "theme", num_args = 0..=1)]
    pub x: Option<Option<String>>,
    /// Print the perft count of the start position to this depth, then exit.
    #[arg(long = "perft", value_name = "depth")]
    pub perft: Option<u32>,
}

/// The environment variables the program uses, in the manual's order.
pub const VARIABLES: [&str; 11] = [
    "DISPLAY",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "HNEFATAFL_FONT",
    "HNEFATAFL_LANG",
    "HNEFATAFL_PATH",
    "HNEFATAFL_RC",
    "HNEFATAFL_RULES",
    "NO_COLOR",
];

/// Reads the arguments (without the program name); the error is clap's description.
pub fn parse<I, T>(args: I) -> Result<Args, String>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let all = std::iter::once(std::ffi::OsString::from("hnefatafl"))
        .chain(args.into_iter().map(Into::into));
    Args::try_parse_from(all).map_err(|error| error.to_string().trim_end().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_values_do_not_take_flags() {
        let args = parse(["-n", "-x"]).expect("valid");
        assert_eq!(args.env, Some(None));
        assert_eq!(args.x, Some(None));
        let args = parse(["-x", "wood", "-n", "HOME"]).expect("valid");
        assert_eq!(args.x, Some(Some("wood".into())));
        assert_eq!(args.env, Some(Some("HOME".into())));
        let args = parse(["-x", "-C"]).expect("valid");
        assert!(args.no_rc);
        assert_eq!(args.x, Some(None));
    }

    #[test]
    fn flags_combine() {
        let args = parse(["-Cs", "-r", "brandub", "-l", "swe", "-d", "/x"]).expect("valid");
        assert!(args.no_rc && args.no_locale);
        assert_eq!(args.rules.as_deref(), Some("brandub"));
        assert_eq!(args.lang.as_deref(), Some("swe"));
        assert_eq!(args.data, Some(PathBuf::from("/x")));
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(parse(["-q"]).is_err());
        assert!(parse(["-r"]).is_err());
        assert!(parse(["extra"]).is_err());
        assert!(parse(["--perft", "x"]).is_err());
        assert!(parse(["--helpme"]).is_err());
    }

    #[test]
    fn long_help_and_version() {
        assert!(parse(["--help"]).expect("valid").help);
        assert!(parse(["--version"]).expect("valid").version);
    }
}
