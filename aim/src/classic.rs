//! The classic evaluation, written by hand: generic over any rule file, compiled once per
//! rules into tables, its terms weighted by `EvalWeights`.

mod escape;
mod guess;
mod tables;

use escape::escape_terms;
pub(crate) use escape::{escape_threatened, near_own_escape_piece, threatens_escape};
pub(crate) use guess::{ESCAPE_GUESS, NodeGuesses, beside_enemy, move_guess};
pub(crate) use tables::{Tables, TypeInfo};

use hnefatafl_core::{Player, Position, Rules};

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
    /// Per direction of [`BoardBits::step`], the squares of the board with no neighbour on
    /// the board that way (the edge, as [`NONE`] marks it in [`Tables::neighbours`]).
    edge: [u128; 4],
    /// The squares that touch an escape square ([`Tables::guard_square`]).
    guard: u128,
    /// Per piece type, the squares that enclose it when empty ([`Tables::square_captures`]).
    hostile_empty: [u128; 8],
    /// Per piece type, the types of the enemy that capture it (one bit per type index).
    capturers: [u8; 8],
    /// Per player to move, the enemy types whose pieces the threat term looks at (captured
    /// on two sides, worth something), the most valuable first.
    victims: [Vec<u8>; 2],
    /// Per player, its declared types, so that its pieces are told apart with few looks at
    /// the board.
    player_types: [PlayerTypes; 2],
}

/// A player's declared piece types, for [`evaluate_bits`] to tell its pieces apart.
#[derive(Clone, Copy, Debug)]
enum PlayerTypes {
    /// One type: all its pieces are of it.
    One(u8),
    /// Two: the one with fewer pieces at the start, and the other.
    Two(u8, u8),
    /// More.
    Many,
}

