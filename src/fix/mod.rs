//! `--fix`: a game written back with the corrections its findings justify
//! and nothing else, each change explained by a `{pgn-arbiter: CODE: what
//! changed}` comment, so that a diff of the input and the copy explains
//! itself.
//!
//! What is corrected, and on which findings:
//!
//! - The result, where the board or the Laws decide it ([`checks::Verdict`]'s
//!   `expected`: mate, stalemate, a dead position, fivefold, 75 moves, a win
//!   on time or by resignation the winner could not earn, a lone king's
//!   win under 1994): the Result tag and the termination marker both say it.
//!   A missing Result tag or marker is added from the other (`*` when both
//!   are missing). A Result tag and marker that merely differ, with nothing
//!   on the board to decide between them, are left for the arbiter.
//! - Moves recorded after an automatic end (`played-past-*`): removed, a
//!   comment in their place that lists them; a comment among them that
//!   accepts findings (`checks::suppress`) is kept.
//! - Missing Seven Tag Roster tags: added as `?` (`????.??.??` for Date),
//!   after the roster tag before them.
//! - PlyCount: set to the plies recorded, when it is wrong or the moves
//!   after an automatic end were removed.
//! - Moves not in standard SAN, and wrong `+` or `#`: written in standard
//!   SAN, the comment after the move saying how it was written.
//!
//! A game whose moves cannot be replayed (an illegal, ambiguous or
//! unreadable move, a starting position that is not legal) keeps its
//! movetext as written, with a comment on the move that stops the replay;
//! missing tags are still added, as they do not depend on the moves.
//! Every byte outside an edit is the input's own: comments, NAGs and
//! variations of the game survive, and a Latin-1 file stays Latin-1 (the
//! comments written are ASCII).

use crate::{
    checks::{self, BoardEnd, Verdict},
    finding::{Finding, Fix, Kind},
    read::game::RawGame,
};

mod edit;
mod moves;
mod result;
mod tags;

pub use self::edit::{Change, Fixed};
use self::{edit::*, moves::*, result::*, tags::*};

/// The codes whose findings `--fix` corrects wherever they are found,
/// except in games whose moves cannot be replayed (which keep their
/// movetext): [`Fix::Always`] and [`Fix::BoardResult`] in the kinds table.
/// Auditing a copy finds none of them elsewhere, as
/// `tests/integration/fix.rs` checks.
pub fn fixed() -> impl Iterator<Item = Kind> {
    Kind::ALL
        .iter()
        .copied()
        .filter(|k| matches!(k.fix(), Fix::Always | Fix::BoardResult(_)))
}

/// Writes the game to `out` with its corrections. Only findings whose
/// kind `keep` accepts (the report's selection) justify a change.
pub fn rewrite(
    game: &RawGame<'_>,
    verdict: &Verdict,
    findings: &[Finding],
    keep: &dyn Fn(Kind) -> bool,
    out: &mut Vec<u8>,
) -> Fixed {
    // Bytes with no tag and no move (a Ctrl-Z at the end of a file, a bare
    // `*`) are no game to correct: they are copied as they are, never
    // dressed up with tags and a result.
    if game.tags.is_empty() && game.lexed.sans.is_empty() {
        out.extend_from_slice(game.bytes);
        return Fixed::default();
    }
    let has = |kind: Kind| keep(kind) && findings.iter().any(|f| f.kind == kind);
    let mut fix = Rewrite::new(game);
    let sans = &game.lexed.sans;
    let cut = automatic_end(verdict, &has);
    let kept = cut.map_or(sans.len(), |(at, _)| at);
    // Where the moves removed begin: a comment or variation left open
    // after it goes with them.
    let removed_from = cut
        .and_then(|(at, _)| sans.get(at))
        .map(|t| before_number(game.bytes, t.start));
    let open = Open::of(game, removed_from);

    let mut tags_added = if has(Kind::MissingTag) {
        missing_roster(game)
    } else {
        Vec::new()
    };
    // A record that stops before its end keeps its PlyCount and result:
    // nothing in it says how the game ended.
    let truncated = checks::truncated(game, verdict.board_end.decides()).is_some();
    let result = if truncated {
        fix.say_truncated(&has);
        ResultTargets {
            tag: None,
            marker: None,
        }
    } else {
        result_targets(game, verdict, findings, &has, open)
    };
    if let Some((_, Some(value))) = result.tag
        && game.tags.find("Result").is_none()
    {
        tags_added.push(("Result", value));
    }
    fix.add_roster(&tags_added);

    // PlyCount, when wrong or when moves are removed.
    if !truncated && (has(Kind::PlyCountMismatch) || cut.is_some()) {
        let kind = if has(Kind::PlyCountMismatch) {
            Kind::PlyCountMismatch
        } else {
            cut.map_or(Kind::PlyCountMismatch, |(_, k)| k)
        };
        fix.ply_count(kept, kind);
    }

    // The result: the Result tag and the termination marker.
    result_edits(&mut fix, &result, verdict);

    // Quotes inside tag values, escaped as PGN 8.1 writes them (where the
    // value is not replaced by an edit above).
    if has(Kind::NonStandardTag) {
        escape_inner_quotes(&mut fix);
    }

    correct_moves(&mut fix, verdict, findings, cut, &has);
    fix.write_head();

    let expect = Expect {
        marker: result.marker.map(|(_, value)| value),
        open: open.comment,
        tags: game.tags.len() + tags_added.len(),
    };
    if !fix.apply(out, &expect) {
        return Fixed::default();
    }
    fix.changes.sort_by_key(|c| c.line);
    Fixed {
        changes: fix.changes,
    }
}

