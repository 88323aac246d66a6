//! Writing rules as an OTN rules string: the keys are derived from the rules, and the
//! string is read back ([`super::rules`]) and compared square by square and piece by
//! piece with the rules it came from; what does not survive is refused, naming the key.

use super::rules::{ALL, KingMode, Spec, piece_mask};
use super::spaces::{default_corners, on_edge};
use super::{Approximation, RulesString};
use super::{Man, OtnError, Roles, unexpressible};
use crate::{
    PieceRule, Player, Repetition, RepetitionLoser, Rules, Square, SquareRule, SquareType,
};

/// Writes rules as an OTN rules string. The string is read back and compared with the
/// rules, square by square and piece by piece, before it is returned.
///
/// # Errors
///
/// [`OtnError::Unexpressible`] naming the OTN key that cannot say what the rules say:
/// what [`rules_to_otn_nearest`] refuses, and the first rule it had to approach.
pub fn rules_to_otn(rules: &Rules) -> Result<RulesString, OtnError> {
    let (otn, approximations) = rules_to_otn_nearest(rules)?;
    match approximations.into_iter().next() {
        None => Ok(otn),
        Some(Approximation { key, message }) => Err(OtnError::Unexpressible { key, message }),
    }
}

/// Writes rules as the nearest OTN rules string, with the list of what it says
/// differently. The string is read back and compared with the rules, square by square
/// and piece by piece, so nothing else differs; the moves of the start position are the
/// same on both.
///
/// What OTN has no key for is written as the nearest value:
///
/// - a rule that forbids repeating a position (`forbid_repeat`): `tfr:l`, the player who
///   makes a position occur the third time loses;
/// - a repetition that ends the game at another count than the third: at the third;
/// - a repetition lost by one side whoever made it (`repetition_loser 0` or `1`, as in
///   Copenhagen): `tfr:w`, the value OpenTafl's own Copenhagen rules use (the player who
///   makes the third occurrence wins, so the one who forces it loses);
/// - a capture against the edge of a last piece (`capt_edge_alone`, Fetlar's lone king):
///   left out;
/// - a king strong on the throne only: `ks:c`, strong beside it too.
///
/// # Errors
///
/// [`OtnError::Unexpressible`] naming the OTN key for what cannot even be approached: a
/// board that is not square or not whole, other piece types than a king and one taflman
/// per side, double traps, square or capture rules that no OTN key comes near.
pub fn rules_to_otn_nearest(rules: &Rules) -> Result<(RulesString, Vec<Approximation>), OtnError> {
    let mut approximations = Vec::new();
    let mut approach = |key: &'static str, message: &str| {
        approximations.push(Approximation {
            key,
            message: message.to_owned(),
        });
    };
    // The draws after plies without a capture and when neither side can win
    // (`draw_plies`, `draw_no_win`) have no OTN key: OTN leaves such draws to the program
    // that plays, so they are left out without a note.
    let pieces = rules.piece_rules();
    let edge_alone = pieces.iter().any(|p| p.capture_edge_alone);
    if edge_alone {
        approach(
            "ks",
            "a last piece is not captured against the edge here (OTN has no such capture)",
        );
    }
    let repetition = repetition_value(rules, &mut approach);
    let roles = Roles::of(rules)?;
    let start = super::position_to_otn(rules, &rules.start_position())?;
    let dim = start.dim();
    let king = rules
        .piece_rule(roles.king)
        .ok_or_else(|| unexpressible("start", "no king"))?;
    let board = OtnSquares {
        rules,
        roles: &roles,
        dim,
    };
    let (edge_escape, corners, centres) = board.special_squares();
    let (corner_hostile, corner_pass, corner_stop, corner_reenter) = board.props(&corners);
    let (centre_hostile_empty, centre_pass, centre_stop, centre_reenter) = board.props(&centres);
    let king_mode = king_mode(rules, &roles, king);
    let beside_centre = king_mode == KingMode::Centre && !board.strong_beside(&centres);
    if beside_centre {
        approach(
            "ks",
            "the king is strong beside the centre too here, not only on it",
        );
    }
    let spec = Spec {
        dim,
        name: rules.name().to_owned(),
        edge_escape,
        attackers_first: roles.attackers == Player::Zero,
        king_armed: king.captures & roles.attacker.bit() != 0,
        king: king_mode,
        corners,
        centres,
        corner_hostile,
        corner_pass,
        corner_stop,
        corner_reenter,
        centre_hostile_empty,
        centre_pass,
        centre_stop,
        centre_reenter,
        start,
        encircle: rules.encircle().is_some(),
        repetition,
        shieldwall: pieces.iter().any(|p| p.shieldwall),
        exit_fort: pieces.iter().any(|p| p.exit_fort),
        approximations: Vec::new(),
    };
    let otn = spec.rules_string();
    let (back, _) = otn.to_rules_nearest()?;
    let lost = Lost {
        edge_alone,
        beside_centre: beside_centre.then_some(spec.centres.as_slice()),
    };
    same_rules(rules, &roles, &back, &lost)?;
    Ok((otn, approximations))
}

