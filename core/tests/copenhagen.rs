//! The shipped Copenhagen hnefatafl (`data/rules/copenhagen`): perft from the start, and
//! every edge case of its new rules on small boards that keep the file's piece and square
//! types (passing the throne, shieldwalls, exit forts, encirclement, repetition, draws).
//!
//! Diagrams: one string per row, cells separated by spaces, `y 0` at the top. `.` an
//! empty ordinary square, `+` an empty corner (escape, hostile), `t` the empty throne;
//! `A` an attacker (player 0, moves first), `D` a defender, `K` the king (player 1), `k`
//! the king on the throne. Every diagram holds each piece and square type, since a rule
//! file must use every type it declares.

mod common;

use std::path::Path;

use common::at::{At, mv, occupied, play};
use common::{Diagram, ended, parse, piece};
use hnefatafl_core::{EndReason, Game, Move, MoveError, Outcome, PieceType, Player, Rules, Square};

fn shipped_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn copenhagen() -> Rules {
    Rules::parse(shipped_text().as_bytes()).unwrap_or_else(|e| panic!("copenhagen: {e}"))
}

/// The shipped file's rules on the board of a diagram, with `extra` lines added (and the
/// general lines named in `drop` left out).
fn board_with(rows: &[&str], extra: &str, drop: &[&str]) -> Rules {
    let mut kept = String::new();
    let mut in_block = false;
    for line in shipped_text().lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        let starts_block = first == "pieces" || first == "squares";
        let skip = in_block
            || starts_block
            || first == "width"
            || first == "height"
            || drop.contains(&first);
        in_block = (in_block || starts_block) && line.trim_end().ends_with('\\');
        if !skip {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let diagram = Diagram::read(rows, |cell| match cell {
        "." => (0, 1),
        "+" => (0, 2),
        "t" => (0, 4),
        "A" => (4, 1),
        "D" => (2, 1),
        "K" => (1, 1),
        "k" => (1, 4),
        other => panic!("unknown cell {other}"),
    });
    parse(&format!("{}{kept}{extra}", diagram.board_lines()))
}

fn board(rows: &[&str]) -> Rules {
    board_with(rows, "", &[])
}

fn king() -> PieceType {
    piece(1)
}

/// Perft of depths 1 to 4 from the start (repetition ignored): the figures on which two
/// independent Copenhagen engines agree. Depth 4 takes about a second in the test
/// profile; it is the first depth at which pieces pass over the empty throne often.
#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let rules = copenhagen();
    let start = rules.start_position();
    let counts: Vec<u64> = (1..=4).map(|depth| start.perft(depth)).collect();
    assert_eq!(counts, [116, 6_788, 806_344, 50_456_804]);
}

#[test]
fn the_shipped_file_names_its_piece_types() {
    let rules = copenhagen();
    let names: Vec<Option<&str>> = rules
        .piece_rules()
        .iter()
        .map(|rule| rules.piece_name(rule.piece()))
        .collect();
    assert_eq!(names, [Some("king"), Some("defender"), Some("attacker")]);
}

// Passing over the empty throne.

const THRONE_ROW: [&str; 7] = [
    "+ . . . . . +",
    ". . . . . . .",
    ". . . . . . .",
    "D . . t . . .",
    ". . . . . . .",
    ". . . . . . A",
    "+ . . . . K +",
];

#[test]
fn a_defender_passes_over_the_empty_throne_but_cannot_stop_on_it() {
    let rules = board(&THRONE_ROW);
    let mut game = play(&rules, &[((6, 5), (6, 4))]);
    assert_eq!(
        game.check(mv(&rules, (0, 3), (3, 3))),
        Err(MoveError::CannotEnter(
            rules.square_at(3, 3).expect("throne")
        ))
    );
    assert!(game.try_play(mv(&rules, (0, 3), (5, 3))).is_ok());
    // The moves listed agree: beyond the throne, never on it.
    let mut listed = Game::new(rules.clone());
    listed.play(mv(&rules, (6, 5), (6, 4)));
    let targets: Vec<Move> = listed.legal_moves().collect();
    assert!(targets.contains(&mv(&rules, (0, 3), (4, 3))));
    assert!(!targets.contains(&mv(&rules, (0, 3), (3, 3))));
}

