//! Language files: catalogues that map the program's language keys to messages.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use crate::syntax::{SyntaxError, parse};

/// The set of language keys a program defines, usually one fieldless enum.
///
/// `ALL` lists every key once; `index` is the key's position in `ALL`. A [`Catalogue`]
/// accepts a language file only when it gives a message for every key in `ALL`.
///
/// ```
/// use gleipnir::LanguageKey;
///
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// enum Key {
///     GameOver,
///     Fr1,
/// }
///
/// impl LanguageKey for Key {
///     const ALL: &'static [Self] = &[Key::GameOver, Key::Fr1];
///     fn name(self) -> &'static str {
///         match self {
///             Key::GameOver => "cli_cmd_game_over",
///             Key::Fr1 => "fr_1",
///         }
///     }
///     fn index(self) -> usize {
///         self as usize
///     }
/// }
///
/// assert_eq!(Key::ALL[Key::Fr1.index()], Key::Fr1);
/// assert_eq!(Key::GameOver.name(), "cli_cmd_game_over");
/// ```
pub trait LanguageKey: Copy + Eq + 'static {
    /// Every key, each once, in the order `-L` lists them.
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] struct Only;
    /// # impl LanguageKey for Only {
    /// #     const ALL: &'static [Self] = &[Only];
    /// #     fn name(self) -> &'static str { "only" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// assert_eq!(Only::ALL.len(), 1);
    /// ```
    const ALL: &'static [Self];

    /// The key as written in language files, for example `cli_cmd_game_over`.
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] struct Only;
    /// # impl LanguageKey for Only {
    /// #     const ALL: &'static [Self] = &[Only];
    /// #     fn name(self) -> &'static str { "only" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// assert_eq!(Only.name(), "only");
    /// ```
    fn name(self) -> &'static str;

    /// The key's position in [`LanguageKey::ALL`].
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] struct Only;
    /// # impl LanguageKey for Only {
    /// #     const ALL: &'static [Self] = &[Only];
    /// #     fn name(self) -> &'static str { "only" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// assert_eq!(Only.index(), 0);
    /// ```
    fn index(self) -> usize;
}

/// Declares a program's language keys: a fieldless enum with a doc line per key, its
/// `ALL` list and `name`, and its [`LanguageKey`] implementation, all from one list of
/// `Variant = "key_name",` pairs (the one source of truth for the keys).
///
/// ```
/// gleipnir::language_keys! {
///     /// The keys of a small program.
///     pub enum Key {
///         GameOver = "cmd_game_over",
///         Turn = "turn",
///     }
/// }
/// use gleipnir::LanguageKey;
/// assert_eq!(Key::ALL, &[Key::GameOver, Key::Turn]);
/// assert_eq!(Key::Turn.name(), "turn");
/// assert_eq!(LanguageKey::index(Key::Turn), 1);
/// let listing: Vec<&str> = gleipnir::key_names::<Key>().collect();
/// assert_eq!(listing, ["cmd_game_over", "turn"]);
/// ```
#[macro_export]
macro_rules! language_keys {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($variant:ident = $key:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $(
                #[doc = concat!("`", $key, "`")]
                $variant,
            )*
        }

        impl $name {
            /// Every key, in the order of the language files.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The key as written in a language file.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $key,)*
                }
            }
        }

        impl $crate::LanguageKey for $name {
            const ALL: &'static [$name] = $name::ALL;

            fn name(self) -> &'static str {
                $name::name(self)
            }

            fn index(self) -> usize {
                self as usize
            }
        }
    };
}

