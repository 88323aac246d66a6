//! OTN rules strings, read into our rule language and written from it.
//!
//! A rules string is turned into a rule file of our language (square types for the corners,
//! the centre, the squares beside the centre and the edge; three piece types: the king `K`
//! as bit 1, the defenders' taflman `T` as bit 2, the attackers' taflman `t` as bit 4) and
//! validated by [`Rules::parse`], so one validator serves both.
//!
//! Writing goes the other way: the OTN keys are derived from the rules, and the string is
//! read back and compared square by square and piece by piece with the rules it came from;
//! what does not survive is refused, naming the key.

use std::fmt;

use super::board::{Board, Side};
use super::spaces::{default_centre, default_corners, on_edge, space_list, space_name};
use super::{OtnError, rules_error, unexpressible};
use crate::Rules;

/// Piece bits of rules read from OTN.
const KING: u8 = 1;
const DEFENDER: u8 = 2;
const ATTACKER: u8 = 4;
pub(super) const ALL: u8 = KING | DEFENDER | ATTACKER;

/// Square bits of rules read from OTN.
const ORDINARY: u8 = 1;
const CORNER: u8 = 2;
const CENTRE: u8 = 4;
const BESIDE_CENTRE: u8 = 8;
const EDGE: u8 = 16;

/// Every key of OTN rules strings with its default value: the one table of the keys.
const KEYS: &[(&str, &str)] = &[
    ("dim", ""),
    ("name", ""),
    ("esc", "c"),
    ("surf", "y"),
    ("atkf", "y"),
    ("tfr", "d"),
    ("ka", "y"),
    ("ks", "s"),
    ("kj", "n"),
    ("nj", "c"),
    ("cj", "j"),
    ("mj", "n"),
    ("gj", "n"),
    ("spd", "-1"),
    ("cor", "default"),
    ("cen", "default"),
    ("afor", ""),
    ("dfor", ""),
    ("corh", "tcnkmTCNKM"),
    ("cenh", "tcnkm"),
    ("cenhe", "tcnkmTCNKM"),
    ("aforh", "TCNKM"),
    ("dforh", "tcnkm"),
    ("corp", "K"),
    ("cenp", "tcnkmTCNKM"),
    ("aforp", "tcnkmTCNKM"),
    ("dforp", "TCNKM"),
    ("cors", "K"),
    ("cens", "K"),
    ("afors", "tcnkmTCNKM"),
    ("dfors", "TCNKM"),
    ("corre", "tcnkmTCNKM"),
    ("cenre", "tcnkmTCNKM"),
    ("aforre", "tcnkmTCNKM"),
    ("dforre", "tcnkmTCNKM"),
    ("sw", "n"),
    ("swf", "y"),
    ("efe", "n"),
    ("linc", "n"),
    ("ber", "n"),
    ("start", ""),
    ("starti", ""),
];

/// The keys whose value is a list of taflman letters.
const MASK_KEYS: &[&str] = &[
    "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp", "dforp", "cors", "cens",
    "afors", "dfors", "corre", "cenre", "aforre", "dforre",
];

/// The values a key may take, for the keys with a fixed set.
fn choices(key: &str) -> Option<&'static [&'static str]> {
    Some(match key {
        "esc" => &["c", "e"],
        "surf" | "atkf" | "swf" | "efe" | "linc" => &["y", "n"],
        "tfr" => &["i", "d", "w", "l"],
        "ka" => &["y", "n", "a", "h"],
        "ks" => &["s", "c", "m", "w", "y", "n"],
        "kj" | "nj" | "cj" | "mj" | "gj" => &["n", "r", "j", "c"],
        "sw" => &["n", "w", "s"],
        "ber" => &["n", "c", "m"],
        _ => return None,
    })
}

/// Something in a rules string that our rule language cannot express, played as the
/// nearest rule it can (see [`RulesString::to_rules_nearest`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approximation {
    /// The OTN key.
    pub key: &'static str,
    /// What the rules string says and what is played instead.
    pub message: String,
}

/// An OTN rules string, read but not yet turned into rules: its entries in order, `dim`
/// first and `start` (or `starti`) last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesString {
    entries: Vec<(&'static str, String)>,
}

