//! Validated rules compiled into the tables that move generation and captures read.

use crate::Square;
use crate::description::Description;
use crate::random::SplitMix;

/// No square: a neighbour outside the board rectangle.
pub(crate) const NONE: u16 = u16::MAX;

/// The four directions, in the order captures are judged: +x (east), -x (west),
/// +y (south), -y (north).
pub(crate) const DIRECTIONS: usize = 4;

/// The largest number of squares on a board (31 x 31).
pub(crate) const MAX_SQUARES: usize = 31 * 31;

/// 64-bit words in a bitset of every square.
pub(crate) const WORDS: usize = MAX_SQUARES.div_ceil(64);

/// Whether a direction runs along the x axis (a row).
pub(crate) const fn is_x_axis(direction: usize) -> bool {
    direction < 2
}

/// The direction opposite to this one.
pub(crate) const fn opposite(direction: usize) -> usize {
    direction ^ 1
}

/// What the engine needs of a piece type, flattened.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PieceInfo {
    pub(crate) owner: u8,
    pub(crate) captures: u8,
    pub(crate) capture_sides: u8,
    pub(crate) custodial: bool,
    pub(crate) capture_edge: bool,
    pub(crate) capture_edge_alone: bool,
    pub(crate) double_trap: bool,
    pub(crate) double_trap_capture: bool,
    pub(crate) double_trap_complement: bool,
    pub(crate) double_trap_edge: bool,
    pub(crate) double_trap_enclosed: bool,
    pub(crate) double_trap_squares: u8,
    /// The piece types it captures by jumping over them (`jump`).
    pub(crate) jump: u8,
    /// The escape square types it wins on (`escape_on`).
    pub(crate) escape_on: u8,
    /// The square types on which a move of it loses (`lose_on`).
    pub(crate) lose_on: u8,
}

/// What the engine needs of a square type.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SquareInfo {
    pub(crate) captures: u8,
    pub(crate) capture_sides: u8,
    pub(crate) capture_sides_pieces: u8,
    pub(crate) escape: bool,
}

/// The compiled rules.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// The square of each row-major index (the board's first `squares`, the rest
    /// unused): as many as a square bitset holds, so that an index taken from one is
    /// never checked against a length.
    pub(crate) coordinates: Box<[Square; WORDS * 64]>,
    pub(crate) squares: usize,
    /// Words of a square bitset that this board uses.
    pub(crate) words: usize,
    /// The type bit of each square (0: off the board).
    pub(crate) square_bits: Vec<u8>,
    /// Each square's neighbour per direction, or [`NONE`] outside the rectangle.
    pub(crate) neighbours: Vec<[u16; DIRECTIONS]>,
    /// Index step per direction.
    pub(crate) steps: [isize; DIRECTIONS],
    /// Per piece type index, square and direction: how many steps the square types
    /// allow (`occupies`, `noreturn`, the board's end), ignoring pieces; by square (as
    /// many as a square bitset holds, like `coordinates`), then type, then direction.
    pub(crate) reach: Box<[[[u8; DIRECTIONS]; 8]; WORDS * 64]>,
    /// Per type index.
    pub(crate) pieces: [PieceInfo; 8],
    /// Per type index.
    pub(crate) square_types: [SquareInfo; 8],
    /// Escape squares, by increasing index.
    pub(crate) escape_squares: Vec<u16>,
    /// Piece types with `escape`.
    pub(crate) escape_pieces: u8,
    /// Type indices with `capt_loss`, by increasing bit.
    pub(crate) capture_loss: Vec<usize>,
    /// Per square: the piece types its empty square captures.
    pub(crate) hostile: Vec<u8>,
    /// Per type index: the square types the piece may stand on.
    pub(crate) occupies: [u8; 8],
    /// Keys per type index and square.
    pub(crate) zobrist: Vec<u64>,
    /// Key of player 1 to move.
    pub(crate) zobrist_side: u64,
    /// Whether some piece type may pass over squares it may not stop on (`pass`).
    pub(crate) passing: bool,
    /// Per square: one bit per direction whose neighbour is not part of the board (the
    /// rectangle's end or a 0-square). A square with any bit is at the edge.
    pub(crate) outward: Vec<u8>,
    /// The squares at the edge (with any `outward` bit), as a bitset.
    pub(crate) edge: [u64; WORDS],
    /// The squares of the board (not 0-squares), as a bitset.
    pub(crate) on_board: [u64; WORDS],
    /// The squares not in the first (west) column, as a bitset.
    pub(crate) not_first_column: [u64; WORDS],
    /// The squares not in the last (east) column, as a bitset.
    pub(crate) not_last_column: [u64; WORDS],
    /// Piece types that a shieldwall captures.
    pub(crate) shieldwall: u8,
    /// Piece types whose owner wins by an exit fort.
    pub(crate) exit_fort: u8,
    /// The player (0 or 1) who wins by enclosing every piece of the other (`encircle`).
    pub(crate) encircle: Option<usize>,
    /// `draw_no_win`.
    pub(crate) draw_no_win: bool,
    /// Whether some piece type captures by jumping (`jump`).
    pub(crate) jumping: bool,
    /// The piece types that some type captures by jumping.
    pub(crate) jumped: u8,
    /// `jump_compulsory`.
    pub(crate) jump_compulsory: bool,
    /// Whether some piece type has `lose_on` squares.
    pub(crate) losing: bool,
}

