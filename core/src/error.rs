//! The error values of rule files, moves, notation and set-ups.
//!
//! Every error carries its facts as data (the rule, the piece or square type, the square,
//! the line) besides its English text, so that a front end can write its own message.

use crate::{PieceType, Square, SquareType};

/// The two classes of rule-file errors, as in the original program.
///
/// ```
/// use hnefatafl_core::{Rules, RulesErrorKind};
/// let error = Rules::parse(b"width 99").unwrap_err();
/// assert_eq!(error.kind(), RulesErrorKind::Read);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RulesErrorKind {
    /// `RREAD`: the file cannot be read (syntax, unknown keyword, wrong number of values,
    /// a number out of range, a keyword in the wrong place).
    Read,
    /// `RVALID`: the file reads, but the rules it describes are invalid.
    Valid,
}

/// Why a rule file was refused: RREAD (it cannot be read) or RVALID (the rules are invalid).
///
/// ```
/// use hnefatafl_core::{Rules, RulesError};
/// let error = Rules::parse(b"id x\nwidth 2\nheight 1\npieces 0 0\nsquares 1 1\n").unwrap_err();
/// assert_eq!(error.code(), "RVALID");
/// assert!(matches!(error, RulesError::Invalid { .. }));
/// // Every reason is listed, each with its line.
/// let text = b"id x\nname X\nwidth 1\nheight 1\npieces 0\nsquares 1\nsquare bit 1\n";
/// let error = Rules::parse(text).unwrap_err();
/// assert_eq!(error.violations().len(), 2, "{error}");
/// assert_eq!(error.to_string(), "invalid rules: owner: player 0 owns no piece type; \
///     owner: player 1 owns no piece type");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
    /// The rules read, but break requirements of the rule language: every one found, in
    /// the order of the checks (never none).
    #[error("{}", invalid_text(.violations))]
    Invalid {
        /// Every requirement the rules break.
        violations: Vec<RuleViolation>,
    },
}

/// `line N: ` when the line is known.
fn line_prefix(line: &Option<u32>) -> String {
    line.map(|line| format!("line {line}: "))
        .unwrap_or_default()
}

/// `line 3: invalid rules: owner: ...` for one violation, `invalid rules: line 3: owner:
/// ...; width: ...` for several.
fn invalid_text(violations: &[RuleViolation]) -> String {
    match violations {
        [one] => format!(
            "{}invalid rules: {}: {}",
            line_prefix(&one.line),
            one.rule,
            one.message
        ),
        many => format!("invalid rules: {}", join(many)),
    }
}

/// Violations written one after another, each with its line.
fn join(violations: &[RuleViolation]) -> String {
    let texts: Vec<String> = violations.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

/// One requirement of the rule language that a rule file breaks (part of an RVALID
/// [`RulesError`]).
///
/// ```
/// use hnefatafl_core::Rules;
/// let error = Rules::parse(b"id x\n").unwrap_err();
/// let missing: Vec<&str> = error.violations().iter().map(|v| v.rule).collect();
/// assert_eq!(missing, ["name", "width", "height", "pieces", "squares"]);
/// assert_eq!(error.violations()[0].to_string(), "name: `name` is missing");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{rule}: {message}", line_prefix(.line))]
#[non_exhaustive]
pub struct RuleViolation {
    /// The rule (keyword) whose requirement fails.
    pub rule: &'static str,
    /// The piece or square type concerned, if any.
    pub subject: Option<Subject>,
    /// The 1-based line the rule is written on (or the piece or square type declared
    /// on), when the file has one.
    pub line: Option<u32>,
    /// What is wrong, in English.
    pub message: String,
}

/// The piece or square type a validation error is about.
///
/// ```
/// use hnefatafl_core::{PieceType, Subject};
/// let subject = Subject::Piece(PieceType::from_bit(2).unwrap());
/// assert_eq!(subject.to_string(), "piece 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Subject {
    /// A piece type.
    Piece(PieceType),
    /// A square type.
    Square(SquareType),
}

impl Subject {
    /// The piece type of this bit (the parser has checked that it is a single bit).
    pub(crate) fn piece(bit: u8) -> Subject {
        Subject::Piece(PieceType(bit))
    }

    /// The square type of this bit (the parser has checked that it is a single bit).
    pub(crate) fn square(bit: u8) -> Subject {
        Subject::Square(SquareType(bit))
    }
}

impl std::fmt::Display for Subject {
    /// `piece 2` or `square 4`, as the type is named in rule files.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Piece(piece) => write!(f, "piece {piece}"),
            Subject::Square(square) => write!(f, "square {square}"),
        }
    }
}

impl RulesError {
    /// RREAD or RVALID.
    ///
    /// ```
    /// use hnefatafl_core::{Rules, RulesErrorKind};
    /// assert_eq!(Rules::parse(b"\"").unwrap_err().kind(), RulesErrorKind::Read);
    /// ```
    pub fn kind(&self) -> RulesErrorKind {
        match self {
            RulesError::Syntax(_) | RulesError::Read { .. } => RulesErrorKind::Read,
            RulesError::Invalid { .. } => RulesErrorKind::Valid,
        }
    }