#[test]
fn the_king_may_stop_on_the_throne_and_nothing_passes_the_occupied_throne() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . . . . .",
        ". . . . . . .",
        "D . . t . . .",
        ". . . . . . .",
        ". . . . . . A",
        "+ . . K . . +",
    ]);
    let game = play(&rules, &[((6, 5), (6, 4)), ((3, 6), (3, 3))]);
    assert!(occupied(&game, (3, 3)));
    let mut game = game;
    game.play(mv(&rules, (6, 4), (6, 5)));
    assert_eq!(
        game.check(mv(&rules, (0, 3), (5, 3))),
        Err(MoveError::Blocked(rules.square_at(3, 3).expect("throne")))
    );
}

// Shieldwalls: the attackers move first, so each case starts with an attacker's move.

#[test]
fn a_shieldwall_between_two_attackers_is_captured_by_the_bracketing_move() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . K",
        ". . . . . . .",
        ". . A A . . .",
        "+ A D D . . A",
    ]);
    let game = play(&rules, &[((6, 6), (4, 6))]);
    assert!(!occupied(&game, (2, 6)) && !occupied(&game, (3, 6)));
    assert_eq!(game.history()[0].captures().count(), 2);
}

#[test]
fn a_corner_stands_in_for_one_bracket() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . K",
        ". . . . . . .",
        ". A A . . . .",
        "+ D D . . . A",
    ]);
    let game = play(&rules, &[((6, 6), (3, 6))]);
    assert!(!occupied(&game, (1, 6)) && !occupied(&game, (2, 6)));
}

#[test]
fn the_king_in_the_row_is_not_captured_but_the_others_are() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . A A A . .",
        "+ A D K D . A",
    ]);
    let game = play(&rules, &[((6, 6), (5, 6))]);
    assert!(!occupied(&game, (2, 6)) && !occupied(&game, (4, 6)));
    assert!(occupied(&game, (3, 6)), "the king stays");
    assert!(game.outcome().is_none());
}

#[test]
fn the_king_may_be_a_bracket_of_the_defenders_shieldwall() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . .",
        "A . . . . . .",
        ". . D D . . D",
        "+ K A A . . .",
    ]);
    let game = play(
        &rules,
        &[((0, 4), (0, 3)), ((6, 5), (6, 6)), ((0, 3), (0, 2))],
    );
    // The defender's move to 6 6 did not bracket: 4 6 and 5 6 are empty.
    assert!(occupied(&game, (2, 6)) && occupied(&game, (3, 6)));
    let rules2 = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . .",
        "A . . . . . .",
        ". . D D . . .",
        "+ K A A . D .",
    ]);
    let game = play(&rules2, &[((0, 4), (0, 3)), ((5, 6), (4, 6))]);
    assert!(!occupied(&game, (2, 6)) && !occupied(&game, (3, 6)));
}

#[test]
fn closing_the_front_instead_of_a_bracket_captures_nothing() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . K",
        ". . . A . . .",
        ". . A . . . .",
        "+ A D D A . .",
    ]);
    // The row is bracketed and the last front piece arrives: no shieldwall.
    let game = play(&rules, &[((3, 4), (3, 5))]);
    assert!(occupied(&game, (2, 6)) && occupied(&game, (3, 6)));
}

#[test]
fn a_row_with_an_open_front_is_not_a_shieldwall() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . t . . .",
        ". . . . . . .",
        ". . . . . . K",
        ". . . . . . .",
        ". . A . . . .",
        "+ A D D . . A",
    ]);
    let game = play(&rules, &[((6, 6), (4, 6))]);
    assert!(occupied(&game, (2, 6)) && occupied(&game, (3, 6)));
}

// Exit forts.

/// A fort on the bottom edge: every wall piece has, on each axis, a side that no
/// attacker can ever fill. The defender at 3 1 closes it by passing the throne.
const FORT: [&str; 7] = [
    "+ . . . . . +",
    ". . . D . . .",
    ". . D . . . .",
    ". . . t . . A",
    ". . . . . . .",
    ". D . . D . .",
    "+ D K . D . +",
];

