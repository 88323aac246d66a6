use std::time::Duration;

use super::*;
use crate::journal::{self, Committed, Write};
use crate::storage::{SqliteStorage, Storage};

/// A state with brandub, its storage writer on `path`, and two connections, Ann (1) and
/// Bob (2), logged in; answers their queues.
fn state(path: &std::path::Path) -> (State, Committed, [mpsc::Receiver<Line>; 2]) {
    let storage = SqliteStorage::open(path).expect("open");
    let (journal, committed) = journal::start(Box::new(storage)).expect("the writer");
    let text = hnefatafl_data::rules("brandub").expect("brandub is shipped");
    let rules = Rules::parse(text.as_bytes()).expect("brandub reads");
    let hash = hash_text(text);
    let mut state = State {
        journal,
        next_game: 1,
        rules: BTreeMap::from([(
            hash.clone(),
            RuleSet::shipped(rules, text.to_owned(), "brandub".into(), hash.clone()),
        )]),
        games: BTreeMap::new(),
        connections: HashMap::new(),
        computers: HashMap::new(),
        throttle: accounts::Throttle::default(),
        followups: Vec::new(),
        quotas: Quotas::default(),
        uploads: Window::default(),
        registrations: Window::default(),
        seeks: Seeks::default(),
        chat_addresses: Buckets::default(),
        chat_games: Buckets::default(),
        tournaments: BTreeMap::new(),
        moderation: Moderation::default(),
        chat_log: ChatLog::default(),
        stopping: false,
    };
    state.journal.record(Write::AddRules {
        hash,
        text: text.to_owned(),
        uploader: None,
    });
    let queues = [(1, "ann"), (2, "bob")].map(|(id, name)| {
        let (queue, lines) = mpsc::channel(100);
        state.connections.insert(
            id,
            Connection {
                queue,
                account: Some(name.to_owned()),
                games: HashSet::new(),
                address: IpAddr::from([127, 0, 0, 1]),
                chat: Bucket::new(10, Instant::now()),
                kick: Arc::default(),
                positions: false,
            },
        );
        lines
    });
    (state, committed, queues)
}

/// Ann opens game 1 of brandub, unrated and without a clock, and Bob takes the other seat.
fn ann_and_bob_play(state: &mut State) {
    let new = ClientMessage::New {
        rules: "brandub".into(),
        clock: None,
        side: 0,
        opponent: None,
        rated: false,
    };
    state.handle(1, new, &LookedUp::default()).expect("a game");
    state
        .handle(2, ClientMessage::Join { game: 1 }, &LookedUp::default())
        .expect("a seat");
}

/// The lines queued so far, without waiting.
fn drain(lines: &mut mpsc::Receiver<Line>) -> Vec<Line> {
    std::iter::from_fn(|| lines.try_recv().ok()).collect()
}

#[tokio::test]
async fn the_moved_line_waits_for_the_move_and_the_move_is_then_stored() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    let (mut state, mut committed, [mut ann, mut bob]) = state(&path);
    ann_and_bob_play(&mut state);
    drain(&mut ann);
    drain(&mut bob);

    let mv = state.games[&1].game.legal_moves().next().expect("a move");
    state
        .handle(1, ClientMessage::Move { game: 1, mv }, &LookedUp::default())
        .expect("a legal move");
    // The move's write is the last recorded, and both players' `moved` wait for it.
    let recorded = state.journal.recorded();
    for lines in [&mut ann, &mut bob] {
        let lines = drain(lines);
        let moved = lines
            .iter()
            .find(|line| line.text.contains(r#""type":"moved""#))
            .expect("a moved line");
        assert_eq!(
            moved.after, recorded,
            "`moved` may go out before its move is stored: {lines:?}"
        );
    }
    tokio::time::timeout(Duration::from_secs(30), committed.reached(recorded))
        .await
        .expect("committed in time")
        .expect("no write failed");
    let games = SqliteStorage::open(&path)
        .expect("reopen")
        .games()
        .expect("games");
    assert_eq!(
        games[0].moves.len(),
        1,
        "the move is on disk once `moved` may go"
    );
}

#[tokio::test]
async fn once_stopping_no_move_is_played_and_no_clock_falls() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut state, _committed, [mut ann, mut bob]) = state(&dir.path().join("server.db"));
    ann_and_bob_play(&mut state);
    let turn = state.games[&1].turn;
    let mv = state.games[&1].game.legal_moves().next().expect("a move");
    let goodbye = ServerMessage::error("stopping");
    state.stop(&goodbye);
    drain(&mut ann);
    drain(&mut bob);

    // A search stopped by `stop` still answers a move; it is not played.
    state.computer_move(1, turn, mv);
    let problem = state
        .handle(1, ClientMessage::Move { game: 1, mv }, &LookedUp::default())
        .expect_err("no move once stopping");
    assert!(problem.contains("stopping"), "{problem}");
    state.flag(1, turn);
    assert!(state.computer_task(1, turn, 1).is_none());

    let live = &state.games[&1];
    assert_eq!(live.game.moves().count(), 0, "a move was played");
    assert!(live.result.is_none(), "the game ended: {:?}", live.result);
    assert_eq!(live.turn, turn);
    assert!(drain(&mut ann).is_empty() && drain(&mut bob).is_empty());
}