    /// The 1-based line of the file the error was found on, when known (of an RVALID
    /// error with several violations: the first's).
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// assert_eq!(Rules::parse(b"id x\nwidth 99").unwrap_err().line(), Some(2));
    /// ```
    pub fn line(&self) -> Option<u32> {
        match self {
            RulesError::Syntax(error) => Some(error.line()),
            RulesError::Read { line, .. } => Some(*line),
            RulesError::Invalid { .. } => self.first()?.line,
        }
    }

    /// What is wrong, without the line and the class (for messages that show
    /// [`RulesError::line`] and [`RulesError::kind`] in their own words). An RVALID
    /// error with several violations lists the others after the first, each with its
    /// line.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let error = Rules::parse(b"id x\nwidth 99").unwrap_err();
    /// assert!(error.reason().starts_with("`width` takes"), "{}", error.reason());
    /// ```
    pub fn reason(&self) -> String {
        match self {
            RulesError::Syntax(error) => error.reason().to_owned(),
            RulesError::Read { message, .. } => message.clone(),
            RulesError::Invalid { violations } => match violations.split_first() {
                Some((first, [])) => format!("{}: {}", first.rule, first.message),
                Some((first, rest)) => {
                    format!("{}: {}; {}", first.rule, first.message, join(rest))
                }
                None => String::new(),
            },
        }
    }

    /// The rule (keyword) an RVALID error is about.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let error = Rules::parse(b"id x\nwidth 2\nheight 1\npieces 0 0\nsquares 1 1\n").unwrap_err();
    /// assert!(error.rule().is_some());
    /// ```
    pub fn rule(&self) -> Option<&'static str> {
        self.first().map(|violation| violation.rule)
    }

    /// The piece or square type an RVALID error is about, if any.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let error = Rules::parse(b"\"").unwrap_err();
    /// assert_eq!(error.subject(), None);
    /// ```
    pub fn subject(&self) -> Option<Subject> {
        self.first()?.subject
    }

    /// Every requirement an RVALID error finds broken, in the order of the checks (the
    /// first is the one [`RulesError::line`], [`RulesError::rule`] and
    /// [`RulesError::subject`] speak of); none for an RREAD error.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let error = Rules::parse(b"id x\nwidth 99").unwrap_err();
    /// assert!(error.violations().is_empty());
    /// ```
    pub fn violations(&self) -> &[RuleViolation] {
        match self {
            RulesError::Invalid { violations } => violations,
            _ => &[],
        }
    }

    /// The first violation of an RVALID error.
    fn first(&self) -> Option<&RuleViolation> {
        self.violations().first()
    }

    /// The error code of the original program: `RREAD` or `RVALID`.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// assert_eq!(Rules::parse(b"width 0").unwrap_err().code(), "RREAD");
    /// ```
    pub fn code(&self) -> &'static str {
        match self.kind() {
            RulesErrorKind::Read => "RREAD",
            RulesErrorKind::Valid => "RVALID",
        }
    }
}

/// Why a move is not allowed.
///
/// ```
/// use hnefatafl_core::{MoveError, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let error = rules.start_position().check_move("0 0 0 1".parse()?).unwrap_err();
/// assert_eq!(error, MoveError::NoPiece);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// A square is outside the board rectangle.
    #[error("square {0} is outside the board")]
    OutOfBoard(Square),
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
    /// A jump capture is possible, and the rules make it compulsory (`jump_compulsory`),
    /// or the jump capture stops where its piece can jump again.
    #[error("a capture by jumping is compulsory")]
    MustJump,
    /// The piece cannot make this jump capture: no enemy piece it may jump to jump over,
    /// or the square beyond is not free.
    #[error("the piece cannot make that jump capture")]
    NoSuchJump,
}

/// A [`Move`](crate::Move) whose parts contradict each other: its jumps do not end on
/// its destination, or leave the largest board. See
/// [`Move::with_jumps`](crate::Move::with_jumps).
///
/// ```
/// use hnefatafl_core::{Direction, Jumps, Move, MovePathError, Square};
/// let from = Square::new(0, 0).unwrap();
/// let west = Jumps::EMPTY.with(Direction::West).unwrap();
/// let error = Move::with_jumps(from, from, west).unwrap_err();
/// assert_eq!(error, MovePathError::OffBoard { from });
/// assert_eq!(error.to_string(), "the jumps from 0 0 leave the board");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MovePathError {
    /// The jumps leave the largest board (31x31).
    #[error("the jumps from {from} leave the board")]
    OffBoard {
        /// The move's origin.
        from: Square,
    },
    /// The jumps end on another square than the move's destination.
    #[error("the jumps from {from} end on {landing}, not on {to}")]
    WrongEnd {
        /// The move's origin.
        from: Square,
        /// The move's destination.
        to: Square,
        /// Where the jumps end.
        landing: Square,
    },
}

