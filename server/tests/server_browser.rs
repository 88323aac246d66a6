//! The web page in a real browser: headless Chromium, driven through chromedriver
//! (fantoccini), against the real server binary. Two browsers register; one posts a seek
//! that the other takes, and a third watches; they play brandub by taps and by a finger's
//! drags, the targets lit from the server's legal moves and an illegal tap refused on the
//! page, until a capture, whose piece is taken off (the screenshot read back); the server
//! is killed and started again, and both pages take up the game by themselves; they chat,
//! and play on until the king escapes to a corner. One plays the `hnefatafl` terminal
//! program (its standard input and output), which challenges him, to its capture and his
//! resignation. Then one plays halatafl jumps (one, then a chain of two, tap by tap)
//! against a client of the TLS port, and `computer1`, loses a byo-yomi game on time, and
//! the page fits a phone's 390 px. `scripts/test.sh` installs Chromium and chromedriver
//! from Debian's packages.

mod server_support;
mod web_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use fantoccini::{Client, ClientBuilder, Locator};
use hnefatafl_core::{Direction, Jumps, Move, Square};
use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, ServerMessage, TournamentFormat, TournamentSpec,
};
use server_support::binaries::client_binary;
use server_support::{PATIENCE, ServerProcess, TestClient};
use web_support::web_port;

