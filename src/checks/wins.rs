//! Wins the winner could not have earned: a lone king (FIDE 1994 10.5), a
//! flag fall (2023 6.9; 2000 6.9) or a resignation (2023 5.1.2) against a
//! side that cannot mate, a win with no recorded reason; and, when neither
//! side can mate, a dead position beyond material (5.2.2).
//!
//! A lone king's win: under 1994 it never stands (10.5). Under 2000 and
//! 2023 a lone king can win a game its opponent forfeits (2023: a phone in
//! the playing area, 11.3.2.2; not arriving, 6.7) but not every forfeit
//! (2023: illegal moves against a side that cannot mate, 7.5.5; a flag fall,
//! 6.9). A flag fall and a resignation are judged as any unearned win; any
//! other end (a forfeit, an adjudication, no recorded cause) cannot be
//! judged from the record and is a warning that names both sides of it.

use shakmaty::{Chess, Color, KnownOutcome};

use super::{ending::HowEnded, time_control::Period, verdict::Judging};
use crate::{
    board::replay,
    board::rules::{Article, Edition, Source},
    board::winnable::{self, Search, Winnability},
    finding::{Finding, Kind},
    read::game::RawGame,
};

/// Whether a decisive result was earned on the board.
pub enum Unearned {
    /// Nothing proves otherwise.
    No,
    /// The winner could not mate: a finding was added.
    Yes,
    /// Neither side could mate: the position is dead.
    Dead,
}

/// Whether the game is one the 1994 appendix on rapid chess governs: all
/// its moves in 60 or 30 minutes a player (its Art. 1), as the
/// TimeControl states it (`3600`, `1800`, `60 min`).
fn rapid(game: &RawGame<'_>) -> bool {
    let periods = super::time_control::of_game(game);
    matches!(
        periods.as_deref(),
        Some([Period { moves: None, base, increment }])
            if (*base == 1800.0 || *base == 3600.0) && *increment == 0.0
    )
}

/// A decisive result not ended by mate: can the recorded winner still mate
/// (FIDE 2023 6.9 on time, 5.1.2 on resignation; 1994 10.5 for a lone
/// king)? If neither side can, the position is dead (5.2.2).
pub fn unearned(
    game: &RawGame<'_>,
    pos: &Chess,
    winner: Color,
    how_ended: HowEnded,
    judging: Judging,
    findings: &mut Vec<Finding>,
) -> Unearned {
    let edition = judging.edition;
    let bare = winnable::bare_king(pos, winner);
    let kind = match how_ended {
        _ if bare && edition == Edition::Fide1994 => Kind::BareKingWin,
        _ if bare && !matches!(how_ended, HowEnded::TimeForfeit | HowEnded::Resignation) => {
            Kind::BareKingForfeitWin
        }
        HowEnded::TimeForfeit if edition != Edition::Fide1994 || rapid(game) => {
            Kind::UnwinnableWinOnTime
        }
        HowEnded::Resignation if edition == Edition::Fide2023 => Kind::UnwinnableWinByResignation,
        HowEnded::Unknown if edition != Edition::Fide1994 => Kind::UnexplainedWinUnwinnable,
        _ => return Unearned::No,
    };
    // The quick sound check for every decisive game where the winner has no
    // queen and no rook, and for every game lost on time; the complete
    // analysis where a flag fell and the winner has no queen and no rook
    // (`--winnability all`: every game lost on time). With a queen or rook a
    // mate is as good as always possible, and searching for it in every
    // game would cost more than the rest of the audit.
    let light = winnable::only_minor_pieces_and_pawns(pos, winner);
    let search = match (how_ended == HowEnded::TimeForfeit, judging.search) {
        (true, Search::All) => Some(Search::All),
        (true, Search::Full) if light => Some(Search::Full),
        (true, _) => Some(Search::Fast),
        (false, _) if light => Some(Search::Fast),
        (false, _) => None,
    };
    let unwinnable = bare
        || search.is_some_and(|search| {
            winnable::winnability(pos, winner, search) == Winnability::Unwinnable
        });
    if !unwinnable {
        return Unearned::No;
    }
    // Neither side can mate: a dead position, where the edition says so by
    // the material (the 1994 Laws count only the 10.4 list, which the
    // board has already looked for).
    if edition != Edition::Fide1994
        && winnable::winnability(pos, !winner, Search::Fast) == Winnability::Unwinnable
    {
        return Unearned::Dead;
    }
    // The recorded result's line: the Result tag, else the marker.
    let line = match game.tags.find("Result") {
        Some((index, _)) => game.tag_line(index),
        None => game.lexed.marker.map_or(game.line, |m| m.line),
    };
    let w = replay::side(winner);
    let l = replay::side(!winner);
    let score = KnownOutcome::Decisive { winner }.as_str();
    let message = match kind {
        Kind::BareKingWin => format!(
            "{w} is recorded as the winner ({score}) with only a king left, and a lone king can never win; the game is a draw."
        ),
        Kind::BareKingForfeitWin => {
            let how = match how_ended {
                HowEnded::Unknown => "The record does not say how the game ended".to_owned(),
                other => format!("The game ended by {}", other.as_str().replace('-', " ")),
            };
            let laws = match edition {
                Edition::Fide2023 => {
                    "Under the 2023 Laws such a win stands for some forfeits (a phone in the playing area, 11.3.2.2; not arriving, 6.7) and falls for others (illegal moves against a side that cannot mate, 7.5.5; a flag fall, 6.9)"
                }
                _ => "A lone king cannot mate (2000 1.2), so such a win can only be a forfeit",
            };
            format!(
                "{w} is recorded as the winner ({score}) with only a king left. {how}. {laws}; the record does not say which, so the arbiter's decision should be checked."
            )
        }
        Kind::UnwinnableWinOnTime => format!(
            "{l} lost on time, but {w} cannot checkmate by any series of legal moves from the final position, so the game is a draw, not {score}."
        ),
        Kind::UnwinnableWinByResignation => format!(
            "{l} resigned in a position where {w} cannot checkmate by any series of legal moves, so the game is a draw, not {score}."
        ),
        _ => format!(
            "The record does not say how the game ended, and {w}, the recorded winner ({score}), cannot checkmate by any series of legal moves from the final position."
        ),
    };
    let mut finding = Finding::new(kind, line, message).with_fen(replay::fen(pos));
    if kind == Kind::UnwinnableWinOnTime && edition == Edition::Fide1994 {
        finding = finding.citing(Source::Law(Article::RapidFlagFall));
    }
    findings.push(finding);
    // A forfeit may stand: the result is not known to be wrong.
    if kind == Kind::BareKingForfeitWin {
        return Unearned::No;
    }
    Unearned::Yes
}

#[cfg(test)]
mod tests {
    /// The 1994 appendix governs games of 60 or 30 minutes a player for
    /// all moves, and no others.
    #[test]
    fn rapid_games_are_those_of_60_or_30_minutes_for_all_moves() {
        for (control, rapid) in [
            ("1800", true),
            ("3600", true),
            ("60 min", true),
            ("1800+0", true),
            ("1800+10", false),
            ("900", false),
            ("5400", false),
            ("40/3600", false),
            ("40/7200:1800", false),
            ("?", false),
        ] {
            let pgn = format!("[TimeControl \"{control}\"]\n\n1. e4 *");
            let game = crate::testing::game(pgn);
            assert_eq!(super::rapid(&game.raw()), rapid, "{control}");
        }
        assert!(!super::rapid(&crate::testing::game("1. e4 *").raw()));
    }
}