impl RulesString {
    /// Reads a rules string: space-separated `key:value` entries, `dim` first and `start`
    /// or `starti` last. Line breaks count as spaces.
    ///
    /// # Errors
    ///
    /// [`OtnError::Rules`] naming the key that is unknown, repeated, misplaced or has a
    /// value OTN does not define, or [`OtnError::Position`] for the start position.
    pub fn parse(text: &str) -> Result<RulesString, OtnError> {
        let mut entries: Vec<(&'static str, String)> = Vec::new();
        for word in text.split_whitespace() {
            let Some((key, value)) = word.split_once(':') else {
                return Err(rules_error(
                    &super::board::shorten(word),
                    "not a `key:value` entry",
                ));
            };
            let Some(&(known, _)) = KEYS.iter().find(|(k, _)| *k == key) else {
                return Err(rules_error(
                    &super::board::shorten(key),
                    "not a key of OTN rules strings",
                ));
            };
            if entries.iter().any(|(k, _)| *k == known) {
                return Err(rules_error(known, "given twice"));
            }
            if let Some((last, _)) = entries.last()
                && matches!(*last, "start" | "starti")
            {
                return Err(rules_error(known, "comes after the start position"));
            }
            if entries.is_empty() && known != "dim" {
                return Err(rules_error(known, "the rules string must begin with `dim`"));
            }
            if let Some(values) = choices(known)
                && !values.contains(&value)
            {
                return Err(rules_error(
                    known,
                    format!("`{value}` is not one of {}", values.join(", ")),
                ));
            }
            entries.push((known, value.to_owned()));
        }
        let rules = RulesString { entries };
        match rules.entries.last() {
            Some(("start" | "starti", _)) => {}
            _ => {
                return Err(rules_error(
                    "start",
                    "the rules string must end with the start position",
                ));
            }
        }
        let dim = rules.dim()?;
        let start = rules.start()?;
        if start.dim() != dim {
            return Err(OtnError::Position(format!(
                "the start position is {0}x{0}, but `dim` is {dim}",
                start.dim()
            )));
        }
        Ok(rules)
    }

    /// The value of a key as written, if it is given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a key, or its default.
    fn value(&self, key: &str) -> &str {
        self.get(key).unwrap_or_else(|| {
            KEYS.iter()
                .find(|(k, _)| *k == key)
                .map_or("", |(_, default)| default)
        })
    }

    /// The board size.
    fn dim(&self) -> Result<usize, OtnError> {
        let value = self.value("dim");
        value
            .parse::<usize>()
            .ok()
            .filter(|d| (3..=super::board::MAX_DIM).contains(d))
            .ok_or_else(|| {
                rules_error(
                    "dim",
                    format!(
                        "`{value}` is not a board size from 3 to {}",
                        super::board::MAX_DIM
                    ),
                )
            })
    }

    /// The start position, rank 1 first.
    pub fn start(&self) -> Result<Board, OtnError> {
        match (self.get("start"), self.get("starti")) {
            (Some(start), _) => start.parse(),
            (None, Some(inverted)) => Ok(inverted.parse::<Board>()?.inverted()),
            (None, None) => Err(rules_error("start", "missing")),
        }
    }

    /// The rules' name (`name`, underscores read as spaces), if given.
    pub fn name(&self) -> Option<String> {
        self.get("name")
            .filter(|n| !n.is_empty())
            .map(|n| n.replace('_', " "))
    }

    /// Which side moves first (`atkf`).
    pub fn first_side(&self) -> Side {
        if self.value("atkf") == "n" {
            Side::Defenders
        } else {
            Side::Attackers
        }
    }

    /// Reads the rules string into validated rules.
    ///
    /// # Errors
    ///
    /// [`OtnError::Unexpressible`] naming the first key whose value (given or default) our
    /// rule language cannot express, [`OtnError::Rules`] for a value it cannot read, or
    /// [`OtnError::Position`] when the start position does not fit.
    pub fn to_rules(&self) -> Result<Rules, OtnError> {
        let (rules, approximations) = self.to_rules_nearest()?;
        match approximations.into_iter().next() {
            None => Ok(rules),
            Some(Approximation { key, message }) => Err(OtnError::Unexpressible { key, message }),
        }
    }

    /// Reads the rules string into the nearest rules our language expresses, with the list
    /// of what was changed. The changes never allow a move that the rules string forbids
    /// (passing over a square that only some may stand on is forbidden to them, jumps
    /// are left out), so a computer player on these rules plays legal moves; they may
    /// see fewer captures and ends of the game.
    ///
    /// # Errors
    ///
    /// As [`RulesString::to_rules`] for what cannot even be approached: speed limits,
    /// fortresses, berserk moves, a king that is only hammer or anvil, and kinds of
    /// taflmen other than `t`, `T` and `K`.
    pub fn to_rules_nearest(&self) -> Result<(Rules, Vec<Approximation>), OtnError> {
        let spec = Spec::read(self)?;
        let text = spec.rule_file();
        let rules = Rules::parse(text.as_bytes()).map_err(|error| {
            rules_error(
                "rules",
                format!("the rules it describes are not valid: {error}"),
            )
        })?;
        Ok((rules, spec.approximations))
    }
}

impl fmt::Display for RulesString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, (key, value)) in self.entries.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}:{value}")?;
        }
        Ok(())
    }
}