impl Tables {
    /// The neighbour of a square in a direction, where the board's rectangle goes on
    /// (it may be a 0-square); `None` past its end.
    #[inline]
    pub(crate) fn neighbour(&self, square: usize, direction: usize) -> Option<usize> {
        let next = self.neighbours[square][direction];
        (next != NONE).then_some(usize::from(next))
    }

    /// The reach of a piece type from a square in a direction.
    #[inline]
    pub(crate) fn reach(&self, type_index: usize, square: usize, direction: usize) -> usize {
        usize::from(self.reaches(type_index, square)[direction])
    }

    /// The reach of a piece type from a square in each direction.
    #[inline]
    pub(crate) fn reaches(&self, type_index: usize, square: usize) -> [u8; DIRECTIONS] {
        self.reach[square][type_index]
    }

    /// The row-major index of a square inside the board rectangle.
    #[inline]
    pub(crate) fn index_of(&self, square: Square) -> Option<usize> {
        let (x, y) = (usize::from(square.x()), usize::from(square.y()));
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }

    /// The square of a row-major index inside the board rectangle.
    #[inline]
    pub(crate) fn square_of(&self, index: usize) -> Square {
        self.coordinates[index]
    }

    /// The Zobrist key of a piece type on a square.
    #[inline]
    pub(crate) fn key(&self, type_index: usize, square: usize) -> u64 {
        self.zobrist[type_index * self.squares + square]
    }
}

/// Compiles a validated description.
pub(crate) fn compile(d: &Description) -> Tables {
    let width = usize::from(d.width);
    let height = usize::from(d.height);
    let squares = width * height;
    let neighbours = neighbours(width, height);
    let piece_types = PieceTypeTables::new(d);
    let square_types = square_infos(d);
    let type_of = |bit: u8| -> Option<&SquareInfo> {
        (bit != 0).then(|| &square_types[bit.trailing_zeros() as usize])
    };
    let escape_squares = (0..squares)
        .filter(|&s| type_of(d.squares[s]).is_some_and(|t| t.escape))
        .map(|s| s as u16)
        .collect();
    let hostile = d
        .squares
        .iter()
        .map(|&bit| type_of(bit).map_or(0, |t| t.captures))
        .collect();
    let reach = reach(d, &neighbours);
    let outward = outward(d, &neighbours);
    let bitset = |f: &dyn Fn(usize) -> bool| bitset(squares, f);
    let mask_of = |f: fn(&crate::PieceRule) -> bool| {
        d.piece_rules
            .iter()
            .filter(|r| f(r))
            .fold(0u8, |m, r| m | r.piece.bit())
    };

    // The same keys in every run.
    let mut random = SplitMix::new(0x6E65_6661_7461_666C ^ (squares as u64));
    let zobrist = (0..8 * squares).map(|_| random.next_u64()).collect();
    let zobrist_side = random.next_u64();

    Tables {
        width,
        height,
        coordinates: Box::new(std::array::from_fn(|index| {
            if index < squares {
                Square((index % width) as u16 | ((index / width) as u16) << 5)
            } else {
                Square(0)
            }
        })),
        squares,
        words: squares.div_ceil(64),
        square_bits: d.squares.clone(),
        steps: [1, -1, width as isize, -(width as isize)],
        reach,
        pieces: piece_types.pieces,
        square_types,
        escape_squares,
        escape_pieces: piece_types.escape_pieces,
        capture_loss: piece_types.capture_loss,
        hostile,
        occupies: piece_types.occupies,
        zobrist,
        zobrist_side,
        passing: d.piece_rules.iter().any(|r| r.pass & !r.occupies != 0),
        edge: bitset(&|square| outward[square] != 0),
        on_board: bitset(&|square| d.squares[square] != 0),
        not_first_column: bitset(&|square| square % width != 0),
        not_last_column: bitset(&|square| square % width != width - 1),
        outward,
        neighbours,
        shieldwall: mask_of(|r| r.shieldwall),
        exit_fort: mask_of(|r| r.exit_fort),
        encircle: d.encircle.map(crate::Player::index),
        draw_no_win: d.draw_no_win,
        jumping: d.piece_rules.iter().any(|r| r.jump != 0),
        jumped: d.piece_rules.iter().fold(0, |m, r| m | r.jump),
        jump_compulsory: d.jump_compulsory,
        losing: d.piece_rules.iter().any(|r| r.lose_on != 0),
    }
}

/// Each square's neighbour per direction, or [`NONE`] outside the rectangle.
fn neighbours(width: usize, height: usize) -> Vec<[u16; DIRECTIONS]> {
    (0..width * height)
        .map(|index| {
            let (x, y) = (index % width, index / width);
            let at = |ok: bool, i: usize| if ok { i as u16 } else { NONE };
            [
                at(x + 1 < width, index + 1),
                at(x > 0, index.wrapping_sub(1)),
                at(y + 1 < height, index + width),
                at(y > 0, index.wrapping_sub(width)),
            ]
        })
        .collect()
}

