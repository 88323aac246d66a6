//! Messages as lines: each one JSON object on a line of its own, read with the error that
//! names what is wrong, and shown masked for `--showtraffic`.

use serde::Serialize;

use super::{ClientMessage, ServerMessage};

/// Writes a message as one line of JSON, newline included.
pub fn to_line(message: &impl Serialize) -> String {
    // Serializing these plain types to a string cannot fail.
    let mut line = serde_json::to_string(message).unwrap_or_default();
    line.push('\n');
    line
}

/// Reads a client's line, naming what is wrong.
///
/// # Errors
///
/// The line is not JSON, not an object with a known `type`, has a field its type does
/// not have, or lacks one.
pub fn parse_client(line: &str) -> Result<ClientMessage, String> {
    let message = serde_json::from_str(line).map_err(|error| describe(line, &error))?;
    if let ClientMessage::Rules
    | ClientMessage::Games
    | ClientMessage::Archive
    | ClientMessage::Tournaments = message
    {
        // serde's `deny_unknown_fields` refuses unknown fields of the messages with
        // fields, but lets a message without any (a unit variant of an internally tagged
        // enum) carry whatever it likes; those are checked here.
        if let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(line) {
            if let Some(field) = fields.keys().find(|key| *key != "type") {
                let kind = fields.get("type").and_then(|t| t.as_str()).unwrap_or("");
                return Err(format!(
                    "bad message: unknown field `{field}`: `{kind}` has no fields"
                ));
            }
        }
    }
    Ok(message)
}

/// Reads a server's line.
///
/// # Errors
///
/// As for [`parse_client`].
pub fn parse_server(line: &str) -> Result<ServerMessage, String> {
    serde_json::from_str(line).map_err(|error| describe(line, &error))
}

fn describe(line: &str, error: &serde_json::Error) -> String {
    if serde_json::from_str::<serde_json::Value>(line).is_err() {
        format!("malformed JSON: {error}")
    } else {
        format!("bad message: {error}")
    }
}

/// The line as `--showtraffic` prints it: every `password` field masked. A line that is
/// not JSON is shown by its length only, since it may hold a password.
pub fn masked(line: &str) -> String {
    fn mask(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, field) in map.iter_mut() {
                    if key == "password" {
                        *field = serde_json::Value::String("********".into());
                    } else {
                        mask(field);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(mask),
            _ => {}
        }
    }
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(mut value) => {
            mask(&mut value);
            value.to_string()
        }
        Err(_) => format!("<{} bytes, not JSON>", line.len()),
    }
}