/// Where the moves that count end, when the game ended by itself
/// (fivefold, 75 moves, a dead position) and moves were recorded after
/// that: the plies kept, and the finding that says so.
fn automatic_end(verdict: &Verdict, has: &dyn Fn(Kind) -> bool) -> Option<(usize, Kind)> {
    let played_past = [
        Kind::PlayedPastFivefold,
        Kind::PlayedPastSeventyFiveMoves,
        Kind::PlayedPastDeadPosition,
    ]
    .into_iter()
    .find(|&k| has(k));
    verdict.ended_at.zip(played_past)
}

/// The moves: standard SAN, or a comment where the replay stops; then the
/// moves after an automatic end (`cut`) removed.
fn correct_moves(
    fix: &mut Rewrite<'_, '_>,
    verdict: &Verdict,
    findings: &[Finding],
    cut: Option<(usize, Kind)>,
    has: &dyn Fn(Kind) -> bool,
) {
    let kept = cut.map_or(fix.game.lexed.sans.len(), |(at, _)| at);
    let replayable = !matches!(
        verdict.board_end,
        BoardEnd::NotReplayed | BoardEnd::IllegalMove
    ) || cut.is_some();
    if replayable {
        if has(Kind::NonStandardSan) || has(Kind::WrongCheckSuffix) {
            standard_moves(fix, kept, &verdict.corrections, has);
        }
    } else {
        mark_stop(fix, verdict, findings);
    }
    if let Some((at, kind)) = cut {
        fix.remove_moves(at, kind);
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position};

    use crate::{checks::Judging, read::listed::MAX_LISTED};

    /// Every move written in squares (`g1f3`) is written back in standard
    /// SAN, past the first `MAX_LISTED` that the findings list.
    #[test]
    fn every_long_move_is_corrected_past_the_listed_ones() {
        let mut pos = Chess::default();
        let mut movetext = String::new();
        let mut plies = 0;
        while plies < 3 * MAX_LISTED && !pos.is_game_over() && !pos.is_insufficient_material() {
            let legal = pos.legal_moves();
            // Quiet moves first, so that the game lasts.
            let m = *legal
                .iter()
                .find(|m| !m.is_capture() && plies % 7 != 3)
                .unwrap_or(&legal[(plies * 5) % legal.len()]);
            if plies % 2 == 0 {
                movetext.push_str(&format!("{}. ", plies / 2 + 1));
            }
            movetext.push_str(&format!("{} ", m.to_uci(CastlingMode::Standard)));
            pos.play_unchecked(m);
            plies += 1;
        }
        assert!(plies > 2 * MAX_LISTED, "{plies} plies: {movetext}");
        let pgn = format!("[Event \"Long\"]\n[Result \"*\"]\n\n{movetext}*\n");
        let (copy, games, _) = crate::fix_bytes(pgn.as_bytes(), Judging::default()).unwrap();
        assert_eq!(games, 1);
        let copy = String::from_utf8(copy).unwrap();
        let said = copy.matches("pgn-arbiter: non-standard-san").count();
        let (findings, _, _) =
            crate::audit_bytes(copy.as_bytes(), Judging::default(), false).unwrap();
        let findings = String::from_utf8(findings).unwrap();
        assert!(
            !findings.contains(",non-standard-san,"),
            "{findings}\n{copy}"
        );
        // Pawn moves written in squares read as long notation too: every
        // ply is one change.
        assert_eq!(said, plies, "{copy}");
    }
}