/// The value of OTN's `tfr` (threefold repetition) nearest to the rules' repetition rule:
/// `d` draws, `l` the player who repeats loses, `w` wins, `i` ignored.
fn repetition_value(rules: &Rules, approach: &mut impl FnMut(&'static str, &str)) -> char {
    if rules.forbid_repeat() {
        approach(
            "tfr",
            "a move may repeat a position here; the player who makes it occur the third time loses",
        );
        return 'l';
    }
    let Some(Repetition { count, loser }) = rules.repetition() else {
        return 'i';
    };
    if count != 3 {
        approach(
            "tfr",
            &format!(
                "the game ends at the third occurrence of a position here, not at occurrence {count}"
            ),
        );
    }
    match loser {
        None => 'd',
        Some(RepetitionLoser::Mover) => 'l',
        Some(RepetitionLoser::Player(_)) => {
            approach(
                "tfr",
                "OTN names no side that loses a repetition: the player who makes the third occurrence wins here",
            );
            'w'
        }
    }
}

/// How strong the king is, in OTN's words: armed against four sides (and the edge), or
/// strong on the centre only, or weak.
fn king_mode(rules: &Rules, roles: &Roles, king: &PieceRule) -> KingMode {
    if king.capture_sides >= 4 && !king.custodial {
        if king.capture_edge {
            KingMode::Middle
        } else {
            KingMode::Strong
        }
    } else if rules
        .square_rules()
        .iter()
        .any(|r| r.capture_sides != 0 && r.capture_sides_pieces & roles.king.bit() != 0)
    {
        KingMode::Centre
    } else {
        KingMode::Weak
    }
}

/// A square of an OTN board: `(x, y)` from the top-left.
type Coordinates = (usize, usize);

/// The squares of a square board as OTN sees them: what each role (K, T, t) may do on
/// them, at `(x, y)`.
struct OtnSquares<'a> {
    rules: &'a Rules,
    roles: &'a Roles,
    dim: usize,
}

/// The OTN men of the rules' declared piece types in `mask`, by increasing bit.
fn men_in<'a>(rules: &'a Rules, roles: &'a Roles, mask: u8) -> impl Iterator<Item = Man> + 'a {
    rules
        .piece_rules()
        .iter()
        .filter(move |p| mask & p.piece.bit() != 0)
        .filter_map(|p| roles.man(p.piece))
}

