//! The error values of rule files, moves and notation.

use crate::Square;

/// The two classes of rule-file errors, as in the original program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RulesErrorKind {
    /// `RREAD`: the file cannot be read (syntax, unknown keyword, wrong number of values,
    /// a number out of range, a keyword in the wrong place).
    Read,
    /// `RVALID`: the file reads, but the rules it describes are invalid.
    Valid,
}

/// Why a rule file was refused: RREAD (it cannot be read) or RVALID (the rules are invalid).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The text breaks the common syntax (quotes, escapes, UTF-8).
    #[error("{0}")]
    Syntax(#[from] gleipnir::SyntaxError),
    /// A line cannot be read as a rule.
    #[error("line {line}: {message}")]
    Read {
        /// The 1-based line.
        line: u32,
        /// The word that could not be read (the keyword when no single word is to blame).
        word: String,
        /// What is wrong, in English.
        message: String,
    },
    /// The rules read, but break a requirement of the rule language.
    #[error("invalid rules: {rule}: {message}")]
    Invalid {
        /// The rule (keyword) whose requirement fails.
        rule: &'static str,
        /// The piece or square type concerned (its bit), if any.
        subject: Option<Subject>,
        /// What is wrong, in English.
        message: String,
    },
}

/// The piece or square type a validation error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A piece type, by its bit.
    Piece(u8),
    /// A square type, by its bit.
    Square(u8),
}

impl RulesError {
    /// RREAD or RVALID.
    pub fn kind(&self) -> RulesErrorKind {
        match self {
            RulesError::Syntax(_) | RulesError::Read { .. } => RulesErrorKind::Read,
            RulesError::Invalid { .. } => RulesErrorKind::Valid,
        }
    }

    /// The 1-based line of the file the error was found on, when known.
    pub fn line(&self) -> Option<u32> {
        match self {
            RulesError::Syntax(error) => Some(error.line()),
            RulesError::Read { line, .. } => Some(*line),
            RulesError::Invalid { .. } => None,
        }
    }

    /// What is wrong, without the line (for messages that show [`RulesError::line`]
    /// themselves).
    pub fn reason(&self) -> String {
        match self {
            RulesError::Syntax(error) => error.reason().to_owned(),
            RulesError::Read { message, .. } => message.clone(),
            RulesError::Invalid { .. } => self.to_string(),
        }
    }

    /// The error code of the original program: `RREAD` or `RVALID`.
    pub fn code(&self) -> &'static str {
        match self.kind() {
            RulesErrorKind::Read => "RREAD",
            RulesErrorKind::Valid => "RVALID",
        }
    }
}

/// Why a move is not allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A square is outside the board rectangle.
    #[error("square {0} is outside the board")]
    OutOfBoard(u32),
    /// The origin and destination are the same square.
    #[error("the piece does not move")]
    SameSquare,
    /// The move is not along a row or a column.
    #[error("a piece moves only along a row or a column")]
    NotStraight,
    /// No piece stands on the origin.
    #[error("there is no piece to move there")]
    NoPiece,
    /// The piece belongs to the other player.
    #[error("that piece belongs to the other player")]
    NotYourPiece,
    /// A piece stands in the way or on the destination.
    #[error("a piece stands in the way")]
    Blocked(Square),
    /// The piece may not pass over or stop on this square (`occupies`, or off-board).
    #[error("the piece may not enter that square")]
    CannotEnter(Square),
    /// The piece may not come back to this `noreturn` square.
    #[error("the piece may not return to that square")]
    NoReturn(Square),
    /// The move would repeat a position of the game (`forbid_repeat`).
    #[error("the move repeats an earlier position")]
    Repetition,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// A move or square that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Neither two squares nor four numbers.
    #[error("a move is `x1 y1 x2 y2` or two squares such as `f9 c9`")]
    WordCount,
    /// A word is not a number or an algebraic square.
    #[error("`{0}` is not a coordinate")]
    BadWord(String),
    /// The coordinates are outside the board.
    #[error("`{0}` is outside the board")]
    OutOfBoard(String),
}
