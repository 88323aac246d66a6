//! Bad input never ends the server: malformed and unknown messages, illegal and
//! out-of-turn moves, an oversize line, a client that sends one byte a second, and 1,000
//! connections opened and dropped, while a game goes on.

mod server_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hnefatafl_core::{Move, Square};
use hnefatafl_net::client::pins_file;
use hnefatafl_net::protocol::ClientMessage;
use hnefatafl_net::tls;
use server_support::{Duel, TestClient, random_move, started};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_leaves_the_other_games_alone() {
    let (_data, home, server) = started(&[]);
    let port = server.port;

    let mut duel = Duel::start(port, home.path(), "hnefatafl", ["ann", "bob"], 7).await;
    let id = duel.id;

    // Malformed JSON and unknown messages: an error naming the problem, nothing more.
    let ann = &mut duel.players[0];
    ann.client
        .send_line("{\"type\": \"games\"\n")
        .await
        .expect("send");
    assert!(ann.error().await.starts_with("malformed JSON"));
    ann.client
        .send_line("{\"type\":\"dance\",\"steps\":3}\n")
        .await
        .expect("send");
    let unknown = ann.error().await;
    assert!(unknown.contains("dance"), "{unknown}");
    ann.client
        .send_line("{\"type\":\"move\",\"game\":\"one\"}\n")
        .await
        .expect("send");
    assert!(ann.error().await.starts_with("bad message"));
    ann.send(ClientMessage::Join { game: 999 }).await;
    assert_eq!(ann.error().await, "there is no game 999");
    duel.play().await;

    // Moves out of turn and illegal moves.
    let mv = random_move(&duel.game, &mut duel.random);
    let [ann, bob] = &mut duel.players;
    // After one move, player 1 (bob) is to move.
    ann.send(ClientMessage::Move { game: id, mv }).await;
    assert_eq!(ann.error().await, "it is not your turn");
    let square = |x, y| Square::new(x, y).expect("a square");
    bob.send(ClientMessage::Move {
        game: id,
        mv: Move::new(square(0, 0), square(0, 5)),
    })
    .await;
    let illegal = bob.error().await;
    assert!(illegal.starts_with("illegal move `0 0 0 5`"), "{illegal}");
    bob.send(ClientMessage::Move {
        game: id,
        mv: Move::new(square(20, 3), square(20, 0)),
    })
    .await;
    let off = bob.error().await;
    assert!(off.contains("not on the board"), "{off}");
    // A move as text, and a jump that does not end where it says, are not moves.
    for bad in [
        r#""up the board""#,
        r#"{"from":[3,0],"to":[1,0],"jumps":["North"]}"#,
    ] {
        let line = format!("{{\"type\":\"move\",\"game\":{id},\"move\":{bad}}}\n");
        bob.client.send_line(&line).await.expect("send");
        let refused = bob.error().await;
        assert!(refused.starts_with("bad message"), "{bad}: {refused}");
    }
    let mut guest = TestClient::connect(port, home.path()).await;
    guest
        .send(ClientMessage::Move {
            game: id,
            mv: Move::new(square(0, 0), square(0, 1)),
        })
        .await;
    assert!(guest.error().await.starts_with("log in first"));
    duel.play().await;

    // A client that sends one byte a second holds up nobody.
    let line = format!(
        "{{\"type\":\"hello\",\"version\":{},\"client\":\"slow\"}}\n",
        hnefatafl_net::protocol::PROTOCOL_VERSION
    )
    .into_bytes();
    let head = line[..10].to_vec();
    let sent = Arc::new(AtomicUsize::new(0));
    let slow_sent = sent.clone();
    let setup =
        tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home.path())).expect("tls");
    let slow = tokio::spawn(async move {
        let tcp = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
        let mut stream = tokio_rustls::TlsConnector::from(setup.config)
            .connect(name, tcp)
            .await
            .expect("handshake");
        for &byte in &head {
            stream.write_all(&[byte]).await.expect("a byte");
            stream.flush().await.expect("flush");
            slow_sent.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        stream
    });
    while sent.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for _ in 0..4 {
        duel.play().await;
    }
    assert!(
        sent.load(Ordering::SeqCst) < 10,
        "the moves waited for the slow client"
    );

    // 1,000 connections opened and dropped, some in the middle of the handshake.
    for batch in 0..10 {
        let mut opened = Vec::new();
        for index in 0..100 {
            let mut stream = TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connect");
            if index % 10 == 0 {
                // The start of a TLS ClientHello, then nothing.
                let _ = stream.write_all(&[0x16, 0x03, 0x01, 0x00]).await;
            }
            opened.push(stream);
        }
        drop(opened);
        if batch % 3 == 0 {
            duel.play().await;
        }
    }
    duel.play().await;

    // The slow client finishes its line, and is served.
    let mut stream = slow.await.expect("the slow client");
    stream.write_all(&line[10..]).await.expect("the rest");
    stream.flush().await.expect("flush");
    let mut reply = Vec::new();
    let mut byte = [0u8; 1];
    while !reply.ends_with(b"\n") {
        tokio::io::AsyncReadExt::read_exact(&mut stream, &mut byte)
            .await
            .expect("a reply");
        reply.push(byte[0]);
    }
    assert!(String::from_utf8_lossy(&reply).contains("\"type\":\"welcome\""));

    // A line over 64 KiB closes that connection only.
    let mut big = TestClient::connect(port, home.path()).await;
    let long = format!(
        "{{\"type\":\"say\",\"game\":{id},\"text\":\"{}\"}}\n",
        "x".repeat(70_000)
    );
    big.client.send_line(&long).await.expect("send");
    assert!(big.error().await.contains("64 KiB"));
    let closed = tokio::time::timeout(Duration::from_secs(30), big.client.recv())
        .await
        .expect("closed in time");
    assert!(matches!(closed, Ok(None) | Err(_)), "{closed:?}");

    // The game and the server go on.
    duel.play().await;
    let mut late = TestClient::connect(port, home.path()).await;
    let games = late.games_listed(ClientMessage::Games).await;
    assert_eq!(
        games.iter().find(|g| g.game == id).map(|g| g.moves),
        Some(duel.number)
    );
}
