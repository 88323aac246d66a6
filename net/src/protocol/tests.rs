use super::*;

#[test]
fn messages_read_back() {
    let message = ClientMessage::New {
        rules: "brandub".into(),
        clock: ClockSpec::parse("5+3"),
        side: 1,
        opponent: None,
        rated: true,
    };
    let line = to_line(&message);
    assert!(line.ends_with('\n'));
    assert!(line.contains(r#""type":"new""#));
    assert_eq!(parse_client(line.trim_end()), Ok(message));
}

#[test]
fn bad_lines_are_named() {
    assert!(
        parse_client("{")
            .expect_err("refused")
            .starts_with("malformed JSON")
    );
    let unknown = parse_client(r#"{"type":"dance"}"#).expect_err("refused");
    assert!(unknown.starts_with("bad message") && unknown.contains("dance"));
    let missing = parse_client(r#"{"type":"join"}"#).expect_err("refused");
    assert!(missing.contains("game"), "{missing}");
}

#[test]
fn unknown_fields_are_refused_and_named() {
    for (line, field) in [
        (r#"{"type":"games","page":2}"#, "page"),
        (r#"{"type":"archive","from":1}"#, "from"),
        (r#"{"type":"rules","all":true}"#, "all"),
        (r#"{"type":"join","game":1,"seat":0}"#, "seat"),
        (
            r#"{"type":"new","rules":"brandub","clock":{"main_ms":1,"increment_ms":0,"byo":1}}"#,
            "byo",
        ),
    ] {
        let problem = parse_client(line).expect_err(line);
        assert!(
            problem.starts_with("bad message: unknown field") && problem.contains(field),
            "{line}: {problem}"
        );
    }
    assert_eq!(
        parse_client(r#"{"type":"games"}"#),
        Ok(ClientMessage::Games)
    );
}

#[test]
fn passwords_are_masked() {
    let line = r#"{"type":"login","name":"ann","password":"secret"}"#;
    let shown = masked(line);
    assert!(
        !shown.contains("secret") && shown.contains("ann"),
        "{shown}"
    );
    assert!(!masked("{\"password\":\"secret").contains("secret"));
}

/// The largest rating answers the server may send fit in a line: full pages of the
/// longest names, ids and hashes, and the widest numbers.
#[test]
fn the_largest_rating_answers_fit_in_a_line() {
    let name = "n".repeat(32);
    let id = "i".repeat(64);
    let hash = "h".repeat(64);
    let entries = (0..RATINGS_PAGE)
        .map(|_| LeaderboardEntry {
            rank: u32::MAX,
            name: name.clone(),
            rating: i32::MIN,
            deviation: u32::MAX,
            games: u32::MAX,
        })
        .collect();
    let board = ServerMessage::Leaderboard {
        rules_id: id.clone(),
        page: u32::MAX,
        entries,
    };
    assert!(to_line(&board).len() < MAX_LINE);
    let ratings = (0..RATINGS_PAGE)
        .map(|_| RulesRating {
            rules_id: id.clone(),
            rules_hash: hash.clone(),
            rating: i32::MIN,
            deviation: u32::MAX,
            games: u32::MAX,
        })
        .collect();
    let history = (0..RATINGS_PAGE)
        .map(|_| RatingHistory {
            rules_hash: hash.clone(),
            period_end_ms: i64::MIN,
            rating: i32::MIN,
            deviation: u32::MAX,
            games: u32::MAX,
        })
        .collect();
    let account = ServerMessage::AccountRatings {
        account: name,
        ratings,
        history,
    };
    let line = to_line(&account);
    assert!(line.len() < MAX_LINE, "{} bytes", line.len());
    assert_eq!(parse_server(line.trim_end()), Ok(account));
}

#[test]
fn rating_requests_read_back_with_the_page_optional() {
    assert_eq!(
        parse_client(r#"{"type":"ratings","rules":"brandub"}"#),
        Ok(ClientMessage::Ratings {
            rules: "brandub".into(),
            page: 0
        })
    );
    assert_eq!(
        parse_client(r#"{"type":"rating","account":"ann"}"#),
        Ok(ClientMessage::Rating {
            account: "ann".into()
        })
    );
    assert!(
        parse_client(r#"{"type":"new","rules":"brandub"}"#)
            .is_ok_and(|m| matches!(m, ClientMessage::New { rated: false, .. }))
    );
}

/// Why a game ended travels as a typed value, and its words (kept by the server's
/// database) read back.
#[test]
fn end_causes_are_typed_on_the_wire_and_read_back_from_their_words() {
    let king = hnefatafl_core::PieceType::from_bit(1).expect("a piece type");
    for (cause, wire, words) in [
        (EndCause::Resigned, r#""resigned""#, "resigned"),
        (EndCause::Time, r#""time""#, "time"),
        (EndCause::DrawAgreed, r#""draw_agreed""#, "draw agreed"),
        (
            EndCause::Rules(EndReason::Escape(king)),
            r#"{"rules":{"Escape":1}}"#,
            "escape of piece 1",
        ),
        (
            EndCause::Rules(EndReason::NoMoves),
            r#"{"rules":"NoMoves"}"#,
            "no moves",
        ),
    ] {
        assert_eq!(serde_json::to_string(&cause).ok().as_deref(), Some(wire));
        assert_eq!(serde_json::from_str::<EndCause>(wire).ok(), Some(cause));
        assert_eq!(cause.to_string(), words);
        assert_eq!(words.parse::<EndCause>(), Ok(cause));
    }
    assert!("gave up".parse::<EndCause>().is_err());
    let ended = r#"{"type":"ended","game":1,"result":{"winner":0,"reason":"resigned"}}"#;
    assert!(parse_server(ended).is_ok());
    let english = r#"{"type":"ended","game":1,"result":{"winner":0,"reason":"draw agreed"}}"#;
    assert!(parse_server(english).is_err(), "words are not a cause");
}

/// A seek's terms may be left out, each of them too; an unknown one is refused.
#[test]
fn seeks_read_with_their_terms_optional() {
    assert_eq!(
        parse_client(r#"{"type":"seek","rules":"brandub"}"#),
        Ok(ClientMessage::Seek {
            rules: "brandub".into(),
            clock: None,
            side: None,
            rated: false,
            terms: SeekTerms::default(),
        })
    );
    let challenge = parse_client(r#"{"type":"seek","rules":"brandub","terms":{"to":"bob"}}"#);
    assert!(
        challenge.is_ok_and(|m| matches!(m, ClientMessage::Seek { terms, .. }
            if terms.to.as_deref() == Some("bob") && terms.min_rating.is_none()))
    );
    let odd = parse_client(r#"{"type":"seek","rules":"brandub","terms":{"elo":1}}"#);
    assert!(odd.is_err_and(|e| e.contains("elo")));
}

#[test]
fn clock_words() {
    assert_eq!(
        ClockSpec::parse("5+3"),
        Some(ClockSpec::fischer(300_000, 3000))
    );
    assert_eq!(ClockSpec::parse("0.5").map(|c| c.main_ms), Some(30_000));
    let byo_yomi = ClockSpec {
        main_ms: 600_000,
        periods: 3,
        period_ms: 30_000,
        ..ClockSpec::default()
    };
    assert_eq!(ClockSpec::parse("10+3x30"), Some(byo_yomi));
    assert_eq!(byo_yomi.kind(), ClockKind::ByoYomi);
    assert_eq!(ClockSpec::parse("0+2x0.5").map(|c| c.period_ms), Some(500));
    let correspondence = ClockSpec::parse("3d").expect("three days a move");
    assert_eq!(correspondence.move_ms, 3 * 24 * 3600 * 1000);
    assert_eq!(correspondence.kind(), ClockKind::Correspondence);
    for good in ["5+3", "10+3x30", "3d", "0.5d"] {
        let clock = ClockSpec::parse(good).expect(good);
        assert_eq!(ClockSpec::parse(&clock.to_string()), Some(clock), "{good}");
    }
    for bad in [
        "", "x", "0", "-1+2", "5+", "inf", "0+0x30", "0+3x0", "1+3x", "1+x30", "0d", "d", "-2d",
        "1+2.5x30", "nand", "3dd",
    ] {
        assert_eq!(ClockSpec::parse(bad), None, "{bad}");
    }
}

#[test]
fn a_fischer_clock_reads_and_writes_as_in_version_2() {
    let line = r#"{"main_ms":300000,"increment_ms":3000}"#;
    let clock: ClockSpec = serde_json::from_str(line).expect("a clock");
    assert_eq!(clock, ClockSpec::fischer(300_000, 3000));
    assert_eq!(serde_json::to_string(&clock).expect("written"), line);
}

#[test]
fn a_clock_of_two_kinds_is_refused_in_words() {
    let mixed = ClockSpec {
        main_ms: 1000,
        move_ms: 1000,
        ..ClockSpec::default()
    };
    assert!(mixed.check().is_err_and(|e| e.contains("correspondence")));
    let byo_increment = ClockSpec {
        main_ms: 1000,
        increment_ms: 1,
        periods: 1,
        period_ms: 1,
        ..ClockSpec::default()
    };
    assert!(
        byo_increment
            .check()
            .is_err_and(|e| e.contains("increment"))
    );
    assert!(ClockSpec::fischer(0, 5).check().is_err());
}

#[test]
fn a_move_with_a_field_it_does_not_have_is_refused() {
    let played = r#"{"type":"move","game":1,"move":{"from":[3,0],"to":[2,0]}}"#;
    assert!(matches!(
        parse_client(played),
        Ok(ClientMessage::Move { game: 1, .. })
    ));
    let extra = r#"{"type":"move","game":1,"move":{"from":[3,0],"to":[2,0],"extra":1}}"#;
    let refused = parse_client(extra).expect_err("refused");
    assert!(refused.contains("unknown field `extra`"), "{refused}");
}

#[test]
fn moderation_and_export_messages_read_back_and_refuse_unknown_fields() {
    let line = r#"{"type":"moderate","action":{"kind":"mute","account":"bob","seconds":600},"reason":"calm down"}"#;
    let message = parse_client(line).expect("reads");
    assert_eq!(
        message,
        ClientMessage::Moderate {
            action: ModAction::Mute {
                account: "bob".into(),
                seconds: Some(600),
            },
            reason: Some("calm down".into()),
        }
    );
    assert_eq!(parse_client(to_line(&message).trim_end()), Ok(message));
    let forever = r#"{"type":"moderate","action":{"kind":"ban_address","address":"10.0.0.0/8"}}"#;
    assert!(parse_client(forever).is_ok());
    let extra = r#"{"type":"moderate","action":{"kind":"kick","account":"bob","for":1}}"#;
    assert!(parse_client(extra).expect_err("refused").contains("for"));
    let unknown = r#"{"type":"moderate","action":{"kind":"smite","account":"bob"}}"#;
    assert!(
        parse_client(unknown)
            .expect_err("refused")
            .contains("smite")
    );

    // `fetch` without a format is the saved game, as before formats.
    let fetch = parse_client(r#"{"type":"fetch","game":3}"#).expect("reads");
    assert_eq!(
        fetch,
        ClientMessage::Fetch {
            game: 3,
            format: RecordFormat::Saved,
        }
    );
    let otn = parse_client(r#"{"type":"fetch_player","account":"ann","format":"otn"}"#);
    assert_eq!(
        otn,
        Ok(ClientMessage::FetchPlayer {
            account: "ann".into(),
            format: RecordFormat::Otn,
            after: None,
        })
    );
    assert_eq!("aborted".parse::<EndCause>(), Ok(EndCause::Aborted));
    assert_eq!(EndCause::Aborted.to_string(), "aborted");
}
