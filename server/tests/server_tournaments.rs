//! Tournaments on the real server over loopback TLS: a round robin of four accounts
//! played, drawn and withdrawn from, with a restart in the middle, its standings worked by
//! hand and its games in the ratings; games lost on time by players who never come; a
//! Swiss event that starts by itself at its time, with a bye; and one cancelled at its
//! time for want of players.

mod server_support;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, EndCause, GameId, OfferKind, ServerMessage, TournamentFormat,
    TournamentId, TournamentSpec, TournamentStatus, TournamentView,
};
use server_support::binaries::client_binary;
use server_support::{PATIENCE, ServerProcess, TestClient, started};

/// Every game's clock: ten minutes, far more than the test takes to act, even on a
/// loaded machine.
const CLOCK: ClockSpec = ClockSpec::fischer(600_000, 0);

fn spec(name: &str, format: TournamentFormat, rounds: Option<u32>) -> TournamentSpec {
    TournamentSpec {
        name: name.to_owned(),
        format,
        rules: "brandub".to_owned(),
        clock: CLOCK,
        rounds,
        starts_at_ms: None,
        rated: true,
    }
}

/// The next tournament this client is sent (an answer, or one pushed to a player).
async fn next_view(client: &mut TestClient) -> TournamentView {
    client
        .expect(|m| match m {
            ServerMessage::Tournament { tournament } => Some(tournament.clone()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
}

/// Asks for a tournament until `ready` holds of it, within [`PATIENCE`]. The watcher is
/// nobody's player, so the only views it is sent are its answers.
async fn view_when(
    watcher: &mut TestClient,
    tournament: TournamentId,
    ready: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    let deadline = Instant::now() + PATIENCE;
    loop {
        watcher.send(ClientMessage::Tournament { tournament }).await;
        let seen = next_view(watcher).await;
        if ready(&seen) {
            return seen;
        }
        assert!(Instant::now() < deadline, "never came to pass: {seen:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The games begun of the match of `players` (in the match's order) in round `round`.
fn games_of(view: &TournamentView, round: usize, players: [&str; 2]) -> Vec<Option<GameId>> {
    let paired = view.rounds[round - 1]
        .matches
        .iter()
        .find(|paired| paired.players == players.map(String::from))
        .unwrap_or_else(|| panic!("no match {players:?} in round {round}: {view:#?}"));
    paired.games.clone()
}

/// Waits until the tournament is over, and answers its last view.
async fn finished(watcher: &mut TestClient, tournament: TournamentId) -> TournamentView {
    view_when(watcher, tournament, |view| {
        view.summary.status == TournamentStatus::Finished
    })
    .await
}

/// The player enters the tournament, and is answered with it.
async fn enter(player: &mut TestClient, tournament: TournamentId) {
    player
        .send(ClientMessage::EnterTournament { tournament })
        .await;
    next_view(player).await;
}

/// Waits until the match of `players` in `round` has begun its `number`th game (from 1),
/// and answers that game.
async fn game(
    watcher: &mut TestClient,
    tournament: TournamentId,
    round: usize,
    players: [&str; 2],
    number: usize,
) -> GameId {
    let view = view_when(watcher, tournament, |view| {
        view.rounds.len() >= round && games_of(view, round, players).len() >= number
    })
    .await;
    games_of(&view, round, players)[number - 1].expect("a game played")
}

/// A tournament's standings, a row a player: rank, name, match points, game points and
/// Sonneborn-Berger score (both doubled), and whether the player withdrew.
fn standings(view: &TournamentView) -> Vec<(u32, &str, u32, u32, u32, bool)> {
    view.standings
        .iter()
        .map(|row| {
            (
                row.rank,
                row.name.as_str(),
                row.match_points,
                row.game_points_x2,
                row.sonneborn_berger_x2,
                row.withdrawn,
            )
        })
        .collect()
}

/// The player sits at the game and resigns it.
async fn resign(client: &mut TestClient, game: GameId) {
    client.send(ClientMessage::Join { game }).await;
    client.game_state().await;
    client.send(ClientMessage::Resign { game }).await;
    client
        .expect(|m| match m {
            ServerMessage::Ended { game: ended, .. } if *ended == game => Some(()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
}

/// Both players sit at the game, and they agree a draw.
async fn draw(first: &mut TestClient, second: &mut TestClient, game: GameId) {
    for player in [&mut *first, &mut *second] {
        player.send(ClientMessage::Join { game }).await;
        player.game_state().await;
    }
    first.agreed_with(second, game, OfferKind::Draw).await;
}

/// An account's rated games in brandub so far.
async fn rated_games(client: &mut TestClient, account: &str) -> u32 {
    let (ratings, _) = client.ratings_of(account).await;
    ratings
        .iter()
        .find(|rating| rating.rules_id == "brandub")
        .map_or(0, |rating| rating.games)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_is_played_through_a_restart_to_its_standings() {
    let options = ["--rating-period", "1s"];
    let (data, home, mut server) = started(&options);
    let port = server.port;
    let [mut ann, mut bob, mut cat, mut dan] =
        TestClient::all_registered(port, home.path(), ["ann", "bob", "cat", "dan"]).await;
    // A guest, who watches.
    let mut eve = TestClient::connect(port, home.path()).await;

    ann.send(ClientMessage::CreateTournament {
        spec: spec("Club round robin", TournamentFormat::RoundRobin, None),
    })
    .await;
    let made = next_view(&mut ann).await;
    let id = made.summary.tournament;
    assert_eq!(made.summary.status, TournamentStatus::Registration);
    assert_eq!(made.summary.creator, "ann");

    // Terms that do not hold are refused in words.
    bob.send(ClientMessage::CreateTournament {
        spec: spec("No rounds", TournamentFormat::Swiss, None),
    })
    .await;
    assert!(bob.error().await.contains("rounds"));
    for player in [&mut ann, &mut bob, &mut cat, &mut dan] {
        enter(player, id).await;
    }
    bob.send(ClientMessage::EnterTournament { tournament: id })
        .await;
    assert!(bob.error().await.contains("already"));
    bob.send(ClientMessage::StartTournament { tournament: id })
        .await;
    assert!(bob.error().await.contains("only ann"));
    eve.send(ClientMessage::Tournaments).await;
    let listed = eve
        .expect(|m| match m {
            ServerMessage::TournamentList { tournaments } => Some(tournaments.clone()),
            _ => None,
        })
        .await;
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].tournament, listed[0].players), (id, 4));

    ann.send(ClientMessage::StartTournament { tournament: id })
        .await;
    // Round 1 by the Berger table of four: 1-4, 2-3.
    let first = game(&mut eve, id, 1, ["ann", "dan"], 1).await;
    let view = view_when(&mut eve, id, |_| true).await;
    assert_eq!(view.summary.status, TournamentStatus::Running);
    assert_eq!(view.summary.rounds, 3);
    // Anybody may watch a tournament's game.
    eve.send(ClientMessage::Watch { game: first }).await;
    let watched = eve.game_state().await;
    assert_eq!(
        watched.summary.players,
        [Some("ann".to_owned()), Some("dan".to_owned())]
    );
    assert!(watched.summary.rated);

    // Ann beats Dan 2-0: he resigns both games (side 1, then side 0).
    resign(&mut dan, first).await;
    let second = game(&mut eve, id, 1, ["ann", "dan"], 2).await;
    resign(&mut dan, second).await;
    // Bob and Cat draw the first game, and Cat resigns the second: 1½-½ to Bob.
    let draw_game = game(&mut eve, id, 1, ["bob", "cat"], 1).await;
    draw(&mut bob, &mut cat, draw_game).await;
    let cat_resigns = game(&mut eve, id, 1, ["bob", "cat"], 2).await;
    resign(&mut cat, cat_resigns).await;

    // Round 2 (4-3, 1-2) is paired; then the server is killed and started again.
    let before = view_when(&mut eve, id, |view| {
        view.rounds.len() == 2 && view.rounds[1].matches.iter().all(|m| m.games.len() == 1)
    })
    .await;
    let round_one: Vec<[u32; 2]> = before.rounds[0]
        .matches
        .iter()
        .map(|m| m.points_x2)
        .collect();
    assert_eq!(round_one, [[4, 0], [3, 1]]);
    let ann_game = games_of(&before, 2, ["ann", "bob"])[0].expect("a game");
    drop((ann, bob, cat, dan, eve));
    server.kill();
    let _server = ServerProcess::start(data.path(), port, &options);
    let mut ann = TestClient::connect(port, home.path()).await;
    assert_eq!(ann.login("ann", "ann secret").await, vec![ann_game]);
    let mut bob = TestClient::connect(port, home.path()).await;
    bob.login("bob", "bob secret").await;
    let mut cat = TestClient::connect(port, home.path()).await;
    cat.login("cat", "cat secret").await;
    let mut dan = TestClient::connect(port, home.path()).await;
    dan.login("dan", "dan secret").await;
    let mut eve = TestClient::connect(port, home.path()).await;
    let after = view_when(&mut eve, id, |_| true).await;
    assert_eq!(after, before);

    // Cat beats Dan 2-0; Ann and Bob win one each.
    let game_one = game(&mut eve, id, 2, ["dan", "cat"], 1).await;
    resign(&mut dan, game_one).await;
    let game_two = game(&mut eve, id, 2, ["dan", "cat"], 2).await;
    resign(&mut dan, game_two).await;
    resign(&mut bob, ann_game).await;
    let return_game = game(&mut eve, id, 2, ["ann", "bob"], 2).await;
    resign(&mut ann, return_game).await;

    // Round 3 (2-4, 3-1). Dan withdraws: his game under way is resigned and the other
    // forfeited, 2-0 to Bob.
    let bob_dan = game(&mut eve, id, 3, ["bob", "dan"], 1).await;
    dan.send(ClientMessage::WithdrawTournament { tournament: id })
        .await;
    next_view(&mut dan).await;
    // Ann beats Cat 1½-½: Cat resigns, then they draw.
    let cat_ann = game(&mut eve, id, 3, ["cat", "ann"], 1).await;
    resign(&mut cat, cat_ann).await;
    let ann_cat = game(&mut eve, id, 3, ["cat", "ann"], 2).await;
    draw(&mut ann, &mut cat, ann_cat).await;

    let done = finished(&mut eve, id).await;
    assert_eq!(games_of(&done, 3, ["bob", "dan"]), [Some(bob_dan), None]);
    // Worked by hand:
    //   ann-dan 2-0, bob-cat 1½-½, dan-cat 0-2, ann-bob 1-1, bob-dan 2-0, cat-ann ½-1½.
    // Match points: Ann 2+1+2 = 5, Bob 2+1+2 = 5, Cat 0+2+0 = 2, Dan 0.
    // Game points: Ann 2+1+1½ = 4½, Bob 1½+1+2 = 4½, Cat ½+2+½ = 3, Dan 0.
    // Sonneborn-Berger: Ann: Dan won 0, Bob drawn ½·5, Cat won 2 = 4½;
    //   Bob: Cat won 2, Ann drawn ½·5, Dan won 0 = 4½; Cat: Dan won 0 = 0; Dan 0.
    // Ann and Bob drew their match: equal head-to-head, so they share first place.
    assert_eq!(
        standings(&done),
        [
            (1, "ann", 5, 9, 9, false),
            (1, "bob", 5, 9, 9, false),
            (3, "cat", 2, 6, 0, false),
            (4, "dan", 0, 0, 0, true),
        ]
    );

    // The games played count for the ratings as any rated game does; the forfeited one
    // is no game. Ann played the last game, so once it is counted all of them are.
    let deadline = Instant::now() + PATIENCE;
    while rated_games(&mut eve, "ann").await < 6 {
        assert!(Instant::now() < deadline, "the rating period never came");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(rated_games(&mut eve, "ann").await, 6);
    assert_eq!(rated_games(&mut eve, "bob").await, 5);
    assert_eq!(rated_games(&mut eve, "cat").await, 6);
    assert_eq!(rated_games(&mut eve, "dan").await, 5);
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_event_starts_at_its_time_and_gives_the_odd_player_a_bye() {
    let (_data, home, server) = started(&[]);
    let port = server.port;
    let [mut ann, mut bob, mut cat] =
        TestClient::all_registered(port, home.path(), ["ann", "bob", "cat"]).await;
    let mut eve = TestClient::connect(port, home.path()).await;

    let mut timed = spec("Swiss", TournamentFormat::Swiss, Some(2));
    timed.starts_at_ms = Some(now_ms() - 1);
    ann.send(ClientMessage::CreateTournament {
        spec: timed.clone(),
    })
    .await;
    assert!(ann.error().await.contains("past"));
    // Time enough to enter, even on a loaded machine.
    timed.starts_at_ms = Some(now_ms() + 5000);
    ann.send(ClientMessage::CreateTournament {
        spec: timed.clone(),
    })
    .await;
    let id = next_view(&mut ann).await.summary.tournament;
    // Nobody but Ann enters this one: at its time it is cancelled.
    timed.starts_at_ms = Some(now_ms() + 1000);
    ann.send(ClientMessage::CreateTournament { spec: timed })
        .await;
    let lonely = next_view(&mut ann).await.summary.tournament;
    enter(&mut ann, lonely).await;
    for player in [&mut ann, &mut bob, &mut cat] {
        enter(player, id).await;
    }

    // Round 1 pairs down the seeds, and the last one rests.
    let first = game(&mut eve, id, 1, ["ann", "bob"], 1).await;
    let view = view_when(&mut eve, id, |_| true).await;
    assert_eq!(view.rounds[0].bye.as_deref(), Some("cat"));
    assert_eq!(view.rounds[0].matches.len(), 1);
    let cancelled = view_when(&mut eve, lonely, |view| {
        view.summary.status != TournamentStatus::Registration
    })
    .await;
    assert_eq!(cancelled.summary.status, TournamentStatus::Cancelled);

    // Ann beats Bob 2-0. Then Ann (2 match points, 2 game points, seed 1) and Cat (the
    // bye's 2 and 2, seed 3) lead; Bob, who has had no bye, rests; Ann meets Cat.
    resign(&mut bob, first).await;
    let second = game(&mut eve, id, 1, ["ann", "bob"], 2).await;
    resign(&mut bob, second).await;
    let round_two = game(&mut eve, id, 2, ["ann", "cat"], 1).await;
    let view = view_when(&mut eve, id, |_| true).await;
    assert_eq!(view.rounds[1].bye.as_deref(), Some("bob"));
    resign(&mut cat, round_two).await;
    let last = game(&mut eve, id, 2, ["ann", "cat"], 2).await;
    resign(&mut ann, last).await;
    let done = finished(&mut eve, id).await;
    // Worked by hand: match points Ann 2 + 1 = 3, Cat 2 (bye) + 1 = 3, Bob 0 + 2 (bye)
    // = 2; game points Ann 2 + 1 = 3, Cat 2 + 1 = 3, Bob 0 + 2 = 2. Sonneborn-Berger:
    // Ann: Bob won 2 + Cat drawn ½·3 = 3½; Cat: Ann drawn ½·3 = 1½ (the bye counts
    // nothing); Bob 0. Ann first, Cat second, Bob third.
    assert_eq!(
        standings(&done),
        [
            (1, "ann", 3, 6, 7, false),
            (2, "cat", 3, 6, 3, false),
            (3, "bob", 2, 4, 0, false)
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_comes_loses_on_time() {
    let (_data, home, server) = started(&[]);
    let port = server.port;
    let [mut ann, mut bob] = TestClient::all_registered(port, home.path(), ["ann", "bob"]).await;
    let mut eve = TestClient::connect(port, home.path()).await;
    let mut short = spec("Blitz", TournamentFormat::RoundRobin, None);
    short.clock = ClockSpec::fischer(1_500, 0);
    ann.send(ClientMessage::CreateTournament { spec: short })
        .await;
    let id = next_view(&mut ann).await.summary.tournament;
    for player in [&mut ann, &mut bob] {
        enter(player, id).await;
    }
    ann.send(ClientMessage::StartTournament { tournament: id })
        .await;
    // Neither ever moves: each loses on time the game in which they move first, and
    // the second game begins when the first is lost.
    let done = finished(&mut eve, id).await;
    let paired = &done.rounds[0].matches[0];
    assert_eq!(paired.points_x2, [2, 2]);
    for game in paired.games.iter().map(|game| game.expect("played")) {
        eve.send(ClientMessage::Watch { game }).await;
        let state = eve.game_state().await;
        let result = state.summary.result.expect("over");
        assert_eq!(result.reason, EndCause::Time, "game {game}");
        assert_eq!(state.moves.len(), 0);
    }
    let points: Vec<(u32, u32)> = done
        .standings
        .iter()
        .map(|row| (row.match_points, row.game_points_x2))
        .collect();
    assert_eq!(points, [(1, 2), (1, 2)]);
}

/// Runs the program with `script` on standard input, connected to the server on `port`
/// and logged in as `name`, and answers what it printed.
async fn client_says(home: &std::path::Path, port: u16, name: &str, script: &[&str]) -> String {
    let mut input = format!("c 127.0.0.1:{port}\nlogin {name}\n{name} secret\n");
    for line in script {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str("q\n");
    let home = home.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        assert_cmd::Command::new(client_binary())
            .env("HOME", &home)
            .env_remove("DISPLAY")
            .env("NO_COLOR", "1")
            .args(["-C", "-l", "eng"])
            .write_stdin(input)
            .timeout(PATIENCE)
            .output()
            .expect("runs")
    })
    .await
    .expect("the program ran");
    // Errors go to standard error; both are read as one.
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_makes_enters_starts_and_shows_a_tournament() {
    let (_data, home, server) = started(&[]);
    let port = server.port;
    drop(TestClient::registered(port, home.path(), "ann").await);
    let mut bob = TestClient::registered(port, home.path(), "bob").await;

    let said = client_says(
        home.path(),
        port,
        "ann",
        &[
            "tournament new knockout brandub 10 Cup",
            "tournament new swiss brandub 10 2 Club night",
            "tournament enter 1",
            "tournament",
        ],
    )
    .await;
    assert!(
        said.contains("`knockout` is no tournament format: say roundrobin | swiss."),
        "{said}"
    );
    let listed = "1: Club night, Swiss, brandub, 10+0, players: 1, open for entries \
                  (tournament enter 1); its creator starts it";
    assert!(said.contains(listed), "{said}");

    bob.send(ClientMessage::EnterTournament { tournament: 1 })
        .await;
    next_view(&mut bob).await;
    let said = client_says(
        home.path(),
        port,
        "ann",
        &["tournament start 1", "tournament 1"],
    )
    .await;
    // Two players fill one round of a Swiss event, whatever was asked.
    for line in [
        "1: Club night, Swiss, brandub, 10+0, players: 2, round 1 of 1",
        "Round 1:",
        "  ann – bob: 0–0 (games 1)",
        "Standings (match points, game points, Sonneborn-Berger):",
        "1. ann: 0, 0, 0",
        "1. bob: 0, 0, 0",
    ] {
        assert!(said.contains(line), "no {line:?} in:\n{said}");
    }

    // Ann resigns game 1, and the second game of the match begins.
    let mut ann = TestClient::connect(port, home.path()).await;
    ann.login("ann", "ann secret").await;
    resign(&mut ann, 1).await;
    let said = client_says(home.path(), port, "bob", &["tournament 1"]).await;
    assert!(said.contains("  ann – bob: 0–1 (games 1, 2)"), "{said}");
}
