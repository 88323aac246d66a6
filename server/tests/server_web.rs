//! The web port against the real server binary over loopback: the page and its headers,
//! the WebSocket playing against a TLS client on the same referee, and the checks and
//! limits of the TLS port holding for the WebSocket too.

mod server_support;
mod web_support;

use std::time::Duration;

use hnefatafl_net::protocol::{ClientMessage, GameId, ServerMessage};
use server_support::{ServerProcess, TestClient};
use web_support::{
    WebClient, get, get_plain, open, open_plain, own_origin, plain_port, served_fingerprint,
    try_tls, web_port,
};

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
    // The X themes' pieces, as PNG.
    let themes = about["themes"].as_array().expect("themes");
    assert!(themes.iter().any(|theme| theme == "wood"), "{themes:?}");
    let piece = get(port, home.path(), "/theme/wood/p004.png").await;
    assert_eq!(piece.status, 200);
    assert_eq!(piece.header("content-type"), Some("image/png"));
    assert_eq!(piece.header("x-content-type-options"), Some("nosniff"));
    let read = image::load_from_memory(&piece.body).expect("a PNG");
    // The size the XPM's first string gives.
    assert_eq!((read.width(), read.height()), (52, 52));
    for missing in [
        "/theme/wood/p003.png",
        "/theme/null/p001.png",
        "/theme/../lang/eng",
    ] {
        assert_eq!(
            get(port, home.path(), missing).await.status,
            404,
            "{missing}"
        );
    }
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

