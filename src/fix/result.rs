//! The result: what the Result tag and the termination marker should say,
//! and the edits that make them say it.

use crate::{
    checks::{BoardEnd, Verdict},
    finding::{Finding, Kind},
    read::outcome,
    read::{
        game::{RawGame, excerpt},
        lexer,
    },
};

use super::edit::*;

/// What the copy leaves open at its end: a comment (`{` never closed) or a
/// variation (`(` never closed), unless it is among the moves removed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Open {
    pub(super) comment: bool,
    pub(super) variation: bool,
}

impl Open {
    pub(super) fn of(game: &RawGame<'_>, removed_from: Option<usize>) -> Open {
        let kept = |at: usize| removed_from.is_none_or(|from| at < from);
        let lexed = game.lexed;
        Open {
            comment: lexed.unterminated_comment.is_some() && kept(lexed.unterminated_comment_at),
            variation: lexed
                .odd
                .listed()
                .iter()
                .any(|o| o.what == lexer::Oddity::UnclosedVariation && kept(o.start)),
        }
    }
}

/// What the Result tag and the marker should say, with the finding that
/// justifies each; `None` leaves it as it is.
pub(super) struct ResultTargets {
    pub(super) tag: Option<(Kind, Option<&'static str>)>,
    pub(super) marker: Option<(Kind, &'static str)>,
}

impl Rewrite<'_, '_> {
    /// The comment on a record that stops before its end: its PlyCount and
    /// result are left as written (once; a fixed copy has it already).
    pub(super) fn say_truncated(&mut self, has: &dyn Fn(Kind) -> bool) {
        let game = self.game;
        if has(Kind::TruncatedGame) && !said_before(game.bytes, Kind::TruncatedGame) {
            let what = "the record stops before the game's end, so its PlyCount and result are left as written".to_owned();
            let text = self.change(Kind::TruncatedGame, game.line, what);
            self.head.push(text);
        }
    }
}

pub(super) fn result_targets(
    game: &RawGame<'_>,
    verdict: &Verdict,
    findings: &[Finding],
    has: &dyn Fn(Kind) -> bool,
    open: Open,
) -> ResultTargets {
    let tag = game.tags.get("Result");
    let tag_valid = tag.and_then(outcome::parse);
    let marker = game.lexed.marker.map(|m| m.outcome);
    // A win with no recorded cause may be a forfeit: its result is the
    // arbiter's to decide.
    let unexplained = findings
        .iter()
        .any(|f| f.kind == Kind::UnexplainedWinUnwinnable);
    let decided = verdict
        .expected
        .filter(|_| !unexplained)
        .map(shakmaty::KnownOutcome::as_str);
    // The finding that names the change: the lowest ranked the game has.
    let why = Kind::ALL
        .iter()
        .filter_map(|&k| Some((k.fix().result_rank()?, k)))
        .filter(|&(_, k)| has(k))
        .min()
        .map(|(_, k)| k);
    let mut out = ResultTargets {
        tag: None,
        marker: None,
    };
    let closed = !open.comment && !open.variation;
    if let (Some(value), Some(why)) = (decided, why) {
        if tag_valid.map(shakmaty::Outcome::as_str) != Some(value) {
            out.tag = Some((why, Some(value)));
        }
        if marker.map(shakmaty::Outcome::as_str) != Some(value) && (marker.is_some() || closed) {
            out.marker = Some((why, value));
        }
        return out;
    }
    if !has(Kind::MissingResult) {
        return out;
    }
    if tag.is_none() {
        let value = marker.map_or("*", shakmaty::Outcome::as_str);
        out.tag = Some((Kind::MissingResult, Some(value)));
    }
    if marker.is_none() && closed {
        let value = tag_valid.map_or("*", shakmaty::Outcome::as_str);
        out.marker = Some((Kind::MissingResult, value));
    }
    out
}

pub(super) fn result_edits(fix: &mut Rewrite<'_, '_>, targets: &ResultTargets, verdict: &Verdict) {
    let game = fix.game;
    let mut said = Vec::new();
    if let Some((kind, Some(value))) = targets.tag {
        match game.tags.find("Result") {
            Some((index, old)) => {
                if let Some(&(start, end)) = game.lexed.tag_values.get(index) {
                    fix.edit(start, end, value);
                    said.push((
                        kind,
                        game.tag_line(index),
                        format!("Result tag \"{}\" changed to \"{value}\"", excerpt(old, 20)),
                    ));
                }
            }
            None => said.push((kind, game.line, format!("Result tag \"{value}\" added"))),
        }
    }
    if let Some((kind, value)) = targets.marker {
        match game.lexed.marker {
            Some(m) => {
                let old = game.text(m.start, m.end);
                // `Rxh3#*` is a move and a marker, as `*` ends a token;
                // `Rxh3#1-0` is one token.
                let glued = m.start > 0
                    && !matches!(
                        game.bytes.get(m.start - 1),
                        Some(b' ' | b'\t' | b'\r' | b'\n')
                    );
                let gap = if glued { " " } else { "" };
                fix.edit(m.start, m.end, format!("{gap}{value}"));
                said.push((
                    kind,
                    m.line,
                    format!("termination marker {old} changed to {value}"),
                ));
            }
            None => {
                let end = lexer::trim_blanks_end(game.bytes).len();
                // Not on a tag's line: python-chess reads a line that
                // starts with '[' as tags.
                let mut text = if line_of(game.bytes, end.saturating_sub(1)).starts_with(b"[") {
                    format!("{}{value}", fix.eol)
                } else {
                    format!(" {value}")
                };
                // A blank line before the next game's tags, as the game now
                // ends there (readers that end a game at a blank line).
                let breaks = game.bytes[end..].iter().filter(|&&b| b == b'\n').count();
                if breaks < 2 {
                    text.push_str(fix.eol);
                }
                fix.edit(end, end, text);
                said.push((
                    kind,
                    game.lexed.end_line,
                    format!("termination marker {value} added"),
                ));
            }
        }
    }
    // One comment for the result, naming the first reason.
    if let Some(&(kind, line, _)) = said.first() {
        let what: Vec<&str> = said.iter().map(|s| s.2.as_str()).collect();
        let reason = reason(kind, verdict.board_end);
        let what = format!("{}{reason}", what.join("; "));
        let text = fix.change(kind, line, what);
        fix.head.push(text);
    }
}

/// Why the result is what the board or the Laws decide, for the comment.
pub(super) fn reason(kind: Kind, end: BoardEnd) -> &'static str {
    match (kind, end) {
        (Kind::UnwinnableWinOnTime, _) => ": the flag fell, but the winner could not checkmate",
        (Kind::UnwinnableWinByResignation, _) => {
            ": the loser resigned, but the winner could not checkmate"
        }
        (Kind::BareKingWin, _) => ": a lone king cannot win",
        (_, BoardEnd::Checkmate) => ": the game ended in checkmate",
        (_, BoardEnd::Stalemate) => ": the game ended in stalemate",
        (_, BoardEnd::DeadPosition) => ": the game ended in a dead position",
        (_, BoardEnd::Fivefold) => ": the game ended by fivefold repetition",
        (_, BoardEnd::SeventyFiveMoves) => ": the game ended by the 75-move rule",
        (_, BoardEnd::VariantEnd) => ": the variant's own rules ended the game",
        _ => "",
    }
}
