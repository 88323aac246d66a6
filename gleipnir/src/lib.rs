//! gleipnir: the text syntax shared by rc files, standard input, rule files and language
//! files, and the language catalogue (message files).

#![deny(missing_docs)]

mod syntax;

pub use syntax::{Line, LineReader, ReadError, SyntaxError, parse, quote};