impl BoardBits {
    fn new(
        rules: &Rules,
        square_bit: &[u8],
        square_captures: &[u8],
        escape_square: &[bool],
        guard_square: &[bool],
        types: &[TypeInfo; 8],
        declared: &[u8],
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
        let board = mask(&|s| square_bit[s] != 0);
        let capturers = std::array::from_fn(|v| {
            declared
                .iter()
                .filter(|&&a| {
                    let a = &types[a as usize];
                    a.owner != types[v].owner && a.captures & (1 << v) != 0
                })
                .fold(0u8, |bits, &a| bits | 1 << a)
        });
        let victims = std::array::from_fn(|to_move| {
            let mut victims: Vec<u8> = declared
                .iter()
                .copied()
                .filter(|&v| {
                    let v = &types[v as usize];
                    v.owner != to_move && v.capture_sides < 3 && v.value > 0
                })
                .collect();
            victims.sort_by_key(|&v| std::cmp::Reverse(types[v as usize].value));
            victims
        });
        let player_types = std::array::from_fn(|player| {
            let mut owned: Vec<u8> = declared
                .iter()
                .copied()
                .filter(|&t| types[t as usize].owner == player)
                .collect();
            owned.sort_by_key(|&t| types[t as usize].start_count);
            match owned[..] {
                [only] => PlayerTypes::One(only),
                [few, other] => PlayerTypes::Two(few, other),
                _ => PlayerTypes::Many,
            }
        });
        let mut bits = BoardBits {
            width: width as u32,
            board,
            not_first_column: mask(&|s| s % width != 0),
            not_last_column: mask(&|s| s % width != width - 1),
            stand: std::array::from_fn(|t| mask(&|s| square_bit[s] & types[t].occupies != 0)),
            escapes: std::array::from_fn(|t| {
                mask(&|s| escape_square[s] && square_bit[s] & types[t].occupies != 0)
            }),
            edge: [0; 4],
            guard: mask(&|s| guard_square[s] && square_bit[s] != 0),
            hostile_empty: std::array::from_fn(|v| {
                mask(&|s| square_bit[s] != 0 && square_captures[s] & (1 << v) != 0)
            }),
            capturers,
            victims,
            player_types,
        };
        // A square with no neighbour one way is one that no square of the board reaches
        // by a step the other way.
        bits.edge = std::array::from_fn(|d| board & !bits.step(board, d ^ 1));
        Some(bits)
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
/// It runs at nearly every node of the search: on boards of at most 128 squares on
/// bitboards ([`evaluate_bits`]), on larger ones by walking the pieces through the
/// position's occupancy words ([`evaluate_scalar`]). Both add up the same terms.
pub(crate) fn evaluate(tables: &Tables, position: &Position) -> i32 {
    evaluate_with_threat(tables, position).0
}

/// [`evaluate`], and whether the side to move can capture a piece with its next move (a
/// custodial pair it can close: what the threat term pays for), so that a quiescence
/// search knows when looking at captures can change anything.
pub(crate) fn evaluate_with_threat(tables: &Tables, position: &Position) -> (i32, bool) {
    match &tables.bits {
        Some(bits) => evaluate_bits(tables, bits, position),
        None => evaluate_scalar(tables, position),
    }
}

/// A memo of [`evaluate_with_threat`] for one search thread, direct-mapped by the
/// position's key. The evaluation depends on the pieces and the side to move only, which
/// the key covers, so a hit gives what the evaluation would; it saves the evaluation of
/// a leaf reached again by other moves (about a third of them in a search of the 11x11
/// start), which the transposition table, probed above the horizon only, does not catch.
pub(crate) struct EvalCache {
    slots: Vec<CacheSlot>,
    /// The slot count less one (the count is a power of two).
    mask: usize,
}

/// One position's evaluation in an [`EvalCache`].
#[derive(Clone, Copy, Default)]
struct CacheSlot {
    /// The key with its lowest bit set, so that the empty slot's 0 matches no key (the
    /// slot's index holds the lowest bit).
    check: u64,
    score: i32,
    threat: bool,
}

impl EvalCache {
    /// The search's memo: 2^16 slots of 16 bytes, 1 MiB in all, which stays in the cache
    /// of a core. (2^18 slots hit a little more often, but the misses of the larger memo
    /// cost more time than the hits save.)
    pub fn new() -> EvalCache {
        EvalCache::with_slots(16)
    }

    /// An empty memo of 2^`bits` slots.
    pub fn with_slots(bits: u32) -> EvalCache {
        EvalCache {
            slots: vec![CacheSlot::default(); 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// [`evaluate_with_threat`], from the memo when it holds the position.
    #[inline]
    pub fn evaluate_with_threat(&mut self, tables: &Tables, position: &Position) -> (i32, bool) {
        let key = position.hash();
        let check = key | 1;
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.check != check {
            let (score, threat) = evaluate_with_threat(tables, position);
            *slot = CacheSlot {
                check,
                score,
                threat,
            };
        }
        (slot.score, slot.threat)
    }
}

/// Each player's pieces as one bitboard (boards of at most 128 squares).
#[inline]
fn occupancy(position: &Position) -> [u128; 2] {
    [Player::Zero, Player::One].map(|player| {
        let words = position.occupied_words(player);
        let word = |i: usize| u128::from(words.get(i).copied().unwrap_or(0));
        word(0) | word(1) << 64
    })
}

/// [`evaluate_with_threat`] on bitboards: mobility, guards and material by counting the
/// bits of each piece type's squares, the threat term by sliding the enemy's capturing
/// pieces over the empty squares at once. Only the pieces that must be enclosed on three
/// or four sides and the escape pieces (a handful) are looked at one by one, by the same
/// code as [`evaluate_scalar`].
pub(crate) fn evaluate_bits(tables: &Tables, bits: &BoardBits, position: &Position) -> (i32, bool) {
    let board = position.board_bits();
    let w = &tables.weights;
    let to_move = position.side_to_move().index();
    let by_player = occupancy(position);
    let occupied = by_player[0] | by_player[1];
    let empty = bits.board & !occupied;
    // The squares of each piece type: a player with one type needs no look at the board.
    let mut pieces = [0u128; 8];
    for (player, &own) in by_player.iter().enumerate() {
        match bits.player_types[player] {
            PlayerTypes::One(t) => pieces[usize::from(t)] = own,
            PlayerTypes::Two(few, other) => {
                // The look stops at the last piece of the few.
                let mut left = tables.types[usize::from(few)]
                    .piece
                    .map_or(0, |piece| position.count(piece));
                let mut of_few = 0;
                let mut rest = own;
                while left > 0 && rest != 0 {
                    let low = rest & rest.wrapping_neg();
                    rest ^= low;
                    if board[low.trailing_zeros() as usize] == 1 << few {
                        of_few |= low;
                        left -= 1;
                    }
                }
                pieces[usize::from(few)] = of_few;
                pieces[usize::from(other)] = own ^ of_few;
            }
            PlayerTypes::Many => {
                let mut rest = own;
                while rest != 0 {
                    let low = rest & rest.wrapping_neg();
                    rest ^= low;
                    pieces[kind(board[low.trailing_zeros() as usize])] |= low;
                }
            }
        }
    }
    let mut score = [0i32; 2];
    let mut counts = [0u32; 8];
    // Mobility: per player and square, how many of the player's pieces beside it may
    // step onto it, counted bit by bit (at most 4: one per side) and added up once.
    let mut steps = [Counter::default(); 2];
    for &t in &tables.declared {
        let t = usize::from(t);
        let mine = pieces[t];
        if mine == 0 {
            continue;
        }
        let info = &tables.types[t];
        let owner = info.owner;
        counts[t] = info.piece.map_or(0, |piece| position.count(piece));
        let free = empty & bits.stand[t];
        for d in 0..4 {
            steps[owner].add(bits.step(mine, d) & free);
        }
        if info.guards {
            score[owner] += (mine & bits.guard).count_ones() as i32 * w.guard;
        }
        if info.capture_sides >= 3 || info.escape {
            let mut rest = mine;
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if info.capture_sides >= 3 {
                    score[owner] -= enclosure(tables, board, s, t);
                }
                if info.escape {
                    score[owner] += escape_terms(tables, board, s, t, to_move, occupied);
                }
            }
        }
    }
    for (score, steps) in score.iter_mut().zip(&steps) {
        *score += steps.total() as i32 * w.mobility;
    }
    // The most valuable piece the side to move can capture with its next move.
    let best_threat = bits.victims[to_move]
        .iter()
        .map(|&v| usize::from(v))
        .find(|&v| threatened(tables, bits, board, &pieces, empty, v))
        .map_or(0, |v| tables.types[v].value);
    finish(tables, score, &counts, best_threat, to_move)
}

/// A count per square of up to 7, bit-sliced over three bitboards: adding a bitboard adds
/// one on each of its squares, and the total of all counts takes three bit counts (the
/// processor's baseline has no bit count instruction, so each costs a dozen).
#[derive(Clone, Copy, Default)]
struct Counter {
    ones: u128,
    twos: u128,
    fours: u128,
}

impl Counter {
    /// One more on each square of `squares`.
    #[inline]
    fn add(&mut self, squares: u128) {
        let carry = self.ones & squares;
        self.ones ^= squares;
        self.fours ^= self.twos & carry;
        self.twos ^= carry;
    }

    /// The counts of all squares added up.
    #[inline]
    fn total(&self) -> u32 {
        self.ones.count_ones() + 2 * self.twos.count_ones() + 4 * self.fours.count_ones()
    }
}

/// Whether a piece of type `v` (captured on two sides) can be enclosed by one enemy move
/// ([`capture_threat`] for all of its pieces at once): one side already hostile, the
/// opposite side empty and reachable in one rook move over the empty squares by an enemy
/// piece that captures `v` and may stand there. The squares that would close a pair are
/// found on the bitboards; the few there are then look along their lines on the board.
#[inline]
fn threatened(
    tables: &Tables,
    bits: &BoardBits,
    board: &[u8],
    pieces: &[u128; 8],
    empty: u128,
    v: usize,
) -> bool {
    let victims = pieces[v];
    if victims == 0 {
        return false;
    }
    let mut capturers = bits.capturers[v];
    let mut enemies = 0;
    let mut stand = 0;
    while capturers != 0 {
        let a = capturers.trailing_zeros() as usize;
        capturers &= capturers - 1;
        enemies |= pieces[a];
        stand |= bits.stand[a];
    }
    let hostile = enemies | (bits.hostile_empty[v] & empty);
    let edge = tables.types[v].capture_edge;
    // The empty squares beside a victim whose other side is hostile.
    let mut closing = 0;
    for d in 0..4 {
        let near = bits.step(hostile, d ^ 1) | if edge { bits.edge[d] } else { 0 };
        closing |= bits.step(victims & near, d ^ 1);
    }
    closing &= empty & stand;
    while closing != 0 {
        let far = closing.trailing_zeros() as usize;
        closing &= closing - 1;
        if reached_by_capturer(tables, board, far, v) {
            return true;
        }
    }
    false
}

/// Whether a piece that captures type `v` reaches the empty square `far` in one rook move
/// over the empty squares and may stand on it.
fn reached_by_capturer(tables: &Tables, board: &[u8], far: usize, v: usize) -> bool {
    let bit = 1u8 << v;
    let owner = tables.types[v].owner;
    for direction in 0..4 {
        let mut at = tables.neighbours[far][direction];
        while at != NONE {
            let a = at as usize;
            match board[a] {
                EMPTY => at = tables.neighbours[a][direction],
                other => {
                    let other = kind(other);
                    let info = &tables.types[other];
                    if info.owner != owner
                        && info.captures & bit != 0
                        && tables.may_stand(other, far)
                    {
                        return true;
                    }
                    break;
                }
            }
        }
    }
    false
}

/// The side to move's score from each player's terms: with the material (counted from
/// the start position), the last pieces of `capt_loss` types, the threat and the tempo;
/// and whether the side to move has a threat.
#[inline]
fn finish(
    tables: &Tables,
    mut score: [i32; 2],
    counts: &[u32; 8],
    best_threat: i32,
    to_move: usize,
) -> (i32, bool) {
    let w = &tables.weights;
    // Material counts from the start position, so that the start is even.
    for (score, start) in score.iter_mut().zip(tables.start_material) {
        *score -= start;
    }
    for &t in &tables.declared {
        let info = &tables.types[usize::from(t)];
        score[info.owner] += info.value * counts[usize::from(t)] as i32;
    }
    for &t in &tables.last_pieces {
        let count = counts[usize::from(t)];
        if count > 0 {
            // The last pieces of a capt_loss type are worth more.
            score[tables.types[usize::from(t)].owner] -= 4 * w.piece / count as i32;
        }
    }
    score[to_move] += best_threat * w.threat_percent / 100 + w.tempo;
    (score[to_move] - score[1 - to_move], best_threat > 0)
}

/// [`evaluate_with_threat`] piece by piece, for any board: walks the pieces through the
/// position's occupancy words (no copy of the board, no look at an empty square).
pub(crate) fn evaluate_scalar(tables: &Tables, position: &Position) -> (i32, bool) {
    let board = position.board_bits();
    let to_move = position.side_to_move().index();
    let mut sums = Sums::default();
    if tables.bits.is_some() {
        let [zero, one] = occupancy(position);
        sums.occupied = zero | one;
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
    finish(
        tables,
        sums.score,
        &sums.counts,
        sums.best_threat[to_move],
        to_move,
    )
}

/// What [`evaluate_scalar`] adds up over the pieces.
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
    let info = &tables.types[t];
    let owner = info.owner;
    sums.counts[t] += 1;
    let free: i32 = tables.steps[t][s]
        .iter()
        .map(|&n| i32::from(board[n as usize] == EMPTY))
        .sum();
    score[owner] += free * w.mobility;
    if info.guards && tables.guard_square[s] {
        score[owner] += w.guard;
    }
    if info.capture_sides >= 3 {
        score[owner] -= enclosure(tables, board, s, t);
    } else if owner != to_move && info.value > sums.best_threat[to_move] {
        // Can the side to move capture this piece with its next move? (two opposite
        // sides) Only its threats count, and only the most valuable one.
        if capture_threat(tables, board, s, t) {
            sums.best_threat[to_move] = info.value;
        }
    }
    if info.escape {
        score[owner] += escape_terms(tables, board, s, t, to_move, sums.occupied);
    }
}

/// How much a piece of type `t` on `s` that must be surrounded on 3-4 sides loses for
/// being nearly enclosed (the enclosing sides it still misses: 1, 2 or 3).
#[inline]
fn enclosure(tables: &Tables, board: &[u8], s: usize, t: usize) -> i32 {
    let info = &tables.types[t];
    let mut needed = i32::from(info.capture_sides);
    let mut hostile_sides = 0;
    for &n in &tables.neighbours[s] {
        if n == NONE && info.capture_edge {
            needed -= 1;
        } else if hostile(tables, board, n, t) {
            hostile_sides += 1;
        }
    }
    let missing = needed - hostile_sides;
    if (1..=3).contains(&missing) {
        tables.weights.enclosure[(missing - 1) as usize]
    } else {
        0
    }
}

/// Whether the enemy of the piece of type `t` on `s` (captured on two sides) can enclose it
/// with one move: one side already hostile, the opposite side empty and reachable in one
/// rook move by an enemy piece that captures `t`.
fn capture_threat(tables: &Tables, board: &[u8], s: usize, t: usize) -> bool {
    let around = tables.neighbours[s];
    for direction in 0..4 {
        let (near, far) = (around[direction], around[(direction + 2) % 4]);
        if far == NONE || board[far as usize] != EMPTY || !hostile(tables, board, near, t) {
            continue;
        }
        // Who can reach `far` in one move? (The line back through `s` meets the piece
        // itself first, which is no capturer of its own side.)
        if reached_by_capturer(tables, board, far as usize, t) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests;