/// How the king is captured (`ks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KingMode {
    /// `s`: on four sides, never against the edge.
    Strong,
    /// `c`: on four sides on or beside the centre, by two elsewhere.
    Centre,
    /// `m`: on four sides, the edge counting as a side.
    Middle,
    /// `w`: by two, as any taflman.
    Weak,
}

impl KingMode {
    fn letter(self) -> &'static str {
        match self {
            KingMode::Strong => "s",
            KingMode::Centre => "c",
            KingMode::Middle => "m",
            KingMode::Weak => "w",
        }
    }
}

/// What a rules string says, in the terms our rule language can express.
#[derive(Clone, Debug)]
pub(super) struct Spec {
    pub(super) dim: usize,
    pub(super) name: String,
    pub(super) edge_escape: bool,
    pub(super) attackers_first: bool,
    pub(super) king_armed: bool,
    pub(super) king: KingMode,
    pub(super) corners: Vec<(usize, usize)>,
    pub(super) centres: Vec<(usize, usize)>,
    /// Piece masks (bits `KING`, `DEFENDER`, `ATTACKER`) of the corner and centre keys.
    pub(super) corner_hostile: u8,
    pub(super) corner_pass: u8,
    pub(super) corner_stop: u8,
    pub(super) corner_reenter: u8,
    pub(super) centre_hostile_empty: u8,
    pub(super) centre_pass: u8,
    pub(super) centre_stop: u8,
    pub(super) centre_reenter: u8,
    pub(super) start: Board,
    /// `surf`: the attackers win by enclosing every defender.
    pub(super) encircle: bool,
    /// `tfr`: `i`, `d`, `l` or `w` (`w` is played as `d`).
    pub(super) repetition: char,
    /// `sw`: taflmen are captured in shieldwalls.
    pub(super) shieldwall: bool,
    /// `efe`: the king's side wins by an edge fort.
    pub(super) exit_fort: bool,
    pub(super) approximations: Vec<Approximation>,
}

/// The piece mask of a list of taflman letters; other kinds than t, T and K are left out.
pub(super) fn piece_mask(key: &str, list: &str) -> Result<u8, OtnError> {
    let mut mask = 0;
    for letter in list.chars() {
        let man = super::Man::from_letter(letter).ok_or_else(|| {
            rules_error(
                key,
                format!("`{letter}` is not a taflman letter (tcnkmgTCNKMG)"),
            )
        })?;
        mask |= match (man.side, man.kind) {
            (Side::Defenders, super::Kind::King) => KING,
            (Side::Defenders, super::Kind::Taflman) => DEFENDER,
            (Side::Attackers, super::Kind::Taflman) => ATTACKER,
            _ => 0,
        };
    }
    Ok(mask)
}

/// The letters of a piece mask, in OTN's preferred order.
fn letters(mask: u8) -> String {
    [(ATTACKER, 't'), (DEFENDER, 'T'), (KING, 'K')]
        .iter()
        .filter(|(bit, _)| mask & bit != 0)
        .map(|(_, letter)| *letter)
        .collect()
}

/// Notes that the rule language plays `key` otherwise than the rules string says.
fn approach(approximations: &mut Vec<Approximation>, key: &'static str, message: &str) {
    approximations.push(Approximation {
        key,
        message: message.to_owned(),
    });
}

