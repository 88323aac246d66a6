//! The client's address as a reverse proxy in front of the plain web port reports it:
//! the standard `Forwarded` header (RFC 7239) or the common `X-Forwarded-For`, read only
//! when the operator says the proxy is trusted (`--trust-forwarded`), since anyone else
//! could write any address there.

use std::net::{IpAddr, SocketAddr};

use hyper::HeaderMap;
use hyper::header::{self, HeaderName};

/// The `X-Forwarded-For` header, which hyper does not name.
const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The client's address that the proxy added last: the last `for=` of `Forwarded`, else
/// the last address of `X-Forwarded-For` (each proxy appends the address it was reached
/// from, so the last one is the trusted proxy's own word; those before it are whatever
/// the client sent). `None` when neither header gives one.
pub(super) fn client_address(headers: &HeaderMap) -> Option<IpAddr> {
    let last_value = |name: &HeaderName| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .rfind(|part| !part.is_empty())
            .map(str::to_owned)
    };
    if let Some(element) = last_value(&header::FORWARDED) {
        return element
            .split(';')
            .filter_map(|pair| pair.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
            .and_then(|(_, node)| node_address(node));
    }
    last_value(&X_FORWARDED_FOR).and_then(|node| node_address(&node))
}

/// An address as a node of the headers writes it: `192.0.2.1`, `192.0.2.1:4711`,
/// `"[2001:db8::1]:4711"`, `2001:db8::1`.
fn node_address(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse::<IpAddr>() {
        return Some(address);
    }
    if let Ok(socket) = node.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    node.strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(address, _)| address.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_bytes(name.as_bytes()).expect("a name"),
                HeaderValue::from_str(value).expect("a value"),
            );
        }
        map
    }

    fn address(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("an address"))
    }

    #[test]
    fn the_proxys_last_word_counts() {
        let cases = [
            (
                vec![("x-forwarded-for", "203.0.113.7")],
                address("203.0.113.7"),
            ),
            (
                vec![("x-forwarded-for", "1.2.3.4, 203.0.113.7")],
                address("203.0.113.7"),
            ),
            (
                vec![
                    ("x-forwarded-for", "1.2.3.4"),
                    ("x-forwarded-for", "203.0.113.8"),
                ],
                address("203.0.113.8"),
            ),
            (
                vec![(
                    "forwarded",
                    "for=1.2.3.4, for=\"[2001:db8::1]:4711\";proto=https",
                )],
                address("2001:db8::1"),
            ),
            (
                vec![("forwarded", "proto=https;For=198.51.100.3:80")],
                address("198.51.100.3"),
            ),
            // `Forwarded` wins over `X-Forwarded-For`.
            (
                vec![
                    ("x-forwarded-for", "1.2.3.4"),
                    ("forwarded", "for=198.51.100.9"),
                ],
                address("198.51.100.9"),
            ),
            (vec![("forwarded", "for=unknown")], None),
            (vec![("x-forwarded-for", "not an address")], None),
            (vec![], None),
        ];
        for (pairs, expected) in cases {
            assert_eq!(client_address(&headers(&pairs)), expected, "{pairs:?}");
        }
    }
}