#[test]
fn a_fort_that_cannot_be_broken_wins_for_the_king() {
    let rules = board(&FORT);
    let game = play(&rules, &[((6, 3), (6, 2)), ((3, 1), (3, 4))]);
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
    let game = play(
        &rules,
        &[
            ((6, 3), (6, 2)),
            ((3, 1), (3, 4)),
            ((6, 2), (6, 3)),
            ((2, 2), (2, 4)),
        ],
    );
    assert_eq!(
        game.outcome(),
        ended(Some(Player::One), EndReason::ExitFort(king()))
    );
}

#[test]
fn a_fort_with_a_wall_piece_that_can_be_captured_does_not_win() {
    // The inside (3 5, 4 6 and the king's square) is closed, but the defender at 3 4 has
    // no safe side along its row: attackers at 2 4 and 4 4 would capture it.
    let rules = board(&[
        "+ . . . . . +",
        ". . D . . . .",
        ". . . . . . .",
        ". . . t . . A",
        ". . . D . . .",
        ". . D . D . .",
        "+ . D K . D +",
    ]);
    let game = play(&rules, &[((6, 3), (6, 2))]);
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
    // A defender at 2 4 gives it a wall neighbour: now the fort stands.
    let game = play(&rules, &[((6, 3), (6, 2)), ((2, 1), (2, 4))]);
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::ExitFort(king()))
    );
}

#[test]
fn a_fort_holds_beside_an_attacker_but_not_when_one_borders_the_inside() {
    // The attacker at 5 6 touches only the wall: the fort stands from the start.
    let rules = board(&[
        "+ . . . . . +",
        ". . . . . . .",
        ". . . . . . .",
        ". . . t . . A",
        ". . D D . . .",
        ". D . . D . .",
        "+ D K . D A +",
    ]);
    assert_eq!(
        Game::new(rules).outcome().map(|o| o.reason),
        Some(EndReason::ExitFort(king()))
    );
    // The attacker at 3 5 stands on an inside square's side (it is inside): no fort.
    let rules = board(&[
        "+ . . . . . +",
        ". . . . . . .",
        ". . . . . . .",
        ". . . t . . A",
        ". . D D . . .",
        ". D . A D . .",
        "+ D K . D . +",
    ]);
    assert!(Game::new(rules).outcome().is_none());
}

#[test]
fn a_king_that_cannot_move_has_no_fort() {
    let rules = board(&[
        "+ . . . . . +",
        ". . . . . . .",
        ". . . . . . .",
        ". . . t . . A",
        ". . . . . . .",
        ". . D . . . .",
        "+ D K D . . +",
    ]);
    let game = play(&rules, &[((6, 3), (6, 4))]);
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
}

// Encirclement.

const RING: [&str; 7] = [
    "+ . . . . . +",
    ". . A A A . .",
    ". A . D . A .",
    ". A D k . A .",
    ". A . . . A .",
    ". . A A . . .",
    "+ . . . A . +",
];

#[test]
fn closing_the_ring_around_every_defender_wins_for_the_attackers() {
    let rules = board(&RING);
    assert!(Game::new(rules.clone()).outcome().is_none(), "a gap at 4 5");
    let game = play(&rules, &[((4, 6), (4, 5))]);
    assert_eq!(
        game.outcome(),
        ended(Some(Player::Zero), EndReason::Encircled)
    );
}

#[test]
fn a_defender_outside_the_ring_keeps_the_game_going() {
    let mut rows = RING;
    rows[0] = "+ . . . . D +";
    let rules = board(&rows);
    let game = play(&rules, &[((4, 6), (4, 5))]);
    assert!(game.outcome().is_none(), "{:?}", game.outcome());
}

// Repetition and draws. The attacker at 6 3 and the defender at 0 3 walk back and forth:
// after four plies the start position occurs again.