/// A running chromedriver; killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts chromedriver on a free port of loopback, read from what it prints.
    fn start() -> Driver {
        let mut child = Command::new("chromedriver")
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "chromedriver: {error}; install chromium and chromium-driver \
                     (scripts/test.sh does)"
                )
            });
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let port = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| {
                let rest = line.split("started successfully on port ").nth(1)?;
                rest.trim_end_matches('.').parse().ok()
            })
            .expect("chromedriver's port");
        // What it prints later is not read: its pipe is kept open by a thread.
        std::thread::spawn(move || for _ in lines {});
        Driver { child, port }
    }

    /// A new headless browser, with a profile of its own, that takes the server's
    /// self-made certificate.
    async fn browser(&self, profile: &Path) -> Client {
        let mut capabilities = serde_json::Map::new();
        let arguments = [
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--no-first-run".to_owned(),
            "--lang=en".to_owned(),
            "--window-size=1000,800".to_owned(),
            format!("--user-data-dir={}", profile.display()),
        ];
        capabilities.insert(
            "goog:chromeOptions".to_owned(),
            serde_json::json!({ "args": arguments }),
        );
        capabilities.insert("acceptInsecureCerts".to_owned(), true.into());
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `hnefatafl` program, as a player at a terminal runs it: lines typed on its
/// standard input, what it prints on either stream gathered as it comes.
struct Terminal {
    child: Child,
    printed: Arc<Mutex<String>>,
}

impl Terminal {
    /// Starts the program in English with `home` as its home, in no X display.
    fn start(home: &Path) -> Terminal {
        let mut child = Command::new(client_binary())
            .args(["-C", "-l", "eng"])
            .env("HOME", home)
            .env("NO_COLOR", "1")
            .env_remove("DISPLAY")
            .env_remove("HNEFATAFL_RC")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("hnefatafl starts");
        let printed = Arc::new(Mutex::new(String::new()));
        let streams: [Box<dyn Read + Send>; 2] = [
            Box::new(child.stdout.take().expect("its output")),
            Box::new(child.stderr.take().expect("its errors")),
        ];
        for stream in streams {
            let printed = printed.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let mut text = printed.lock().expect("the output");
                    text.push_str(&line);
                    text.push('\n');
                }
            });
        }
        Terminal { child, printed }
    }

    /// Types these lines.
    fn type_lines(&mut self, lines: &[&str]) {
        let input = self.child.stdin.as_mut().expect("its input");
        for line in lines {
            writeln!(input, "{line}").expect("typed");
        }
        input.flush().expect("typed");
    }

    /// Waits until the program has printed `wanted`, within [`PATIENCE`].
    async fn shows(&self, wanted: &str) {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let printed = self.printed.lock().expect("the output").clone();
            if printed.contains(wanted) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the program never printed {wanted:?}, only:\n{printed}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the program has ended by itself, successfully.
    async fn ended(&mut self) {
        let deadline = std::time::Instant::now() + PATIENCE;
        while self.child.try_wait().expect("its status").is_none() {
            assert!(std::time::Instant::now() < deadline, "the program goes on");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let status = self.child.wait().expect("its status");
        assert!(status.success(), "{status}");
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls the page with a script answering a boolean until it says true, within
/// [`PATIENCE`]; `what` names the wait when it fails.
async fn until(browser: &Client, script: &str, what: &str) {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let answer = browser
            .execute(script, Vec::new())
            .await
            .expect("the script runs");
        if answer == serde_json::Value::Bool(true) {
            return;
        }
        let status = browser
            .execute(
                "return document.getElementById('status').textContent",
                Vec::new(),
            )
            .await
            .unwrap_or_default();
        assert!(
            std::time::Instant::now() < deadline,
            "waited in vain for {what}; the page says {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What a script answers on the page.
async fn answer(browser: &Client, script: &str) -> serde_json::Value {
    browser
        .execute(script, Vec::new())
        .await
        .unwrap_or_else(|error| panic!("{script}: {error}"))
}

/// Sets fields of the page by their ids, each as a user's choice does (its `change` event
/// fired), in order.
async fn fill(browser: &Client, fields: &[(&str, &str)]) {
    browser
        .execute(
            "for (const [id, value] of arguments[0]) { \
               const field = document.getElementById(id); field.value = value; \
               field.dispatchEvent(new Event('change')); }",
            vec![serde_json::json!(fields)],
        )
        .await
        .unwrap_or_else(|error| panic!("filling {fields:?}: {error}"));
}

/// Clicks the first of the buttons `selector` whose text is `label`.
async fn press(browser: &Client, selector: &str, label: &str) {
    browser
        .execute(
            "[...document.querySelectorAll(arguments[0])]\
             .find(button => button.textContent === arguments[1]).click()",
            vec![selector.into(), label.into()],
        )
        .await
        .unwrap_or_else(|error| panic!("pressing {label}: {error}"));
}

/// The text of the element `selector`.
async fn text(browser: &Client, selector: &str) -> String {
    browser
        .find(Locator::Css(selector))
        .await
        .expect(selector)
        .text()
        .await
        .expect("its text")
}

/// Opens the page, waits for the server's welcome, and registers `name`.
async fn registered(browser: &Client, port: u16, name: &str) {
    browser
        .goto(&format!("https://127.0.0.1:{port}/"))
        .await
        .expect("the page opens");
    until(
        browser,
        "return document.getElementById('status').textContent.startsWith('hnefataflserver')",
        "the welcome",
    )
    .await;
    let field = browser.find(Locator::Id("name")).await.expect("name");
    field.send_keys(name).await.expect("typed");
    let field = browser
        .find(Locator::Id("password"))
        .await
        .expect("password");
    field.send_keys("a long secret").await.expect("typed");
    click(browser, "#register").await;
    until(
        browser,
        "return !document.getElementById('lobby').hidden",
        "the lobby",
    )
    .await;
    assert_eq!(text(browser, "#who").await, name);
}

async fn click(browser: &Client, selector: &str) {
    browser
        .find(Locator::Css(selector))
        .await
        .expect(selector)
        .click()
        .await
        .unwrap_or_else(|error| panic!("click {selector}: {error}"));
}

/// Clicks a square of the board by its name, then another.
async fn play(browser: &Client, from: &str, to: &str) {
    click(browser, &format!("rect[data-square='{from}']")).await;
    click(browser, &format!("rect[data-square='{to}']")).await;
}

/// Drags the piece on one square onto another with a finger: a touch pointer's press,
/// moves and release, as a phone's screen makes them.
async fn drag(browser: &Client, from: &str, to: &str) {
    let square = |name: &str| format!("rect[data-square='{name}']");
    let start = browser
        .find(Locator::Css(&square(from)))
        .await
        .expect("the square");
    let end = browser
        .find(Locator::Css(&square(to)))
        .await
        .expect("the square");
    let finger = TouchActions::new("finger".to_owned())
        .then(PointerAction::MoveToElement {
            element: start,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(50)),
            x: 10.0,
            y: 10.0,
        })
        .then(PointerAction::MoveToElement {
            element: end,
            duration: Some(Duration::from_millis(100)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    browser.perform_actions(finger).await.expect("dragged");
}

/// The colour of the screenshot's pixel at the centre of a square of the board.
async fn colour_at(browser: &Client, square: &str) -> [u8; 3] {
    let centre = browser
        .execute(
            &format!(
                "const box = document.querySelector(\"rect[data-square='{square}']\")\
                 .getBoundingClientRect(); \
                 return [box.left + box.width / 2, box.top + box.height / 2, \
                 window.devicePixelRatio];"
            ),
            Vec::new(),
        )
        .await
        .expect("the square's place");
    let numbers: Vec<f64> = centre
        .as_array()
        .expect("a list")
        .iter()
        .map(|value| value.as_f64().expect("a number"))
        .collect();
    let png = browser.screenshot().await.expect("a screenshot");
    let shot = image::load_from_memory(&png).expect("a PNG").to_rgb8();
    let pixel = shot.get_pixel(
        (numbers[0] * numbers[2]) as u32,
        (numbers[1] * numbers[2]) as u32,
    );
    pixel.0
}

/// Whether two colours are the same but for rounding.
fn near(colour: [u8; 3], expected: [u8; 3]) -> bool {
    colour
        .iter()
        .zip(expected)
        .all(|(&a, b)| a.abs_diff(b) <= 8)
}

async fn moves_listed(browser: &Client, count: usize) {
    until(
        browser,
        &format!("return document.querySelectorAll('#moves li').length === {count}"),
        &format!("{count} moves listed"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_through_a_capture_and_a_restart_then_a_jump_and_the_computer() {
    let data = tempfile::tempdir().expect("data");
    let mut server = ServerProcess::start(data.path(), 0, &["--web-port", "0", "--computer", "1"]);
    let port = web_port(&server);
    let driver = Driver::start();
    let profiles = [
        tempfile::tempdir().expect("a profile"),
        tempfile::tempdir().expect("a profile"),
        tempfile::tempdir().expect("a profile"),
    ];
    let ann = driver.browser(profiles[0].path()).await;
    let bob = driver.browser(profiles[1].path()).await;
    registered(&ann, port, "ann").await;
    registered(&bob, port, "bob").await;

    // Ann posts a seek of brandub, untimed, for ratings from 1000, and takes side 0,
    // which moves first.
    until(
        &ann,
        "return [...document.getElementById('new-rules').options].some(o => o.value === 'brandub')",
        "the rules listed",
    )
    .await;
    fill(
        &ann,
        &[
            ("new-rules", "brandub"),
            ("new-minutes", "0"),
            ("new-min", "1000"),
        ],
    )
    .await;
    click(&ann, "#create").await;
    until(
        &ann,
        "return !document.getElementById('game').hidden",
        "the game",
    )
    .await;
    // 7 by 7 squares, 13 pieces.
    until(
        &ann,
        "return document.querySelectorAll('rect.square').length === 49 \
         && document.querySelectorAll('circle.piece').length === 13",
        "the board",
    )
    .await;

    // Bob finds the seek in the lobby, with its terms, and takes it.
    click(&bob, "#refresh").await;
    until(
        &bob,
        "return [...document.querySelectorAll('#games button')].some(b => b.textContent === 'Join') \
         && document.getElementById('games').textContent.includes('1000–')",
        "a seek to take",
    )
    .await;
    press(&bob, "#games button", "Join").await;
    until(
        &bob,
        "return !document.getElementById('game').hidden",
        "the game",
    )
    .await;
    until(
        &ann,
        "return document.getElementById('turn').textContent === 'Your move.'",
        "ann's turn",
    )
    .await;
    // Dan watches from the lobby.
    let dan = driver.browser(profiles[2].path()).await;
    registered(&dan, port, "dan").await;
    click(&dan, "#refresh").await;
    until(
        &dan,
        "return [...document.querySelectorAll('#games button')].some(b => b.textContent === 'Watch')",
        "a game to watch",
    )
    .await;
    press(&dan, "#games button", "Watch").await;

    // Ann chooses a piece: the squares it may go to are lit, a corner not; a tap on the
    // corner is refused on the page, and nothing is sent.
    click(&ann, "rect[data-square='a4']").await;
    until(
        &ann,
        "return document.querySelector(\"rect[data-square='a5']\").classList.contains('target') \
         && !document.querySelector(\"rect[data-square='a7']\").classList.contains('target')",
        "the targets lit",
    )
    .await;
    click(&ann, "rect[data-square='a7']").await;
    until(
        &ann,
        "return document.getElementById('status').textContent === 'That move is not legal here.'",
        "the refusal",
    )
    .await;
    // The attackers close on the defender above the king from both sides, Ann's moves
    // dragged with a finger, Bob's by taps.
    drag(&ann, "a4", "a5").await;
    moves_listed(&bob, 1).await;
    play(&bob, "d3", "f3").await;
    moves_listed(&ann, 2).await;
    play(&ann, "a5", "c5").await;
    moves_listed(&bob, 3).await;
    play(&bob, "f3", "f2").await;
    moves_listed(&ann, 4).await;
    play(&ann, "g4", "g5").await;
    moves_listed(&bob, 5).await;
    play(&bob, "f2", "e2").await;
    moves_listed(&ann, 6).await;
    let defender = colour_at(&bob, "d5").await;
    drag(&ann, "g5", "e5").await;
    moves_listed(&bob, 7).await;
    assert_eq!(text(&bob, "#moves li:nth-child(1)").await, "a4-a5");
    assert_eq!(text(&bob, "#moves li:nth-child(7)").await, "g5-e5");
    // The defender is taken off the board: 12 pieces, and its square shows the board's
    // colour where the white piece was.
    until(
        &bob,
        "return document.querySelectorAll('circle.piece').length === 12 \
         && !document.querySelector(\"circle[data-on='17']\")",
        "the capture taken off",
    )
    .await;
    for square in ["g5", "e5"] {
        until(
            &bob,
            &format!(
                "return document.querySelector(\"rect[data-square='{square}']\")\
                 .classList.contains('last')"
            ),
            "the last move marked",
        )
        .await;
    }
    // The watcher saw every move as it came, the capture too.
    until(
        &dan,
        "return document.querySelectorAll('#moves li').length === 7 \
         && document.querySelectorAll('circle.piece').length === 12 \
         && document.getElementById('turn').textContent === 'bob to move.'",
        "the moves watched",
    )
    .await;
    dan.close().await.expect("closed");
    let taken = colour_at(&bob, "d5").await;
    // `.piece.side1` and `.square` of style.css.
    assert!(near(defender, [0xfd, 0xfd, 0xfd]), "{defender:?}");
    assert!(near(taken, [0xe9, 0xd7, 0xa8]), "{taken:?}");
    let screenshot = bob.screenshot().await.expect("a screenshot");
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-board.png"),
        screenshot,
    )
    .expect("the screenshot kept");

    // The server is killed mid-game and started again on the same ports: both pages
    // connect again by themselves, log in again and take up the game where it was.
    let tls_port = server.port;
    server.kill();
    for browser in [&ann, &bob] {
        until(
            browser,
            "return document.body.classList.contains('offline') && document.getElementById('status')\
             .textContent.startsWith('The connection is lost')",
            "the drop noticed",
        )
        .await;
    }
    server = ServerProcess::start(
        data.path(),
        tls_port,
        &["--web-port", &port.to_string(), "--computer", "1"],
    );
    // Each page is offline (its board dimmed, taking no move) until the game has come
    // again.
    for (browser, turn) in [(&bob, "Your move."), (&ann, "bob to move.")] {
        until(
            browser,
            &format!(
                "return !document.body.classList.contains('offline') \
                 && document.getElementById('turn').textContent === '{turn}' \
                 && document.querySelectorAll('#moves li').length === 7 \
                 && document.querySelectorAll('circle.piece').length === 12"
            ),
            "the game taken up again",
        )
        .await;
    }
    play(&bob, "e2", "e3").await;
    moves_listed(&bob, 8).await;
    moves_listed(&ann, 8).await;

    // Chat that looks like markup is shown as text and never run; a right-to-left
    // override does not reach the page.
    let markup = "<script>window.hacked = 1</script><img src=x onerror=\"window.hacked = 2\">";
    let hostile = format!("{markup}\u{202E}!");
    let field = ann.find(Locator::Id("chat-text")).await.expect("chat");
    field.send_keys(&hostile).await.expect("typed");
    click(&ann, "#say").await;
    until(
        &bob,
        "return document.querySelectorAll('#chat li').length === 1",
        "the chat line",
    )
    .await;
    assert_eq!(text(&bob, "#chat li").await, format!("ann says: {markup}!"));
    let ran = answer(
        &bob,
        "return window.hacked === undefined \
         && document.querySelectorAll('#chat script, #chat img').length === 0",
    )
    .await;
    assert_eq!(ran, serde_json::Value::Bool(true));

    // They play the game to its end: the attackers open a way, and the king runs to a
    // corner. Both are told the end in words, from the language file.
    let to_the_end = [
        (&ann, "c5", "c7"),
        (&bob, "d4", "d5"),
        (&ann, "b4", "b3"),
        (&bob, "d5", "a5"),
        (&ann, "f4", "f3"),
        (&bob, "a5", "a7"),
    ];
    for (played, (browser, from, to)) in (9..).zip(to_the_end) {
        play(browser, from, to).await;
        moves_listed(&ann, played).await;
        moves_listed(&bob, played).await;
    }
    for browser in [&ann, &bob] {
        until(
            browser,
            "return document.getElementById('end').textContent !== ''",
            "the end",
        )
        .await;
        assert_eq!(
            text(browser, "#end").await,
            "Player bob wins: the king reached an escape square."
        );
    }
    // The switch to Swedish says it again from the Swedish language file.
    fill(&bob, &[("language", "swe")]).await;
    until(
        &bob,
        "return document.getElementById('end').textContent \
         === 'Spelare bob vinner: en kung nådde en flyktruta.'",
        "the end in Swedish",
    )
    .await;
    let hidden = answer(&bob, "return document.getElementById('resign').hidden").await;
    assert_eq!(
        hidden,
        serde_json::Value::Bool(true),
        "resign after the end"
    );

    // Bob replays the finished game, each position from the server: the start, the
    // end, and eight moves back, before the capture; then flips the board and writes the
    // squares in the numeric notation.
    let replayed = |ply: &str, pieces: usize| {
        format!(
            "return document.getElementById('ply').textContent === '{ply}' \
             && document.querySelectorAll('circle.piece').length === {pieces}"
        )
    };
    click(&bob, "#first").await;
    until(&bob, &replayed("0 / 14", 13), "the start replayed").await;
    click(&bob, "#latest").await;
    until(&bob, &replayed("14 / 14", 12), "the end replayed").await;
    for _ in 0..8 {
        click(&bob, "#previous").await;
    }
    until(&bob, &replayed("6 / 14", 13), "the capture taken back").await;
    click(&bob, "#flip").await;
    until(
        &bob,
        "const top = (name) => document.querySelector(`rect[data-square='${name}']`)\
         .getBoundingClientRect().top; return top('a7') > top('g1');",
        "the board flipped",
    )
    .await;
    fill(&bob, &[("notation", "numeric")]).await;
    until(
        &bob,
        "return document.querySelector('#moves li').textContent === '0 3 0 2'",
        "the numeric notation",
    )
    .await;
    // Ann downloads the game as the saved game `fetch` writes, and asks Bob for a
    // rematch: a challenge reaches him.
    click(&ann, "#download").await;
    until(
        &ann,
        "const link = document.querySelector('#downloads a'); \
         return link !== null && link.download === 'game1-brandub.txt'",
        "the download",
    )
    .await;
    click(&ann, "#rematch").await;
    until(
        &bob,
        "return document.querySelectorAll('#challenges li').length === 1 \
         && document.querySelector('#challenges li').textContent.startsWith('ann')",
        "the rematch's challenge",
    )
    .await;

    // Eve, at the `hnefatafl` terminal program, challenges Bob to brandub with side 0;
    // his page lists the challenge, and he joins it.
    let eve_home = tempfile::tempdir().expect("home");
    let mut eve = Terminal::start(eve_home.path());
    eve.type_lines(&[
        &format!("c 127.0.0.1:{}", server.port),
        "register eve",
        "eve secret",
        "challenge bob brandub 0",
    ]);
    let from_eve = "[...document.querySelectorAll('#challenges li')]\
                    .find(item => item.textContent.startsWith('eve'))";
    until(
        &bob,
        &format!("return {from_eve} !== undefined"),
        "eve's challenge",
    )
    .await;
    answer(&bob, &format!("{from_eve}.querySelector('button').click()")).await;
    eve.shows("bob takes the seat of player 1 in game 3.").await;
    // The first game's opening again, to its capture: Eve types all her moves at once
    // (the program makes each in its turn), Bob taps his as hers come.
    eve.type_lines(&["m 0 3 0 2", "m 0 2 2 2", "m 6 3 6 2", "m 6 2 4 2"]);
    for (listed, from, to) in [(1, "d3", "f3"), (3, "f3", "f2"), (5, "f2", "e2")] {
        moves_listed(&bob, listed).await;
        play(&bob, from, to).await;
    }
    until(
        &bob,
        "return document.querySelectorAll('#moves li').length === 7 \
         && document.querySelectorAll('circle.piece').length === 12",
        "eve's capture",
    )
    .await;
    // Bob's page writes the squares in the numeric notation he chose.
    assert_eq!(text(&bob, "#moves li:nth-child(7)").await, "6 2 4 2");
    for shown in [
        "m 3 4 5 4 (d3-f3)",
        "m 5 4 5 5 (f3-f2)",
        "m 5 5 4 5 (f2-e2)",
    ] {
        eve.shows(shown).await;
    }
    // Bob resigns: his page says the end in Swedish, the program in English (with the
    // capture that came before).
    click(&bob, "#resign").await;
    until(
        &bob,
        "return document.getElementById('end').textContent \
         === 'Spelare eve vinner: spelare bob gav upp.'",
        "the end at the page",
    )
    .await;
    eve.shows("m 6 2 4 2 (g5-e5): captures d5").await;
    eve.shows("Game 3 is over. Player 0 wins: player 1 resigned.")
        .await;
    eve.type_lines(&["q"]);
    eve.ended().await;

    // Ann plays halatafl's black against a client of the TLS port, Carl: his white
    // piece onto the centre must be taken, and the page lights only that jump; two taps
    // make it. On her way, the lobby's archive and leaderboard.
    click(&ann, "#back").await;
    click(&ann, "#show-archive").await;
    until(
        &ann,
        "return document.getElementById('archive').textContent.includes('ann – bob')",
        "the archive",
    )
    .await;
    fill(&ann, &[("ratings-rules", "brandub")]).await;
    click(&ann, "#show-ratings").await;
    until(
        &ann,
        "return document.getElementById('leaderboard-title').textContent \
         === 'Ratings in brandub, page 1:'",
        "the leaderboard",
    )
    .await;
    let halatafl = [
        ("new-rules", "halatafl"),
        ("new-minutes", "0"),
        ("new-min", ""),
        ("new-side", "1"),
    ];
    fill(&ann, &halatafl).await;
    click(&ann, "#create").await;
    until(
        &ann,
        "return document.querySelectorAll('circle.piece').length === 48",
        "the halatafl board",
    )
    .await;
    let home = tempfile::tempdir().expect("home");
    let mut carl = TestClient::registered(server.port, home.path(), "carl").await;
    carl.send(ClientMessage::Games).await;
    let game = carl
        .expect(|message| match message {
            ServerMessage::GameList { games } => games
                .iter()
                .find(|game| game.rules_id == "halatafl" && game.result.is_none())
                .map(|game| game.game),
            _ => None,
        })
        .await;
    carl.send(ClientMessage::Join { game }).await;
    carl.game_state().await;
    let onto_centre = Move::new(
        Square::new(3, 4).expect("d3"),
        Square::new(3, 3).expect("d4"),
    );
    carl.send(ClientMessage::Move {
        game,
        mv: onto_centre,
    })
    .await;
    moves_listed(&ann, 1).await;
    click(&ann, "rect[data-square='d5']").await;
    until(
        &ann,
        "return document.querySelectorAll('rect.target').length === 1 \
         && document.querySelector(\"rect[data-square='d3']\").classList.contains('target')",
        "the one jump lit",
    )
    .await;
    click(&ann, "rect[data-square='d3']").await;
    let (jump, _) = carl.moved(game, 2).await;
    assert_eq!(jump.jumps().iter().collect::<Vec<_>>(), [Direction::South]);
    until(
        &ann,
        "return document.querySelectorAll('circle.piece').length === 47",
        "the white piece taken off",
    )
    .await;
    assert_eq!(text(&ann, "#moves li:nth-child(2)").await, "d5-d3");

    // A chain of two jumps: Carl's d2 takes her piece back onto the centre (he must),
    // she steps beside it from e5 to d5, and he moves d1 up to d2; then her d5 must jump
    // the centre to d3 and on over d2 to d1. Each landing is a tap, the next one lit
    // after the first, and the move goes only when the chain is whole.
    let square = |name: &str| {
        let bytes = name.as_bytes();
        Square::new(bytes[0] - b'a', b'7' - bytes[1]).expect("a square of the board")
    };
    let north = Jumps::EMPTY.with(Direction::North).expect("one jump");
    let retake = Move::jump(square("d2"), north).expect("d2 over d3 to d4");
    carl.send(ClientMessage::Move { game, mv: retake }).await;
    moves_listed(&ann, 3).await;
    play(&ann, "e5", "d5").await;
    carl.moved(game, 4).await;
    let up = Move::new(square("d1"), square("d2"));
    carl.send(ClientMessage::Move { game, mv: up }).await;
    moves_listed(&ann, 5).await;
    let white_on_d2 = colour_at(&ann, "d2").await;
    click(&ann, "rect[data-square='d5']").await;
    click(&ann, "rect[data-square='d3']").await;
    until(
        &ann,
        "return document.querySelectorAll('rect.target').length === 1 \
         && document.querySelector(\"rect[data-square='d1']\").classList.contains('target') \
         && document.querySelectorAll('#moves li').length === 5",
        "the chain's second landing lit, nothing sent yet",
    )
    .await;
    click(&ann, "rect[data-square='d1']").await;
    let (chain, _) = carl.moved(game, 6).await;
    assert_eq!((chain.from(), chain.to()), (square("d5"), square("d1")));
    assert_eq!(
        chain.jumps().iter().collect::<Vec<_>>(),
        [Direction::South, Direction::South]
    );
    // Both jumped pieces are off the board (d4 and d2, squares 24 and 38), and d2 shows
    // the board's colour in the screenshot where it showed Carl's piece (player 0's
    // colour, `.piece.side0`).
    until(
        &ann,
        "return document.querySelectorAll('circle.piece').length === 44 \
         && !document.querySelector(\"circle[data-on='24']\") \
         && !document.querySelector(\"circle[data-on='38']\") \
         && document.querySelector(\"circle[data-on='45']\") !== null",
        "the chain's two pieces taken off",
    )
    .await;
    assert_eq!(text(&ann, "#moves li:nth-child(6)").await, "d5-d3-d1");
    let emptied = colour_at(&ann, "d2").await;
    assert!(near(white_on_d2, [0x2b, 0x2b, 0x2b]), "{white_on_d2:?}");
    assert!(near(emptied, [0xe9, 0xd7, 0xa8]), "{emptied:?}");

    // A tournament: Carl makes a round robin; Ann finds it in the lobby's list and
    // enters from the page; Carl enters and starts it, and her page, told by the server,
    // shows the pairing with her game to join and the standings, in data/lang's words.
    click(&ann, "#back").await;
    carl.send(ClientMessage::CreateTournament {
        spec: TournamentSpec {
            name: "Club night".to_owned(),
            format: TournamentFormat::RoundRobin,
            rules: "brandub".to_owned(),
            clock: ClockSpec::fischer(300_000, 0),
            rounds: None,
            starts_at_ms: None,
            rated: true,
        },
    })
    .await;
    let tournament = carl
        .expect(|message| match message {
            ServerMessage::Tournament { tournament } => Some(tournament.summary.tournament),
            _ => None,
        })
        .await;
    click(&ann, "#show-tournaments").await;
    let listed = format!(
        "{tournament}: Club night, round robin, brandub, 5+0, players: 0, open for entries"
    );
    until(
        &ann,
        &format!(
            "return document.querySelector('#tournaments li')?.textContent.startsWith('{listed}')"
        ),
        "the tournament listed",
    )
    .await;
    click(&ann, "#tournaments li button:nth-of-type(2)").await;
    until(
        &ann,
        "return document.getElementById('tournament-title').textContent.includes('players: 1,') \
         && document.getElementById('tournament-steps').textContent === 'Withdraw'",
        "ann entered",
    )
    .await;
    carl.send(ClientMessage::EnterTournament { tournament })
        .await;
    carl.send(ClientMessage::StartTournament { tournament })
        .await;
    until(
        &ann,
        "const lines = [...document.querySelectorAll('#tournament-rounds li')]\
         .map((line) => line.textContent); \
         return lines.length === 2 && lines[0] === 'Round 1:' \
         && /^(ann – carl|carl – ann): 0–0 \\(games \\d+\\) Join$/.test(lines[1]) \
         && document.getElementById('tournament-standings-title').textContent \
         === 'Standings (match points, game points, Sonneborn-Berger):' \
         && document.querySelectorAll('#tournament-standings tr').length === 2",
        "the pairing and the standings",
    )
    .await;
    click(&ann, "#tournament-rounds li button").await;
    until(
        &ann,
        "return !document.getElementById('game').hidden \
         && document.querySelectorAll('circle.piece').length === 13",
        "her tournament game",
    )
    .await;

    // Ann plays computer1: her move, then its answer.
    click(&ann, "#back").await;
    let against_computer1 = [
        ("new-rules", "brandub"),
        ("new-minutes", "0"),
        ("new-side", "0"),
        ("new-opponent", "computer1"),
    ];
    fill(&ann, &against_computer1).await;
    click(&ann, "#create").await;
    until(
        &ann,
        "return document.getElementById('turn').textContent === 'Your move.'",
        "ann's turn against computer1",
    )
    .await;
    // The seat's name is drawn from the same update as the turn, or the one after it.
    until(
        &ann,
        "return document.querySelector('#player1 .name').textContent === 'computer1'",
        "computer1 named in ann's game",
    )
    .await;
    // The pieces drawn with the wood theme's images, as the server serves them.
    fill(&ann, &[("theme", "wood")]).await;
    until(
        &ann,
        "return document.querySelectorAll('circle.piece').length === 0 \
         && document.querySelectorAll(\"image.piece[href='theme/wood/p004.png']\").length === 8",
        "the wood pieces",
    )
    .await;
    play(&ann, "d7", "b7").await;
    moves_listed(&ann, 2).await;

    // A byo-yomi clock of no main time and one period of a second: Ann does not move,
    // and loses on time.
    click(&ann, "#back").await;
    let byoyomi = [
        ("new-clock", "byoyomi"),
        ("new-minutes", "0"),
        ("new-periods", "1"),
        ("new-period", "1"),
    ];
    fill(&ann, &byoyomi).await;
    click(&ann, "#create").await;
    until(
        &ann,
        "return document.getElementById('end').textContent \
         === 'Player computer1 wins: player ann ran out of time.'",
        "the loss on time",
    )
    .await;

    // On a phone's 390 px the board fits the width, with nothing to scroll sideways.
    ann.set_window_size(390, 844).await.expect("resized");
    until(
        &ann,
        "return window.innerWidth <= 390 \
         && document.documentElement.scrollWidth <= window.innerWidth \
         && document.querySelector('svg.board').getBoundingClientRect().right \
            <= window.innerWidth",
        "the board within a phone's width",
    )
    .await;
    let screenshot = ann.screenshot().await.expect("a screenshot");
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-phone.png"),
        screenshot,
    )
    .expect("the screenshot kept");
    ann.close().await.expect("closed");
    bob.close().await.expect("closed");
}
