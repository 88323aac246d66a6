//! Language keys: every text the program shows the user, and the loaded language file.
//!
//! [`Key`] is the one list of keys: `-L` prints it, the shipped files in `data/lang/` must
//! give a message for each (a test checks), and every message shown goes through it.
//! A message may hold `{0}`, `{1}` ... which are replaced by the message's arguments.
//! English (`data/lang/eng`) is built into the binary: until a language file is loaded,
//! and when one cannot be read, messages are in English words, never bare keys.

use std::sync::OnceLock;

use crate::shown::shown;

/// The English language file, built into the binary.
const ENGLISH: &[u8] = include_bytes!("../../data/lang/eng");

gleipnir::language_keys! {
    /// A language key: one message the program can show.
    pub enum Key {
        // General errors (FR).
        FrArgs = "fr_args",
        FrIo = "fr_io",
        FrNotFound = "fr_not_found",
        FrRulesNotFound = "fr_rules_not_found",
        FrWrite = "fr_write",
        FrFullPath = "fr_full_path",
        FrNotDir = "fr_not_dir",
        FrSyntax = "fr_syntax",
        FrLang = "fr_lang",
        FrSave = "fr_save",
        FrSaveRules = "fr_save_rules",
        FrLine = "fr_line",
        FrSaveNoRules = "fr_save_no_rules",
        FrVariable = "fr_variable",
        FileDirectory = "file_directory",
        FileFifo = "file_fifo",
        FileDevice = "file_device",
        FileSocket = "file_socket",
        FileTooLarge = "file_too_large",
        SaveBadPlayer = "save_bad_player",
        // Rule files (RREAD, RVALID).
        Rread = "rread",
        Rvalid = "rvalid",
        // The X interface (FRX).
        Frx = "frx",
        // Command errors.
        CmdUnknown = "cmd_unknown",
        CmdUsage = "cmd_usage",
        CmdNoRules = "cmd_no_rules",
        CmdGameOver = "cmd_game_over",
        CmdBadMove = "cmd_bad_move",
        CmdIllegalMove = "cmd_illegal_move",
        CmdBadPlayer = "cmd_bad_player",
        CmdBadLimits = "cmd_bad_limits",
        CmdBadNumber = "cmd_bad_number",
        CmdRcForbidden = "cmd_rc_forbidden",
        CmdRcIgnored = "cmd_rc_ignored",
        CmdNothingToUndo = "cmd_nothing_to_undo",
        CmdNotThinking = "cmd_not_thinking",
        CmdNoSuchCommand = "cmd_no_such_command",
        CmdEmptyName = "cmd_empty_name",
        CmdEmptyCommand = "cmd_empty_command",
        CmdTooDeep = "cmd_too_deep",
        // Why a move is not allowed, and why it could not be read.
        MoveOutOfBoard = "move_out_of_board",
        MoveSameSquare = "move_same_square",
        MoveNotStraight = "move_not_straight",
        MoveNoPiece = "move_no_piece",
        MoveNotYours = "move_not_yours",
        MoveBlocked = "move_blocked",
        MoveCannotEnter = "move_cannot_enter",
        MoveNoReturn = "move_no_return",
        MoveRepetition = "move_repetition",
        MoveGameOver = "move_game_over",
        MoveMustJump = "move_must_jump",
        MoveNoSuchJump = "move_no_such_jump",
        MoveChainGoesOn = "move_chain_goes_on",
        MoveOr = "move_or",
        NotationWordCount = "notation_word_count",
        NotationBadWord = "notation_bad_word",
        NotationOutOfBoard = "notation_out_of_board",
        // Reports.
        Turn = "turn",
        Thinking = "thinking",
        ThinkingProgress = "thinking_progress",
        ThinkingProgressOpen = "thinking_progress_open",
        WinNoMoves = "win_no_moves",
        WinEscape = "win_escape",
        WinEscapeOn = "win_escape_on",
        WinCaptureLoss = "win_capture_loss",
        WinExitFort = "win_exit_fort",
        WinEncircled = "win_encircled",
        WinLosingSquare = "win_losing_square",
        WinRepetition = "win_repetition",
        DrawRepetition = "draw_repetition",
        DrawNoCapture = "draw_no_capture",
        DrawNoWin = "draw_no_win",
        WinRepetitionAny = "win_repetition_any",
        DrawRepetitionAny = "draw_repetition_any",
        DrawNoCaptureAny = "draw_no_capture_any",
        PieceKing = "piece_king",
        PieceDefender = "piece_defender",
        PieceAttacker = "piece_attacker",
        PieceNamed = "piece_named",
        PieceAny = "piece_any",
        PlayerHuman = "player_human",
        PlayerComputer = "player_computer",
        LimitLevel = "limit_level",
        LimitLevelTime = "limit_level_time",
        LimitDepth = "limit_depth",
        LimitTime = "limit_time",
        LimitNodes = "limit_nodes",
        LimitThreads = "limit_threads",
        RulesLoaded = "rules_loaded",
        LangLoaded = "lang_loaded",
        DataDir = "data_dir",
        NewGame = "new_game",
        Undone = "undone",
        UndoneOne = "undone_one",
        MoveCaptures = "move_captures",
        Saved = "saved",
        Loaded = "loaded",
        LoadedOne = "loaded_one",
        AnalysisDepth = "analysis_depth",
        AnalysisBest = "analysis_best",
        AnalysisNone = "analysis_none",
        AnalysisLine = "analysis_line",
        AnalysisLineDepth = "analysis_line_depth",
        ReviewMove = "review_move",
        CmdNotAnalysing = "cmd_not_analysing",
        AnalysisWhilePlaying = "analysis_while_playing",
        ReviewMistake = "review_mistake",
        ReviewBlunder = "review_blunder",
        ReviewSummary = "review_summary",
        ReviewProgress = "review_progress",
        ReviewNoMoves = "review_no_moves",
        ReviewPlotted = "review_plotted",
        ReviewPlotFailed = "review_plot_failed",
        ReviewBadRecord = "review_bad_record",
        WinChance = "chance",
        WinSideAttackers = "chance_attackers",
        WinSideDefenders = "chance_defenders",
        WinSidePlayer = "chance_player",
        BackFromX = "back_from_x",
        // The X window.
        SideAttackers = "side_attackers",
        SideDefenders = "side_defenders",
        SidePlayer = "side_player",
        SideNamed = "side_named",
        XSideAttackersShort = "x_side_attackers_short",
        XSideDefendersShort = "x_side_defenders_short",
        XSideHuman = "x_side_human",
        XSideComputer = "x_side_computer",
        XSideNetwork = "x_side_network",
        XSideYou = "x_side_you",
        XHint = "x_hint",
        XGameOver = "x_game_over",
        XGameOverNetwork = "x_game_over_network",
        XHelpWindow = "x_help_window",
        XMore = "x_more",
        XAnalysisDepth = "x_analysis_depth",
        XAnalysisLine = "x_analysis_line",
        XAnalysisFigures = "x_analysis_figures",
        XReviewStart = "x_review_start",
        XReviewAt = "x_review_at",
        XReviewHint = "x_review_hint",
        EnvUnset = "env_unset",
        Info = "info",
        // The network (`c` and the commands of a game on a server).
        NetConnecting = "net_connecting",
        NetStarted = "net_started",
        NetConnected = "net_connected",
        NetPinned = "net_pinned",
        NetPinnedOwn = "net_pinned_own",
        NetFailed = "net_failed",
        NetClosed = "net_closed",
        NetBadTarget = "net_bad_target",
        NetNoHome = "net_no_home",
        NetNotConnected = "net_not_connected",
        NetPasswordUnsent = "net_password_unsent",
        NetPasswordPrompt = "net_password_prompt",
        NetServer = "net_server",
        NetPassword = "net_password",
        NetLoggedIn = "net_logged_in",
        NetYourGames = "net_your_games",
        NetNoGames = "net_no_games",
        NetGameLine = "net_game_line",
        NetMoves = "net_moves",
        NetMovesOne = "net_moves_one",
        NetArchiveLine = "net_archive_line",
        NetFree = "net_free",
        NetUntimed = "net_untimed",
        NetPlaying = "net_playing",
        NetWatching = "net_watching",
        NetJoined = "net_joined",
        NetChat = "net_chat",
        NetOfferedUndo = "net_offered_undo",
        NetOfferedDraw = "net_offered_draw",
        NetOfferSent = "net_offer_sent",
        NetDeclined = "net_declined",
        NetKindUndo = "net_kind_undo",
        NetKindDraw = "net_kind_draw",
        NetEnded = "net_ended",
        NetWinResigned = "net_win_resigned",
        NetWinTime = "net_win_time",
        NetDrawAgreed = "net_draw_agreed",
        NetClocks = "net_clocks",
        NetClockPeriods = "net_clock_periods",
        NetNoTable = "net_no_table",
        NetWatcher = "net_watcher",
        NetNoOffer = "net_no_offer",
        NetBadClock = "net_bad_clock",
        NetBadNewWord = "net_bad_new_word",
        NetLeft = "net_left",
        NetLeaderboard = "net_leaderboard",
        NetLeaderboardLine = "net_leaderboard_line",
        NetLeaderboardEmpty = "net_leaderboard_empty",
        NetRatings = "net_ratings",
        NetRatingLine = "net_rating_line",
        NetRatingHistory = "net_rating_history",
        NetNoRatings = "net_no_ratings",
        NetGames = "net_games",
        NetGamesOne = "net_games_one",
        NetRated = "net_rated",
        NetBadPage = "net_bad_page",
        NetWhoseRating = "net_whose_rating",
        NetNoRules = "net_no_rules",
        NetRulesShipped = "net_rules_shipped",
        NetRulesUploaded = "net_rules_uploaded",
        NetRulesAdded = "net_rules_added",
        NetUploadTooLarge = "net_upload_too_large",
        NetUploadLabel = "net_upload_label",
        NetUploadNotText = "net_upload_not_text",
        NetUploadHidden = "net_upload_hidden",
        NetLeftOver = "net_left_over",
        NetBadSeekWord = "net_bad_seek_word",
        NetBadChallengeWord = "net_bad_challenge_word",
        NetBadRange = "net_bad_range",
        NetSeekFor = "net_seek_for",
        NetSeekRange = "net_seek_range",
        NetChallenged = "net_challenged",
        NetChallengedRated = "net_challenged_rated",
        NetAborted = "net_aborted",
        NetBadFetch = "net_bad_fetch",
        NetFetchedPlayer = "net_fetched_player",
        NetFetchedNone = "net_fetched_none",
        NetRecordLeftOut = "net_record_left_out",
        NetBadMod = "net_bad_mod",
        NetModerated = "net_moderated",
        NetModLog = "net_mod_log",
        NetModLogEmpty = "net_mod_log_empty",
        NetModLogLine = "net_mod_log_line",
        NetChatLogLine = "net_chat_log_line",
        NetChatLogEmpty = "net_chat_log_empty",
        NetChatHidden = "net_chat_hidden",
        // Help.
        HelpArgs = "help_args",
        HelpOptRc = "help_opt_rc",
        HelpOptNoRc = "help_opt_no_rc",
        HelpOptData = "help_opt_data",
        HelpOptSaved = "help_opt_saved",
        HelpOptHelp = "help_opt_help",
        HelpOptInfo = "help_opt_info",
        HelpOptLang = "help_opt_lang",
        HelpOptKeys = "help_opt_keys",
        HelpOptEnv = "help_opt_env",
        HelpOptRules = "help_opt_rules",
        HelpOptNoLocale = "help_opt_no_locale",
        HelpOptVersion = "help_opt_version",
        HelpOptX = "help_opt_x",
        HelpOptEngine = "help_opt_engine",
        HelpOptLimits = "help_opt_limits",
        HelpOptPerft = "help_opt_perft",
        HelpOptCheck = "help_opt_check",
        HelpOptWarnings = "help_opt_warnings",
        HelpIntro = "help_intro",
        HelpX = "help_x",
        HelpBoard = "help_board",
        HelpCmdH = "help_cmd_h",
        HelpCmdM = "help_cmd_m",
        HelpCmdB = "help_cmd_b",
        HelpCmdP = "help_cmd_p",
        HelpCmdF = "help_cmd_f",
        HelpCmdA = "help_cmd_a",
        HelpCmdReview = "help_cmd_review",
        HelpCmdLive = "help_cmd_live",
        HelpCmdS = "help_cmd_s",
        HelpWinChance = "help_win_chance",
        HelpCmdU = "help_cmd_u",
        HelpCmdN = "help_cmd_n",
        HelpCmdR = "help_cmd_r",
        HelpCmdL = "help_cmd_l",
        HelpCmdD = "help_cmd_d",
        HelpCmdE = "help_cmd_e",
        HelpCmdW = "help_cmd_w",
        HelpCmdX = "help_cmd_x",
        HelpCmdQ = "help_cmd_q",
        HelpCmdC = "help_cmd_c",
        HelpCmdLogin = "help_cmd_login",
        HelpCmdRegister = "help_cmd_register",
        HelpCmdGames = "help_cmd_games",
        HelpCmdNew = "help_cmd_new",
        HelpCmdJoin = "help_cmd_join",
        HelpCmdWatch = "help_cmd_watch",
        HelpCmdSay = "help_cmd_say",
        HelpCmdDraw = "help_cmd_draw",
        HelpCmdAccept = "help_cmd_accept",
        HelpCmdDecline = "help_cmd_decline",
        HelpCmdResign = "help_cmd_resign",
        HelpCmdArchive = "help_cmd_archive",
        HelpCmdFetch = "help_cmd_fetch",
        HelpCmdRatings = "help_cmd_ratings",
        HelpCmdRating = "help_cmd_rating",
        HelpCmdRules = "help_cmd_rules",
        HelpCmdUpload = "help_cmd_upload",
        HelpCmdLeave = "help_cmd_leave",
        HelpCmdSeek = "help_cmd_seek",
        HelpCmdChallenge = "help_cmd_challenge",
        HelpCmdRematch = "help_cmd_rematch",
        HelpCmdMod = "help_cmd_mod",
        HelpCmdChatlog = "help_cmd_chatlog",
        // The computer's evaluation.
        NetworkRefused = "network_refused",
        EvalNetwork = "eval_network",
        EvalClassic = "eval_classic",
        AnalysisEvaluation = "analysis_evaluation",
        LimitEvaluation = "limit_evaluation",
        // Tournaments.
        HelpCmdTournament = "help_cmd_tournament",
        NetNoTournaments = "net_no_tournaments",
        NetTournamentLine = "net_tournament_line",
        NetTournamentOpen = "net_tournament_open",
        NetTournamentStartsAt = "net_tournament_starts_at",
        NetTournamentRunning = "net_tournament_running",
        NetTournamentFinished = "net_tournament_finished",
        NetTournamentCancelled = "net_tournament_cancelled",
        NetRoundRobin = "net_round_robin",
        NetSwiss = "net_swiss",
        NetTournamentRound = "net_tournament_round",
        NetTournamentMatch = "net_tournament_match",
        NetTournamentBye = "net_tournament_bye",
        NetTournamentPlayers = "net_tournament_players",
        NetTournamentStandings = "net_tournament_standings",
        NetTournamentStanding = "net_tournament_standing",
        NetTournamentWithdrawn = "net_tournament_withdrawn",
        NetTournamentYourGame = "net_tournament_your_game",
        NetBadTournamentFormat = "net_bad_tournament_format",
    }
}

