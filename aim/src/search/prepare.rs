//! What a search does before its threads start, step by step: the evaluation it scores
//! with, a weak level's random move, the root moves in their static order with what the
//! whole game says of each, the threads, and what every thread reads; then the threads'
//! search with the chosen evaluator.

use super::{
    Done, Engine, GamePositions, Progress, RepeatEnd, Repetition, RootMove, Shared, Worker,
    draw_scores, fraction,
};
use crate::classic::{self, EvalCache, Tables};
use crate::evaluator::{Blend, Classic, Evaluation, Evaluator};
use crate::limits::{Limits, Plan};
use crate::nnue::{Network, NetworkEvaluator, by_width};
use crate::params::Tuning;
use crate::score::Score;
use crate::tt::Table;
use hnefatafl_core::{Game, Move, Position, Rules};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Engine {
    /// The evaluation of a search with these limits: the engine's network, when it has
    /// one that fits the rules and the limits do not ask for the classic evaluation, else
    /// the classic one. The table's scores are in the last search's terms, so a change of
    /// evaluation empties it.
    pub(super) fn choose_evaluation(
        &mut self,
        rules: &Rules,
        limits: &Limits,
    ) -> (Option<Arc<Network>>, Evaluation) {
        let network = self.network_with(rules, limits.evaluation);
        let evaluation = match network {
            Some(_) => Evaluation::Network,
            None => Evaluation::Classic,
        };
        if evaluation != self.last_evaluation {
            self.clear();
            self.last_evaluation = evaluation;
        }
        (network, evaluation)
    }

    /// A weak level's deliberate mistake: by the level's chance, a random legal move
    /// instead of a search. Its random numbers are seeded from the clock unless the
    /// engine was seeded ([`Engine::seed`]).
    pub(super) fn weak_random_move(
        &mut self,
        game: &Game,
        plan: &Plan,
        legal: &[Move],
    ) -> Option<Move> {
        if plan.noise == 0 && plan.random_move_percent == 0 {
            return None;
        }
        if self.random.is_none() {
            let clock = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            self.seed(clock ^ game.position().hash());
        }
        if plan.random_move_percent > 0
            && self.next_random() % 100 < u64::from(plan.random_move_percent)
        {
            return Some(legal[(self.next_random() % legal.len() as u64) as usize]);
        }
        None
    }

    /// The root moves in their static order (the best guess first, ties by the squares),
    /// each with a weak level's noise and what the whole game says of it: whether it
    /// repeats a position of the game, and the end of the game it makes by a rule the tree
    /// does not see.
    pub(super) fn root_moves(
        &mut self,
        game: &Game,
        tables: &Tables,
        legal: &[Move],
        noise: i32,
    ) -> Vec<RootMove> {
        let board = game.position().board_bits();
        let mover = game.side_to_move();
        let draw = draw_scores(tables, self.tuning.king_side_draw);
        let beside = classic::beside_enemy(tables, game.position());
        let mut ordered: Vec<(i32, Move)> = legal
            .iter()
            .map(|&mv| (classic::move_guess(tables, board, beside, mv, mover), mv))
            .collect();
        ordered.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(a.1.from().cmp(&b.1.from()))
                .then(a.1.to().cmp(&b.1.to()))
        });
        let mut scratch = game.position().clone();
        let mut after = game.clone();
        // A move back to a position of the game is worth at most a draw where repeating
        // draws (or the rules never end a game by repetition); where it would win or lose,
        // the search scores that end when the count is reached.
        let repeats_draw = Repetition::of(game.rules())
            .as_ref()
            .is_none_or(|repetition| repetition.ends[mover.index()] == RepeatEnd::Draw);
        ordered
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
            .collect()
    }

    /// The threads of a search with these limits (at least one), the pool and the
    /// evaluation memos made ready for them.
    pub(super) fn search_threads(&mut self, limits: &Limits) -> usize {
        let wanted = self.threads(limits).max(1);
        let threads = if wanted > 1 {
            1 + self.ensure_pool(wanted - 1)
        } else {
            1
        };
        if self.memos.len() < threads {
            self.memos.resize_with(threads, EvalCache::new);
        }
        threads
    }
}

