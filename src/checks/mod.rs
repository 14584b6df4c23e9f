//! Judges one game: each submodule is one rule area and adds its findings.
//! `audit` runs them in the order a game's life goes: tags, the starting
//! position, the movetext, the replay, the draw rules, the result.
//! `across` holds the checks that need every game of the run (duplicates,
//! rounds, the games against a TRF): the writer gives them each game in
//! input order.

pub mod across;
mod clocks;
pub mod draws;
pub mod ending;
pub mod header;
mod moves;
mod result;
mod setup;
pub mod suppress;
mod tags;
mod time_control;
pub mod variants;
pub mod verdict;
mod wins;

pub use self::{
    result::truncated,
    verdict::{BoardEnd, Decided, Judging, Verdict},
};

use shakmaty::{Chess, Color, KnownOutcome, Position};

use self::ending::{Facts, HowEnded};
use crate::{
    board::{
        replay::{self, Replay},
        rules::{Article, Edition},
        variations,
    },
    checks::draws::history::{EndKind, History},
    finding::{Finding, Kind},
    read::game::RawGame,
};

/// The recorded result: the Result tag if it is one of the four, else the
/// termination marker. `Some(None)` is `*`.
fn recorded_result(game: &RawGame<'_>) -> Option<Option<KnownOutcome>> {
    let outcome = match game
        .tags
        .get("Result")
        .and_then(crate::read::outcome::parse)
    {
        Some(outcome) => outcome,
        None => game.lexed.marker?.outcome,
    };
    Some(match outcome {
        shakmaty::Outcome::Known(known) => Some(known),
        shakmaty::Outcome::Unknown => None,
    })
}

/// The facts of a replayed game, gathered once: where it started, what the
/// replay reached, and what the board decides.
struct Played {
    /// The starting position.
    start: Chess,
    /// What the replay reached.
    replayed: Replay,
    /// The record stops being playable before its end (a move that cannot
    /// be played, a token that is no move) and nothing ended the game
    /// before that.
    stopped: bool,
    /// What the board decides: an automatic end first (what follows it does
    /// not count), else the final position.
    decided: Option<Decided>,
}

/// Replays the game from `start`, the draw rules' history hearing each ply,
/// and finds what the board decides. No findings.
fn play(game: &RawGame<'_>, judging: Judging, start: Chess, history: &mut History) -> Played {
    let edition = judging.edition;
    history.under(edition);
    // `bench-no-draw-rules` (bench/draw_rules.sh only): the history hears
    // no ply, so no draw rule applies.
    #[cfg(not(feature = "bench-no-draw-rules"))]
    let replayed = replay::replay(&start, &game.lexed.sans, history, judging.corrections);
    #[cfg(feature = "bench-no-draw-rules")]
    let replayed = {
        history.start(&start);
        replay::replay(
            &start,
            &game.lexed.sans,
            &mut replay::Unobserved,
            judging.corrections,
        )
    };
    let unplayable = replayed.stopped.is_some() || stopped_unreadable(game);
    let decided = if let Some(end) = &history.end {
        let (board_end, article) = match end.kind {
            EndKind::Fivefold => (BoardEnd::Fivefold, Article::Fivefold),
            EndKind::SeventyFive => (BoardEnd::SeventyFiveMoves, Article::SeventyFive),
            EndKind::DeadPosition => (BoardEnd::DeadPosition, Article::DeadPosition),
        };
        Some(Decided {
            end: board_end,
            expected: KnownOutcome::Draw,
            rule: article,
            position: end.position.clone(),
            turn: end.turn,
        })
    } else if unplayable {
        None
    } else {
        judge(&replayed.end, edition)
    };
    Played {
        stopped: unplayable && history.end.is_none(),
        start,
        replayed,
        decided,
    }
}

/// Whether a draw could be claimed with the last move or right after it:
/// how a drawn game without a recorded reason most likely ended.
fn claimable(history: &History, last: usize) -> Option<HowEnded> {
    if history
        .threefold
        .as_ref()
        .is_some_and(|c| c.index + 1 >= last)
    {
        Some(HowEnded::Repetition)
    } else if history.fifty.as_ref().is_some_and(|c| c.index + 1 >= last) {
        Some(HowEnded::FiftyMoves)
    } else {
        None
    }
}