/// A message: a key and its arguments, not yet put into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The key.
    pub key: Key,
    /// The values for `{0}`, `{1}` ...
    pub args: Vec<String>,
}

impl Message {
    /// A message with arguments.
    pub fn new(key: Key, args: impl IntoIterator<Item = impl Into<String>>) -> Message {
        Message {
            key,
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// A message without arguments.
    pub fn plain(key: Key) -> Message {
        Message {
            key,
            args: Vec::new(),
        }
    }
}

/// The built-in English catalogue, read once. A test checks that it gives every key; were
/// it ever refused, messages would show as their keys rather than the program stopping.
fn english() -> &'static gleipnir::Catalogue<Key> {
    static ENGLISH_CATALOGUE: OnceLock<gleipnir::Catalogue<Key>> = OnceLock::new();
    ENGLISH_CATALOGUE.get_or_init(|| gleipnir::Catalogue::parse(ENGLISH).unwrap_or_default())
}

/// The language in use: a loaded catalogue, which is complete (a language file that lacks
/// a key is refused whole), or none, when the built-in English speaks.
#[derive(Clone, Debug, Default)]
pub struct Language {
    catalogue: gleipnir::Catalogue<Key>,
}

impl Language {
    /// No language file loaded: messages are in the built-in English.
    pub fn none() -> Language {
        Language {
            catalogue: gleipnir::Catalogue::empty(),
        }
    }

