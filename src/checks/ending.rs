//! How a game ended, as the record tells it: the board (mate, stalemate, an
//! automatic draw), the Termination tag (PGN 9.8.1, and the words of
//! lichess, TCEC and chess.com),
//! a clock at zero for the loser's last move (`[%clk 0:00:00]`), or the
//! closing comment servers and engines write (`{White loses on time}`).

use shakmaty::{Color, KnownOutcome};

use super::verdict::BoardEnd;
pub use super::verdict::HowEnded;
use crate::{read::comments::clock_seconds, read::game::RawGame};

/// What is known when the ending is read.
pub struct Facts {
    /// How the board ended the game.
    pub board_end: BoardEnd,
    /// The recorded result, if it is one of the four.
    pub result: Option<Option<KnownOutcome>>,
    /// The side to move at the start.
    pub start_turn: Color,
    /// A threefold or fifty-move claim was possible in the final position.
    pub claimable: Option<HowEnded>,
}

/// Reads how the game ended.
pub fn how_ended(game: &RawGame<'_>, facts: &Facts) -> HowEnded {
    match facts.board_end {
        BoardEnd::Checkmate => return HowEnded::Checkmate,
        BoardEnd::Stalemate => return HowEnded::Stalemate,
        BoardEnd::DeadPosition => return HowEnded::DeadPosition,
        BoardEnd::Fivefold => return HowEnded::Fivefold,
        BoardEnd::SeventyFiveMoves => return HowEnded::SeventyFiveMoves,
        BoardEnd::VariantEnd => return HowEnded::VariantEnd,
        _ => {}
    }
    let result = match facts.result {
        Some(Some(result)) => result,
        Some(None) => return HowEnded::Unterminated,
        None => return HowEnded::Unknown,
    };
    let decisive = matches!(result, KnownOutcome::Decisive { .. });
    if let Some(termination) = game.tags.get("Termination") {
        let t = String::from_utf8_lossy(termination).to_ascii_lowercase();
        let t = t.trim();
        let found = match t {
            "time forfeit" | "time" | "lost on time" | "timeforfeit" | "time-forfeit" => {
                Some(HowEnded::TimeForfeit)
            }
            "abandoned" => Some(HowEnded::Abandoned),
            "rules infraction" => Some(HowEnded::RulesInfraction),
            "adjudication" => Some(HowEnded::Adjudication),
            "death" => Some(HowEnded::Death),
            "emergency" => Some(HowEnded::Emergency),
            "unterminated" => Some(HowEnded::Unterminated),
            // lichess: mate (seen on the board), resignation or a draw.
            "normal" if decisive => Some(HowEnded::Resignation),
            "normal" => Some(facts.claimable.unwrap_or(HowEnded::Agreement)),
            // TCEC's engine events.
            "gui adjudication" => Some(HowEnded::Adjudication),
            "3-fold rep" if !decisive => Some(HowEnded::Repetition),
            "50-move rule" if !decisive => Some(HowEnded::FiftyMoves),
            _ => chess_com(t, result, game),
        };
        if let Some(found) = found {
            return found;
        }
    }
    if let KnownOutcome::Decisive { winner } = result
        && loser_clock_at_zero(game, facts.start_turn, !winner)
    {
        return HowEnded::TimeForfeit;
    }
    if let Some(found) = from_comment(game, decisive) {
        return found;
    }
    HowEnded::Unknown
}

