//! Reading a rule file into a checked description (RREAD and RVALID): its keywords into
//! a [`Draft`] line by line, then the draft checked as a whole (`validate.rs`).

use crate::description::Description;
use crate::draft::Draft;
use crate::error::RulesError;
use crate::validate::locate;

/// Reads and validates a rule file's text: the first line that cannot be read (RREAD),
/// else every requirement the rules break, each with its line (RVALID).
pub(crate) fn parse(text: &[u8]) -> Result<Description, RulesError> {
    let lines = gleipnir::parse(text)?;
    let mut draft = Draft::default();
    for line in &lines {
        draft.read_line(line)?;
    }
    draft.finish().map_err(|violations| RulesError::Invalid {
        violations: violations
            .into_iter()
            .map(|violation| locate(&lines, violation))
            .collect(),
    })
}
