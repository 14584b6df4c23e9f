//! The result: present in the Result tag and as the termination marker,
//! the two the same (PGN 8.2.6), and what the board requires after mate,
//! stalemate or a dead position (FIDE 2023 5.1.1, 5.2.1, 5.2.2).

use shakmaty::Outcome;

use super::verdict::{BoardEnd, Decided};
use crate::{
    board::replay,
    finding::{Finding, Kind},
    read::{game::RawGame, outcome::parse},
};

/// Whether a game with no termination marker says that moves are missing
/// (a file cut short, a copy that lost its end): the line to report and
/// why. PlyCount stating more plies than recorded, or a move number with
/// no move after it. A comment or variation left open is
/// `unterminated-comment` or an oddity, not this; and a game the board
/// `decided` (mate, stalemate, an automatic draw) ended there, whatever
/// the record holds after it.
pub fn truncated(game: &RawGame<'_>, decided: bool) -> Option<(u64, String)> {
    let lexed = game.lexed;
    if decided || lexed.marker.is_some() || lexed.unterminated_comment.is_some() {
        return None;
    }
    let recorded = lexed.sans.len();
    if let Some(&(index, number, line)) = lexed.numbers.last()
        && index == recorded
        && lexed.stop.is_none()
    {
        return Some((line, format!("move number {number} has no move after it")));
    }
    let (index, value) = game.tags.find("PlyCount")?;
    let stated: usize = std::str::from_utf8(value).ok()?.trim().parse().ok()?;
    (stated > recorded && lexed.stop.is_none()).then(|| {
        (
            game.tag_line(index),
            format!("PlyCount says {stated} plies where {recorded} are recorded"),
        )
    })
}

/// `decided` is how the board decided the game by the Laws, when it did;
/// `ended`, whether the board ended it (by the Laws or by a variant's own
/// rules, which judge its result themselves).
pub fn check(
    game: &RawGame<'_>,
    decided: Option<&Decided>,
    ended: bool,
    findings: &mut Vec<Finding>,
) {
    let tag = game.tags.find("Result");
    let marker = game.lexed.marker;
    match tag {
        None => findings.push(
            Finding::new(
                Kind::MissingResult,
                game.line,
                "The game has no Result tag.".to_owned(),
            )
            .citing(crate::board::rules::Source::Pgn("PGN 8.1.1")),
        ),
        Some(_) if marker.is_none() && truncated(game, ended).is_none() => {
            findings.push(Finding::new(
                Kind::MissingResult,
                game.line,
                "The movetext does not end with a game termination marker (1-0, 0-1, 1/2-1/2 or *)."
                    .to_owned(),
            ));
        }
        Some(_) => {}
    }
    if marker.is_none()
        && let Some((line, why)) = truncated(game, ended)
    {
        findings.push(Finding::new(
            Kind::TruncatedGame,
            line,
            format!("The movetext ends with no game termination marker and {why}, so the record stops before the game's end: its result cannot be read from it."),
        ));
    }
    let tag_outcome = tag.and_then(|(i, v)| parse(v).map(|o| (i, o)));
    if let (Some((index, tagged)), Some(marker)) = (tag_outcome, marker)
        && tagged != marker.outcome
    {
        findings.push(Finding::new(
            Kind::ResultMismatch,
            game.tag_line(index),
            format!(
                "The Result tag says {} but the movetext ends with {}.",
                tagged.as_str(),
                marker.outcome.as_str()
            ),
        ));
    }

    // The recorded result: the Result tag, else the marker.
    let recorded = match (tag_outcome, marker) {
        (Some((index, o)), _) => Some((o, game.tag_line(index))),
        (None, Some(m)) => Some((m.outcome, m.line)),
        (None, None) => None,
    };
    if let (Some(decided), Some(recorded)) = (decided, recorded) {
        against_board(decided, recorded, findings);
    }
}

/// `result-contradicts-*`: the `recorded` result (and its line) against
/// the one the board `decided`.
fn against_board(decided: &Decided, recorded: (Outcome, u64), findings: &mut Vec<Finding>) {
    let (recorded, line) = recorded;
    if recorded == Outcome::Known(decided.expected) {
        return;
    }
    let side = replay::side(decided.turn);
    let (kind, what) = match decided.end {
        BoardEnd::Checkmate => (
            Kind::ResultContradictsCheckmate,
            format!("in the final position {side} is checkmated"),
        ),
        BoardEnd::Stalemate => (
            Kind::ResultContradictsStalemate,
            format!("in the final position {side} is stalemated"),
        ),
        BoardEnd::DeadPosition => (
            Kind::ResultContradictsDeadPosition,
            "the game reached a position where neither side can checkmate by any series of legal moves (dead position)".to_owned(),
        ),
        BoardEnd::Fivefold => (
            Kind::ResultContradictsFivefold,
            "the game ended by itself when a position occurred for the fifth time".to_owned(),
        ),
        BoardEnd::SeventyFiveMoves => (
            Kind::ResultContradictsSeventyFiveMoves,
            "the game ended by itself after 75 moves of each player without a capture or pawn move".to_owned(),
        ),
        _ => return,
    };
    let mut what = what;
    if let Some(first) = what.get(..1) {
        what = first.to_uppercase() + what.get(1..).unwrap_or_default();
    }
    findings.push(
        Finding::new(
            kind,
            line,
            format!(
                "{what}, so the result must be {}, but it is recorded as {}.",
                decided.expected.as_str(),
                recorded.as_str()
            ),
        )
        .citing(decided.rule)
        .with_fen(replay::fen(&decided.position)),
    );
}
