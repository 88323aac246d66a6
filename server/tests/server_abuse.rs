//! The server under abuse, over loopback TLS: long lists come in pages and no line is too
//! long for the clients, quotas (open games, uploads, registrations, chat, idle clients,
//! connections), the accept loop out of file descriptors, lockouts that cannot be turned
//! against the owner, hidden characters and unknown fields.

#[path = "server_support/raw.rs"]
mod raw;
mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::client::pins_file;
use hnefatafl_net::protocol::{ClientMessage, ClockSpec, ServerMessage};
use raw::Raw;
use server_support::{PATIENCE, ServerProcess, TestClient, lines_allowed, open_game, started};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn new_game(rules: &str) -> ClientMessage {
    open_game(rules, ClockSpec::parse("5+3"), false)
}

/// Brandub's rule file with another id and name and a comment of `padding` bytes.
fn padded_rules(id: &str, padding: usize) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/rules/brandub"
    ))
    .expect("brandub");
    let mut text = text
        .replace("id\tbrandub", &format!("id\t{id}"))
        .replace("\"Brandub\"", &format!("\"{id}\""));
    let mut left = padding;
    while left > 0 {
        let chunk = left.min(100);
        text.push_str(&format!("# {}\n", "x".repeat(chunk)));
        left -= chunk;
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_come_in_pages_and_no_line_is_too_long() {
    let (_data, home, server) = started(&["--open-games", "1000"]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    // The longest name makes the longest entries.
    let name = "a".repeat(32);
    ann.register(&name, "password").await;
    // About 140 bytes an entry: 600 games were one line of 84 KB.
    let games = 600;
    for _ in 0..games {
        ann.send(new_game("brandub")).await;
        ann.game_state().await;
    }
    let mut guest = TestClient::connect(server.port, home.path()).await;
    guest.send(ClientMessage::Games).await;
    let mut listed = Vec::new();
    loop {
        let page = guest
            .expect(|m| match m {
                ServerMessage::GameList { games } => Some(games.clone()),
                _ => None,
            })
            .await;
        assert!(page.len() <= 100, "a page of {}", page.len());
        let last = page.len() < 100;
        listed.extend(page.into_iter().map(|g| g.game));
        if last {
            break;
        }
    }
    let expected: Vec<u64> = (1..=games).collect();
    assert_eq!(listed, expected);

    // A rule file near the line limit is refused, and the text it names is the size ...
    let big = padded_rules("big", 60_000);
    let refused = ann
        .answer_error(ClientMessage::UploadRules { text: big })
        .await;
    assert!(refused.contains("16384"), "{refused}");
    // ... while one under the limit is played, watched and joined with its text.
    let fair = padded_rules("fair", 12_000);
    assert!(fair.len() <= 16 * 1024);
    let hash = ann.upload(fair.clone()).await.hash;
    ann.send(new_game(&hash)).await;
    let state = ann.game_state().await;
    assert_eq!(state.rules_text, fair);
    guest
        .send(ClientMessage::Watch {
            game: state.summary.game,
        })
        .await;
    assert_eq!(guest.game_state().await.rules_text, fair);
}

impl TestClient {
    /// Sends a request and answers the error it must get.
    async fn answer_error(&mut self, message: ClientMessage) -> String {
        self.send(message).await;
        self.error().await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_opens_only_its_quota_of_games_and_uploads() {
    let (_data, home, server) = started(&["--open-games", "3", "--uploads-per-hour", "2"]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let mut bob = TestClient::connect(server.port, home.path()).await;
    bob.register("bob", "password").await;
    for _ in 0..3 {
        ann.send(new_game("brandub")).await;
        ann.game_state().await;
    }
    let refused = ann.answer_error(new_game("brandub")).await;
    assert!(refused.contains("3 unfinished games"), "{refused}");
    // Bob's games are his own; his fourth is refused, also by `join`.
    for _ in 0..3 {
        bob.send(new_game("brandub")).await;
        bob.game_state().await;
    }
    let refused = bob.answer_error(ClientMessage::Join { game: 1 }).await;
    assert!(refused.contains("3 unfinished games"), "{refused}");
    // Resigning one frees a seat.
    ann.send(ClientMessage::Resign { game: 1 }).await;
    ann.expect(|m| matches!(m, ServerMessage::Ended { .. }).then_some(()))
        .await;
    ann.send(new_game("brandub")).await;
    ann.game_state().await;

    for id in ["one", "two"] {
        ann.send(ClientMessage::UploadRules {
            text: padded_rules(id, 0),
        })
        .await;
        ann.expect(|m| match m {
            ServerMessage::RulesAdded { .. } => Some(()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    }
    let refused = ann
        .answer_error(ClientMessage::UploadRules {
            text: padded_rules("three", 0),
        })
        .await;
    assert!(
        refused.contains("at most 2 rule files an hour"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_per_address_are_counted() {
    let (_data, home, server) = started(&["--registrations-per-hour", "2"]);
    let mut from_two = Raw::connect([127, 0, 0, 2], server.port, home.path()).await;
    for name in ["one", "two"] {
        let register = ClientMessage::Register {
            name: name.into(),
            password: "password".into(),
        };
        assert_eq!(from_two.answer(&register).await, None);
    }
    let third = ClientMessage::Register {
        name: "three".into(),
        password: "password".into(),
    };
    let refused = from_two.answer(&third).await.expect("refused");
    assert!(
        refused.contains("at most 2 new accounts an hour"),
        "{refused}"
    );
    // Another address is not held up.
    let mut from_three = Raw::connect([127, 0, 0, 3], server.port, home.path()).await;
    assert_eq!(from_three.answer(&third).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_flood_the_chat() {
    let (_data, home, server) = started(&[]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let game = ann.made_game(new_game("brandub")).await;
    let mut guest = TestClient::connect(server.port, home.path()).await;
    guest.send(ClientMessage::Watch { game }).await;
    guest.game_state().await;

    let started = Instant::now();
    let lines = 200;
    for index in 0..lines {
        let text = format!("spam {index}");
        guest.send(ClientMessage::Say { game, text }).await;
    }
    let sending = started.elapsed();
    let refused = guest.error().await;
    assert!(refused.starts_with("too much chat"), "{refused}");
    // After a quiet second the guest may speak again; the end marker shows when all came.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let marker = "the end".to_owned();
    guest
        .send(ClientMessage::Say {
            game,
            text: marker.clone(),
        })
        .await;
    let heard = ann.chat_before(&marker).await;
    // Two a second, in bursts of two: what the time allows and no more.
    let allowed = lines_allowed(2, sending + Duration::from_millis(200));
    assert!(
        heard <= allowed,
        "{heard} of {lines} lines passed, {allowed} allowed"
    );
    assert!(heard >= 2, "{heard}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_are_closed() {
    let (_data, home, server) = started(&["--hello-timeout", "2", "--idle-timeout", "2"]);
    // Without `hello`, lines or not: other lines do not put the deadline off.
    let mut mute = server_support::raw_connection(server.port, home.path()).await;
    let started = Instant::now();
    for _ in 0..4 {
        let line = b"{\"type\":\"games\"}\n";
        mute.write_all(line).await.expect("a line");
        mute.flush().await.expect("flush");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let mut said = Vec::new();
    let read = tokio::time::timeout(
        PATIENCE,
        tokio::io::AsyncReadExt::read_to_end(&mut mute, &mut said),
    )
    .await
    .expect("closed in time");
    assert!(read.is_ok() || !said.is_empty(), "{read:?}");
    let said = String::from_utf8_lossy(&said);
    assert!(said.contains("the first message must be `hello`"), "{said}");
    assert!(said.contains("no `hello` within 2 s"), "{said}");
    // Two seconds after the handshake, not after the last line (at 1.5 s).
    let closed = started.elapsed();
    assert!(
        closed >= Duration::from_millis(1900) && closed < Duration::from_millis(3400),
        "closed after {closed:?}"
    );
    // Greeted, then silent; a client that speaks every half second stays.
    let mut idle = TestClient::connect(server.port, home.path()).await;
    let mut talking = TestClient::connect(server.port, home.path()).await;
    let talk = tokio::spawn(async move {
        for _ in 0..8 {
            let answer = talking.answer_error(ClientMessage::Join { game: 9 }).await;
            assert_eq!(answer, "log in first (`login` or `register`)");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
    let started = Instant::now();
    let closing = idle.error().await;
    assert!(closing.contains("no message for 2 s"), "{closing}");
    idle.closed().await;
    assert!(started.elapsed() >= Duration::from_millis(1900));
    talk.await
        .expect("the talking client was answered all along");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_wait_their_turn() {
    let (_data, home, server) = started(&["--max-connections", "3"]);
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(TestClient::connect(server.port, home.path()).await);
    }
    let port = server.port;
    let pins = pins_file(home.path());
    let mut waiting = tokio::spawn(async move {
        hnefatafl_net::client::Client::connect("127.0.0.1", port, &pins).await
    });
    // Not served while three are open (two seconds are plenty for a loopback handshake,
    // which the three above took).
    assert!(
        tokio::time::timeout(Duration::from_secs(2), &mut waiting)
            .await
            .is_err(),
        "a fourth connection was served"
    );
    drop(open.pop());
    let served = tokio::time::timeout(PATIENCE, waiting)
        .await
        .expect("served once one left")
        .expect("the task");
    assert!(served.is_ok(), "{:?}", served.err());
}

/// The CPU time the process has used, in clock ticks (utime + stime of /proc/PID/stat).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // The fields after the command's closing parenthesis; utime and stime are the 14th
    // and 15th of the whole line.
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_file_descriptors_the_server_waits_instead_of_spinning() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start_limited(64, data.path());
    let port = server.port;
    // Greeted clients until one is no longer served: the server is out of descriptors.
    let mut open = Vec::new();
    loop {
        let pins = pins_file(home.path());
        let connect = hnefatafl_net::client::Client::connect("127.0.0.1", port, &pins);
        match tokio::time::timeout(Duration::from_secs(3), connect).await {
            Ok(client) => open.push(client.expect("connect")),
            Err(_) => break,
        }
        assert!(open.len() < 64, "64 clients served under a limit of 64");
    }
    // More waiting in the listen queue keep the listener ready.
    let mut queued = Vec::new();
    for _ in 0..5 {
        queued.push(
            TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("queued"),
        );
    }
    let ticks_per_second = 100.0;
    let before = cpu_ticks(server.pid());
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let used = (cpu_ticks(server.pid()) - before) as f64 / ticks_per_second;
    let share = used / started.elapsed().as_secs_f64();
    assert!(
        share < 0.25,
        "the server used {:.0}% of a core while out of descriptors",
        share * 100.0
    );
    // Once clients go, it accepts again.
    drop(queued);
    open.clear();
    let mut late = TestClient::connect(port, home.path()).await;
    let answer = late.answer_error(ClientMessage::Join { game: 1 }).await;
    assert!(answer.starts_with("log in first"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_from_one_address_do_not_lock_out_the_owner() {
    let (_data, home, server) = started(&[]);
    let port = server.port;
    let mut owner = TestClient::connect(port, home.path()).await;
    owner.register("ann", "the owner's password").await;
    drop(owner);

    let mut attacker = Raw::connect([127, 0, 0, 2], port, home.path()).await;
    let guess = ClientMessage::Login {
        name: "ann".into(),
        password: "a guess".into(),
    };
    let mut tries = 0;
    loop {
        tries += 1;
        let refused = attacker.answer(&guess).await.expect("refused");
        if refused.starts_with("too many failed logins") {
            break;
        }
        assert_eq!(refused, "wrong name or password");
        assert!(tries < 20, "never slowed down");
    }
    // The attacker goes on hammering while the owner logs in from another address.
    let hammering = tokio::spawn(async move {
        for _ in 0..50 {
            let refused = attacker.answer(&guess).await.expect("refused");
            assert!(
                refused.starts_with("too many failed logins")
                    || refused == "wrong name or password",
                "{refused}"
            );
        }
    });
    let mut owner = TestClient::connect(port, home.path()).await;
    owner.login("ann", "the owner's password").await;
    hammering.await.expect("the attacker's task");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_characters_and_unknown_fields_are_refused_or_removed() {
    let (_data, home, server) = started(&[]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let game = ann.made_game(new_game("brandub")).await;

    // Chat: overrides, isolates, zero widths, controls are gone.
    let text = "a\u{202E}b\u{2066}c\u{200B}d\u{FEFF}e\u{7}f\u{1B}[2Jg\u{2028}h".to_owned();
    ann.send(ClientMessage::Say { game, text }).await;
    let heard = ann.chat().await;
    assert_eq!(heard, "abcdef[2Jgh");

    // Names with them are refused at registration.
    let mut other = TestClient::connect(server.port, home.path()).await;
    let refused = other
        .answer_error(ClientMessage::Register {
            name: "bob\u{202E}".into(),
            password: "password".into(),
        })
        .await;
    assert!(refused.starts_with("an account name has"), "{refused}");
    // So are uploaded rules whose name holds one.
    let rules = padded_rules("mirror", 0).replace("\"mirror\"", "\"Mir\u{202E}ror\"");
    let refused = ann
        .answer_error(ClientMessage::UploadRules { text: rules })
        .await;
    assert!(refused.contains("U+202E"), "{refused}");

    // Unknown fields, also of messages that have none, are refused and named.
    for (line, field) in [
        (r#"{"type":"games","page":2}"#, "page"),
        (r#"{"type":"join","game":1,"seat":1}"#, "seat"),
        (
            r#"{"type":"new","rules":"brandub","clock":{"main_ms":1000,"increment_ms":0,"overtime":3}}"#,
            "overtime",
        ),
    ] {
        ann.client
            .send_line(&format!("{line}\n"))
            .await
            .expect("send");
        let refused = ann.error().await;
        assert!(
            refused.contains("unknown field") && refused.contains(field),
            "{line}: {refused}"
        );
    }
}
