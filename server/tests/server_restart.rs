//! SIGKILL the server mid-game and start it again: every move is there, the clocks were
//! paused while it was down, and both players resume.

mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::protocol::{ClientMessage, ClockSpec};
use server_support::{
    Random, ServerProcess, TestClient, apply, make_and_join, open_game, replay, send_random_move,
    started,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_game() {
    let (data, home, mut server) = started(&[]);
    let port = server.port;

    let mut ann = TestClient::connect(port, home.path()).await;
    ann.register("ann", "password a").await;
    let mut bob = TestClient::connect(port, home.path()).await;
    bob.register("bob", "password b").await;
    let clock = ClockSpec::fischer(600_000, 2000);
    let new = open_game("tablut", Some(clock), false);
    let [state, _] = make_and_join(&mut ann, &mut bob, new).await;
    let id = state.summary.game;

    let mut local = replay(&state);
    let mut random = Random(42);
    let mut last_clocks = None;
    for number in 1..=6 {
        let sent = send_random_move([&mut ann, &mut bob], id, &local, &mut random).await;
        let (mv, clocks) = ann.moved(id, number).await;
        bob.moved(id, number).await;
        assert_eq!(mv, sent);
        last_clocks = clocks;
        apply(&mut local, sent);
    }
    let last_clocks = last_clocks.expect("a timed game reports clocks");

    // Killed at once after the acknowledgement: the move is on disk already.
    server.kill();
    // Down for a while, longer than the clock may slip.
    std::thread::sleep(Duration::from_millis(1500));
    let restarted = Instant::now();
    let _server = ServerProcess::start(data.path(), port, &[]);

    let mut ann = TestClient::connect(port, home.path()).await;
    assert_eq!(ann.login("ann", "password a").await, vec![id]);
    ann.send(ClientMessage::Join { game: id }).await;
    let resumed = ann.game_state().await;
    let since_restart = millis(restarted.elapsed());
    assert_eq!(resumed.moves.len(), 6);
    assert_eq!(
        replay(&resumed).moves().collect::<Vec<_>>(),
        local.moves().collect::<Vec<_>>()
    );
    assert_eq!(resumed.your_side, Some(0));
    let clocks = resumed.clocks.expect("clocks");
    let side = usize::from(resumed.to_move);
    // The side to move has lost at most the time since the restart, not the time down.
    assert!(
        clocks[side] + since_restart >= last_clocks[side],
        "{clocks:?} {last_clocks:?}"
    );
    assert_eq!(clocks[1 - side], last_clocks[1 - side]);

    let mut bob = TestClient::connect(port, home.path()).await;
    assert_eq!(bob.login("bob", "password b").await, vec![id]);
    bob.send(ClientMessage::Join { game: id }).await;
    assert_eq!(bob.game_state().await.your_side, Some(1));

    // The game goes on.
    let sent = send_random_move([&mut ann, &mut bob], id, &local, &mut random).await;
    assert_eq!(ann.moved(id, 7).await.0, sent);
    assert_eq!(bob.moved(id, 7).await.0, sent);
}

fn millis(duration: Duration) -> u64 {
    duration.as_millis() as u64
}