const SHUFFLE: [&str; 7] = [
    "+ . . . . . +",
    ". . . . . . .",
    ". . . . . . .",
    "D . . t . . A",
    ". . . . . . .",
    ". . . . . . .",
    "+ . . K . . +",
];

fn shuffle(rules: &Rules, rounds: usize) -> Game {
    let round = [
        ((6, 3), (6, 2)),
        ((0, 3), (0, 2)),
        ((6, 2), (6, 3)),
        ((0, 2), (0, 3)),
    ];
    let moves: Vec<(At, At)> = round.iter().copied().cycle().take(4 * rounds).collect();
    play(rules, &moves)
}

fn with_repetition(extra: &str) -> Rules {
    board_with(&SHUFFLE, extra, &["repetition", "repetition_loser"])
}

/// The king's side has lost by repetition.
const KINGS_SIDE_LOSES: Option<Outcome> = ended(Some(Player::Zero), EndReason::Repetition);

#[test]
fn the_shipped_rule_makes_the_fourth_occurrence_a_loss_for_the_kings_side() {
    let rules = board(&SHUFFLE);
    // The start occurs again after each round, the defender's move completing it.
    assert!(
        shuffle(&rules, 1).outcome().is_none(),
        "the second occurrence"
    );
    let third = shuffle(&rules, 2);
    assert!(third.outcome().is_none(), "the third occurrence");
    assert!(third.legal_moves().count() > 0, "no move is refused");
    assert_eq!(shuffle(&rules, 3).outcome(), KINGS_SIDE_LOSES);
}

#[test]
fn the_shipped_rule_loses_for_the_kings_side_when_the_attackers_repeat() {
    // The attacker steps to 6 1 first; from then on the position after each of his
    // moves back to 6 1 is the one that recurs, so his move completes each occurrence:
    //
    //   + . . . . . +
    //   . . . . . . A   <- the attacker walks 6 1 / 6 2, the defender 0 3 / 0 2
    //   . . . . . . .
    //   D . . t . . .
    //   . . . . . . .
    //   . . . . . . .
    //   + . . K . . +
    let rules = board(&SHUFFLE);
    let round = [
        ((0, 3), (0, 2)),
        ((6, 1), (6, 2)),
        ((0, 2), (0, 3)),
        ((6, 2), (6, 1)),
    ];
    let game = |rounds: usize| {
        let mut moves = vec![((6, 3), (6, 1))];
        moves.extend(round.iter().copied().cycle().take(4 * rounds));
        play(&rules, &moves)
    };
    let third = game(2);
    assert_eq!(third.side_to_move(), Player::One);
    assert!(third.outcome().is_none(), "the third occurrence");
    assert_eq!(game(3).outcome(), KINGS_SIDE_LOSES);
}

#[test]
fn a_repetition_without_a_loser_is_a_draw() {
    let rules = with_repetition("repetition 2\n");
    assert_eq!(
        shuffle(&rules, 1).outcome(),
        ended(None, EndReason::Repetition)
    );
}

#[test]
fn a_repetition_can_lose_for_the_player_who_made_it() {
    // The fourth ply, by player 1, completes the second occurrence.
    let rules = with_repetition("repetition 2\nrepetition_loser mover\n");
    assert_eq!(
        shuffle(&rules, 1).outcome().and_then(|o| o.winner),
        Some(Player::Zero)
    );
    // Three plies later player 0 completes one: the attacker goes back first.
    let rules = with_repetition("repetition 2\nrepetition_loser mover\n");
    let game = play(
        &rules,
        &[
            ((6, 3), (6, 2)),
            ((0, 3), (0, 2)),
            ((6, 2), (6, 1)),
            ((0, 2), (0, 3)),
            ((6, 1), (6, 2)),
        ],
    );
    assert_eq!(game.outcome().map(|o| o.winner), Some(Some(Player::One)));
}

#[test]
fn a_repetition_can_lose_for_a_named_player_whoever_made_it() {
    let rules = with_repetition("repetition 2\nrepetition_loser 0\n");
    assert_eq!(
        shuffle(&rules, 1).outcome().and_then(|o| o.winner),
        Some(Player::One)
    );
}