/// Checks one game, appending its findings in the order of the record:
/// gathers the facts once (tags, the start, the replay, what the board
/// decides, how the game ended), then runs each rule area over them.
/// `history` is a reused buffer.
pub fn audit(
    game: &RawGame<'_>,
    judging: Judging,
    history: &mut History,
    findings: &mut Vec<Finding>,
) -> Verdict {
    tags::check(game, findings);
    header::check(game, judging.header, findings);
    let recorded = recorded_result(game);
    let played = match setup::start(game, findings) {
        Ok(start) => Some(play(game, judging, start, history)),
        // Replayed and judged by the variant's own rules.
        Err(setup::NotReplayed::Lichess(variant)) => {
            return judge_variant(game, variant, judging, recorded, findings);
        }
        Err(setup::NotReplayed::Fen) => {
            moves::check_tokens(game, None, findings);
            None
        }
        // Another variant's movetext has its own notation: not judged.
        Err(setup::NotReplayed::Variant) => None,
    };
    if let Some(p) = &played {
        moves::check_replay(game, &p.replayed, findings);
        moves::check_tokens(game, Some(&p.replayed), findings);
        moves::check_numbers(game, &p.start, findings);
        if !judging.skip_variations
            && let Some(at) = game.lexed.variations
        {
            let issues = variations::walk(game.bytes, at, &p.start, &game.lexed.sans);
            moves::check_variations(game, &issues, findings);
        }
        draws::check(game, &p.replayed, history, findings);
    }
    // A game judged on the board: replayed to its end, or ended by itself.
    let judged = played.as_ref().filter(|p| !p.stopped);
    let facts = Facts {
        board_end: match (&played, judged) {
            (None, _) => BoardEnd::NotReplayed,
            (Some(_), None) => BoardEnd::IllegalMove,
            (_, Some(p)) => p.decided.as_ref().map_or(BoardEnd::Open, |d| d.end),
        },
        result: recorded,
        start_turn: played.as_ref().map_or(Color::White, |p| p.start.turn()),
        claimable: judged.and_then(|p| claimable(history, p.replayed.plies)),
    };
    let how_ended = ending::how_ended(game, &facts);
    if let Some(p) = &played {
        let end = clocks::End {
            how: how_ended,
            result: recorded.flatten(),
            turn: judged.map(|p| p.replayed.end.turn()),
        };
        clocks::check(game, &p.start, &end, findings);
    }
    let mut decided = judged.and_then(|p| p.decided.clone());
    let mut expected = decided.as_ref().map(|d| d.expected);
    if let Some(p) = judged
        && decided.is_none()
        && let Some(Some(KnownOutcome::Decisive { winner })) = recorded
    {
        match wins::unearned(game, &p.replayed.end, winner, how_ended, judging, findings) {
            wins::Unearned::No => {}
            wins::Unearned::Yes => expected = Some(KnownOutcome::Draw),
            wins::Unearned::Dead => {
                decided = Some(Decided {
                    end: BoardEnd::DeadPosition,
                    expected: KnownOutcome::Draw,
                    rule: Article::DeadPosition,
                    position: p.replayed.end.clone(),
                    turn: p.replayed.end.turn(),
                });
                expected = Some(KnownOutcome::Draw);
            }
        }
    }
    result::check(game, decided.as_ref(), decided.is_some(), findings);
    let ended_at = played.as_ref().and_then(|p| {
        let end = history.end.as_ref()?;
        (end.index < p.replayed.plies).then_some(end.index)
    });
    let plies = played.as_ref().map_or(0, |p| p.replayed.plies);
    Verdict {
        plies,
        moves: played.as_ref().map_or(0, |p| p.replayed.moves),
        resolved: plies,
        board_end: match &decided {
            Some(d) => d.end,
            None => facts.board_end,
        },
        expected,
        how_ended,
        ended_at,
        stopped: played.as_ref().and_then(|p| p.replayed.stopped),
        corrections: played.map(|p| p.replayed.corrections).unwrap_or_default(),
    }
}

