//! A naive reading of the movement rules (docs/rules.md, "Movement"), independent of the engine's tables:
//! the reference that the engine's move generation and perft are checked against.

use hnefatafl_core::{Move, Position, Rules};

/// The moves a naive reading of docs/rules.md's "Movement" allows: every pair of squares on one line, the
/// path walked square by square (with docs/rules.md's `pass`: squares passed over may
/// also be of a type the piece may pass but not stop on).
pub fn naive_moves(rules: &Rules, position: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    let (width, height) = (rules.width(), rules.height());
    for fy in 0..height {
        for fx in 0..width {
            let Some(from) = rules.square_at(fx, fy) else {
                continue;
            };
            let Some(piece) = position.piece_at(from) else {
                continue;
            };
            let rule = rules.piece_rule(piece).expect("declared");
            if rule.owner() != position.side_to_move() {
                continue;
            }
            for ty in 0..height {
                for tx in 0..width {
                    if (tx == fx) == (ty == fy) {
                        continue;
                    }
                    let to = rules.square_at(tx, ty).expect("inside");
                    if naive_path_ok(
                        rules,
                        position,
                        rule.occupies().bits(),
                        rule.pass().bits(),
                        rule.noreturn().bits(),
                        (fx, fy),
                        (tx, ty),
                    ) {
                        moves.push(Move::new(from, to));
                    }
                }
            }
        }
    }
    moves
}

fn naive_path_ok(
    rules: &Rules,
    position: &Position,
    occupies: u8,
    pass: u8,
    noreturn: u8,
    from: (u8, u8),
    to: (u8, u8),
) -> bool {
    let dx = i32::from(to.0) - i32::from(from.0);
    let dy = i32::from(to.1) - i32::from(from.1);
    let (sx, sy) = (dx.signum(), dy.signum());
    let steps = dx.abs().max(dy.abs());
    let type_bit = |x: i32, y: i32| -> u8 {
        let square = rules.square_at(x as u8, y as u8).expect("inside");
        rules.square_type(square).map_or(0, |t| t.bit())
    };
    let (mut x, mut y) = (i32::from(from.0), i32::from(from.1));
    for step in 1..=steps {
        let previous = type_bit(x, y);
        x += sx;
        y += sy;
        let square = rules.square_at(x as u8, y as u8).expect("inside");
        if position.piece_at(square).is_some() {
            return false;
        }
        let here = type_bit(x, y);
        // A square passed over may also be of a `pass` type; the destination may not.
        let allowed = if step == steps {
            occupies
        } else {
            occupies | pass
        };
        if here == 0 || allowed & here == 0 {
            return false;
        }
        if previous & noreturn == 0 && here & noreturn != 0 {
            return false;
        }
    }
    true
}

/// Counts the move sequences of `depth` plies with [`naive_moves`], with no move after an
/// escape or a lost `capt_loss` type (and none where the side to move has no move).
pub fn naive_perft(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.outcome_with(true).is_some() {
        return 0;
    }
    let rules = position.rules().clone();
    let mut total = 0;
    for mv in naive_moves(&rules, position) {
        let undo = position.play_unchecked(mv);
        total += naive_perft(position, depth - 1);
        position.take_back(&undo);
    }
    total
}
