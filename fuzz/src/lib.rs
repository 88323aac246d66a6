//! What several fuzz targets share: the fixed rules they replay their input on, and the
//! shipped rule files they read once.

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_core::otn::RulesString;

/// Brandub with a weak king, as an OTN rules string.
pub const BRANDUB_OTN: &str =
    "dim:7 surf:n tfr:i ks:w cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// The rules of [`BRANDUB_OTN`], made once: making rules from a rules string (a rule file
/// written and parsed) would otherwise take most of each run.
pub fn brandub_otn() -> &'static Rules {
    static PARSED: OnceLock<Rules> = OnceLock::new();
    PARSED.get_or_init(|| {
        RulesString::parse(BRANDUB_OTN)
            .and_then(|r| r.to_rules())
            .expect("the fuzz targets' fixed rules string must be valid")
    })
}

/// The shipped rule file `name`, read into `cell` on the first call: reading a rule file
/// would otherwise take most of each run.
pub fn shipped<'a>(cell: &'a OnceLock<Rules>, name: &str) -> &'a Rules {
    cell.get_or_init(|| {
        let text = hnefatafl_data::rules(name).expect("the fuzz targets' rule files are shipped");
        Rules::parse(text.as_bytes()).expect("a shipped rule file reads")
    })
}
