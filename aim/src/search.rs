//! The search: iterative deepening principal-variation alpha-beta with a shared
//! transposition table, run by several threads at once on the engine's rayon pool (the root
//! moves of each depth shared between them after the first; see `Split`).

mod prepare;
mod root;
mod time;
mod tree;

use prepare::{Context, run_with_evaluation};

use time::fraction;

use crate::classic::{self, Tables};
use crate::evaluator::{Evaluation, Evaluator};
use crate::history::{History, HistoryTables, Killers};
use crate::limits::{Limits, Plan};
use crate::movepick::MovePicker;
use crate::nnue::{Layout, Network};
use crate::params::{EngineConfig, Parallel, Tuning};
use crate::score::{Score, is_decisive};
use crate::tt::Table;
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{Game, Move, Player, Position, Rules, Undo};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
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
    /// The win chance's scale of the evaluation that scored it ([`Score::win_chance`]).
    pub win_scale: u16,
    /// Which line of an analysis of several ([`Engine::search_lines`]) it reports: 0 for
    /// the best move's, 1 for the next best's, and so on; always 0 for [`Engine::search`].
    pub line: usize,
}

impl Progress {
    /// The chance, from 0 to 1, that the side to move wins, by the score.
    pub fn win_chance(&self) -> f64 {
        self.score.win_chance(self.win_scale)
    }
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
    /// The evaluation that scored the search's leaves: [`Evaluation::Network`] only when
    /// one was asked for and the engine has a network that fits the rules.
    pub evaluation: Evaluation,
    /// The win chance's scale of that evaluation: the network's
    /// [`piece_scale`](Network::piece_scale), or [`CLASSIC_WIN_SCALE`](crate::CLASSIC_WIN_SCALE).
    pub win_scale: u16,
}

