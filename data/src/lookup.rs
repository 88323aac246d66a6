//! Finding data files (rule files, language files, themes, the rc file).
//!
//! Places are tried in the manual's order, then the data embedded in the binary:
//! (1) the name as given, only when the user typed it; (2) the directory of `d` typed by
//! the user; (3) `-d`; (4) `$HNEFATAFL_PATH`; (5) the directory of `d` in an rc file;
//! (6) `$HOME/hnefatafl`; (7) `$HOME/.hnefatafl`; (8-11) the system directories;
//! (12) the embedded data. Lookup is for reading only, never for writing.

use std::path::{Path, PathBuf};

use crate::files::{self, FileError};

/// The system directories, places 8 to 11.
pub const SYSTEM_DIRS: [&str; 4] = [
    "/usr/share/hnefatafl",
    "/usr/share/games/hnefatafl",
    "/usr/local/share/hnefatafl",
    "/usr/local/share/games/hnefatafl",
];

/// Where a name to look up came from: only a name the user typed is tried as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Typed as an argument, at the prompt or in the X terminal.
    Typed,
    /// From an environment variable, an rc file or a saved game.
    Indirect,
}

/// Where a file was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A file on disk.
    File(PathBuf),
    /// The embedded data, under this relative path.
    Embedded(String),
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::File(path) => write!(f, "{}", path.display()),
            Found::Embedded(relative) => write!(f, "(built-in)/{relative}"),
        }
    }
}

/// Why a data file could not be read.
#[derive(Debug)]
pub enum LookupError {
    /// No place has it.
    NotFound,
    /// A place has it but it could not be read (or is no file).
    File(PathBuf, FileError),
}

/// The data directories the program knows of.
#[derive(Clone, Debug)]
pub struct DataDirs {
    /// Place 2: `d` typed by the user.
    pub user: Option<PathBuf>,
    /// Place 3: `-d`.
    pub argument: Option<PathBuf>,
    /// Place 4: `$HNEFATAFL_PATH`.
    pub environment: Option<PathBuf>,
    /// Place 5: `d` in an rc file.
    pub rc: Option<PathBuf>,
    /// `$HOME`, for places 6 and 7.
    pub home: Option<PathBuf>,
    /// Places 8 to 11: the system directories, [`SYSTEM_DIRS`] unless a test sets others.
    pub system: Vec<PathBuf>,
    /// Place 12: whether the embedded data is tried last.
    pub embedded: bool,
}

impl Default for DataDirs {
    /// No directory of places 2 to 7; the system directories and the embedded data.
    fn default() -> Self {
        DataDirs {
            user: None,
            argument: None,
            environment: None,
            rc: None,
            home: None,
            system: SYSTEM_DIRS.iter().map(PathBuf::from).collect(),
            embedded: true,
        }
    }
}

impl DataDirs {
    /// The directories of places 2 to 11 that apply, in order.
    pub fn directories(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = [&self.user, &self.argument, &self.environment, &self.rc]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        if let Some(home) = &self.home {
            dirs.push(home.join("hnefatafl"));
            dirs.push(home.join(".hnefatafl"));
        }
        dirs.extend(self.system.iter().cloned());
        dirs
    }

    /// Finds and reads `relative` (e.g. `rules/brandub`, `hnefataflrc`); with
    /// [`Origin::Typed`], `typed` (the name as the user gave it) is tried first.
    ///
    /// A fifo, a device or a socket where a file is looked for is refused, never read; a
    /// directory is passed over, and named in the error when nothing else is found.
    pub fn read(
        &self,
        typed: Option<&str>,
        relative: &str,
    ) -> Result<(Found, Vec<u8>), LookupError> {
        let mut directory = None;
        if let Some(name) = typed.filter(|name| !name.is_empty()) {
            let path = Path::new(name);
            match std::fs::metadata(path) {
                Ok(metadata) if metadata.is_dir() => directory = Some(path.to_owned()),
                Ok(_) => return read_file(path),
                Err(_) => {}
            }
        }
        let not_found = |directory: Option<PathBuf>| match directory {
            Some(path) => LookupError::File(path, FileError::Directory),
            None => LookupError::NotFound,
        };
        // A name that climbs out of the data directory is only ever read as typed.
        if relative
            .split('/')
            .any(|part| part == ".." || part.is_empty())
            || Path::new(relative).is_absolute()
        {
            return Err(not_found(directory));
        }
        for dir in self.directories() {
            let path = dir.join(relative);
            match std::fs::metadata(&path) {
                Ok(metadata) if metadata.is_dir() => {
                    directory.get_or_insert(path);
                }
                Ok(_) => return read_file(&path),
                Err(_) => {}
            }
        }
        if !self.embedded {
            return Err(not_found(directory));
        }
        match crate::embedded(relative) {
            Some(bytes) => Ok((Found::Embedded(relative.to_owned()), bytes.to_vec())),
            None => Err(not_found(directory)),
        }
    }

