//! The engine's configuration ([`EngineConfig`]: threads and table) and the tunable
//! parameters of the search and the evaluation: [`Tuning`] and its knobs, which
//! the match runner and the tuner set by name through the table of settings
//! ([`crate::settings`]).

use crate::classic::EvalWeights;
use hnefatafl_core::Rules;

/// How several threads share one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallel {
    /// The root moves of each depth are shared between the threads after the first move
    /// is searched (see `docs/ai.md`); the faster of the two on the measurements.
    #[default]
    RootSplit,
    /// Lazy SMP: every thread runs its own iterative deepening (every other helper a depth
    /// ahead), and they share only the transposition table.
    LazySmp,
}

/// Where the quiescence search of [`Tuning::quiescence`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiescence {
    /// On no board.
    Off,
    /// On every board.
    On,
    /// On boards of at most this many squares ([`Rules::square_count`]).
    UpTo(usize),
}

impl Quiescence {
    /// Whether the quiescence search runs under these rules.
    ///
    /// ```
    /// use aim::Quiescence;
    /// let tablut = hnefatafl_core::Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert!(Quiescence::UpTo(81).applies(&tablut));
    /// assert!(!Quiescence::UpTo(80).applies(&tablut));
    /// assert!(!Quiescence::Off.applies(&tablut));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn applies(self, rules: &Rules) -> bool {
        match self {
            Quiescence::Off => false,
            Quiescence::On => true,
            Quiescence::UpTo(squares) => rules.square_count() <= squares,
        }
    }
}

