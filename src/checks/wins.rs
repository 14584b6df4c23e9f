//! Wins the winner could not have earned: a lone king (FIDE 1994 10.5), a
//! flag fall (2023 6.9; 2000 6.10) or a resignation (2023 5.1.2) against a
//! side that cannot mate, a win with no recorded reason; and, when neither
//! side can mate, a dead position beyond material (5.2.2).

use shakmaty::{Chess, Color, KnownOutcome};

use super::{
    Judging,
    ending::HowEnded,
    result_str,
    winnable::{self, Search, Winnability},
};
use crate::{
    finding::{Finding, Kind},
    game::RawGame,
    replay,
    rules::{Article, Edition},
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
        _ if bare => Kind::BareKingWin,
        HowEnded::TimeForfeit if edition != Edition::Fide1994 => Kind::UnwinnableWinOnTime,
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
    if winnable::winnability(pos, !winner, Search::Fast) == Winnability::Unwinnable {
        return Unearned::Dead;
    }
    // The recorded result's line: the Result tag, else the marker.
    let line = match game.tags.find("Result") {
        Some((index, _)) => game.tag_line(index),
        None => game.lexed.marker.map_or(game.line, |m| m.line),
    };
    let w = replay::side(winner);
    let l = replay::side(!winner);
    let score = result_str(KnownOutcome::Decisive { winner });
    let (rule, message) = match kind {
        Kind::BareKingWin => (
            edition.cite(Article::BareKing),
            format!(
                "{w} is recorded as the winner ({score}) with only a king left, and a lone king can never win; the game is a draw."
            ),
        ),
        Kind::UnwinnableWinOnTime => (
            edition.cite(Article::FlagFall),
            format!(
                "{l} lost on time, but {w} cannot checkmate by any series of legal moves from the final position, so the game is a draw, not {score}."
            ),
        ),
        Kind::UnwinnableWinByResignation => (
            kind.rule(),
            format!(
                "{l} resigned in a position where {w} cannot checkmate by any series of legal moves, so the game is a draw, not {score}."
            ),
        ),
        _ => (
            kind.rule(),
            format!(
                "The record does not say how the game ended, and {w}, the recorded winner ({score}), cannot checkmate by any series of legal moves from the final position."
            ),
        ),
    };
    findings.push(
        Finding::new(kind, line, message)
            .citing(rule)
            .with_fen(replay::fen(pos)),
    );
    Unearned::Yes
}