/// The verdict on a game of a lichess `variant`, replayed by its own rules
/// (which hold its result against the variant's end): its moves as written,
/// how it ended, its clocks, and its result's presence and agreement.
#[inline(never)]
fn judge_variant(
    game: &RawGame<'_>,
    variant: shakmaty::variant::Variant,
    judging: Judging,
    recorded: Option<Option<KnownOutcome>>,
    findings: &mut Vec<Finding>,
) -> Verdict {
    let Some(reached) = variants::check(game, variant, recorded, judging.corrections, findings)
    else {
        // The start cannot be set up (its FEN): nothing is replayed, and
        // the variant's notation is not judged.
        result::check(game, None, false, findings);
        let facts = Facts {
            board_end: BoardEnd::NotReplayed,
            result: recorded,
            start_turn: Color::White,
            claimable: None,
        };
        return Verdict::not_replayed(ending::how_ended(game, &facts));
    };
    if reached.stopped.is_none() {
        moves::check_tokens(game, None, findings);
    }
    let facts = Facts {
        board_end: reached.end,
        result: recorded,
        start_turn: reached.start.turn(),
        claimable: None,
    };
    let how_ended = ending::how_ended(game, &facts);
    let end = clocks::End {
        how: how_ended,
        result: recorded.flatten(),
        turn: (reached.end != BoardEnd::IllegalMove).then_some(reached.turn),
    };
    clocks::check(game, &reached.start, &end, findings);
    result::check(game, None, reached.end.decides(), findings);
    Verdict {
        plies: reached.plies,
        moves: 0,
        resolved: 0,
        board_end: reached.end,
        expected: reached.expected,
        how_ended,
        ended_at: None,
        stopped: reached.stopped,
        corrections: reached.corrections,
    }
}

/// The one finding of a game the reader gave up on: `size` bytes read
/// past `limit` without the next game's start. It is never judged.
pub fn too_large(line: u64, limit: usize, size: usize) -> Finding {
    Finding::new(
        Kind::GameTooLarge,
        line,
        format!(
            "The game is larger than {} MiB ({size} bytes read before giving up; an unclosed comment or junk?), so it is not checked; reading goes on at the next game that starts with a tag after a blank line.",
            limit >> 20
        ),
    )
}

/// Whether the mainline stopped at a malformed token (rather than at its end
/// or at its termination marker).
fn stopped_unreadable(game: &RawGame<'_>) -> bool {
    game.lexed
        .stop
        .is_some_and(|s| s.kind == crate::read::lexer::StopKind::Malformed)
}

