//! The web port against the real server binary over loopback: the page and its headers,
//! the WebSocket playing against a TLS client on the same referee, and the checks and
//! limits of the TLS port holding for the WebSocket too.

mod server_support;
mod web_support;

use std::time::Duration;

use hnefatafl_net::protocol::{ClientMessage, ServerMessage};
use server_support::{ServerProcess, TestClient};
use web_support::{WebClient, get, open, own_origin, try_tls, web_port};

/// The page's own folder, to weigh it.
const PAGE_FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/web");

fn started(extra: &[&str]) -> (tempfile::TempDir, ServerProcess, u16) {
    let data = tempfile::tempdir().expect("data");
    let mut arguments = vec!["--web-port", "0"];
    arguments.extend_from_slice(extra);
    let server = ServerProcess::start(data.path(), 0, &arguments);
    let port = web_port(&server);
    (data, server, port)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_with_its_headers() {
    let (_data, _server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let page = get(port, home.path(), "/").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let policy = page.header("content-security-policy").expect("a policy");
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("cache-control"), Some("no-store"));
    let html = String::from_utf8(page.body).expect("text");
    assert!(html.contains(r#"<script type="module" src="app.js">"#));
    // No inline script: every script of the page is a file of its own.
    assert_eq!(html.matches("<script").count(), 1);

    let script = get(port, home.path(), "/app.js").await;
    assert_eq!(script.status, 200);
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(
        script.body,
        std::fs::read(format!("{PAGE_FOLDER}/app.js")).expect("app.js")
    );
    // The messages are the data's language files, as they are.
    let swedish = get(port, home.path(), "/lang/swe").await;
    assert_eq!(swedish.status, 200);
    let text = String::from_utf8(swedish.body).expect("text");
    assert!(text.contains("net_chat\t"), "{text}");
    for missing in [
        "/nothing.js",
        "/lang/../Cargo.toml",
        "/lang/klingon",
        "/ws/../x",
    ] {
        let answer = get(port, home.path(), missing).await;
        assert_eq!(answer.status, 404, "{missing}");
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"));
    }
    // A plain GET of the socket's path is no WebSocket.
    assert_eq!(get(port, home.path(), "/ws").await.status, 400);
    let about = get(port, home.path(), "/server.json").await;
    let about: serde_json::Value = serde_json::from_slice(&about.body).expect("json");
    assert_eq!(about["version"], hnefatafl_net::protocol::PROTOCOL_VERSION);
    assert_eq!(about["socket"], "/ws");
}

#[test]
fn the_page_weighs_under_200_kb() {
    let mut total = 0;
    let mut folders = vec![std::path::PathBuf::from(PAGE_FOLDER)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the page's folder") {
            let entry = entry.expect("an entry");
            let kind = entry.file_type().expect("a type");
            if kind.is_dir() {
                folders.push(entry.path());
            } else {
                total += entry.metadata().expect("its size").len();
            }
        }
    }
    assert!(total > 0 && total < 200 * 1024, "{total} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_plays_a_tls_client_on_the_same_referee() {
    let (_data, server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let mut ann = WebClient::registered(port, home.path(), "ann").await;
    let mut bob = TestClient::registered(server.port, home.path(), "bob").await;
    ann.send_text(r#"{"type":"new","rules":"brandub"}"#).await;
    let game = ann
        .expect(|message| match message {
            ServerMessage::Game { state } => Some(state.summary.game),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    bob.send(ClientMessage::Join { game }).await;
    bob.game_state().await;
    ann.expect(|message| matches!(message, ServerMessage::Joined { .. }).then_some(()))
        .await;
    // The attacker at the top's middle goes left; the defender above the king too.
    let moves = [
        r#"{"from":[3,0],"to":[1,0]}"#,
        r#"{"from":[3,2],"to":[1,2]}"#,
        r#"{"from":[3,1],"to":[2,1]}"#,
    ];
    for (number, mv) in (1..).zip(moves) {
        let line = format!(r#"{{"type":"move","game":{game},"move":{mv}}}"#);
        if number % 2 == 1 {
            ann.send_text(&line).await;
        } else {
            bob.client
                .send_line(&format!("{line}\n"))
                .await
                .expect("sent");
        }
        let heard = ann
            .expect(|message| match message {
                ServerMessage::Moved { number: n, mv, .. } if *n == number => Some(*mv),
                ServerMessage::Error { message } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
        let (told, _) = bob.moved(game, number).await;
        assert_eq!(heard, told);
        assert_eq!(serde_json::to_string(&heard).expect("json"), mv);
    }
    // Chat goes both ways, as it was sent.
    ann.send_text(&format!(
        r#"{{"type":"say","game":{game},"text":"<script>alert(1)</script>"}}"#
    ))
    .await;
    let said = bob
        .expect(|message| match message {
            ServerMessage::Chat { text, .. } => Some(text.clone()),
            _ => None,
        })
        .await;
    assert_eq!(said, "<script>alert(1)</script>");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_message_gets_the_same_error_as_over_tls() {
    let (_data, server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let mut web = WebClient::greeted(port, home.path()).await;
    let mut tls = TestClient::connect(server.port, home.path()).await;
    let forged = [
        r#"{"type":"dance"}"#,
        r#"{"type":"games","page":2}"#,
        r#"{"type":"move","game":99,"move":{"from":[0,0],"to":[0,9]}}"#,
        r#"{"type":"resign","game":1}"#,
        "not json",
    ];
    for line in forged {
        web.send_text(line).await;
        tls.client
            .send_line(&format!("{line}\n"))
            .await
            .expect("sent");
        let over_web = web.error().await;
        let over_tls = tls.error().await;
        assert!(!over_web.is_empty());
        assert_eq!(over_web, over_tls, "{line}");
    }
    // The connection goes on after each.
    web.send_text(r#"{"type":"games"}"#).await;
    web.expect(|message| matches!(message, ServerMessage::GameList { .. }).then_some(()))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_origin_cannot_open_the_socket() {
    let (_data, _server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let other = format!("https://127.0.0.1:{}", port.wrapping_add(1));
    for origin in [
        Some("https://evil.example"),
        Some(other.as_str()),
        Some("null"),
        None,
    ] {
        let refused = open(port, home.path(), origin).await;
        match refused {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
                assert_eq!(answer.status(), 403, "{origin:?}");
            }
            Err(other) => panic!("{origin:?}: refused otherwise: {other}"),
            Ok(_) => panic!("{origin:?}: the socket opened"),
        }
    }
    assert!(
        open(port, home.path(), Some(&own_origin(port)))
            .await
            .is_ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_line_limit_closes_the_socket() {
    let (_data, _server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    // Just within the limit: an error about its contents, and the socket stays open.
    let mut web = WebClient::greeted(port, home.path()).await;
    let within = format!(r#"{{"type":"dance","x":"{}"}}"#, "a".repeat(60 * 1024));
    web.send_text(&within).await;
    assert!(web.error().await.contains("dance"));
    // Over it: the TLS port's error, and the socket is closed.
    let over = "a".repeat(64 * 1024 + 1);
    web.send_text(&over).await;
    assert_eq!(web.error().await, "line longer than 64 KiB: closing");
    assert!(web.next().await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_websocket_is_closed_at_the_idle_timeout() {
    let (_data, _server, port) = started(&["--idle-timeout", "1"]);
    let home = tempfile::tempdir().expect("home");
    let mut quiet = WebClient::greeted(port, home.path()).await;
    assert_eq!(quiet.error().await, "no message for 1 s: closing");
    assert!(quiet.next().await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connections_of_an_address_count_both_ports() {
    let data = tempfile::tempdir().expect("data");
    let server = ServerProcess::start_bare(
        data.path(),
        &["--web-port", "0", "--connections-per-address", "2"],
    );
    let port = web_port(&server);
    let home = tempfile::tempdir().expect("home");
    let first = WebClient::greeted(port, home.path()).await;
    let _second = TestClient::connect(server.port, home.path()).await;
    // The third, on either port, is closed before its handshake.
    assert!(try_tls(port, home.path()).await.is_none());
    assert!(try_tls(server.port, home.path()).await.is_none());
    // Once one leaves, another may come (its share is given back when the server has
    // seen it go: polled).
    drop(first);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while try_tls(port, home.path()).await.is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the share never came back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
