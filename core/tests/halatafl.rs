//! Halatafl: step moves forward and sideways, compulsory chains of jump captures, and
//! the goals of each side, checked against a simple generator written here from the
//! description (not from the engine) and on hand-made positions.

use hnefatafl_core::{
    EndReason, Game, MoveError, Notation, PieceType, Player, Position, Rules, Setup, Square,
};

fn halatafl() -> Rules {
    Rules::parse(include_bytes!("../../data/rules/halatafl")).expect("the shipped file reads")
}

/// A board of the independent generator: 0 empty, 1 white (player 0, moves up), 2 black.
type Cells = [[u8; 7]; 7];

fn cells_of(position: &Position) -> Cells {
    let mut cells = [[0; 7]; 7];
    for (square, piece) in position.pieces() {
        // White is piece type 4, black 2.
        cells[usize::from(square.y())][usize::from(square.x())] =
            if piece.bit() == 4 { 1 } else { 2 };
    }
    cells
}

/// A move of the independent generator: the origin and every square landed on.
type Path = Vec<(usize, usize)>;

/// The moves of `side` (0 white, 1 black) by the description: if any jump is possible,
/// only the complete jump chains (each jumped piece leaves at once); otherwise one step
/// forward or sideways onto an empty square.
fn naive_moves(cells: &Cells, side: usize) -> Vec<Path> {
    let own = side as u8 + 1;
    let enemy = 2 - side as u8;
    let mut jumps = Vec::new();
    for y in 0..7 {
        for x in 0..7 {
            if cells[y][x] == own {
                let mut board = *cells;
                board[y][x] = 0;
                chains(&mut board, enemy, vec![(x, y)], &mut jumps);
            }
        }
    }
    if !jumps.is_empty() {
        return jumps;
    }
    let forward: isize = if side == 0 { -1 } else { 1 };
    let mut steps = Vec::new();
    for y in 0..7 {
        for x in 0..7 {
            if cells[y][x] != own {
                continue;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, forward)] {
                let (tx, ty) = (x as isize + dx, y as isize + dy);
                if (0..7).contains(&tx)
                    && (0..7).contains(&ty)
                    && cells[ty as usize][tx as usize] == 0
                {
                    steps.push(vec![(x, y), (tx as usize, ty as usize)]);
                }
            }
        }
    }
    steps
}

fn chains(board: &mut Cells, enemy: u8, path: Path, out: &mut Vec<Path>) {
    let (x, y) = *path.last().expect("a start");
    let mut went_on = false;
    for (dx, dy) in [(1isize, 0isize), (-1, 0), (0, 1), (0, -1)] {
        let (ox, oy) = (x as isize + dx, y as isize + dy);
        let (lx, ly) = (x as isize + 2 * dx, y as isize + 2 * dy);
        if !(0..7).contains(&lx) || !(0..7).contains(&ly) {
            continue;
        }
        let (ox, oy, lx, ly) = (ox as usize, oy as usize, lx as usize, ly as usize);
        if board[oy][ox] != enemy || board[ly][lx] != 0 {
            continue;
        }
        went_on = true;
        board[oy][ox] = 0;
        let mut longer = path.clone();
        longer.push((lx, ly));
        chains(board, enemy, longer, out);
        board[oy][ox] = enemy;
    }
    if !went_on && path.len() > 1 {
        out.push(path);
    }
}

/// Plays a path on the independent board; returns whether the game ended with it: the
/// piece ends on a corner of either end row (its own: a loss; the enemy's: a win).
fn naive_play(cells: &mut Cells, path: &Path) -> bool {
    let (fx, fy) = path[0];
    let piece = cells[fy][fx];
    cells[fy][fx] = 0;
    for pair in path.windows(2) {
        let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
        if ax.abs_diff(bx) + ay.abs_diff(by) == 2 {
            cells[(ay + by) / 2][(ax + bx) / 2] = 0;
        }
    }
    let (tx, ty) = *path.last().expect("a landing");
    cells[ty][tx] = piece;
    (tx == 0 || tx == 6) && (ty == 0 || ty == 6)
}

fn naive_perft(cells: &Cells, side: usize, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for path in naive_moves(cells, side) {
        let mut next = *cells;
        let ended = naive_play(&mut next, &path);
        total += if ended && depth > 1 {
            0
        } else {
            naive_perft(&next, 1 - side, depth - 1)
        };
    }
    total
}

fn path_of(mv: hnefatafl_core::Move) -> Path {
    let xy = |s: Square| (usize::from(s.x()), usize::from(s.y()));
    std::iter::once(xy(mv.from()))
        .chain(mv.landings().map(xy))
        .collect()
}

