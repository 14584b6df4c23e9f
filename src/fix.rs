//! `--fix`: a game written back with the corrections its findings justify
//! and nothing else, each change explained by a `{pgn-arbiter: CODE: what
//! changed}` comment, so that a diff of the input and the copy explains
//! itself.
//!
//! What is corrected, and on which findings:
//!
//! - The result, where the board or the Laws decide it (`checks::Verdict`'s
//!   `expected`: mate, stalemate, a dead position, fivefold, 75 moves, a win
//!   on time or by resignation the winner could not earn, a lone king's
//!   win under 1994): the Result tag and the termination marker both say it.
//!   A missing Result tag or marker is added from the other (`*` when both
//!   are missing). A Result tag and marker that merely differ, with nothing
//!   on the board to decide between them, are left for the arbiter.
//! - Moves recorded after an automatic end (`played-past-*`): removed, a
//!   comment in their place.
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

use shakmaty::{Chess, Position, san::SanPlus};

use crate::{
    board::{lenient, replay},
    checks::{self, BoardEnd, Verdict},
    finding::{Finding, Fix, Kind},
    read::outcome,
    read::{
        game::{RawGame, excerpt},
        lexer::{self, StopKind},
    },
};

/// One change made to a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The finding it corrects.
    pub kind: Kind,
    /// 1-based line of what was changed, in the input.
    pub line: u64,
    /// What changed, in a few words (the text of its comment).
    pub what: String,
}

/// What `--fix` did to a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fixed {
    /// The changes, in the order of the record. Each comes with a comment
    /// in the movetext, so a game with tags only that is changed no longer
    /// ends at a tag break (`RawGame::after_tag_break`) in the copy.
    pub changes: Vec<Change>,
}

/// The codes whose findings `--fix` corrects wherever they are found,
/// except in games whose moves cannot be replayed (which keep their
/// movetext): `Fix::Always` and `Fix::BoardResult` in the kinds table.
/// Auditing a copy finds none of them elsewhere, as
/// `tests/integration/fix.rs` checks.
pub fn fixed() -> impl Iterator<Item = Kind> {
    Kind::ALL
        .iter()
        .copied()
        .filter(|k| matches!(k.fix(), Fix::Always | Fix::BoardResult(_)))
}

/// The Seven Tag Roster in its order, and the value a missing tag gets.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The prefix of every comment written.
pub use crate::finding::FIX_MARK as MARK;

/// A replacement of `start..end` of the game's bytes.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    /// Among insertions at one place, lower first.
    rank: u8,
    text: Vec<u8>,
}

/// What is being built for one game.
struct Rewrite<'g, 'a> {
    game: &'g RawGame<'a>,
    eol: &'static str,
    edits: Vec<Edit>,
    changes: Vec<Change>,
    /// Comments about the game as a whole, written before its first move.
    head: Vec<String>,
}

impl Rewrite<'_, '_> {
    /// Writes the game with its edits to `out`. The copy is read again:
    /// still one game, with the result it was given (`expect`). Where a
    /// record is too broken for that (a variation left open over a tag
    /// line, say), the game is written as it was, and the answer is false.
    fn apply(&mut self, out: &mut Vec<u8>, expect: &Expect) -> bool {
        let bytes = self.game.bytes;
        let start = out.len();
        if self.edits.is_empty() {
            out.extend_from_slice(bytes);
            return true;
        }
        // Insertions at one place keep the order they were made in.
        self.edits.sort_by_key(|e| (e.start, e.end, e.rank));
        let mut pos = 0;
        for edit in &self.edits {
            if edit.start < pos {
                continue; // Overlaps an earlier edit: never made.
            }
            out.extend_from_slice(bytes.get(pos..edit.start).unwrap_or_default());
            out.extend_from_slice(&edit.text);
            pos = edit.end.max(edit.start);
        }
        out.extend_from_slice(bytes.get(pos..).unwrap_or_default());
        if reads_back(out.get(start..).unwrap_or_default(), expect) {
            return true;
        }
        out.truncate(start);
        out.extend_from_slice(bytes);
        false
    }

