//! The shard format's tests.
use super::*;
use crate::selfplay::{SelfPlay, play_game, write_game};
use hnefatafl_core::Rules;

fn rules(name: &str) -> Rules {
    let path = format!("{}/../data/rules/{name}", env!("CARGO_MANIFEST_DIR"));
    Rules::parse(&std::fs::read(path).expect("a shipped rule file")).expect("rules")
}

fn games(rules: &Rules, count: u32) -> Vec<GameRecord> {
    let settings = SelfPlay {
        nodes: 100,
        nodes_as: [None, None],
        depth: None,
        opening_plies: 4,
        openings: None,
        max_plies: 40,
        seed: 3,
        network: None,
    };
    (0..count).map(|n| play_game(rules, &settings, n)).collect()
}

/// Brandubh's layout and `count` of its self-play games.
fn brandubh_games(count: u32) -> (Layout, Vec<GameRecord>) {
    let brandubh = rules("brandubh");
    (Layout::of(&brandubh), games(&brandubh, count))
}

/// Writes games to a new shard at `path` with settings `settings`.
fn write(path: &Path, layout: Layout, settings: &str, games: &[GameRecord]) {
    let (mut writer, old) = Writer::open(path, layout, settings).expect("opens");
    assert!(old.is_empty());
    for game in games {
        writer.append(game).expect("appends");
    }
}

#[test]
fn games_read_back_as_written_in_fewer_bytes_than_before() {
    let (layout, played) = brandubh_games(3);
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("a.shard");
    write(&path, layout, "some settings", &played);
    let read = read(&path).expect("reads");
    assert_eq!(read.games, played);
    assert!(!read.stopped);
    let positions: usize = played.iter().map(|g| g.samples.len()).sum();
    assert!(positions > 30, "{positions}");
    assert_eq!(
        (read.header.games, read.header.positions),
        (3, positions as u64)
    );
    assert_eq!(read.header.settings, "some settings");
    assert_eq!(read.header.layout, layout);
    // Each game 21 bytes about its positions, each position 3, 7 of squares (49 bits)
    // and a nibble a piece, after a header of 42, the settings and 8: fewer bytes than
    // the earlier form's 5 and 2 a piece.
    let mut expected = 42 + "some settings".len() + 8;
    for game in &played {
        expected += 21;
        for sample in &game.samples {
            expected += 3 + 7 + sample.inputs.len().div_ceil(2);
        }
    }
    let size = std::fs::metadata(&path).expect("a file").len() as usize;
    assert_eq!(size, expected);
    let mut old = Vec::new();
    played.iter().for_each(|game| write_game(game, &mut old));
    assert!(size < old.len(), "{size} against {}", old.len());
}

#[test]
fn a_shard_cut_short_keeps_its_whole_games_and_is_continued() {
    let (layout, played) = brandubh_games(3);
    let folder = tempfile::tempdir().expect("a folder");
    let whole_path = folder.path().join("whole.shard");
    write(&whole_path, layout, "s", &played);
    let whole = std::fs::read(&whole_path).expect("reads");
    let mut two = Vec::new();
    for game in &played[..2] {
        write_block(&layout, game, &mut two).expect("a block");
    }
    let third = Header::read(&whole).expect("a header").1 + two.len();
    let path = folder.path().join("cut.shard");
    // Cut inside the third game's block (its length, its middle, its checksum), and
    // with the header's counts still at two games (stopped before it was rewritten).
    let mut stale = whole.clone();
    let header = Header {
        layout,
        games: 2,
        positions: played[..2].iter().map(|g| g.samples.len() as u64).sum(),
        settings: "s".to_string(),
    };
    stale[..header.to_bytes().len()].copy_from_slice(&header.to_bytes());
    for cut in [
        whole[..third + 2].to_vec(),
        whole[..third + 20].to_vec(),
        whole[..whole.len() - 1].to_vec(),
        stale[..third + 20].to_vec(),
    ] {
        std::fs::write(&path, &cut).expect("writes");
        let read = parse("cut.shard", &cut).expect("a stopped run's shard reads");
        assert!(read.stopped);
        assert_eq!(read.games, played[..2]);
        let (mut writer, kept) = Writer::open(&path, layout, "s").expect("continues");
        assert_eq!(kept, [played[0].number, played[1].number]);
        writer.append(&played[2]).expect("appends");
        assert!(std::fs::read(&path).expect("reads") == whole);
    }
    // Counts that were not rewritten after a whole block are mended too.
    std::fs::write(&path, &stale).expect("writes");
    assert!(parse("stale", &stale).expect("reads").stopped);
    drop(Writer::open(&path, layout, "s").expect("continues"));
    assert!(std::fs::read(&path).expect("reads") == whole);
    // Another layout or other settings are refused, and the file is left alone.
    let tablut = Layout::of(&rules("tablut"));
    let error = Writer::open(&path, tablut, "s")
        .map(|_| ())
        .expect_err("refused");
    assert!(
        error.contains("cut.shard") && error.contains("7x7"),
        "{error}"
    );
    let error = Writer::open(&path, layout, "t")
        .map(|_| ())
        .expect_err("refused");
    assert!(error.contains("other settings (s)"), "{error}");
    assert!(std::fs::read(&path).expect("reads") == whole);
}

