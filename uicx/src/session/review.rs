//! `review`: the game's every move with its mover's win chance before and after it,
//! mistakes and blunders marked by the drop, the best move where one was made, and a PNG
//! graph of the win chance over the game (`docs/analysis.md`).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::{Game, Move, Player, Rules};
use image::{Rgb, RgbImage};

use crate::lang::{Key, Message};

use super::game::read_limits;
use super::{Outcome, Session};

/// A drop of the mover's win chance of at least this many points (of 100) is a mistake.
pub const MISTAKE_POINTS: i32 = 10;
/// A drop of at least this many points is a blunder.
pub const BLUNDER_POINTS: i32 = 20;
/// The word that names the graph's file: `review --plot game.png`.
const PLOT: &str = "--plot";
/// The word that names an OpenTafl record to review: `review --record game.otg`.
const RECORD: &str = "--record";
/// The time a position gets when no limit is given: level 3's search, cut to this, so a
/// game of 100 moves reviews in under a minute.
const DEFAULT_TIME: Duration = Duration::from_millis(400);

/// The graph's size and its plot area (`docs/analysis.md`): position `i` of `n` moves is
/// drawn at `x = LEFT + i * (WIDTH - LEFT - RIGHT) / n`, a chance `p` of the first player
/// at `y = TOP + (1 - p) * (HEIGHT - TOP - BOTTOM)`.
pub const WIDTH: u32 = 800;
/// The graph's height.
pub const HEIGHT: u32 = 400;
const LEFT: u32 = 40;
const RIGHT: u32 = 40;
const TOP: u32 = 20;
const BOTTOM: u32 = 20;

/// One position of the game: the chance of its side to move, its best move.
#[derive(Clone, Debug)]
struct Judged {
    mover: Player,
    chance: f64,
    best: Option<Move>,
}

/// How a reviewed move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// Its mover's chance dropped by less than [`MISTAKE_POINTS`].
    None,
    /// By [`MISTAKE_POINTS`] or more.
    Mistake,
    /// By [`BLUNDER_POINTS`] or more.
    Blunder,
}

/// The last review, kept for the window's review view.
#[derive(Clone, Debug)]
pub(crate) struct Reviewed {
    /// The game at its start, its moves to come.
    start: Game,
    moves: Vec<Move>,
    judged: Vec<Judged>,
    marks: Vec<Mark>,
    /// The line printed for each move.
    lines: Vec<String>,
    /// The position shown: 0 is the start, `moves.len()` the end.
    at: usize,
}

/// What the window's review view shows.
#[derive(Clone, Debug)]
pub(crate) struct ReviewShown {
    /// The game at the position shown.
    pub game: Game,
    /// The first player's win chance at each position, from the start.
    pub first: Vec<f64>,
    /// Each move's mark.
    pub marks: Vec<Mark>,
    /// The position shown.
    pub at: usize,
    /// The move that led there, as the review printed it (the start: said so).
    pub caption: String,
    /// The best move the search found in the position shown.
    pub best: Option<Move>,
}

impl Session {
    /// `review [--plot <file>] [<limits>]`: searches every position of the game from its
    /// start and reports each move, then writes the graph when asked.
    pub(super) fn command_review(&mut self, words: &[&str]) -> Outcome {
        self.refuse_help_at_play()?;
        let (plot, words) = take_option(words, PLOT)?;
        let (record, words) = take_option(&words, RECORD)?;
        let limits = if words.is_empty() {
            Limits {
                level: Some(3),
                time: Some(DEFAULT_TIME),
                ..Limits::default()
            }
        } else {
            read_limits(&words)?
        };
        let mut replay = match record {
            Some(path) => self.read_record(path)?,
            None => self.game_or_error()?.clone(),
        };
        let moves: Vec<Move> = {
            while replay.undo().is_some() {}
            replay.redo_moves().collect()
        };
        if moves.is_empty() {
            return Err(Message::plain(Key::ReviewNoMoves));
        }
        let rules = replay.rules().clone();
        let start = replay.clone();
        let judged = self.judge(replay, &moves, &limits);
        let (marks, lines) = self.report(&rules, &moves, &judged);
        if let Some(file) = plot {
            let first: Vec<f64> = judged
                .iter()
                .map(|judged| chance_of(Player::Zero, judged))
                .collect();
            plot_png(Path::new(file), &first).map_err(|error| {
                Message::new(Key::ReviewPlotFailed, [file.to_owned(), error.to_string()])
            })?;
            self.say(Message::new(Key::ReviewPlotted, [file]));
        }
        self.reviewed = Some(Reviewed {
            start,
            at: moves.len(),
            moves,
            judged,
            marks,
            lines,
        });
        Ok(())
    }