    /// Tags added (missing roster tags, and a Result tag where there was
    /// none), with a comment that names the roster tags.
    fn add_roster(&mut self, tags_added: &[(&str, &str)]) {
        add_tags(self, tags_added);
        let list: Vec<String> = tags_added
            .iter()
            .filter(|(name, _)| *name != "Result")
            .map(|(name, value)| format!("[{name} \"{value}\"]"))
            .collect();
        if !list.is_empty() {
            let what = format!("added {}", list.join(", "));
            let text = self.change(Kind::MissingTag, self.game.line, what);
            self.head.push(text);
        }
    }

    /// PlyCount set to the plies `kept`, if it says another number; `kind`
    /// is the finding that justifies it.
    fn ply_count(&mut self, kept: usize, kind: Kind) {
        let game = self.game;
        let Some((index, value)) = game.tags.find("PlyCount") else {
            return;
        };
        let stated = std::str::from_utf8(value)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok());
        if stated != Some(kept)
            && let Some(&(start, end)) = game.lexed.tag_values.get(index)
        {
            let what = format!("PlyCount \"{}\" changed to \"{kept}\"", excerpt(value, 20));
            self.edit(start, end, kept.to_string());
            let text = self.change(kind, game.tag_line(index), what);
            self.head.push(text);
        }
    }

    /// The moves from mainline move `at` on removed, with a comment that
    /// says so: the game ended by itself before them (`kind`).
    fn remove_moves(&mut self, at: usize, kind: Kind) {
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
        let what = format!("{removed} recorded after the game ended by itself removed");
        let text = self.change(kind, first.line, what);
        let gap = if game.lexed.marker.is_some_and(|m| m.start >= start) {
            " "
        } else {
            ""
        };
        self.edit(start, end, format!("{text}{gap}"));
    }

    /// The comments about the game as a whole, before its first move: on
    /// lines of their own when the movetext begins a line, else on its
    /// line; where a tag line runs into the movetext, before the marker or
    /// at the end.
    fn write_head(&mut self) {
        if self.head.is_empty() {
            return;
        }
        let game = self.game;
        let eol = self.eol;
        let mut at = movetext_start(game);
        let mut layout = line_layout(game.bytes, at);
        if layout == Layout::InTagLine {
            // Before the marker, unless its line reads as a tag pair (as
            // python-chess reads `[White ""A B""]`): then on a line of
            // their own after the game.
            // A marker read from inside a longer token (`01-0`) is no
            // place to write: the comment would split the token.
            let apart =
                |at: usize| at == 0 || game.bytes.get(at - 1).is_some_and(u8::is_ascii_whitespace);
            (at, layout) = match game.lexed.marker {
                Some(m)
                    if m.start >= at
                        && apart(m.start)
                        && !reads_as_tag(line_of(game.bytes, m.start)) =>
                {
                    (m.start, Layout::Inline)
                }
                _ => (lexer::trim_blanks_end(game.bytes).len(), Layout::InTagLine),
            };
        }
        let at_end = at >= lexer::trim_blanks_end(game.bytes).len();
        let text = match layout {
            _ if at_end => format!("{eol}{}", self.head.join(eol)),
            // Not a line break before a `%`: at the start of a line it
            // would hide the rest of that line.
            Layout::LineStart if game.bytes.get(at) == Some(&b'%') => {
                format!("{} ", self.head.join(eol))
            }
            Layout::LineStart => format!("{}{eol}", self.head.join(eol)),
            _ => format!("{} ", self.head.join(" ")),
        };
        // Before a marker added at the same place.
        self.ranked(at, at, 0, text);
    }

    fn edit(&mut self, start: usize, end: usize, text: impl Into<Vec<u8>>) {
        self.ranked(start, end, 1, text);
    }

    /// An edit that goes before others of rank 1 inserted at its place.
    fn ranked(&mut self, start: usize, end: usize, rank: u8, text: impl Into<Vec<u8>>) {
        self.edits.push(Edit {
            start,
            end,
            rank,
            text: text.into(),
        });
    }

    fn change(&mut self, kind: Kind, line: u64, what: String) -> String {
        let comment = comment(kind, &what);
        self.changes.push(Change { kind, line, what });
        comment
    }

    /// Where a new line goes after tag `index`: after its line's end.
    fn after_tag(&self, index: usize) -> (usize, bool) {
        let bytes = self.game.bytes;
        let from = self.game.lexed.tag_values.get(index).map_or(0, |v| v.1);
        match memchr::memchr(b'\n', bytes.get(from..).unwrap_or_default()) {
            Some(n) => (from + n + 1, false),
            None => (bytes.len(), true),
        }
    }
}