#[test]
fn damage_is_an_error_naming_the_file() {
    let (layout, played) = brandubh_games(2);
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("a.shard");
    write(&path, layout, "s", &played);
    let bytes = std::fs::read(&path).expect("reads");
    let header = Header::read(&bytes).expect("a header").1;
    for (at, says) in [
        (3, "not a shard"),
        (9, "format version"),
        (header - 3, "header's checksum"),
        (header + 30, "game's checksum"),
        (bytes.len() - 3, "game's checksum"),
    ] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        let error = parse("x.shard", &damaged).expect_err("refused");
        assert!(
            error.starts_with("x.shard: ") && error.contains(says),
            "{at}: {error}"
        );
    }
    assert!(Writer::open(&folder.path().join("b.shard"), layout, "s").is_ok());
}

#[test]
fn shards_merge_numbered_again_and_another_layout_is_refused() {
    let (layout, played) = brandubh_games(3);
    let folder = tempfile::tempdir().expect("a folder");
    let (a, b, out) = (
        folder.path().join("a.shard"),
        folder.path().join("b.shard"),
        folder.path().join("all.shard"),
    );
    // The second run's games were written out of order.
    write(&a, layout, "run a", &played[..1]);
    write(&b, layout, "run b", &[played[2].clone(), played[1].clone()]);
    let merged = merge(&[a.clone(), b.clone()], &out).expect("merges");
    assert_eq!((merged.games, merged.stopped.len()), (3, 0));
    let read = read(&out).expect("reads");
    assert_eq!(read.header.settings, "run a\nrun b");
    assert_eq!(read.games, played, "numbered 0, 1, 2 in order");
    let tablut = rules("tablut");
    let other = folder.path().join("tablut.shard");
    write(&other, Layout::of(&tablut), "run t", &games(&tablut, 1));
    let error = merge(&[a, other.clone()], &folder.path().join("no.shard")).expect_err("refused");
    assert!(
        error.starts_with(&other.display().to_string()) && error.contains("9x9"),
        "{error}"
    );
    assert!(!folder.path().join("no.shard").exists());
    assert!(merge(&[], &out).is_err());
    let copenhagen = describe_layout(&Layout::of(&rules("copenhagen")));
    assert!(copenhagen.starts_with("an 11x11 board with 3 piece types"));
}

/// What [`read_each`] gives for a file: its games, counts and stopped flag, or its error.
fn streamed(path: &Path) -> Result<(Vec<GameRecord>, Streamed), String> {
    let mut games = Vec::new();
    let read = read_each(
        path,
        |_| Ok(()),
        |game| {
            games.push(game);
            Ok(())
        },
    )?;
    Ok((games, read))
}

