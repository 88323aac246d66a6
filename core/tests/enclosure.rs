//! Property tests of the exit fort and encirclement verdicts on Copenhagen positions
//! (`data/rules/copenhagen`'s piece and square types on a 7x7 board):
//!
//! - both verdicts equal those of slow, plain implementations written from the text of
//!   docs/rules.md (hash sets, no bit tricks);
//! - every fort the engine sees survives an exhaustive search of the attackers' moves
//!   (the defenders standing still): no sequence of attacker moves captures the king or
//!   a piece of the wall around his inside, or brings an attacker into the inside.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::path::Path;

use hnefatafl_core::{EndReason, PieceType, Player, Position, Rules, Setup, Square};

const SIZE: usize = 7;

/// The shipped file's types on a 7x7 board with this start position (`pieces` as bits).
fn rules_for(pieces: &[u8]) -> Rules {
    let text = rules_text_for(pieces);
    Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The text of [`rules_for`].
fn rules_text_for(pieces: &[u8]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut kept = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        let starts_block = first == "pieces" || first == "squares";
        let skip = in_block || starts_block || first == "width" || first == "height";
        in_block = (in_block || starts_block) && line.trim_end().ends_with('\\');
        if !skip {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let squares: Vec<String> = (0..SIZE * SIZE)
        .map(|i| square_type(i % SIZE, i / SIZE).to_string())
        .collect();
    let pieces: Vec<String> = pieces.iter().map(u8::to_string).collect();
    format!(
        "width {SIZE}\nheight {SIZE}\npieces {}\nsquares {}\n{kept}",
        pieces.join(" "),
        squares.join(" ")
    )
}

/// 2 on the corners, 4 on the throne, 1 elsewhere.
fn square_type(x: usize, y: usize) -> u8 {
    let last = SIZE - 1;
    if (x == 0 || x == last) && (y == 0 || y == last) {
        2
    } else if x == SIZE / 2 && y == SIZE / 2 {
        4
    } else {
        1
    }
}

/// A small xorshift generator: the positions are the same on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const KING: u8 = 1;
const DEFENDER: u8 = 2;
const ATTACKER: u8 = 4;

/// Puts `bit` on a random empty ordinary square within `radius` of `(cx, cy)`.
fn scatter(
    board: &mut [u8],
    random: &mut Random,
    bit: u8,
    (cx, cy): (usize, usize),
    radius: usize,
) {
    for _ in 0..50 {
        let x = (cx + random.below(2 * radius + 1)).checked_sub(radius);
        let y = (cy + random.below(2 * radius + 1)).checked_sub(radius);
        if let (Some(x), Some(y)) = (x, y) {
            if x < SIZE && y < SIZE && square_type(x, y) == 1 && board[y * SIZE + x] == 0 {
                board[y * SIZE + x] = bit;
                return;
            }
        }
    }
}

/// A king on an edge with defenders around him and a few attackers anywhere.
fn fort_like(random: &mut Random) -> Vec<u8> {
    let mut board = vec![0u8; SIZE * SIZE];
    let along = 1 + random.below(SIZE - 2);
    let (x, y) = match random.below(4) {
        0 => (along, 0),
        1 => (along, SIZE - 1),
        2 => (0, along),
        _ => (SIZE - 1, along),
    };
    board[y * SIZE + x] = KING;
    for _ in 0..6 + random.below(6) {
        scatter(&mut board, random, DEFENDER, (x, y), 2);
    }
    for _ in 0..1 + random.below(2) {
        scatter(&mut board, random, ATTACKER, (SIZE / 2, SIZE / 2), SIZE / 2);
    }
    ensure_every_type(&mut board, random);
    board
}

/// The king and defenders inside a ring of attackers that may have gaps.
fn ring_like(random: &mut Random) -> Vec<u8> {
    let mut board = vec![0u8; SIZE * SIZE];
    let (left, top) = (random.below(2), random.below(2));
    let (right, bottom) = (SIZE - 1 - random.below(2), SIZE - 1 - random.below(2));
    for y in top..=bottom {
        for x in left..=right {
            let on_ring = x == left || x == right || y == top || y == bottom;
            let corner_of_ring = (x == left || x == right) && (y == top || y == bottom);
            if on_ring && !corner_of_ring && square_type(x, y) == 1 && random.below(12) != 0 {
                board[y * SIZE + x] = ATTACKER;
            }
        }
    }
    let centre = (SIZE / 2, SIZE / 2);
    board[(centre.1 + 1) * SIZE + centre.0] = KING;
    for _ in 0..1 + random.below(4) {
        scatter(&mut board, random, DEFENDER, centre, 1);
    }
    if random.below(5) == 0 {
        scatter(&mut board, random, DEFENDER, (0, SIZE / 2), 1);
    }
    ensure_every_type(&mut board, random);
    board
}

/// A rule file must use every declared piece type.
fn ensure_every_type(board: &mut [u8], random: &mut Random) {
    for bit in [DEFENDER, ATTACKER] {
        if !board.contains(&bit) {
            scatter(board, random, bit, (SIZE / 2, SIZE / 2), SIZE / 2);
        }
    }
}

type At = (usize, usize);

fn neighbours((x, y): At) -> impl Iterator<Item = At> {
    [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(move |(dx, dy)| {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            (0..SIZE as i32).contains(&nx).then_some(()).and(
                (0..SIZE as i32)
                    .contains(&ny)
                    .then_some((nx as usize, ny as usize)),
            )
        })
}

fn at_edge((x, y): At) -> bool {
    x == 0 || y == 0 || x == SIZE - 1 || y == SIZE - 1
}

fn owner(bit: u8) -> Option<Player> {
    match bit {
        0 => None,
        ATTACKER => Some(Player::Zero),
        _ => Some(Player::One),
    }
}

/// docs/rules.md, "Encirclement", read literally.
fn slow_encircled(board: &[u8]) -> bool {
    let get = |(x, y): At| board[y * SIZE + x];
    let mut seen: HashSet<At> = HashSet::new();
    let mut queue: VecDeque<At> = VecDeque::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            if owner(get((x, y))) == Some(Player::One) {
                seen.insert((x, y));
                queue.push_back((x, y));
            }
        }
    }
    if queue.is_empty() {
        return false;
    }
    while let Some(square) = queue.pop_front() {
        if at_edge(square) {
            return false;
        }
        for next in neighbours(square) {
            if owner(get(next)) != Some(Player::Zero) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    true
}

/// Whether an empty square of this type is hostile to a defender: corners and the
/// throne (`captures 7` in the file).
fn hostile(square: At) -> bool {
    square_type(square.0, square.1) != 1
}

/// docs/rules.md, "Exit fort", read literally for the file's defenders (custodial,
/// `capt_sides 2`, no `capt_edge`, `shieldwall`).
fn slow_fort(board: &[u8]) -> bool {
    let get = |(x, y): At| board[y * SIZE + x];
    let Some(king) = (0..SIZE * SIZE)
        .find(|&i| board[i] == KING)
        .map(|i| (i % SIZE, i / SIZE))
    else {
        return false;
    };
    if !at_edge(king) {
        return false;
    }
    // The king can move: an empty neighbour he may stop on (the king may stop anywhere).
    if !neighbours(king).any(|n| get(n) == 0) {
        return false;
    }
    let mut inside: HashSet<At> = HashSet::from([king]);
    let mut queue = VecDeque::from([king]);
    let mut border: BTreeSet<At> = BTreeSet::new();
    while let Some(square) = queue.pop_front() {
        for next in neighbours(square) {
            match owner(get(next)) {
                None => {
                    if inside.insert(next) {
                        queue.push_back(next);
                    }
                }
                Some(Player::Zero) => return false,
                Some(Player::One) => {
                    if next != king {
                        border.insert(next);
                    }
                }
            }
        }
    }
    let mut wall: BTreeSet<At> = (0..SIZE * SIZE)
        .filter(|&i| board[i] == DEFENDER)
        .map(|i| (i % SIZE, i / SIZE))
        .collect();
    loop {
        let holding: BTreeSet<At> = wall
            .iter()
            .copied()
            .filter(|&piece| holds(piece, &inside, &wall))
            .collect();
        if holding == wall {
            break;
        }
        wall = holding;
    }
    border.is_subset(&wall)
}

fn holds(piece: At, inside: &HashSet<At>, wall: &BTreeSet<At>) -> bool {
    let safe = |square: Option<At>| match square {
        None => true,
        Some(square) => wall.contains(&square) || (inside.contains(&square) && !hostile(square)),
    };
    let (x, y) = (piece.0 as i32, piece.1 as i32);
    let at = |dx: i32, dy: i32| {
        let (nx, ny) = (x + dx, y + dy);
        ((0..SIZE as i32).contains(&nx) && (0..SIZE as i32).contains(&ny))
            .then_some((nx as usize, ny as usize))
    };
    // Custodial: captured only between two enclosing sides on one axis.
    let row_open = !safe(at(-1, 0)) && !safe(at(1, 0));
    let column_open = !safe(at(0, -1)) && !safe(at(0, 1));
    if row_open || column_open {
        return false;
    }
    // Shieldwall, along each edge the piece stands on.
    let edges = [
        (y == 0, (0, 1), (1, 0)),
        (y == SIZE as i32 - 1, (0, -1), (1, 0)),
        (x == 0, (1, 0), (0, 1)),
        (x == SIZE as i32 - 1, (-1, 0), (0, 1)),
    ];
    for (on_edge, (fx, fy), (ax, ay)) in edges {
        if !on_edge {
            continue;
        }
        let front_open = |(px, py): (i32, i32)| {
            let front = (px + fx, py + fy);
            let front = (front.0 as usize, front.1 as usize);
            !inside.contains(&front) && !wall.contains(&front)
        };
        let mut run_open = front_open((x, y));
        for sign in [-1, 1] {
            let (mut px, mut py) = (x, y);
            loop {
                let (nx, ny) = (px + sign * ax, py + sign * ay);
                if !(0..SIZE as i32).contains(&nx) || !(0..SIZE as i32).contains(&ny) {
                    run_open = false;
                    break;
                }
                let next = (nx as usize, ny as usize);
                if wall.contains(&next) {
                    run_open &= front_open((nx, ny));
                    (px, py) = (nx, ny);
                    continue;
                }
                if inside.contains(&next) && !hostile(next) {
                    run_open = false;
                }
                break;
            }
        }
        if run_open {
            return false;
        }
    }
    true
}

/// The piece bits of a position, row by row (0: empty).
fn bits(position: &Position) -> Vec<u8> {
    position
        .board()
        .map(|piece| piece.map_or(0, |p| p.bit()))
        .collect()
}

/// The attackers to move on this board.
fn attackers_to_move(rules: &Rules, board: &[u8]) -> Position {
    let pieces = board
        .iter()
        .enumerate()
        .filter_map(|(index, &bit)| {
            let square = Square::new((index % SIZE) as u8, (index / SIZE) as u8)?;
            Some((square, PieceType::from_bit(bit)?))
        })
        .collect();
    Position::from_setup(rules, &Setup::new(pieces, Player::Zero)).expect("a valid set-up")
}

/// Whether some sequence of attacker moves, the king's side standing still, captures the
/// king or a piece around his inside, or brings an attacker into the inside: a search over
/// every arrangement of the attackers they can reach. The king's side never moves: each
/// arrangement is set up anew with the attackers to move.
fn attackers_can_break(start: &[u8]) -> bool {
    let rules = rules_for(start);
    let index = |square: Square| usize::from(square.y()) * SIZE + usize::from(square.x());
    let king = start.iter().position(|&bit| bit == KING).expect("a king");
    let mut inside: HashSet<usize> = HashSet::from([king]);
    let mut queue = VecDeque::from([king]);
    while let Some(square) = queue.pop_front() {
        for (x, y) in neighbours((square % SIZE, square / SIZE)) {
            if start[y * SIZE + x] == 0 && inside.insert(y * SIZE + x) {
                queue.push_back(y * SIZE + x);
            }
        }
    }
    // The pieces around the inside, and the king: capturing one breaks the fort. Other
    // pieces of the king's side may fall on the way.
    let border: HashSet<usize> = inside
        .iter()
        .flat_map(|&square| neighbours((square % SIZE, square / SIZE)))
        .map(|(x, y)| y * SIZE + x)
        .filter(|&square| start[square] != 0)
        .chain([king])
        .collect();
    let mut seen: HashSet<Vec<u8>> = HashSet::from([start.to_vec()]);
    let mut boards = VecDeque::from([start.to_vec()]);
    while let Some(board) = boards.pop_front() {
        let position = attackers_to_move(&rules, &board);
        for mv in position.moves() {
            let mut next = position.clone();
            let undo = next.play(mv);
            let breaks_wall = undo
                .captures()
                .any(|(square, _)| border.contains(&index(square)));
            if breaks_wall || inside.contains(&index(mv.to())) {
                return true;
            }
            let board = bits(&next);
            if seen.insert(board.clone()) {
                boards.push_back(board);
            }
        }
    }
    false
}

#[test]
fn fort_and_encirclement_verdicts_agree_with_the_plain_reading() {
    let mut random = Random(0x5EED_F027);
    let (mut forts, mut rings, mut positions, mut searched) = (0, 0, 0, 0);
    for round in 0..4000 {
        let board = if round % 2 == 0 {
            fort_like(&mut random)
        } else {
            ring_like(&mut random)
        };
        let rules = rules_for(&board);
        let position = rules.start_position();
        let verdict = position.outcome_with(true).map(|o| o.reason);
        let fort = slow_fort(&board);
        let ring = !fort && slow_encircled(&board);
        assert_eq!(
            verdict
                == Some(EndReason::ExitFort(
                    PieceType::from_bit(KING).expect("a bit")
                )),
            fort,
            "fort: {board:?} {verdict:?}"
        );
        assert_eq!(
            verdict == Some(EndReason::Encircled),
            ring,
            "ring: {board:?} {verdict:?}"
        );
        // A fort with one or two attackers is checked against every line they can play.
        let attackers = board.iter().filter(|&&bit| bit == ATTACKER).count();
        if fort && attackers <= 2 && searched < 25 {
            assert!(!attackers_can_break(&board), "a fort broken: {board:?}");
            searched += 1;
        }
        forts += usize::from(fort);
        rings += usize::from(ring);
        positions += 1;
    }
    println!("{forts} forts ({searched} searched), {rings} rings in {positions} positions");
    // Both verdicts come up often enough for the comparison to mean something.
    assert!(
        forts >= 40 && rings >= 40 && searched >= 10,
        "{forts} forts ({searched} searched), {rings} rings in {positions}"
    );
}

/// Rules of `size` x `size` ordinary squares where the attackers (player 0) win by
/// encirclement and nothing else ends the game while the king stands.
fn plain_encircle_rules(size: usize, board: &[u8]) -> Rules {
    let pieces: Vec<String> = board.iter().map(u8::to_string).collect();
    let text = format!(
        "id ring\nname ring\nwidth {size}\nheight {size}\nencircle 0\npieces {}\nsquares {}\n\
         piece bit 1\npiece 1 owner 1\npiece 1 captures 4\npiece 1 capt_sides 4\n\
         piece 1 capt_loss\npiece 1 occupies 1\n\
         piece bit 2\npiece 2 owner 1\npiece 2 captures 4\npiece 2 custodial\n\
         piece 2 occupies 1\n\
         piece bit 4\npiece 4 owner 0\npiece 4 captures 3\npiece 4 custodial\n\
         piece 4 occupies 1\nsquare bit 1\n",
        pieces.join(" "),
        vec!["1"; size * size].join(" ")
    );
    Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// docs/rules.md, "Encirclement", read literally on a `size` x `size` board.
fn slow_encircled_on(size: usize, board: &[u8]) -> bool {
    let inside = |x: i64, y: i64| (0..size as i64).contains(&x) && (0..size as i64).contains(&y);
    let mut seen: HashSet<(i64, i64)> = HashSet::new();
    let mut queue: VecDeque<(i64, i64)> = VecDeque::new();
    for (i, &bit) in board.iter().enumerate() {
        if bit == KING || bit == DEFENDER {
            let at = ((i % size) as i64, (i / size) as i64);
            seen.insert(at);
            queue.push_back(at);
        }
    }
    if queue.is_empty() {
        return false;
    }
    while let Some((x, y)) = queue.pop_front() {
        if x == 0 || y == 0 || x == size as i64 - 1 || y == size as i64 - 1 {
            return false;
        }
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            let open = inside(nx, ny) && board[ny as usize * size + nx as usize] != ATTACKER;
            if open && seen.insert((nx, ny)) {
                queue.push_back((nx, ny));
            }
        }
    }
    true
}

/// The encirclement verdict on boards that need two to sixteen words of a square bitset
/// (the 7x7 test above needs one; the fill is compiled apart for 1, 2, 3, 4, up to 8 and
/// up to 16 words, and each size here takes one of them): rings of attackers, with and
/// without gaps, at random places, so that rings and their gaps cross the words'
/// boundaries.
#[test]
fn encirclement_on_large_boards_agrees_with_the_plain_reading() {
    let mut random = Random(0xB16_B0A4D);
    let (mut rings, mut open) = (0, 0);
    for size in [9, 11, 13, 15, 17, 19, 31] {
        for _ in 0..300 {
            let mut board = vec![0u8; size * size];
            let left = random.below(size / 2);
            let top = random.below(size / 2);
            let right = size / 2 + 1 + random.below(size - size / 2 - 1);
            let bottom = size / 2 + 1 + random.below(size - size / 2 - 1);
            let gaps = random.below(3);
            for y in top..=bottom {
                for x in left..=right {
                    let on_ring = x == left || x == right || y == top || y == bottom;
                    if on_ring && (gaps == 0 || random.below(40) != 0) {
                        board[y * size + x] = ATTACKER;
                    }
                }
            }
            let (cx, cy) = ((left + right) / 2, (top + bottom) / 2);
            board[cy * size + cx] = KING;
            for _ in 0..1 + random.below(6) {
                let x = left + 1 + random.below((right - left).max(2) - 1);
                let y = top + 1 + random.below((bottom - top).max(2) - 1);
                if board[y * size + x] == 0 {
                    board[y * size + x] = DEFENDER;
                }
            }
            if random.below(6) == 0 {
                let i = random.below(size * size);
                if board[i] == 0 {
                    board[i] = DEFENDER;
                }
            }
            if !board.contains(&DEFENDER) {
                board[cy * size + cx + 1] = DEFENDER;
            }
            let rules = plain_encircle_rules(size, &board);
            let verdict = rules.start_position().outcome_with(true).map(|o| o.reason);
            let expected = slow_encircled_on(size, &board);
            assert_eq!(
                verdict == Some(EndReason::Encircled),
                expected,
                "{size}x{size}: {board:?} {verdict:?}"
            );
            if expected {
                rings += 1;
            } else {
                open += 1;
            }
        }
    }
    assert!(rings >= 200 && open >= 200, "{rings} rings, {open} open");
}

/// A fort that holds under the shipped Copenhagen rules (`a_fort_that_cannot_be_broken`
/// in tests/copenhagen.rs has its twin) is no fort when the attackers capture the
/// defenders by jumping over them: nothing then keeps a wall piece on the board.
#[test]
fn a_wall_piece_that_an_enemy_can_jump_does_not_hold() {
    // Bottom edge of the 7x7 board: the king on the edge, his inside closed by four
    // defenders, an attacker far away.
    #[rustfmt::skip]
    let board: Vec<u8> = vec![
        0, 0, 0, 4, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0,
        0, 0, 2, 2, 0, 0, 0,
        0, 2, 0, 0, 2, 0, 0,
        0, 2, 1, 0, 2, 0, 0,
    ];
    let rules = rules_for(&board);
    let fort = Some(EndReason::ExitFort(
        PieceType::from_bit(KING).expect("a bit"),
    ));
    assert_eq!(
        rules.start_position().outcome_with(true).map(|o| o.reason),
        fort
    );
    assert!(slow_fort(&board));

    let jumping = rules_with_jumping_attackers(&board);
    assert_eq!(
        jumping
            .start_position()
            .outcome_with(true)
            .map(|o| o.reason),
        None
    );
}

/// [`rules_for`] with attackers that also capture defenders by jumping over them.
fn rules_with_jumping_attackers(board: &[u8]) -> Rules {
    let text =
        rules_text_for(board).replace("piece 4 custodial", "piece 4 custodial\npiece 4 jump 2");
    Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}
