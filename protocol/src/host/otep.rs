//! The OpenTafl Engine Protocol, host side: the rules, then `play`, `opponent-move` and
//! `move` lines with the position after each.

use aim::Clock;
use hnefatafl_core::otn::{self, OtnMove, Roles, RulesString, Side as OtnSide};
use hnefatafl_core::{Game, Move, Outcome, Rules};

use super::process::Process;
use super::{Mover, START_WAIT, answer_wait, checked};

/// An engine that speaks OTEP on its standard input and output.
pub(crate) struct Otep {
    process: Process,
    roles: Roles,
    /// The plies of the game the engine knows of: those before its start position, and
    /// those it was told since.
    known: usize,
}

/// The rules string an OTEP engine plays `start` by: the rules' own (their nearest OTN
/// form), with `start:` the position the game starts from and `atkf:` the side to move
/// there when moves were played before it (an opening). An engine such as OpenTafl
/// applies each move it is told by its own rules and ignores the position that comes with
/// it, so it must start where the game does: told only the moves after its start, it
/// never hears of the opening's.
pub(crate) fn rules_string(start: &Game, roles: &Roles) -> Result<String, String> {
    let (rules, _) = otn::rules_to_otn_nearest(start.rules()).map_err(|e| e.to_string())?;
    if start.ply() == 0 {
        return Ok(rules.to_string());
    }
    let board = Otep::record(start)?;
    let first = match roles.side(start.side_to_move()) {
        OtnSide::Attackers => "y",
        OtnSide::Defenders => "n",
    };
    let text = rules.to_string();
    // `dim` first, the start position last, as the rules string must have them.
    let mut words: Vec<String> = text
        .split_whitespace()
        .filter(|word| {
            !["start:", "starti:", "atkf:"]
                .iter()
                .any(|key| word.starts_with(key))
        })
        .map(str::to_owned)
        .collect();
    words.push(format!("atkf:{first}"));
    words.push(format!("start:{board}"));
    let text = words.join(" ");
    // What is sent must read back as the same rules from that position.
    RulesString::parse(&text).map_err(|e| format!("the rules from the opening: {e}"))?;
    Ok(text)
}

impl Otep {
    pub(crate) fn new(command: &[String], rules: &Rules) -> Result<Otep, String> {
        let roles = Roles::of(rules).map_err(|e| e.to_string())?;
        let mut process = Process::spawn(command)?;
        process.until(START_WAIT, |line| line.trim() == "hello")?;
        Ok(Otep {
            process,
            roles,
            known: 0,
        })
    }

    fn record(game: &Game) -> Result<String, String> {
        otn::position_to_otn(game.rules(), game.position())
            .map(|board| board.to_string())
            .map_err(|e| e.to_string())
    }

    fn clock_line(&self, clocks: [Clock; 2]) -> String {
        let attackers = clocks[self.roles.attackers.index()];
        let defenders = clocks[self.roles.attackers.opponent().index()];
        let millis = |clock: Clock| clock.remaining.as_millis();
        format!(
            "clock {} {} {} {} {}",
            millis(attackers),
            millis(defenders),
            attackers.overtime.as_secs(),
            attackers.overtimes,
            defenders.overtimes
        )
    }
}

impl Mover for Otep {
    fn start(&mut self, start: &Game, _: Option<Clock>) -> Result<(), String> {
        let rules = rules_string(start, &self.roles)?;
        self.process.send(&format!("rules {rules}"))?;
        self.known = start.ply();
        Ok(())
    }

    fn moved(&mut self, _: &Game, _: Move) -> Result<(), String> {
        // Sent with the position when the engine is next asked.
        Ok(())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let played = game.ply();
        if played > self.known
            && let Some(last) = game.last_move()
        {
            let text = otn::format_simple_move(last);
            self.process
                .send(&format!("opponent-move {text} {}", Self::record(game)?))?;
        }
        let side = self.roles.side(game.side_to_move());
        self.process.send(&format!("play {}", side.word()))?;
        if let Some(clocks) = clocks {
            self.process.send(&self.clock_line(clocks))?;
        }
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        let line = self.process.until(wait, |line| {
            line.starts_with("move ") || line.starts_with("error -1")
        })?;
        let Some(text) = line.strip_prefix("move ") else {
            return Err(format!("{}: {line}", self.process.name));
        };
        let text = text.trim();
        if text == "---" {
            return Ok(None);
        }
        let mv = OtnMove::parse(game.rules(), text)
            .map_err(|e| e.to_string())?
            .mv;
        let mv = checked(game, mv, text)?;
        let mut after = game.clone();
        after.try_play(mv).map_err(|e| e.to_string())?;
        self.process
            .send(&format!("move {}", Self::record(&after)?))?;
        self.known = played + 1;
        Ok(Some(mv))
    }

    fn finish(&mut self, outcome: Option<Outcome>) {
        let code = match outcome {
            None => 0,
            Some(outcome) => match outcome.winner.map(|winner| self.roles.side(winner)) {
                Some(OtnSide::Attackers) => 2,
                Some(OtnSide::Defenders) => 3,
                None => 1,
            },
        };
        let _ = self.process.send(&format!("finish {code}"));
        let _ = self.process.send("goodbye");
        self.process.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hnefatafl_core::random::random_opening;

    fn brandub() -> Rules {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/rules/brandub");
        Rules::parse(&std::fs::read(path).expect("reads")).expect("valid")
    }

    #[test]
    fn a_game_from_the_start_is_sent_the_rules_as_they_are() {
        let rules = brandub();
        let roles = Roles::of(&rules).expect("roles");
        let (otn, _) = otn::rules_to_otn_nearest(&rules).expect("expressible");
        let sent = rules_string(&Game::new(rules), &roles).expect("a rules string");
        assert_eq!(sent, otn.to_string());
    }

    #[test]
    fn a_game_from_an_opening_starts_at_its_position_with_its_side_to_move() {
        let rules = brandub();
        let roles = Roles::of(&rules).expect("roles");
        for plies in [3, 4] {
            let opening = random_opening(&rules, plies, 11);
            assert_eq!(opening.ply(), plies);
            let sent = rules_string(&opening, &roles).expect("a rules string");
            let read = RulesString::parse(&sent).expect("reads back");
            assert_eq!(
                read.first_side(),
                roles.side(opening.side_to_move()),
                "{sent}"
            );
            // The rules it describes start where the opening stands, that side to move.
            let rules = read.to_rules_nearest().expect("rules").0;
            let board = |rules: &Rules, position| {
                otn::position_to_otn(rules, position)
                    .expect("a board")
                    .to_string()
            };
            assert_eq!(
                board(&rules, &rules.start_position()),
                board(opening.rules(), opening.position())
            );
            let converted = Roles::of(&rules).expect("roles");
            let to_move = Game::new(rules).side_to_move();
            assert_eq!(converted.side(to_move), read.first_side(), "{sent}");
        }
    }
}
