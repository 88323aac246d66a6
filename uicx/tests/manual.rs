//! The manuals say what the program does: their example session runs without an error,
//! and the language lines they quote are the shipped ones.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).expect("the file is in the repository")
}

/// The commands of the example session that follows `heading`: its indented lines,
/// without their comments.
fn session(manual: &str, heading: &str) -> Vec<String> {
    let start = manual.find(heading).expect("the session is in the manual");
    manual[start + heading.len()..]
        .lines()
        .skip_while(|line| line.trim().is_empty())
        .take_while(|line| line.starts_with('\t'))
        .map(|line| line.split('#').next().unwrap_or("").trim().to_owned())
        .collect()
}

#[test]
fn the_example_sessions_run_without_an_error() {
    for (manual, heading) in [
        ("docs/manual.md", "A session at the command line:"),
        ("docs/manual.sv.md", "En stund i kommandotolken:"),
    ] {
        let commands = session(&read(manual), heading);
        assert!(commands.len() > 5, "{manual}: {commands:?}");
        let home = tempfile::tempdir().expect("HOME");
        let save = home.path().join("game.save");
        // The window needs a display, and the save goes to a place of the test's own.
        let script: String = commands
            .iter()
            .filter(|command| !command.starts_with('x'))
            .map(|command| command.replace("/tmp/game.save", &save.display().to_string()))
            .map(|command| format!("{command}\n"))
            .collect();
        let output = Command::cargo_bin("hnefatafl")
            .expect("the binary is built")
            .env("HOME", home.path())
            .env_remove("DISPLAY")
            .env_remove("HNEFATAFL_RC")
            .env_remove("HNEFATAFL_PATH")
            .args(["-C", "-l", "eng", "-r", "hnefatafl"])
            .write_stdin(script)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .expect("runs");
        assert!(output.status.success());
        let errors = String::from_utf8_lossy(&output.stderr);
        assert_eq!(errors, "", "{manual}: {commands:?}");
        assert!(save.exists(), "{manual}: the session saves");
    }
}

#[test]
fn quoted_language_lines_are_the_shipped_ones() {
    for (manual, language, intro) in [
        (
            "docs/manual.md",
            "data/lang/eng",
            "message, which is what you translate. Example:",
        ),
        (
            "docs/manual.md",
            "data/lang/swe",
            "In Swedish this line becomes:",
        ),
    ] {
        let text = read(manual);
        let start = text.find(intro).expect("the example is in the manual") + intro.len();
        let quoted = text[start..]
            .lines()
            .find(|line| line.starts_with('\t'))
            .expect("an indented line")
            .trim_start_matches('\t');
        let shipped = read(language);
        assert!(
            shipped.lines().any(|line| line == quoted),
            "{manual} quotes {quoted:?}, which is not a line of {language}"
        );
    }
}

/// Whether a manual's list of options has an entry for this option name: a line that
/// begins with the option, as Markdown (`` `-h`, `--help` ``) or as the man page
/// (`.BR \-h ", " \-\-help`), and names it.
fn has_entry(text: &str, name: &str) -> bool {
    let man = name.replace('-', "\\-");
    text.lines().any(|line| {
        let markdown = line.starts_with("`-")
            && (line.contains(&format!("`{name}`")) || line.contains(&format!("`{name} ")));
        let roff = [".B ", ".BI ", ".BR "].iter().any(|macro_| {
            line.strip_prefix(macro_).is_some_and(|rest| {
                rest.starts_with("\\-")
                    && rest.split([' ', ',', '"']).any(|word| word == man.as_str())
            })
        });
        markdown || roff
    })
}

/// The options `hnefatafl --help` lists: the words starting with `-` before each line's
/// explanation (the usage line first is skipped).
fn options_of_the_help() -> Vec<String> {
    let home = tempfile::tempdir().expect("HOME");
    let output = Command::cargo_bin("hnefatafl")
        .expect("the program")
        .env("HOME", home.path())
        .args(["-C", "-s", "--help"])
        .output()
        .expect("hnefatafl --help");
    assert!(output.status.success(), "{output:?}");
    let help = String::from_utf8(output.stdout).expect("UTF-8");
    let mut names = Vec::new();
    for line in help.lines().skip(1) {
        let usage = line.trim_start().split("  ").next().unwrap_or("");
        names.extend(
            usage
                .split([' ', ','])
                .filter(|word| word.starts_with('-'))
                .map(str::to_owned),
        );
    }
    names
}

#[test]
fn every_option_of_the_help_is_in_the_manuals_and_the_man_page() {
    let names = options_of_the_help();
    assert!(names.len() > 15, "{names:?}");
    for document in ["docs/manual.md", "docs/manual.sv.md", "docs/hnefatafl.6"] {
        let text = read(document);
        for name in &names {
            assert!(has_entry(&text, name), "{document} has no entry for {name}");
        }
    }
}

#[test]
fn every_shipped_variant_is_named_in_the_manuals_the_readme_and_the_rc_file() {
    let mut variants: Vec<String> = std::fs::read_dir(root().join("data/rules"))
        .expect("the shipped rules")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    variants.sort();
    assert!(variants.len() > 10, "{variants:?}");
    for document in [
        "docs/manual.md",
        "docs/manual.sv.md",
        "docs/hnefatafl.6",
        "README.md",
        "data/hnefataflrc",
    ] {
        let text = read(document);
        for variant in &variants {
            let named = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|word| word == variant);
            assert!(named, "{document} does not name the variant {variant}");
        }
    }
}

#[test]
fn the_readme_session_is_what_the_program_prints() {
    let readme = read("README.md");
    let start = readme.find("$ printf '").expect("the session's command");
    let block = &readme[start..];
    let block = &block[..block.find("```").expect("the block ends")];
    let (command, printed) = block.split_once('\n').expect("a command line");
    let script = command
        .trim_start_matches("$ printf '")
        .split('\'')
        .next()
        .expect("the input")
        .replace("\\n", "\n");
    let args: Vec<&str> = command
        .split("| hnefatafl ")
        .nth(1)
        .expect("the program's arguments")
        .split_whitespace()
        .collect();
    let home = tempfile::tempdir().expect("HOME");
    let output = Command::cargo_bin("hnefatafl")
        .expect("the binary is built")
        .env("HOME", home.path())
        .env("NO_COLOR", "1")
        .env_remove("DISPLAY")
        .env_remove("HNEFATAFL_RC")
        .env_remove("HNEFATAFL_PATH")
        .env_remove("HNEFATAFL_LANG")
        .env_remove("HNEFATAFL_RULES")
        .args(&args)
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(String::from_utf8_lossy(&output.stdout), printed);
}
