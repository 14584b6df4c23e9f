//! What a corrected game is made of: edits of the input's bytes, the
//! `{pgn-arbiter: CODE: what}` comments that explain them, and where in a
//! record they can go.

use crate::{
    finding::Kind,
    read::{
        game::RawGame,
        lexer::{self},
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
    /// ends at a tag break ([`RawGame::after_tag_break`]) in the copy.
    pub changes: Vec<Change>,
}

/// The prefix of every comment written.
pub(super) use crate::finding::FIX_MARK as MARK;

/// A replacement of `start..end` of the game's bytes.
#[derive(Debug)]
pub(super) struct Edit {
    pub(super) start: usize,
    pub(super) end: usize,
    /// Among insertions at one place, lower first.
    pub(super) rank: u8,
    pub(super) text: Vec<u8>,
}

/// What is being built for one game.
pub(super) struct Rewrite<'g, 'a> {
    pub(super) game: &'g RawGame<'a>,
    pub(super) eol: &'static str,
    pub(super) edits: Vec<Edit>,
    pub(super) changes: Vec<Change>,
    /// Comments about the game as a whole, written before its first move.
    pub(super) head: Vec<String>,
}

impl<'g, 'a> Rewrite<'g, 'a> {
    /// Nothing changed yet; comments end lines as the game's lines end.
    pub(super) fn new(game: &'g RawGame<'a>) -> Self {
        let eol = if memchr::memmem::find(game.bytes, b"\r\n").is_some() {
            "\r\n"
        } else {
            "\n"
        };
        Rewrite {
            game,
            eol,
            edits: Vec::new(),
            changes: Vec::new(),
            head: Vec::new(),
        }
    }
}

impl Rewrite<'_, '_> {
    /// Writes the game with its edits to `out`. The copy is read again:
    /// still one game, with the result it was given (`expect`). Where a
    /// record is too broken for that (a variation left open over a tag
    /// line, say), the game is written as it was, and the answer is false.
    pub(super) fn apply(&mut self, out: &mut Vec<u8>, expect: &Expect) -> bool {
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

    /// The comments about the game as a whole, before its first move: on
    /// lines of their own when the movetext begins a line, else on its
    /// line; where a tag line runs into the movetext, before the marker or
    /// at the end.
    pub(super) fn write_head(&mut self) {
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

    pub(super) fn edit(&mut self, start: usize, end: usize, text: impl Into<Vec<u8>>) {
        self.ranked(start, end, 1, text);
    }

    /// An edit that goes before others of rank 1 inserted at its place.
    pub(super) fn ranked(&mut self, start: usize, end: usize, rank: u8, text: impl Into<Vec<u8>>) {
        self.edits.push(Edit {
            start,
            end,
            rank,
            text: text.into(),
        });
    }

    pub(super) fn change(&mut self, kind: Kind, line: u64, what: String) -> String {
        let comment = comment(kind, &what);
        self.changes.push(Change { kind, line, what });
        comment
    }

    /// Where a new line goes after tag `index`: after its line's end.
    pub(super) fn after_tag(&self, index: usize) -> (usize, bool) {
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
pub(super) fn comment(kind: Kind, what: &str) -> String {
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
pub(super) fn already_commented(bytes: &[u8], at: usize, kind: Kind) -> bool {
    let rest = bytes.get(at..).unwrap_or_default();
    let rest = &rest[rest.len() - rest.trim_ascii_start().len()..];
    rest.strip_prefix(b"{")
        .is_some_and(|r| r.starts_with(format!("{MARK}{}:", kind.code()).as_bytes()))
}

/// Whether the game already holds a comment written by `--fix` for `kind`
/// anywhere (for comments about the game as a whole, which a fixed copy
/// has once).
pub(super) fn said_before(bytes: &[u8], kind: Kind) -> bool {
    let mark = format!("{{{MARK}{}:", kind.code());
    memchr::memmem::find(bytes, mark.as_bytes()).is_some()
}

/// Back from a move token over white space and its move number (`12.`,
/// `12...`), so that a cut or a comment goes before the number.
pub(super) fn before_number(bytes: &[u8], start: usize) -> usize {
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
pub(super) fn after_token(bytes: &[u8], end: usize) -> usize {
    let rest = bytes.get(end..).unwrap_or_default();
    end + rest.iter().take_while(|&&b| b == b'!' || b == b'?').count()
}

/// What a rewritten game must read as.
pub(super) struct Expect<'a> {
    /// The marker written, if one was.
    pub(super) marker: Option<&'a str>,
    /// Whether the input leaves a comment open: a comment written after an
    /// unclosed `{` would close it and change what the record says.
    pub(super) open: bool,
    /// The tags: the input's and those added (text written after a tag
    /// value left open at the end would close it, and add a tag).
    pub(super) tags: usize,
}

/// Whether a rewritten game reads as one game as `expect` says.
pub(super) fn reads_back(text: &[u8], expect: &Expect<'_>) -> bool {
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

/// The line around a byte offset, without its line break, trimmed.
pub(super) fn line_of(bytes: &[u8], at: usize) -> &[u8] {
    let at = at.min(bytes.len());
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
    bytes[start..end].trim_ascii()
}

/// Whether a line reads as one tag pair to a reader that takes a whole
/// line `[Name "..."]` as a tag (python-chess), whatever the quotes within.
pub(super) fn reads_as_tag(line: &[u8]) -> bool {
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
pub(super) enum Layout {
    /// Nothing but blanks.
    LineStart,
    /// Other movetext (a comment).
    Inline,
    /// A tag: the tag line runs into the movetext.
    InTagLine,
}

pub(super) fn line_layout(bytes: &[u8], at: usize) -> Layout {
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
pub(super) fn movetext_start(game: &RawGame<'_>) -> usize {
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