impl<'a> Context<'a> {
    /// What the threads of a search of `game` read: the rules' tables, the engine's table
    /// and knobs, and what the game says of repetitions and quiet moves.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        tuning: &Tuning,
        table: Option<&'a Table>,
        tables: &'a Tables,
        shared: &'a Shared,
        game_positions: &'a GamePositions,
        game: &Game,
        threads: usize,
        split: bool,
    ) -> Context<'a> {
        let rules = game.rules();
        Context {
            tables,
            table,
            shared,
            game_positions,
            repetition: Repetition::of(rules),
            tree_repetition: tuning.tree_repetition,
            draw_plies: rules.draw_plies(),
            root_quiet: game
                .history()
                .iter()
                .rev()
                .take_while(|undo| undo.captures().next().is_none())
                .count() as u32,
            strict: threads == 1,
            reductions: tuning.reductions,
            escape_extension: tuning.escape_extension,
            null_move: tuning.null_move,
            stability: tuning.stability,
            quiescence: tuning.quiescence.applies(rules) && shared.plan.noise == 0,
            late_move_reductions: tuning.late_move_reductions && shared.plan.noise == 0,
            aspiration: tuning.aspiration && shared.plan.noise == 0,
            futility: tuning.futility && shared.plan.noise == 0,
            history_pruning: tuning.history_pruning && shared.plan.noise == 0,
            escape_threats: tuning.escape_threats,
            spare_forts: tuning.spare_forts,
            singular: tuning.singular,
            draw: draw_scores(tables, tuning.king_side_draw),
            unfinished_depths: tuning.unfinished_depths,
            split,
        }
    }
}

/// Runs the search on one thread per memo with the evaluator of `network`: the network
/// alone, the network added to a share of the classic evaluation, or the classic
/// evaluation through each thread's memo.
pub(super) fn run_with_evaluation(
    network: Option<&Network>,
    memos: &mut [EvalCache],
    pool: Option<&rayon::ThreadPool>,
    context: &Context<'_>,
    root: &[RootMove],
    position: &Position,
    progress: &mut dyn FnMut(&Progress),
) -> Option<Done> {
    let tables = context.tables;
    match network {
        Some(network) if network.classic_share() > 0 => {
            let share = i32::from(network.classic_share());
            by_width!(network.blocks(), B => {
                let evaluators = memos
                    .iter_mut()
                    .map(|memo| {
                        Blend::new(
                            NetworkEvaluator::<B>::new(network),
                            Classic::new(tables, memo),
                            share,
                        )
                    })
                    .collect();
                run(context, root, position, pool, evaluators, progress)
            })
        }
        Some(network) => by_width!(network.blocks(), B => {
            let evaluators = (0..memos.len())
                .map(|_| NetworkEvaluator::<B>::new(network))
                .collect();
            run(context, root, position, pool, evaluators, progress)
        }),
        None => {
            let evaluators = memos
                .iter_mut()
                .map(|memo| Classic::new(tables, memo))
                .collect();
            run(context, root, position, pool, evaluators, progress)
        }
    }
}

/// Runs a search on one thread per evaluator (the first the calling thread, the others
/// on the pool) and returns the main thread's last finished depth.
pub(super) fn run<E: Evaluator + Send>(
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
                win_scale: shared.win_scale,
                line: shared.line,
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

/// What the threads of one search read.
pub(super) struct Context<'a> {
    pub(super) tables: &'a Tables,
    pub(super) table: Option<&'a Table>,
    pub(super) shared: &'a Shared,
    /// The game's positions, for the rules that forbid repeating one and for those that
    /// end a game by repetition.
    pub(super) game_positions: &'a GamePositions,
    /// The rules' repetition end, if they have one.
    pub(super) repetition: Option<Repetition>,
    /// [`Tuning::tree_repetition`].
    pub(super) tree_repetition: bool,
    /// The rules' `draw_plies`.
    pub(super) draw_plies: Option<u32>,
    /// Plies without a capture before the root.
    pub(super) root_quiet: u32,
    /// Take table scores only from entries of exactly the depth needed, so that a search
    /// of fixed depth gives the same result with the table on or off.
    pub(super) strict: bool,
    pub(super) reductions: bool,
    pub(super) escape_extension: bool,
    pub(super) null_move: bool,
    pub(super) stability: bool,
    pub(super) quiescence: bool,
    /// [`Tuning::late_move_reductions`], where the root has no noise.
    pub(super) late_move_reductions: bool,
    /// [`Tuning::aspiration`], where the root has no noise.
    pub(super) aspiration: bool,
    /// [`Tuning::futility`], where the root has no noise.
    pub(super) futility: bool,
    /// [`Tuning::history_pruning`], where the root has no noise.
    pub(super) history_pruning: bool,
    /// [`Tuning::escape_threats`].
    pub(super) escape_threats: bool,
    /// [`Tuning::spare_forts`].
    pub(super) spare_forts: bool,
    /// [`Tuning::singular`].
    pub(super) singular: bool,
    /// The score of a draw for player 0 and player 1 to move.
    pub(super) draw: [i32; 2],
    pub(super) unfinished_depths: bool,
    /// Several threads share the root moves ([`Split`]); otherwise helpers run their own
    /// iterative deepening (Lazy SMP), as the weak levels' noisy root needs.
    pub(super) split: bool,
}
