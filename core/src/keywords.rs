//! The keywords of rule files: one table, used by the parser and by its error messages.

/// Where a keyword may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A line of its own: `width 9`.
    General,
    /// After `piece <bit>`: `piece 1 owner 0`.
    Piece,
    /// After `square <bit>`: `square 2 escape`.
    Square,
}

/// What a keyword takes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// Nothing: the keyword switches a rule on.
    Flag,
    /// One word of text.
    Text,
    /// One number in `min..=max`.
    Number { min: u32, max: u32 },
    /// One single bit (1, 2, 4, ..., 128).
    Bit,
    /// One single bit, or 0 for "off".
    BitOrZero,
    /// One bitmask, 0..=255.
    Mask,
    /// `width * height` numbers, each 0 or a single bit.
    Board,
    /// One word from a fixed list.
    Choice(&'static [&'static str]),
}

impl Value {
    /// How the expected value is described in error messages.
    pub(crate) fn describe(self) -> String {
        match self {
            Value::Flag => "no value".to_owned(),
            Value::Text => "one word".to_owned(),
            Value::Number { min, max } => format!("a number from {min} to {max}"),
            Value::Bit => "a single bit (1, 2, 4, ..., 128)".to_owned(),
            Value::BitOrZero => "0 or a single bit (1, 2, 4, ..., 128)".to_owned(),
            Value::Mask => "a bitmask from 0 to 255".to_owned(),
            Value::Board => "width * height numbers, each 0 or a single bit".to_owned(),
            Value::Choice(words) => {
                let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                format!("one of {}", words.join(", "))
            }
        }
    }
}

/// Every rule of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    Id,
    Name,
    UiTheme,
    Width,
    Height,
    Pieces,
    Squares,
    ForbidRepeat,
    Repetition,
    RepetitionLoser,
    DrawPlies,
    DrawNoWin,
    Encircle,
    JumpCompulsory,
    PieceBit,
    PieceCaptures,
    CaptEdge,
    CaptEdgeAlone,
    CaptLoss,
    PieceCaptSides,
    Custodial,
    DblTrap,
    DblTrapCapt,
    DblTrapCompl,
    DblTrapEdge,
    DblTrapEncl,
    DblTrapSquares,
    PieceEscape,
    Noreturn,
    Occupies,
    Owner,
    PieceUiBit,
    Pass,
    Shieldwall,
    ExitFort,
    PieceName,
    Steps,
    Directions,
    Jump,
    EscapeOn,
    LoseOn,
    SquareBit,
    SquareCaptures,
    SquareCaptSides,
    CaptSidesPieces,
    SquareEscape,
    SquareUiBit,
}

/// One keyword: its name in files, where it appears and what it takes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keyword {
    pub(crate) key: Key,
    pub(crate) scope: Scope,
    pub(crate) name: &'static str,
    pub(crate) value: Value,
}

const fn kw(key: Key, scope: Scope, name: &'static str, value: Value) -> Keyword {
    Keyword {
        key,
        scope,
        name,
        value,
    }
}

use Scope::{General, Piece, Square};

/// The words `repetition_loser` takes: the player who made the repeating move, or a player.
pub(crate) const REPETITION_LOSERS: &[&str] = &["mover", "0", "1"];

/// The bits of `directions`: forward (towards the other player's side: north for player
/// 0, south for player 1), sideways (east and west), back.
pub(crate) const FORWARD: u8 = 1;
/// See [`FORWARD`].
pub(crate) const SIDEWAYS: u8 = 2;
/// See [`FORWARD`].
pub(crate) const BACK: u8 = 4;