impl OtnSquares<'_> {
    /// The OTN roles of a mask of piece types.
    fn role_mask(&self, mask: u8) -> u8 {
        men_in(self.rules, self.roles, mask)
            .map(|man| piece_mask("start", &man.letter().to_string()).unwrap_or(0))
            .fold(0, |a, b| a | b)
    }

    fn square(&self, (x, y): (usize, usize)) -> Option<Square> {
        self.rules.square_at(x as u8, y as u8)
    }

    fn kind(&self, s: (usize, usize)) -> Option<SquareType> {
        self.square(s).and_then(|s| self.rules.square_type(s))
    }

    fn square_rule(&self, s: (usize, usize)) -> Option<&SquareRule> {
        self.kind(s).and_then(|k| self.rules.square_rule(k))
    }

    /// The roles that may stand on a square, and those that may not come back to it.
    fn stands(&self, s: (usize, usize)) -> (u8, u8) {
        let Some(kind) = self.kind(s) else {
            return (0, 0);
        };
        let (mut stop, mut no_return) = (0, 0);
        for p in self.rules.piece_rules() {
            let bit = self.role_mask(p.piece.bit());
            if p.occupies & kind.bit() != 0 {
                stop |= bit;
            }
            if p.noreturn & kind.bit() != 0 {
                no_return |= bit;
            }
        }
        (stop, no_return)
    }

    /// The roles that may pass over a square without stopping there.
    fn passes(&self, s: (usize, usize)) -> u8 {
        let Some(kind) = self.kind(s) else { return 0 };
        self.rules
            .piece_rules()
            .iter()
            .filter(|p| p.pass & kind.bit() != 0)
            .fold(0, |mask, p| mask | self.role_mask(p.piece.bit()))
    }

    fn all(&self) -> Vec<(usize, usize)> {
        let dim = self.dim;
        (0..dim)
            .flat_map(|y| (0..dim).map(move |x| (x, y)))
            .collect()
    }

    /// Whether the king escapes on the whole edge, the corners (the escape squares, or
    /// the default corners when the edge escapes), and the centres (every other square
    /// that not every role may stand on, or that captures).
    fn special_squares(&self) -> (bool, Vec<Coordinates>, Vec<Coordinates>) {
        let (rules, dim) = (self.rules, self.dim);
        let all_squares = self.all();
        let escapes: Vec<(usize, usize)> = all_squares
            .iter()
            .copied()
            .filter(|&s| {
                self.square(s)
                    .is_some_and(|s| rules.is_escape_square(self.roles.king, s))
            })
            .collect();
        let edge: Vec<(usize, usize)> = all_squares
            .iter()
            .copied()
            .filter(|&s| on_edge(dim, s))
            .collect();
        let edge_escape = !escapes.is_empty() && escapes == edge;
        let corners = if edge_escape {
            default_corners(dim)
        } else {
            escapes
        };
        let special = |s: (usize, usize)| {
            let (stop, no_return) = self.stands(s);
            stop != ALL || no_return != 0 || self.square_rule(s).is_some_and(|r| r.captures != 0)
        };
        let centres = all_squares
            .iter()
            .copied()
            .filter(|s| !(corners.contains(s) || edge_escape && on_edge(dim, *s)))
            .filter(|&s| special(s))
            .collect();
        (edge_escape, corners, centres)
    }

    /// What the first of some squares does, as OTN writes it for all of them: the roles
    /// it captures when empty, that may pass over it, stop on it, and come back to it.
    fn props(&self, spaces: &[(usize, usize)]) -> (u8, u8, u8, u8) {
        spaces.first().map_or((0, ALL, ALL, ALL), |&s| {
            let (stop, no_return) = self.stands(s);
            let hostile = self
                .square_rule(s)
                .map_or(0, |r| self.role_mask(r.captures));
            (hostile, stop | self.passes(s), stop, ALL & !no_return)
        })
    }

    /// Whether the king is strong on every square beside a centre, as OTN's `c` makes
    /// him.
    fn strong_beside(&self, centres: &[(usize, usize)]) -> bool {
        let king = self.roles.king.bit();
        let strong_king_on = |s: (usize, usize)| {
            self.square_rule(s)
                .is_some_and(|r| r.capture_sides != 0 && r.capture_sides_pieces & king != 0)
        };
        self.all().iter().all(|&(x, y)| {
            let beside = centres
                .iter()
                .any(|&(cx, cy)| cx.abs_diff(x) + cy.abs_diff(y) == 1);
            !beside || strong_king_on((x, y))
        })
    }
}

/// What [`rules_to_otn_nearest`] approached, so that the comparison of the rules with
/// their string lets it pass.
struct Lost<'a> {
    /// `capt_edge_alone` is left out.
    edge_alone: bool,
    /// The king is strong beside these centre squares in the string, not in the rules.
    beside_centre: Option<&'a [(usize, usize)]>,
}

/// Compares rules with the rules read back from their OTN string (roles K=1, T=2, t=4).
fn same_rules(rules: &Rules, roles: &Roles, back: &Rules, lost: &Lost) -> Result<(), OtnError> {
    let comparison = Comparison {
        rules,
        roles,
        back,
        back_roles: Roles::of(back)?,
        lost,
    };
    comparison.same_pieces()?;
    for s in rules.squares() {
        comparison.same_square(s)?;
    }
    if rules.encircle() != back.encircle() {
        return Err(unexpressible(
            "surf",
            "OTN's surrounding is a win of the attackers",
        ));
    }
    let (start, back_start) = (rules.start_position(), back.start_position());
    for s in rules.squares() {
        let ours = start.piece_at(s).map(|p| comparison.map(p.bit()));
        if ours != back_start.piece_at(s).map(|p| p.bit()) {
            return Err(unexpressible("start", "the start position differs"));
        }
    }
    Ok(())
}