/// What the final position decides by itself.
fn judge(pos: &Chess, edition: Edition) -> Option<Decided> {
    // One answer serves both mate and stalemate.
    let no_moves = !crate::board::san::has_legal_move(pos);
    let (end, expected, article) = if no_moves && pos.is_check() {
        let winner = !pos.turn();
        (
            BoardEnd::Checkmate,
            KnownOutcome::Decisive { winner },
            Article::Checkmate,
        )
    } else if no_moves {
        (BoardEnd::Stalemate, KnownOutcome::Draw, Article::Stalemate)
    } else if edition.is_dead(pos) {
        (
            BoardEnd::DeadPosition,
            KnownOutcome::Draw,
            Article::DeadPosition,
        )
    } else {
        return None;
    };
    Some(Decided {
        end,
        expected,
        rule: article,
        position: pos.clone(),
        turn: pos.turn(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        board::{rules::Source, winnable::Search},
        finding::Kind,
    };
    use shakmaty::variant::Variant;

    /// The kinds of finding a one-game PGN gets.
    fn kinds(pgn: &[u8], edition: Edition) -> Vec<Kind> {
        audited(pgn, edition).iter().map(|f| f.kind).collect()
    }

    /// The findings a one-game PGN gets.
    fn audited(pgn: &[u8], edition: Edition) -> Vec<Finding> {
        let game = crate::testing::game(pgn);
        let game = game.raw();
        let mut findings = Vec::new();
        let judging = Judging {
            edition,
            search: Search::Fast,
            skip_variations: false,
            header: header::HeaderRules {
                today: 20261130,
                strict: true,
            },
            duplicates: true,
            corrections: false,
        };
        audit(&game, judging, &mut History::default(), &mut findings);
        findings
    }

    const TAGS: &str = "[Event \"e\"]\n[Result \"1-0\"]\n";

    /// The run-wide kinds, each from the smallest run that shows it.
    fn run_wide_kinds(seen: &mut Vec<Kind>) {
        // Run-wide codes: the smallest runs that show them.
        for (pgn, kind) in [
            (
                "[White \"A\"]\n\n1. e4 *\n\n[White \"A\"]\n\n1. e4 *",
                Kind::DuplicateGame,
            ),
            (
                "[Event \"E\"][Round \"1\"][White \"M\"][Black \"A\"]\n\n1. e4 *\n\n\
                 [Event \"E\"][Round \"1\"][White \"B\"][Black \"M\"]\n\n1. e4 *",
                Kind::PlayerTwiceInRound,
            ),
            (
                "[Event \"E\"][Round \"1.1\"][White \"A\"][Black \"B\"]\n\n1. e4 *\n\n\
                 [Event \"E\"][Round \"1.2\"][White \"C\"][Black \"D\"]\n\n1. e4 *\n\n\
                 [Event \"E\"][Round \"1.1\"][White \"E\"][Black \"F\"]\n\n1. e4 *",
                Kind::DuplicateBoard,
            ),
            (
                "[White \"Muzychuk,A\"][WhiteFideId \"14111330\"]\n\n1. e4 *\n\n\
                 [White \"Muzychuk, Anna\"][WhiteFideId \"14111330\"]\n\n1. d4 *",
                Kind::PlayerNameVariant,
            ),
            (
                "[Event \"E\"][Round \"1\"][White \"A\"][WhiteFideId \"7\"][WhiteElo \"1500\"]\n\n1. e4 *\n\n\
                 [Event \"E\"][Round \"2\"][White \"A\"][WhiteFideId \"8\"][WhiteElo \"1500\"]\n\n1. d4 *",
                Kind::PlayerIdConflict,
            ),
            // Found when the writer has all of a game's findings.
            (
                "[White \"A\"]\n\n{pgn-arbiter: ignore illegal-move} 1. e4 *",
                Kind::UnusedSuppression,
            ),
        ] {
            assert!(run_wide(pgn).contains(&kind), "{kind}: {pgn:?}");
            seen.push(kind);
        }
        // Against a TRF: Alpha (1) beat Beta (2) with White in round 1.
        let row = |rank: u16, name: &str, points: &str, round: &str| {
            format!(
                "001 {rank:>4}      {name:<33} 2400 GER {:>11} 2000/01/01 {points:>4} {rank:>4}  {round}",
                100 + rank
            )
        };
        let trf = [
            row(1, "Alpha, A", "1.0", "   2 w 1"),
            row(2, "Beta, B", "0.0", "   1 b 0"),
        ];
        for (lines, game, kind) in [
            (vec!["XXS nonsense".to_owned()], None, Kind::TrfInvalid),
            (
                vec![trf[0].clone(), row(2, "Beta, B", "0.0", "   1 b 1")],
                None,
                Kind::TrfInconsistent,
            ),
            (trf.to_vec(), None, Kind::TrfGameMissing),
            (
                trf.to_vec(),
                Some(("Alpha, A", "Beta, B", "2", "1-0", "")),
                Kind::GameNotInTrf,
            ),
            (
                trf.to_vec(),
                Some(("Alpha, A", "Beta, B", "1", "0-1", "")),
                Kind::TrfResultMismatch,
            ),
            (
                trf.to_vec(),
                Some(("Beta, B", "Alpha, A", "1", "0-1", "")),
                Kind::TrfColourMismatch,
            ),
            (
                trf.to_vec(),
                Some(("Alpha, A", "Beta, B", "1", "1-0", "2399")),
                Kind::TrfPlayerMismatch,
            ),
        ] {
            let got = against_trf(&lines.join("\n"), game);
            assert!(
                got.contains(&kind),
                "{kind}: {lines:?} {game:?} gave {got:?}"
            );
            seen.push(kind);
        }
    }

    /// The codes a run of these games gets, as the whole pipeline gives
    /// them (duplicates and rounds looked for).
    fn run_wide(pgn: &str) -> Vec<Kind> {
        let judging = Judging {
            edition: Edition::Fide2023,
            search: Search::Fast,
            skip_variations: false,
            header: header::HeaderRules::default(),
            duplicates: true,
            corrections: false,
        };
        let (findings, _, _) = crate::run::audit_bytes(pgn.as_bytes(), judging, false).unwrap();
        let mut reader = csv::Reader::from_reader(findings.as_slice());
        let codes: Vec<String> = reader
            .records()
            .map(|r| r.unwrap()[12].to_owned())
            .collect();
        Kind::ALL
            .iter()
            .copied()
            .filter(|k| codes.iter().any(|c| c == k.code()))
            .collect()
    }

    /// The codes a TRF gets, with one game (White, Black, Round, Result
    /// and WhiteElo) or none, against it.
    fn against_trf(trf: &str, game: Option<(&str, &str, &str, &str, &str)>) -> Vec<Kind> {
        use across::Across;
        let mut audit =
            across::tournament::TrfAudit::new("t.trf".to_owned(), crate::read::trf::read(trf));
        let mut out = Vec::new();
        if let Some((white, black, round, result, elo)) = game {
            let players = ["", "", elo, "", "", ""];
            let seen = across::Seen::pairing([white, black], round, result, players);
            audit.game(&seen, &mut out);
        }
        audit.finish(&mut out);
        out.iter().map(|f| f.kind).collect()
    }

    /// A claim by writing down the move that completes the repetition or
    /// the fifty moves is made by ending the record with that move; any
    /// other last move leaves it unclaimed. The same for both rules.
    #[test]
    fn one_claim_policy_for_repetition_and_fifty_moves() {
        let drawn = |fen: &str, moves: &str| {
            let setup = if fen.is_empty() {
                String::new()
            } else {
                format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")
            };
            let pgn = format!("[Result \"1/2-1/2\"]\n{setup}\n{moves} 1/2-1/2");
            kinds(pgn.as_bytes(), Edition::Fide2023)
        };
        let fifty = "4k3/8/8/8/8/8/P7/4K2R w - - 99 80";
        assert!(!drawn(fifty, "80. Rh2").contains(&Kind::UnclaimedFiftyMoves));
        assert!(drawn(fifty, "80. a3").contains(&Kind::UnclaimedFiftyMoves));
        let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1";
        assert!(!drawn("", &format!("{shuffle} Ng8")).contains(&Kind::UnclaimedThreefold));
        assert!(drawn("", &format!("{shuffle} Nc6")).contains(&Kind::UnclaimedThreefold));
    }

    /// A game from a FEN, with its result, more tags and moves.
    fn fen(fen: &str, result: &str, extra: &str, moves: &str) -> String {
        format!("[Result \"{result}\"]\n{extra}[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{moves} {result}")
    }

    /// The smallest game that shows each kind a game alone can show.
    fn tiny_games() -> Vec<(String, Kind)> {
        vec![
            (format!("{TAGS}\n1. e4 e5 2. Ke3 1-0"), Kind::IllegalMove),
            (
                format!("{TAGS}\n1. Nf3 d5 2. d3 e5 3. Nd2 1-0"),
                Kind::AmbiguousMove,
            ),
            (format!("{TAGS}\n1. e4 e5 2. Qxe9 1-0"), Kind::MalformedMove),
            (format!("[Event e]\n{TAGS}\n1. e4 1-0"), Kind::MalformedTag),
            (
                fen("8/8/8/8/8/8/8/4KK2 w - - 0 1", "*", "", "1. Ke2"),
                Kind::InvalidFen,
            ),
            (
                format!("[Variant \"Seirawan\"]\n{TAGS}\n1. e4 1-0"),
                Kind::UnsupportedVariant,
            ),
            ("[Event \"e\"]\n\n1. e4 1-0".to_owned(), Kind::MissingResult),
            (format!("{TAGS}\n1. e4 e5 2."), Kind::TruncatedGame),
            (format!("{TAGS}\n1. e4 ( ) e5 1-0"), Kind::EmptyVariation),
            (format!("{TAGS}\n1. e4 0-1"), Kind::ResultMismatch),
            (
                format!("{TAGS}\n1. f3 e5 2. g4 Qh4# 1-0"),
                Kind::ResultContradictsCheckmate,
            ),
            (
                fen("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1", "1-0", "", "1. Qf7"),
                Kind::ResultContradictsStalemate,
            ),
            (
                fen("4k3/8/8/8/8/8/4r3/4KB2 w - - 0 1", "1-0", "", "1. Kxe2"),
                Kind::ResultContradictsDeadPosition,
            ),
            (
                format!("{TAGS}\n1. e4 e5 2. Qh5+ 1-0"),
                Kind::WrongCheckSuffix,
            ),
            (
                "[Result \"1/2\"]\n\n1. e4 *".to_owned(),
                Kind::InvalidResult,
            ),
            (
                format!("{TAGS}\n1. e4 {{ never closed 1-0"),
                Kind::UnterminatedComment,
            ),
            (format!("{TAGS}\n1. e4 1-0 2. d4"), Kind::TextAfterResult),
            (format!("{TAGS}\n1. e4 d5 2. ed5 1-0"), Kind::NonStandardSan),
            (
                format!("{TAGS}\n1. e4 $256 e5 1-0"),
                Kind::NonStandardMovetext,
            ),
            (format!("{TAGS}\n1. e4 e5 7. Nf3 1-0"), Kind::MoveNumber),
            (
                "[ Result  \"1-0\"]\n\n1. e4 1-0".to_owned(),
                Kind::NonStandardTag,
            ),
            (
                "[Event \"e\"] [\nResult\n\"1-0\"\n]\n\n1. e4 1-0".to_owned(),
                Kind::NonStandardTag,
            ),
            (
                format!("{TAGS}\n1. e4 e5 (1... Ke7) 1-0"),
                Kind::IllegalMoveInVariation,
            ),
            (
                format!("{TAGS}\n1. Nf3 d5 2. d3 e5 (2... Nf6 3. Nd2) 1-0"),
                Kind::AmbiguousMoveInVariation,
            ),
            (
                format!("{TAGS}\n1. e4 (1. d4 Zz9) 1-0"),
                Kind::MalformedMoveInVariation,
            ),
        ]
    }

    /// The same for the kinds of the tag section.
    fn tiny_games_of_the_tags() -> Vec<(String, Kind)> {
        vec![
            ("[Result \"1-0\"]\n\n1. e4 1-0".to_owned(), Kind::MissingTag),
            (
                format!("[Site \"?\"]\n{TAGS}\n1. e4 1-0"),
                Kind::UnknownTagValue,
            ),
            (
                format!("[Date \"2024.13.01\"]\n{TAGS}\n1. e4 1-0"),
                Kind::InvalidDate,
            ),
            (
                format!("[PlyCount \"3\"]\n{TAGS}\n1. e4 1-0"),
                Kind::PlyCountMismatch,
            ),
            (
                format!("[White \"A\"]\n[White \"B\"]\n{TAGS}\n1. e4 1-0"),
                Kind::DuplicateTag,
            ),
            (
                format!("[WhiteElo \"99\"]\n{TAGS}\n1. e4 1-0"),
                Kind::InvalidElo,
            ),
            (
                format!("[BlackFideId \"12a\"]\n{TAGS}\n1. e4 1-0"),
                Kind::InvalidFideId,
            ),
            (
                format!("[TimeControl \"blitz\"]\n{TAGS}\n1. e4 1-0"),
                Kind::InvalidTimeControl,
            ),
            (
                format!("[TimeControl \"90 min\"]\n{TAGS}\n1. e4 1-0"),
                Kind::NonStandardTimeControl,
            ),
            (
                format!("{TAGS}[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. Kf1 1-0"),
                Kind::FenWithoutSetup,
            ),
        ]
    }

    /// The same for the kinds the board decides at the end: draws, results
    /// and wins.
    fn tiny_games_at_the_end() -> Vec<(String, Kind)> {
        let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                       7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3";
        // White's clock from 0:03:01 to `to` over a move that adds 2 s.
        let rise = |to: &str| {
            format!(
                "[TimeControl \"180+2\"]\n\n1. e4 {{[%clk 0:03:01]}} e5 2. Nf3 {{[%clk {to}]}} *"
            )
        };
        vec![
            (format!("{TAGS}\n{shuffle} 1-0"), Kind::UnclaimedThreefold),
            (
                fen(
                    "4k3/8/8/8/8/8/8/4K2R w - - 98 80",
                    "1/2-1/2",
                    "",
                    "80. Rh2 Kd8 81. Rh1 Ke8",
                ),
                Kind::UnclaimedFiftyMoves,
            ),
            (format!("{TAGS}\n{shuffle} 1-0"), Kind::PlayedPastFivefold),
            (
                fen(
                    "7k/8/6K1/8/8/8/8/R7 w - - 149 120",
                    "1/2-1/2",
                    "",
                    "120. Ra7 Kg8 121. Ra8#",
                ),
                Kind::PlayedPastSeventyFiveMoves,
            ),
            (
                fen(
                    "4k3/8/8/8/8/8/4r3/4KB2 w - - 0 1",
                    "1/2-1/2",
                    "",
                    "1. Kxe2 Kd7",
                ),
                Kind::PlayedPastDeadPosition,
            ),
            (
                format!("{TAGS}\n{shuffle} 1-0"),
                Kind::ResultContradictsFivefold,
            ),
            (
                fen(
                    "8/8/4k3/8/8/2R1K3/8/8 w - - 148 100",
                    "1-0",
                    "",
                    "100. Rc4 Kd6",
                ),
                Kind::ResultContradictsSeventyFiveMoves,
            ),
            (
                fen(
                    "1rK5/2P5/3k4/7R/8/8/8/8 w - - 1 64",
                    "0-1",
                    "[Termination \"Time forfeit\"]\n",
                    "",
                ),
                Kind::UnwinnableWinOnTime,
            ),
            (
                fen(
                    "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1",
                    "0-1",
                    "[Termination \"Normal\"]\n",
                    "",
                ),
                Kind::UnwinnableWinByResignation,
            ),
            (
                fen("8/8/6p1/6k1/8/6K1/8/8 w - - 0 1", "1-0", "", ""),
                Kind::BareKingForfeitWin,
            ),
            (
                fen("6k1/2b5/6K1/8/8/8/2R5/8 b - - 0 1", "0-1", "", ""),
                Kind::UnexplainedWinUnwinnable,
            ),
            (
                "[Variant \"Atomic\"]\n[Result \"0-1\"]\n\n1. Nf3 d6 2. Ng5 Nf6 3. Nxf7 0-1"
                    .to_owned(),
                Kind::ResultContradictsVariantEnd,
            ),
            (rise("0:04:30"), Kind::ClockRises),
            (rise("0:03:30"), Kind::ClockDrift),
            (
                "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n\
                 1. e4 {[%clk 0:00:59]} 0-1"
                    .to_owned(),
                Kind::ClockForfeitContradicted,
            ),
            (
                "[TimeControl \"180+2\"]\n\n1. e4 {[%clk 0:03:01]} e5 \
                 2. Nf3 {[%clk 0:00:00]} Nc6 3. Bc4 *"
                    .to_owned(),
                Kind::PlayedPastFlag,
            ),
        ]
    }

    /// lichess grants a threefold claim in its variants after the fact
    /// only: a game that goes on from a position's third occurrence is
    /// reported there, citing the variant; one that ends there is not.
    #[test]
    fn a_variant_game_played_on_from_a_threefold_is_reported_there() {
        let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
        let claims = |pgn: String| -> Vec<Finding> {
            audited(pgn.as_bytes(), Edition::Fide2023)
                .into_iter()
                .filter(|f| f.kind == Kind::UnclaimedThreefold)
                .collect()
        };
        let on = claims(format!(
            "[Variant \"King of the Hill\"]\n[Result \"*\"]\n\n{shuffle} 5. e4 Nc6 *"
        ));
        assert_eq!(on.len(), 1, "{on:?}");
        let mv = on[0].mv.as_ref().unwrap();
        assert_eq!(
            (mv.ply, mv.number.as_str(), mv.san.as_str()),
            (8, "4...", "Ng8")
        );
        assert_eq!(on[0].rule, Source::Lichess(Variant::KingOfTheHill));
        assert!(
            on[0].message.contains("(before at the start and ply 4)")
                && on[0].message.contains("went on for 2 more plies"),
            "{}",
            on[0].message
        );
        let ended =
            format!("[Variant \"King of the Hill\"]\n[Result \"1/2-1/2\"]\n\n{shuffle} 1/2-1/2");
        assert_eq!(claims(ended), []);
        // Moves after it up to one the variant does not allow: played on
        // if one of them was played, as in chess.
        let stopped = |moves: &str| {
            claims(format!(
                "[Variant \"Atomic\"]\n[Result \"*\"]\n\n{shuffle} {moves} *"
            ))
            .len()
        };
        assert_eq!(stopped("5. Ke2"), 0);
        assert_eq!(stopped("5. e4 Ke7"), 1);
    }

    /// Every kind, from the smallest game that shows it.
    #[test]
    fn each_kind_from_a_tiny_game() {
        let mut cases = tiny_games();
        cases.extend(tiny_games_of_the_tags());
        cases.extend(tiny_games_at_the_end());
        let mut seen: Vec<Kind> = Vec::new();
        for (pgn, kind) in &cases {
            let got = kinds(pgn.as_bytes(), Edition::Fide2023);
            assert!(got.contains(kind), "{kind}: {pgn:?} gave {got:?}");
            seen.push(*kind);
            // Under every edition, the rule column names that edition, the
            // PGN standard, the tool's own limit or (a lichess variant's
            // game) the variant's rules.
            for edition in [Edition::Fide2023, Edition::Fide2000, Edition::Fide1994] {
                let year = &edition.name()[5..];
                for finding in audited(pgn.as_bytes(), edition) {
                    let cited = finding.rule.cite(edition);
                    assert!(
                        cited.starts_with(&format!("FIDE {year} "))
                            || cited.starts_with("PGN ")
                            || cited == "pgn-arbiter limit"
                            || cited.starts_with("lichess.org/variant/"),
                        "{} under {edition} cites {cited:?}",
                        finding.kind
                    );
                }
            }
        }
        // A tag pair over four lines is the tag it names: no missing result.
        let split = "[Event \"e\"] [\nResult\n\"1-0\"\n]\n\n1. e4 1-0";
        assert!(!kinds(split.as_bytes(), Edition::Fide2023).contains(&Kind::MissingResult));
        // A lone king's win stands under no circumstance in 1994 (10.5).
        let lone = fen("8/8/6p1/6k1/8/6K1/8/8 w - - 0 1", "1-0", "", "");
        assert!(kinds(lone.as_bytes(), Edition::Fide1994).contains(&Kind::BareKingWin));
        assert!(!kinds(lone.as_bytes(), Edition::Fide2000).contains(&Kind::BareKingWin));
        seen.push(Kind::BareKingWin);
        // A Latin-1 byte in a tag value.
        let mut latin1 = b"[White \"M\xfcller\"]\n".to_vec();
        latin1.extend_from_slice(format!("{TAGS}\n1. e4 1-0").as_bytes());
        assert!(kinds(&latin1, Edition::Fide2023).contains(&Kind::Encoding));
        seen.push(Kind::Encoding);
        // A game too large to read is never audited: `too_large`
        // (`run::pipeline::tests::a_game_too_large_is_one_row`).
        seen.push(Kind::GameTooLarge);
        run_wide_kinds(&mut seen);
        for kind in Kind::ALL {
            assert!(seen.contains(kind), "no case for {kind}");
        }
    }
}
