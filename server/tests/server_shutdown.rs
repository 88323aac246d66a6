//! The server asked to stop (SIGTERM): it tells its clients, writes what it was told,
//! closes their connections and ends; started again, every game goes on.

mod server_support;

use std::process::Command;

use hnefatafl_net::protocol::ClientMessage;
use server_support::{Duel, PATIENCE, ServerProcess, TestClient, computer_game, started};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_tells_the_clients_keeps_the_games_and_ends() {
    let (data, home, mut server) = started(&["--computer", "6"]);
    let mut duel = Duel::start(server.port, home.path(), "brandub", ["ann", "bob"], 5).await;
    duel.play().await;
    duel.play().await;
    // A computer thinking on a game of its own does not hold the end up.
    let mut cid = TestClient::registered(server.port, home.path(), "cid").await;
    cid.send(computer_game("brandubh", "computer6", 1, false))
        .await;
    cid.game_state().await;

    let killed = Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    for player in duel.players.iter_mut().chain([&mut cid]) {
        let said = player.error().await;
        assert!(said.contains("the server is stopping"), "{said}");
        player.closed().await;
    }
    let status = server.ended_within(PATIENCE).expect("ended in time");
    assert!(status.success(), "{status}");

    // Started again on its data, the game goes on where it was.
    let server = ServerProcess::start(data.path(), 0, &[]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    assert_eq!(ann.login("ann", "password 0").await, vec![duel.id]);
    ann.send(ClientMessage::Join { game: duel.id }).await;
    let state = ann.game_state().await;
    let played: Vec<_> = duel.game.moves().collect();
    assert_eq!(state.moves, played);
}
