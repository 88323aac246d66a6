//! The search: iterative deepening principal-variation alpha-beta with a shared
//! transposition table, run by several threads at once on the engine's rayon pool (the root
//! moves of each depth shared between them after the first; see `Split`).

use crate::eval::{self, Tables};
use crate::evaluator::{Classic, Evaluation, Evaluator};
use crate::history::{History, HistoryTables, Killers};
use crate::limits::{Limits, Plan};
use crate::movepick::{CAPTURE_GUESS, Hints, KILLER_KEY, MovePicker, Scored};
use crate::nnue::{Layout, Network, NetworkEvaluator};
use crate::params::{Parallel, Tuning};
use crate::score::{Score, is_decisive};
use crate::tt::{Bound, Entry, Table};
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{Game, Move, Player, Position, Rules, Undo};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Above any score.
const INFINITE: i32 = Score::MATE + 1;
/// How often (in nodes) a thread looks at the clock and the stop flags.
const POLL_MASK: u64 = 1023;

/// A report after each finished depth.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Finished depth.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Fraction (0..=1) of the time or depth budget used, for progress bars.
    pub fraction: f32,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move; `None` only when the game is over (no legal move). It is the best
    /// move of the deepest finished depth, or a move that the unfinished depth after it
    /// had searched to the end and proved better ([`Tuning::unfinished_depths`]).
    pub best: Option<Move>,
    /// Its score, from the depth that chose it.
    pub score: Score,
    /// Deepest finished depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<Move>,
}

/// Engine settings.
#[derive(Clone, Debug)]
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

/// A computer player: owns the transposition table and, for searches on several threads,
/// a rayon thread pool that lives as long as the engine (no thread is created per move).
pub struct Engine {
    config: EngineConfig,
    table: Option<Table>,
    /// The helper threads of parallel searches: one fewer than the threads of the widest
    /// search so far (the calling thread is the main search thread). Made on the first
    /// search on several threads.
    pool: Option<rayon::ThreadPool>,
    tuning: Tuning,
    /// The rules of the last search (compared by `Rules` equality) and their compiled tables.
    tables: Option<(Rules, Arc<Tables>)>,
    /// The random numbers of the weak levels, once seeded.
    random: Option<SplitMix>,
    /// Per search thread, its memo of evaluations ([`eval::EvalCache`]): kept from search
    /// to search, since the positions of the next move's search are much the same, and
    /// dropped when the rules (and so the evaluation) change.
    memos: Vec<eval::EvalCache>,
}

/// What every thread of one search shares.
struct Shared {
    stop: Arc<AtomicBool>,
    abort: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    plan: Plan,
    split: Split,
    /// The history heuristic's tables ([`HistoryTables`]).
    history: HistoryTables,
}

/// The root split of a search with several threads: the main thread searches the first
/// root move (helpers search it too, filling the table), then every thread takes the
/// other root moves one at a time, each with a null window at the best score so far.
#[derive(Default)]
struct Split {
    /// Odd: the first move of an iteration is searched; even: the other moves are open.
    generation: AtomicU64,
    /// The iteration's depth.
    depth: AtomicU32,
    /// The iteration's root moves, in search order.
    order: Mutex<Vec<RootMove>>,
    /// The generation (high 32 bits) and the index of the next root move to take.
    ticket: AtomicU64,
    /// Threads that may be searching a root move of the open generation.
    busy: AtomicUsize,
    /// The best root move so far: score, index in `order` and principal variation.
    best: Mutex<(i32, usize, Vec<Move>)>,
}

/// One root move.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: Move,
    /// Position in the static order: ties between equal scores go to the lower rank.
    rank: usize,
    /// Random amount added to the score (weak levels).
    noise: i32,
    /// Without `forbid_repeat`, where repeating draws or the rules have no repetition end:
    /// the move leads back to a position of the game, so a score better than a draw is
    /// counted as a draw (a side that is ahead avoids repeating).
    repeats: bool,
    /// The move ends the game by a rule of the whole game that the search inside the tree
    /// does not see (the `repetition` count reached, `draw_plies` without a capture): the
    /// score of that end for the mover.
    ends: Option<i32>,
    /// The score of a draw for the mover ([`Tuning::king_side_draw`]).
    draw: i32,
}

impl RootMove {
    /// The score of this move at the root: the end of the game it makes, if it makes one;
    /// else a repetition is worth at most a draw, unless it leads to a win (which the
    /// search then finds nearer at every move).
    fn capped(&self, score: i32) -> i32 {
        if let Some(end) = self.ends {
            end
        } else if self.repeats && score > self.draw && !is_decisive(score) {
            self.draw
        } else {
            score
        }
    }
}

/// The score of a draw for player 0 and player 1 to move: `cost` below even for the
/// king's side (the one player with escape pieces in the start position), as much above
/// for the other; 0 for both when that side is not one player.
fn draw_scores(tables: &Tables, cost: i32) -> [i32; 2] {
    let owns_escapes = |player: usize| {
        tables
            .types
            .iter()
            .any(|t| t.declared && t.owner == player && t.escape && t.start_count > 0)
    };
    match (owns_escapes(0), owns_escapes(1)) {
        (true, false) => [-cost, cost],
        (false, true) => [cost, -cost],
        _ => [0, 0],
    }
}

impl Engine {
    /// A new engine.
    pub fn new(config: EngineConfig) -> Engine {
        let table = Table::new(config.hash_mib);
        Engine {
            config,
            table,
            pool: None,
            tuning: Tuning::default(),
            tables: None,
            random: None,
            memos: Vec::new(),
        }
    }

    /// A new engine with these search and evaluation knobs.
    pub fn with_tuning(config: EngineConfig, tuning: Tuning) -> Engine {
        let mut engine = Engine::new(config);
        engine.tuning = tuning;
        engine
    }