    /// The review view: the last review's game at the position chosen, its graph and
    /// marks; `None` when there is none (or the game in play changed since).
    pub(crate) fn review_shown(&self) -> Option<ReviewShown> {
        let reviewed = self.reviewed.as_ref()?;
        let mut game = reviewed.start.clone();
        for &mv in &reviewed.moves[..reviewed.at] {
            game.play(mv);
        }
        let caption = match reviewed.at.checked_sub(1) {
            Some(last) => reviewed.lines[last].clone(),
            None => self.language.get(Key::XReviewStart),
        };
        let caption = self.text(&Message::new(
            Key::XReviewAt,
            [
                reviewed.at.to_string(),
                reviewed.moves.len().to_string(),
                caption,
            ],
        ));
        Some(ReviewShown {
            game,
            first: reviewed
                .judged
                .iter()
                .map(|judged| chance_of(Player::Zero, judged))
                .collect(),
            marks: reviewed.marks.clone(),
            at: reviewed.at,
            caption,
            best: reviewed.judged[reviewed.at].best,
        })
    }

    /// Shows another position of the review: `by` moves on (back when negative).
    pub(crate) fn review_step(&mut self, by: isize) {
        if let Some(reviewed) = &mut self.reviewed {
            reviewed.at = reviewed
                .at
                .saturating_add_signed(by)
                .min(reviewed.moves.len());
        }
    }

    /// Shows position `at` of the review (the last where there are fewer).
    pub(crate) fn review_go_to(&mut self, at: usize) {
        if let Some(reviewed) = &mut self.reviewed {
            reviewed.at = at.min(reviewed.moves.len());
        }
    }

    /// Whether the review view is shown.
    pub(crate) fn reviewing(&self) -> bool {
        self.reviewed.is_some()
    }

    /// Closes the review view; `false` when none was shown.
    pub(crate) fn close_review(&mut self) -> bool {
        self.reviewed.take().is_some()
    }

    /// The game of an OpenTafl record (`review --record game.otg`), in the rules `e`
    /// would load it with: the rules in play where they fit it, else the record's own.
    fn read_record(&self, path: &str) -> Result<Game, Message> {
        let bytes = crate::files::read(Path::new(path))
            .map_err(|error| crate::messages::read_message(&self.language, path, &error))?;
        let current = self.game.as_ref().map(|game| game.rules().clone());
        crate::otg::read(&bytes, current.as_ref())
            .map_err(|reason| Message::new(Key::ReviewBadRecord, [path.to_owned(), reason]))
    }

    /// Searches each position of the game, from the start (`replay`) to the end, showing
    /// the progress on standard error.
    fn judge(&mut self, mut replay: Game, moves: &[Move], limits: &Limits) -> Vec<Judged> {
        let mut engine = Engine::new(EngineConfig::default());
        engine.set_network(
            self.network
                .as_ref()
                .map(|found| Arc::clone(&found.network)),
        );
        let terminal = std::io::stderr().is_terminal();
        let mut judged = Vec::with_capacity(moves.len() + 1);
        for index in 0..=moves.len() {
            let progress = Message::new(
                Key::ReviewProgress,
                [(index + 1).to_string(), (moves.len() + 1).to_string()],
            );
            let progress = self.text(&progress);
            let mut stderr = std::io::stderr();
            let _ = if terminal {
                write!(stderr, "\r{progress}")
            } else {
                writeln!(stderr, "{progress}")
            };
            let mover = replay.side_to_move();
            judged.push(match replay.outcome() {
                Some(outcome) => Judged {
                    mover,
                    chance: match outcome.winner {
                        Some(winner) if winner == mover => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    },
                    best: None,
                },
                None => {
                    let stop = Arc::new(AtomicBool::new(false));
                    let result = engine.search(&replay, limits, stop, &mut |_| {});
                    Judged {
                        mover,
                        chance: result.win_chance(),
                        best: result.best,
                    }
                }
            });
            if let Some(&mv) = moves.get(index) {
                replay.play(mv);
            }
        }
        if terminal {
            let _ = writeln!(std::io::stderr());
        }
        judged
    }

