//! The evaluation: generic over any rule file, compiled once per rules into tables.

use hnefatafl_core::{Direction, Move, Player, Position, Rules, Square};

/// No neighbour in that direction (the edge, or a square that is not part of the board).
pub(crate) const NONE: u16 = u16::MAX;

/// Weights of the evaluation terms, in hundredths of an ordinary piece (for tuning).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// An ordinary piece.
    pub piece: i32,
    /// Each free neighbour square a piece may step onto (cheap mobility).
    pub mobility: i32,
    /// An escape piece this many rook moves from an escape square on an empty board.
    pub escape_distance: [i32; 4],
    /// An escape piece with an open line to an escape square, its side to move.
    pub open_line_to_move: i32,
    /// The same, the opponent to move, one line (it must be blocked).
    pub open_line_one: i32,
    /// The same, the opponent to move, two or more lines.
    pub open_line_two: i32,
    /// An escape piece that needs two moves to escape, the board as it stands.
    pub two_moves_to_escape: i32,
    /// Each square reachable in one move from which an escape square is in sight.
    pub escape_route: i32,
    /// A piece of the side without escape pieces next to (or diagonal to) an escape square.
    pub guard: i32,
    /// A hard-to-capture piece (3-4 sides) missing this many enclosing sides: 1, 2, 3.
    pub enclosure: [i32; 3],
    /// The side to move can capture a piece now: this share (in percent) of its value.
    pub threat_percent: i32,
    /// The side to move.
    pub tempo: i32,
    /// An escape piece whose own side is to move and that can reach, in one move, a square
    /// with open lines to two escape squares (a fork: one blocking move cannot answer it).
    /// 0 turns the fork terms off.
    pub fork_to_move: i32,
    /// The same, the opponent to move, the forks along one of the piece's lines (one
    /// blocking move may answer them).
    pub fork_one: i32,
    /// The same, the opponent to move, forks along two or more of the piece's lines.
    pub fork_two: i32,
    /// An escape piece that needs three moves to escape, the other pieces blocking (and not
    /// fewer). 0 turns it off.
    pub three_moves_to_escape: i32,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            piece: 100,
            mobility: 3,
            escape_distance: [0, 40, 15, 5],
            open_line_to_move: 2000,
            open_line_one: 150,
            open_line_two: 900,
            two_moves_to_escape: 60,
            escape_route: 25,
            guard: 20,
            enclosure: [250, 70, 20],
            threat_percent: 60,
            tempo: 10,
            fork_to_move: 0,
            fork_one: 0,
            fork_two: 0,
            three_moves_to_escape: 0,
        }
    }
}

/// Per piece type facts the evaluation needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct TypeInfo {
    pub declared: bool,
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
    pub weights: EvalWeights,
    pub forbid_repeat: bool,
    /// The board as bitboards, for the escape terms that follow the king's moves (boards of
    /// at most 128 squares; larger ones go without those terms); `None` too when those
    /// terms weigh nothing.
    pub bits: Option<BoardBits>,
}

/// A board of at most 128 squares as `u128` bitboards (bit `s` is the row-major square `s`):
/// what the escape terms need to follow an escape piece's moves a few moves ahead with no
/// loop over squares.
#[derive(Debug)]
pub(crate) struct BoardBits {
    /// The board's width: a step north or south shifts by it.
    width: u32,
    /// The squares of the board.
    board: u128,
    /// The squares not in the first column (where a step east may land).
    not_first_column: u128,
    /// The squares not in the last column (where a step west may land).
    not_last_column: u128,
    /// Per piece type, the squares it may stand on.
    stand: [u128; 8],
    /// Per piece type, the escape squares it may stand on.
    escapes: [u128; 8],
}

impl BoardBits {
    fn new(
        rules: &Rules,
        square_bit: &[u8],
        escape_square: &[bool],
        types: &[TypeInfo; 8],
    ) -> Option<BoardBits> {
        let count = square_bit.len();
        if count > 128 {
            return None;
        }
        let width = usize::from(rules.width());
        let mask = |keep: &dyn Fn(usize) -> bool| {
            (0..count)
                .filter(|&s| keep(s))
                .fold(0u128, |bits, s| bits | 1 << s)
        };
        Some(BoardBits {
            width: width as u32,
            board: mask(&|s| square_bit[s] != 0),
            not_first_column: mask(&|s| s % width != 0),
            not_last_column: mask(&|s| s % width != width - 1),
            stand: std::array::from_fn(|t| mask(&|s| square_bit[s] & types[t].occupies != 0)),
            escapes: std::array::from_fn(|t| {
                mask(&|s| escape_square[s] && square_bit[s] & types[t].occupies != 0)
            }),
        })
    }

