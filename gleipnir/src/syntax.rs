//! The line syntax: words, quotes, escapes, comments and joined lines.

use std::io::BufRead;

/// One logical line: its words, and the number (1-based) of the physical line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based number of the first physical line of this logical line.
    pub number: u32,
    /// The words, with quotes and escapes resolved.
    pub words: Vec<String>,
}

/// An error in the text syntax. Each names the physical line it was found on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A `'` or `"` was opened and the line ended before it was closed.
    #[error("line {line}: unterminated quote")]
    UnterminatedQuote {
        /// The line the quote was opened on.
        line: u32,
    },
    /// The line is not valid UTF-8.
    #[error("line {line}: invalid UTF-8")]
    InvalidUtf8 {
        /// The offending line.
        line: u32,
    },
    /// A `\` at the very end of the text, with nothing to escape or join.
    #[error("line {line}: `\\` at the end of the text")]
    DanglingEscape {
        /// The line of the final `\`.
        line: u32,
    },
}

impl SyntaxError {
    /// The physical line the error was found on.
    pub fn line(&self) -> u32 {
        match *self {
            Self::UnterminatedQuote { line }
            | Self::InvalidUtf8 { line }
            | Self::DanglingEscape { line } => line,
        }
    }
}

/// An error while reading lines from a stream: the syntax, or the stream itself.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The text broke a rule of the syntax.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The stream could not be read.
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads a whole text into its logical lines; lines with no words are left out.
///
/// ```
/// let lines = gleipnir::parse(b"piece 1 owner 0 # the king\nname \"Big board\"\n")?;
/// assert_eq!(lines[0].words, ["piece", "1", "owner", "0"]);
/// assert_eq!(lines[1].number, 2);
/// assert_eq!(lines[1].words, ["name", "Big board"]);
/// # Ok::<(), gleipnir::SyntaxError>(())
/// ```
pub fn parse(text: &[u8]) -> Result<Vec<Line>, SyntaxError> {
    let mut lexer = Lexer::default();
    let mut lines = Vec::new();
    for (index, physical) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if let Some(line) = lexer.feed(physical, number)? {
            if !line.words.is_empty() {
                lines.push(line);
            }
        }
    }
    if let Some(line) = lexer.finish()? {
        if !line.words.is_empty() {
            lines.push(line);
        }
    }
    Ok(lines)
}

/// Reads logical lines one at a time from a stream, as they arrive (for standard input).
///
/// Every logical line is returned, also those with no words, so that an interactive
/// prompt can be shown again after an empty line.
///
/// ```
/// let mut reader = gleipnir::LineReader::new(&b"b\nm 5 2 \\\n 2 2\n"[..]);
/// assert_eq!(reader.next().unwrap()?.words, ["b"]);
/// let joined = reader.next().unwrap()?;
/// assert_eq!((joined.number, joined.words.len()), (2, 5));
/// assert!(reader.next().is_none());
/// # Ok::<(), gleipnir::ReadError>(())
/// ```
pub struct LineReader<R> {
    input: R,
    lexer: Lexer,
    number: u32,
    buffer: Vec<u8>,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Wraps a buffered stream.
    pub fn new(input: R) -> Self {
        Self { input, lexer: Lexer::default(), number: 0, buffer: Vec::new(), done: false }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = Result<Line, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buffer.clear();
            match self.input.read_until(b'\n', &mut self.buffer) {
                Err(error) => {
                    self.done = true;
                    return Some(Err(error.into()));
                }
                Ok(0) => {
                    self.done = true;
                    return self.lexer.finish().map_err(Into::into).transpose();
                }
                Ok(_) => {
                    self.number = self.number.saturating_add(1);
                    match self.lexer.feed(&self.buffer, self.number) {
                        Ok(Some(line)) => return Some(Ok(line)),
                        Ok(None) => {}
                        // Start afresh on the next line, so one bad line loses nothing else.
                        Err(error) => {
                            self.lexer = Lexer::default();
                            return Some(Err(error.into()));
                        }
                    }
                }
            }
        }
        None
    }
}

/// Quotes a word so that [`parse`] reads it back as exactly that one word.
///
/// ```
/// let text = ["m", "two words", "it's", ""].map(gleipnir::quote).join(" ");
/// assert_eq!(gleipnir::parse(text.as_bytes())?[0].words, ["m", "two words", "it's", ""]);
/// # Ok::<(), gleipnir::SyntaxError>(())
/// ```
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| !matches!(c, ' ' | '\t' | '\n' | '\r' | '#' | '\\' | '\'' | '"'));
    if plain {
        return word.to_owned();
    }
    let mut quoted = String::with_capacity(word.len() + 2);
    quoted.push('"');
    for c in word.chars() {
        match c {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\\r"),
            _ => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The state carried from one physical line to the next.
#[derive(Default)]
struct Lexer {
    words: Vec<String>,
    word: String,
    in_word: bool,
    /// The first physical line of the logical line being read, once one has started.
    start: Option<u32>,
}

impl Lexer {
    /// Reads one physical line (with or without its `\n`). Returns the logical line when it
    /// is complete, or `None` when the line ends in a joining `\`.
    fn feed(&mut self, physical: &[u8], number: u32) -> Result<Option<Line>, SyntaxError> {
        let text =
            std::str::from_utf8(physical).map_err(|_| SyntaxError::InvalidUtf8 { line: number })?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        self.start.get_or_insert(number);
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                ' ' | '\t' => self.end_word(),
                '#' => break,
                '\\' => match chars.next() {
                    Some(escaped) => self.push(unescape(escaped)),
                    // A `\` at the end of the line joins it with the next one.
                    None => return Ok(None),
                },
                '\'' | '"' => {
                    self.in_word = true;
                    loop {
                        match chars.next() {
                            None => return Err(SyntaxError::UnterminatedQuote { line: number }),
                            Some(close) if close == c => break,
                            Some('\\') if c == '"' => match chars.next() {
                                Some(escaped) => self.word.push(unescape(escaped)),
                                None => {
                                    return Err(SyntaxError::UnterminatedQuote { line: number });
                                }
                            },
                            Some(inner) => self.word.push(inner),
                        }
                    }
                }
                _ => self.push(c),
            }
        }
        self.end_word();
        let number = self.start.take().unwrap_or(number);
        Ok(Some(Line { number, words: std::mem::take(&mut self.words) }))
    }

    /// Ends the text. A logical line still open was left by a final joining `\`.
    fn finish(&mut self) -> Result<Option<Line>, SyntaxError> {
        match self.start.take() {
            None => Ok(None),
            Some(line) => {
                *self = Self::default();
                Err(SyntaxError::DanglingEscape { line })
            }
        }
    }

    fn push(&mut self, c: char) {
        self.in_word = true;
        self.word.push(c);
    }

    fn end_word(&mut self) {
        if self.in_word {
            self.words.push(std::mem::take(&mut self.word));
            self.in_word = false;
        }
    }
}

fn unescape(c: char) -> char {
    match c {
        't' => '\t',
        'n' => '\n',
        other => other,
    }
}
