//! Attacks of a hostile client on the server over loopback TLS, each of which once
//! succeeded: logins raced past the throttle, one address holding every slot, chat floods
//! from many connections, sizes checked on the wrong bytes, uploads posing as shipped rule
//! sets, unknown fields in moves, names that look alike and hidden characters.

#[path = "server_support/raw.rs"]
mod raw;
mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::protocol::{self, ClientMessage, GameId, ServerMessage};
use raw::Raw;
use server_support::{PATIENCE, TestClient, lines_allowed, open_game, started};

fn new_game(rules: &str) -> ClientMessage {
    open_game(rules, None, false)
}

/// Shipped brandub's rule file.
fn brandub() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/rules/brandub"
    ))
    .expect("brandub")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_sent_at_once_are_all_counted_by_the_throttle() {
    let (_data, home, server) = started(&[]);
    let mut owner = TestClient::connect(server.port, home.path()).await;
    owner.register("ann", "the owner's password").await;
    drop(owner);

    let tries = 40;
    let mut guessers = Vec::new();
    for _ in 0..tries {
        guessers.push(Raw::connect([127, 0, 0, 2], server.port, home.path()).await);
    }
    // Every guess is sent before any answer is read: all are in flight at once.
    for (index, guesser) in guessers.iter_mut().enumerate() {
        let guess = ClientMessage::Login {
            name: "ann".into(),
            password: format!("guess {index}"),
        };
        guesser.send(&guess).await;
    }
    let mut checked = 0;
    for guesser in &mut guessers {
        match guesser.next().await {
            Some(ServerMessage::Error { message }) if message == "wrong name or password" => {
                checked += 1;
            }
            Some(ServerMessage::Error { message })
                if message.starts_with("too many failed logins") => {}
            other => panic!("{other:?}"),
        }
    }
    // Three free tries for an account from one address, and the one that starts the wait.
    assert!(
        checked <= 4,
        "{checked} of {tries} guesses sent at once were checked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_connection() {
    // Room for 60, and one address may hold 50 of them (the default).
    let (_data, home, server) = started(&["--max-connections", "60"]);
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..60 {
        match Raw::handshake([127, 0, 0, 2], server.port, home.path()).await {
            Some(raw) => held.push(raw),
            None => refused += 1,
        }
    }
    // Those over the cap are closed at once, whatever they say.
    let mut kept = 0;
    for raw in &mut held {
        raw.send(&ClientMessage::Hello {
            version: hnefatafl_net::protocol::PROTOCOL_VERSION,
            client: "hog".into(),
            positions: None,
        })
        .await;
        if let Some(ServerMessage::Welcome { .. }) = raw.next().await {
            kept += 1;
        }
    }
    assert_eq!(kept, 50, "{kept} kept, {refused} refused in the handshake");
    // A client at another address is served at once.
    let started = Instant::now();
    let mut other = tokio::time::timeout(
        Duration::from_secs(10),
        Raw::connect([127, 0, 0, 3], server.port, home.path()),
    )
    .await
    .expect("another address served while one holds its 50");
    let answer = other.answer(&ClientMessage::Join { game: 1 }).await;
    assert_eq!(
        answer.as_deref(),
        Some("log in first (`login` or `register`)")
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blank_lines_do_not_keep_a_connection_open() {
    let (_data, home, server) = started(&["--idle-timeout", "2"]);
    let mut idle = Raw::connect([127, 0, 0, 2], server.port, home.path()).await;
    let started = Instant::now();
    let sending = tokio::spawn(async move {
        // Blank lines every 300 ms until the server closes.
        loop {
            idle.send_line("\n").await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            if started.elapsed() > Duration::from_secs(20) {
                return idle;
            }
            let next = tokio::time::timeout(Duration::from_millis(1), idle.next()).await;
            if let Ok(message) = next {
                let closing = format!("{message:?}");
                assert!(closing.contains("no message for 2 s"), "{closing}");
                return idle;
            }
        }
    });
    let mut idle = sending.await.expect("the sending task");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        started.elapsed()
    );
    assert!(idle.next().await.is_none(), "closed");
}

/// The guests, watchers of `game`, each say `lines` lines at once; after a quiet second
/// Ann says a line of her own. Answers how many of the guests' lines she heard before
/// hers, and the most that a quota of `per_second` lines a second lets through in the
/// time they took to send them.
async fn flood(
    ann: &mut TestClient,
    guests: &mut [Raw],
    game: GameId,
    lines: usize,
    per_second: usize,
) -> (usize, usize) {
    let say = |text: String| ClientMessage::Say { game, text };
    let started = Instant::now();
    for guest in guests.iter_mut() {
        for index in 0..lines {
            guest.send(&say(format!("spam {index}"))).await;
        }
    }
    let sending = started.elapsed();
    // The player's own line, after a quiet second, shows when all have come.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    ann.send(say("the end".to_owned())).await;
    let heard = ann.chat_before("the end").await;
    (
        heard,
        lines_allowed(per_second, sending + Duration::from_millis(300)),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_connections_of_one_address_share_its_chat_quota() {
    let (_data, home, server) = started(&[]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let game = ann.made_game(new_game("brandub")).await;

    // A guest who does not watch the game may not talk in it.
    let mut outsider = Raw::connect([127, 0, 0, 4], server.port, home.path()).await;
    let say = |text: &str| ClientMessage::Say {
        game,
        text: text.into(),
    };
    let refused = outsider.answer(&say("hello")).await.expect("refused");
    assert!(refused.contains("watch game"), "{refused}");

    // Thirty watchers at one address, three lines each, sent at once.
    let mut guests = Vec::new();
    for _ in 0..30 {
        let guest = Raw::watching([127, 0, 0, 2], server.port, home.path(), game).await;
        guests.push(guest);
    }
    // Four lines a second from one address, in bursts of four.
    let (heard, allowed) = flood(&mut ann, &mut guests, game, 3, 4).await;
    assert!(
        heard <= allowed,
        "{heard} of 90 lines passed, {allowed} allowed"
    );
    assert!(heard >= 1, "{heard}");

    // Watchers at many addresses share the game's quota, ten lines a second.
    let mut crowd = Vec::new();
    for host in 10..30 {
        let guest = Raw::watching([127, 0, 0, host], server.port, home.path(), game).await;
        crowd.push(guest);
    }
    let (heard, allowed) = flood(&mut ann, &mut crowd, game, 2, 10).await;
    assert!(
        heard <= allowed,
        "{heard} of 40 lines passed, {allowed} allowed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_file_too_long_as_sent_is_refused_and_nothing_is_kept() {
    let (_data, home, server) = started(&[]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    // Control characters in a comment, as many as the upload's line holds: 11 KB here,
    // near 64 KB as JSON text, too much for a `game` message with the text and more.
    let rules = brandub().replace("id\tbrandub", "id\tnoisy");
    let upload = |count: usize| ClientMessage::UploadRules {
        text: format!("{rules}# {}\n", "\u{1}".repeat(count)),
    };
    let mut count = 0;
    while protocol::to_line(&upload(count + 100)).len() < protocol::MAX_LINE {
        count += 100;
    }
    let ClientMessage::UploadRules { text } = upload(count) else {
        unreachable!("an upload");
    };
    assert!(text.len() < 16 * 1024, "{}", text.len());
    ann.send(ClientMessage::UploadRules { text }).await;
    let refused = ann.error().await;
    assert!(refused.contains("as sent"), "{refused}");
    // Nothing was kept: the rules are not listed, and no game can be made of them.
    let listed = ann.rules_list().await;
    assert!(listed.iter().all(|rules| rules.id != "noisy"), "{listed:?}");
    ann.send(new_game("noisy")).await;
    let refused = ann.error().await;
    assert!(refused.starts_with("no rules `noisy`"), "{refused}");
    let games = ann.games_listed(ClientMessage::Games).await;
    assert!(games.is_empty(), "{games:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_cannot_pose_as_a_shipped_rule_set() {
    let (_data, home, server) = started(&[]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    // A rigged brandub (the king's side starts a piece short) under brandub's id and name,
    // under another id with brandub's name, and under brandub's id in other letters.
    let rigged = brandub().replacen("\n", "\n# rigged\n", 1);
    let renamed = rigged.replace("id\tbrandub", "id\tfair");
    let shouted = rigged.replace("id\tbrandub", "id\tBRANDUB");
    for (text, named) in [
        (rigged, "`brandub`"),
        (renamed, "Brandub"),
        (shouted, "BRANDUB"),
    ] {
        ann.send(ClientMessage::UploadRules { text }).await;
        let refused = ann.error().await;
        assert!(
            refused.contains(named) && refused.contains("shipped"),
            "{refused}"
        );
    }
    // An upload of its own id and name is kept with its uploader; its id is its own.
    let own = brandub()
        .replace("id\tbrandub", "id\tmine")
        .replace("\"Brandub\"", "\"Ann's brandub\"");
    let added = ann.upload(own.clone()).await;
    assert_eq!(added.uploader.as_deref(), Some("ann"));
    let mut bob = TestClient::connect(server.port, home.path()).await;
    bob.register("bob", "password").await;
    let copy = own.replacen("\n", "\n# bob's\n", 1);
    bob.send(ClientMessage::UploadRules { text: copy }).await;
    let refused = bob.error().await;
    assert!(
        refused.contains("`mine`") && refused.contains("ann"),
        "{refused}"
    );
    // The shipped one keeps no uploader.
    let listed = bob.rules_list().await;
    let shipped = listed.iter().find(|r| r.id == "brandub").expect("brandub");
    assert_eq!(shipped.uploader, None);
    assert_eq!(listed.iter().filter(|r| r.id == "mine").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_with_an_unknown_field_is_refused() {
    let (_data, home, server) = started(&[]);
    let mut duel =
        server_support::Duel::start(server.port, home.path(), "brandub", ["ann", "bob"], 1).await;
    let id = duel.id;
    let mv = server_support::random_move(&duel.game, &mut duel.random);
    let json = serde_json::to_value(mv).expect("a move in JSON");
    let mut fields = json.as_object().expect("an object").clone();
    fields.insert("extra".into(), 1.into());
    let line = format!(
        "{{\"type\":\"move\",\"game\":{id},\"move\":{}}}\n",
        serde_json::Value::Object(fields)
    );
    let [ann, _] = &mut duel.players;
    ann.client.send_line(&line).await.expect("send");
    let refused = ann.error().await;
    assert!(
        refused.contains("unknown field") && refused.contains("extra"),
        "{refused}"
    );
    // The same move without it is played.
    ann.send(ClientMessage::Move { game: id, mv }).await;
    assert_eq!(ann.moved(id, 1).await.0, mv);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_differ_by_more_than_case_and_no_account_looks_like_a_computer_or_a_guest() {
    let (_data, home, server) = started(&["--computer", "1"]);
    let mut owner = TestClient::connect(server.port, home.path()).await;
    owner.register("owner", "password").await;
    let mut other = TestClient::connect(server.port, home.path()).await;
    for (name, expected) in [
        ("Owner", "is taken"),
        ("OWNER", "is taken"),
        ("COMPUTER1x", "computer"),
        ("Computer7", "computer"),
        ("Guest12", "guests"),
    ] {
        other
            .send(ClientMessage::Register {
                name: name.into(),
                password: "password".into(),
            })
            .await;
        let refused = other.error().await;
        assert!(refused.contains(expected), "{name}: {refused}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_characters_and_piles_of_marks_are_removed_from_chat_and_traffic() {
    let (_data, home, server) = started(&["--showtraffic"]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let game = ann.made_game(new_game("brandub")).await;
    // Hangul filler, braille blank, combining grapheme joiner, a variation selector, an
    // override, and three hundred combining marks on one letter.
    let text = format!(
        "a\u{3164}b\u{2800}c\u{34F}d\u{FE0F}e\u{202E}f{}",
        "\u{301}".repeat(300)
    );
    ann.send(ClientMessage::Say { game, text }).await;
    let heard = ann.chat().await;
    assert_eq!(heard, "abcdef\u{301}\u{301}\u{301}\u{301}");
    // The traffic shows the client's line with its hidden characters escaped.
    let shown = server.output_until(|text| text.contains("U+202E"));
    assert!(shown.contains("U+202E"), "{shown}");
    assert!(!shown.contains('\u{202E}'), "a raw override was printed");
    // An uploaded rule set's name with one is refused.
    let rules = brandub()
        .replace("id\tbrandub", "id\tblank")
        .replace("\"Brandub\"", "\"Bran\u{3164}dub\"");
    ann.send(ClientMessage::UploadRules { text: rules }).await;
    let refused = tokio::time::timeout(PATIENCE, ann.error())
        .await
        .expect("an answer");
    assert!(refused.contains("U+3164"), "{refused}");
}