    /// The static evaluation of a position (no search), from the side to move's point of
    /// view, with this engine's weights: what the search scores a position at the end of
    /// its depth. For tests, tools and hints.
    pub fn evaluate(&mut self, position: &Position) -> Score {
        let tables = self.tables_for(position.rules());
        match self.network_for(position.rules()) {
            Some(network) => {
                Score(network.evaluate(&network.refresh(position), position.side_to_move()))
            }
            None => Score(eval::evaluate(&tables, position)),
        }
    }

    /// The network the search evaluates with: [`Tuning::network`] when
    /// [`Tuning::evaluation`] chooses it and it fits the rules' piece layout.
    pub fn network_for(&self, rules: &Rules) -> Option<Arc<Network>> {
        let network = self.tuning.network.as_ref()?;
        (self.tuning.evaluation == Evaluation::Network && *network.layout() == Layout::of(rules))
            .then(|| Arc::clone(network))
    }

    /// Seeds the random choices of the weak levels (they are otherwise seeded from the clock).
    pub fn seed(&mut self, seed: u64) {
        self.random = Some(SplitMix::new(seed | 1));
    }

    /// Forgets what earlier searches learned (new game).
    pub fn clear(&mut self) {
        if let Some(table) = &self.table {
            table.clear();
        }
    }

    /// The threads of a search with these limits: the limits' count, else the engine's,
    /// where 0 means all cores.
    fn threads(&self, limits: &Limits) -> usize {
        match limits.threads.unwrap_or(self.config.threads) {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// Makes sure the pool has at least `helpers` threads. A pool that cannot be made
    /// (the system refuses threads) leaves the search on the calling thread alone.
    fn ensure_pool(&mut self, helpers: usize) -> usize {
        let have = self
            .pool
            .as_ref()
            .map_or(0, rayon::ThreadPool::current_num_threads);
        if have >= helpers {
            return helpers;
        }
        match rayon::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .thread_name(|index| format!("aim-search-{}", index + 1))
            .build()
        {
            Ok(pool) => {
                self.pool = Some(pool);
                helpers
            }
            Err(_) => have,
        }
    }

    fn tables_for(&mut self, rules: &Rules) -> Arc<Tables> {
        if let Some((key, tables)) = &self.tables {
            if key == rules {
                return Arc::clone(tables);
            }
        }
        let tables = Arc::new(Tables::new(rules, self.tuning.weights.clone()));
        self.tables = Some((rules.clone(), Arc::clone(&tables)));
        self.memos.clear();
        tables
    }

    fn next_random(&mut self) -> u64 {
        self.random.get_or_insert(SplitMix::new(1)).next_u64()
    }

    /// The best move in `position` within `limits`, or `None` when the game is over there:
    /// a whole search with no stop flag and no progress reports, for embedding. The search
    /// knows no game before `position`, so it cannot see repetitions of earlier positions;
    /// to search a game with its history, or to stop a search or follow it, use
    /// [`Engine::search`].
    ///
    /// ```
    /// use aim::{Engine, EngineConfig, Limits};
    ///
    /// let rules = hnefatafl_core::Rules::parse(include_bytes!("../../data/rules/brandub"))?;
    /// let mut engine = Engine::new(EngineConfig { threads: 1, hash_mib: 1 });
    /// let limits = Limits { depth: Some(2), ..Limits::default() };
    /// let position = rules.start_position();
    /// let best = engine.best_move(&position, &limits).expect("a move at the start");
    /// assert_eq!(position.check_move(best), Ok(()));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn best_move(&mut self, position: &Position, limits: &Limits) -> Option<Move> {
        let game = Game::from_position(position.clone());
        let stop = Arc::new(AtomicBool::new(false));
        self.search(&game, limits, stop, &mut |_| {}).best
    }

    /// Searches the game's current position and returns the best move found. Never returns
    /// an illegal move (repetition included). Stops early when `stop` becomes true, with the
    /// best move so far. `progress` is called after each finished depth.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let start = Instant::now();
        let plan = limits.plan();
        let root_moves = if game.outcome().is_some() {
            Vec::new()
        } else {
            game.legal_moves().collect()
        };
        if root_moves.is_empty() {
            return SearchResult {
                best: None,
                score: Score::loss_in(0),
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            };
        }
        let rules = game.rules().clone();
        let tables = self.tables_for(&rules);
        if plan.noise > 0 || plan.random_move_percent > 0 {
            if self.random.is_none() {
                let clock = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                self.seed(clock ^ game.position().hash());
            }
            if plan.random_move_percent > 0
                && self.next_random() % 100 < u64::from(plan.random_move_percent)
            {
                let mv = root_moves[(self.next_random() % root_moves.len() as u64) as usize];
                return SearchResult {
                    best: Some(mv),
                    score: Score(0),
                    depth: 0,
                    nodes: 0,
                    elapsed: start.elapsed(),
                    pv: vec![mv],
                };
            }
        }
        let board = game.position().board_bits();
        let mover = game.side_to_move();
        let draw = draw_scores(&tables, self.tuning.king_side_draw);
        let beside = eval::beside_enemy(&tables, game.position());
        let mut ordered: Vec<(i32, Move)> = root_moves
            .iter()
            .map(|&mv| (eval::move_guess(&tables, board, beside, mv, mover), mv))
            .collect();
        ordered.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(a.1.from().cmp(&b.1.from()))
                .then(a.1.to().cmp(&b.1.to()))
        });
        let noise = plan.noise;
        let mut scratch = game.position().clone();
        let mut after = game.clone();
        let repetition = Repetition::of(&rules);
        // A move back to a position of the game is worth at most a draw where repeating
        // draws (or the rules never end a game by repetition); where it would win or lose,
        // the search scores that end when the count is reached.
        let repeats_draw = repetition
            .as_ref()
            .is_none_or(|repetition| repetition.ends[mover.index()] == RepeatEnd::Draw);
        let root: Vec<RootMove> = ordered
            .iter()
            .enumerate()
            .map(|(rank, &(_, mv))| {
                let repeats = !tables.forbid_repeat && repeats_draw && {
                    let undo = scratch.play_unchecked(mv);
                    let occurred = game.has_occurred(&scratch);
                    scratch.take_back(&undo);
                    occurred
                };
                // The game judges its own ends (repetition count, moves without a
                // capture), which a position alone cannot.
                after.play_unchecked(mv);
                let ends = after.outcome().map(|outcome| match outcome.winner {
                    Some(winner) if winner == mover => Score::win_in(1).0,
                    Some(_) => Score::loss_in(1).0,
                    None => draw[mover.index()],
                });
                after.undo();
                RootMove {
                    mv,
                    rank,
                    noise: if noise > 0 {
                        (self.next_random() % (2 * noise as u64 + 1)) as i32 - noise
                    } else {
                        0
                    },
                    repeats,
                    ends,
                    draw: draw[mover.index()],
                }
            })
            .collect();
        let game_positions = GamePositions::new(game.position_hashes());
        let wanted = self.threads(limits).max(1);
        let threads = if wanted > 1 {
            1 + self.ensure_pool(wanted - 1)
        } else {
            1
        };
        if self.memos.len() < threads {
            self.memos.resize_with(threads, eval::EvalCache::new);
        }
        let split = threads > 1 && noise == 0 && self.tuning.parallel == Parallel::RootSplit;
        let histories = if split { 1 } else { threads };
        let shared = Shared {
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start,
            plan,
            split: Split::default(),
            history: HistoryTables::new(tables.square_count, histories),
        };
        let context = Context {
            tables: &tables,
            table: self.table.as_ref(),
            shared: &shared,
            game_positions: &game_positions,
            repetition,
            tree_repetition: self.tuning.tree_repetition,
            draw_plies: rules.draw_plies(),
            root_quiet: game
                .history()
                .iter()
                .rev()
                .take_while(|undo| undo.captures().next().is_none())
                .count() as u32,
            strict: threads == 1,
            reductions: self.tuning.reductions,
            escape_extension: self.tuning.escape_extension,
            null_move: self.tuning.null_move,
            stability: self.tuning.stability,
            quiescence: self.tuning.quiescence.applies(&rules) && shared.plan.noise == 0,
            late_move_reductions: self.tuning.late_move_reductions,
            draw,
            unfinished_depths: self.tuning.unfinished_depths,
            split,
        };
        let position = game.position();
        let outcome = match self.network_for(&rules) {
            Some(network) => {
                let evaluators = (0..threads)
                    .map(|_| NetworkEvaluator::new(&network))
                    .collect();
                run(
                    &context,
                    &root,
                    position,
                    self.pool.as_ref(),
                    evaluators,
                    progress,
                )
            }
            None => {
                let evaluators = self.memos[..threads]
                    .iter_mut()
                    .map(|memo| Classic::new(&tables, memo))
                    .collect();
                run(
                    &context,
                    &root,
                    position,
                    self.pool.as_ref(),
                    evaluators,
                    progress,
                )
            }
        };
        let nodes = shared.nodes.load(Ordering::Relaxed);
        match outcome {
            Some(done) => SearchResult {
                best: done.pv.first().copied(),
                score: Score(done.score),
                depth: done.depth,
                nodes,
                elapsed: start.elapsed(),
                pv: done.pv,
            },
            None => SearchResult {
                best: Some(root[0].mv),
                score: Score(0),
                depth: 0,
                nodes,
                elapsed: start.elapsed(),
                pv: vec![root[0].mv],
            },
        }
    }
}

