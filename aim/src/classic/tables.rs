//! The tables the evaluation is compiled into, once per rule file: each square's
//! neighbours, the piece types' facts and weights, and the escape distances.

use hnefatafl_core::{Direction, PieceType, Rules, Square};

use super::{BoardBits, EvalWeights, NONE};

/// Per piece type facts the evaluation needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct TypeInfo {
    pub declared: bool,
    /// The piece type (declared types only).
    pub piece: Option<PieceType>,
    pub owner: usize,
    pub value: i32,
    pub captures: u8,
    pub capture_sides: u8,
    pub capture_edge: bool,
    pub capture_loss: bool,
    pub escape: bool,
    pub occupies: u8,
    /// Pieces of this type in the start position.
    pub start_count: u32,
    /// Whether to look for open lines (few such pieces: the cost stays small).
    pub scan_lines: bool,
    /// Whether it guards escape squares against the enemy's escape pieces.
    pub guards: bool,
    /// The most squares an ordinary move of it goes (`steps`; the board's size without a
    /// limit).
    pub steps: u8,
    /// Whether the escape terms follow its moves (an escape piece, few of them, that moves
    /// in all four directions).
    pub follow: bool,
}

/// The rules compiled for the search and the evaluation.
#[derive(Debug)]
pub(crate) struct Tables {
    pub square_count: usize,
    /// The board's width, to index the per-square tables by a square.
    pub width: usize,
    /// The four neighbours (up, right, down, left) of each square, or [`NONE`].
    pub neighbours: Vec<[u16; 4]>,
    /// The square type bit of each square (0: not part of the board).
    pub square_bit: Vec<u8>,
    /// Piece types each square captures when empty.
    pub square_captures: Vec<u8>,
    /// Whether each square is an escape square.
    pub escape_square: Vec<bool>,
    /// Whether each square touches an escape square (sides or corners).
    pub guard_square: Vec<bool>,
    /// Rook-move distance of each square to an escape square, per piece type (255: none).
    pub escape_distance: [Vec<u8>; 8],
    /// Per piece type and square, the four neighbours a piece of that type may stand on,
    /// with the square itself in place of the others (an edge, a square it may not stand
    /// on): counting the empty ones then needs no test, and no branch, per direction.
    pub steps: [Vec<[u16; 4]>; 8],
    pub types: [TypeInfo; 8],
    /// The declared piece types, the only ones a board may hold.
    pub declared: Vec<u8>,
    /// The declared `capt_loss` types of more than one piece at the start, whose last
    /// pieces are worth more.
    pub last_pieces: Vec<u8>,
    /// Per player, the material of the start position, from which the material counts.
    pub start_material: [i32; 2],
    pub weights: EvalWeights,
    pub forbid_repeat: bool,
    /// Whether the escape terms that follow the king's moves ([`escape_paths`]) weigh
    /// anything; they need [`BoardBits`], so larger boards go without them.
    pub paths_weighed: bool,
    /// The board as bitboards (boards of at most 128 squares): the evaluation then runs on
    /// them ([`evaluate_bits`]), and the escape terms can follow the king's moves.
    pub bits: Option<BoardBits>,
}

impl Tables {
    /// Compiles the rules.
    pub fn new(rules: &Rules, weights: EvalWeights) -> Tables {
        let width = usize::from(rules.width());
        let height = usize::from(rules.height());
        let square_count = width * height;
        let (square_bit, square_captures, escape_square) = square_tables(rules);
        let neighbours = neighbour_table(rules, &square_bit);
        let types = type_table(rules, &weights);
        let guard_square = guard_squares(width, height, &escape_square);
        let escape_distance = std::array::from_fn(|t| {
            if types[t].escape {
                distances(&neighbours, &square_bit, &escape_square, types[t].occupies)
            } else {
                Vec::new()
            }
        });
        let steps = step_table(&types, &neighbours, &square_bit);
        let paths_weighed = weights.fork_to_move != 0
            || weights.fork_one != 0
            || weights.fork_two != 0
            || weights.three_moves_to_escape != 0;
        let declared: Vec<u8> = (0..8u8).filter(|&t| types[t as usize].declared).collect();
        let last_pieces = declared
            .iter()
            .copied()
            .filter(|&t| types[t as usize].capture_loss && types[t as usize].start_count > 1)
            .collect();
        let start_material = std::array::from_fn(|player| {
            declared
                .iter()
                .map(|&t| &types[t as usize])
                .filter(|info| info.owner == player)
                .map(|info| info.value * info.start_count as i32)
                .sum()
        });
        let bits = BoardBits::new(
            rules,
            &square_bit,
            &square_captures,
            &escape_square,
            &guard_square,
            &types,
            &declared,
        );
        Tables {
            paths_weighed,
            bits,
            square_count,
            width,
            neighbours,
            steps,
            square_bit,
            square_captures,
            escape_square,
            guard_square,
            escape_distance,
            types,
            declared,
            last_pieces,
            start_material,
            weights,
            forbid_repeat: rules.forbid_repeat(),
        }
    }

    /// The row-major index of a square of the board.
    #[inline]
    pub fn index(&self, square: Square) -> usize {
        usize::from(square.y()) * self.width + usize::from(square.x())
    }

    /// Whether a piece of type `t` may stand on square `s`.
    #[inline]
    pub fn may_stand(&self, t: usize, s: usize) -> bool {
        self.square_bit[s] & self.types[t].occupies != 0
    }
}

