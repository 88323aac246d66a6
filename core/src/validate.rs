//! Checking a rule file's rules together (RVALID): a [`Draft`] becomes a description only
//! when every requirement of the rule language holds, and every one that does not is
//! reported, each with its line.

use gleipnir::Line;

use crate::description::{Description, Repetition};
use crate::draft::Draft;
use crate::error::{RuleViolation, Subject};
use crate::keywords::{self, Key};
use crate::{PieceRule, Player, SquareRule};

/// A violation of a rule, before its line is found.
fn violation(key: Key, subject: Option<Subject>, message: String) -> RuleViolation {
    RuleViolation {
        rule: keywords::spelling(key),
        subject,
        line: None,
        message,
    }
}

/// A required keyword's value, or its violation when it is not written.
fn required<T>(value: Option<T>, key: Key, found: &mut Vec<RuleViolation>) -> Option<T> {
    if value.is_none() {
        let spelling = keywords::spelling(key);
        found.push(violation(key, None, format!("`{spelling}` is missing")));
    }
    value
}

impl Draft {
    /// The description the draft makes, or every requirement it breaks: first what the
    /// keywords need of themselves (the keywords that must be written, an owner for each
    /// piece type), then, when the board and the owners are there, [`CHECKS`].
    pub(crate) fn finish(self) -> Result<Description, Vec<RuleViolation>> {
        let mut found = Vec::new();
        let id = required(self.id, Key::Id, &mut found);
        let name = required(self.name, Key::Name, &mut found);
        let width = required(self.width, Key::Width, &mut found);
        let height = required(self.height, Key::Height, &mut found);
        let pieces = required(self.pieces, Key::Pieces, &mut found);
        let squares = required(self.squares, Key::Squares, &mut found);
        if id
            .as_ref()
            .is_some_and(|id| id.is_empty() || !id.is_ascii())
        {
            let message = "the id must be non-empty ASCII text".to_owned();
            found.push(violation(Key::Id, None, message));
        }
        if name.as_ref().is_some_and(String::is_empty) {
            let message = "the name must have at least one character".to_owned();
            found.push(violation(Key::Name, None, message));
        }
        let mut piece_rules = Vec::new();
        let mut owners_known = true;
        for draft in self.piece_types.into_iter().flatten() {
            let bit = draft.rule.piece.bit();
            match draft.owner {
                Some(owner) => piece_rules.push(PieceRule {
                    owner,
                    ..draft.rule
                }),
                None => {
                    owners_known = false;
                    let message = format!("piece type {bit} has no owner");
                    found.push(violation(Key::Owner, Some(Subject::piece(bit)), message));
                }
            }
        }
        let repetition = match (self.repetition_count, self.repetition_loser) {
            (Some(count), loser) => Some(Repetition { count, loser }),
            (None, loser) => {
                if loser.is_some() {
                    let message = "`repetition_loser` needs `repetition`".to_owned();
                    found.push(violation(Key::RepetitionLoser, None, message));
                }
                None
            }
        };
        if self.forbid_repeat && repetition.is_some() {
            let message = "`repetition` and `forbid_repeat` exclude each other: with \
                           `forbid_repeat` no position occurs twice";
            found.push(violation(Key::Repetition, None, message.to_owned()));
        }
        // Without a board or an owner, the rules cannot be checked together.
        let (Some(width), Some(height), Some(pieces), Some(squares), true) =
            (width, height, pieces, squares, owners_known)
        else {
            return Err(found);
        };
        let description = Description {
            id: id.unwrap_or_default(),
            name: name.unwrap_or_default(),
            ui_theme: self.ui_theme,
            width,
            height,
            forbid_repeat: self.forbid_repeat,
            repetition,
            draw_plies: self.draw_plies,
            draw_no_win: self.draw_no_win,
            jump_compulsory: self.jump_compulsory,
            encircle: self.encircle,
            pieces,
            squares,
            piece_rules,
            square_rules: self.square_types.into_iter().flatten().collect(),
        };
        found.extend(validate(&description));
        match found.is_empty() {
            true => Ok(description),
            false => Err(found),
        }
    }
}