#[test]
fn perft_from_the_start_agrees_with_the_simple_generator() {
    let start = halatafl().start_position();
    let cells = cells_of(&start);
    for depth in 1..=7 {
        assert_eq!(
            start.perft(depth),
            naive_perft(&cells, 0, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn random_games_agree_with_the_simple_generator_move_by_move() {
    let rules = halatafl();
    for seed in 0..40u64 {
        let mut game = Game::new(rules.clone());
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while game.outcome().is_none() && game.ply() < 150 {
            let position = game.position().clone();
            let side = position.side_to_move().index();
            let mut engine: Vec<Path> = position.moves().map(path_of).collect();
            let mut naive = naive_moves(&cells_of(&position), side);
            engine.sort();
            naive.sort();
            assert_eq!(engine, naive, "seed {seed}, ply {}", game.ply());
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let moves: Vec<_> = game.legal_moves().collect();
            let mv = moves[(state % moves.len() as u64) as usize];
            let undo = game.play(mv).clone();
            assert_eq!(
                undo.captures().count(),
                mv.jumps().len(),
                "a jump takes one piece each"
            );
        }
    }
}

/// A position of halatafl from a diagram: `W` white, `B` black, `.` empty.
fn diagram(rows: [&str; 7], side: Player) -> Position {
    let rules = halatafl();
    let mut pieces = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.split_whitespace().enumerate() {
            let bit = match cell {
                "W" => 4,
                "B" => 2,
                _ => continue,
            };
            let square = Square::new(x as u8, y as u8).expect("a square");
            pieces.push((square, PieceType::from_bit(bit).expect("a bit")));
        }
    }
    Position::from_setup(&rules, &Setup::new(pieces, side)).expect("a position")
}

#[test]
fn a_chain_goes_on_backwards_too_and_must_be_complete() {
    // White on d2 jumps d3 onto d4, c4 onto b4, then back down over b3 onto b2.
    let mut position = diagram(
        [
            ". . . . . . B",
            ". . . . . . .",
            ". . . . . . .",
            ". . B . . . .",
            ". B . B . . .",
            ". . . W . . .",
            ". . . . . . .",
        ],
        Player::Zero,
    );
    let rules = position.rules().clone();
    let moves: Vec<String> = position
        .moves()
        .map(|mv| rules.format_move(mv, Notation::Algebraic))
        .collect();
    assert_eq!(moves, ["d2 d4 b4 b2"], "the only move is the whole chain");
    let partial = rules.parse_move(&["d2", "d4"]).expect("reads");
    assert_eq!(position.check_move(partial), Err(MoveError::MustJump));
    let partial = rules.parse_move(&["d2", "d4", "b4"]).expect("reads");
    assert_eq!(position.check_move(partial), Err(MoveError::NoSuchJump));
    let step = rules.parse_move(&["d2", "e2"]).expect("reads");
    assert_eq!(position.check_move(step), Err(MoveError::MustJump));
    let undo = position.play(rules.parse_move(&["d2", "d4", "b4", "b2"]).expect("reads"));
    assert_eq!(undo.captures().count(), 3);
    assert_eq!(position.pieces().count(), 2);
    position.take_back(&undo);
    assert_eq!(position.pieces().count(), 5);
}

#[test]
fn pieces_step_forward_or_sideways_only() {
    let position = diagram(
        [
            "B . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . W . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ],
        Player::Zero,
    );
    let rules = position.rules().clone();
    let mut moves: Vec<String> = position
        .moves()
        .map(|mv| rules.format_move(mv, Notation::Algebraic))
        .collect();
    moves.sort();
    assert_eq!(moves, ["d4 c4", "d4 d5", "d4 e4"]);
    let back = rules.parse_move(&["d4", "d3"]).expect("reads");
    assert!(position.check_move(back).is_err());
    let two = rules.parse_move(&["d4", "d6"]).expect("reads");
    assert!(position.check_move(two).is_err());
}

#[test]
fn the_enemy_corner_wins_and_the_own_corner_loses() {
    let corner = |rows, mv: [&str; 2]| {
        let mut game = Game::from_position(diagram(rows, Player::Zero));
        let rules = game.rules().clone();
        game.play(rules.parse_move(&mv).expect("reads"));
        game.outcome()
    };
    let win = corner(
        [
            ". W . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . B",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ],
        ["b7", "a7"],
    )
    .expect("the game ends");
    assert_eq!(win.winner, Some(Player::Zero));
    assert!(matches!(win.reason, EndReason::Escape(_)));
    let loss = corner(
        [
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . B",
            ". . . . . . .",
            ". . . . . . .",
            ". W . . . . .",
        ],
        ["b1", "a1"],
    )
    .expect("the game ends");
    assert_eq!(loss.winner, Some(Player::One));
    assert_eq!(
        loss.reason,
        EndReason::LosingSquare(PieceType::from_bit(4).expect("a bit"))
    );
    // Standing on his own corner from the start loses nothing: the start is not over.
    assert_eq!(halatafl().start_position().outcome(), None);
}

#[test]
fn the_whole_game_is_one_move_of_text_after_another() {
    // White steps onto the centre, black must take it, and so on; the saved game keeps
    // the jumps and replays.
    let rules = halatafl();
    let mut game = Game::new(rules.clone());
    game.play(rules.parse_move(&["d3", "d4"]).expect("reads"));
    let jump = rules.parse_move(&["d5", "d3"]).expect("reads");
    let undo = game
        .try_play(jump)
        .expect("the single jump, written with two squares");
    assert!(undo.mv().is_jump());
    let saved = hnefatafl_core::save::SavedGame::from_game(&game, "halatafl", Default::default());
    let replayed = saved.replay(&rules).expect("replays");
    assert_eq!(replayed.position(), game.position());
}