/// The names of every key of `K`, in the order of [`LanguageKey::ALL`] (what `-L` prints,
/// one per line).
///
/// ```
/// # use gleipnir::LanguageKey;
/// # #[derive(Clone, Copy, PartialEq, Eq)] enum Key { A, B }
/// # impl LanguageKey for Key {
/// #     const ALL: &'static [Self] = &[Key::A, Key::B];
/// #     fn name(self) -> &'static str { match self { Key::A => "key_a", Key::B => "key_b" } }
/// #     fn index(self) -> usize { self as usize }
/// # }
/// let listing: Vec<&str> = gleipnir::key_names::<Key>().collect();
/// assert_eq!(listing, ["key_a", "key_b"]);
/// ```
pub fn key_names<K: LanguageKey>() -> impl ExactSizeIterator<Item = &'static str> {
    K::ALL.iter().map(|key| key.name())
}

/// Why a language file was rejected. The whole file is refused on the first fault.
///
/// ```
/// # use gleipnir::LanguageKey;
/// # #[derive(Clone, Copy, PartialEq, Eq, Debug)] enum Key { A, B }
/// # impl LanguageKey for Key {
/// #     const ALL: &'static [Self] = &[Key::A, Key::B];
/// #     fn name(self) -> &'static str { match self { Key::A => "key_a", Key::B => "key_b" } }
/// #     fn index(self) -> usize { self as usize }
/// # }
/// use gleipnir::{Catalogue, LanguageError};
///
/// let error = Catalogue::<Key>::parse(b"key_a Hello\nkey_c Bye\n").unwrap_err();
/// assert_eq!(error, LanguageError::UnknownKey { line: 2, key: "key_c".into() });
/// assert_eq!(error.to_string(), "line 2: unknown language key `key_c`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LanguageError {
    /// The text broke a rule of the syntax.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// A line starts with a word that is not one of the program's keys.
    #[error("line {line}: unknown language key `{key}`")]
    UnknownKey {
        /// The line of the unknown key.
        line: u32,
        /// The word found where a key should be.
        key: String,
    },
    /// A key is given a second time.
    #[error("line {line}: language key `{key}` given again (first on line {first})")]
    DuplicateKey {
        /// The line of the second occurrence.
        line: u32,
        /// The repeated key.
        key: String,
        /// The line of the first occurrence.
        first: u32,
    },
    /// A key has no message after it.
    #[error("line {line}: language key `{key}` has no message")]
    EmptyMessage {
        /// The line of the key.
        line: u32,
        /// The key without a message.
        key: String,
    },
    /// A key of the program is not in the file.
    #[error("language key `{key}` is missing ({missing} missing in all)")]
    MissingKey {
        /// The first missing key, in the order of [`LanguageKey::ALL`].
        key: &'static str,
        /// How many keys are missing.
        missing: usize,
    },
}

impl LanguageError {
    /// The line the fault was found on; `None` for a missing key, which has no line.
    ///
    /// ```
    /// use gleipnir::{LanguageError, SyntaxError};
    ///
    /// let syntax = LanguageError::from(SyntaxError::UnterminatedQuote { line: 4 });
    /// assert_eq!(syntax.line(), Some(4));
    /// assert_eq!(LanguageError::MissingKey { key: "fr_1", missing: 1 }.line(), None);
    /// ```
    pub fn line(&self) -> Option<u32> {
        match self {
            Self::Syntax(error) => Some(error.line()),
            Self::UnknownKey { line, .. }
            | Self::DuplicateKey { line, .. }
            | Self::EmptyMessage { line, .. } => Some(*line),
            Self::MissingKey { .. } => None,
        }
    }
}

