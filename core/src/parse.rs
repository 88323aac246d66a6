//! Reading a rule file into a checked description (RREAD and RVALID).

use crate::error::{RulesError, Subject};
use crate::keywords::{self, Key, Keyword, Scope, Value};
use crate::{PieceRule, PieceType, Player, SquareRule, SquareType};

/// A repetition rule (`repetition`, `repetition_loser`): the `count`-th occurrence of the
/// same position (the pieces and the side to move) ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repetition {
    /// The occurrence that ends the game: 3 ends it when a position occurs the third time.
    pub count: u8,
    /// Who loses; `None`: the game is drawn.
    pub loser: Option<RepetitionLoser>,
}

/// Who loses a game ended by [`Repetition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionLoser {
    /// The player whose move made the position occur again (`repetition_loser mover`).
    Mover,
    /// This player, whoever moved (`repetition_loser 0` or `1`).
    Player(Player),
}

/// A rule file as read and validated, before it is compiled into tables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Description {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) ui_theme: Option<String>,
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) forbid_repeat: bool,
    pub(crate) repetition: Option<Repetition>,
    /// Plies in a row without a capture that draw the game.
    pub(crate) draw_plies: Option<u16>,
    pub(crate) draw_no_win: bool,
    /// `jump_compulsory`.
    pub(crate) jump_compulsory: bool,
    /// The player who wins by enclosing every piece of the other.
    pub(crate) encircle: Option<Player>,
    /// The piece bit of each square at the start (0: empty).
    pub(crate) pieces: Vec<u8>,
    /// The square type bit of each square (0: off the board).
    pub(crate) squares: Vec<u8>,
    /// Declared piece types, by increasing bit.
    pub(crate) piece_rules: Vec<PieceRule>,
    /// Declared square types, by increasing bit.
    pub(crate) square_rules: Vec<SquareRule>,
}

/// A piece type while it is being read: `owner` may still be missing.
struct PieceDraft {
    rule: PieceRule,
    owner: Option<Player>,
}

fn read_error(line: u32, word: &str, message: String) -> RulesError {
    RulesError::Read {
        line,
        word: word.to_owned(),
        message,
    }
}