/// A move or square that could not be parsed.
///
/// ```
/// use hnefatafl_core::{Move, NotationError};
/// assert_eq!("1 2 3".parse::<Move>(), Err(NotationError::WordCount));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// Neither two squares nor four numbers (or more, for a jump capture).
    #[error(
        "a move is `x1 y1 x2 y2` or two squares such as `f9 c9` (a jump capture: every square it lands on)"
    )]
    WordCount,
    /// A word is not a number or an algebraic square.
    #[error("`{0}` is not a coordinate")]
    BadWord(String),
    /// The coordinates are outside the board.
    #[error("`{0}` is outside the board")]
    OutOfBoard(String),
    /// A square of a jump capture is not two squares along a row or column from the one
    /// before.
    #[error("{0} is not one jump (two squares along a row or column) from the square before")]
    NotAJump(Square),
    /// An algebraic move read without a board: its rows count from the bottom, so its
    /// squares depend on the board's height (it is read with
    /// [`Rules::read_move`](crate::Rules::read_move) or
    /// [`MoveText::on`](crate::MoveText::on)).
    #[error(
        "`{0}` is algebraic, whose rows count from the bottom of a board: it is read with the rules"
    )]
    NeedsBoard(String),
}

/// A number that is not a single bit (1, 2, 4, ..., 128), so names no piece or square
/// type.
///
/// ```
/// use hnefatafl_core::PieceType;
/// let error = PieceType::try_from(3u8).unwrap_err();
/// assert_eq!(error.to_string(), "3 is not a single bit (1, 2, 4, ..., 128)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a single bit (1, 2, 4, ..., 128)")]
pub struct BitError(pub u8);

/// A player, outcome or other word that could not be read.
///
/// ```
/// use hnefatafl_core::Player;
/// let error = "2".parse::<Player>().unwrap_err();
/// assert_eq!(error.to_string(), "`2` is not a player (0 or 1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not {expected}")]
pub struct ParseError {
    /// The text that was read.
    pub text: String,
    /// What was expected, in English.
    pub expected: &'static str,
}

/// Why a [`Setup`](crate::Setup) does not make a position: every reason found.
///
/// ```
/// use hnefatafl_core::{PieceType, Player, Position, Rules, Setup, SetupProblem, Square};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let king = PieceType::from_bit(1).unwrap();
/// let outside = Square::new(20, 0).unwrap();
/// let setup = Setup::new(vec![(outside, king), (outside, PieceType::from_bit(64).unwrap())], Player::Zero);
/// let error = Position::from_setup(&rules, &setup).unwrap_err();
/// assert_eq!(error.problems, [SetupProblem::OutsideBoard(outside), SetupProblem::OutsideBoard(outside)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the position cannot be set up: {}", list(problems))]
pub struct SetupError {
    /// Every reason, in the order the set-up was read.
    pub problems: Vec<SetupProblem>,
}

fn list(problems: &[SetupProblem]) -> String {
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

/// One reason a set-up does not make a position.
///
/// ```
/// use hnefatafl_core::{SetupProblem, Square};
/// let problem = SetupProblem::TwoPieces(Square::new(1, 2).unwrap());
/// assert_eq!(problem.to_string(), "two pieces on square 1 2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupProblem {
    /// The set-up is for a board of another size.
    #[error("the board is {width}x{height}, not the size of the rules")]
    WrongSize {
        /// The set-up's width.
        width: u8,
        /// The set-up's height.
        height: u8,
    },
    /// A piece stands outside the board rectangle.
    #[error("square {0} is outside the board")]
    OutsideBoard(Square),
    /// A piece stands on a square that is not part of the board (square type 0).
    #[error("square {0} is not part of the board")]
    NotOnBoard(Square),
    /// The piece type is not declared by the rules.
    #[error("piece type {piece} on square {square} is not declared")]
    UnknownPiece {
        /// Where it stands.
        square: Square,
        /// The undeclared type.
        piece: PieceType,
    },
    /// The piece may not stand on the square's type (`occupies`).
    #[error("piece type {piece} may not stand on square {square} of type {square_type}")]
    CannotStand {
        /// Where it stands.
        square: Square,
        /// The piece type.
        piece: PieceType,
        /// The square's type.
        square_type: SquareType,
    },
    /// Two pieces are set on one square.
    #[error("two pieces on square {0}")]
    TwoPieces(Square),
    /// A line of a diagram is neither column names, a row nor the side to move.
    #[error("line {0} of the diagram cannot be read")]
    BadLine(u32),
    /// A cell of a diagram is neither `.`, `-` nor a piece bit.
    #[error("the square {0} of the diagram is neither `.`, `-` nor a piece bit")]
    BadCell(Square),
    /// A diagram's rows are missing, longer than 31 squares or of different lengths.
    #[error("the diagram's rows are missing or not of one length from 1 to 31")]
    Shape,
    /// A diagram has no `side to move` line.
    #[error("the diagram does not say whose turn it is")]
    NoSideToMove,
}
