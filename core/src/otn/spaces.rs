//! The spaces of a rules string: OTN square names, space lists and the default corners
//! and centre.

use super::{OtnError, rules_error};

/// Column and row of an OTN square name on a board of `dim`.
fn space(key: &str, dim: usize, name: &str) -> Result<(usize, usize), OtnError> {
    let bad = || rules_error(key, format!("`{name}` is not a square of the board"));
    let mut chars = name.chars();
    let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return Err(bad());
    }
    let rank: usize = chars.as_str().parse().map_err(|_| bad())?;
    let x = usize::from(file as u8 - b'a');
    if x >= dim || rank == 0 || rank > dim {
        return Err(bad());
    }
    Ok((x, rank - 1))
}

/// The OTN name of column `x`, row `y` (`a1` for 0, 0).
pub(super) fn space_name(x: usize, y: usize) -> String {
    format!("{}{}", char::from(b'a' + x as u8), y + 1)
}

/// A space list (`a1,k1,`), or the default.
pub(super) fn space_list(
    key: &str,
    dim: usize,
    value: &str,
    default: Vec<(usize, usize)>,
) -> Result<Vec<(usize, usize)>, OtnError> {
    if value == "default" {
        return Ok(default);
    }
    let mut spaces = Vec::new();
    for name in value.split(',').filter(|n| !n.is_empty()) {
        let square = space(key, dim, name)?;
        if !spaces.contains(&square) {
            spaces.push(square);
        }
    }
    Ok(spaces)
}

/// The four corners of a board of `dim`.
pub(super) fn default_corners(dim: usize) -> Vec<(usize, usize)> {
    let last = dim - 1;
    vec![(0, 0), (last, 0), (0, last), (last, last)]
}

/// The centre of a board of `dim`.
pub(super) fn default_centre(dim: usize) -> Vec<(usize, usize)> {
    vec![((dim - 1) / 2, (dim - 1) / 2)]
}

/// Whether a space is on the board's edge.
pub(super) fn on_edge(dim: usize, (x, y): (usize, usize)) -> bool {
    x == 0 || y == 0 || x == dim - 1 || y == dim - 1
}