fn invalid(key: Key, subject: Option<Subject>, message: String) -> RulesError {
    RulesError::Invalid {
        rule: keywords::spelling(key),
        subject,
        message,
        line: None,
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
        return Err(read_error(
            line,
            word,
            format!(
                "`{}` takes {}, but {} values were given",
                keyword.name,
                keyword.value.describe(),
                values.len()
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

/// Reads a `piece ...` or `square ...` line.
fn read_type_line(
    line: u32,
    scope: Scope,
    words: &[String],
    piece_drafts: &mut [Option<PieceDraft>; 8],
    square_drafts: &mut [Option<SquareRule>; 8],
) -> Result<(), RulesError> {
    let first = words[0].as_str();
    let Some(bit_keyword) = keywords::lookup(scope, "bit") else {
        return Err(read_error(
            line,
            first,
            format!("unknown keyword `{first}`"),
        ));
    };
    let Some(second) = words.get(1) else {
        return Err(read_error(
            line,
            first,
            format!("`{first}` needs `bit x`, or a bit and an argument"),
        ));
    };
    if second == "bit" {
        expect_values(line, bit_keyword, &words[2..], 1)?;
        let bit = numeric(line, &words[2], bit_keyword)? as u8;
        let index = bit.trailing_zeros() as usize;
        let declared_before = match scope {
            Scope::Piece => piece_drafts[index]
                .replace(PieceDraft {
                    rule: default_piece(bit),
                    owner: None,
                })
                .is_some(),
            _ => square_drafts[index].replace(default_square(bit)).is_some(),
        };
        if declared_before {
            return Err(read_error(
                line,
                &words[2],
                format!("{first} type {bit} is declared twice"),
            ));
        }
        return Ok(());
    }
    let bit = numeric(line, second, bit_keyword)? as u8;
    let index = bit.trailing_zeros() as usize;
    let Some(argument) = words.get(2) else {
        return Err(read_error(
            line,
            second,
            format!("`{first} {bit}` needs an argument"),
        ));
    };
    let Some(keyword) = keywords::lookup(scope, argument).filter(|k| k.value != Value::Bit) else {
        return Err(read_error(
            line,
            argument,
            format!("unknown {first} argument `{argument}`"),
        ));
    };
    let values = &words[3..];
    expect_values(
        line,
        keyword,
        values,
        usize::from(keyword.value != Value::Flag),
    )?;
    let value = match values.first() {
        Some(word) => numeric(line, word, keyword)?,
        None => 0,
    };
    let byte = value as u8;
    let undeclared = || {
        read_error(
            line,
            second,
            format!("{first} type {bit} is used before `{first} bit {bit}`"),
        )
    };
    if scope == Scope::Piece {
        let draft = piece_drafts[index].as_mut().ok_or_else(undeclared)?;
        let rule = &mut draft.rule;
        match keyword.key {
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
            Key::Owner => draft.owner = Player::from_index(value as usize),
            Key::PieceUiBit => rule.ui_bit = PieceType::from_bit(byte),
            Key::Pass => rule.pass = byte,
            Key::Shieldwall => rule.shieldwall = true,
            Key::ExitFort => rule.exit_fort = true,
            Key::PieceName => rule.name = values.first().cloned(),
            Key::Steps => rule.steps = byte,
            Key::Directions => rule.directions = byte,
            Key::Jump => rule.jump = byte,
            Key::EscapeOn => rule.escape_on = byte,
            Key::LoseOn => rule.lose_on = byte,
            _ => {}
        }
    } else {
        let rule = square_drafts[index].as_mut().ok_or_else(undeclared)?;
        match keyword.key {
            Key::SquareCaptures => rule.captures = byte,
            Key::SquareCaptSides => rule.capture_sides = byte,
            Key::CaptSidesPieces => rule.capture_sides_pieces = byte,
            Key::SquareEscape => rule.escape = true,
            Key::SquareUiBit => rule.ui_bit = SquareType::from_bit(byte),
            _ => {}
        }
    }
    Ok(())
}

/// Reads and validates a rule file's text.
pub(crate) fn parse(text: &[u8]) -> Result<Description, RulesError> {
    let lines = gleipnir::parse(text)?;
    let mut id = None;
    let mut name = None;
    let mut ui_theme = None;
    let mut width: Option<u8> = None;
    let mut height: Option<u8> = None;
    let mut forbid_repeat = false;
    let mut repetition_count: Option<u8> = None;
    let mut repetition_loser: Option<RepetitionLoser> = None;
    let mut draw_plies: Option<u16> = None;
    let mut draw_no_win = false;
    let mut jump_compulsory = false;
    let mut encircle: Option<Player> = None;
    let mut pieces: Option<Vec<u8>> = None;
    let mut squares: Option<Vec<u8>> = None;
    let mut piece_drafts: [Option<PieceDraft>; 8] = Default::default();
    let mut square_drafts: [Option<SquareRule>; 8] = Default::default();

    for line in &lines {
        let line_number = line.number;
        let words = &line.words;
        let first = words[0].as_str();
        if first == "piece" || first == "square" {
            let scope = if first == "piece" {
                Scope::Piece
            } else {
                Scope::Square
            };
            read_type_line(
                line.number,
                scope,
                words,
                &mut piece_drafts,
                &mut square_drafts,
            )?;
            continue;
        }
        let Some(keyword) = keywords::lookup(Scope::General, first) else {
            return Err(read_error(
                line_number,
                first,
                format!("unknown keyword `{first}`"),
            ));
        };
        let values = &words[1..];
        match keyword.key {
            Key::Id | Key::Name | Key::UiTheme => {
                expect_values(line_number, keyword, values, 1)?;
                let text = values[0].clone();
                match keyword.key {
                    Key::Id => id = Some(text),
                    Key::Name => name = Some(text),
                    _ => ui_theme = Some(text),
                }
            }
            Key::Width | Key::Height => {
                expect_values(line_number, keyword, values, 1)?;
                if pieces.is_some() || squares.is_some() {
                    return Err(read_error(
                        line_number,
                        first,
                        format!("`{first}` must come before `pieces` and `squares`"),
                    ));
                }
                let value = numeric(line_number, &values[0], keyword)? as u8;
                if keyword.key == Key::Width {
                    width = Some(value);
                } else {
                    height = Some(value);
                }
            }
            Key::ForbidRepeat => {
                expect_values(line_number, keyword, values, 0)?;
                forbid_repeat = true;
            }
            Key::DrawNoWin => {
                expect_values(line_number, keyword, values, 0)?;
                draw_no_win = true;
            }
            Key::JumpCompulsory => {
                expect_values(line_number, keyword, values, 0)?;
                jump_compulsory = true;
            }
            Key::Repetition | Key::RepetitionLoser | Key::DrawPlies | Key::Encircle => {
                expect_values(line_number, keyword, values, 1)?;
                let value = numeric(line_number, &values[0], keyword)?;
                match keyword.key {
                    Key::Repetition => repetition_count = Some(value as u8),
                    Key::RepetitionLoser => {
                        // The index into `REPETITION_LOSERS`: mover, 0, 1.
                        repetition_loser = Some(match value {
                            0 => RepetitionLoser::Mover,
                            1 => RepetitionLoser::Player(Player::Zero),
                            _ => RepetitionLoser::Player(Player::One),
                        });
                    }
                    Key::DrawPlies => draw_plies = Some(value as u16),
                    _ => encircle = Player::from_index(value as usize),
                }
            }
            _ => {
                // `pieces` or `squares`.
                let (Some(w), Some(h)) = (width, height) else {
                    return Err(read_error(
                        line_number,
                        first,
                        format!("`width` and `height` must come before `{first}`"),
                    ));
                };
                expect_values(
                    line_number,
                    keyword,
                    values,
                    usize::from(w) * usize::from(h),
                )?;
                let mut board = Vec::with_capacity(values.len());
                for word in values {
                    let value = number(line_number, word, keyword, 0, 255)?;
                    if value != 0 && !value.is_power_of_two() {
                        return Err(read_error(
                            line_number,
                            word,
                            format!("`{first}` takes {}, not {value}", keyword.value.describe()),
                        ));
                    }
                    board.push(value as u8);
                }
                if keyword.key == Key::Pieces {
                    pieces = Some(board);
                } else {
                    squares = Some(board);
                }
            }
        }
    }

    let missing = |key: Key| {
        invalid(
            key,
            None,
            format!("`{}` is missing", keywords::spelling(key)),
        )
    };
    let id = id.ok_or_else(|| missing(Key::Id))?;
    let name = name.ok_or_else(|| missing(Key::Name))?;
    let width = width.ok_or_else(|| missing(Key::Width))?;
    let height = height.ok_or_else(|| missing(Key::Height))?;
    let pieces = pieces.ok_or_else(|| missing(Key::Pieces))?;
    let squares = squares.ok_or_else(|| missing(Key::Squares))?;
    if id.is_empty() || !id.is_ascii() {
        return Err(invalid(
            Key::Id,
            None,
            "the id must be non-empty ASCII text".to_owned(),
        ));
    }
    if name.is_empty() {
        return Err(invalid(
            Key::Name,
            None,
            "the name must have at least one character".to_owned(),
        ));
    }

    let mut piece_rules = Vec::new();
    for draft in piece_drafts.into_iter().flatten() {
        let bit = draft.rule.piece.bit();
        let Some(owner) = draft.owner else {
            return Err(invalid(
                Key::Owner,
                Some(Subject::piece(bit)),
                format!("piece type {bit} has no owner"),
            ));
        };
        piece_rules.push(PieceRule {
            owner,
            ..draft.rule
        });
    }
    let square_rules: Vec<SquareRule> = square_drafts.into_iter().flatten().collect();
    let repetition = match (repetition_count, repetition_loser) {
        (Some(count), loser) => Some(Repetition { count, loser }),
        (None, None) => None,
        (None, Some(_)) => {
            return Err(invalid(
                Key::RepetitionLoser,
                None,
                "`repetition_loser` needs `repetition`".to_owned(),
            ));
        }
    };
    if forbid_repeat && repetition.is_some() {
        return Err(invalid(
            Key::Repetition,
            None,
            "`repetition` and `forbid_repeat` exclude each other: with `forbid_repeat` no \
             position occurs twice"
                .to_owned(),
        ));
    }
    let description = Description {
        id,
        name,
        ui_theme,
        width,
        height,
        forbid_repeat,
        repetition,
        draw_plies,
        draw_no_win,
        jump_compulsory,
        encircle,
        pieces,
        squares,
        piece_rules,
        square_rules,
    };
    validate(&description)?;
    Ok(description)
}

/// Checks every cross-rule requirement of the rule language (RVALID).
fn validate(d: &Description) -> Result<(), RulesError> {
    let piece_mask: u8 = d.piece_rules.iter().fold(0, |m, r| m | r.piece.bit());
    let square_mask: u8 = d.square_rules.iter().fold(0, |m, r| m | r.square.bit());
    let owned = |player: Player| -> u8 {
        d.piece_rules
            .iter()
            .filter(|r| r.owner == player)
            .fold(0, |m, r| m | r.piece.bit())
    };

    for (index, (&piece, &square)) in d.pieces.iter().zip(&d.squares).enumerate() {
        let (x, y) = (index % usize::from(d.width), index / usize::from(d.width));
        if piece != 0 && piece & piece_mask == 0 {
            return Err(invalid(
                Key::Pieces,
                Some(Subject::piece(piece)),
                format!("piece type {piece} at {x} {y} is not declared with `piece bit {piece}`"),
            ));
        }
        if square != 0 && square & square_mask == 0 {
            return Err(invalid(
                Key::Squares,
                Some(Subject::square(square)),
                format!(
                    "square type {square} at {x} {y} is not declared with `square bit {square}`"
                ),
            ));
        }
        if piece != 0 && square == 0 {
            return Err(invalid(
                Key::Pieces,
                Some(Subject::piece(piece)),
                format!("a piece stands at {x} {y}, which is not part of the board"),
            ));
        }
        // A piece may never stand on a square type outside its `occupies`, its start
        // square included: such a start position is a mistake in the file.
        let start_rule = d.piece_rules.iter().find(|r| r.piece.bit() == piece);
        if let Some(rule) = start_rule.filter(|r| r.occupies & square == 0) {
            return Err(invalid(
                Key::Occupies,
                Some(Subject::piece(piece)),
                format!(
                    "piece type {piece} starts at {x} {y}, on square type {square}, \
                     which is not in its `occupies` ({})",
                    rule.occupies
                ),
            ));
        }
    }

    for player in Player::BOTH {
        if owned(player) == 0 {
            return Err(invalid(
                Key::Owner,
                None,
                format!("player {} owns no piece type", player.index()),
            ));
        }
    }

    for rule in &d.piece_rules {
        let bit = rule.piece.bit();
        let subject = Some(Subject::piece(bit));
        let fail = |key: Key, message: String| Err(invalid(key, subject, message));
        if !d.pieces.contains(&bit) {
            return fail(
                Key::PieceBit,
                format!("piece type {bit} does not occur in `pieces`"),
            );
        }
        let enemies = owned(rule.owner.opponent());
        if rule.captures & !enemies != 0 {
            return fail(
                Key::PieceCaptures,
                format!("piece type {bit} may capture only declared pieces of the other player"),
            );
        }
        if rule.custodial && rule.capture_sides < 2 {
            return fail(
                Key::Custodial,
                format!("piece type {bit} is custodial, which needs `capt_sides` of 2 or more"),
            );
        }
        if rule.pass & !square_mask != 0 {
            return fail(
                Key::Pass,
                format!("piece type {bit} has `pass` squares of undeclared square types"),
            );
        }
        if rule.jump & !enemies != 0 {
            return fail(
                Key::Jump,
                format!("piece type {bit} may jump only declared pieces of the other player"),
            );
        }
        if rule.escape_on != u8::MAX && rule.escape_on & !square_mask != 0 {
            return fail(
                Key::EscapeOn,
                format!("piece type {bit} has `escape_on` squares of undeclared square types"),
            );
        }
        if rule.lose_on & !square_mask != 0 {
            return fail(
                Key::LoseOn,
                format!("piece type {bit} has `lose_on` squares of undeclared square types"),
            );
        }
        if rule.exit_fort && !rule.escape {
            return fail(
                Key::ExitFort,
                format!("piece type {bit} has `exit_fort` without `escape`"),
            );
        }
        if rule.name.as_deref().is_some_and(str::is_empty) {
            return fail(
                Key::PieceName,
                format!("piece type {bit} has an empty `name`"),
            );
        }
        if rule.noreturn & !rule.occupies != 0 {
            return fail(
                Key::Noreturn,
                format!("piece type {bit} has `noreturn` squares outside its `occupies`"),
            );
        }
        let needs_double_trap = [
            (Key::DblTrapCapt, rule.double_trap_capture),
            (Key::DblTrapCompl, rule.double_trap_complement),
            (Key::DblTrapEdge, rule.double_trap_edge),
            (Key::DblTrapEncl, rule.double_trap_enclosed),
        ];
        for (key, set) in needs_double_trap {
            if set && !rule.double_trap {
                return fail(
                    key,
                    format!(
                        "piece type {bit} has `{}` without `dbl_trap`",
                        keywords::spelling(key)
                    ),
                );
            }
        }
        if rule.double_trap && rule.double_trap_squares == 0 {
            return fail(
                Key::DblTrapSquares,
                format!("piece type {bit} has `dbl_trap` without `dbl_trap_squares`"),
            );
        }
        let same_owner = || d.piece_rules.iter().filter(|r| r.owner == rule.owner);
        if rule.double_trap_capture && !same_owner().any(|r| r.double_trap_capture) {
            return fail(
                Key::DblTrapCapt,
                format!(
                    "no piece type of player {} has `dbl_trap_capt`",
                    rule.owner.index()
                ),
            );
        }
        if rule.double_trap_complement && same_owner().all(|r| r.double_trap_complement) {
            return fail(
                Key::DblTrapCompl,
                format!(
                    "every piece type of player {} has `dbl_trap_compl`",
                    rule.owner.index()
                ),
            );
        }
    }

    for rule in &d.square_rules {
        let bit = rule.square.bit();
        let subject = Some(Subject::square(bit));
        if !d.squares.contains(&bit) {
            return Err(invalid(
                Key::SquareBit,
                subject,
                format!("square type {bit} does not occur in `squares`"),
            ));
        }
        if rule.capture_sides != 0 {
            let standing: u8 = d
                .piece_rules
                .iter()
                .filter(|r| r.occupies & bit != 0)
                .fold(0, |m, r| m | r.piece.bit());
            if standing == 0 {
                return Err(invalid(
                    Key::SquareCaptSides,
                    subject,
                    format!("square type {bit} has `capt_sides` but no piece may stand on it"),
                ));
            }
            if rule.capture_sides_pieces & standing == 0 {
                return Err(invalid(
                    Key::CaptSidesPieces,
                    subject,
                    format!(
                        "square type {bit} has `capt_sides` but `capt_sides_pieces` names no piece that may stand on it"
                    ),
                ));
            }
        }
        if rule.capture_sides_pieces & !piece_mask != 0 {
            return Err(invalid(
                Key::CaptSidesPieces,
                subject,
                format!("square type {bit} names undeclared piece types in `capt_sides_pieces`"),
            ));
        }
    }
    Ok(())
}