/// `{pgn-arbiter: CODE: what}`, safe inside a PGN comment and ASCII (so
/// that it is the same text in any file's encoding).
fn comment(kind: Kind, what: &str) -> String {
    let what: String = what
        .chars()
        .map(|c| match c {
            '}' => ')',
            c if c.is_ascii_control() => ' ',
            c if !c.is_ascii() => '?',
            c => c,
        })
        .collect();
    format!("{{{MARK}{}: {what}}}", kind.code())
}

/// Whether a comment written by `--fix` for `kind` already follows `at`
/// (so that fixing a fixed copy changes nothing).
fn already_commented(bytes: &[u8], at: usize, kind: Kind) -> bool {
    let rest = bytes.get(at..).unwrap_or_default();
    let rest = &rest[rest.len() - rest.trim_ascii_start().len()..];
    rest.strip_prefix(b"{")
        .is_some_and(|r| r.starts_with(format!("{MARK}{}:", kind.code()).as_bytes()))
}

/// Whether the game already holds a comment written by `--fix` for `kind`
/// anywhere (for comments about the game as a whole, which a fixed copy
/// has once).
fn said_before(bytes: &[u8], kind: Kind) -> bool {
    let mark = format!("{{{MARK}{}:", kind.code());
    memchr::memmem::find(bytes, mark.as_bytes()).is_some()
}

/// Back from a move token over white space and its move number (`12.`,
/// `12...`), so that a cut or a comment goes before the number.
fn before_number(bytes: &[u8], start: usize) -> usize {
    let head = bytes.get(..start).unwrap_or_default();
    let trimmed = head.trim_ascii_end();
    let dots = trimmed.iter().rev().take_while(|&&b| b == b'.').count();
    if dots == 0 {
        return start;
    }
    let before_dots = &trimmed[..trimmed.len() - dots];
    let digits = before_dots
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let number_start = before_dots.len() - digits;
    let bounded = number_start == 0
        || before_dots
            .get(number_start - 1)
            // Digits after `$` are a NAG, not a move number.
            .is_some_and(|&b| lexer::is_token_end(b) && b != b'.' && b != b'$');
    if digits > 0 && bounded {
        number_start
    } else {
        start
    }
}