/// Runs a search on one thread per evaluator (the first the calling thread, the others
/// on the pool) and returns the main thread's last finished depth.
fn run<E: Evaluator + Send>(
    context: &Context<'_>,
    root: &[RootMove],
    position: &Position,
    pool: Option<&rayon::ThreadPool>,
    evaluators: Vec<E>,
    progress: &mut dyn FnMut(&Progress),
) -> Option<Done> {
    let shared = context.shared;
    let mut evaluators = evaluators.into_iter();
    let main_evaluator = evaluators.next()?;
    // The calling thread is the main search thread: it reports progress and decides.
    let main = || {
        let mut worker = Worker::new(context, position.clone(), 0, main_evaluator);
        let result = worker.iterate(root, 1, &mut |worker, done| {
            let elapsed = shared.start.elapsed();
            let nodes = shared.nodes.load(Ordering::Relaxed) + worker.unreported;
            progress(&Progress {
                depth: done.depth,
                score: Score(done.score),
                nodes,
                elapsed,
                pv: done.pv.clone(),
                fraction: fraction(&shared.plan, done.depth, nodes, elapsed),
            });
        });
        worker.report_nodes();
        shared.abort.store(true, Ordering::Relaxed);
        result
    };
    match pool {
        Some(pool) if evaluators.len() > 0 => pool.in_place_scope(|scope| {
            for (helper, evaluator) in (1..).zip(evaluators) {
                scope.spawn(move |_| {
                    let mut worker = Worker::new(context, position.clone(), helper, evaluator);
                    if context.split {
                        worker.help();
                    } else {
                        worker.iterate(root, 1 + (helper as u32 % 2), &mut |_, _| {});
                    }
                });
            }
            main()
        }),
        _ => main(),
    }
}

/// How much of the budget is used.
fn fraction(plan: &Plan, depth: u32, nodes: u64, elapsed: Duration) -> f32 {
    let used = if let Some(hard) = plan.hard_time {
        elapsed.as_secs_f32() / hard.as_secs_f32().max(1e-6)
    } else if let Some(limit) = plan.nodes {
        nodes as f32 / limit.max(1) as f32
    } else {
        depth as f32 / plan.depth.max(1) as f32
    };
    used.clamp(0.0, 1.0)
}