    /// One line a move: its mover's chance before and after it, and the mark and best
    /// move where the chance dropped by [`MISTAKE_POINTS`] or more; then the counts.
    /// Returns each move's mark and line.
    fn report(
        &mut self,
        rules: &Rules,
        moves: &[Move],
        judged: &[Judged],
    ) -> (Vec<Mark>, Vec<String>) {
        let naming = self.naming();
        let (mut mistakes, mut blunders) = (0, 0);
        let (mut marks, mut lines) = (Vec::new(), Vec::new());
        for (index, &mv) in moves.iter().enumerate() {
            let mover = judged[index].mover;
            let before = percent(chance_of(mover, &judged[index]));
            let after = percent(chance_of(mover, &judged[index + 1]));
            let drop = before - after;
            let mut words = vec![
                (index + 1).to_string(),
                naming.move_text(rules, mv),
                self.win_words_in(rules, mover, f64::from(before) / 100.0),
                self.win_words_in(rules, mover, f64::from(after) / 100.0),
            ];
            let key = if drop >= MISTAKE_POINTS {
                let best = judged[index]
                    .best
                    .map_or_else(|| "-".to_owned(), |best| naming.move_text(rules, best));
                words.extend([drop.to_string(), best]);
                if drop >= BLUNDER_POINTS {
                    blunders += 1;
                    marks.push(Mark::Blunder);
                    Key::ReviewBlunder
                } else {
                    mistakes += 1;
                    marks.push(Mark::Mistake);
                    Key::ReviewMistake
                }
            } else {
                marks.push(Mark::None);
                Key::ReviewMove
            };
            let line = Message::new(key, words);
            lines.push(self.text(&line));
            self.say(line);
        }
        self.say(Message::new(
            Key::ReviewSummary,
            [
                moves.len().to_string(),
                mistakes.to_string(),
                blunders.to_string(),
            ],
        ));
        (marks, lines)
    }
}

/// `words` less `name <value>`, and the value; an error when the value is missing.
fn take_option<'w>(
    words: &[&'w str],
    name: &'static str,
) -> Result<(Option<&'w str>, Vec<&'w str>), Message> {
    let Some(at) = words.iter().position(|&word| word == name) else {
        return Ok((None, words.to_vec()));
    };
    let value = *words
        .get(at + 1)
        .ok_or_else(|| Message::new(Key::CmdEmptyName, [name]))?;
    let rest = words[..at]
        .iter()
        .chain(&words[at + 2..])
        .copied()
        .collect();
    Ok((Some(value), rest))
}

/// The chance that `player` wins at a judged position.
fn chance_of(player: Player, judged: &Judged) -> f64 {
    if judged.mover == player {
        judged.chance
    } else {
        1.0 - judged.chance
    }
}

/// A chance in whole percent, as shown.
fn percent(chance: f64) -> i32 {
    (chance * 100.0).round().clamp(0.0, 100.0) as i32
}

/// Where a position's point lies on the graph: its column and row.
fn point(index: usize, positions: usize, chance: f64) -> (f64, f64) {
    let moves = (positions.max(2) - 1) as f64;
    let x = f64::from(LEFT) + index as f64 * f64::from(WIDTH - LEFT - RIGHT) / moves;
    let y = f64::from(TOP) + (1.0 - chance.clamp(0.0, 1.0)) * f64::from(HEIGHT - TOP - BOTTOM);
    (x, y)
}

/// The curve's colour; the test of the graph reads it back.
pub const CURVE: Rgb<u8> = Rgb([20, 60, 200]);

/// Writes the graph of the first player's win chance (`first`, one a position) as a PNG:
/// a white page, grey lines at 25% and 75%, a black line at 50%, and the curve in
/// [`CURVE`]. Drawn with the image crate alone: a curve and a few lines need no more.
fn plot_png(path: &Path, first: &[f64]) -> Result<(), String> {
    let mut image = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb([255, 255, 255]));
    for (chance, colour) in [
        (0.25, Rgb([200, 200, 200])),
        (0.75, Rgb([200, 200, 200])),
        (0.5, Rgb([0, 0, 0])),
    ] {
        let (_, y) = point(0, 2, chance);
        for x in LEFT..=WIDTH - RIGHT {
            image.put_pixel(x, y.round() as u32, colour);
        }
    }
    for pair in 0..first.len().saturating_sub(1) {
        let from = point(pair, first.len(), first[pair]);
        let to = point(pair + 1, first.len(), first[pair + 1]);
        let steps = ((to.0 - from.0).abs().max((to.1 - from.1).abs()).ceil() as usize).max(1);
        for step in 0..=steps {
            let t = step as f64 / steps as f64;
            let x = from.0 + (to.0 - from.0) * t;
            let y = from.1 + (to.1 - from.1) * t;
            image.put_pixel(x.round() as u32, y.round() as u32, CURVE);
        }
    }
    let mut bytes = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|error| error.to_string())?;
    crate::files::write_atomically(path, bytes.get_ref()).map_err(|error| error.to_string())
}