/// After a move token and the annotation glyphs stuck to it (`!`, `?`).
fn after_token(bytes: &[u8], end: usize) -> usize {
    let rest = bytes.get(end..).unwrap_or_default();
    end + rest.iter().take_while(|&&b| b == b'!' || b == b'?').count()
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
    let eol = if memchr::memmem::find(game.bytes, b"\r\n").is_some() {
        "\r\n"
    } else {
        "\n"
    };
    let mut fix = Rewrite {
        game,
        eol,
        edits: Vec::new(),
        changes: Vec::new(),
        head: Vec::new(),
    };
    let sans = &game.lexed.sans;
    // The moves that count: up to an automatic end with moves after it.
    let played_past = [
        Kind::PlayedPastFivefold,
        Kind::PlayedPastSeventyFiveMoves,
        Kind::PlayedPastDeadPosition,
    ]
    .into_iter()
    .find(|&k| has(k));
    let cut = verdict.ended_at.zip(played_past);
    let kept = cut.map_or(sans.len(), |(at, _)| at);
    // Where the moves removed begin: a comment or variation left open
    // after it goes with them.
    let removed_from = cut
        .and_then(|(at, _)| sans.get(at))
        .map(|t| before_number(game.bytes, t.start));
    let open = Open::of(game, removed_from);

    // The roster tags missing, as `?`.
    let mut tags_added: Vec<(&str, &str)> = if has(Kind::MissingTag) {
        ROSTER[..6]
            .iter()
            .filter(|(name, _)| game.tags.find(name).is_none())
            .copied()
            .collect()
    } else {
        Vec::new()
    };
    // A record that stops before its end keeps its PlyCount and result:
    // nothing in it says how the game ended.
    let truncated = checks::truncated(game, verdict.board_end.decides()).is_some();
    let result = if truncated {
        ResultTargets {
            tag: None,
            marker: None,
        }
    } else {
        result_targets(game, verdict, findings, &has, open)
    };
    if truncated && has(Kind::TruncatedGame) && !said_before(game.bytes, Kind::TruncatedGame) {
        let what = "the record stops before the game's end, so its PlyCount and result are left as written".to_owned();
        let text = fix.change(Kind::TruncatedGame, game.line, what);
        fix.head.push(text);
    }
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

    // The moves: standard SAN, or a comment where the replay stops.
    let replayable = !matches!(
        verdict.board_end,
        BoardEnd::NotReplayed | BoardEnd::IllegalMove
    ) || cut.is_some();
    if replayable {
        if has(Kind::NonStandardSan) || has(Kind::WrongCheckSuffix) {
            standard_moves(&mut fix, kept, &has);
        }
    } else {
        mark_stop(&mut fix, verdict, findings);
    }

    // Moves after an automatic end.
    if let Some((at, kind)) = cut {
        fix.remove_moves(at, kind);
    }

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

/// Escapes the quotes inside tag values that are written without `\`
/// (`[White ""Mephisto""]` becomes `[White "\"Mephisto\""]`), so that
/// every reader takes the value as one, as the lexer does.
fn escape_inner_quotes(fix: &mut Rewrite<'_, '_>) {
    let game = fix.game;
    // The comment names the first few tags, and counts the rest.
    const NAMED: usize = 5;
    let mut names = Vec::new();
    let mut escaped_count = 0;
    let mut first_line = None;
    let values = game.lexed.tag_values.iter();
    // The edits made before this step (the values they replace win).
    let earlier = fix.edits.len();
    for ((index, name, _), &(start, end)) in game.tags.iter().zip(values) {
        let raw = game.bytes.get(start..end).unwrap_or_default();
        let Some(escaped) = escape_quotes(raw) else {
            continue;
        };
        let replaced = fix.edits.get(..earlier).unwrap_or_default();
        if replaced.iter().any(|e| e.start <= start && end <= e.end) {
            continue;
        }
        fix.edit(start, end, escaped);
        first_line.get_or_insert(game.tag_line(index));
        escaped_count += 1;
        if names.len() < NAMED {
            names.push(format!("[{}]", String::from_utf8_lossy(name)));
        }
    }
    if let Some(line) = first_line {
        if escaped_count > NAMED {
            names.push(format!("{} more", escaped_count - NAMED));
        }
        let what = format!("quotes inside the value of {} escaped", names.join(", "));
        let text = fix.change(Kind::NonStandardTag, line, what);
        fix.head.push(text);
    }
}

/// `raw` with every quote not already escaped written as `\"`, or `None`
/// when it has none.
fn escape_quotes(raw: &[u8]) -> Option<Vec<u8>> {
    memchr::memchr(b'"', raw)?;
    let mut out = Vec::with_capacity(raw.len() + 4);
    let mut changed = false;
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => {
                out.push(b);
                if let Some(&next) = bytes.next() {
                    out.push(next);
                }
            }
            b'"' => {
                out.extend_from_slice(b"\\\"");
                changed = true;
            }
            _ => out.push(b),
        }
    }
    changed.then_some(out)
}

/// What a rewritten game must read as.
struct Expect<'a> {
    /// The marker written, if one was.
    marker: Option<&'a str>,
    /// Whether the input leaves a comment open: a comment written after an
    /// unclosed `{` would close it and change what the record says.
    open: bool,
    /// The tags: the input's and those added (text written after a tag
    /// value left open at the end would close it, and add a tag).
    tags: usize,
}

/// Whether a rewritten game reads as one game as `expect` says.
fn reads_back(text: &[u8], expect: &Expect<'_>) -> bool {
    let (marker, open) = (expect.marker, expect.open);
    let mut tags = crate::read::tags::Tags::default();
    let mut lexed = lexer::Lexed::default();
    let end = lexed.scan(text, 1, &mut tags);
    let whole = text
        .get(end..)
        .is_none_or(|rest| lexer::trim_blanks_end(rest).is_empty());
    let marked = marker.is_none_or(|value| {
        lexed
            .marker
            .is_some_and(|m| text.get(m.start..m.end) == Some(value.as_bytes()))
    });
    whole && marked && lexed.unterminated_comment.is_some() == open && tags.len() == expect.tags
}

fn kept_plies_text(n: usize) -> String {
    if n == 1 {
        "1 ply".to_owned()
    } else {
        format!("{n} plies")
    }
}