#[test]
fn read_game_by_game_a_shard_gives_what_reading_it_whole_does() {
    let (layout, played) = brandubh_games(3);
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("a.shard");
    write(&path, layout, "s", &played);
    let whole = std::fs::read(&path).expect("reads");
    let mut damaged = whole.clone();
    let header = Header::read(&whole).expect("a header").1;
    damaged[header + 30] ^= 0x10;
    // Every cut of the file (a run stopped at any byte), the whole, and a damaged block.
    let mut files: Vec<Vec<u8>> = (0..whole.len()).map(|cut| whole[..cut].to_vec()).collect();
    files.push(whole.clone());
    files.push(damaged);
    let cut = folder.path().join("cut.shard");
    for bytes in files {
        std::fs::write(&cut, &bytes).expect("writes");
        let name = cut.display().to_string();
        let expected = parse(&name, &bytes);
        match (streamed(&cut), expected) {
            (Ok((games, read)), Ok(shard)) => {
                assert_eq!(games, shard.games, "{} bytes", bytes.len());
                assert_eq!(read.header, shard.header);
                assert_eq!(read.stopped, shard.stopped, "{} bytes", bytes.len());
                assert_eq!(read.games, shard.games.len());
            }
            (Err(streamed), Err(whole)) => assert_eq!(streamed, whole),
            (streamed, whole) => panic!(
                "{} bytes: streamed {:?}, whole {:?}",
                bytes.len(),
                streamed.map(|(games, _)| games.len()),
                whole.map(|shard| shard.games.len())
            ),
        }
    }
    assert_eq!(streamed(&path).expect("reads").0, played);
    // The check and each game's handler stop the reading with their errors.
    let refused = read_each(&path, |_| Err("no".to_string()), |_| Ok(()));
    assert_eq!(refused, Err("no".to_string()));
    let mut seen = 0;
    let stopped = read_each(
        &path,
        |_| Ok(()),
        |_| {
            seen += 1;
            Err("enough".to_string())
        },
    );
    assert_eq!((stopped, seen), (Err("enough".to_string()), 1));
}

#[test]
fn games_read_by_number_come_in_their_numbers_order_and_damage_is_an_error() {
    let (layout, played) = brandubh_games(4);
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("a.shard");
    // Written in the order threads might end them: 2, 0, 3, 1.
    let order = [2, 0, 3, 1];
    let written: Vec<GameRecord> = order.iter().map(|&n| played[n].clone()).collect();
    write(&path, layout, "s", &written);
    let by_number = |path: &Path, below: u32| {
        let mut games = Vec::new();
        read_by_number(
            path,
            |_| Ok(()),
            |number| number < below,
            |game| {
                games.push(game);
                Ok(())
            },
        )
        .map(|_| games)
    };
    assert_eq!(by_number(&path, 10).expect("reads"), played);
    assert_eq!(by_number(&path, 3).expect("reads"), played[..3]);
    assert!(by_number(&path, 0).expect("reads").is_empty());
    // The writer gives the numbers as the file has them.
    let (_, numbers) = Writer::open(&path, layout, "s").expect("continues");
    assert_eq!(numbers, [2, 0, 3, 1]);
    // A run stopped inside its last block (game 1): the complete games.
    let whole = std::fs::read(&path).expect("reads");
    let cut = folder.path().join("cut.shard");
    std::fs::write(&cut, &whole[..whole.len() - 5]).expect("writes");
    assert_eq!(
        by_number(&cut, 10).expect("reads"),
        [&played[0], &played[2], &played[3]].map(Clone::clone)
    );
    // A damaged game kept is an error naming the file and its byte; one left out is not read.
    let header = Header::read(&whole).expect("a header").1;
    let mut damaged = whole.clone();
    damaged[header + 30] ^= 0x10;
    let bad = folder.path().join("bad.shard");
    std::fs::write(&bad, &damaged).expect("writes");
    let error = by_number(&bad, 10).expect_err("refused");
    assert!(
        error.starts_with(&bad.display().to_string())
            && error.contains(&format!("at byte {header}: ")),
        "{error}"
    );
    assert!(error.contains("game's checksum"), "{error}");
    assert_eq!(by_number(&bad, 2).expect("reads"), played[..2]);
    std::fs::write(&bad, b"HNEF").expect("writes");
    assert!(
        by_number(&bad, 10)
            .expect_err("refused")
            .contains("not a shard")
    );
}
