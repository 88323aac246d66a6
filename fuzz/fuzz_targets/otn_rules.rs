//! OTN rules strings: reading must never panic; rules read (exactly or nearly) are
//! written back, exactly or nearly, and what is written reads again.

#![no_main]

use hnefatafl_core::otn::{RulesString, rules_to_otn, rules_to_otn_nearest};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(otn) = RulesString::parse(text) else {
        return;
    };
    let Ok((rules, _)) = otn.to_rules_nearest() else {
        return;
    };
    let _ = rules.start_position().perft(1);
    if let Ok(written) = rules_to_otn(&rules) {
        let again = RulesString::parse(&written.to_string()).expect("written rules read back");
        again.to_rules().expect("written rules are expressible");
    }
    if let Ok((written, _)) = rules_to_otn_nearest(&rules) {
        let again = RulesString::parse(&written.to_string()).expect("nearest rules read back");
        again
            .to_rules_nearest()
            .expect("the nearest written rules are played");
    }
});
