//! Saved games: the text format of docs/savegame.md (pure: text in, values out).
//!
//! A saved game is a text in the common syntax, one record per line:
//!
//! ```text
//! # hnefatafl saved game
//! rules tablut tablut.rules      # the rules' id and the file they were loaded from
//! size 9 9                       # the board's width and height
//! player 0 human                 # each player's setting, as words of the interface
//! player 1 computer d4 t10
//! move 4 1 2 1                   # every move, oldest first: x1 y1 x2 y2, 0-based,
//! move 3 0 3 1                   # origin top-left; a jump capture adds each
//!                                # further square it lands on
//! ```
//!
//! See `docs/savegame.md` for the full description.

use crate::error::MoveError;
use crate::{Game, Move, Notation, Rules, Square};

/// A saved game as read from text, before it is replayed: the record of a game.
///
/// With the `serde` feature it is also `Serialize` and `Deserialize`, for formats other
/// than the text one.
///
/// ```
/// use hnefatafl_core::{Game, Rules};
/// use hnefatafl_core::save::SavedGame;
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let mut game = Game::new(rules.clone());
/// game.play("3 0 3 2".parse()?);
/// let saved = SavedGame::from_game(&game, "tablut.rules", [vec!["human".into()], vec!["human".into()]]);
/// let text = saved.to_text(&rules);
/// assert_eq!(SavedGame::parse(text.as_bytes())?, saved);
/// assert_eq!(saved.replay(&rules)?.ply(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SavedGame {
    /// The `id` of the rule file.
    pub rules_id: String,
    /// The file name the rules were loaded from.
    pub rules_file: String,
    /// Each player's setting, as opaque words for the interface (e.g. `["human"]`,
    /// `["computer", "d4", "t10"]`); index 0 is player 0.
    pub players: [Vec<String>; 2],
    /// Every move made, oldest first.
    pub moves: Vec<Move>,
    /// The board's width and height, as saved.
    pub size: (u8, u8),
}