/// New tag lines, each after the roster tag before it (or before the first
/// tag), in roster order.
fn add_tags(fix: &mut Rewrite<'_, '_>, added: &[(&str, &str)]) {
    let game = fix.game;
    let eol = fix.eol;
    if added.is_empty() {
        return;
    }
    if game.tags.is_empty() {
        let mut text = String::new();
        for (name, value) in added {
            text.push_str(&format!("[{name} \"{value}\"]{eol}"));
        }
        text.push_str(eol);
        // Before the comments about the game, which go before its moves.
        fix.ranked(0, 0, 0, text);
        return;
    }
    for &(name, value) in added {
        let order = ROSTER.iter().position(|r| r.0 == name).unwrap_or(0);
        // The last roster tag before this one in roster order that the game has.
        let before = ROSTER[..order]
            .iter()
            .rev()
            .find_map(|r| game.tags.find(r.0).map(|(i, _)| i));
        let line = format!("[{name} \"{value}\"]");
        // After the roster tag before it, when that line ends before the
        // movetext begins (not in a tag line that runs into movetext).
        // ... and where the next line is another tag or blank: a `]` there
        // may close a `[` left open on the tag's line, which a line put
        // between them would change.
        let movetext = movetext_start(game).min(game.lexed.tags_end);
        let fits = |at: usize| {
            at == movetext || matches!(game.bytes.get(at), None | Some(b'[' | b'\n' | b'\r'))
        };
        let before = before.filter(|&index| {
            let at = fix.after_tag(index).0;
            at <= movetext && fits(at)
        });
        match before {
            Some(index) => {
                let (at, no_break) = fix.after_tag(index);
                let text = if no_break {
                    format!("{eol}{line}")
                } else {
                    format!("{line}{eol}")
                };
                fix.edit(at, at, text);
            }
            // Where the game starts only because its first tag repeats a
            // name of the game before, after that tag's line: a line put
            // before it would join the two games. Where that line runs
            // into more than a tag, nowhere (the copy then does not read
            // back with the tags added, and the game is written as it was).
            None if game.after_tag_break => {
                if let Some(n) = memchr::memchr(b'\n', game.bytes)
                    && n < movetext
                    && fits(n + 1)
                {
                    fix.edit(n + 1, n + 1, format!("{line}{eol}"));
                }
            }
            None => fix.edit(0, 0, format!("{line}{eol}")),
        }
    }
}

/// What the copy leaves open at its end: a comment (`{` never closed) or a
/// variation (`(` never closed), unless it is among the moves removed.
#[derive(Debug, Clone, Copy)]
struct Open {
    comment: bool,
    variation: bool,
}