/// The time after which no new depth starts, by the best move's stability: half again
/// as long when the last depth changed the best move (the search has not settled; at most
/// 90% of the hard limit), and, on a clock, where time saved is kept for later moves, half
/// as long when the best move stood for three depths. The first depths, a few
/// milliseconds, change nothing.
fn stable_soft_time(soft: Duration, plan: &Plan, depth: u32, stable: u32) -> Duration {
    if depth < STABLE_FROM_DEPTH {
        return soft;
    }
    if stable == 0 {
        let longer = soft.mul_f64(1.5);
        plan.hard_time
            .map_or(longer, |hard| longer.min(hard.mul_f64(0.9)))
            .max(soft)
    } else if stable >= 3 && plan.banked {
        soft / 2
    } else {
        soft
    }
}

/// The first depth whose best move says something of the search's stability.
const STABLE_FROM_DEPTH: u32 = 4;

/// What the threads of one search read.
struct Context<'a> {
    tables: &'a Tables,
    table: Option<&'a Table>,
    shared: &'a Shared,
    /// The game's positions, for the rules that forbid repeating one and for those that
    /// end a game by repetition.
    game_positions: &'a GamePositions,
    /// The rules' repetition end, if they have one.
    repetition: Option<Repetition>,
    /// [`Tuning::tree_repetition`].
    tree_repetition: bool,
    /// The rules' `draw_plies`.
    draw_plies: Option<u32>,
    /// Plies without a capture before the root.
    root_quiet: u32,
    /// Take table scores only from entries of exactly the depth needed, so that a search
    /// of fixed depth gives the same result with the table on or off.
    strict: bool,
    reductions: bool,
    escape_extension: bool,
    null_move: bool,
    stability: bool,
    quiescence: bool,
    late_move_reductions: bool,
    /// The score of a draw for player 0 and player 1 to move.
    draw: [i32; 2],
    unfinished_depths: bool,
    /// Several threads share the root moves ([`Split`]); otherwise helpers run their own
    /// iterative deepening (Lazy SMP), as the weak levels' noisy root needs.
    split: bool,
}

/// What a repetition end of the rules means for the side that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RepeatEnd {
    /// The rules call it a draw.
    Draw,
    /// The rules end the game lost for the mover.
    Loss,
    /// The rules end the game won for the mover.
    Win,
}

/// The rules' repetition end (`repetition`, `repetition_loser`).
#[derive(Clone, Copy, Debug)]
struct Repetition {
    /// The occurrence of a position that ends the game.
    count: usize,
    /// What the end means for player 0 and player 1 making it.
    ends: [RepeatEnd; 2],
}

impl Repetition {
    /// The rules' repetition end, if they have one.
    fn of(rules: &Rules) -> Option<Repetition> {
        let end = |mover: Player| {
            let outcome = rules.repetition_outcome(mover)?;
            Some(match outcome.winner {
                None => RepeatEnd::Draw,
                Some(winner) if winner == mover => RepeatEnd::Win,
                Some(_) => RepeatEnd::Loss,
            })
        };
        Some(Repetition {
            count: usize::from(rules.repetition()?.count),
            ends: [end(Player::Zero)?, end(Player::One)?],
        })
    }
}

/// The keys of the game's positions, behind a filter of 4,096 bits that lets most keys
/// of the tree skip the set.
struct GamePositions {
    filter: [u64; 64],
    /// Each key's occurrences.
    keys: HashMap<u64, usize>,
}

impl GamePositions {
    fn new(keys: &[u64]) -> GamePositions {
        let mut filter = [0; 64];
        for &key in keys {
            let bit = Self::bit(key);
            filter[bit / 64] |= 1 << (bit % 64);
        }
        let mut counts = HashMap::new();
        for &key in keys {
            *counts.entry(key).or_insert(0) += 1;
        }
        GamePositions {
            filter,
            keys: counts,
        }
    }

    fn bit(key: u64) -> usize {
        (key >> 52) as usize
    }

    /// How often the position of `key` occurred in the game.
    fn count(&self, key: u64) -> usize {
        let bit = Self::bit(key);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return 0;
        }
        self.keys.get(&key).copied().unwrap_or(0)
    }
}

/// One position of the search's line.
#[derive(Clone, Copy, Debug)]
struct Step {
    key: u64,
    /// Plies without a capture up to it, the game's before the root included.
    quiet: u32,
}

/// How an iteration at the root ended.
enum Iteration {
    /// Every root move was searched.
    Finished(Done),
    /// Stopped, after a root move other than the first was searched to the end and proved
    /// better than the first: that move, its score and its line (the depth is the
    /// unfinished one).
    Improved(Done),
    /// Stopped before anything better than the first move was known.
    Stopped,
}

/// A finished iteration.
struct Done {
    depth: u32,
    score: i32,
    pv: Vec<Move>,
}

/// One search thread: its own position, path and killers (the history is the search's,
/// [`Shared::history`]).
struct Worker<'a, E> {
    context: &'a Context<'a>,
    position: Position,
    main: bool,
    /// The positions of the search's line after the root, the current one last.
    path: Vec<Step>,
    /// Ends by the game's history scored so far ([`Worker::history_end`]): a node whose
    /// search adds to it has a score that depends on its line, which the table must not
    /// hold.
    history_ends: u64,
    /// The search's history table for this thread ([`HistoryTables::of_thread`]).
    history: History<'a>,
    killers: Killers,
    picker: MovePicker,
    /// Whether the move into each ply was a pass (null-move pruning).
    passed: Vec<bool>,
    /// The thread's evaluation, told of every move made and taken back on `position`.
    evaluator: E,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    unreported: u64,
    aborted: bool,
    /// A helper searching the first root move gives up when the split generation moves on.
    watch: Option<u64>,
}

