//! Corrections of the moves: standard SAN, moves after an automatic end
//! removed, and a comment where the replay stops.

use crate::{
    board::replay::{self, Correction},
    checks::{BoardEnd, Verdict},
    finding::{Finding, Kind},
    read::lexer::{self, StopKind},
};

use super::edit::*;

impl Rewrite<'_, '_> {
    /// The moves from mainline move `at` on removed, with a comment that
    /// says so: the game ended by itself before them (`kind`).
    pub(super) fn remove_moves(&mut self, at: usize, kind: Kind) {
        let game = self.game;
        let sans = &game.lexed.sans;
        let Some(first) = sans.get(at) else {
            return;
        };
        let start = before_number(game.bytes, first.start);
        let end = match game.lexed.marker {
            Some(m) if m.start >= start => m.start,
            _ => lexer::trim_blanks_end(game.bytes).len().max(start),
        };
        let removed = kept_plies_text(sans.len() - at);
        let what = format!(
            "{removed} recorded after the game ended by itself removed: {}",
            removed_list(game.bytes, &sans[at..])
        );
        let mut text = self.change(kind, first.line, what);
        // A comment that leaves findings out of the game stays with it.
        for &(_, from, to) in &game.lexed.comments.suppressions {
            if from > start && to < end {
                let comment = String::from_utf8_lossy(game.bytes.get(from..to).unwrap_or_default());
                text.push_str(&format!(" {{{comment}}}"));
            }
        }
        let gap = if game.lexed.marker.is_some_and(|m| m.start >= start) {
            " "
        } else {
            ""
        };
        self.edit(start, end, format!("{text}{gap}"));
    }
}

/// The moves removed, as written: all of them up to `LISTED`, else the
/// first ones and how many more.
fn removed_list(bytes: &[u8], removed: &[lexer::SanToken]) -> String {
    const LISTED: usize = 12;
    let mut list: Vec<String> = removed
        .iter()
        .take(LISTED)
        .map(|t| {
            String::from_utf8_lossy(bytes.get(t.start..t.end).unwrap_or_default())
                .replace(['{', '}'], "")
        })
        .collect();
    if removed.len() > LISTED {
        list.push(format!("and {} more", removed.len() - LISTED));
    }
    list.join(" ")
}

pub(super) fn kept_plies_text(n: usize) -> String {
    if n == 1 {
        "1 ply".to_owned()
    } else {
        format!("{n} plies")
    }
}

/// Moves written in standard SAN where a finding says they are not, as
/// the replay resolved them ([`Verdict::corrections`]).
pub(super) fn standard_moves(
    fix: &mut Rewrite<'_, '_>,
    kept: usize,
    corrections: &[Correction],
    has: &dyn Fn(Kind) -> bool,
) {
    let game = fix.game;
    let (forms, suffixes) = (has(Kind::NonStandardSan), has(Kind::WrongCheckSuffix));
    for correction in corrections.iter().take_while(|c| c.index < kept) {
        let kind = if correction.form && forms {
            Kind::NonStandardSan
        } else if correction.suffix && suffixes {
            Kind::WrongCheckSuffix
        } else {
            continue;
        };
        let Some(token) = game.lexed.sans.get(correction.index) else {
            continue;
        };
        let standard = correction.standard.to_string();
        let old = game.text(token.start, token.end);
        if old == standard {
            continue;
        }
        fix.edit(token.start, token.end, standard.clone());
        let text = fix.change(kind, token.line, format!("was \"{old}\""));
        let at = after_token(game.bytes, token.end);
        fix.edit(at, at, format!(" {text}"));
    }
}

/// A comment on the move where the replay stops, or on the game when it
/// cannot start; nothing else in the movetext changes.
pub(super) fn mark_stop(fix: &mut Rewrite<'_, '_>, verdict: &Verdict, findings: &[Finding]) {
    let game = fix.game;
    let first = |kinds: &[Kind]| {
        findings
            .iter()
            .find(|f| kinds.contains(&f.kind))
            .map(|f| f.kind)
    };
    if verdict.board_end == BoardEnd::NotReplayed {
        if let Some(kind) = first(&[Kind::InvalidFen])
            && !said_before(game.bytes, kind)
        {
            let text = fix.change(
                kind,
                game.line,
                "the starting position is unknown or not legal, so the moves are left as written"
                    .to_owned(),
            );
            fix.head.push(text);
        }
        return;
    }
    let stop = match verdict.stopped {
        Some(stopped) => game.lexed.sans.get(stopped.index).map(|t| {
            let kind = match stopped.failure {
                replay::Failure::Illegal => Kind::IllegalMove,
                replay::Failure::Ambiguous => Kind::AmbiguousMove,
            };
            (kind, t.line, t.end)
        }),
        None => game
            .lexed
            .stop
            .filter(|s| s.kind == StopKind::Malformed)
            .map(|s| (Kind::MalformedMove, s.line, s.end)),
    };
    let Some((kind, line, end)) = stop else {
        return;
    };
    // Never within a line that reads as a tag pair (`[White ""A B""]`,
    // where pgn-reader ends the tag early and python-chess does not).
    if reads_as_tag(line_of(game.bytes, end)) {
        return;
    }
    // After the dots stuck to it too: `ep.` is unreadable, but `ep {...}.`
    // would read as an en passant mark.
    let tail = game.bytes.get(end..).unwrap_or_default();
    let at = end
        + tail
            .iter()
            .take_while(|&&b| matches!(b, b'!' | b'?' | b'.'))
            .count();
    if already_commented(game.bytes, at, kind) {
        return;
    }
    let text = fix.change(
        kind,
        line,
        "the game cannot be replayed from this move on, so its moves and result are left as written".to_owned(),
    );
    // Before a marker added at the same place, so that a copy fixed again
    // finds its comment right after the move.
    fix.ranked(at, at, 0, format!(" {text}"));
}