    /// Each square of `from` one step in `direction` (0 east, 1 west, 2 south, 3 north; a
    /// direction's opposite is `direction ^ 1`), off the board dropped.
    #[inline]
    fn step(&self, from: u128, direction: usize) -> u128 {
        match direction {
            0 => (from << 1) & self.not_first_column,
            1 => (from >> 1) & self.not_last_column,
            2 => (from << self.width) & self.board,
            _ => from >> self.width,
        }
    }

    /// The squares that pieces on `from` reach by moving up to `steps` squares in
    /// `direction` over the squares of `free`.
    #[inline]
    fn slide(&self, from: u128, free: u128, direction: usize, steps: u8) -> u128 {
        let mut front = from;
        let mut reached = 0;
        for _ in 0..steps {
            front = self.step(front, direction) & free;
            if front == 0 {
                break;
            }
            reached |= front;
        }
        reached
    }
}

impl Tables {
    /// Compiles the rules.
    pub fn new(rules: &Rules, weights: EvalWeights) -> Tables {
        let width = usize::from(rules.width());
        let height = usize::from(rules.height());
        let square_count = width * height;
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
        // The order of the evaluation's directions: each one's opposite is two further on.
        const ORDER: [Direction; 4] = [
            Direction::North,
            Direction::East,
            Direction::South,
            Direction::West,
        ];
        let neighbours = rules
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
            .collect::<Vec<_>>();
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
        let guard_square = (0..square_count)
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
            .collect();
        let escape_distance = std::array::from_fn(|t| {
            if types[t].escape {
                distances(&neighbours, &square_bit, &escape_square, types[t].occupies)
            } else {
                Vec::new()
            }
        });
        let steps = std::array::from_fn(|t| {
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
        });
        let paths_weighed = weights.fork_to_move != 0
            || weights.fork_one != 0
            || weights.fork_two != 0
            || weights.three_moves_to_escape != 0;
        let bits = paths_weighed
            .then(|| BoardBits::new(rules, &square_bit, &escape_square, &types))
            .flatten();
        Tables {
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

/// An empty square of the board as the position holds it ([`Position::board_bits`]: the
/// piece bit of each square, so a piece of type index `t` is `1 << t`).
pub(crate) const EMPTY: u8 = 0;

/// The type index of a piece bit read from the board.
#[inline]
fn kind(bit: u8) -> usize {
    bit.trailing_zeros() as usize
}

/// Whether the square `s` (or the edge, `NONE`) encloses a piece of type `victim`.
#[inline]
fn hostile(tables: &Tables, board: &[u8], s: u16, victim: usize) -> bool {
    let info = &tables.types[victim];
    if s == NONE {
        return info.capture_edge;
    }
    let bit = 1u8 << victim;
    match board[s as usize] {
        EMPTY => tables.square_captures[s as usize] & bit != 0,
        t => {
            let other = &tables.types[kind(t)];
            other.owner != info.owner && other.captures & bit != 0
        }
    }
}

/// The static evaluation from the side to move's point of view.
///
/// It walks the pieces through the position's occupancy words (no copy of the board, no
/// look at an empty square): it runs at nearly every node of the search.
pub(crate) fn evaluate(tables: &Tables, position: &Position) -> i32 {
    evaluate_with_threat(tables, position).0
}

/// [`evaluate`], and whether the side to move can capture a piece with its next move (a
/// custodial pair it can close: what the threat term pays for), so that a quiescence
/// search knows when looking at captures can change anything.
pub(crate) fn evaluate_with_threat(tables: &Tables, position: &Position) -> (i32, bool) {
    let board = position.board_bits();
    let w = &tables.weights;
    let to_move = position.side_to_move().index();
    let mut sums = Sums::default();
    if tables.bits.is_some() {
        let word = |player, i: usize| {
            u128::from(position.occupied_words(player).get(i).copied().unwrap_or(0))
        };
        sums.occupied = [Player::Zero, Player::One]
            .iter()
            .fold(0, |bits, &p| bits | word(p, 0) | word(p, 1) << 64);
    }
    for player in [Player::Zero, Player::One] {
        for (word, &bits) in position.occupied_words(player).iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let s = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                evaluate_piece(tables, board, s, to_move, &mut sums);
            }
        }
    }
    let Sums {
        mut score,
        counts,
        best_threat,
        ..
    } = sums;
    for (t, info) in tables.types.iter().enumerate() {
        // Material counts from the start position, so that the start is even.
        score[info.owner] += info.value * (counts[t] as i32 - info.start_count as i32);
        if info.declared && info.capture_loss && info.start_count > 1 && counts[t] > 0 {
            // The last pieces of a capt_loss type are worth more.
            score[info.owner] -= 4 * w.piece / counts[t] as i32;
        }
    }
    score[to_move] += best_threat[to_move] * w.threat_percent / 100 + w.tempo;
    (
        score[to_move] - score[1 - to_move],
        best_threat[to_move] > 0,
    )
}

/// What [`evaluate`] adds up over the pieces.
#[derive(Default)]
struct Sums {
    /// Each player's terms.
    score: [i32; 2],
    /// Pieces per type index.
    counts: [u32; 8],
    /// The most valuable piece each player can capture with its next move (only the side
    /// to move's is looked for: the other's next move is not this one).
    best_threat: [i32; 2],
    /// The occupied squares, when the board fits [`BoardBits`].
    occupied: u128,
}

/// The terms of the piece on square `s`, added to its owner's score.
#[inline]
fn evaluate_piece(tables: &Tables, board: &[u8], s: usize, to_move: usize, sums: &mut Sums) {
    let w = &tables.weights;
    let t = kind(board[s]);
    let score = &mut sums.score;
    {
        let info = &tables.types[t];
        let owner = info.owner;
        sums.counts[t] += 1;
        let around = tables.neighbours[s];
        let free: i32 = tables.steps[t][s]
            .iter()
            .map(|&n| i32::from(board[n as usize] == EMPTY))
            .sum();
        score[owner] += free * w.mobility;
        if info.guards && tables.guard_square[s] {
            score[owner] += w.guard;
        }
        if info.capture_sides >= 3 {
            // How enclosed a piece is that must be surrounded on 3-4 sides.
            let mut needed = i32::from(info.capture_sides);
            let mut hostile_sides = 0;
            for &n in &around {
                if n == NONE && info.capture_edge {
                    needed -= 1;
                } else if hostile(tables, board, n, t) {
                    hostile_sides += 1;
                }
            }
            let missing = needed - hostile_sides;
            if (1..=3).contains(&missing) {
                score[owner] -= w.enclosure[(missing - 1) as usize];
            }
        } else if owner != to_move && info.value > sums.best_threat[to_move] {
            // Can the side to move capture this piece with its next move? (two opposite
            // sides) Only its threats count, and only the most valuable one.
            if capture_threat(tables, board, s, t) {
                sums.best_threat[to_move] = info.value;
            }
        }
        if info.escape {
            let distance = tables.escape_distance[t][s];
            if let Some(&bonus) = w.escape_distance.get(distance as usize) {
                score[owner] += bonus;
            }
            if info.scan_lines {
                let lines = open_lines(tables, board, s, t);
                if lines == 0 && (w.two_moves_to_escape != 0 || w.escape_route != 0) {
                    let routes = escape_routes(tables, board, s, t);
                    if routes > 0 {
                        score[owner] += w.two_moves_to_escape + routes as i32 * w.escape_route;
                    }
                }
                if lines == 0 && info.follow {
                    if let Some(bits) = &tables.bits {
                        score[owner] += escape_paths(
                            bits,
                            w,
                            sums.occupied,
                            s,
                            t,
                            info.steps,
                            owner == to_move,
                        );
                    }
                }
                if lines > 0 {
                    score[owner] += if owner == to_move {
                        w.open_line_to_move
                    } else if lines == 1 {
                        w.open_line_one
                    } else {
                        w.open_line_two
                    };
                }
            }
        }
    }
}

/// The terms of an escape piece of type `t` on `s` with no open line to an escape square
/// that follow its moves over the empty squares: forks (a square it reaches in one move
/// with open lines to two escape squares) and the need for three moves. `steps`: how far it
/// moves; `own_move`: its side is to move.
fn escape_paths(
    bits: &BoardBits,
    w: &EvalWeights,
    occupied: u128,
    s: usize,
    t: usize,
    steps: u8,
    own_move: bool,
) -> i32 {
    let free = bits.stand[t] & !occupied;
    let escapes = bits.escapes[t] & !occupied;
    // Squares that see an escape square looking in each direction.
    let sight: [u128; 4] =
        std::array::from_fn(|d| bits.slide(escapes, free, d ^ 1, steps) & !escapes);
    let seen = sight[0] | sight[1] | sight[2] | sight[3];
    let forks = (sight[0] & (sight[1] | sight[2] | sight[3]))
        | (sight[1] & (sight[2] | sight[3]))
        | (sight[2] & sight[3]);
    let king = 1u128 << s;
    let mut reach = 0;
    let mut fork_lines = 0;
    for d in 0..4 {
        let line = bits.slide(king, free, d, steps);
        reach |= line;
        fork_lines += i32::from(line & forks != 0);
    }
    if fork_lines > 0 {
        return if own_move {
            w.fork_to_move
        } else if fork_lines == 1 {
            w.fork_one
        } else {
            w.fork_two
        };
    }
    if reach & seen != 0 || w.three_moves_to_escape == 0 {
        return 0;
    }
    let second = (0..4).fold(0, |r, d| r | bits.slide(reach, free, d, steps));
    if second & seen != 0 {
        w.three_moves_to_escape
    } else {
        0
    }
}

/// Whether the move puts an escape piece on a square that has an open line to an escape
/// square, so that the mover threatens to win with its next move. Reads the board before
/// the move (with the piece moved; captures are left out, they only open lines).
pub(crate) fn threatens_escape(tables: &Tables, board: &mut [u8], mv: Move) -> bool {
    let (from, to) = (tables.index(mv.from), tables.index(mv.to));
    let t = board[from];
    if t == EMPTY {
        return false;
    }
    let info = &tables.types[kind(t)];
    if !info.escape || !info.scan_lines || tables.escape_square[to] {
        return false;
    }
    board[from] = EMPTY;
    board[to] = t;
    let lines = open_lines(tables, board, to, kind(t));
    board[to] = EMPTY;
    board[from] = t;
    lines > 0
}

/// Open lines from square `s` to an escape square for a piece of type `t`.
fn open_lines(tables: &Tables, board: &[u8], s: usize, t: usize) -> u32 {
    let mut lines = 0;
    for direction in 0..4 {
        let mut at = tables.neighbours[s][direction];
        while at != NONE && board[at as usize] == EMPTY && tables.may_stand(t, at as usize) {
            if tables.escape_square[at as usize] {
                lines += 1;
                break;
            }
            at = tables.neighbours[at as usize][direction];
        }
    }
    lines
}

/// Squares the piece of type `t` on `s` reaches in one move from which it sees an escape
/// square (the board as it stands).
fn escape_routes(tables: &Tables, board: &[u8], s: usize, t: usize) -> u32 {
    let mut routes = 0;
    for direction in 0..4 {
        let mut at = tables.neighbours[s][direction];
        while at != NONE && board[at as usize] == EMPTY && tables.may_stand(t, at as usize) {
            let a = at as usize;
            if tables.escape_distance[t][a] == 1 {
                // Look sideways only: straight on was already seen from `s`.
                let side_lines = [(direction + 1) % 4, (direction + 3) % 4]
                    .iter()
                    .any(|&side| {
                        let mut step = tables.neighbours[a][side];
                        while step != NONE
                            && board[step as usize] == EMPTY
                            && tables.may_stand(t, step as usize)
                        {
                            if tables.escape_square[step as usize] {
                                return true;
                            }
                            step = tables.neighbours[step as usize][side];
                        }
                        false
                    });
                routes += u32::from(side_lines);
            }
            at = tables.neighbours[a][direction];
        }
    }
    routes
}

/// Whether the enemy of the piece of type `t` on `s` (captured on two sides) can enclose it
/// with one move: one side already hostile, the opposite side empty and reachable in one
/// rook move by an enemy piece that captures `t`.
fn capture_threat(tables: &Tables, board: &[u8], s: usize, t: usize) -> bool {
    let around = tables.neighbours[s];
    let bit = 1u8 << t;
    let owner = tables.types[t].owner;
    for direction in 0..4 {
        let (near, far) = (around[direction], around[(direction + 2) % 4]);
        if far == NONE || board[far as usize] != EMPTY || !hostile(tables, board, near, t) {
            continue;
        }
        // Who can reach `far` in one move, not from the piece's own side?
        for reach in 0..4 {
            if reach == direction {
                continue;
            }
            let mut at = tables.neighbours[far as usize][reach];
            while at != NONE {
                let a = at as usize;
                match board[a] {
                    EMPTY => at = tables.neighbours[a][reach],
                    other => {
                        let other = kind(other);
                        let info = &tables.types[other];
                        if info.owner != owner
                            && info.captures & bit != 0
                            && tables.may_stand(other, far as usize)
                        {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
    }
    false
}

/// A static guess of a move's worth for ordering and for deciding which moves are searched
/// less deeply. Depends on the position and the move only.
pub(crate) fn move_guess(tables: &Tables, board: &[u8], mv: Move, mover: Player) -> i32 {
    let (from, to) = (tables.index(mv.from), tables.index(mv.to));
    let t = board[from];
    if t == EMPTY {
        return 0;
    }
    let t = kind(t);
    let info = &tables.types[t];
    let mut guess = 0;
    if info.escape {
        if tables.escape_square[to] {
            return 1_000_000;
        }
        let (before, after) = (
            tables.escape_distance[t][from],
            tables.escape_distance[t][to],
        );
        guess += 200 + (i32::from(before) - i32::from(after)).clamp(-3, 3) * 60;
    }
    let me = mover.index();
    for direction in 0..4 {
        let n = tables.neighbours[to][direction];
        if n == NONE || n as usize == from {
            continue;
        }
        let victim = board[n as usize];
        if victim == EMPTY {
            continue;
        }
        let victim = kind(victim);
        let vinfo = &tables.types[victim];
        if vinfo.owner == me {
            continue;
        }
        guess += 40;
        if vinfo.escape {
            guess += 150;
        }
        if info.captures & (1 << victim) != 0 && vinfo.capture_sides <= 2 {
            let beyond = tables.neighbours[n as usize][direction];
            let closes = if beyond == NONE {
                vinfo.capture_edge
            } else if beyond as usize == from {
                false
            } else {
                match board[beyond as usize] {
                    EMPTY => tables.square_captures[beyond as usize] & (1 << victim) != 0,
                    b => {
                        let b = &tables.types[kind(b)];
                        b.owner == me && b.captures & (1 << victim) != 0
                    }
                }
            };
            if closes {
                guess += 1000 + vinfo.value;
            }
        }
    }
    guess
}

#[cfg(test)]
mod tests {
    use super::*;
    use hnefatafl_core::{PieceType, Setup};

    /// The 11x11 rules: corners to escape to, the king (bit 1) for player 1, attackers
    /// (bit 4) for player 0.
    fn rules() -> Rules {
        Rules::parse(include_bytes!("../../data/rules/hnefatafl")).expect("the shipped rules")
    }

    /// The evaluation with the escape-path terms on less the one with them off, from the
    /// side to move's view: the king on d6 (x 3, y 5) of an otherwise empty board but for
    /// the attackers on `attackers`.
    fn paths_term(attackers: &[(u8, u8)], to_move: Player) -> i32 {
        let rules = rules();
        let piece = |bit| PieceType::from_bit(bit).expect("a piece type");
        let square = |x, y| Square::new(x, y).expect("a square");
        let mut pieces = vec![(square(3, 5), piece(1)), (square(9, 9), piece(2))];
        pieces.extend(attackers.iter().map(|&(x, y)| (square(x, y), piece(4))));
        let position =
            Position::from_setup(&rules, &Setup::new(pieces, to_move)).expect("a position");
        let on = EvalWeights {
            fork_to_move: 700,
            fork_one: 100,
            fork_two: 400,
            three_moves_to_escape: 30,
            ..EvalWeights::default()
        };
        let with = evaluate(&Tables::new(&rules, on), &position);
        let without = evaluate(&Tables::new(&rules, EvalWeights::default()), &position);
        with - without
    }

    #[test]
    fn a_king_one_move_from_a_fork_scores_the_fork() {
        // To any edge (d1, d11, a6, k6), each square seeing two corners along it.
        assert_eq!(paths_term(&[(7, 7)], Player::One), 700);
        assert_eq!(paths_term(&[(7, 7)], Player::Zero), -400);
        // With the row and the way north closed only the way south is left: one blocking
        // move answers it.
        assert_eq!(paths_term(&[(2, 5), (4, 5), (3, 2)], Player::Zero), -100);
    }

    #[test]
    fn a_king_three_moves_from_a_corner_scores_that() {
        // The row and the ways to both edges closed: d6-d4, d4-a4, a4-a1.
        let closed = [(2, 5), (4, 5), (3, 2), (3, 8)];
        assert_eq!(paths_term(&closed, Player::Zero), -30);
        assert_eq!(paths_term(&closed, Player::One), 30);
        // With the second moves closed too (every square of column d it reaches walled
        // in on its row) the term is gone.
        let walled = [
            (2, 5),
            (4, 5),
            (3, 2),
            (3, 8),
            (2, 3),
            (4, 3),
            (2, 4),
            (4, 4),
            (2, 6),
            (4, 6),
            (2, 7),
            (4, 7),
        ];
        assert_eq!(paths_term(&walled, Player::One), 0);
    }
}