/// The switches the rule language plays otherwise, noted, and those it cannot express at
/// all, refused.
fn read_switches(
    otn: &RulesString,
    approximations: &mut Vec<Approximation>,
) -> Result<(), OtnError> {
    let v = |key| otn.value(key);
    for (key, played_otherwise, message) in [
        (
            "tfr",
            v("tfr") == "w",
            "a threefold repetition is a draw here, not a win for its mover",
        ),
        ("kj", v("kj") != "n", "the king does not jump here"),
        ("sw", v("sw") == "w", "a corner may close a shieldwall here"),
        (
            "swf",
            v("sw") != "n" && v("swf") == "n",
            "a shieldwall is captured only by a move to one of its ends here",
        ),
        (
            "linc",
            v("linc") == "y",
            "there is no Linnaean capture here",
        ),
    ] {
        if played_otherwise {
            approach(approximations, key, message);
        }
    }
    for (key, refused) in [
        ("spd", v("spd") != "-1"),
        ("afor", !v("afor").is_empty()),
        ("dfor", !v("dfor").is_empty()),
        ("ber", v("ber") != "n"),
        ("ka", matches!(v("ka"), "a" | "h")),
    ] {
        if refused {
            return Err(unexpressible(
                key,
                format!("`{key}:{}` has no counterpart in the rule language", v(key)),
            ));
        }
    }
    Ok(())
}

/// The start position, refused where it holds a man the rule language has not.
fn read_start(otn: &RulesString, dim: usize) -> Result<Board, OtnError> {
    let start = otn.start()?;
    for y in 0..dim {
        for x in 0..dim {
            if let Some(man) = start.get(x, y)
                && piece_mask("start", &man.letter().to_string())? == 0
            {
                return Err(unexpressible(
                    "start",
                    format!(
                        "{}: the rule language has no `{}` ({:?} of the {})",
                        space_name(x, y),
                        man.letter(),
                        man.kind,
                        man.side.word()
                    ),
                ));
            }
        }
    }
    Ok(start)
}

/// Spaces of the board: (column, row) pairs from the top-left.
type Spaces = Vec<(usize, usize)>;

/// The corner and centre spaces; with edge escape, the corners must all be on the edge or
/// all off it.
fn read_spaces(otn: &RulesString, dim: usize) -> Result<(Spaces, Spaces), OtnError> {
    let corners = space_list("cor", dim, otn.value("cor"), default_corners(dim))?;
    let centres = space_list("cen", dim, otn.value("cen"), default_centre(dim))?
        .into_iter()
        .filter(|c| !corners.contains(c))
        .collect();
    if otn.value("esc") == "e" {
        let on = corners.iter().filter(|&&c| on_edge(dim, c)).count();
        if on != 0 && on != corners.len() {
            return Err(unexpressible(
                "cor",
                "with edge escape, some corner spaces are on the edge and some are not",
            ));
        }
    }
    Ok((corners, centres))
}

impl Spec {
    /// What the rules string says, with what must be approached.
    fn read(otn: &RulesString) -> Result<Spec, OtnError> {
        let dim = otn.dim()?;
        let mut approximations = Vec::new();
        read_switches(otn, &mut approximations)?;
        let v = |key| otn.value(key);
        let king = match v("ks") {
            "c" => KingMode::Centre,
            "m" => KingMode::Middle,
            "w" | "n" => KingMode::Weak,
            _ => KingMode::Strong,
        };
        let king_armed = v("ka") == "y";
        let mask = |key: &'static str| piece_mask(key, otn.value(key));
        let corner_pass = mask("corp")?;
        let corner_stop = mask("cors")?;
        let centre_pass = mask("cenp")?;
        let centre_stop = mask("cens")?;
        // A piece that may stop on a square passes over it too.
        if corner_stop & !corner_pass != 0 {
            approach(
                &mut approximations,
                "corp",
                "a piece that may stop on a corner may pass over it here",
            );
        }
        if centre_stop & !centre_pass != 0 {
            approach(
                &mut approximations,
                "cenp",
                "a piece that may stop on the centre may pass over it here",
            );
        }
        let natural = if king_armed { ATTACKER } else { 0 };
        if mask("cenh")? & (ATTACKER | DEFENDER) != natural {
            approach(
                &mut approximations,
                "cenh",
                "the occupied centre is hostile to whom its occupant captures",
            );
        }
        let (corners, centres) = read_spaces(otn, dim)?;
        let start = read_start(otn, dim)?;
        Ok(Spec {
            dim,
            name: otn.name().unwrap_or_else(|| "OpenTafl rules".to_owned()),
            edge_escape: v("esc") == "e",
            attackers_first: otn.first_side() == Side::Attackers,
            king_armed,
            king,
            corners,
            centres,
            corner_hostile: mask("corh")?,
            corner_pass: corner_pass | corner_stop,
            corner_stop,
            corner_reenter: mask("corre")?,
            centre_hostile_empty: mask("cenhe")?,
            centre_pass: centre_pass | centre_stop,
            centre_stop,
            centre_reenter: mask("cenre")?,
            start,
            encircle: v("surf") == "y",
            repetition: match v("tfr") {
                "i" => 'i',
                "l" => 'l',
                _ => 'd',
            },
            shieldwall: v("sw") != "n",
            exit_fort: v("efe") == "y",
            approximations,
        })
    }