/// A complete set of messages for the keys `K`, read from a language file, or the empty
/// catalogue that shows every message as its key.
///
/// A catalogue that exists is complete: [`Catalogue::parse`] refuses any file that lacks
/// a key, so replacing one catalogue by another only on success never loses a message.
///
/// ```
/// # use gleipnir::LanguageKey;
/// # #[derive(Clone, Copy, PartialEq, Eq, Debug)] enum Key { GameOver, Fr1 }
/// # impl LanguageKey for Key {
/// #     const ALL: &'static [Self] = &[Key::GameOver, Key::Fr1];
/// #     fn name(self) -> &'static str {
/// #         match self { Key::GameOver => "cli_cmd_game_over", Key::Fr1 => "fr_1" }
/// #     }
/// #     fn index(self) -> usize { self as usize }
/// # }
/// use gleipnir::Catalogue;
///
/// let mut language = Catalogue::<Key>::empty();
/// assert_eq!(language.get(Key::GameOver), "cli_cmd_game_over");
///
/// language = Catalogue::parse(
///     "cli_cmd_game_over\tPartiet är slut\nfr_1 Slut på minne\n".as_bytes(),
/// )?;
/// assert_eq!(language.get(Key::GameOver), "Partiet är slut");
///
/// // A bad file leaves the language in use alone.
/// if let Ok(other) = Catalogue::parse(b"fr_1 Out of memory\n") {
///     language = other;
/// }
/// assert_eq!(language.get(Key::Fr1), "Slut på minne");
/// # Ok::<(), gleipnir::LanguageError>(())
/// ```
pub struct Catalogue<K> {
    /// The message of each key, by [`LanguageKey::index`]; `None` when no file is loaded.
    messages: Option<Vec<String>>,
    keys: PhantomData<fn() -> K>,
}

impl<K: LanguageKey> Catalogue<K> {
    /// The catalogue with no language loaded: every message is its key's name.
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] enum Key { Fr1 }
    /// # impl LanguageKey for Key {
    /// #     const ALL: &'static [Self] = &[Key::Fr1];
    /// #     fn name(self) -> &'static str { "fr_1" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// let language = gleipnir::Catalogue::<Key>::empty();
    /// assert!(language.is_empty());
    /// assert_eq!(language.get(Key::Fr1), "fr_1");
    /// ```
    pub fn empty() -> Self {
        Self {
            messages: None,
            keys: PhantomData,
        }
    }

    /// Reads a language file: on each line the first word is a key and the rest of the
    /// line's words, joined by one space, its message.
    ///
    /// # Errors
    ///
    /// The file is refused whole, naming the line and the key, if a line's key is unknown
    /// or given twice or has no message, if any key is missing, or if the text breaks the
    /// syntax ([`LanguageError::Syntax`], with its line).
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq, Debug)] enum Key { A, B }
    /// # impl LanguageKey for Key {
    /// #     const ALL: &'static [Self] = &[Key::A, Key::B];
    /// #     fn name(self) -> &'static str { match self { Key::A => "key_a", Key::B => "key_b" } }
    /// #     fn index(self) -> usize { self as usize }
    /// # }
    /// use gleipnir::{Catalogue, LanguageError};
    ///
    /// let language = Catalogue::<Key>::parse(b"key_a  Two   words\nkey_b \"kept  as is\"\n")?;
    /// assert_eq!(language.get(Key::A), "Two words");
    /// assert_eq!(language.get(Key::B), "kept  as is");
    ///
    /// let missing = Catalogue::<Key>::parse(b"key_a Hello\n").unwrap_err();
    /// assert_eq!(missing, LanguageError::MissingKey { key: "key_b", missing: 1 });
    /// # Ok::<(), LanguageError>(())
    /// ```
    pub fn parse(text: &[u8]) -> Result<Self, LanguageError> {
        let by_name: HashMap<&'static str, K> =
            K::ALL.iter().map(|&key| (key.name(), key)).collect();
        let slots = K::ALL.iter().map(|key| key.index() + 1).max().unwrap_or(0);
        // Each slot holds the message and the line it came from.
        let mut found: Vec<Option<(String, u32)>> = vec![None; slots];
        for line in parse(text)? {
            let Some((name, message)) = line.words.split_first() else {
                continue;
            };
            let Some(&key) = by_name.get(name.as_str()) else {
                return Err(LanguageError::UnknownKey {
                    line: line.number,
                    key: name.clone(),
                });
            };
            let message = message.join(" ");
            if message.is_empty() {
                return Err(LanguageError::EmptyMessage {
                    line: line.number,
                    key: name.clone(),
                });
            }
            let slot = &mut found[key.index()];
            if let Some((_, first)) = slot {
                return Err(LanguageError::DuplicateKey {
                    line: line.number,
                    key: name.clone(),
                    first: *first,
                });
            }
            *slot = Some((message, line.number));
        }
        let mut missing = K::ALL.iter().filter(|key| found[key.index()].is_none());
        if let Some(first) = missing.next() {
            return Err(LanguageError::MissingKey {
                key: first.name(),
                missing: 1 + missing.count(),
            });
        }
        let messages = found
            .into_iter()
            .map(|slot| slot.map(|(message, _)| message).unwrap_or_default());
        Ok(Self {
            messages: Some(messages.collect()),
            keys: PhantomData,
        })
    }

    /// The message for a key, or the key's name when no language is loaded.
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] enum Key { Fr1 }
    /// # impl LanguageKey for Key {
    /// #     const ALL: &'static [Self] = &[Key::Fr1];
    /// #     fn name(self) -> &'static str { "fr_1" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// let language = gleipnir::Catalogue::<Key>::parse(b"fr_1 Out of memory")?;
    /// assert_eq!(language.get(Key::Fr1), "Out of memory");
    /// # Ok::<(), gleipnir::LanguageError>(())
    /// ```
    pub fn get(&self, key: K) -> &str {
        self.messages
            .as_ref()
            .and_then(|messages| messages.get(key.index()))
            .map_or(key.name(), String::as_str)
    }

    /// Whether no language is loaded (messages are shown as their keys).
    ///
    /// ```
    /// # use gleipnir::LanguageKey;
    /// # #[derive(Clone, Copy, PartialEq, Eq)] enum Key { Fr1 }
    /// # impl LanguageKey for Key {
    /// #     const ALL: &'static [Self] = &[Key::Fr1];
    /// #     fn name(self) -> &'static str { "fr_1" }
    /// #     fn index(self) -> usize { 0 }
    /// # }
    /// use gleipnir::Catalogue;
    ///
    /// assert!(Catalogue::<Key>::empty().is_empty());
    /// assert!(!Catalogue::<Key>::parse(b"fr_1 Out of memory")?.is_empty());
    /// # Ok::<(), gleipnir::LanguageError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.messages.is_none()
    }
}

