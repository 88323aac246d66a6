//! The line syntax: words, quotes, escapes, comments and joined lines.

use std::io::BufRead;

/// One logical line: its words, and the number (1-based) of the physical line it starts on.
///
/// ```
/// use gleipnir::{Line, parse};
///
/// let lines = parse(b"# header\nwidth \\\n 7\n")?;
/// assert_eq!(lines, [Line { number: 2, words: vec!["width".into(), "7".into()] }]);
/// # Ok::<(), gleipnir::SyntaxError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based number of the first physical line of this logical line.
    pub number: u32,
    /// The words, with quotes and escapes resolved.
    pub words: Vec<String>,
}

/// An error in the text syntax. Each names the physical line it was found on.
///
/// ```
/// use gleipnir::{SyntaxError, parse};
///
/// assert_eq!(parse(b"ok\nname \"Brandub\n"), Err(SyntaxError::UnterminatedQuote { line: 2 }));
/// assert_eq!(parse(b"a\n\xff\n"), Err(SyntaxError::InvalidUtf8 { line: 2 }));
/// assert_eq!(parse(b"a \\\nb \\"), Err(SyntaxError::DanglingEscape { line: 2 }));
/// assert_eq!(parse(b"'open").unwrap_err().to_string(), "line 1: unterminated quote");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A `'` or `"` was opened and the line ended before it was closed.
    #[error("line {line}: {}", self.reason())]
    UnterminatedQuote {
        /// The line the quote was opened on.
        line: u32,
    },
    /// The line is not valid UTF-8.
    #[error("line {line}: {}", self.reason())]
    InvalidUtf8 {
        /// The offending line.
        line: u32,
    },
    /// A `\` at the very end of the text, with nothing to escape or join.
    #[error("line {line}: {}", self.reason())]
    DanglingEscape {
        /// The line of the final `\`.
        line: u32,
    },
}

impl SyntaxError {
    /// What is wrong, without the line (for messages that show the line themselves).
    ///
    /// ```
    /// let error = gleipnir::parse(b"'open").unwrap_err();
    /// assert_eq!(error.reason(), "unterminated quote");
    /// ```
    pub fn reason(&self) -> &'static str {
        match self {
            Self::UnterminatedQuote { .. } => "unterminated quote",
            Self::InvalidUtf8 { .. } => "invalid UTF-8",
            Self::DanglingEscape { .. } => "`\\` at the end of the text",
        }
    }

    /// The physical line the error was found on.
    ///
    /// ```
    /// let error = gleipnir::parse(b"\n\n'open").unwrap_err();
    /// assert_eq!(error.line(), 3);
    /// ```
    pub fn line(&self) -> u32 {
        match *self {
            Self::UnterminatedQuote { line }
            | Self::InvalidUtf8 { line }
            | Self::DanglingEscape { line } => line,
        }
    }
}

/// An error while reading lines from a stream: the syntax, or the stream itself.
///
/// ```
/// use gleipnir::{LineReader, ReadError, SyntaxError};
///
/// let mut reader = LineReader::new(&b"\"open\n"[..]);
/// let error = reader.next().unwrap().unwrap_err();
/// assert!(matches!(error, ReadError::Syntax(SyntaxError::UnterminatedQuote { line: 1 })));
/// ```
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
    let text = without_bom(text);
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

/// The UTF-8 byte-order mark that some editors write at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text without a byte-order mark at its start: it is not part of the first word.
fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(BOM).unwrap_or(text)
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
    ///
    /// ```
    /// let stdin = std::io::stdin().lock();
    /// let _reader = gleipnir::LineReader::new(stdin);
    /// ```
    pub fn new(input: R) -> Self {
        Self {
            input,
            lexer: Lexer::default(),
            number: 0,
            buffer: Vec::new(),
            done: false,
        }
    }
}

impl<R: BufRead> LineReader<R> {
    /// Reads the next physical line as it was typed, without the command syntax: no
    /// words, quotes, escapes or comments, only the line end taken off. For a line that is
    /// data rather than a command, such as a password asked for by the line before. It
    /// counts as a line for the numbers of the lines after it; `None` at the end of the
    /// input.
    ///
    /// ```
    /// let mut reader = gleipnir::LineReader::new(&b"login ann\nit's \"a\\ # secret\r\nb\n"[..]);
    /// assert_eq!(reader.next().unwrap()?.words, ["login", "ann"]);
    /// assert_eq!(reader.next_verbatim().unwrap()?, "it's \"a\\ # secret");
    /// let next = reader.next().unwrap()?;
    /// assert_eq!((next.number, next.words), (3, vec!["b".to_owned()]));
    /// # Ok::<(), gleipnir::ReadError>(())
    /// ```
    pub fn next_verbatim(&mut self) -> Option<Result<String, ReadError>> {
        if self.done {
            return None;
        }
        self.buffer.clear();
        match self.input.read_until(b'\n', &mut self.buffer) {
            Err(error) => {
                self.done = true;
                Some(Err(error.into()))
            }
            Ok(0) => None,
            Ok(_) => {
                self.number = self.number.saturating_add(1);
                let text = self.buffer.strip_suffix(b"\n").unwrap_or(&self.buffer);
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                let line = self.number;
                Some(
                    String::from_utf8(text.to_vec())
                        .map_err(|_| SyntaxError::InvalidUtf8 { line }.into()),
                )
            }
        }
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
                    let physical = match self.number {
                        1 => without_bom(&self.buffer),
                        _ => &self.buffer,
                    };
                    match self.lexer.feed(physical, self.number) {
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
    // A word that starts a text with a byte-order mark would lose it: quoted, it stays.
    let plain = !word.is_empty()
        && !word.starts_with('\u{feff}')
        && word
            .chars()
            .all(|c| !matches!(c, ' ' | '\t' | '\n' | '\r' | '#' | '\\' | '\'' | '"'));
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
    /// The last physical line read, which is where a final joining `\` stands.
    last: u32,
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
        self.last = number;
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
        Ok(Some(Line {
            number,
            words: std::mem::take(&mut self.words),
        }))
    }

    /// Ends the text. A logical line still open was left by a final joining `\`, which
    /// stands on the last physical line read (not the first line of the logical line).
    fn finish(&mut self) -> Result<Option<Line>, SyntaxError> {
        match self.start.take() {
            None => Ok(None),
            Some(_) => {
                let line = self.last;
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

#[cfg(test)]
mod tests;