/// Why a saved game was refused.
///
/// ```
/// use hnefatafl_core::save::{SaveError, SavedGame};
/// assert_eq!(SavedGame::parse(b"size 9 9\n"), Err(SaveError::Missing("rules")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The text breaks the common syntax.
    #[error("{0}")]
    Syntax(#[from] gleipnir::SyntaxError),
    /// A line cannot be read.
    #[error("line {line}: {message}")]
    Read {
        /// The 1-based line.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// A required record is missing.
    #[error("the saved game has no `{0}` line")]
    Missing(&'static str),
    /// The game was saved with other rules.
    #[error("the game was saved with the rules `{saved}`, not `{loaded}`")]
    WrongRules {
        /// The id in the saved game.
        saved: String,
        /// The id of the rules given.
        loaded: String,
    },
    /// The board size differs from the rules'.
    #[error("the game was saved on a {saved_width}x{saved_height} board, not {width}x{height}")]
    WrongSize {
        /// Saved width.
        saved_width: u8,
        /// Saved height.
        saved_height: u8,
        /// The rules' width.
        width: u8,
        /// The rules' height.
        height: u8,
    },
    /// A move cannot be played.
    #[error("move {number} ({text}) is illegal: {reason}")]
    IllegalMove {
        /// 1-based number of the move in the game.
        number: usize,
        /// The move, numeric notation.
        text: String,
        /// Why it is illegal.
        reason: MoveError,
    },
}

fn read_error(line: u32, message: impl Into<String>) -> SaveError {
    SaveError::Read {
        line,
        message: message.into(),
    }
}

fn number(line: u32, word: &str, max: u32) -> Result<u32, SaveError> {
    word.parse::<u32>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| read_error(line, format!("`{word}` is not a number from 0 to {max}")))
}

impl SavedGame {
    /// Reads a saved game's text. Moves are checked only by [`SavedGame::replay`].
    ///
    /// # Errors
    ///
    /// [`SaveError`] naming the line that cannot be read, or the missing record.
    ///
    /// ```
    /// use hnefatafl_core::save::SavedGame;
    /// let saved = SavedGame::parse(b"rules tablut tablut\nsize 9 9\nmove 3 0 3 2\n")?;
    /// assert_eq!((saved.rules_id.as_str(), saved.moves.len()), ("tablut", 1));
    /// # Ok::<(), hnefatafl_core::save::SaveError>(())
    /// ```
    pub fn parse(text: &[u8]) -> Result<SavedGame, SaveError> {
        let mut rules = None;
        let mut size = None;
        let mut players: [Vec<String>; 2] = Default::default();
        let mut seen_players = [false; 2];
        let mut moves = Vec::new();
        for line in gleipnir::parse(text)? {
            let n = line.number;
            let words = &line.words;
            let values = &words[1..];
            match words[0].as_str() {
                "rules" => {
                    let [id, file] = values else {
                        return Err(read_error(n, "`rules` takes the rules' id and file name"));
                    };
                    if rules.is_some() {
                        return Err(read_error(n, "a second `rules` record"));
                    }
                    rules = Some((id.clone(), file.clone()));
                }
                "size" => {
                    let [width, height] = values else {
                        return Err(read_error(n, "`size` takes a width and a height"));
                    };
                    let (width, height) =
                        (number(n, width, 31)? as u8, number(n, height, 31)? as u8);
                    if width == 0 || height == 0 {
                        return Err(read_error(n, "the board size must be at least 1x1"));
                    }
                    // The moves already read were numbered on the first size.
                    if size.is_some() {
                        return Err(read_error(n, "a second `size` record"));
                    }
                    size = Some((width, height));
                }
                "player" => {
                    let Some(player) = values.first() else {
                        return Err(read_error(
                            n,
                            "`player` takes 0 or 1 and the player's setting",
                        ));
                    };
                    let index = number(n, player, 1)? as usize;
                    if seen_players[index] {
                        return Err(read_error(n, format!("a second `player {index}` record")));
                    }
                    seen_players[index] = true;
                    players[index] = values[1..].to_vec();
                }
                "move" => {
                    let Some((width, height)) = size else {
                        return Err(read_error(n, "`move` before `size`"));
                    };
                    if values.len() < 4 || values.len() % 2 != 0 {
                        return Err(read_error(
                            n,
                            "`move` takes four numbers, x1 y1 x2 y2, and two more for each \
                             further jump of a jump capture",
                        ));
                    }
                    let w = u32::from(width);
                    let h = u32::from(height);
                    let square = |x: &str, y: &str| -> Result<Square, SaveError> {
                        let (x, y) = (number(n, x, w - 1)?, number(n, y, h - 1)?);
                        // Below the saved size, which is at most 31.
                        Square::new(x as u8, y as u8)
                            .ok_or_else(|| read_error(n, format!("`{x} {y}` is off the board")))
                    };
                    let squares = values
                        .chunks(2)
                        .map(|pair| square(&pair[0], &pair[1]))
                        .collect::<Result<Vec<Square>, SaveError>>()?;
                    let mv = Move::through(squares[0], &squares[1..])
                        .map_err(|error| read_error(n, error.to_string()))?;
                    moves.push(mv);
                }
                other => return Err(read_error(n, format!("unknown record `{other}`"))),
            }
        }
        let (rules_id, rules_file) = rules.ok_or(SaveError::Missing("rules"))?;
        let size = size.ok_or(SaveError::Missing("size"))?;
        Ok(SavedGame {
            rules_id,
            rules_file,
            players,
            moves,
            size,
        })
    }

    /// Writes the text form; [`SavedGame::parse`] reads it back. The rules' name goes into a
    /// comment on the first line.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # use hnefatafl_core::save::SavedGame;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let saved = SavedGame::from_game(&Game::new(rules.clone()), "tablut", Default::default());
    /// assert!(saved.to_text(&rules).contains("size 9 9\n"));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn to_text(&self, rules: &Rules) -> String {
        let quote = gleipnir::quote;
        let mut text = format!(
            "# hnefatafl saved game: {}\n",
            rules.name().replace('\n', " ")
        );
        text += &format!(
            "rules {} {}\n",
            quote(&self.rules_id),
            quote(&self.rules_file)
        );
        text += &format!("size {} {}\n", self.size.0, self.size.1);
        for (index, words) in self.players.iter().enumerate() {
            text += &format!("player {index}");
            for word in words {
                text.push(' ');
                text += &quote(word);
            }
            text.push('\n');
        }
        for &mv in &self.moves {
            text += &format!("move {mv}\n");
        }
        text
    }

    /// Records a game.
    ///
    /// ```
    /// # use hnefatafl_core::{Game, Rules};
    /// # use hnefatafl_core::save::SavedGame;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let mut game = Game::new(rules);
    /// game.play("3 0 3 2".parse()?);
    /// let saved = SavedGame::from_game(&game, "tablut", [vec!["human".into()], vec![]]);
    /// assert_eq!(saved.moves, [game.last_move().unwrap()]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_game(game: &Game, rules_file: &str, players: [Vec<String>; 2]) -> SavedGame {
        let rules = game.rules();
        SavedGame {
            rules_id: rules.id().to_owned(),
            rules_file: rules_file.to_owned(),
            players,
            moves: game.moves().collect(),
            size: (rules.width(), rules.height()),
        }
    }

    /// Replays the moves on these rules. Fails if the rules' id differs or a move is
    /// illegal, naming the move.
    ///
    /// # Errors
    ///
    /// [`SaveError::WrongRules`], [`SaveError::WrongSize`] or [`SaveError::IllegalMove`].
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// # use hnefatafl_core::save::{SaveError, SavedGame};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let saved = SavedGame::parse(b"rules tablut tablut\nsize 9 9\nmove 0 0 0 1\n")?;
    /// assert!(matches!(saved.replay(&rules), Err(SaveError::IllegalMove { number: 1, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replay(&self, rules: &Rules) -> Result<Game, SaveError> {
        if self.rules_id != rules.id() {
            return Err(SaveError::WrongRules {
                saved: self.rules_id.clone(),
                loaded: rules.id().to_owned(),
            });
        }
        if self.size != (rules.width(), rules.height()) {
            return Err(SaveError::WrongSize {
                saved_width: self.size.0,
                saved_height: self.size.1,
                width: rules.width(),
                height: rules.height(),
            });
        }
        let mut game = Game::new(rules.clone());
        for (index, &mv) in self.moves.iter().enumerate() {
            game.try_play(mv).map_err(|reason| SaveError::IllegalMove {
                number: index + 1,
                text: rules.format_move(mv, Notation::Numeric),
                reason,
            })?;
        }
        Ok(game)
    }
}
