//! The program's arguments (docs/manual.md, "Arguments").

use std::path::PathBuf;

use clap::{ArgAction, Parser};

use crate::lang::{Key, Language};

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
    /// Play as an engine over a protocol (`otep` or `htp`) on stdin and stdout.
    #[arg(long = "engine", value_name = "protocol")]
    pub engine: Option<String>,
    /// Limit words of the engine's every move (`3`, `d4`, `t2`...), for `--engine`.
    #[arg(long = "limits", value_name = "words")]
    pub limits: Option<String>,
    /// Print the perft count of the start position to this depth, then exit.
    #[arg(long = "perft", value_name = "depth")]
    pub perft: Option<u32>,
}

/// One option of the program, as `--help` lists it: its names, the value it takes, and
/// the language key of what it does.
#[derive(Clone, Copy, Debug)]
pub struct OptionHelp {
    /// Its names: `-h`, `--help`.
    pub names: &'static [&'static str],
    /// The value it takes, as help writes it (`<path>`, `[<theme>]`); empty for none.
    pub value: &'static str,
    /// What it does.
    pub help: Key,
}

/// Every option the binary takes, in the order `--help` lists them: the one list that the
/// help, the manuals and the man page follow (tests check that each is in all of them,
/// and that the argument parser takes exactly these).
pub const OPTIONS: &[OptionHelp] = &[
    option(&["-c"], "<path>", Key::HelpOptRc),
    option(&["-C"], "", Key::HelpOptNoRc),
    option(&["-d"], "<path>", Key::HelpOptData),
    option(&["-e"], "<path>", Key::HelpOptSaved),
    option(&["-h", "--help"], "", Key::HelpOptHelp),
    option(&["-i"], "", Key::HelpOptInfo),
    option(&["-l"], "<file>", Key::HelpOptLang),
    option(&["-L"], "", Key::HelpOptKeys),
    option(&["-n"], "[<var>]", Key::HelpOptEnv),
    option(&["-r"], "<file>", Key::HelpOptRules),
    option(&["-s"], "", Key::HelpOptNoLocale),
    option(&["-v", "--version"], "", Key::HelpOptVersion),
    option(&["-x"], "[<theme>]", Key::HelpOptX),
    option(&["--engine"], "<protocol>", Key::HelpOptEngine),
    option(&["--limits"], "<words>", Key::HelpOptLimits),
    option(&["--perft"], "<depth>", Key::HelpOptPerft),
    option(&["--check"], "[-w] [<file> ...]", Key::HelpOptCheck),
    option(&["-w"], "", Key::HelpOptWarnings),
];

const fn option(names: &'static [&'static str], value: &'static str, help: Key) -> OptionHelp {
    OptionHelp { names, value, help }
}

/// `hnefatafl --help`: the usage line, then one line for each of [`OPTIONS`].
pub fn help(language: &Language) -> String {
    let usages: Vec<String> = OPTIONS
        .iter()
        .map(|option| match option.value {
            "" => option.names.join(", "),
            value => format!("{} {value}", option.names.join(", ")),
        })
        .collect();
    let width = usages
        .iter()
        .map(|usage| usage.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = language.get(Key::HelpArgs);
    for (option, usage) in OPTIONS.iter().zip(&usages) {
        text.push_str(&format!(
            "\n  {usage:width$}  {}",
            language.get(option.help)
        ));
    }
    text
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
    // clap's first line says what is wrong; the usage and tips after it are left out, as
    // `-h` lists the options.
    Args::try_parse_from(all).map_err(|error| {
        let text = error.to_string();
        let first = text.lines().next().unwrap_or_default();
        first.strip_prefix("error: ").unwrap_or(first).to_owned()
    })
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
    fn the_option_table_is_what_the_parser_takes() {
        use clap::CommandFactory;
        let mut parsed: Vec<String> = Vec::new();
        for arg in Args::command().get_arguments() {
            parsed.extend(arg.get_short().map(|short| format!("-{short}")));
            parsed.extend(arg.get_long().map(|long| format!("--{long}")));
        }
        // `--check` is a program of its own, with its own options.
        parsed.extend(["--check", "-w"].iter().map(|name| name.to_string()));
        let mut listed: Vec<String> = OPTIONS
            .iter()
            .flat_map(|option| option.names.iter().map(|name| name.to_string()))
            .collect();
        parsed.sort();
        listed.sort();
        assert_eq!(parsed, listed);
    }

    #[test]
    fn an_unknown_option_is_one_line() {
        let error = parse(["--bogus"]).expect_err("unknown");
        assert!(
            !error.contains('\n') && error.contains("--bogus"),
            "{error}"
        );
    }

    #[test]
    fn long_help_and_version() {
        assert!(parse(["--help"]).expect("valid").help);
        assert!(parse(["--version"]).expect("valid").version);
    }
}
