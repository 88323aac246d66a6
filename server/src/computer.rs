//! The computer players' searches, on a pool of `--computer-threads` threads that the
//! games share: each thread keeps one engine (one search thread, a transposition table of
//! [`TABLE_MIB`] MiB) for as long as the server runs, so the searches' memory is bounded by
//! the pool's size, not by the number of games. Searches wait their turn in a queue that
//! is fair between the human players: each player's next search in turn, so one account's
//! twenty games do not hold back another's one.
//!
//! A search is stopped by its flag (set by the referee when its turn is over: a move, an
//! undo, the game's end) and is capped by its level's own time whatever the clock allows
//! (`crate::referee`'s `computer_task`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The transposition table of each engine of the pool, in MiB.
pub const TABLE_MIB: usize = 16;

/// The default size of the pool: the cores less one (left to the connections), at least
/// one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1)
}

/// A search to run on an engine of the pool.
pub(crate) type Job = Box<dyn FnOnce(&mut aim::Engine) + Send>;

/// The searches waiting for a thread, by the player they are for.
#[derive(Default)]
struct Queue {
    waiting: BTreeMap<String, VecDeque<Job>>,
    /// The players with searches waiting, in the order their next one runs.
    order: VecDeque<String>,
    closed: bool,
}

impl Queue {
    /// The next search: the first player's first, that player going to the back.
    fn next(&mut self) -> Option<Job> {
        let player = self.order.pop_front()?;
        let jobs = self.waiting.get_mut(&player)?;
        let job = jobs.pop_front();
        if jobs.is_empty() {
            self.waiting.remove(&player);
        } else {
            self.order.push_back(player);
        }
        job
    }
}

/// The pool.
pub(crate) struct Computers {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Computers {
    /// Starts a pool of `threads` threads (at least one).
    ///
    /// # Errors
    ///
    /// The system refused a thread.
    pub(crate) fn start(threads: usize) -> std::io::Result<Arc<Computers>> {
        let computers = Arc::new(Computers {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        for index in 0..threads.max(1) {
            let pool = computers.clone();
            std::thread::Builder::new()
                .name(format!("computer-{}", index + 1))
                .spawn(move || pool.work())?;
        }
        Ok(computers)
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues a search for `player` (the human the computer plays).
    pub(crate) fn submit(&self, player: &str, job: Job) {
        let mut queue = self.queue();
        if queue.closed {
            return;
        }
        match queue.waiting.get_mut(player) {
            Some(jobs) => jobs.push_back(job),
            None => {
                queue
                    .waiting
                    .insert(player.to_owned(), VecDeque::from([job]));
                queue.order.push_back(player.to_owned());
            }
        }
        drop(queue);
        self.ready.notify_one();
    }

    /// Drops the waiting searches and ends the threads once their searches are done.
    pub(crate) fn close(&self) {
        let mut queue = self.queue();
        queue.closed = true;
        queue.waiting.clear();
        queue.order.clear();
        drop(queue);
        self.ready.notify_all();
    }

    /// A thread of the pool: its engine, and the searches as they come.
    fn work(&self) {
        let config = aim::EngineConfig {
            threads: 1,
            hash_mib: TABLE_MIB,
        };
        let mut engine = aim::Engine::new(config);
        loop {
            let mut queue = self.queue();
            let job = loop {
                if queue.closed {
                    return;
                }
                if let Some(job) = queue.next() {
                    break job;
                }
                queue = self
                    .ready
                    .wait(queue)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            };
            drop(queue);
            job(&mut engine);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_takes_a_turn_at_the_queue() {
        let ran = Arc::new(Mutex::new(Vec::new()));
        let mut queue = Queue::default();
        let job = |label: &'static str| -> Job {
            let ran = ran.clone();
            Box::new(move |_| ran.lock().expect("lock").push(label))
        };
        let mut add = |player: &str, job: Job| {
            if !queue.waiting.contains_key(player) {
                queue.order.push_back(player.to_owned());
            }
            queue
                .waiting
                .entry(player.to_owned())
                .or_default()
                .push_back(job);
        };
        for label in ["ann 1", "ann 2", "ann 3"] {
            add("ann", job(label));
        }
        add("bob", job("bob 1"));
        add("cid", job("cid 1"));
        let mut engine = aim::Engine::new(aim::EngineConfig {
            threads: 1,
            hash_mib: 0,
        });
        while let Some(next) = queue.next() {
            next(&mut engine);
        }
        assert_eq!(
            *ran.lock().expect("lock"),
            ["ann 1", "bob 1", "cid 1", "ann 2", "ann 3"]
        );
    }
}
