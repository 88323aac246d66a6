//! gleipnir: the text syntax shared by rc files, standard input, rule files and language
//! files, and the language catalogue (message files).
//!
//! ```
//! use gleipnir::{Catalogue, parse};
//!
//! let lines = parse(b"width 7 # columns\nname \"Big board\"\n")?;
//! assert_eq!(lines[1].words, ["name", "Big board"]);
//!
//! gleipnir::language_keys! {
//!     /// The program's messages.
//!     enum Key {
//!         GameOver = "cmd_game_over",
//!     }
//! }
//! let language = Catalogue::<Key>::parse(b"cmd_game_over\tThe game is over\n")?;
//! assert_eq!(language.get(Key::GameOver), "The game is over");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod language;
mod syntax;

pub use language::{Catalogue, LanguageError, LanguageKey, key_names};
pub use syntax::{Line, LineReader, ReadError, SyntaxError, parse, quote};
