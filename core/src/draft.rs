//! A rule file's keywords as they are read, line by line (RREAD), before their rules are
//! checked together: the [`Draft`].

use crate::description::RepetitionLoser;
use crate::error::RulesError;
use crate::keywords::{self, Key, Keyword, Scope, Value};
use crate::{PieceRule, PieceType, Player, SquareRule, SquareType};

/// Every keyword of a rule file as read so far: what is not written is `None` (or off).
/// `Draft::finish` (in `validate.rs`) turns it into a checked description.
#[derive(Default)]
pub(crate) struct Draft {
    pub(crate) id: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) ui_theme: Option<String>,
    pub(crate) width: Option<u8>,
    pub(crate) height: Option<u8>,
    pub(crate) forbid_repeat: bool,
    pub(crate) repetition_count: Option<u8>,
    pub(crate) repetition_loser: Option<RepetitionLoser>,
    pub(crate) draw_plies: Option<u16>,
    pub(crate) draw_no_win: bool,
    pub(crate) jump_compulsory: bool,
    pub(crate) encircle: Option<Player>,
    pub(crate) pieces: Option<Vec<u8>>,
    pub(crate) squares: Option<Vec<u8>>,
    /// The piece types declared, by the index of their bit.
    pub(crate) piece_types: [Option<PieceDraft>; 8],
    /// The square types declared, by the index of their bit.
    pub(crate) square_types: [Option<SquareRule>; 8],
}

/// A piece type while it is being read: `owner` may still be missing.
pub(crate) struct PieceDraft {
    pub(crate) rule: PieceRule,
    pub(crate) owner: Option<Player>,
}

fn read_error(line: u32, word: &str, message: String) -> RulesError {
    RulesError::Read {
        line,
        word: word.to_owned(),
        message,
    }
}

/// The RREAD error for a value a keyword does not take.
fn wrong_value(line: u32, word: &str, keyword: &Keyword) -> RulesError {
    read_error(
        line,
        word,
        format!(
            "`{}` takes {}, not `{word}`",
            keyword.name,
            keyword.value.describe()
        ),
    )
}

/// One number of a line, in `min..=max`.
fn number(line: u32, word: &str, keyword: &Keyword, min: u32, max: u32) -> Result<u32, RulesError> {
    match word.parse::<u32>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(wrong_value(line, word, keyword)),
    }
}

/// One value of a keyword that takes a number, a bit or a mask.
fn numeric(line: u32, word: &str, keyword: &Keyword) -> Result<u32, RulesError> {
    match keyword.value {
        Value::Number { min, max } => number(line, word, keyword, min, max),
        Value::Mask => number(line, word, keyword, 0, 255),
        Value::Bit | Value::BitOrZero => {
            let value = number(line, word, keyword, 0, 255)?;
            let zero_ok = keyword.value == Value::BitOrZero && value == 0;
            if value.is_power_of_two() || zero_ok {
                Ok(value)
            } else {
                Err(wrong_value(line, word, keyword))
            }
        }
        Value::Choice(words) => match words.iter().position(|w| *w == word) {
            Some(index) => Ok(index as u32),
            None => Err(wrong_value(line, word, keyword)),
        },
        Value::Flag | Value::Text | Value::Board => Ok(0),
    }
}

/// Checks that a keyword has exactly the values it takes.
fn expect_values(
    line: u32,
    keyword: &Keyword,
    values: &[String],
    count: usize,
) -> Result<(), RulesError> {
    if values.len() != count {
        let word = values
            .get(count)
            .or(values.last())
            .map_or(keyword.name, String::as_str);
        let given = match values.len() {
            1 => "1 value was given".to_owned(),
            many => format!("{many} values were given"),
        };
        return Err(read_error(
            line,
            word,
            format!(
                "`{}` takes {}, but {given}",
                keyword.name,
                keyword.value.describe(),
            ),
        ));
    }
    Ok(())
}

fn default_piece(bit: u8) -> PieceRule {
    PieceRule {
        piece: PieceType(bit),
        owner: Player::Zero,
        captures: 0,
        capture_sides: 2,
        custodial: false,
        capture_edge: false,
        capture_edge_alone: false,
        capture_loss: false,
        escape: false,
        occupies: 0,
        noreturn: 0,
        double_trap: false,
        double_trap_capture: false,
        double_trap_complement: false,
        double_trap_edge: false,
        double_trap_enclosed: false,
        double_trap_squares: 0,
        ui_bit: None,
        pass: 0,
        shieldwall: false,
        exit_fort: false,
        name: None,
        steps: 0,
        directions: keywords::FORWARD | keywords::SIDEWAYS | keywords::BACK,
        jump: 0,
        escape_on: u8::MAX,
        lose_on: 0,
    }
}