    /// Finds a file of a kind (`rules`, `lang`) by its name.
    pub fn read_named(
        &self,
        kind: &str,
        name: &str,
        origin: Origin,
    ) -> Result<(Found, Vec<u8>), LookupError> {
        let typed = (origin == Origin::Typed).then_some(name);
        self.read(typed, &format!("{kind}/{name}"))
    }
}

fn read_file(path: &Path) -> Result<(Found, Vec<u8>), LookupError> {
    match files::read(path) {
        Ok(bytes) => Ok((Found::File(path.to_owned()), bytes)),
        Err(error) => Err(LookupError::File(path.to_owned(), error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded_names;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create dir");
        }
        std::fs::write(path, text).expect("write");
    }

    fn found_text(dirs: &DataDirs, typed: Option<&str>, relative: &str) -> Option<String> {
        dirs.read(typed, relative)
            .ok()
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into())
    }

    #[test]
    fn places_are_tried_in_order() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        let system = [
            "usr-share",
            "usr-share-games",
            "local-share",
            "local-share-games",
        ];
        let mut dirs = DataDirs {
            user: Some(root.join("user")),
            argument: Some(root.join("argument")),
            environment: Some(root.join("environment")),
            rc: Some(root.join("rc")),
            home: Some(root.join("home")),
            system: system.iter().map(|name| root.join(name)).collect(),
            embedded: false,
        };
        // Each place, from the last to the first, hides every place after it.
        assert_eq!(found_text(&dirs, None, "lang/x"), None);
        for name in system.iter().rev() {
            write(&root.join(name).join("lang/x"), name);
            assert_eq!(found_text(&dirs, None, "lang/x").as_deref(), Some(*name));
        }
        write(&root.join("home/.hnefatafl/lang/x"), "dot");
        assert_eq!(found_text(&dirs, None, "lang/x").as_deref(), Some("dot"));
        write(&root.join("home/hnefatafl/lang/x"), "home");
        assert_eq!(found_text(&dirs, None, "lang/x").as_deref(), Some("home"));
        for name in ["rc", "environment", "argument", "user"] {
            write(&root.join(name).join("lang/x"), name);
            assert_eq!(found_text(&dirs, None, "lang/x").as_deref(), Some(name));
        }
        let typed = root.join("typed");
        write(&typed, "typed");
        let typed = typed.to_str().expect("utf-8 path");
        assert_eq!(
            found_text(&dirs, Some(typed), "lang/x").as_deref(),
            Some("typed")
        );
        dirs.user = None;
        assert_eq!(
            found_text(&dirs, None, "lang/x").as_deref(),
            Some("argument")
        );
    }

    #[test]
    fn the_program_tries_the_manual_system_directories() {
        let dirs = DataDirs::default();
        let expected: Vec<PathBuf> = SYSTEM_DIRS.iter().map(PathBuf::from).collect();
        assert_eq!(dirs.directories(), expected);
        assert_eq!(
            SYSTEM_DIRS,
            [
                "/usr/share/hnefatafl",
                "/usr/share/games/hnefatafl",
                "/usr/local/share/hnefatafl",
                "/usr/local/share/games/hnefatafl",
            ]
        );
    }

    #[test]
    fn climbing_names_are_not_looked_up() {
        let temp = tempfile::tempdir().expect("tempdir");
        write(&temp.path().join("secret"), "s");
        let dirs = DataDirs {
            user: Some(temp.path().join("d")),
            ..DataDirs::default()
        };
        assert!(found_text(&dirs, None, "rules/../../secret").is_none());
    }

    #[test]
    fn embedded_data_comes_last() {
        let dirs = DataDirs::default();
        assert!(found_text(&dirs, None, "lang/eng").is_some());
        assert!(found_text(&dirs, None, "lang/none-such").is_none());
        assert!(embedded_names("lang").contains(&"swe"));
    }
}