/// Rook-move distances to the escape squares on an empty board for a piece that may stand on
/// the square types `occupies` (a breadth-first search from the escape squares).
fn distances(
    neighbours: &[[u16; 4]],
    square_bit: &[u8],
    escape_square: &[bool],
    occupies: u8,
) -> Vec<u8> {
    let mut distance = vec![u8::MAX; square_bit.len()];
    let mut frontier: Vec<usize> = (0..square_bit.len())
        .filter(|&s| escape_square[s] && square_bit[s] & occupies != 0)
        .collect();
    for &s in &frontier {
        distance[s] = 0;
    }
    let mut level = 0u8;
    while !frontier.is_empty() && level < u8::MAX - 1 {
        level += 1;
        let mut next = Vec::new();
        for &s in &frontier {
            for (direction, &first) in neighbours[s].iter().enumerate() {
                let mut at = first;
                while at != NONE && square_bit[at as usize] & occupies != 0 {
                    let a = at as usize;
                    if distance[a] == u8::MAX {
                        distance[a] = level;
                        next.push(a);
                    }
                    at = neighbours[a][direction];
                }
            }
        }
        frontier = next;
    }
    distance
}

/// Each square's type bit, the captures its type takes part in, and whether it is an
/// escape square, row by row.
fn square_tables(rules: &Rules) -> (Vec<u8>, Vec<u8>, Vec<bool>) {
    let square_count = usize::from(rules.width()) * usize::from(rules.height());
    let mut square_bit = vec![0u8; square_count];
    let mut square_captures = vec![0u8; square_count];
    let mut escape_square = vec![false; square_count];
    for (index, square) in rules.squares().enumerate() {
        if let Some(kind) = rules.square_type(square) {
            square_bit[index] = kind.bit();
            if let Some(rule) = rules.square_rule(kind) {
                square_captures[index] = rule.captures().bits();
                escape_square[index] = rule.escape();
            }
        }
    }
    (square_bit, square_captures, escape_square)
}

/// Each square's neighbours on the board (north, east, south, west; [`NONE`] off it).
fn neighbour_table(rules: &Rules, square_bit: &[u8]) -> Vec<[u16; 4]> {
    // The order of the evaluation's directions: each one's opposite is two further on.
    const ORDER: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
    rules
        .squares()
        .map(|square| {
            ORDER.map(|direction| {
                match rules
                    .neighbour(square, direction)
                    .and_then(|n| rules.index(n))
                {
                    Some(n) if square_bit[n] != 0 => n as u16,
                    _ => NONE,
                }
            })
        })
        .collect()
}

/// What the evaluation knows of each piece type: its owner, value, captures, escape and
/// which squares it may enter; `guards` for the pieces of a side whose enemy escapes.
fn type_table(rules: &Rules, weights: &EvalWeights) -> [TypeInfo; 8] {
    let start = rules.start_position();
    let mut types: [TypeInfo; 8] = Default::default();
    for rule in rules.piece_rules() {
        let index = rule.piece().index();
        let start_count = start.count(rule.piece());
        let mut value = weights.piece;
        if rule.captures().is_empty() && !rule.escape() {
            value = value * 3 / 4;
        }
        if rule.escape() {
            value = value * 3 / 2;
        }
        if rule.capture_loss() && start_count > 1 {
            // Every piece counts, and the last ones count the most (see `evaluate`).
            value = value * 5 / 4;
        }
        types[index] = TypeInfo {
            declared: true,
            piece: Some(rule.piece()),
            owner: rule.owner().index(),
            value,
            captures: rule.captures().bits(),
            capture_sides: rule.capture_sides(),
            capture_edge: rule.capture_edge(),
            capture_loss: rule.capture_loss(),
            escape: rule.escape(),
            occupies: rule.occupies().bits(),
            start_count,
            scan_lines: rule.escape() && start_count <= 4,
            guards: false,
            steps: rule.steps().unwrap_or(u8::MAX),
            follow: rule.escape() && start_count <= 4 && rule.directions() == 7,
        };
    }
    for player in 0..2 {
        let enemy_escapes = types
            .iter()
            .any(|t| t.declared && t.owner != player && t.escape && t.start_count > 0);
        for t in types
            .iter_mut()
            .filter(|t| t.declared && t.owner == player && !t.escape)
        {
            t.guards = enemy_escapes;
        }
    }
    types
}

/// The squares next to (or diagonal to) an escape square, not one themselves.
fn guard_squares(width: usize, height: usize, escape_square: &[bool]) -> Vec<bool> {
    let square_count = width * height;
    (0..square_count)
        .map(|index| {
            let (x, y) = ((index % width) as i64, (index / width) as i64);
            !escape_square[index]
                && (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        let (nx, ny) = (x + dx, y + dy);
                        nx >= 0
                            && ny >= 0
                            && (nx as usize) < width
                            && (ny as usize) < height
                            && escape_square[ny as usize * width + nx as usize]
                    })
                })
        })
        .collect()
}

/// Where a step of each declared piece type goes from each square in each direction: the
/// neighbour where it may stand there, else the square itself.
fn step_table(
    types: &[TypeInfo; 8],
    neighbours: &[[u16; 4]],
    square_bit: &[u8],
) -> [Vec<[u16; 4]>; 8] {
    let square_count = neighbours.len();
    std::array::from_fn(|t| {
        if !types[t].declared {
            return Vec::new();
        }
        let occupies = types[t].occupies;
        (0..square_count)
            .map(|s| {
                neighbours[s].map(|n| {
                    if n != NONE && square_bit[n as usize] & occupies != 0 {
                        n
                    } else {
                        s as u16
                    }
                })
            })
            .collect()
    })
}