impl SearchResult {
    /// The chance, from 0 to 1, that the side to move wins, by the score
    /// ([`Score::win_chance`]).
    pub fn win_chance(&self) -> f64 {
        self.score.win_chance(self.win_scale)
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
    /// The learned evaluation, given by [`Engine::set_network`]: the one place a network
    /// is chosen.
    network: Option<Arc<Network>>,
    /// The rules of the last search (compared by `Rules` equality) and their compiled tables.
    tables: Option<(Rules, Arc<Tables>)>,
    /// The random numbers of the weak levels, once seeded.
    random: Option<SplitMix>,
    /// Per search thread, its memo of evaluations ([`classic::EvalCache`]): kept from search
    /// to search, since the positions of the next move's search are much the same, and
    /// dropped when the rules (and so the evaluation) change.
    memos: Vec<classic::EvalCache>,
    /// The evaluation of the last search: the table's scores are in its terms, so a search
    /// with the other one starts from an empty table.
    last_evaluation: Evaluation,
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
    /// The win chance's scale of the search's evaluation.
    win_scale: u16,
    /// The line of an analysis of several that the search looks for ([`Progress::line`]).
    line: usize,
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
    /// The pass's window ([`root::Window`]).
    window: Mutex<root::Window>,
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
            network: None,
            tables: None,
            random: None,
            memos: Vec::new(),
            last_evaluation: Evaluation::Classic,
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
                let own = network.evaluate(&network.refresh(position), position.side_to_move());
                let classic = match network.classic_share() {
                    0 => 0,
                    share => classic::evaluate(&tables, position) * i32::from(share) / 100,
                };
                Score(own + classic)
            }
            None => Score(classic::evaluate(&tables, position)),
        }
    }

    /// The network a search without [`Limits::evaluation`] evaluates with: the engine's
    /// ([`Engine::set_network`]), when it fits the rules' piece layout.
    pub fn network_for(&self, rules: &Rules) -> Option<Arc<Network>> {
        self.network_with(rules, None)
    }

    /// The network a search that asks for `evaluation` evaluates with: the engine's, unless
    /// the classic evaluation is asked for, when it fits the rules' piece layout.
    fn network_with(&self, rules: &Rules, evaluation: Option<Evaluation>) -> Option<Arc<Network>> {
        let network = self.network.as_ref()?;
        (evaluation != Some(Evaluation::Classic) && *network.layout() == Layout::of(rules))
            .then(|| Arc::clone(network))
    }

    /// Gives the engine a network (read by the caller; aim reads no files), the one place
    /// a network is chosen: it is the evaluation of every search that does not ask for
    /// the classic one ([`Limits::evaluation`]); `None` goes back to the classic
    /// evaluation. A network that does not fit a search's rules leaves that search the
    /// classic evaluation.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
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
        self.search_within(&game, limits).best
    }

    /// [`Engine::search`] that only `limits` end: no stop flag and no progress reports,
    /// for a caller that waits for the answer (a match, a batch job, a test).
    pub fn search_within(&mut self, game: &Game, limits: &Limits) -> SearchResult {
        self.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
    }

    /// Searches the game's current position and returns the best move found. Never returns
    /// an illegal move (repetition included). Stops early when `stop` becomes true, with the
    /// best move so far. `progress` is called after each finished depth.
    ///
    /// Its steps, each in `search/prepare.rs`: the evaluation (`choose_evaluation`), a
    /// weak level's random move (`weak_random_move`), the root moves in their static order
    /// with what the whole game says of each (`root_moves`), the threads
    /// (`search_threads`), what every thread reads (`Context::new`), and the threads'
    /// search with the chosen evaluator (`run_with_evaluation`).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.search_line(game, limits, stop, progress, &[], 0)
    }

    /// Searches the game's position for its best `limits.lines` moves (MultiPV; one
    /// without the limit), best first, each with its score and line: the best move is
    /// [`Engine::search`]'s, the second the best of the others, and so on, each a search
    /// of its own within `limits` that leaves out the moves found before it (so `lines=3`
    /// takes about three times as long; the single-line search is untouched). Fewer come
    /// back when the position has fewer legal moves, or when `stop` ends the analysis
    /// (the line being searched then comes with its best so far). `progress` is called
    /// after each finished depth of each line ([`Progress::line`]).
    pub fn search_lines(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Vec<SearchResult> {
        let wanted = limits.lines.unwrap_or(1).max(1);
        let mut found: Vec<SearchResult> = Vec::with_capacity(wanted);
        let mut excluded = Vec::with_capacity(wanted);
        while found.len() < wanted {
            let line = found.len();
            if line > 0 && stop.load(Ordering::Relaxed) {
                break;
            }
            let result =
                self.search_line(game, limits, Arc::clone(&stop), progress, &excluded, line);
            let Some(best) = result.best else { break };
            excluded.push(best);
            found.push(result);
        }
        // Each line is the best of the moves the lines before it left, so its score is
        // no better than theirs unless the searches disagree: the best first regardless.
        found.sort_by_key(|result| std::cmp::Reverse(result.score));
        found
    }

    /// [`Engine::search`] among the legal moves less `excluded`, reporting its progress
    /// as line `line` of an analysis.
    fn search_line(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
        excluded: &[Move],
        line: usize,
    ) -> SearchResult {
        let start = Instant::now();
        let plan = limits.plan();
        let (network, evaluation) = self.choose_evaluation(game.rules(), limits);
        let win_scale = network
            .as_ref()
            .map_or(crate::score::CLASSIC_WIN_SCALE, |network| {
                network.piece_scale()
            });
        let answer =
            |best: Option<Move>, score: i32, depth: u32, nodes: u64, pv: Vec<Move>| SearchResult {
                best,
                score: Score(score),
                depth,
                nodes,
                elapsed: start.elapsed(),
                pv,
                evaluation,
                win_scale,
            };
        let legal: Vec<Move> = if game.outcome().is_some() {
            Vec::new()
        } else {
            game.legal_moves()
                .filter(|mv| !excluded.contains(mv))
                .collect()
        };
        if legal.is_empty() {
            return answer(None, Score::loss_in(0).0, 0, 0, Vec::new());
        }
        let rules = game.rules().clone();
        let tables = self.tables_for(&rules);
        if let Some(mv) = self.weak_random_move(game, &plan, &legal) {
            return answer(Some(mv), 0, 0, 0, vec![mv]);
        }
        let root = self.root_moves(game, &tables, &legal, plan.noise);
        let threads = self.search_threads(limits);
        let split = threads > 1 && plan.noise == 0 && self.tuning.parallel == Parallel::RootSplit;
        let game_positions = GamePositions::new(game.position_hashes());
        let shared = Shared {
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start,
            plan,
            split: Split::default(),
            history: HistoryTables::new(tables.square_count, if split { 1 } else { threads }),
            win_scale,
            line,
        };
        let context = Context::new(
            &self.tuning,
            self.table.as_ref(),
            &tables,
            &shared,
            &game_positions,
            game,
            threads,
            split,
        );
        let outcome = run_with_evaluation(
            network.as_deref(),
            &mut self.memos[..threads],
            self.pool.as_ref(),
            &context,
            &root,
            game.position(),
            progress,
        );
        let nodes = shared.nodes.load(Ordering::Relaxed);
        match outcome {
            Some(done) => answer(
                done.pv.first().copied(),
                done.score,
                done.depth,
                nodes,
                done.pv,
            ),
            None => answer(Some(root[0].mv), 0, 0, nodes, vec![root[0].mv]),
        }
    }
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
    /// The depth of the iteration under way.
    iteration: u32,
    /// The move each ply's node leaves out, in a singular extension's test.
    excluded: Vec<Option<Move>>,
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
            iteration: 0,
            excluded: vec![None; MAX_PLY + 1],
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
}