/// chess.com's Termination (lower case): `NAME won by resignation`,
/// `NAME won on time`, `NAME won - game abandoned`, `Game drawn by
/// repetition` and the like, where NAME is the recorded winner's White or
/// Black tag. Mate, stalemate and insufficient material are the board's
/// to tell.
fn chess_com(termination: &str, result: KnownOutcome, game: &RawGame<'_>) -> Option<HowEnded> {
    if let Some(how) = termination.strip_prefix("game drawn by ") {
        return match how {
            _ if result != KnownOutcome::Draw => None,
            "agreement" => Some(HowEnded::Agreement),
            "repetition" => Some(HowEnded::Repetition),
            "50-move rule" => Some(HowEnded::FiftyMoves),
            // A flag fell against a side that could not mate (FIDE 2023 6.9).
            "timeout vs insufficient material" => Some(HowEnded::TimeForfeit),
            _ => None,
        };
    }
    let (name, how) = termination.rsplit_once(" won ")?;
    let KnownOutcome::Decisive { winner } = result else {
        return None;
    };
    let tag = game.tags.get(if winner == Color::White {
        "White"
    } else {
        "Black"
    })?;
    if !String::from_utf8_lossy(tag)
        .trim()
        .eq_ignore_ascii_case(name.trim())
    {
        return None;
    }
    match how {
        "by resignation" => Some(HowEnded::Resignation),
        "on time" => Some(HowEnded::TimeForfeit),
        "- game abandoned" => Some(HowEnded::Abandoned),
        _ => None,
    }
}

/// Whether the loser's last clock reading is zero.
fn loser_clock_at_zero(game: &RawGame<'_>, start_turn: Color, loser: Color) -> bool {
    let mover = |ply: usize| {
        if ply % 2 == 1 {
            start_turn
        } else {
            !start_turn
        }
    };
    let Some(ply) = (1..=game.lexed.sans.len())
        .rev()
        .find(|&ply| mover(ply) == loser)
    else {
        return false;
    };
    // The clock is in a comment right after that move.
    game.lexed
        .comments
        .recent
        .iter()
        .flatten()
        .filter(|&&(moves, _, _)| moves == ply)
        .filter_map(|&(_, start, end)| game.bytes.get(start..end).and_then(clock_seconds))
        .next_back()
        == Some(0)
}