/// Knobs of the search and the evaluation, for tuning by self-play.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// Search moves that the static guess ranks late one or two plies less deeply.
    pub reductions: bool,
    /// At the last ply, search a move one ply deeper when it gives an escape piece (a
    /// king) an open line to an escape square, so the answer to the threat is seen. Off
    /// by default until a match shows it helps (see `docs/ai.md`).
    pub escape_extension: bool,
    /// Null-move pruning: away from the principal variation, at depth 3 or more, when the
    /// static evaluation is at least beta, the side to move passes and a search two or
    /// three plies shallower with the opponent to move decides whether the node fails high.
    /// Off by default until a match shows it helps (see `docs/ai.md`); with it, the tree of
    /// a depth depends on the search window, so the table may change a fixed-depth result.
    pub null_move: bool,
    /// Time management by the best move's stability: with a time limit, the search starts
    /// new depths for longer when the last depth changed the best move, and, on a clock,
    /// stops sooner when the best move stood for three depths. Off by default until a
    /// match shows it helps (see `docs/ai.md`).
    pub stability: bool,
    /// Where a quiescence search runs at the horizon: where the side to move can close a
    /// custodial pair, its capturing moves are searched (four plies deep at most, each side
    /// free to stand pat on the static evaluation instead). By default on boards of 81
    /// squares or fewer, where it passed its matches, and off on larger ones, where it
    /// failed (see `docs/ai.md`). The weak levels (those with deliberate noise) never use
    /// it, so that their horizon stays where the levels' description puts it.
    pub quiescence: Quiescence,
    /// Late-move reductions in place of the static ones: at depth 3 or more, a quiet move
    /// searched after the table's move, the captures, the killers and three more is
    /// searched one ply less (two from depth 5 after the tenth move, three from depth 7
    /// after the fortieth) with a null window, and again at full depth when it beats
    /// alpha. The order, and so the tree, then depends on the history table. From the
    /// fifth depth of the iterative deepening (a search of 4 plies or fewer stays
    /// exact), and not at the weak levels' noisy root. On by default: with the networks
    /// it passed by time at 0.1 s a move and at level 3 (see `docs/ai.md`).
    pub late_move_reductions: bool,
    /// Aspiration windows: from depth 4 on, each depth's root is searched first with a
    /// window of the depth before's score plus and minus half a piece, and again
    /// with that side of the window four times wider (two pieces), then with no bound
    /// there, until the score falls inside. A move at or above the window is played if the
    /// search stops before the next pass ends. Not on the weak levels' noisy root, nor
    /// after a decisive score. A narrow window cuts more of the tree when the score holds.
    /// Off by default until a match shows it helps (see `docs/ai.md`).
    pub aspiration: bool,
    /// Futility pruning: away from the principal variation (null window), one or two
    /// plies from the horizon, when the static evaluation plus a margin (one piece at
    /// depth 1, three at depth 2) is still at most alpha, the quiet moves after the first
    /// are not searched: a move whose static guess is low (it captures nothing, takes no
    /// escape piece nearer an escape square and lands beside no enemy escape piece) and
    /// that is neither the table's move nor a killer seldom gains that much so near the
    /// horizon. Not when
    /// a bound is decisive, nor at the weak levels (those with deliberate noise). Off by
    /// default until a match shows it helps (see `docs/ai.md`).
    pub futility: bool,
    /// History pruning: away from the principal variation, one or two plies from the
    /// horizon, the quiet moves (as for [`Tuning::futility`]) after the first 8 (16 at
    /// depth 2) are not searched when the history table has never seen them cut off. The
    /// pruned moves, and so the tree, depend on the history table (and, through the
    /// order, on the transposition table's moves). Not when a bound is decisive, nor at
    /// the weak levels. On by default: it passed its matches (see `docs/ai.md`).
    pub history_pruning: bool,
    /// Answer escape threats near the horizon, the search's "check": where an escape
    /// piece of the player not to move has an open line to an escape square, neither
    /// [`Tuning::history_pruning`] nor [`Tuning::futility`] prunes a move (the one move
    /// that blocks the line may be a quiet one the history has never seen), and the
    /// quiescence search tries an escape piece's move onto an escape square beside the
    /// captures, so that an escape at the horizon scores a win. Off by default: it
    /// failed its match (see `docs/ai.md`).
    pub escape_threats: bool,
    /// History pruning spares the moves that build around the mover's own escape piece:
    /// a move of the escape piece, or to one of the eight squares around it. An exit fort
    /// is built of such quiet moves, which the history seldom knows. Off by default: it
    /// failed its match (see `docs/ai.md`).
    pub spare_forts: bool,
    /// Singular extensions: where the table's entry says its move holds a score at
    /// nearly the node's depth, the node is first searched at half the depth without
    /// that move, against a bound 2 hundredths of a piece a ply of depth below the
    /// score. If no other move reaches the bound, the move stands alone (a forced line,
    /// as a block of the king's one open road) and is searched a ply deeper; if another
    /// reaches it and the bound holds beta, the node is cut. From depth 6, not under
    /// `forbid_repeat` (whose scores depend on the line).
    pub singular: bool,
    /// Use what an unfinished depth found: when the search stops during a depth after a
    /// root move other than the first (the depth before's best) has been searched to the
    /// end and proved better, that move is played, with that score. And with a fixed time
    /// a move (not a clock, where time saved is kept), new depths start until the time is
    /// up, since what they find is no longer lost.
    pub unfinished_depths: bool,
    /// What a draw costs the king's side (the one player with escape pieces), in
    /// hundredths of a piece; the other side gains as much. Between engines the king's
    /// side wins most games of the shipped boards (see `docs/ai.md`), so a draw is a poor
    /// result for it even where the evaluation calls the game even or a little behind.
    /// 0 scores every draw 0; rule files where both players or neither have escape pieces
    /// always do. 150 by default, with [`Tuning::tree_repetition`]: the two passed their
    /// match together (see `docs/ai.md`).
    pub king_side_draw: i32,
    /// Score repetitions inside the tree short of the rules' count as if it were reached,
    /// where the rules allow repeating: a move (two plies or more from the root) into a
    /// position of the search's own line, or of the game so far, scores a draw
    /// ([`Tuning::king_side_draw`]) when the rules call a repetition drawn, and a loss when
    /// it would lose the game for the side that makes it. A repetition that the rules would
    /// end in the mover's favour is searched as any move until the count (the other side
    /// can still keep away from it). The count itself (and `draw_plies`) always ends the
    /// game in the tree, with or without this knob. Rules without a `repetition` end are
    /// not touched. On by default (see `docs/ai.md`). A score that a repetition decided is
    /// never stored in the table, but the table's other scores may still change a
    /// fixed-depth result with such rules.
    pub tree_repetition: bool,
    /// How several threads share the search.
    pub parallel: Parallel,
    /// The evaluation's weights.
    pub weights: EvalWeights,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            reductions: true,
            escape_extension: false,
            null_move: false,
            stability: false,
            quiescence: Quiescence::UpTo(81),
            late_move_reductions: true,
            aspiration: false,
            futility: false,
            history_pruning: true,
            escape_threats: false,
            spare_forts: false,
            singular: false,
            unfinished_depths: true,
            king_side_draw: 150,
            tree_repetition: true,
            parallel: Parallel::default(),
            weights: EvalWeights::default(),
        }
    }
}

/// The engine's configuration: its threads and the size of its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Search threads (0: all cores).
    pub threads: usize,
    /// Transposition table size in MiB (0: no table).
    pub hash_mib: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            threads: 0,
            hash_mib: 64,
        }
    }
}