impl Open {
    fn of(game: &RawGame<'_>, removed_from: Option<usize>) -> Open {
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
struct ResultTargets {
    tag: Option<(Kind, Option<&'static str>)>,
    marker: Option<(Kind, &'static str)>,
}

fn result_targets(
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
        .map(outcome::result_str);
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
        if tag_valid.map(outcome::outcome_str) != Some(value) {
            out.tag = Some((why, Some(value)));
        }
        if marker.map(outcome::outcome_str) != Some(value) && (marker.is_some() || closed) {
            out.marker = Some((why, value));
        }
        return out;
    }
    if !has(Kind::MissingResult) {
        return out;
    }
    if tag.is_none() {
        let value = marker.map_or("*", outcome::outcome_str);
        out.tag = Some((Kind::MissingResult, Some(value)));
    }
    if marker.is_none() && closed {
        let value = tag_valid.map_or("*", outcome::outcome_str);
        out.marker = Some((Kind::MissingResult, value));
    }
    out
}

fn result_edits(fix: &mut Rewrite<'_, '_>, targets: &ResultTargets, verdict: &Verdict) {
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
fn reason(kind: Kind, end: BoardEnd) -> &'static str {
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
        _ => "",
    }
}

/// Moves written in standard SAN where a finding says they are not.
fn standard_moves(fix: &mut Rewrite<'_, '_>, kept: usize, has: &dyn Fn(Kind) -> bool) {
    let game = fix.game;
    let Some(mut pos) = checks::start_position(game) else {
        return;
    };
    let sans = &game.lexed.sans;
    let (forms, suffixes) = (has(Kind::NonStandardSan), has(Kind::WrongCheckSuffix));
    for (index, token) in sans.iter().enumerate().take(kept) {
        let Ok((m, form)) = lenient::resolve(token.san.san, &pos) else {
            return;
        };
        let form = token.form.or(form);
        let last = index + 1 == sans.len();
        let before: Chess = pos.clone();
        pos.play_unchecked(m);
        let wrong_suffix = replay::wrong_suffix(token.san.suffix, &pos, last).is_some();
        let kind = if form.is_some() && forms {
            Kind::NonStandardSan
        } else if wrong_suffix && suffixes {
            Kind::WrongCheckSuffix
        } else {
            continue;
        };
        let standard = SanPlus::from_move(before, m).to_string();
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
fn mark_stop(fix: &mut Rewrite<'_, '_>, verdict: &Verdict, findings: &[Finding]) {
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

/// The line around a byte offset, without its line break, trimmed.
fn line_of(bytes: &[u8], at: usize) -> &[u8] {
    let at = at.min(bytes.len());
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
    bytes[start..end].trim_ascii()
}

/// Whether a line reads as one tag pair to a reader that takes a whole
/// line `[Name "..."]` as a tag (python-chess), whatever the quotes within.
fn reads_as_tag(line: &[u8]) -> bool {
    let Some(inner) = line.strip_prefix(b"[").and_then(|l| l.strip_suffix(b"\"]")) else {
        return false;
    };
    let name_end = inner
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || b"_+#=:-".contains(b)))
        .unwrap_or(inner.len());
    name_end > 0
        && inner[name_end..]
            .trim_ascii_start()
            .first()
            .is_some_and(|&b| b == b'"')
}

/// What stands before a place on its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Nothing but blanks.
    LineStart,
    /// Other movetext (a comment).
    Inline,
    /// A tag: the tag line runs into the movetext.
    InTagLine,
}

fn line_layout(bytes: &[u8], at: usize) -> Layout {
    let head = bytes.get(..at).unwrap_or_default();
    let line = memchr::memrchr(b'\n', head).map_or(head, |n| &head[n + 1..]);
    let line = line.trim_ascii();
    if line.is_empty() {
        Layout::LineStart
    } else if line.starts_with(b"[") {
        Layout::InTagLine
    } else {
        Layout::Inline
    }
}

/// Where the movetext begins: before the first move (and its number), the
/// first unreadable token, the first variation or the marker, whichever
/// comes first; else the end of the game's text.
fn movetext_start(game: &RawGame<'_>) -> usize {
    let lexed = game.lexed;
    let first_move = lexed
        .sans
        .first()
        .map(|t| before_number(game.bytes, t.start));
    [
        first_move,
        lexed.marker.map(|m| m.start),
        lexed.stop.map(|s| s.start),
        lexed.variations.map(|v| v.start),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or_else(|| lexer::trim_blanks_end(game.bytes).len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_ascii_and_closed_once() {
        assert_eq!(
            comment(Kind::PlyCountMismatch, "PlyCount \"é}\"\nx"),
            "{pgn-arbiter: plycount-mismatch: PlyCount \"?)\" x}"
        );
    }

    #[test]
    fn lines_that_read_as_tags() {
        assert!(reads_as_tag(b"[White \"\"Socrates Expert\"\"]"));
        assert!(reads_as_tag(b"[Event \"x\"]"));
        assert!(!reads_as_tag(b"[Result \"1-0\"] e4 *"));
        assert!(!reads_as_tag(b"1. e4 e5"));
        assert_eq!(line_of(b"a\nb c\nd", 3), b"b c");
    }

    #[test]
    fn cuts_go_before_the_move_number() {
        let text = b"[A \"b\"]\n\n1. e4 e5 2... Nf3 {c} 3.Nc3 ";
        let at = |token: &str| {
            let t = memchr::memmem::find(text, token.as_bytes()).unwrap();
            before_number(text, t)
        };
        let find = |s: &str| memchr::memmem::find(text, s.as_bytes()).unwrap();
        assert_eq!(at("e4"), find("1. e4"));
        assert_eq!(at("e5"), find("e5"));
        assert_eq!(at("Nf3"), find("2... Nf3"));
        assert_eq!(at("Nc3"), find("3.Nc3"));
    }
}