/// The usual closing comments of servers and engine tournaments.
fn from_comment(game: &RawGame<'_>, decisive: bool) -> Option<HowEnded> {
    let (start, end) = game.lexed.comments.last()?;
    let text = String::from_utf8_lossy(game.bytes.get(start..end)?).to_ascii_lowercase();
    // What `--fix` wrote says what it changed, not how the game ended.
    if text.trim_start().starts_with(crate::finding::FIX_MARK) {
        return None;
    }
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    Some(
        if has(&[
            "on time",
            "time forfeit",
            "flag",
            "timeout",
            "time out",
            "out of time",
            "overstep",
            "exceeded the time",
            "exceeds the time",
        ]) {
            HowEnded::TimeForfeit
        } else if has(&["resign"]) {
            HowEnded::Resignation
        } else if has(&["abandon", "disconnect"]) {
            HowEnded::Abandoned
        } else if has(&["adjudicat"]) {
            HowEnded::Adjudication
        } else if !decisive && has(&["repetition", "3-fold", "threefold"]) {
            HowEnded::Repetition
        } else if !decisive && has(&["50 move", "50-move", "fifty"]) {
            HowEnded::FiftyMoves
        } else if !decisive && has(&["agree"]) {
            HowEnded::Agreement
        } else {
            return None;
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::comments::{clock_tenths, elapsed_tenths};

    fn ended(pgn: &str, board_end: BoardEnd, result: Option<Option<KnownOutcome>>) -> HowEnded {
        let game = crate::testing::game(pgn);
        let game = game.raw();
        let facts = Facts {
            board_end,
            result,
            start_turn: Color::White,
            claimable: None,
        };
        how_ended(&game, &facts)
    }

    const WHITE_WINS: Option<Option<KnownOutcome>> = Some(Some(KnownOutcome::Decisive {
        winner: Color::White,
    }));
    const BLACK_WINS: Option<Option<KnownOutcome>> = Some(Some(KnownOutcome::Decisive {
        winner: Color::Black,
    }));
    const DRAW: Option<Option<KnownOutcome>> = Some(Some(KnownOutcome::Draw));

    #[test]
    fn reads_the_board_first() {
        let pgn = "[Termination \"Time forfeit\"]\n\n1. e4 *";
        assert_eq!(
            ended(pgn, BoardEnd::Checkmate, WHITE_WINS),
            HowEnded::Checkmate
        );
    }

    #[test]
    fn reads_termination_tags_in_any_case() {
        let cases = [
            ("Time forfeit", WHITE_WINS, HowEnded::TimeForfeit),
            ("time forfeit", WHITE_WINS, HowEnded::TimeForfeit),
            ("Normal", WHITE_WINS, HowEnded::Resignation),
            ("Normal", DRAW, HowEnded::Agreement),
            ("Abandoned", WHITE_WINS, HowEnded::Abandoned),
            ("rules infraction", WHITE_WINS, HowEnded::RulesInfraction),
        ];
        for (termination, result, want) in cases {
            let pgn = format!("[Termination \"{termination}\"]\n\n1. e4 *");
            assert_eq!(ended(&pgn, BoardEnd::Open, result), want, "{termination}");
        }
    }

    #[test]
    fn reads_the_words_of_tcec_and_chess_com() {
        let cases = [
            ("GUI adjudication", WHITE_WINS, HowEnded::Adjudication),
            ("3-fold rep", DRAW, HowEnded::Repetition),
            ("50-move rule", DRAW, HowEnded::FiftyMoves),
            (
                "MagnusCarlsen won on time",
                WHITE_WINS,
                HowEnded::TimeForfeit,
            ),
            (
                "magnuscarlsen won by resignation",
                WHITE_WINS,
                HowEnded::Resignation,
            ),
            (
                "MagnusCarlsen won - game abandoned",
                WHITE_WINS,
                HowEnded::Abandoned,
            ),
            ("Game drawn by agreement", DRAW, HowEnded::Agreement),
            ("Game drawn by repetition", DRAW, HowEnded::Repetition),
            ("Game drawn by 50-move rule", DRAW, HowEnded::FiftyMoves),
            (
                "Game drawn by timeout vs insufficient material",
                DRAW,
                HowEnded::TimeForfeit,
            ),
            // The board's to tell, and words that contradict the result.
            (
                "MagnusCarlsen won by checkmate",
                WHITE_WINS,
                HowEnded::Unknown,
            ),
            ("Game drawn by stalemate", DRAW, HowEnded::Unknown),
            (
                "Game drawn by insufficient material",
                DRAW,
                HowEnded::Unknown,
            ),
            ("Game drawn by repetition", WHITE_WINS, HowEnded::Unknown),
            ("MagnusCarlsen won on time", DRAW, HowEnded::Unknown),
            ("3-fold rep", WHITE_WINS, HowEnded::Unknown),
            // The name is not the recorded winner's.
            ("Hikaru won on time", WHITE_WINS, HowEnded::Unknown),
            ("MagnusCarlsen won on time", BLACK_WINS, HowEnded::Unknown),
            // A player named "won" who won on time, and one who did not.
            ("won won on time", BLACK_WINS, HowEnded::TimeForfeit),
            ("won won on time", WHITE_WINS, HowEnded::Unknown),
        ];
        for (termination, result, want) in cases {
            let pgn = format!(
                "[White \"MagnusCarlsen\"]\n[Black \"won\"]\n[Termination \"{termination}\"]\n\n1. e4 *"
            );
            assert_eq!(ended(&pgn, BoardEnd::Open, result), want, "{termination}");
        }
    }

    #[test]
    fn reads_a_clock_at_zero_for_the_loser() {
        // Black (the loser) made the last move with no time left.
        let pgn = "1. e4 { [%clk 0:00:05] } 1... e5 { [%clk 0:00:00] } 1-0";
        assert_eq!(
            ended(pgn, BoardEnd::Open, WHITE_WINS),
            HowEnded::TimeForfeit
        );
        // The winner's clock at zero says nothing.
        let pgn = "1. e4 { [%clk 0:00:00] } 1... e5 { [%clk 0:00:03] } 1-0";
        assert_eq!(ended(pgn, BoardEnd::Open, WHITE_WINS), HowEnded::Unknown);
    }

    #[test]
    fn reads_closing_comments() {
        let cases = [
            (
                "1. e4 e5 {Black loses on time} 1-0",
                WHITE_WINS,
                HowEnded::TimeForfeit,
            ),
            (
                "1. e4 e5 1-0 {Black resigns}",
                WHITE_WINS,
                HowEnded::Resignation,
            ),
            // As the dortmund.pgn of pychess's tests writes it.
            (
                "1. e4 e5 {White oversteps the time limit in an equal position.} 0-1",
                Some(Some(KnownOutcome::Decisive {
                    winner: Color::Black,
                })),
                HowEnded::TimeForfeit,
            ),
            (
                "1. e4 e5 {White overstepped the time limit} 0-1",
                Some(Some(KnownOutcome::Decisive {
                    winner: Color::Black,
                })),
                HowEnded::TimeForfeit,
            ),
            (
                "1. e4 e5 {Draw by 3-fold repetition} 1/2-1/2",
                DRAW,
                HowEnded::Repetition,
            ),
            ("1. e4 e5 1-0", WHITE_WINS, HowEnded::Unknown),
            (
                "1. e4 e5 {pgn-arbiter: unwinnable-win-by-resignation: changed} 1-0",
                WHITE_WINS,
                HowEnded::Unknown,
            ),
            ("1. e4 e5 *", Some(None), HowEnded::Unterminated),
        ];
        for (pgn, result, want) in cases {
            assert_eq!(ended(pgn, BoardEnd::Open, result), want, "{pgn}");
        }
    }

    #[test]
    fn reads_clock_commands() {
        assert_eq!(clock_seconds(b"[%clk 0:00:00]"), Some(0));
        assert_eq!(clock_seconds(b" [%eval 0.3] [%clk 1:02:03.4] "), Some(3723));
        assert_eq!(clock_seconds(b"[%clk 0:03]"), Some(3));
        assert_eq!(clock_seconds(b"[%clk x]"), None);
        assert_eq!(clock_seconds(b"no clock"), None);
        assert_eq!(clock_tenths(b"[%clk 1:02:03.45]"), Some(37_234));
        assert_eq!(clock_tenths(b"{[%clk 0:00:09.9]}"), Some(99));
        assert_eq!(clock_tenths(b"[%clk 0:15:10]"), Some(9_100));
        for broken in [
            &b"[%clk 1:2:3:4]"[..],
            b"[%clk 12345:00]",
            b"[%clk 12]",
            b"[%clk 1::2]",
            b"[%clk 0:00.]",
            b"[%clk 0:00.5.1]",
        ] {
            assert_eq!(clock_tenths(broken), None, "{broken:?}");
        }
        // Times taken: seconds as FICS writes them too, rounded.
        assert_eq!(elapsed_tenths(b"[%emt 1.337]"), Some(13));
        assert_eq!(elapsed_tenths(b"[%emt 0.0]"), Some(0));
        assert_eq!(elapsed_tenths(b"[%emt 0.96]"), Some(10));
        assert_eq!(elapsed_tenths(b"[%emt 0:00:05]"), Some(50));
        assert_eq!(elapsed_tenths(b"[%emt 1:02:03.45]"), Some(37_235));
        assert_eq!(elapsed_tenths(b"[%clk 0:00:05]"), None);
        assert_eq!(clock_tenths(b"[%emt 0:00:05]"), None);
        // One pass: a clock first, wherever it stands; else the time taken.
        use crate::read::comments::{Reading, reading};
        assert_eq!(
            reading(b"[%emt 0:00:05] [%clk 0:01:00]"),
            Some(Reading::Clock(600))
        );
        assert_eq!(reading(b"50% [%emt 1.25]"), Some(Reading::Elapsed(13)));
        assert_eq!(
            reading(b"[%eval 0.3] [%clk 1:00]"),
            Some(Reading::Clock(600))
        );
        assert_eq!(reading(b"[%clk x] [%emt 5]"), None);
        assert_eq!(reading(b"100%"), None);
        for text in [&b"[%clk 1:02:03.45]"[..], b"{[%clk 0:00:09.9]}", b"no"] {
            assert_eq!(
                reading(text).and_then(|r| match r {
                    Reading::Clock(t) => Some(t),
                    Reading::Elapsed(_) => None,
                }),
                clock_tenths(text)
            );
        }
    }
}