fn default_square(bit: u8) -> SquareRule {
    SquareRule {
        square: SquareType(bit),
        captures: 0,
        capture_sides: 0,
        capture_sides_pieces: 0,
        escape: false,
        ui_bit: None,
    }
}

impl PieceDraft {
    /// Sets one argument of `piece <bit> <argument> [value]`.
    fn set(&mut self, key: Key, value: u32, text: Option<&String>) {
        let byte = value as u8;
        let rule = &mut self.rule;
        match key {
            Key::PieceCaptures => rule.captures = byte,
            Key::CaptEdge => rule.capture_edge = true,
            Key::CaptEdgeAlone => rule.capture_edge_alone = true,
            Key::CaptLoss => rule.capture_loss = true,
            Key::PieceCaptSides => rule.capture_sides = byte,
            Key::Custodial => rule.custodial = true,
            Key::DblTrap => rule.double_trap = true,
            Key::DblTrapCapt => rule.double_trap_capture = true,
            Key::DblTrapCompl => rule.double_trap_complement = true,
            Key::DblTrapEdge => rule.double_trap_edge = true,
            Key::DblTrapEncl => rule.double_trap_enclosed = true,
            Key::DblTrapSquares => rule.double_trap_squares = byte,
            Key::PieceEscape => rule.escape = true,
            Key::Noreturn => rule.noreturn = byte,
            Key::Occupies => rule.occupies = byte,
            Key::Owner => self.owner = Player::from_index(value as usize),
            Key::PieceUiBit => rule.ui_bit = PieceType::from_bit(byte),
            Key::Pass => rule.pass = byte,
            Key::Shieldwall => rule.shieldwall = true,
            Key::ExitFort => rule.exit_fort = true,
            Key::PieceName => rule.name = text.cloned(),
            Key::Steps => rule.steps = byte,
            Key::Directions => rule.directions = byte,
            Key::Jump => rule.jump = byte,
            Key::EscapeOn => rule.escape_on = byte,
            Key::LoseOn => rule.lose_on = byte,
            _ => {}
        }
    }
}

/// Sets one argument of `square <bit> <argument> [value]`.
fn set_square(rule: &mut SquareRule, key: Key, value: u32) {
    let byte = value as u8;
    match key {
        Key::SquareCaptures => rule.captures = byte,
        Key::SquareCaptSides => rule.capture_sides = byte,
        Key::CaptSidesPieces => rule.capture_sides_pieces = byte,
        Key::SquareEscape => rule.escape = true,
        Key::SquareUiBit => rule.ui_bit = SquareType::from_bit(byte),
        _ => {}
    }
}

impl Draft {
    /// Reads one logical line of a rule file into the draft.
    pub(crate) fn read_line(&mut self, line: &gleipnir::Line) -> Result<(), RulesError> {
        let words = &line.words;
        let first = words[0].as_str();
        let scope = match first {
            "piece" => Scope::Piece,
            "square" => Scope::Square,
            _ => return self.read_general(line.number, words),
        };
        match words.get(1).map(String::as_str) {
            Some("bit") => self.declare(line.number, scope, words),
            _ => self.read_type_argument(line.number, scope, words),
        }
    }

    /// Reads a line of its own: `width 9`, `forbid_repeat`, `pieces ...`.
    fn read_general(&mut self, line: u32, words: &[String]) -> Result<(), RulesError> {
        let first = words[0].as_str();
        let Some(keyword) = keywords::lookup(Scope::General, first) else {
            return Err(read_error(
                line,
                first,
                format!("unknown keyword `{first}`"),
            ));
        };
        let values = &words[1..];
        let count = match keyword.value {
            Value::Flag => 0,
            Value::Board => return self.read_board(line, keyword, values),
            _ => 1,
        };
        expect_values(line, keyword, values, count)?;
        let board_size = matches!(keyword.key, Key::Width | Key::Height);
        if board_size && (self.pieces.is_some() || self.squares.is_some()) {
            return Err(read_error(
                line,
                first,
                format!("`{first}` must come before `pieces` and `squares`"),
            ));
        }
        let value = match values.first() {
            Some(word) => numeric(line, word, keyword)?,
            None => 0,
        };
        match keyword.key {
            Key::Id => self.id = values.first().cloned(),
            Key::Name => self.name = values.first().cloned(),
            Key::UiTheme => self.ui_theme = values.first().cloned(),
            Key::Width => self.width = Some(value as u8),
            Key::Height => self.height = Some(value as u8),
            Key::ForbidRepeat => self.forbid_repeat = true,
            Key::DrawNoWin => self.draw_no_win = true,
            Key::JumpCompulsory => self.jump_compulsory = true,
            Key::Repetition => self.repetition_count = Some(value as u8),
            // The index into `REPETITION_LOSERS`: mover, 0, 1.
            Key::RepetitionLoser => {
                self.repetition_loser = Some(match value {
                    0 => RepetitionLoser::Mover,
                    1 => RepetitionLoser::Player(Player::Zero),
                    _ => RepetitionLoser::Player(Player::One),
                });
            }
            Key::DrawPlies => self.draw_plies = Some(value as u16),
            _ => self.encircle = Player::from_index(value as usize),
        }
        Ok(())
    }

