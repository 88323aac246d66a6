//! The computer's thinking: one search at a time on its own thread, with a stop flag.
//!
//! Used alike by the command line and the X window: start a search, get its progress
//! and result as events, stop it early (`f`), or cancel it when the game changes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use aim::nnue::Network;
use aim::{Engine, EngineConfig, Limits, Progress, SearchResult};
use hnefatafl_core::Game;

/// Called from the search thread when there is something to fetch with
/// [`Thinker::poll`].
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// Why a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To make the computer's move.
    Play,
    /// To analyse the position (`a`).
    Analyse,
}

/// What a running search reports.
#[derive(Debug)]
pub enum Event {
    /// A depth finished.
    Progress(Progress),
    /// The search ended. `position` is the number of moves played when it started and
    /// `hash` the position's key, so a stale result is never applied.
    Done {
        /// The result.
        result: SearchResult,
        /// Why it ran.
        purpose: Purpose,
        /// Moves played in the game when the search started.
        ply: usize,
        /// The position key when it started.
        hash: u64,
        /// An analysis of several lines (`lines=3`): the lines after the best one, in
        /// order; empty otherwise.
        others: Vec<SearchResult>,
    },
}

enum Message {
    Progress(Progress),
    Done(Box<Engine>, SearchResult, Vec<SearchResult>),
}

struct Job {
    stop: Arc<AtomicBool>,
    receiver: Receiver<Message>,
    handle: Option<JoinHandle<()>>,
    purpose: Purpose,
    ply: usize,
    hash: u64,
    fraction: f32,
    started: Instant,
    budget: Option<Duration>,
    node_limit: bool,
}

/// Owns the engine and at most one running search.
pub struct Thinker {
    engine: Option<Box<Engine>>,
    job: Option<Job>,
    /// The learned evaluation of the rules in play, given to the engine of every search.
    network: Option<Arc<Network>>,
}

impl Default for Thinker {
    fn default() -> Self {
        Thinker::new()
    }
}

impl Thinker {
    /// A thinker with a fresh engine (created on the first search).
    pub fn new() -> Thinker {
        Thinker {
            engine: None,
            job: None,
            network: None,
        }
    }

    /// The network the searches evaluate with from the next one on, unless their limits
    /// ask for the classic evaluation (`eval=classic`); `None`: the classic evaluation.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
    }

    /// Whether a search is running.
    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Why the running search runs.
    pub fn purpose(&self) -> Option<Purpose> {
        self.job.as_ref().map(|job| job.purpose)
    }

    /// The fraction of the running search's budget used so far.
    pub fn fraction(&self) -> Option<f32> {
        // The time used of the clock's budget moves steadily; the finished depths only
        // when one ends.
        self.job.as_ref().map(|job| {
            let timed = job.budget.map_or(0.0, |budget| {
                job.started.elapsed().as_secs_f32() / budget.as_secs_f32().max(f32::EPSILON)
            });
            timed.max(job.fraction).clamp(0.0, 1.0)
        })
    }

    /// The time since the running search started.
    pub fn elapsed(&self) -> Duration {
        self.job
            .as_ref()
            .map_or(Duration::ZERO, |job| job.started.elapsed())
    }

    /// The most time the running search may take, when a clock bounds it.
    pub fn budget(&self) -> Option<Duration> {
        self.job.as_ref().and_then(|job| job.budget)
    }

    /// Whether a node limit bounds the running search.
    pub fn has_node_limit(&self) -> bool {
        self.job.as_ref().is_some_and(|job| job.node_limit)
    }

    /// Starts searching the game's position. Does nothing if a search is running.
    pub fn start(&mut self, game: &Game, limits: Limits, purpose: Purpose, notify: Notify) {
        if self.job.is_some() {
            return;
        }
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Box::new(Engine::new(EngineConfig::default())));
        engine.set_network(self.network.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let (sender, receiver) = mpsc::channel();
        let budget = limits.move_time();
        let node_limit = limits.nodes.is_some();
        let game_copy = game.clone();
        let thread_stop = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let progress_sender = sender.clone();
            let progress_notify = Arc::clone(&notify);
            let mut report = |progress: &Progress| {
                // The receiver may be gone when the search was cancelled.
                let _ = progress_sender.send(Message::Progress(progress.clone()));
                progress_notify();
            };
            let (result, others) = if purpose == Purpose::Analyse && limits.lines > Some(1) {
                let mut lines = engine
                    .search_lines(&game_copy, &limits, thread_stop, &mut report)
                    .into_iter();
                match lines.next() {
                    Some(best) => (best, lines.collect()),
                    None => (
                        engine.search(&game_copy, &limits, stop_now(), &mut report),
                        Vec::new(),
                    ),
                }
            } else {
                let result = engine.search(&game_copy, &limits, thread_stop, &mut report);
                (result, Vec::new())
            };
            let _ = sender.send(Message::Done(engine, result, others));
            notify();
        });
        self.job = Some(Job {
            stop,
            receiver,
            handle: Some(handle),
            purpose,
            ply: game.moves().len(),
            hash: game.position().hash(),
            fraction: 0.0,
            started: Instant::now(),
            budget,
            node_limit,
        });
    }

    /// Asks the running search to stop now; its best move so far comes as usual.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Fetches the next event of the running search without waiting.
    pub fn poll(&mut self) -> Option<Event> {
        let received = match self.job.as_ref()?.receiver.try_recv() {
            Ok(message) => Some(message),
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => None,
        };
        self.event_of(received)
    }

    /// Waits for the next event of the running search.
    pub fn wait(&mut self) -> Option<Event> {
        let received = self.job.as_ref()?.receiver.recv().ok();
        self.event_of(received)
    }

    /// The event of what came from the search thread: a message, or `None` when the
    /// thread is gone.
    fn event_of(&mut self, received: Option<Message>) -> Option<Event> {
        match received {
            Some(Message::Progress(progress)) => {
                let job = self.job.as_mut()?;
                job.fraction = progress.fraction.clamp(0.0, 1.0);
                Some(Event::Progress(progress))
            }
            Some(Message::Done(engine, result, others)) => self.finish(engine, result, others),
            None => {
                // The search thread died: start afresh with a new engine next time.
                self.job = None;
                None
            }
        }
    }

    fn finish(
        &mut self,
        engine: Box<Engine>,
        result: SearchResult,
        others: Vec<SearchResult>,
    ) -> Option<Event> {
        let mut job = self.job.take()?;
        if let Some(handle) = job.handle.take() {
            let _ = handle.join();
        }
        self.engine = Some(engine);
        Some(Event::Done {
            result,
            purpose: job.purpose,
            ply: job.ply,
            hash: job.hash,
            others,
        })
    }

    /// Stops the running search and throws its result away (the game changed).
    pub fn cancel(&mut self) {
        self.stop();
        while self.job.is_some() {
            if let Some(Event::Done { .. }) | None = self.wait() {
                break;
            }
        }
    }

    /// Forgets what the engine learned (a new game or new rules).
    pub fn clear(&mut self) {
        self.cancel();
        if let Some(engine) = self.engine.as_mut() {
            engine.clear();
        }
    }
}

/// A stop flag already set: a search with it answers at once.
fn stop_now() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(true))
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.cancel();
    }
}