    /// The square type of each square, row-major from the top-left.
    fn square_types(&self) -> Vec<u8> {
        let dim = self.dim;
        let beside = |(x, y): (usize, usize)| {
            self.centres
                .iter()
                .any(|&(cx, cy)| cx.abs_diff(x) + cy.abs_diff(y) == 1)
        };
        let mut types = Vec::with_capacity(dim * dim);
        for y in 0..dim {
            for x in 0..dim {
                let square = (x, y);
                types.push(if self.corners.contains(&square) {
                    CORNER
                } else if self.centres.contains(&square) {
                    CENTRE
                } else if self.king == KingMode::Centre && beside(square) {
                    BESIDE_CENTRE
                } else if self.edge_escape && on_edge(dim, square) {
                    EDGE
                } else {
                    ORDINARY
                });
            }
        }
        types
    }

    /// The rule file of our language that says the same.
    fn rule_file(&self) -> String {
        let types = self.square_types();
        let used = types.iter().fold(0u8, |used, &t| used | t) | ORDINARY;
        let grid = |cells: &mut dyn Iterator<Item = u8>| {
            cells.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
        };
        let pieces = grid(&mut self.start.squares().iter().map(|man| {
            man.map_or(0, |man| {
                piece_mask("start", &man.letter().to_string()).unwrap_or(0)
            })
        }));
        let mut text = format!(
            "id otn\nname {}\nwidth {d}\nheight {d}\npieces {pieces}\nsquares {}\n",
            gleipnir::quote(&self.name),
            grid(&mut types.iter().copied()),
            d = self.dim,
        );
        let (attackers, defenders) = if self.attackers_first { (0, 1) } else { (1, 0) };
        if self.encircle {
            text += &format!("encircle {attackers}\n");
        }
        match self.repetition {
            'd' | 'w' => text += "repetition 3\n",
            'l' => text += "repetition 3\nrepetition_loser mover\n",
            _ => {}
        }
        for (bit, owner, captures) in [
            (KING, defenders, if self.king_armed { ATTACKER } else { 0 }),
            (DEFENDER, defenders, ATTACKER),
            (ATTACKER, attackers, KING | DEFENDER),
        ] {
            let may = |mask: u8| mask & bit != 0;
            let mut occupies = used & (ORDINARY | BESIDE_CENTRE | EDGE);
            let (mut noreturn, mut pass) = (0, 0);
            for (square, may_pass, stop, reenter) in [
                (
                    CORNER,
                    self.corner_pass,
                    self.corner_stop,
                    self.corner_reenter,
                ),
                (
                    CENTRE,
                    self.centre_pass,
                    self.centre_stop,
                    self.centre_reenter,
                ),
            ] {
                if used & square != 0 && may(stop) {
                    occupies |= square;
                    if !may(reenter) {
                        noreturn |= square;
                    }
                } else if used & square != 0 && may(may_pass) {
                    pass |= square;
                }
            }
            text += &format!(
                "piece bit {bit}\npiece {bit} owner {owner}\npiece {bit} captures {captures}\n\
                 piece {bit} occupies {occupies}\npiece {bit} noreturn {noreturn}\n\
                 piece {bit} pass {pass}\n"
            );
            if bit != KING && self.shieldwall {
                text += &format!("piece {bit} shieldwall\n");
            }
            if bit == KING && self.exit_fort {
                text += &format!("piece {bit} exit_fort\n");
            }
            if bit == KING {
                text += &format!("piece {bit} capt_loss\npiece {bit} escape\n");
                text += match self.king {
                    KingMode::Strong => "piece 1 capt_sides 4\n",
                    KingMode::Middle => "piece 1 capt_sides 4\npiece 1 capt_edge\n",
                    KingMode::Weak | KingMode::Centre => "piece 1 custodial\n",
                };
            } else {
                text += &format!("piece {bit} custodial\n");
            }
        }
        let corner_escape = !self.edge_escape || self.corners.iter().all(|&c| on_edge(self.dim, c));
        let strong_here = if self.king == KingMode::Centre {
            "capt_sides 4\nsquare {b} capt_sides_pieces 1\n"
        } else {
            ""
        };
        for (square, escape, captures, extra) in [
            (ORDINARY, false, 0, ""),
            (CORNER, corner_escape, self.corner_hostile, ""),
            (CENTRE, false, self.centre_hostile_empty, strong_here),
            (BESIDE_CENTRE, false, 0, strong_here),
            (EDGE, true, 0, ""),
        ] {
            if used & square == 0 {
                continue;
            }
            text += &format!("square bit {square}\nsquare {square} captures {captures}\n");
            if escape {
                text += &format!("square {square} escape\n");
            }
            if !extra.is_empty() {
                text += &format!(
                    "square {square} {}",
                    extra.replace("{b}", &square.to_string())
                );
            }
        }
        text
    }

