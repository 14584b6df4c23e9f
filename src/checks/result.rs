//! The result: present in the Result tag and as the termination marker,
//! the two the same (PGN 8.2.6), and what the board requires after mate,
//! stalemate or a dead position (FIDE 2023 5.1.1, 5.2.1, 5.2.2).

use shakmaty::{Chess, KnownOutcome, Outcome, Position};

use super::{BoardEnd, result_str};
use crate::{
    finding::{Finding, Kind},
    game::RawGame,
    replay,
};

fn parse(value: &[u8]) -> Option<Outcome> {
    match value {
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" => std::str::from_utf8(value).ok()?.parse().ok(),
        _ => None,
    }
}

fn outcome_str(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Known(known) => result_str(known),
        Outcome::Unknown => "*",
    }
}

/// `board` is the final position with what it shows, when the game was
/// replayed to its end.
pub fn check(
    game: &RawGame<'_>,
    board: Option<(&Chess, BoardEnd, Option<KnownOutcome>)>,
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
            .citing("PGN 8.1.1"),
        ),
        Some(_) if marker.is_none() => findings.push(Finding::new(
            Kind::MissingResult,
            game.line,
            "The movetext does not end with a game termination marker (1-0, 0-1, 1/2-1/2 or *)."
                .to_owned(),
        )),
        Some(_) => {}
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
                outcome_str(tagged),
                outcome_str(marker.outcome)
            ),
        ));
    }

    let Some((pos, board_end, Some(expected))) = board else {
        return;
    };
    // The recorded result: the Result tag, else the marker.
    let (recorded, line) = match (tag_outcome, marker) {
        (Some((index, o)), _) => (o, game.tag_line(index)),
        (None, Some(m)) => (m.outcome, m.line),
        (None, None) => return,
    };
    if recorded == Outcome::Known(expected) {
        return;
    }
    let (kind, what) = match board_end {
        BoardEnd::Checkmate => (
            Kind::ResultContradictsCheckmate,
            format!("{} is checkmated", replay::side(pos.turn())),
        ),
        BoardEnd::Stalemate => (
            Kind::ResultContradictsStalemate,
            format!("{} is stalemated", replay::side(pos.turn())),
        ),
        BoardEnd::DeadPosition => (
            Kind::ResultContradictsDeadPosition,
            "neither side has the material to checkmate (dead position)".to_owned(),
        ),
        _ => return,
    };
    findings.push(
        Finding::new(
            kind,
            line,
            format!(
                "In the final position {what}, so the result must be {}, but it is recorded as {}.",
                result_str(expected),
                outcome_str(recorded)
            ),
        )
        .with_fen(replay::fen(pos)),
    );
}
