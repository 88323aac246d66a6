//! The clocks of network games against the real server over loopback TLS: byo-yomi
//! periods, correspondence time that survives a restart, and an undo that gives no time
//! back. The clocks are short (a few seconds) so that a test waits little; where a test
//! must let time pass, it waits for the turn to be older than a period, measured from the
//! moment it heard the turn begin (the server's turn began earlier still).

mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, EndCause, GameResult, OfferKind, ServerMessage,
};
use server_support::{
    Random, ServerProcess, TestClient, apply, replay, seated, send_random_move, started,
};

/// Waits until `since` is more than `wait` ago.
async fn let_pass(since: Instant, wait: Duration) {
    while since.elapsed() <= wait {
        tokio::time::sleep(wait.saturating_sub(since.elapsed()) + Duration::from_millis(1)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_move_spends_a_byo_yomi_period_and_a_slower_one_loses() {
    let (_data, home, server) = started(&[]);
    let period = Duration::from_millis(2000);
    // No main time: two periods of two seconds from the first move on.
    let clock = ClockSpec::parse("0+2x2").expect("a byo-yomi clock");
    assert_eq!((clock.periods, clock.period_ms), (2, 2000));
    let ([mut ann, mut bob], _) = seated(server.port, home.path(), clock).await;
    let id = 1;
    let mut game = replay(&{
        ann.send(ClientMessage::Join { game: id }).await;
        ann.game_state().await
    });
    let mut random = Random(7);

    // Quick moves use up no period.
    for number in 1..=2 {
        let mv = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
        apply(&mut game, mv);
        let (_, _, periods) = ann.moved_in_full(id, number).await;
        assert_eq!(periods, Some([2, 2]), "move {number}");
        bob.moved(id, number).await;
    }

    // Ann takes longer than a period: one is gone, one left.
    let turn = Instant::now();
    let_pass(turn, period + Duration::from_millis(300)).await;
    let mv = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
    apply(&mut game, mv);
    let (_, clocks, periods) = ann.moved_in_full(id, 3).await;
    assert_eq!(periods, Some([1, 2]));
    assert_eq!(clocks.map(|c| c[0]), Some(0), "her main time is out");
    let mv = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
    apply(&mut game, mv);
    bob.moved(id, 4).await;
    let (_, _, periods) = ann.moved_in_full(id, 4).await;
    assert_eq!(periods, Some([1, 2]));

    // Now she overruns her last period: she loses on time, and her move is refused.
    let turn = Instant::now();
    let_pass(turn, period + Duration::from_millis(300)).await;
    let late = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
    let result = bob.ended(id).await;
    assert_eq!(
        result,
        GameResult {
            winner: Some(1),
            reason: EndCause::Time
        }
    );
    let _ = late;
    let refusal = ann.error().await;
    assert!(refusal.contains("over"), "{refusal}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_keeps_its_deadline_across_a_restart() {
    let (data, home, mut server) = started(&[]);
    let port = server.port;
    // A correspondence clock of 0.0001 days: 8.64 s for each move.
    let clock = ClockSpec::parse("0.0001d").expect("a correspondence clock");
    let per_move = clock.move_ms;
    assert_eq!(per_move, 8640);
    let ([mut ann, mut bob], _) = seated(port, home.path(), clock).await;
    let id = 1;
    ann.send(ClientMessage::Join { game: id }).await;
    let mut game = replay(&ann.game_state().await);
    let mut random = Random(3);
    let mv = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
    apply(&mut game, mv);
    // Bob's turn begins before he hears of Ann's move.
    let (_, clocks) = bob.moved(id, 1).await;
    let heard = Instant::now();
    assert_eq!(clocks, Some([per_move, per_move]));

    // Both log off, the server is killed and stays down a while.
    drop(ann);
    drop(bob);
    server.kill();
    let down = Duration::from_millis(2000);
    let_pass(heard, down).await;
    let _server = ServerProcess::start(data.path(), port, &[]);

    let mut bob = TestClient::connect(port, home.path()).await;
    assert_eq!(bob.login("bob", "password b").await, vec![id]);
    bob.send(ClientMessage::Join { game: id }).await;
    let state = bob.game_state().await;
    assert_eq!(state.moves.len(), 1);
    let left = state.clocks.expect("clocks")[1];
    // The time down counted: the deadline did not move.
    assert!(
        left + 2000 <= per_move,
        "{left} ms left of {per_move} after {} ms",
        heard.elapsed().as_millis()
    );
    // Nobody moves: Bob loses on time when his move's time is out, not later.
    let result = bob.ended(id).await;
    let waited = heard.elapsed();
    assert_eq!(
        result,
        GameResult {
            winner: Some(0),
            reason: EndCause::Time
        }
    );
    assert!(
        waited < Duration::from_millis(per_move) + down,
        "the flag fell {waited:?} after the turn began"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_undo_gives_no_time_back() {
    let (_data, home, server) = started(&[]);
    let main = 60_000;
    let clock = ClockSpec::fischer(main, 0);
    let ([mut ann, mut bob], _) = seated(server.port, home.path(), clock).await;
    let id = 1;
    ann.send(ClientMessage::Join { game: id }).await;
    let mut game = replay(&ann.game_state().await);
    let mut random = Random(11);

    // Ann thinks for at least 600 ms before her move.
    let think = Duration::from_millis(600);
    let_pass(Instant::now(), think).await;
    let mv = send_random_move([&mut ann, &mut bob], id, &game, &mut random).await;
    apply(&mut game, mv);
    let (_, clocks) = ann.moved(id, 1).await;
    let spent = main - clocks.expect("clocks")[0];
    assert!(spent >= 600, "{spent} ms spent");

    // She takes it back, with Bob's consent: her time stays spent.
    ann.agreed_with(&mut bob, id, OfferKind::Undo).await;
    let (moves, clocks) = ann
        .expect(|m| match m {
            ServerMessage::Undone { moves, clocks, .. } => Some((*moves, *clocks)),
            _ => None,
        })
        .await;
    assert_eq!(moves, 0);
    let clocks = clocks.expect("clocks");
    assert!(
        clocks[0] <= main - spent,
        "the undo gave time back: {clocks:?}, {spent} ms had been spent"
    );
    // And the game as a newcomer sees it says the same.
    ann.send(ClientMessage::Join { game: id }).await;
    let state = ann.game_state().await;
    assert!(state.clocks.expect("clocks")[0] <= main - spent);
}
