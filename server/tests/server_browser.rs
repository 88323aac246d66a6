//! The web page in a real browser: headless Chromium, driven through chromedriver
//! (fantoccini), against the real server binary. Two browsers register, play brandub by
//! clicks on the board, chat, and one resigns; then one plays `computer1`. `scripts/test.sh` installs Chromium and
//! chromedriver from Debian's packages.

mod server_support;
mod web_support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use server_support::ServerProcess;
use web_support::web_port;

/// How long the page may take to show what a step waits for.
const PATIENCE: Duration = Duration::from_secs(30);

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
    async fn browser(&self, profile: &std::path::Path) -> Client {
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

async fn moves_listed(browser: &Client, count: usize) {
    until(
        browser,
        &format!("return document.querySelectorAll('#moves li').length === {count}"),
        &format!("{count} moves listed"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_brandub_and_chat_then_one_plays_the_computer() {
    let data = tempfile::tempdir().expect("data");
    let server = ServerProcess::start(data.path(), 0, &["--web-port", "0", "--computer", "1"]);
    let port = web_port(&server);
    let driver = Driver::start();
    let profiles = [
        tempfile::tempdir().expect("a profile"),
        tempfile::tempdir().expect("a profile"),
    ];
    let ann = driver.browser(profiles[0].path()).await;
    let bob = driver.browser(profiles[1].path()).await;
    registered(&ann, port, "ann").await;
    registered(&bob, port, "bob").await;

    // Ann makes a game of brandub, untimed, and takes side 0, which moves first.
    until(
        &ann,
        "return [...document.getElementById('new-rules').options].some(o => o.value === 'brandub')",
        "the rules listed",
    )
    .await;
    ann.execute(
        "document.getElementById('new-rules').value = 'brandub'; \
         document.getElementById('new-minutes').value = '0';",
        Vec::new(),
    )
    .await
    .expect("the form filled");
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

    // Bob finds it in the lobby and joins.
    click(&bob, "#refresh").await;
    until(
        &bob,
        "return [...document.querySelectorAll('#games button')].some(b => b.textContent === 'Join')",
        "a game to join",
    )
    .await;
    bob.execute(
        "[...document.querySelectorAll('#games button')].find(b => b.textContent === 'Join').click()",
        Vec::new(),
    )
    .await
    .expect("joined");
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

    // The attacker at the top's middle goes left; the defender above the king too;
    // then the attacker below the first.
    play(&ann, "d7", "b7").await;
    moves_listed(&ann, 1).await;
    moves_listed(&bob, 1).await;
    play(&bob, "d5", "b5").await;
    moves_listed(&bob, 2).await;
    moves_listed(&ann, 2).await;
    play(&ann, "d6", "c6").await;
    moves_listed(&bob, 3).await;
    assert_eq!(text(&bob, "#moves li:nth-child(1)").await, "d7-b7");
    assert_eq!(text(&bob, "#moves li:nth-child(3)").await, "d6-c6");
    // The last move is marked on the board; the piece stands on its new square.
    for square in ["d6", "c6"] {
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
    let screenshot = bob.screenshot().await.expect("a screenshot");
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-board.png"),
        screenshot,
    )
    .expect("the screenshot kept");

    // Chat that looks like markup is shown as text and never run.
    let hostile = "<script>window.hacked = 1</script><img src=x onerror=\"window.hacked = 2\">";
    let field = ann.find(Locator::Id("chat-text")).await.expect("chat");
    field.send_keys(hostile).await.expect("typed");
    click(&ann, "#say").await;
    until(
        &bob,
        "return document.querySelectorAll('#chat li').length === 1",
        "the chat line",
    )
    .await;
    assert_eq!(text(&bob, "#chat li").await, format!("ann says: {hostile}"));
    let ran = bob
        .execute(
            "return window.hacked === undefined \
             && document.querySelectorAll('#chat script, #chat img').length === 0",
            Vec::new(),
        )
        .await
        .expect("the script runs");
    assert_eq!(ran, serde_json::Value::Bool(true));

    // Ann resigns; both are told the end in words.
    click(&ann, "#resign").await;
    for browser in [&ann, &bob] {
        until(
            browser,
            "return document.getElementById('end').textContent !== ''",
            "the end",
        )
        .await;
        assert_eq!(
            text(browser, "#end").await,
            "Player bob wins: player ann resigned."
        );
    }
    // The switch to Swedish says it again from the Swedish language file.
    bob.execute(
        "const choice = document.getElementById('language'); choice.value = 'swe'; \
         choice.dispatchEvent(new Event('change'));",
        Vec::new(),
    )
    .await
    .expect("switched");
    until(
        &bob,
        "return document.getElementById('end').textContent \
         === 'Spelare bob vinner: spelare ann gav upp.'",
        "the end in Swedish",
    )
    .await;
    let hidden = bob
        .execute(
            "return document.getElementById('resign').hidden",
            Vec::new(),
        )
        .await
        .expect("the script runs");
    assert_eq!(
        hidden,
        serde_json::Value::Bool(true),
        "resign after the end"
    );

    // Ann plays computer1: her move, then its answer.
    click(&ann, "#back").await;
    ann.execute(
        "document.getElementById('new-rules').value = 'brandub'; \
         document.getElementById('new-minutes').value = '0'; \
         document.getElementById('new-opponent').value = 'computer1';",
        Vec::new(),
    )
    .await
    .expect("the form filled");
    click(&ann, "#create").await;
    until(
        &ann,
        "return document.getElementById('turn').textContent === 'Your move.'",
        "ann's turn against computer1",
    )
    .await;
    assert_eq!(text(&ann, "#player1 .name").await, "computer1");
    play(&ann, "d7", "b7").await;
    moves_listed(&ann, 2).await;

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
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-phone.png"),
        screenshot,
    )
    .expect("the screenshot kept");
    ann.close().await.expect("closed");
    bob.close().await.expect("closed");
}
