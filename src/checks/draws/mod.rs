//! Draw rules as an arbiter applies them to a record: claims that were
//! possible and not made (threefold repetition, FIDE 2023 9.2, 1994 10.10;
//! fifty moves, 9.3, 1994 10.12) and moves recorded after the game had
//! already ended by itself (fivefold 9.6.1, 75 moves 9.6.2, dead position
//! 5.2.2).

pub mod history;

use shakmaty::{Color, Position};

use crate::{
    board::replay::{self, Replay},
    board::rules::Article,
    checks::draws::history::{Claim, ClaimKind, EndKind, History},
    finding::{Finding, Kind, MoveRef, counted},
    read::game::RawGame,
};

/// "ply 12 and ply 16", "the start and ply 4".
pub(crate) fn plies(indices: &[usize]) -> String {
    let names: Vec<String> = indices
        .iter()
        .map(|&i| {
            if i == 0 {
                "the start".to_owned()
            } else {
                format!("ply {i}")
            }
        })
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The move that led to position `index` (its ply is `index`), as recorded.
fn recorded_move(
    game: &RawGame<'_>,
    index: usize,
    after_turn: Color,
    fullmoves_after: u32,
) -> Option<(MoveRef, u64)> {
    let token = game.lexed.sans.get(index.checked_sub(1)?)?;
    // The mover is the side not to move after it; Black's move ends a
    // fullmove.
    let number = match after_turn {
        Color::Black => replay::number_label(Color::White, fullmoves_after),
        Color::White => replay::number_label(Color::Black, fullmoves_after.saturating_sub(1)),
    };
    Some((
        MoveRef {
            ply: u32::try_from(index).unwrap_or(u32::MAX),
            number,
            san: game.text(token.start, token.end),
        },
        token.line,
    ))
}

/// Where a finding about position `index` points: the move that led to it,
/// or the game's first move line for the start position.
fn at_position(
    game: &RawGame<'_>,
    index: usize,
    turn: Color,
    fullmoves: u32,
) -> (Option<MoveRef>, u64) {
    match recorded_move(game, index, turn, fullmoves) {
        Some((mv, line)) => (Some(mv), line),
        None => (None, game.lexed.sans.first().map_or(game.line, |t| t.line)),
    }
}

/// Adds the draw findings of a replayed game.
pub fn check(
    game: &RawGame<'_>,
    replayed: &Replay,
    history: &History,
    findings: &mut Vec<Finding>,
) {
    // The last position reached; moves after an automatic end still count
    // here as "recorded after it".
    let last = replayed.plies;
    let end_index = history.end.as_ref().map_or(usize::MAX, |e| e.index);

    if let Some(claim) = &history.threefold
        && claim.index < end_index
        && went_on(claim, last, history.count_at(last) >= 3)
    {
        findings.push(unclaimed(game, claim, last, true));
    }
    if let Some(claim) = &history.fifty
        && claim.index < end_index
        && went_on(claim, last, replayed.end.halfmoves() >= 100)
    {
        findings.push(unclaimed(game, claim, last, false));
    }

    let Some(end) = &history.end else {
        return;
    };
    if end.index >= last {
        return;
    }
    let after = last - end.index;
    let (mv, line) = at_position(game, end.index, end.turn, end.fullmoves);
    let at = match &mv {
        Some(m) => format!("after {}{}", m.number, m.san),
        None => "at the start".to_owned(),
    };
    let (kind, article, what) = match end.kind {
        EndKind::Fivefold => (
            Kind::PlayedPastFivefold,
            Article::Fivefold,
            format!(
                "The position {at} occurred for the fifth time (before at {})",
                plies(&end.earlier)
            ),
        ),
        EndKind::SeventyFive => (
            Kind::PlayedPastSeventyFiveMoves,
            Article::SeventyFive,
            format!("{at}, each player had made 75 moves without a capture or pawn move")
                .replacen('a', "A", 1),
        ),
        EndKind::DeadPosition => (
            Kind::PlayedPastDeadPosition,
            Article::DeadPosition,
            format!("{at}, neither side has the material to checkmate (dead position)")
                .replacen('a', "A", 1),
        ),
    };
    let mut finding = Finding::new(
        kind,
        line,
        format!(
            "{what}, which ends the game as a draw; what is recorded after it ({}) does not count.",
            counted(after, "ply", "plies")
        ),
    )
    .citing(article)
    .with_fen(replay::fen(&end.position));
    if let Some(mv) = mv {
        finding = finding.at_move(mv);
    }
    findings.push(finding);
}

/// Whether play went on past a claim point without the claim being made.
/// One policy for both claims: a claim "by intention" is made by writing
/// down the move that completes the repetition or the fifty moves, so a
/// record that ends with that move (`completed`: the last position repeats
/// for the third time, or has a halfmove clock of 100) shows the claim; a
/// record that ends with any other move, or goes on longer, went on.
fn went_on(claim: &Claim, last: usize, completed: bool) -> bool {
    match claim.kind {
        ClaimKind::Just => last > claim.index,
        ClaimKind::About(_) => last > claim.index + 1 || (last == claim.index + 1 && !completed),
    }
}

fn unclaimed(game: &RawGame<'_>, claim: &Claim, last: usize, threefold: bool) -> Finding {
    let who = replay::side(claim.claimant);
    let more = last - claim.index;
    let (kind, about, just) = if threefold {
        (
            Kind::UnclaimedThreefold,
            Article::ThreefoldAbout,
            Article::ThreefoldJust,
        )
    } else {
        (
            Kind::UnclaimedFiftyMoves,
            Article::FiftyAbout,
            Article::FiftyJust,
        )
    };
    let rule_name = if threefold {
        "threefold repetition"
    } else {
        "the 50-move rule"
    };
    match &claim.kind {
        ClaimKind::Just => {
            let (mv, line) = at_position(game, claim.index, claim.claimant, claim.fullmoves);
            let at = match &mv {
                Some(m) => format!("after {}{}", m.number, m.san),
                None => "at the start".to_owned(),
            };
            let why = if threefold {
                format!(
                    "the position {at} occurred for the third time (before at {})",
                    plies(&claim.earlier)
                )
            } else {
                format!("{at} each player had made 50 moves without a capture or pawn move")
            };
            let mut f = Finding::new(
                kind,
                line,
                format!(
                    "{who} could have claimed a draw by {rule_name}: {why}; the game went on for {}.", counted(more, "more ply", "more plies")
                ),
            )
            .citing(just)
            .with_fen(replay::fen(&claim.position));
            if let Some(mv) = mv {
                f = f.at_move(mv);
            }
            f
        }
        ClaimKind::About(san) => {
            let number = replay::number_label(claim.claimant, claim.fullmoves);
            let line = game
                .lexed
                .sans
                .get(claim.index)
                .or(game.lexed.sans.last())
                .map_or(game.line, |t| t.line);
            let why = if threefold {
                format!(
                    "by writing down {number}{san}, which makes the position of {} occur for the third time",
                    plies(&claim.earlier)
                )
            } else {
                format!(
                    "by writing down {number}{san}, which completes 50 moves of each player without a capture or pawn move"
                )
            };
            Finding::new(
                kind,
                line,
                format!(
                    "{who} could have claimed a draw by {rule_name} {why}; the game went on for {}.", counted(more, "more ply", "more plies")
                ),
            )
            .citing(about)
            .at_move(MoveRef {
                ply: u32::try_from(claim.index + 1).unwrap_or(u32::MAX),
                number,
                san: san.clone(),
            })
            .with_fen(replay::fen(&claim.position))
        }
    }
}