/// The same as [`Catalogue::empty`].
///
/// ```
/// # use gleipnir::LanguageKey;
/// # #[derive(Clone, Copy, PartialEq, Eq)] enum Key { Fr1 }
/// # impl LanguageKey for Key {
/// #     const ALL: &'static [Self] = &[Key::Fr1];
/// #     fn name(self) -> &'static str { "fr_1" }
/// #     fn index(self) -> usize { 0 }
/// # }
/// assert!(gleipnir::Catalogue::<Key>::default().is_empty());
/// ```
impl<K: LanguageKey> Default for Catalogue<K> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<K> Clone for Catalogue<K> {
    fn clone(&self) -> Self {
        Self {
            messages: self.messages.clone(),
            keys: PhantomData,
        }
    }
}

impl<K> fmt::Debug for Catalogue<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.messages {
            None => f.write_str("Catalogue(empty)"),
            Some(messages) => f.debug_tuple("Catalogue").field(messages).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quote;
    use proptest::prelude::*;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Key {
        GameOver,
        Fr1,
        Help,
    }

    impl LanguageKey for Key {
        const ALL: &'static [Self] = &[Key::GameOver, Key::Fr1, Key::Help];
        fn name(self) -> &'static str {
            match self {
                Key::GameOver => "cli_cmd_game_over",
                Key::Fr1 => "fr_1",
                Key::Help => "help_text",
            }
        }
        fn index(self) -> usize {
            self as usize
        }
    }

    /// Keys whose `index` is not their position: the catalogue must not rely on it.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Sparse {
        Ten,
        Three,
    }

    impl LanguageKey for Sparse {
        const ALL: &'static [Self] = &[Sparse::Ten, Sparse::Three];
        fn name(self) -> &'static str {
            match self {
                Sparse::Ten => "ten",
                Sparse::Three => "three",
            }
        }
        fn index(self) -> usize {
            match self {
                Sparse::Ten => 10,
                Sparse::Three => 3,
            }
        }
    }

    const COMPLETE: &str = "\
# English
cli_cmd_game_over\tThe game is over
fr_1   Out   of\tmemory   # a comment
help_text \"Type  h for help\"
";

    fn catalogue(text: &str) -> Result<Catalogue<Key>, LanguageError> {
        Catalogue::parse(text.as_bytes())
    }

    #[test]
    fn empty_catalogue_shows_keys() {
        let language = Catalogue::<Key>::empty();
        assert!(language.is_empty());
        for &key in Key::ALL {
            assert_eq!(language.get(key), key.name());
        }
        assert!(Catalogue::<Key>::default().is_empty());
    }

    #[test]
    fn complete_file_gives_every_message() {
        let language = catalogue(COMPLETE).expect("complete file");
        assert!(!language.is_empty());
        assert_eq!(language.get(Key::GameOver), "The game is over");
        assert_eq!(language.get(Key::Fr1), "Out of memory");
        assert_eq!(language.get(Key::Help), "Type  h for help");
    }

    #[test]
    fn message_is_the_rest_of_the_line_with_the_syntax_applied() {
        let text = "cli_cmd_game_over a\\tb \\\n  c\nfr_1 'it''s'\nhelp_text ä ö \"\"\n";
        let language = catalogue(text).expect("valid");
        assert_eq!(language.get(Key::GameOver), "a\tb c");
        assert_eq!(language.get(Key::Fr1), "its");
        assert_eq!(language.get(Key::Help), "ä ö ");
    }

    #[test]
    fn order_of_lines_does_not_matter() {
        let language = catalogue("help_text h\nfr_1 f\ncli_cmd_game_over g\n").expect("valid");
        assert_eq!(language.get(Key::GameOver), "g");
        assert_eq!(language.get(Key::Help), "h");
    }

    #[test]
    fn missing_key_rejects_the_file() {
        let error = catalogue("cli_cmd_game_over over\n").expect_err("incomplete");
        assert_eq!(
            error,
            LanguageError::MissingKey {
                key: "fr_1",
                missing: 2
            }
        );
        assert_eq!(error.line(), None);
        assert_eq!(
            error.to_string(),
            "language key `fr_1` is missing (2 missing in all)"
        );
    }

    #[test]
    fn empty_file_misses_every_key() {
        let error = catalogue("# nothing\n").expect_err("empty");
        assert_eq!(
            error,
            LanguageError::MissingKey {
                key: "cli_cmd_game_over",
                missing: 3
            }
        );
    }

    /// The error for an unknown key.
    fn unknown_key(line: u32, key: &str) -> LanguageError {
        LanguageError::UnknownKey {
            line,
            key: key.into(),
        }
    }

    #[test]
    fn unknown_key_rejects_the_file() {
        let text = format!("{COMPLETE}cli_cmd_game_ove typo\n");
        let error = catalogue(&text).expect_err("unknown key");
        assert_eq!(error, unknown_key(5, "cli_cmd_game_ove"));
        assert_eq!(error.line(), Some(5));
    }

    #[test]
    fn keys_are_case_sensitive() {
        let error = catalogue("FR_1 x\n").expect_err("unknown key");
        assert_eq!(error, unknown_key(1, "FR_1"));
    }

    #[test]
    fn duplicate_key_rejects_the_file() {
        let text = format!("{COMPLETE}\nfr_1 again\n");
        let error = catalogue(&text).expect_err("duplicate");
        assert_eq!(
            error,
            LanguageError::DuplicateKey {
                line: 6,
                key: "fr_1".into(),
                first: 3
            }
        );
        assert_eq!(
            error.to_string(),
            "line 6: language key `fr_1` given again (first on line 3)"
        );
    }

    #[test]
    fn key_without_message_rejects_the_file() {
        // No message, a comment alone, a quoted empty message.
        for (text, line, key) in [
            (
                "cli_cmd_game_over\nfr_1 f\nhelp_text h\n",
                1,
                "cli_cmd_game_over",
            ),
            ("cli_cmd_game_over g\nfr_1 # f\nhelp_text h\n", 2, "fr_1"),
            (
                "cli_cmd_game_over g\nfr_1 f\nhelp_text ''\n",
                3,
                "help_text",
            ),
        ] {
            let error = catalogue(text).expect_err("no message");
            let key = key.into();
            assert_eq!(error, LanguageError::EmptyMessage { line, key }, "{text}");
        }
    }

    #[test]
    fn syntax_errors_pass_through_with_their_line() {
        let text = "cli_cmd_game_over g\nfr_1 \"open\nhelp_text h\n";
        let error = catalogue(text).expect_err("syntax");
        assert_eq!(
            error,
            LanguageError::Syntax(SyntaxError::UnterminatedQuote { line: 2 })
        );
        assert_eq!(error.line(), Some(2));
        assert_eq!(error.to_string(), "line 2: unterminated quote");
        let error = Catalogue::<Key>::parse(b"fr_1 \xff\n").expect_err("utf-8");
        assert_eq!(
            error,
            LanguageError::Syntax(SyntaxError::InvalidUtf8 { line: 1 })
        );
    }

    #[test]
    fn first_fault_in_file_order_is_reported() {
        let text = "bogus x\nfr_1\n";
        let error = catalogue(text).expect_err("two faults");
        assert_eq!(error, unknown_key(1, "bogus"));
    }

    #[test]
    fn key_names_list_every_key_in_order() {
        let names: Vec<&str> = key_names::<Key>().collect();
        assert_eq!(names, ["cli_cmd_game_over", "fr_1", "help_text"]);
        assert_eq!(key_names::<Key>().len(), Key::ALL.len());
    }

    #[test]
    fn index_need_not_be_the_position() {
        let language = Catalogue::<Sparse>::parse(b"three 3\nten 10\n").expect("valid");
        assert_eq!(language.get(Sparse::Ten), "10");
        assert_eq!(language.get(Sparse::Three), "3");
        let error = Catalogue::<Sparse>::parse(b"ten 10\n").expect_err("missing");
        assert_eq!(
            error,
            LanguageError::MissingKey {
                key: "three",
                missing: 1
            }
        );
    }

    #[test]
    fn clone_and_debug() {
        let language = catalogue(COMPLETE).expect("valid");
        assert_eq!(language.clone().get(Key::Fr1), "Out of memory");
        assert!(format!("{language:?}").contains("Out of memory"));
        assert_eq!(
            format!("{:?}", Catalogue::<Key>::empty()),
            "Catalogue(empty)"
        );
    }

    /// A message that survives being written with `quote`: not empty.
    fn message() -> impl Strategy<Value = String> {
        any::<String>().prop_filter("a message is not empty", |message| !message.is_empty())
    }

    proptest! {
        #[test]
        fn written_catalogue_reads_back(messages in prop::array::uniform3(message())) {
            let text: String = Key::ALL
                .iter()
                .zip(&messages)
                .map(|(key, message)| format!("{} {}\n", key.name(), quote(message)))
                .collect();
            let language = catalogue(&text);
            prop_assert!(language.is_ok(), "{text:?}: {language:?}");
            let language = language.unwrap_or_default();
            for (&key, message) in Key::ALL.iter().zip(&messages) {
                prop_assert_eq!(language.get(key), message.as_str());
            }
        }

        #[test]
        fn parse_never_panics(text in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = Catalogue::<Key>::parse(&text);
        }
    }
}
