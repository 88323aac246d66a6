//! From what went wrong to what the user reads: every error of the libraries and of file
//! access becomes a [`Message`] here (every value put into a message is made safe to
//! print by [`crate::shown`] when the message is written).

use hnefatafl_core::{
    Game, Move, MoveError, Notation, NotationError, Rules, RulesErrorKind, Square,
};

use crate::data::{Found, LookupError};
use crate::files::FileError;
use crate::lang::{Key, Language, Message};

/// The reason a file could not be used, in words.
pub fn file_reason(language: &Language, error: &FileError) -> String {
    let key = match error {
        FileError::Io(error) => return error.to_string(),
        FileError::Directory => Key::FileDirectory,
        FileError::Fifo => Key::FileFifo,
        FileError::Device => Key::FileDevice,
        FileError::Socket => Key::FileSocket,
        FileError::TooLarge => {
            let mib = (crate::files::MAX_SIZE >> 20).to_string();
            return language.text(&Message::new(Key::FileTooLarge, [mib]));
        }
    };
    language.get(key)
}

/// A file that could not be read.
pub fn read_message(language: &Language, path: &str, error: &FileError) -> Message {
    Message::new(Key::FrIo, [path.to_owned(), file_reason(language, error)])
}

/// A file that could not be written.
pub fn write_message(language: &Language, path: &str, error: &FileError) -> Message {
    Message::new(
        Key::FrWrite,
        [path.to_owned(), file_reason(language, error)],
    )
}

/// A data file that the lookup could not give.
pub fn lookup_message(language: &Language, name: &str, error: &LookupError) -> Message {
    match error {
        LookupError::NotFound => Message::new(Key::FrNotFound, [name]),
        LookupError::File(path, error) => {
            read_message(language, &path.display().to_string(), error)
        }
    }
}

/// Where in a file something was found: `tablut:7`, or the file alone when there is no
/// line. Every message that names a file and a line names them so.
pub fn place(file: impl std::fmt::Display, line: Option<u32>) -> String {
    match line {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    }
}

/// A rule file that was refused: the file and its line (`tablut:7`), then the reason.
pub fn rules_message(found: &Found, error: &hnefatafl_core::RulesError) -> Message {
    let key = match error.kind() {
        RulesErrorKind::Read => Key::Rread,
        _ => Key::Rvalid,
    };
    Message::new(key, [place(found, error.line()), error.reason()])
}

/// A move that could not be read.
pub fn notation_message(error: &NotationError) -> Message {
    match error {
        NotationError::WordCount => Message::plain(Key::NotationWordCount),
        NotationError::BadWord(word) => Message::new(Key::NotationBadWord, [word.as_str()]),
        NotationError::OutOfBoard(word) => Message::new(Key::NotationOutOfBoard, [word.as_str()]),
        // A kind that core adds later is shown in its own (English) words.
        other => Message::new(Key::NotationBadWord, [other.to_string()]),
    }
}

/// How output names squares and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// At the command line: the numbers that `m` reads back, with the board's names where
    /// they differ: `d8 (3 3)`, `4 6 4 8 (e5-e7)`; a line of moves in numbers only.
    Both,
    /// In the window, whose board is labelled: the board's names only, `d8`, and a move
    /// as `m` takes it in those names, `e5 e7`.
    Board,
}

impl Naming {
    /// A square: `d8 (3 3)` or `d8`.
    pub fn square(self, rules: &Rules, square: Square) -> String {
        let algebraic = rules.format_square(square, Notation::Algebraic);
        let numeric = rules.format_square(square, Notation::Numeric);
        if self == Naming::Board || algebraic == numeric {
            algebraic
        } else {
            format!("{algebraic} ({numeric})")
        }
    }

    /// A move: `4 6 4 8 (e5-e7)` or `e5 e7`; a jump capture with every square it lands
    /// on: `4 6 4 4 2 4 (e5-e3-c3)` or `e5 e3 c3`.
    pub fn move_text(self, rules: &Rules, mv: Move) -> String {
        match self {
            Naming::Both => {
                let squares: Vec<String> = std::iter::once(mv.from())
                    .chain(mv.landings())
                    .map(|square| rules.format_square(square, Notation::Algebraic))
                    .collect();
                let numeric = rules.format_move(mv, Notation::Numeric);
                format!("{numeric} ({})", squares.join("-"))
            }
            Naming::Board => rules.format_move(mv, Notation::Algebraic),
        }
    }

    /// A line of moves (an analysis's principal variation), each move as
    /// [`Naming::move_text`] writes it: `4 6 4 8 (e5-e7), 4 4 4 2 (e5-e3)` or
    /// `e5 e7, e5 e3`.
    pub fn line(self, rules: &Rules, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&mv| self.move_text(rules, mv))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The jump captures that go on from where `mv` stops: the legal jump captures of the
/// same piece whose landings begin with those of `mv` and go further.
fn chains_going_on(game: &Game, mv: Move) -> Vec<Move> {
    let landings: Vec<Square> = mv.landings().collect();
    game.legal_moves()
        .filter(|legal| legal.from() == mv.from() && legal.is_jump())
        .filter(|legal| {
            let theirs: Vec<Square> = legal.landings().collect();
            theirs.len() > landings.len() && theirs.starts_with(&landings)
        })
        .collect()
}

/// A move that is not allowed in this game (whose position is the one the move was
/// tried in). Where the move stops a jump capture that must go on, the message names
/// the whole capture, every landing.
pub fn move_message(
    language: &Language,
    game: &Game,
    mv: Move,
    error: &MoveError,
    naming: Naming,
) -> Message {
    let rules = game.rules();
    let square = |square: &Square| naming.square(rules, *square);
    let reason = match error {
        MoveError::OutOfBoard(_) => Message::plain(Key::MoveOutOfBoard),
        MoveError::SameSquare => Message::plain(Key::MoveSameSquare),
        MoveError::NotStraight => Message::plain(Key::MoveNotStraight),
        MoveError::NoPiece => Message::new(Key::MoveNoPiece, [square(&mv.from())]),
        MoveError::NotYourPiece => Message::new(Key::MoveNotYours, [square(&mv.from())]),
        MoveError::Blocked(at) => Message::new(Key::MoveBlocked, [square(at)]),
        MoveError::CannotEnter(at) => Message::new(Key::MoveCannotEnter, [square(at)]),
        MoveError::NoReturn(at) => Message::new(Key::MoveNoReturn, [square(at)]),
        MoveError::Repetition => Message::plain(Key::MoveRepetition),
        MoveError::GameOver => Message::plain(Key::MoveGameOver),
        MoveError::MustJump => match chains_going_on(game, mv).as_slice() {
            [] => Message::plain(Key::MoveMustJump),
            chains => {
                let or = language.get(Key::MoveOr);
                let chains: Vec<String> = chains
                    .iter()
                    .map(|&chain| naming.move_text(rules, chain))
                    .collect();
                Message::new(Key::MoveChainGoesOn, [chains.join(&format!(" {or} "))])
            }
        },
        MoveError::NoSuchJump => Message::new(Key::MoveNoSuchJump, [square(&mv.from())]),
        // A reason that core adds later is shown in its own (English) words.
        other => return Message::new(Key::CmdIllegalMove, [other.to_string()]),
    };
    Message::new(Key::CmdIllegalMove, [language.text(&reason)])
}