    /// Reads a language file; it must give every key and no other (else it is refused
    /// whole, with the reason).
    pub fn parse(text: &[u8]) -> Result<Language, gleipnir::LanguageError> {
        Ok(Language {
            catalogue: gleipnir::Catalogue::parse(text)?,
        })
    }

    /// Whether a language file is loaded.
    pub fn is_loaded(&self) -> bool {
        !self.catalogue.is_empty()
    }

    /// The message in words: the loaded language's, else the built-in English.
    pub fn text(&self, message: &Message) -> String {
        let catalogue = match self.is_loaded() {
            true => &self.catalogue,
            false => english(),
        };
        fill(catalogue.get(message.key), &message.args)
    }

    /// A message without arguments in words.
    pub fn get(&self, key: Key) -> String {
        self.text(&Message::plain(key))
    }
}

/// Replaces `{0}`, `{1}` ... in a template by the arguments, made safe to print; a
/// reference to a missing argument is left as it stands.
fn fill(template: &str, args: &[String]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let argument = after
            .find('}')
            .and_then(|close| {
                after[..close]
                    .parse::<usize>()
                    .ok()
                    .map(|index| (index, close))
            })
            .and_then(|(index, close)| args.get(index).map(|arg| (arg, close)));
        match argument {
            Some((arg, close)) => {
                out.push_str(&shown(arg));
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_lower_case() {
        let mut names: Vec<&str> = Key::ALL.iter().map(|key| key.name()).collect();
        assert!(
            names
                .iter()
                .all(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn fill_replaces_numbered_arguments() {
        let args = ["a".to_owned(), "b".to_owned()];
        assert_eq!(fill("{1} then {0}", &args), "b then a");
        assert_eq!(fill("{2} {x} {", &args), "{2} {x} {");
        assert_eq!(fill("näst {0}", &args), "näst a");
    }

    #[test]
    fn the_built_in_english_gives_every_key() {
        assert!(gleipnir::Catalogue::<Key>::parse(ENGLISH).is_ok());
    }

    #[test]
    fn without_language_messages_are_english() {
        let language = Language::none();
        assert_eq!(
            language.text(&Message::new(Key::FrIo, ["x", "y"])),
            "x: cannot read: y"
        );
        assert_ne!(language.get(Key::Turn), "turn");
    }

    // The shipped language files give every key and no other.

    fn shipped(name: &str) -> Vec<u8> {
        let path = format!("{}/../data/lang/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    #[test]
    fn english_is_complete() {
        if let Err(error) = Language::parse(&shipped("eng")) {
            panic!("eng: {error}");
        }
    }

    #[test]
    fn swedish_is_complete() {
        if let Err(error) = Language::parse(&shipped("swe")) {
            panic!("swe: {error}");
        }
    }

    #[test]
    fn loaded_language_fills_in_values() {
        let Ok(english) = Language::parse(&shipped("eng")) else {
            panic!("eng must load")
        };
        assert_eq!(
            english.text(&Message::new(Key::Turn, ["1"])),
            "Player 1 to move."
        );
        let Ok(swedish) = Language::parse(&shipped("swe")) else {
            panic!("swe must load")
        };
        assert_ne!(swedish.get(Key::Turn), english.get(Key::Turn));
    }

    #[test]
    fn a_file_missing_a_key_is_refused() {
        let text = String::from_utf8(shipped("eng")).expect("UTF-8");
        let short: String = text
            .lines()
            .filter(|line| !line.starts_with("turn"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(Language::parse(short.as_bytes()).is_err());
        let extra = format!("{text}\nno_such_key Hello\n");
        assert!(Language::parse(extra.as_bytes()).is_err());
    }

    #[test]
    fn the_keys_listed_by_minus_l_are_every_key() {
        let listed: Vec<&str> = gleipnir::key_names::<Key>().collect();
        let names: Vec<&str> = Key::ALL.iter().map(|key| key.name()).collect();
        assert_eq!(listed, names);
    }
}