/// The tables of the piece types, per type index.
struct PieceTypeTables {
    pieces: [PieceInfo; 8],
    escape_pieces: u8,
    capture_loss: Vec<usize>,
    occupies: [u8; 8],
}

impl PieceTypeTables {
    fn new(d: &Description) -> PieceTypeTables {
        let mut tables = PieceTypeTables {
            pieces: [PieceInfo::default(); 8],
            escape_pieces: 0,
            capture_loss: Vec::new(),
            occupies: [0u8; 8],
        };
        for rule in &d.piece_rules {
            let index = rule.piece.index();
            tables.occupies[index] = rule.occupies;
            tables.pieces[index] = PieceInfo {
                owner: rule.owner.index() as u8,
                captures: rule.captures,
                capture_sides: rule.capture_sides,
                custodial: rule.custodial,
                capture_edge: rule.capture_edge,
                capture_edge_alone: rule.capture_edge_alone,
                double_trap: rule.double_trap,
                double_trap_capture: rule.double_trap_capture,
                double_trap_complement: rule.double_trap_complement,
                double_trap_edge: rule.double_trap_edge,
                double_trap_enclosed: rule.double_trap_enclosed,
                double_trap_squares: rule.double_trap_squares,
                jump: rule.jump,
                escape_on: rule.escape_on,
                lose_on: rule.lose_on,
            };
            if rule.escape {
                tables.escape_pieces |= rule.piece.bit();
            }
            if rule.capture_loss {
                tables.capture_loss.push(index);
            }
        }
        tables
    }
}

/// What the engine needs of each square type, per type index.
fn square_infos(d: &Description) -> [SquareInfo; 8] {
    let mut square_types = [SquareInfo::default(); 8];
    for rule in &d.square_rules {
        square_types[rule.square.index()] = SquareInfo {
            captures: rule.captures,
            capture_sides: rule.capture_sides,
            capture_sides_pieces: rule.capture_sides_pieces,
            escape: rule.escape,
        };
    }
    square_types
}

/// How many steps each piece type may go from each square in each direction.
///
/// Walks each ray once per piece type; every step must be a square the piece may stand
/// on or pass over, and no step may go from a non-noreturn square onto a noreturn one.
fn reach(
    d: &Description,
    neighbours: &[[u16; DIRECTIONS]],
) -> Box<[[[u8; DIRECTIONS]; 8]; WORDS * 64]> {
    let mut reach = Box::new([[[0u8; DIRECTIONS]; 8]; WORDS * 64]);
    for rule in &d.piece_rules {
        let t = rule.piece.index();
        for start in 0..neighbours.len() {
            for direction in 0..DIRECTIONS {
                let mut count = 0u8;
                let mut previous = start;
                loop {
                    let next = neighbours[previous][direction];
                    if next == NONE {
                        break;
                    }
                    let next = usize::from(next);
                    let bit = d.squares[next];
                    if bit == 0 || (rule.occupies | rule.pass) & bit == 0 {
                        break;
                    }
                    let from_outside = d.squares[previous] & rule.noreturn == 0;
                    if from_outside && bit & rule.noreturn != 0 {
                        break;
                    }
                    count += 1;
                    previous = next;
                }
                // `steps` and `directions` limit the reach, so that move generation
                // pays nothing for them.
                if rule.steps != 0 {
                    count = count.min(rule.steps);
                }
                if rule.directions & relative_direction(rule.owner.index(), direction) == 0 {
                    count = 0;
                }
                reach[start][t][direction] = count;
            }
        }
    }
    reach
}

/// Per square: one bit per direction whose neighbour is not part of the board.
fn outward(d: &Description, neighbours: &[[u16; DIRECTIONS]]) -> Vec<u8> {
    neighbours
        .iter()
        .map(|square| {
            let mut bits = 0u8;
            for (direction, &next) in square.iter().enumerate() {
                if next == NONE || d.squares[usize::from(next)] == 0 {
                    bits |= 1 << direction;
                }
            }
            bits
        })
        .collect()
}

/// The squares of a board for which `f` holds, as a bitset.
fn bitset(squares: usize, f: &dyn Fn(usize) -> bool) -> [u64; WORDS] {
    let mut set = [0u64; WORDS];
    for square in (0..squares).filter(|&square| f(square)) {
        set[square / 64] |= 1 << (square % 64);
    }
    set
}

/// The `directions` bit of a direction for a piece of this owner: player 0 goes forward
/// to the north (towards row 0), player 1 to the south.
fn relative_direction(owner: usize, direction: usize) -> u8 {
    use crate::keywords::{BACK, FORWARD, SIDEWAYS};
    match (direction, owner) {
        (0 | 1, _) => SIDEWAYS,
        (3, 0) | (2, 1) => FORWARD,
        _ => BACK,
    }
}