/// Rules and the rules read back from their OTN string, compared.
struct Comparison<'a> {
    rules: &'a Rules,
    roles: &'a Roles,
    back: &'a Rules,
    back_roles: Roles,
    lost: &'a Lost<'a>,
}

impl Comparison<'_> {
    /// A mask of the rules' piece types as the types of the rules read back.
    fn map(&self, mask: u8) -> u8 {
        men_in(self.rules, self.roles, mask)
            .filter_map(|man| self.back_roles.piece(man))
            .fold(0, |a, p| a | p.bit())
    }

    /// The piece type of the rules read back that plays the role of this one.
    fn counterpart(&self, piece: &PieceRule) -> Option<&PieceRule> {
        self.roles
            .man(piece.piece)
            .and_then(|m| self.back_roles.piece(m))
            .and_then(|p| self.back.piece_rule(p))
    }

    /// Every piece type captures and is captured as its counterpart does.
    fn same_pieces(&self) -> Result<(), OtnError> {
        for piece in self.rules.piece_rules() {
            let Some(other) = self.counterpart(piece) else {
                return Err(unexpressible("start", "a piece type is lost"));
            };
            let same = self.map(piece.captures) == other.captures
                && piece.capture_sides == other.capture_sides
                && piece.custodial == other.custodial
                && piece.capture_edge == other.capture_edge
                && piece.capture_loss == other.capture_loss
                && piece.escape == other.escape
                && !piece.double_trap
                && !piece.double_trap_capture
                && piece.shieldwall == other.shieldwall
                && piece.exit_fort == other.exit_fort
                && (piece.capture_edge_alone == other.capture_edge_alone || self.lost.edge_alone);
            if !same {
                let kind = self.roles.man(piece.piece).map_or('?', Man::letter);
                let key = if piece.captures != 0 && self.map(piece.captures) != other.captures {
                    "ka"
                } else if piece.piece == self.roles.king {
                    "ks"
                } else {
                    "start"
                };
                return Err(unexpressible(
                    key,
                    format!(
                        "the capture rules of piece type {} (`{kind}`) have no OTN counterpart",
                        piece.piece.bit()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A square is on both boards, every piece type may stand, pass and escape there as
    /// its counterpart may, and it captures as its counterpart does.
    fn same_square(&self, s: Square) -> Result<(), OtnError> {
        let (rules, back) = (self.rules, self.back);
        let name = super::square_name(s);
        let (Some(ours), Some(theirs)) = (rules.square_type(s), back.square_type(s)) else {
            return Err(unexpressible(
                "dim",
                format!("{name} is not part of the board, OTN boards are whole"),
            ));
        };
        let piece_view = |r: &Rules, p: &PieceRule, bit: u8| {
            (
                p.occupies & bit != 0,
                p.noreturn & bit != 0,
                p.pass & bit != 0 && p.occupies & bit == 0,
                r.is_escape_square(p.piece, s),
            )
        };
        for piece in rules.piece_rules() {
            let Some(other) = self.counterpart(piece) else {
                continue;
            };
            if piece_view(rules, piece, ours.bit()) != piece_view(back, other, theirs.bit()) {
                return Err(unexpressible(
                    "cor",
                    format!(
                        "{name}: where piece type {} may stand or escape has no OTN counterpart",
                        piece.piece.bit()
                    ),
                ));
            }
        }
        let view = |r: Option<&SquareRule>, map: &dyn Fn(u8) -> u8| {
            r.map_or((0, 0, 0), |r| {
                (
                    map(r.captures),
                    r.capture_sides,
                    map(r.capture_sides_pieces),
                )
            })
        };
        let identity = |m: u8| m;
        let (ours, theirs) = (
            view(rules.square_rule(ours), &|m| self.map(m)),
            view(back.square_rule(theirs), &identity),
        );
        let beside_centre = self.lost.beside_centre.is_some_and(|centres| {
            centres.iter().any(|&(cx, cy)| {
                cx.abs_diff(usize::from(s.x())) + cy.abs_diff(usize::from(s.y())) == 1
            })
        });
        if ours != theirs && !(beside_centre && ours.0 == theirs.0) {
            let key = if ours.1 != theirs.1 || ours.2 != theirs.2 {
                "ks"
            } else if rules.is_escape_square(self.roles.king, s) {
                "corh"
            } else {
                "cenhe"
            };
            return Err(unexpressible(
                key,
                format!("{name}: the square's capture rules have no OTN counterpart"),
            ));
        }
        Ok(())
    }
}