    /// Reads `pieces ...` or `squares ...`: a number for every square of the board.
    fn read_board(
        &mut self,
        line: u32,
        keyword: &Keyword,
        values: &[String],
    ) -> Result<(), RulesError> {
        let first = keyword.name;
        let (Some(w), Some(h)) = (self.width, self.height) else {
            return Err(read_error(
                line,
                first,
                format!("`width` and `height` must come before `{first}`"),
            ));
        };
        expect_values(line, keyword, values, usize::from(w) * usize::from(h))?;
        let mut board = Vec::with_capacity(values.len());
        for word in values {
            let value = number(line, word, keyword, 0, 255)?;
            if value != 0 && !value.is_power_of_two() {
                return Err(read_error(
                    line,
                    word,
                    format!("`{first}` takes {}, not {value}", keyword.value.describe()),
                ));
            }
            board.push(value as u8);
        }
        match keyword.key {
            Key::Pieces => self.pieces = Some(board),
            _ => self.squares = Some(board),
        }
        Ok(())
    }

    /// Reads `piece bit <bit>` or `square bit <bit>`.
    fn declare(&mut self, line: u32, scope: Scope, words: &[String]) -> Result<(), RulesError> {
        let first = words[0].as_str();
        let bit_keyword = bit_keyword(line, scope, first)?;
        expect_values(line, bit_keyword, &words[2..], 1)?;
        let bit = numeric(line, &words[2], bit_keyword)? as u8;
        let index = bit.trailing_zeros() as usize;
        let declared_before = match scope {
            Scope::Piece => self.piece_types[index]
                .replace(PieceDraft {
                    rule: default_piece(bit),
                    owner: None,
                })
                .is_some(),
            _ => self.square_types[index]
                .replace(default_square(bit))
                .is_some(),
        };
        if declared_before {
            return Err(read_error(
                line,
                &words[2],
                format!("{first} type {bit} is declared twice"),
            ));
        }
        Ok(())
    }

    /// Reads `piece <bit> <argument> [value]` or `square <bit> <argument> [value]`.
    fn read_type_argument(
        &mut self,
        line: u32,
        scope: Scope,
        words: &[String],
    ) -> Result<(), RulesError> {
        let first = words[0].as_str();
        let bit_keyword = bit_keyword(line, scope, first)?;
        let Some(second) = words.get(1) else {
            return Err(read_error(
                line,
                first,
                format!("`{first}` needs `bit x`, or a bit and an argument"),
            ));
        };
        let bit = numeric(line, second, bit_keyword)? as u8;
        let index = bit.trailing_zeros() as usize;
        let Some(argument) = words.get(2) else {
            return Err(read_error(
                line,
                second,
                format!("`{first} {bit}` needs an argument"),
            ));
        };
        let Some(keyword) = keywords::lookup(scope, argument).filter(|k| k.value != Value::Bit)
        else {
            return Err(read_error(
                line,
                argument,
                format!("unknown {first} argument `{argument}`"),
            ));
        };
        let values = &words[3..];
        let count = usize::from(keyword.value != Value::Flag);
        expect_values(line, keyword, values, count)?;
        let value = match values.first() {
            Some(word) => numeric(line, word, keyword)?,
            None => 0,
        };
        let undeclared = || {
            read_error(
                line,
                second,
                format!("{first} type {bit} is used before `{first} bit {bit}`"),
            )
        };
        match scope {
            Scope::Piece => {
                let draft = self.piece_types[index].as_mut().ok_or_else(undeclared)?;
                draft.set(keyword.key, value, values.first());
            }
            _ => {
                let rule = self.square_types[index].as_mut().ok_or_else(undeclared)?;
                set_square(rule, keyword.key, value);
            }
        }
        Ok(())
    }
}

/// The `bit` keyword of `piece` or `square` lines.
fn bit_keyword(line: u32, scope: Scope, first: &str) -> Result<&'static Keyword, RulesError> {
    keywords::lookup(scope, "bit")
        .ok_or_else(|| read_error(line, first, format!("unknown keyword `{first}`")))
}