/// Ann on the web port and Bob on the TLS port, both registered; Ann makes a game of
/// brandub with `new`, sent as the page sends it, and it is answered with its number.
async fn brandub_made_on_the_web(
    server: &ServerProcess,
    port: u16,
    home: &std::path::Path,
) -> (WebClient, TestClient, GameId) {
    let mut ann = WebClient::registered(port, home, "ann").await;
    let bob = TestClient::registered(server.port, home, "bob").await;
    ann.send_text(r#"{"type":"new","rules":"brandub"}"#).await;
    let game = ann
        .expect(|message| match message {
            ServerMessage::Game { state } => Some(state.summary.game),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    (ann, bob, game)
}

/// Sends the move message `line` of move `number` (from 1) from the player whose turn it
/// is: Ann's (player 0) over the WebSocket, Bob's over TLS.
async fn send_in_turn(ann: &mut WebClient, bob: &mut TestClient, number: u32, line: &str) {
    if number % 2 == 1 {
        ann.send_text(line).await;
    } else {
        bob.client
            .send_line(&format!("{line}\n"))
            .await
            .expect("sent");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_plays_a_tls_client_on_the_same_referee() {
    let (_data, server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let (mut ann, mut bob, game) = brandub_made_on_the_web(&server, port, home.path()).await;
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
        send_in_turn(&mut ann, &mut bob, number, &line).await;
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
    // Over it: the TLS port's error, and the socket is closed. The server refuses the
    // message by its frame's header, before it has read the rest; the error and the close
    // must still reach the client, by a byte over the limit or by many times its length
    // (within what the server drains: 1 MiB).
    let over = "a".repeat(64 * 1024 + 1);
    web.send_text(&over).await;
    assert_eq!(web.error().await, "line longer than 64 KiB: closing");
    assert!(web.next().await.is_none());
    let mut web = WebClient::greeted(port, home.path()).await;
    web.send_text(&"a".repeat(768 * 1024)).await;
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

/// A square's number in a position: row by row from the top left.
fn square(x: u16, y: u16) -> u16 {
    y * 7 + x
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_come_to_the_web_client_that_asked_and_not_to_tls() {
    let (_data, server, port) = started(&[]);
    let home = tempfile::tempdir().expect("home");
    let (mut ann, mut bob, game) = brandub_made_on_the_web(&server, port, home.path()).await;
    // The game's start, with the legal moves of the side to move.
    let start = ann.position(game).await;
    assert_eq!(start.ply, 0);
    assert_eq!(start.board[usize::from(square(3, 3))], 1, "the king");
    let legal = start.legal.expect("moves");
    let targets = &legal
        .steps
        .iter()
        .find(|(from, _)| *from == square(3, 0))
        .expect("d7 moves")
        .1;
    assert!(targets.contains(&square(1, 0)), "{targets:?}");
    assert!(!targets.contains(&square(0, 0)), "a corner is the king's");
    bob.send(ClientMessage::Join { game }).await;
    bob.game_state().await;
    // A watcher on the web sees them too.
    let mut carl = WebClient::greeted(port, home.path()).await;
    carl.send(&ClientMessage::Watch { game }).await;
    assert_eq!(carl.position(game).await.ply, 0);
    // The attackers close on the defender above the king from both sides: it is taken.
    let moves = [
        ((0, 3), (0, 2)),
        ((3, 4), (5, 4)),
        ((0, 2), (2, 2)),
        ((5, 4), (5, 5)),
        ((6, 3), (6, 2)),
        ((5, 5), (4, 5)),
        ((6, 2), (4, 2)),
    ];
    let mut last = None;
    for (number, ((fx, fy), (tx, ty))) in (1..).zip(moves) {
        let line = format!(
            r#"{{"type":"move","game":{game},"move":{{"from":[{fx},{fy}],"to":[{tx},{ty}]}}}}"#
        );
        send_in_turn(&mut ann, &mut bob, number, &line).await;
        // The TLS client hears the move, and no position before it.
        bob.expect(|message| match message {
            ServerMessage::Moved { number: n, .. } if *n == number => Some(()),
            ServerMessage::Position { .. } => panic!("a position for a TLS client"),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
        let position = ann.position(game).await;
        assert_eq!(position.ply, number);
        assert_eq!(position.to_move, (number % 2) as u8);
        let (from, to) = (square(fx, fy), square(tx, ty));
        assert_eq!(position.board[usize::from(from)], 0);
        assert_ne!(position.board[usize::from(to)], 0);
        assert_eq!(carl.position(game).await, position);
        last = Some(position);
    }
    let after = last.expect("a position");
    assert_eq!(
        after.board[usize::from(square(3, 2))],
        0,
        "the defender is taken"
    );
    // A reconnect (a new socket, the same account) gets the game and its position.
    let mut again = WebClient::greeted(port, home.path()).await;
    again
        .send(&ClientMessage::Login {
            name: "ann".into(),
            password: "ann secret".into(),
        })
        .await;
    again
        .expect(|message| matches!(message, ServerMessage::LoggedIn { .. }).then_some(()))
        .await;
    again.send(&ClientMessage::Join { game }).await;
    assert_eq!(again.position(game).await, after);
    // A past position, asked for by its ply (to replay a game), has no moves; the
    // current one has them.
    again.send(&ClientMessage::Position { game, ply: 6 }).await;
    let before = again.position(game).await;
    assert_eq!((before.ply, before.legal), (6, None));
    assert_ne!(before.board[usize::from(square(3, 2))], 0, "not yet taken");
    again.send(&ClientMessage::Position { game, ply: 7 }).await;
    assert_eq!(again.position(game).await, after);
    again.send(&ClientMessage::Position { game, ply: 8 }).await;
    assert_eq!(again.error().await, format!("game {game} has 7 moves"));
}

/// A self-signed certificate and its key, written as PEM files `<stem>.pem` and
/// `<stem>-key.pem` in `folder`; answers its fingerprint.
fn write_certificate(folder: &std::path::Path, stem: &str) -> String {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("made");
    // Written whole and renamed in place, as a renewal does.
    for (name, text) in [
        (format!("{stem}.pem"), made.cert.pem()),
        (format!("{stem}-key.pem"), made.signing_key.serialize_pem()),
    ] {
        let temporary = folder.join(format!("{name}.new"));
        std::fs::write(&temporary, text).expect("written");
        std::fs::rename(&temporary, folder.join(name)).expect("renamed");
    }
    hnefatafl_net::tls::fingerprint(made.cert.der())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_given_certificate_is_served_and_read_again_on_sighup() {
    let files = tempfile::tempdir().expect("files");
    let first = write_certificate(files.path(), "site");
    let certificate = files.path().join("site.pem");
    let key = files.path().join("site-key.pem");
    let (certificate, key) = (
        certificate.to_str().expect("a path"),
        key.to_str().expect("a path"),
    );
    let (_data, server, port) = started(&["--cert", certificate, "--key", key]);
    assert_eq!(served_fingerprint(port).await, first);
    // The TLS port keeps the server's own certificate, which its clients pin.
    let own = server.output_until(|text| text.contains("certificate sha256:"));
    assert!(!own.contains(&first), "{own}");
    // A socket opened before the renewal lives on through it.
    let home = tempfile::tempdir().expect("home");
    let mut before = WebClient::greeted(port, home.path()).await;

    let second = write_certificate(files.path(), "site");
    assert_ne!(first, second);
    let hangup = std::process::Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .expect("kill runs");
    assert!(hangup.success());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let served = served_fingerprint(port).await;
        if served == second {
            break;
        }
        assert_eq!(served, first, "neither certificate");
        assert!(
            std::time::Instant::now() < deadline,
            "the new certificate never came"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    before.send_text(r#"{"type":"games"}"#).await;
    before
        .expect(|message| matches!(message, ServerMessage::GameList { .. }).then_some(()))
        .await;

    // A bad pair on the next SIGHUP is said and the good one kept.
    std::fs::write(files.path().join("site-key.pem"), "no key").expect("spoilt");
    let hangup = std::process::Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .expect("kill runs");
    assert!(hangup.success());
    assert_eq!(served_fingerprint(port).await, second);
}

#[test]
fn a_missing_certificate_is_named_at_the_start() {
    let data = tempfile::tempdir().expect("data");
    let missing = data.path().join("missing.pem");
    let output = std::process::Command::new(server_support::binaries::server_binary())
        .args([
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--web-port",
            "0",
            "--data",
        ])
        .arg(data.path().join("server"))
        .arg("--cert")
        .arg(&missing)
        .arg("--key")
        .arg(&missing)
        .output()
        .expect("the server runs");
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&*missing.to_string_lossy()), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plain_port_serves_a_proxy_and_counts_the_addresses_it_gives() {
    let data = tempfile::tempdir().expect("data");
    let server = ServerProcess::start_bare(
        data.path(),
        &[
            "--web-plain",
            "0",
            "--trust-forwarded",
            "--connections-per-address",
            "1",
        ],
    );
    let port = plain_port(&server);
    let page = get_plain(port, "/", "").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    // The proxy's page is `https://`; tried on loopback, `http://`; anything else is not
    // the page's own.
    let origin = |scheme: &str| format!("{scheme}://127.0.0.1:{port}");
    for (client, origin, opens) in [
        ("198.51.100.1", origin("https"), true),
        ("198.51.100.2", origin("http"), true),
        ("198.51.100.3", "https://evil.example".to_owned(), false),
    ] {
        let opened = open_plain(port, &[("origin", &origin), ("x-forwarded-for", client)]).await;
        assert_eq!(opened.is_ok(), opens, "{origin}");
    }
    // Each WebSocket counts against the address the proxy gives: one each here.
    let https = origin("https");
    let ann = open_plain(
        port,
        &[
            ("origin", &https),
            ("x-forwarded-for", "1.2.3.4, 203.0.113.1"),
        ],
    )
    .await
    .expect("the first of 203.0.113.1");
    match open_plain(
        port,
        &[("origin", &https), ("forwarded", "for=203.0.113.1")],
    )
    .await
    {
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
            assert_eq!(answer.status(), 429);
        }
        other => panic!("a second from 203.0.113.1: {:?}", other.map(|_| ())),
    }
    let _bob = open_plain(
        port,
        &[("origin", &https), ("x-forwarded-for", "203.0.113.2")],
    )
    .await
    .expect("the first of 203.0.113.2");
    drop(ann);
}

/// The keys of a language file's text (`key<TAB>message` lines; `#` comments).
fn keys(text: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once('\t'))
        .map(|(key, _)| key.to_owned())
        .collect()
}

#[test]
fn every_word_the_page_says_is_in_both_languages() {
    let read = |path: &str| std::fs::read_to_string(path).expect(path);
    let own =
        ["eng", "swe"].map(|language| keys(&read(&format!("{PAGE_FOLDER}/words/{language}"))));
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/lang");
    let shared = ["eng", "swe"].map(|language| keys(&read(&format!("{data}/{language}"))));
    // The page's own labels: the same in both languages, and none of the program's.
    assert_eq!(own[0], own[1]);
    assert!(own[0].iter().all(|key| key.starts_with("web_")));
    assert!(shared[0].iter().all(|key| !key.starts_with("web_")));
    // Every key the page's files name as a string (`say("…")`, `data-word="…"`).
    let mut named = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(PAGE_FOLDER).expect("the page's folder") {
        let path = entry.expect("an entry").path();
        if path
            .extension()
            .is_some_and(|ending| ending == "js" || ending == "html")
        {
            let text = read(path.to_str().expect("a path"));
            named.extend(
                text.split('"')
                    // `draw_agreed` is a reason on the wire that the page compares with.
                    .filter(|word| *word != "draw_agreed")
                    .filter(|word| {
                        ["web_", "net_", "win_", "draw_"]
                            .iter()
                            .any(|prefix| word.starts_with(prefix))
                            && word.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    })
                    .map(str::to_owned),
            );
        }
    }
    assert!(
        named.contains("web_not_legal") && named.contains("net_chat"),
        "{named:?}"
    );
    for key in &named {
        let known = if key.starts_with("web_") {
            &own
        } else {
            &shared
        };
        for (language, keys) in ["eng", "swe"].iter().zip(known) {
            assert!(keys.contains(key), "{key} is not in {language}");
        }
    }
}