/// The table of every keyword.
pub(crate) const KEYWORDS: &[Keyword] = &[
    kw(Key::Id, General, "id", Value::Text),
    kw(Key::Name, General, "name", Value::Text),
    kw(Key::UiTheme, General, "ui_theme", Value::Text),
    kw(
        Key::Width,
        General,
        "width",
        Value::Number { min: 1, max: 31 },
    ),
    kw(
        Key::Height,
        General,
        "height",
        Value::Number { min: 1, max: 31 },
    ),
    kw(Key::Pieces, General, "pieces", Value::Board),
    kw(Key::Squares, General, "squares", Value::Board),
    kw(Key::ForbidRepeat, General, "forbid_repeat", Value::Flag),
    kw(
        Key::Repetition,
        General,
        "repetition",
        Value::Number { min: 2, max: 255 },
    ),
    kw(
        Key::RepetitionLoser,
        General,
        "repetition_loser",
        Value::Choice(REPETITION_LOSERS),
    ),
    kw(
        Key::DrawPlies,
        General,
        "draw_plies",
        Value::Number {
            min: 1,
            max: 65_535,
        },
    ),
    kw(Key::DrawNoWin, General, "draw_no_win", Value::Flag),
    kw(
        Key::Encircle,
        General,
        "encircle",
        Value::Number { min: 0, max: 1 },
    ),
    kw(Key::JumpCompulsory, General, "jump_compulsory", Value::Flag),
    kw(Key::PieceBit, Piece, "bit", Value::Bit),
    kw(Key::PieceCaptures, Piece, "captures", Value::Mask),
    kw(Key::CaptEdge, Piece, "capt_edge", Value::Flag),
    kw(Key::CaptEdgeAlone, Piece, "capt_edge_alone", Value::Flag),
    kw(Key::CaptLoss, Piece, "capt_loss", Value::Flag),
    kw(
        Key::PieceCaptSides,
        Piece,
        "capt_sides",
        Value::Number { min: 1, max: 4 },
    ),
    kw(Key::Custodial, Piece, "custodial", Value::Flag),
    kw(Key::DblTrap, Piece, "dbl_trap", Value::Flag),
    kw(Key::DblTrapCapt, Piece, "dbl_trap_capt", Value::Flag),
    kw(Key::DblTrapCompl, Piece, "dbl_trap_compl", Value::Flag),
    kw(Key::DblTrapEdge, Piece, "dbl_trap_edge", Value::Flag),
    kw(Key::DblTrapEncl, Piece, "dbl_trap_encl", Value::Flag),
    kw(Key::DblTrapSquares, Piece, "dbl_trap_squares", Value::Mask),
    kw(Key::PieceEscape, Piece, "escape", Value::Flag),
    kw(Key::Noreturn, Piece, "noreturn", Value::Mask),
    kw(Key::Occupies, Piece, "occupies", Value::Mask),
    kw(Key::Owner, Piece, "owner", Value::Number { min: 0, max: 1 }),
    kw(Key::PieceUiBit, Piece, "ui_bit", Value::BitOrZero),
    kw(Key::Pass, Piece, "pass", Value::Mask),
    kw(Key::Shieldwall, Piece, "shieldwall", Value::Flag),
    kw(Key::ExitFort, Piece, "exit_fort", Value::Flag),
    kw(Key::PieceName, Piece, "name", Value::Text),
    kw(
        Key::Steps,
        Piece,
        "steps",
        Value::Number { min: 1, max: 30 },
    ),
    kw(
        Key::Directions,
        Piece,
        "directions",
        Value::Number { min: 1, max: 7 },
    ),
    kw(Key::Jump, Piece, "jump", Value::Mask),
    kw(Key::EscapeOn, Piece, "escape_on", Value::Mask),
    kw(Key::LoseOn, Piece, "lose_on", Value::Mask),
    kw(Key::SquareBit, Square, "bit", Value::Bit),
    kw(Key::SquareCaptures, Square, "captures", Value::Mask),
    kw(
        Key::SquareCaptSides,
        Square,
        "capt_sides",
        Value::Number { min: 0, max: 4 },
    ),
    kw(
        Key::CaptSidesPieces,
        Square,
        "capt_sides_pieces",
        Value::Mask,
    ),
    kw(Key::SquareEscape, Square, "escape", Value::Flag),
    kw(Key::SquareUiBit, Square, "ui_bit", Value::BitOrZero),
];

/// The keyword with this name in this scope.
pub(crate) fn lookup(scope: Scope, name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.scope == scope && k.name == name)
}

/// The keyword of a rule (for error messages).
pub(crate) fn keyword(key: Key) -> &'static Keyword {
    // Every key has exactly one entry; the fallback is never reached.
    KEYWORDS
        .iter()
        .find(|k| k.key == key)
        .unwrap_or(&KEYWORDS[0])
}

/// The file spelling of a rule, with its scope (`piece x owner`).
pub(crate) fn spelling(key: Key) -> &'static str {
    keyword(key).name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_scope() {
        for (i, a) in KEYWORDS.iter().enumerate() {
            for b in &KEYWORDS[i + 1..] {
                assert!(!(a.scope == b.scope && a.name == b.name), "{}", a.name);
                assert_ne!(a.key, b.key);
            }
        }
    }

    #[test]
    fn lookup_finds_each_keyword() {
        for k in KEYWORDS {
            assert_eq!(lookup(k.scope, k.name).map(|f| f.key), Some(k.key));
        }
        assert!(lookup(Scope::General, "owner").is_none());
    }
}