/// What the checks share: the description and the masks of its types.
struct Context<'a> {
    rules: &'a Description,
    /// Every declared piece type.
    piece_mask: u8,
    /// Every declared square type.
    square_mask: u8,
    /// The piece types of each player.
    owned: [u8; 2],
}

impl Context<'_> {
    /// The piece types of the other player than `player`.
    fn enemies(&self, player: Player) -> u8 {
        self.owned[player.opponent().index()]
    }
}

/// A check of the rules together: what it is about, in English, and the function that
/// adds each violation it finds.
type Check = (&'static str, fn(&Context, &mut Vec<RuleViolation>));

/// Every check of a description, in the order its violations are reported.
const CHECKS: [Check; 4] = [
    ("the start position and the squares", check_board),
    ("each player owns a piece type", check_owners),
    ("each piece type", check_piece_types),
    ("each square type", check_square_types),
];

/// Every cross-rule requirement of the rule language that the description breaks.
fn validate(rules: &Description) -> Vec<RuleViolation> {
    let mask = |bits: &mut dyn Iterator<Item = u8>| bits.fold(0, |m, bit| m | bit);
    let owned = |player: Player| {
        mask(
            &mut rules
                .piece_rules
                .iter()
                .filter(|r| r.owner == player)
                .map(|r| r.piece.bit()),
        )
    };
    let context = Context {
        rules,
        piece_mask: mask(&mut rules.piece_rules.iter().map(|r| r.piece.bit())),
        square_mask: mask(&mut rules.square_rules.iter().map(|r| r.square.bit())),
        owned: [owned(Player::Zero), owned(Player::One)],
    };
    let mut found = Vec::new();
    for (_, run) in CHECKS {
        run(&context, &mut found);
    }
    found
}

/// The start position and the squares: every piece and square type declared, every
/// piece on the board and on a square its type may occupy. Each fault is reported once
/// for each type, at the first square it is found on.
fn check_board(context: &Context, found: &mut Vec<RuleViolation>) {
    let d = context.rules;
    let mut reported: Vec<(Key, Subject)> = Vec::new();
    let mut report = |key: Key, subject: Subject, message: String| {
        if !reported.contains(&(key, subject)) {
            reported.push((key, subject));
            found.push(violation(key, Some(subject), message));
        }
    };
    for (index, (&piece, &square)) in d.pieces.iter().zip(&d.squares).enumerate() {
        let (x, y) = (index % usize::from(d.width), index / usize::from(d.width));
        if piece != 0 && piece & context.piece_mask == 0 {
            report(
                Key::Pieces,
                Subject::piece(piece),
                format!("piece type {piece} at {x} {y} is not declared with `piece bit {piece}`"),
            );
        }
        if square != 0 && square & context.square_mask == 0 {
            report(
                Key::Squares,
                Subject::square(square),
                format!(
                    "square type {square} at {x} {y} is not declared with `square bit {square}`"
                ),
            );
        }
        if piece != 0 && square == 0 {
            report(
                Key::Pieces,
                Subject::piece(piece),
                format!("a piece stands at {x} {y}, which is not part of the board"),
            );
        }
        // A piece may never stand on a square type outside its `occupies`, its start
        // square included: such a start position is a mistake in the file.
        let start_rule = d.piece_rules.iter().find(|r| r.piece.bit() == piece);
        if let Some(rule) = start_rule.filter(|r| r.occupies & square == 0) {
            report(
                Key::Occupies,
                Subject::piece(piece),
                format!(
                    "piece type {piece} starts at {x} {y}, on square type {square}, \
                     which is not in its `occupies` ({})",
                    rule.occupies
                ),
            );
        }
    }
}

/// Each player owns a piece type.
fn check_owners(context: &Context, found: &mut Vec<RuleViolation>) {
    for player in Player::BOTH {
        if context.owned[player.index()] == 0 {
            let message = format!("player {} owns no piece type", player.index());
            found.push(violation(Key::Owner, None, message));
        }
    }
}

/// What is wrong when a piece type's squares of the rule `key` (its `mask` of square
/// types) name undeclared square types.
fn undeclared_squares(c: &Context, r: &PieceRule, key: Key, mask: u8) -> Option<String> {
    (mask & !c.square_mask != 0).then(|| {
        let (bit, spelling) = (r.piece.bit(), keywords::spelling(key));
        format!("piece type {bit} has `{spelling}` squares of undeclared square types")
    })
}

/// A requirement of one piece type: the rule it is about, and what is wrong when it
/// fails.
type PieceCheck = (Key, fn(&Context, &PieceRule) -> Option<String>);

/// Every requirement of a piece type, in the order they are reported.
const PIECE_CHECKS: [PieceCheck; 16] = [
    (Key::PieceBit, |c, r| {
        let bit = r.piece.bit();
        (!c.rules.pieces.contains(&bit))
            .then(|| format!("piece type {bit} does not occur in `pieces`"))
    }),
    (Key::PieceCaptures, |c, r| {
        (r.captures & !c.enemies(r.owner) != 0).then(|| {
            let bit = r.piece.bit();
            format!("piece type {bit} may capture only declared pieces of the other player")
        })
    }),
    (Key::Custodial, |_, r| {
        (r.custodial && r.capture_sides < 2).then(|| {
            let bit = r.piece.bit();
            format!("piece type {bit} is custodial, which needs `capt_sides` of 2 or more")
        })
    }),
    (Key::Pass, |c, r| {
        undeclared_squares(c, r, Key::Pass, r.pass)
    }),
    (Key::Jump, |c, r| {
        (r.jump & !c.enemies(r.owner) != 0).then(|| {
            let bit = r.piece.bit();
            format!("piece type {bit} may jump only declared pieces of the other player")
        })
    }),
    // `u8::MAX`: every escape square type, declared or not.
    (Key::EscapeOn, |c, r| {
        (r.escape_on != u8::MAX)
            .then(|| undeclared_squares(c, r, Key::EscapeOn, r.escape_on))
            .flatten()
    }),
    (Key::LoseOn, |c, r| {
        undeclared_squares(c, r, Key::LoseOn, r.lose_on)
    }),
    (Key::ExitFort, |_, r| {
        (r.exit_fort && !r.escape)
            .then(|| format!("piece type {} has `exit_fort` without `escape`", r.piece))
    }),
    (Key::PieceName, |_, r| {
        (r.name.as_deref().is_some_and(str::is_empty))
            .then(|| format!("piece type {} has an empty `name`", r.piece))
    }),
    (Key::Noreturn, |_, r| {
        (r.noreturn & !r.occupies != 0).then(|| {
            let bit = r.piece.bit();
            format!("piece type {bit} has `noreturn` squares outside its `occupies`")
        })
    }),
    (Key::DblTrapCapt, |_, r| {
        without_double_trap(r, r.double_trap_capture, Key::DblTrapCapt)
    }),
    (Key::DblTrapCompl, |_, r| {
        without_double_trap(r, r.double_trap_complement, Key::DblTrapCompl)
    }),
    (Key::DblTrapEdge, |_, r| {
        without_double_trap(r, r.double_trap_edge, Key::DblTrapEdge)
    }),
    (Key::DblTrapEncl, |_, r| {
        without_double_trap(r, r.double_trap_enclosed, Key::DblTrapEncl)
    }),
    (Key::DblTrapSquares, |_, r| {
        (r.double_trap && r.double_trap_squares == 0).then(|| {
            let bit = r.piece.bit();
            format!("piece type {bit} has `dbl_trap` without `dbl_trap_squares`")
        })
    }),
    (Key::DblTrapCompl, |c, r| {
        let mut same_owner = c.rules.piece_rules.iter().filter(|o| o.owner == r.owner);
        (r.double_trap_complement && same_owner.all(|o| o.double_trap_complement)).then(|| {
            let player = r.owner.index();
            format!("every piece type of player {player} has `dbl_trap_compl`")
        })
    }),
];

/// A `dbl_trap_...` argument written without `dbl_trap`.
fn without_double_trap(rule: &PieceRule, set: bool, key: Key) -> Option<String> {
    (set && !rule.double_trap).then(|| {
        let spelling = keywords::spelling(key);
        format!(
            "piece type {} has `{spelling}` without `dbl_trap`",
            rule.piece
        )
    })
}

/// Every piece type meets [`PIECE_CHECKS`].
fn check_piece_types(context: &Context, found: &mut Vec<RuleViolation>) {
    for rule in &context.rules.piece_rules {
        let subject = Some(Subject::piece(rule.piece.bit()));
        for (key, broken) in PIECE_CHECKS {
            if let Some(message) = broken(context, rule) {
                found.push(violation(key, subject, message));
            }
        }
    }
}

/// Every square type occurs on the board, and its `capt_sides` and `capt_sides_pieces`
/// name pieces that may stand on it.
fn check_square_types(context: &Context, found: &mut Vec<RuleViolation>) {
    let d = context.rules;
    for rule in &d.square_rules {
        let bit = rule.square.bit();
        let subject = Some(Subject::square(bit));
        let mut fail = |key: Key, message: String| found.push(violation(key, subject, message));
        if !d.squares.contains(&bit) {
            fail(
                Key::SquareBit,
                format!("square type {bit} does not occur in `squares`"),
            );
        }
        if let Some((key, message)) = capture_sides_fault(d, rule) {
            fail(key, message);
        }
        if rule.capture_sides_pieces & !context.piece_mask != 0 {
            fail(
                Key::CaptSidesPieces,
                format!("square type {bit} names undeclared piece types in `capt_sides_pieces`"),
            );
        }
    }
}

/// What is wrong with a square type's `capt_sides`: no piece may stand on the square, or
/// `capt_sides_pieces` names none that may.
fn capture_sides_fault(d: &Description, rule: &SquareRule) -> Option<(Key, String)> {
    let bit = rule.square.bit();
    if rule.capture_sides == 0 {
        return None;
    }
    let standing: u8 = d
        .piece_rules
        .iter()
        .filter(|r| r.occupies & bit != 0)
        .fold(0, |m, r| m | r.piece.bit());
    if standing == 0 {
        let message = format!("square type {bit} has `capt_sides` but no piece may stand on it");
        return Some((Key::SquareCaptSides, message));
    }
    (rule.capture_sides_pieces & standing == 0).then(|| {
        let message = format!(
            "square type {bit} has `capt_sides` but `capt_sides_pieces` names no piece that \
             may stand on it"
        );
        (Key::CaptSidesPieces, message)
    })
}

/// Finds the line a violation is about: where its rule is written for its piece or
/// square type, or else where that type is declared, or else where the rule is written
/// on a line of its own (`pieces`, `width`).
pub(crate) fn locate(lines: &[Line], violation: RuleViolation) -> RuleViolation {
    let rule = violation.rule;
    let find = |wanted: &dyn Fn(&[String]) -> bool| {
        lines
            .iter()
            .find(|line| wanted(&line.words))
            .map(|line| line.number)
    };
    let general = || find(&|words| words.first().is_some_and(|word| word == rule));
    let line = match violation.subject {
        Some(subject) => {
            let (scope, bit) = match subject {
                Subject::Piece(piece) => ("piece", piece.bit().to_string()),
                Subject::Square(square) => ("square", square.bit().to_string()),
            };
            let is = |words: &[String], second: &str, third: &str| {
                words.len() > 2 && words[0] == scope && words[1] == second && words[2] == third
            };
            find(&|words| is(words, &bit, rule))
                .or_else(|| find(&|words| is(words, "bit", &bit)))
                .or_else(general)
        }
        None => general(),
    };
    RuleViolation { line, ..violation }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checks_have_names_of_their_own() {
        for (index, (name, _)) in CHECKS.iter().enumerate() {
            assert!(!name.is_empty());
            assert!(CHECKS[index + 1..].iter().all(|(other, _)| other != name));
        }
    }
}