#[test]
fn repetition_and_forbid_repeat_exclude_each_other() {
    let text = shipped_text() + "forbid_repeat\n";
    let error = Rules::parse(text.as_bytes()).expect_err("both rules");
    assert_eq!(error.code(), "RVALID");
    assert!(error.to_string().contains("repetition"), "{error}");
}

#[test]
fn plies_without_a_capture_draw_the_game() {
    let rules = board_with(&SHUFFLE, "draw_plies 3\n", &["draw_plies"]);
    let game = play(&rules, &[((6, 3), (6, 2)), ((0, 3), (0, 2))]);
    assert!(game.outcome().is_none());
    let game = play(
        &rules,
        &[((6, 3), (6, 2)), ((0, 3), (0, 2)), ((6, 2), (6, 1))],
    );
    assert_eq!(game.outcome(), ended(None, EndReason::NoCapture));
}

#[test]
fn a_capture_starts_the_count_again() {
    let rules = board_with(
        &[
            "+ . . . . . +",
            ". . . . . . .",
            ". . . . . . .",
            "D . . t . . A",
            ". . . . . . .",
            "A D . . . . .",
            "+ . . K . . +",
        ],
        "draw_plies 3\n",
        &["draw_plies"],
    );
    // Two quiet plies, then the attacker captures the defender at 1 5 against 0 5.
    let mut moves = vec![((6, 3), (6, 5)), ((0, 3), (0, 2)), ((6, 5), (2, 5))];
    let game = play(&rules, &moves);
    assert!(!occupied(&game, (1, 5)), "captured");
    moves.extend([((0, 2), (0, 1)), ((2, 5), (2, 4))]);
    assert!(play(&rules, &moves).outcome().is_none(), "two quiet plies");
    moves.push(((0, 1), (0, 2)));
    assert_eq!(
        play(&rules, &moves).outcome().map(|o| o.reason),
        Some(EndReason::NoCapture)
    );
}

#[test]
fn a_game_neither_player_can_win_is_drawn() {
    let text = |pieces: &str| {
        format!(
            "id men\nname Men\nwidth 4\nheight 4\ndraw_no_win\npieces {pieces}\n\
             squares 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n\
             piece bit 1\npiece 1 owner 0\npiece 1 captures 2\npiece 1 custodial\n\
             piece 1 capt_loss\npiece 1 occupies 1\n\
             piece bit 2\npiece 2 owner 1\npiece 2 captures 1\npiece 2 custodial\n\
             piece 2 capt_loss\npiece 2 occupies 1\nsquare bit 1\n"
        )
    };
    let one_each = Rules::parse(text("1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2").as_bytes()).expect("valid");
    assert_eq!(Game::new(one_each).outcome(), ended(None, EndReason::NoWin));
    let two_against_one =
        Rules::parse(text("1 0 0 1 0 0 0 0 0 0 0 0 0 0 0 2").as_bytes()).expect("valid");
    assert_eq!(Game::new(two_against_one).outcome(), None);
}

/// The rule lines of a file without its header, name, board size and layout.
fn rule_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        let starts_block = first == "pieces" || first == "squares";
        let skip = in_block
            || starts_block
            || first.starts_with('#')
            || ["id", "name", "width", "height", ""].contains(&first);
        in_block = (in_block || starts_block) && line.trim_end().ends_with('\\');
        if !skip {
            lines.push(line);
        }
    }
    lines
}

#[test]
fn copenhagen13_plays_the_copenhagen_rules_on_the_larger_board() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/copenhagen13");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(rule_lines(&text), rule_lines(&shipped_text()));
    let rules = Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("copenhagen13: {e}"));
    assert_eq!((rules.width(), rules.height()), (13, 13));
    let start = rules.start_position();
    let count = |bit| start.count(PieceType::from_bit(bit).expect("a type"));
    // hnefatafl.org's 13x13 start: 32 attackers, 16 defenders and the king on the throne.
    assert_eq!((count(4), count(2), count(1)), (32, 16, 1));
    assert_eq!(
        start.piece_at(Square::new(6, 6).expect("inside")),
        PieceType::from_bit(1)
    );
}
