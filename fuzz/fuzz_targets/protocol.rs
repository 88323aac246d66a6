//! The network protocol's messages: reading any line as a client's or a server's message
//! must never panic; what reads must write back to the same message; masking for
//! `--showtraffic` must never panic and never show a password.

#![no_main]

use hnefatafl_net::protocol::{self, ClientMessage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let line = String::from_utf8_lossy(bytes);
    if let Ok(message) = protocol::parse_client(&line) {
        let written = protocol::to_line(&message);
        assert_eq!(
            protocol::parse_client(written.trim_end()).as_ref(),
            Ok(&message)
        );
        if matches!(
            message,
            ClientMessage::Login { .. } | ClientMessage::Register { .. }
        ) {
            let shown: serde_json::Value =
                serde_json::from_str(&protocol::masked(&written)).expect("masked JSON");
            assert_eq!(shown["password"], "********");
        }
    }
    if let Ok(message) = protocol::parse_server(&line) {
        let written = protocol::to_line(&message);
        assert_eq!(
            protocol::parse_server(written.trim_end()).as_ref(),
            Ok(&message)
        );
    }
    let _ = protocol::masked(&line);
});