    /// The rules string of this description, defaults left out.
    pub(super) fn rules_string(&self) -> RulesString {
        let mut entries: Vec<(&'static str, String)> = vec![
            ("dim", self.dim.to_string()),
            ("name", self.name.replace(char::is_whitespace, "_")),
        ];
        let mut put = |key: &'static str, value: String| {
            let default = KEYS.iter().find(|(k, _)| *k == key).map_or("", |(_, d)| d);
            let unchanged = if MASK_KEYS.contains(&key) {
                piece_mask(key, default).ok() == piece_mask(key, &value).ok()
            } else {
                value == default
            };
            if !unchanged {
                entries.push((key, value));
            }
        };
        put("esc", if self.edge_escape { "e" } else { "c" }.to_owned());
        put("surf", if self.encircle { "y" } else { "n" }.to_owned());
        put(
            "atkf",
            if self.attackers_first { "y" } else { "n" }.to_owned(),
        );
        put("tfr", self.repetition.to_string());
        put("sw", if self.shieldwall { "s" } else { "n" }.to_owned());
        put("efe", if self.exit_fort { "y" } else { "n" }.to_owned());
        put("ka", if self.king_armed { "y" } else { "n" }.to_owned());
        put("ks", self.king.letter().to_owned());
        let list = |spaces: &[(usize, usize)]| {
            spaces
                .iter()
                .map(|&(x, y)| space_name(x, y) + ",")
                .collect::<String>()
        };
        let same_set = |a: &[(usize, usize)], b: &[(usize, usize)]| {
            a.len() == b.len() && a.iter().all(|s| b.contains(s))
        };
        let corners_default = same_set(&self.corners, &default_corners(self.dim));
        let centre_default = same_set(&self.centres, &default_centre(self.dim));
        if !corners_default {
            put("cor", list(&self.corners));
        }
        if !centre_default {
            put("cen", list(&self.centres));
        }
        put("corh", letters(self.corner_hostile));
        put("cenh", letters(if self.king_armed { ATTACKER } else { 0 }));
        put("cenhe", letters(self.centre_hostile_empty));
        put("corp", letters(self.corner_pass));
        put("cenp", letters(self.centre_pass));
        put("cors", letters(self.corner_stop));
        put("cens", letters(self.centre_stop));
        put("corre", letters(self.corner_reenter));
        put("cenre", letters(self.centre_reenter));
        entries.push(("start", self.start.to_string()));
        RulesString { entries }
    }
}