/// The deepest a quiescence search goes below the horizon ([`Tuning::quiescence`]).
pub(crate) const QUIESCENCE_PLIES: u32 = 4;

const MAX_PLY: usize = crate::limits::MAX_DEPTH as usize + 2 + QUIESCENCE_PLIES as usize;

fn to_table(score: i32, ply: usize) -> i32 {
    if !is_decisive(score) {
        score
    } else if score > 0 {
        score + ply as i32
    } else {
        score - ply as i32
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if !is_decisive(score) {
        score
    } else if score > 0 {
        score - ply as i32
    } else {
        score + ply as i32
    }
}

impl<'a, E: Evaluator> Worker<'a, E> {
    fn new(
        context: &'a Context<'a>,
        position: Position,
        thread: usize,
        mut evaluator: E,
    ) -> Worker<'a, E> {
        let squares = context.tables.square_count;
        evaluator.reset(&position);
        Worker {
            context,
            position,
            main: thread == 0,
            path: Vec::with_capacity(MAX_PLY + 1),
            history_ends: 0,
            history: context.shared.history.of_thread(thread),
            killers: Killers::new(MAX_PLY),
            picker: MovePicker::new(MAX_PLY, squares),
            passed: vec![false; MAX_PLY + 1],
            evaluator,
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            unreported: 0,
            aborted: false,
            watch: None,
        }
    }

    /// Plays a move on the thread's position and tells the evaluator.
    #[inline]
    fn play(&mut self, mv: Move) -> Undo {
        let undo = self.position.play_unchecked(mv);
        self.evaluator.on_make(&self.position, &undo);
        let quiet = if undo.captures().next().is_some() {
            0
        } else {
            self.quiet() + 1
        };
        self.path.push(Step {
            key: self.position.hash(),
            quiet,
        });
        undo
    }

    /// Plies without a capture up to the current position.
    fn quiet(&self) -> u32 {
        self.path
            .last()
            .map_or(self.context.root_quiet, |step| step.quiet)
    }

    /// Takes back the move of `undo` and tells the evaluator.
    #[inline]
    fn take_back(&mut self, undo: &Undo) {
        self.path.pop();
        self.position.take_back(undo);
        self.evaluator.on_unmake(&self.position, undo);
    }

    fn report_nodes(&mut self) {
        self.context
            .shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    fn poll(&mut self) {
        self.report_nodes();
        let shared = self.context.shared;
        if shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self
            .watch
            .is_some_and(|generation| shared.split.generation.load(Ordering::Relaxed) != generation)
        {
            self.aborted = true;
            return;
        }
        if self.main {
            let over_time = shared
                .plan
                .hard_time
                .is_some_and(|hard| shared.start.elapsed() >= hard);
            let over_nodes = shared
                .plan
                .nodes
                .is_some_and(|limit| shared.nodes.load(Ordering::Relaxed) >= limit);
            if over_time || over_nodes {
                shared.abort.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
    }

    /// Iterative deepening from `first_depth`; calls `report` after each finished depth
    /// and returns the last one finished.
    fn iterate(
        &mut self,
        root: &[RootMove],
        first_depth: u32,
        report: &mut dyn FnMut(&Worker<'a, E>, &Done),
    ) -> Option<Done> {
        let plan = &self.context.shared.plan;
        let mut order: Vec<RootMove> = root.to_vec();
        let mut last: Option<Done> = None;
        // Finished depths in a row that kept the best move of the depth before.
        let mut stable = 0;
        for depth in first_depth..=plan.depth {
            let iteration = if self.context.split {
                self.root_split(&mut order, depth)
            } else {
                self.root_search(&mut order, depth)
            };
            let done = match iteration {
                Iteration::Finished(done) => done,
                Iteration::Improved(done) if self.context.unfinished_depths => {
                    // The deepest finished depth stays the one reported.
                    if let Some(finished) = &last {
                        last = Some(Done {
                            depth: finished.depth,
                            ..done
                        });
                    }
                    break;
                }
                Iteration::Improved(_) | Iteration::Stopped => break,
            };
            report(self, &done);
            let decisive = Score(done.score)
                .mate_plies()
                .is_some_and(|plies| plies <= depth as i32);
            if last
                .as_ref()
                .is_some_and(|last| last.pv.first() == done.pv.first())
            {
                stable += 1;
            } else {
                stable = 0;
            }
            last = Some(done);
            if decisive && plan.hard_time.is_some() {
                break;
            }
            let elapsed = self.context.shared.start.elapsed();
            // With a fixed time a move, the time not spent is lost; an unfinished depth
            // still counts, so the search goes on until the hard limit.
            let run_out = self.context.unfinished_depths && !plan.banked;
            let soft = plan.soft_time.filter(|_| !run_out).map(|soft| {
                if self.context.stability {
                    stable_soft_time(soft, plan, depth, stable)
                } else {
                    soft
                }
            });
            if soft.is_some_and(|soft| elapsed >= soft) {
                break;
            }
            if self.context.shared.abort.load(Ordering::Relaxed) {
                break;
            }
        }
        last
    }

    /// One iteration at the root: the best move, ties going to the lower static rank, and
    /// its exact score. `order` is reordered so that the best move comes first next time.
    fn root_search(&mut self, order: &mut [RootMove], depth: u32) -> Iteration {
        let noisy = order.iter().any(|m| m.noise != 0);
        let mut best: Option<(i32, usize)> = None;
        let mut best_pv = Vec::new();
        for i in 0..order.len() {
            let candidate = order[i];
            let undo = self.play(candidate.mv);
            let child = depth as i32 - 1;
            let (score, better) = match best {
                None => (
                    candidate.capped(-self.negamax(child, 1, -INFINITE, INFINITE)),
                    true,
                ),
                Some((best_score, best_index)) if noisy => {
                    let score = candidate.capped(-self.negamax(child, 1, -INFINITE, INFINITE));
                    let noisy_score =
                        |s: i32, m: &RootMove| if is_decisive(s) { s } else { s + m.noise };
                    (
                        score,
                        noisy_score(score, &candidate)
                            > noisy_score(best_score, &order[best_index]),
                    )
                }
                Some((best_score, best_index)) => {
                    // Is this move better, or as good and earlier in the static order?
                    let floor = if candidate.rank < order[best_index].rank {
                        best_score - 1
                    } else {
                        best_score
                    };
                    let mut score = -self.negamax(child, 1, -floor - 1, -floor);
                    if score > floor && !self.aborted {
                        score = -self.negamax(child, 1, -INFINITE, -floor);
                    }
                    // Capping lowers a score, or gives the exact score of a game end.
                    let score = candidate.capped(score);
                    (score, score > floor)
                }
            };
            self.take_back(&undo);
            if self.aborted {
                return match best {
                    Some((score, index)) if index > 0 => Iteration::Improved(Done {
                        depth,
                        score,
                        pv: best_pv,
                    }),
                    _ => Iteration::Stopped,
                };
            }
            if better {
                best = Some((score, i));
                best_pv.clear();
                best_pv.push(candidate.mv);
                best_pv.extend_from_slice(&self.pv[1]);
            }
        }
        let Some((score, index)) = best else {
            return Iteration::Stopped;
        };
        order[..=index].rotate_right(1);
        Iteration::Finished(Done {
            depth,
            score,
            pv: best_pv,
        })
    }

    fn stopped(&self) -> bool {
        let shared = self.context.shared;
        shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed)
    }

    /// One iteration at the root with several threads (main thread): the first move alone,
    /// then the others shared with the helpers ([`Split`]).
    fn root_split(&mut self, order: &mut [RootMove], depth: u32) -> Iteration {
        let split = &self.context.shared.split;
        *split.order.lock().unwrap_or_else(PoisonError::into_inner) = order.to_vec();
        split.depth.store(depth, Ordering::Relaxed);
        let generation = split.generation.load(Ordering::Relaxed) + 1;
        split.generation.store(generation, Ordering::Release);

        let first = order[0];
        let undo = self.play(first.mv);
        let score = first.capped(-self.negamax(depth as i32 - 1, 1, -INFINITE, INFINITE));
        self.take_back(&undo);
        if self.aborted {
            return Iteration::Stopped;
        }
        let mut pv = vec![first.mv];
        pv.extend_from_slice(&self.pv[1]);
        *split.best.lock().unwrap_or_else(PoisonError::into_inner) = (score, 0, pv);

        let open = generation + 1;
        split.ticket.store((open << 32) | 1, Ordering::Release);
        split.generation.store(open, Ordering::Release);
        self.take_moves(open, order, depth);
        while split.busy.load(Ordering::Acquire) != 0 {
            std::thread::yield_now();
        }
        let (score, index, pv) = split
            .best
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if self.aborted || self.stopped() {
            // Only moves searched to the end are ever written as the best.
            return if index > 0 {
                Iteration::Improved(Done { depth, score, pv })
            } else {
                Iteration::Stopped
            };
        }
        order[..=index].rotate_right(1);
        Iteration::Finished(Done { depth, score, pv })
    }

    /// Takes root moves of the open generation until none is left: each is better than the
    /// best so far when it scores more, or as much and earlier in the static order.
    fn take_moves(&mut self, open: u64, order: &[RootMove], depth: u32) {
        let split = &self.context.shared.split;
        loop {
            split.busy.fetch_add(1, Ordering::AcqRel);
            let ticket = split.ticket.load(Ordering::Acquire);
            let index = (ticket & 0xffff_ffff) as usize;
            if ticket >> 32 != open || index >= order.len() {
                split.busy.fetch_sub(1, Ordering::AcqRel);
                return;
            }
            if split
                .ticket
                .compare_exchange(ticket, ticket + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_err()
            {
                split.busy.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            let candidate = order[index];
            let floor = {
                let best = split.best.lock().unwrap_or_else(PoisonError::into_inner);
                if candidate.rank < order[best.1].rank {
                    best.0 - 1
                } else {
                    best.0
                }
            };
            let child = depth as i32 - 1;
            let undo = self.play(candidate.mv);
            let mut score = -self.negamax(child, 1, -floor - 1, -floor);
            if score > floor && !self.aborted {
                score = -self.negamax(child, 1, -INFINITE, -floor);
            }
            self.take_back(&undo);
            let score = candidate.capped(score);
            if !self.aborted && score > floor {
                let mut best = split.best.lock().unwrap_or_else(PoisonError::into_inner);
                if score > best.0 || (score == best.0 && candidate.rank < order[best.1].rank) {
                    best.0 = score;
                    best.1 = index;
                    best.2.clear();
                    best.2.push(candidate.mv);
                    best.2.extend_from_slice(&self.pv[1]);
                }
            }
            split.busy.fetch_sub(1, Ordering::AcqRel);
            if self.aborted {
                return;
            }
        }
    }

    /// A helper thread of the root split: searches the first root move beside the main
    /// thread (until the other moves open), then takes its share of them.
    fn help(&mut self) {
        let split = &self.context.shared.split;
        let mut seen = 0;
        loop {
            if self.stopped() {
                return;
            }
            let generation = split.generation.load(Ordering::Acquire);
            if generation == seen {
                std::thread::yield_now();
                continue;
            }
            seen = generation;
            let order = split
                .order
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            let depth = split.depth.load(Ordering::Relaxed);
            if generation % 2 == 1 {
                self.watch = Some(generation);
                let undo = self.play(order[0].mv);
                self.negamax(depth as i32 - 1, 1, -INFINITE, INFINITE);
                self.take_back(&undo);
                self.watch = None;
            } else {
                self.take_moves(generation, &order, depth);
            }
            self.report_nodes();
            if self.stopped() {
                return;
            }
            self.aborted = false;
        }
    }

    /// Whether the current position (the last of the line) was on the search's line
    /// before, or among the game's.
    fn repeats(&self) -> bool {
        let Some((current, before)) = self.path.split_last() else {
            return false;
        };
        before.iter().any(|step| step.key == current.key)
            || self.context.game_positions.count(current.key) > 0
    }

    /// The end of the game that its history makes here, the current position being the
    /// last of the line (`ply` > 0): the rules' repetition count reached (the position's
    /// occurrences in the game and on the line), `draw_plies` plies without a capture, or,
    /// with [`Tuning::tree_repetition`], a repetition short of the count that scores the
    /// rules' end as if it were reached. The score is the side to move's.
    fn history_end(&self, ply: usize) -> Option<i32> {
        let context = self.context;
        let (current, before) = self.path.split_last()?;
        let side = self.position.side_to_move();
        if let Some(repetition) = &context.repetition {
            let occurrences = 1
                + before.iter().filter(|step| step.key == current.key).count()
                + context.game_positions.count(current.key);
            let end = repetition.ends[side.opponent().index()];
            let heuristic = context.tree_repetition && ply >= 2 && occurrences >= 2;
            if occurrences >= repetition.count || (heuristic && end != RepeatEnd::Win) {
                // For the side to move, the mover's opponent.
                return Some(match end {
                    RepeatEnd::Draw => context.draw[side.index()],
                    RepeatEnd::Loss => Score::win_in(ply as i32).0,
                    RepeatEnd::Win => Score::loss_in(ply as i32).0,
                });
            }
        }
        let limit = context.draw_plies?;
        (current.quiet >= limit).then_some(context.draw[side.index()])
    }

    /// What every node does first: counts itself, polls the clock and the stop flags now
    /// and then, and scores a game that the board rules end here. `Some` ends the node.
    fn enter(&mut self, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.unreported += 1;
        if self.nodes & POLL_MASK == 0 {
            self.poll();
        }
        if self.aborted {
            return Some(0);
        }
        self.pv[ply].clear();
        let side = self.position.side_to_move();
        if let Some(outcome) = self.position.outcome_with(true) {
            let plies = ply as i32;
            return Some(match outcome.winner {
                Some(winner) if winner == side => Score::win_in(plies).0,
                Some(_) => Score::loss_in(plies).0,
                None => self.context.draw[side.index()],
            });
        }
        let end = self.history_end(ply)?;
        // The score depends on the line: the nodes above must not store theirs.
        self.history_ends += 1;
        Some(end)
    }

    /// The quiescence search below the horizon ([`Tuning::quiescence`]): the static
    /// evaluation, unless the side to move can capture, when its capturing moves (the
    /// static guess's closing of a custodial pair) are searched too and the best of those
    /// and standing pat is the score. `left` plies more at most.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, left: u32) -> i32 {
        let context = self.context;
        let tables = context.tables;
        let (stand, threat) = self.evaluator.evaluate_with_threat(&self.position);
        if left == 0 || !threat || stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let moves = self.picker.captures(ply, tables, &self.position);
        let mut best = stand;
        for m in moves.in_order() {
            let undo = self.play(m.mv);
            // A guess that captured nothing (the pair did not close) is a quiet move.
            if undo.captures().next().is_none() || (tables.forbid_repeat && self.repeats()) {
                self.take_back(&undo);
                continue;
            }
            let score = match self.enter(ply + 1) {
                Some(end) => -end,
                None => -self.quiesce(ply + 1, -beta, -alpha, left - 1),
            };
            self.take_back(&undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.picker.give_back(ply, moves);
        if self.aborted { 0 } else { best }
    }

    /// The principal-variation alpha-beta search of the current position, `depth` plies
    /// deep, `ply` plies from the root: its score from the side to move's view.
    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some(end) = self.enter(ply) {
            return end;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 - QUIESCENCE_PLIES as usize {
            return self.horizon(ply, alpha, beta);
        }
        let key = self.position.hash();
        let history_ends = self.history_ends;
        let (hash_move, cutoff) = self.probe(key, depth, ply, alpha, beta);
        if let Some(score) = cutoff {
            return score;
        }
        if let Some(score) = self.null_move(depth, ply, alpha, beta) {
            return score;
        }

        let context = self.context;
        let tables = context.tables;
        let hints = Hints {
            hash_move,
            killers: self.killers.at(ply),
            history: self.history,
        };
        // The static rank decides reductions: it must depend on the position only.
        let static_order = context.reductions && depth >= 3;
        // Only at the last ply, where the answer to a threat would fall off the horizon.
        let extensions = context.escape_extension && depth == 1;
        let mut moves =
            self.picker
                .node(ply, tables, &self.position, hints, static_order, extensions);
        let alpha_start = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut legal = 0;
        while let Some(m) = moves.next() {
            let undo = self.play(m.mv);
            if tables.forbid_repeat && self.repeats() {
                // The rules forbid the move.
                self.take_back(&undo);
                continue;
            }
            legal += 1;
            let captured = undo.captures().next().is_some();
            let (child, reduced) = self.child_depths(&m, depth, legal, captured);
            let score = self.search_child(legal == 1, child, reduced, ply, alpha, beta);
            self.take_back(&undo);
            if self.aborted {
                self.picker.give_back(ply, moves);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m.mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m.mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !captured && m.guess < CAPTURE_GUESS {
                            self.killers.add(ply, m.mv);
                            self.history.reward(tables, m.mv, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.picker.give_back(ply, moves);
        if legal == 0 {
            // No legal move (repetition may rule them all out): the side to move loses.
            return Score::loss_in(ply as i32).0;
        }
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A score that an end by the game's history decided holds for this line only.
        let line_only = self.history_ends != history_ends;
        let entry = Entry {
            mv: best_move,
            score: to_table(best, ply),
            depth: depth as u32,
            bound,
        };
        self.store(key, entry, line_only);
        best
    }

    /// The score at the horizon: the quiescence search's, or the static evaluation.
    fn horizon(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.context.quiescence {
            self.quiesce(ply, alpha, beta, QUIESCENCE_PLIES)
        } else {
            self.evaluator.evaluate_with_threat(&self.position).0
        }
    }

    /// The table's move for the position of `key`, and its score when the entry is deep
    /// enough and its bound ends the node.
    fn probe(
        &self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> (Option<Move>, Option<i32>) {
        let context = self.context;
        let Some(entry) = context.table.and_then(|table| table.probe(key)) else {
            return (None, None);
        };
        let deep_enough =
            entry.depth == depth as u32 || (!context.strict && entry.depth > depth as u32);
        // Under `forbid_repeat` a score depends on the line: only the move is used.
        if context.tables.forbid_repeat || !deep_enough {
            return (entry.mv, None);
        }
        let score = from_table(entry.score, ply);
        let cutoff = match entry.bound {
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        };
        (entry.mv, cutoff)
    }

    /// Null-move pruning ([`Tuning::null_move`]): if passing still holds beta, a move will
    /// too (tafl has hardly any zugzwang), and the node's score is `Some`. Two passes in a
    /// row are not tried.
    fn null_move(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if !(self.context.null_move
            && depth >= 3
            && beta - alpha == 1
            && !self.passed[ply]
            && !is_decisive(beta)
            && self.evaluator.evaluate_with_threat(&self.position).0 >= beta)
        {
            return None;
        }
        let reduction = if depth >= 7 { 3 } else { 2 };
        self.position.pass_unchecked();
        // A pass is no ply of the game: the count without a capture stays.
        let quiet = self.quiet();
        self.path.push(Step {
            key: self.position.hash(),
            quiet,
        });
        self.passed[ply + 1] = true;
        let score = -self.negamax(depth - 1 - reduction, ply + 1, -beta, -beta + 1);
        self.passed[ply + 1] = false;
        self.path.pop();
        self.position.pass_unchecked();
        if self.aborted {
            return Some(0);
        }
        // A decisive score after a pass proves nothing about the moves.
        (score >= beta).then(|| if is_decisive(score) { beta } else { score })
    }

    /// The depth to search a move to, and the depth of its first, reduced try: the static
    /// reductions by its rank ([`Tuning::reductions`]), or late-move reductions by its
    /// place in the search ([`Tuning::late_move_reductions`]), for quiet moves only.
    fn child_depths(&self, m: &Scored, depth: i32, legal: usize, captured: bool) -> (i32, i32) {
        let context = self.context;
        let mut child = if m.extend { depth } else { depth - 1 };
        let quiet = !captured && m.guess < 150 && !m.extend;
        let mut reduced = child;
        if context.late_move_reductions {
            if depth >= 3 && legal > 3 && quiet && m.key < KILLER_KEY {
                reduced -=
                    1 + i32::from(depth >= 5 && legal > 10) + i32::from(depth >= 7 && legal > 40);
            }
        } else if context.reductions && depth >= 3 && m.rank >= 6 && quiet {
            child -= if depth >= 5 && m.rank >= 20 { 2 } else { 1 };
            reduced = child;
        }
        (child, reduced)
    }

    /// The score of the move just played: the first move with the full window, the others
    /// with a null window (at the `reduced` depth first), searched again with the full
    /// window when they beat alpha.
    fn search_child(
        &mut self,
        first: bool,
        child: i32,
        reduced: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if first {
            return -self.negamax(child, ply + 1, -beta, -alpha);
        }
        let mut score = -self.negamax(reduced, ply + 1, -alpha - 1, -alpha);
        if reduced < child && score > alpha && !self.aborted {
            score = -self.negamax(child, ply + 1, -alpha - 1, -alpha);
        }
        if score > alpha && score < beta && !self.aborted {
            -self.negamax(child, ply + 1, -beta, -alpha)
        } else {
            score
        }
    }

    /// Stores a node's result in the table. A score that holds for this line only
    /// (`line_only`) is kept out: the entry keeps the move, at a depth no probe takes a
    /// score from.
    fn store(&self, key: u64, entry: Entry, line_only: bool) {
        if let Some(table) = self.context.table {
            let depth = if line_only { 0 } else { entry.depth };
            table.store(key, &Entry { depth, ..entry });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(banked: bool) -> Plan {
        Plan {
            depth: crate::limits::MAX_DEPTH,
            soft_time: Some(Duration::from_millis(450)),
            banked,
            hard_time: Some(Duration::from_millis(1000)),
            nodes: None,
            noise: 0,
            random_move_percent: 0,
        }
    }

    #[test]
    fn the_soft_limit_follows_the_best_moves_stability() {
        let soft = Duration::from_millis(450);
        for banked in [false, true] {
            let plan = plan(banked);
            // The first depths change nothing.
            assert_eq!(
                stable_soft_time(soft, &plan, STABLE_FROM_DEPTH - 1, 0),
                soft
            );
            // A changed best move: half again as long.
            assert_eq!(
                stable_soft_time(soft, &plan, STABLE_FROM_DEPTH, 0),
                Duration::from_millis(675)
            );
            assert_eq!(stable_soft_time(soft, &plan, 9, 1), soft);
        }
        // Stable for three depths: half as long, only on a clock.
        assert_eq!(stable_soft_time(soft, &plan(false), 9, 3), soft);
        assert_eq!(
            stable_soft_time(soft, &plan(true), 9, 3),
            Duration::from_millis(225)
        );
        // Never past 90% of the hard limit.
        let tight = Duration::from_millis(800);
        assert_eq!(
            stable_soft_time(tight, &plan(true), 9, 0),
            Duration::from_millis(900)
        );
    }
}
