//! Reads one game the way pgn-reader reads it, and also says where
//! everything is: the line of every tag and every mainline move, the tokens
//! pgn-reader skips without telling its visitor, and tag lines that are not
//! `[Name "value"]`.
//!
//! pgn-reader gives its visitor values, not positions, and silently drops
//! tokens it cannot read (`Qxe9`, `Zz9`, `e4e5`, `[Event foo]`). Every
//! finding must say where it is, and nothing may be dropped silently, so this
//! module walks one game's bytes with exactly the tokenisation rules of
//! [`pgn_reader::Reader`] (0.29): the same token ends, the same special
//! characters, the same end-of-game and `%` escape rules, the same variation
//! skipping. `pgn::tests` holds it to that: on every shared corpus game, the
//! moves and tags found here are the ones pgn-reader reports.
//!
//! Mainline moves are read with shakmaty's own SAN parser, as pgn-reader does.
//!
//! Two boundary rules differ from pgn-reader's, because real archives need
//! them: a blank line inside movetext ends the game only after its
//! termination marker (PGN import format; ChessBase writes one after a
//! game's opening comment), and a tag section that repeats a tag name after a
//! blank line is the next game's (header-only games, as in broadcast
//! exports). Blocks are cut where this module ends a game
//! (`last_game_start`), so a block never splits what it reads as one. And
//! a tag pair split over lines (PGN 8.1 allows white space, line ends too,
//! between its tokens) is read as one tag, where pgn-reader reads tags on
//! one line only.

use crate::{
    read::comments::Comments,
    read::listed::Listed,
    read::{
        notation::{self, Form},
        tags::Tags,
    },
};
use shakmaty::{
    Color, KnownOutcome, Outcome,
    san::{San, SanPlus, Suffix},
};

/// One mainline move token.
#[derive(Debug, Clone, Copy)]
pub struct SanToken {
    /// The move as parsed.
    pub san: SanPlus,
    /// 1-based line in the input.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
    /// How the token departs from standard SAN, when the lexer read it by
    /// a plain reading ([`read::notation::read_token`](crate::read::notation::read_token)).
    pub form: Option<Form>,
    /// Whether `e.p.` follows it.
    pub ep_mark: bool,
}

/// Why the mainline stopped being readable before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopKind {
    /// A token that is neither SAN nor any other movetext element.
    Malformed,
    /// Moves or junk after the game termination marker.
    AfterResult,
}

/// The first unreadable token of the mainline.
#[derive(Debug, Clone, Copy)]
pub struct Stop {
    /// What kind of problem.
    pub kind: StopKind,
    /// 1-based line of the token.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
}

/// What is wrong with a tag line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagProblem {
    /// No quoted value: `[Event foo]`. pgn-reader drops such a line.
    NoValue,
    /// The value's closing quote is missing.
    UnterminatedValue,
    /// The closing `]` is missing.
    MissingBracket,
    /// The name is empty or has characters other than letters, digits, `_`.
    BadName,
}

impl TagProblem {
    /// A phrase for messages.
    pub fn describe(self) -> &'static str {
        match self {
            TagProblem::NoValue => "it has no quoted value, so the tag is ignored",
            TagProblem::UnterminatedValue => "the value's closing quote is missing",
            TagProblem::MissingBracket => "the closing ']' is missing",
            TagProblem::BadName => {
                "the tag name is empty or has characters other than letters, digits and '_'"
            }
        }
    }
}

/// A tag line that is not `[Name "value"]`.
#[derive(Debug, Clone, Copy)]
pub struct BadTag {
    /// What is wrong.
    pub problem: TagProblem,
    /// 1-based line.
    pub line: u64,
    /// Byte offset of the line's start within the game's bytes.
    pub line_start: usize,
}

/// Movetext that is read, but not as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oddity {
    /// A NAG above `$255`: ignored, like any NAG.
    NagOutOfRange,
    /// `½-½`: read as the draw `1/2-1/2`.
    HalfSigns,
    /// `1–0` with an en or em dash: read as `1-0`.
    DashInMarker,
    /// A `)` that closes no variation: ignored.
    StrayParenthesis,
    /// A `(` never closed: the rest of the game was read as a variation.
    UnclosedVariation,
}

/// Where an oddity is.
#[derive(Debug, Clone, Copy)]
pub struct Odd {
    /// What it is.
    pub what: Oddity,
    /// 1-based line.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
}

/// Where a mainline's variations are: from the `(` of the first to the
/// end of the last (its `)` included, or the end of the movetext when it is
/// never closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variations {
    /// Byte offset of the first `(` within the game's bytes.
    pub start: usize,
    /// Byte offset after the last variation.
    pub end: usize,
    /// 1-based line of the first `(`.
    pub line: u64,
}

/// The game termination marker.
#[derive(Debug, Clone, Copy)]
pub struct Marker {
    /// The result it states.
    pub outcome: Outcome,
    /// 1-based line.
    pub line: u64,
    /// Byte range of the marker within the game's bytes.
    pub start: usize,
    /// End of the marker (exclusive).
    pub end: usize,
}

/// Everything located in one game. Reused from game to game.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The line of each tag pgn-reader reports, in the order it reports them.
    pub tag_lines: Vec<u64>,
    /// The byte range of each of those tags' value as written (escapes
    /// and all), within the game's bytes.
    pub tag_values: Vec<(usize, usize)>,
    /// Tag lines that are not `[Name "value"]`.
    pub bad_tags: Listed<BadTag>,
    /// Tags whose name has white space around it, read all the same: the
    /// line and the byte offset where it starts.
    pub spaced_tags: Listed<(u64, usize)>,
    /// Tag pairs split over lines, read all the same: the first and last
    /// line and the tag's index in `Tags`.
    pub split_tags: Listed<(u64, u64, usize)>,
    /// Tag values with quotes inside them that are not escaped
    /// (`[White ""Mephisto""]`), read as one value up to the quote that
    /// closes the tag: the line and the tag's index in `Tags`.
    pub quoted_tags: Listed<(u64, usize)>,
    /// Start of the last bad tag line, so that a line counts once.
    last_bad: Option<usize>,
    /// Mainline moves up to the first unreadable token.
    pub sans: Vec<SanToken>,
    /// The first unreadable mainline token, if any.
    pub stop: Option<Stop>,
    /// The first termination marker of the mainline.
    pub marker: Option<Marker>,
    /// Line of a `{` that is never closed.
    pub unterminated_comment: Option<u64>,
    /// Byte offset of that `{`.
    pub unterminated_comment_at: usize,
    /// Movetext read but not written as PGN writes it.
    pub odd: Listed<Odd>,
    /// The mainline's move numbers: the index of the move that follows,
    /// the number, and its line.
    pub numbers: Vec<(usize, u32, u64)>,
    /// The mainline's variations, if it has any before its end: where the
    /// first begins (its `(`), where the last ends, and the first's line.
    /// [`variations::walk`](crate::board::variations::walk) reads them from there.
    pub variations: Option<Variations>,
    /// The line where the game ends (the next game's first line).
    pub end_line: u64,
    /// Byte offset where the tag section ends: the movetext (a comment, a
    /// move) begins there, also when it begins on a tag's line.
    pub tags_end: usize,
    /// Where the next game's tags begin, if this game has tags only and the
    /// next game's follow after a blank line: (byte offset, tags before it).
    pub tag_break: Option<(usize, usize)>,
    /// Tag name ranges seen so far in this game.
    names: Vec<(usize, usize)>,
    /// The same names as a set, filled in only for long tag sections, and
    /// how many of `names` it holds.
    name_set: (std::collections::HashSet<Vec<u8>>, usize),
    /// Find where games end and nothing else of their moves (`--count`):
    /// move tokens are skipped unread.
    pub skim: bool,
    /// Every byte read by the general loops of `scan_movetext` and
    /// `scan_tags`, none by `moves` or as a `plain_tag`: what the tests
    /// hold those to.
    #[cfg(test)]
    general_only: bool,
    /// What the mainline's comments say that the checks read: clocks,
    /// elapsed times, the comments that leave findings out, and the last
    /// three ([`Comments`]).
    pub comments: Comments,
}

/// pgn-reader's `before_game`: skips a byte order mark, blanks and `%`
/// escape lines before a game. Returns the new offset and the line breaks
/// crossed.
pub fn skip_blanks(bytes: &[u8], pos: usize) -> (usize, u64) {
    let mut cur = Cursor {
        bytes,
        pos,
        line: 0,
    };
    if cur.rest().starts_with(b"\xef\xbb\xbf") {
        cur.skip(3);
    }
    cur.skip_whitespace(true);
    (cur.pos, cur.line)
}

/// Where the last game that starts in `chunk` begins (not at the chunk's
/// very start), or 0 when no game before it ends inside the chunk: a cut
/// the workers read the same way whatever follows the chunk. Games are
/// found as [`Lexed::scan`] finds them (moves skimmed, not read), so a block
/// ends exactly where reading the whole input in one piece would end a
/// game. Where the game before ended only because a tag name repeats
/// (header-only games), the game at the cut must have its first line
/// complete, so that a tag name cut short cannot end the game before it;
/// and a game after a marker or movetext is preferred as the cut, so that
/// only a run of header-only games longer than the chunk starts a block
/// at a tag break (where `--fix` must know what the game before became).
pub fn last_game_start(chunk: &[u8]) -> Cut {
    let mut tags = Tags::default();
    let mut lexed = Lexed {
        skim: true,
        ..Lexed::default()
    };
    let mut pos = 0;
    let (mut last, mut last_clean) = (Cut::default(), None);
    loop {
        let (start, _) = skip_blanks(chunk, pos);
        let Some(rest) = chunk.get(start..).filter(|r| !r.is_empty()) else {
            break;
        };
        if start > 0 {
            let after_tag_break = lexed.tag_break.is_some();
            if after_tag_break && memchr::memchr(b'\n', rest).is_none() {
                break;
            }
            last = Cut {
                at: start,
                after_tag_break,
            };
            if !after_tag_break {
                last_clean = Some(last);
            }
        }
        pos = start + lexed.scan(rest, 1, &mut tags).max(1);
        if pos >= chunk.len() {
            break;
        }
    }
    last_clean.unwrap_or(last)
}

/// A guess at where the last game in `chunk` starts, cheaper than
/// [`last_game_start`] (no byte is lexed): the last `[` in the chunk's
/// second half that starts a line after a blank line, where the last line
/// before the blank is not a tag line (a game whose tags a tag line would
/// go on). It is right unless that `[` is inside a comment (or stands
/// where the lexer would read it otherwise); the worker that checks the
/// block before it confirms it, and the input is read again from the last
/// game that ran past a wrong guess. `None` when there is no such line.
pub fn guess_game_start(chunk: &[u8]) -> Option<usize> {
    let from = chunk.len() / 2;
    memchr::memrchr_iter(b'[', chunk.get(from..).unwrap_or_default())
        .map(|i| from + i)
        .find(|&at| {
            let before = &chunk[..at];
            if !(before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n")) {
                return false;
            }
            let text = trim_blanks_end(before);
            let line_start = memchr::memrchr(b'\n', text).map_or(0, |i| i + 1);
            text.get(line_start).is_some_and(|&b| b != b'[')
        })
}

/// Where `last_game_start` cuts a chunk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cut {
    /// The offset of the game that starts the next block; 0 for none.
    pub at: usize,
    /// Whether the game before it ended only because this game's first tag
    /// repeats one of its names ([`Lexed::tag_break`]).
    pub after_tag_break: bool,
}

/// A table of which bytes are among `members`.
const fn byte_set(members: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < members.len() {
        table[members[i] as usize] = true;
        i += 1;
    }
    table
}

/// pgn-reader's token terminators, as a table: the lexer asks of every
/// byte of every token.
static TOKEN_END: [bool; 256] = byte_set(b" \t\n\r{}()!?$;.*");

/// What a skimming scan asks of a byte in movetext, as bits: it stops at a
/// byte of `STOP` wherever it stands (the bytes whose branch of
/// `scan_movetext` can end a game or hide what follows: `{`, `;`, a line
/// end, `(`, `$`; and the marker `*`), and at a byte of `LEADS` (a digit or
/// the first byte of `½`) that starts a token, after a byte of `ENDS` (a
/// token terminator).
static SKIM_CLASS: [u8; 256] = {
    let stop = byte_set(b"{;\n($*");
    let leads = byte_set(b"0123456789\xc2");
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let mut class = 0;
        if stop[b] {
            class |= STOP;
        }
        if leads[b] {
            class |= LEADS;
        }
        if TOKEN_END[b] {
            class |= ENDS;
        }
        table[b] = class;
        b += 1;
    }
    table
};
const STOP: u8 = 1;
const LEADS: u8 = 2;
const ENDS: u8 = 4;

/// From a token or blank that means nothing to where games end, to the
/// next byte `scan_movetext` must look at when it only finds where games
/// end (`skim`): a byte of `STOP`, or the first byte of a token that starts
/// with a digit or `½` (a marker, castling with zeros, a move number: their
/// branches decide where the next token starts, which may be a marker, as
/// in `26½-½`). A token starts after a token terminator; the tokens passed
/// over start with a letter or another byte, which the full scan reads as
/// moves, glyphs or junk up to the next terminator, none of which can end a
/// game. `skims_end_games_where_scans_do` holds the two to the same game
/// ends.
fn skim_to_next(cur: &mut Cursor<'_>, start: usize) {
    let bytes = cur.bytes;
    let mut before = bytes.get(start).map_or(0, |&b| SKIM_CLASS[b as usize]);
    let ahead = bytes.get(start + 1..).unwrap_or_default();
    let stop = ahead.iter().position(|&b| {
        let class = SKIM_CLASS[b as usize];
        let here = class & STOP != 0 || (class & LEADS != 0 && before & ENDS != 0);
        before = class;
        here
    });
    cur.pos = stop.map_or(bytes.len(), |n| start + 1 + n);
}

/// pgn-reader's token terminators: blanks, line ends, `{}()!?$;.*`.
#[inline]
pub fn is_token_end(byte: u8) -> bool {
    TOKEN_END[byte as usize]
}

/// The bytes without the blanks at their end, as the lexer sees blanks:
/// a form feed or another control byte is part of a token, not a blank.
pub fn trim_blanks_end(bytes: &[u8]) -> &[u8] {
    let kept = bytes
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .map_or(0, |i| i + 1);
    &bytes[..kept]
}

/// The line breaks in `bytes`: a plain loop for the short texts most
/// comments are (a call to the vector search costs more there).
#[inline]
fn line_breaks(bytes: &[u8]) -> u64 {
    if bytes.len() <= 64 {
        bytes.iter().filter(|&&b| b == b'\n').count() as u64
    } else {
        memchr::memchr_iter(b'\n', bytes).count() as u64
    }
}

/// A cursor over one game's bytes that counts lines.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
}

impl Cursor<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    #[inline]
    fn rest(&self) -> &[u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// Advances one byte, counting a newline.
    #[inline]
    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Advances `n` bytes known to hold no newline.
    #[inline]
    fn skip(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.bytes.len());
    }

    #[inline]
    fn eat(&mut self, prefix: &[u8]) -> bool {
        if self.rest().starts_with(prefix) {
            self.skip(prefix.len());
            true
        } else {
            false
        }
    }

    /// pgn-reader accepts an ASCII hyphen and the en and em dashes.
    fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    /// Moves to the next `needle` (not past it), counting lines; to the end
    /// if there is none. Returns whether it was found.
    fn skip_until(&mut self, needle: u8) -> bool {
        let rest = self.rest();
        match memchr::memchr(needle, rest) {
            Some(n) => {
                self.line += line_breaks(&rest[..n]);
                self.pos += n;
                true
            }
            None => {
                self.line += line_breaks(rest);
                self.pos = self.bytes.len();
                false
            }
        }
    }

    /// Moves past the next `needle`. Returns whether it was found.
    fn skip_until_after(&mut self, needle: u8) -> bool {
        let found = self.skip_until(needle);
        if found {
            self.bump();
        }
        found
    }

    /// The end of the token starting at the cursor.
    fn token_end(&self) -> usize {
        self.rest()
            .iter()
            .position(|&b| is_token_end(b))
            .map_or(self.bytes.len(), |n| self.pos + n)
    }

    /// pgn-reader's `skip_whitespace`: blanks, newlines, and `%` escape
    /// lines (a `%` at the start of a line hides the rest of that line).
    /// Returns how many line breaks it crossed.
    fn skip_whitespace(&mut self, mut new_line: bool) -> usize {
        let mut breaks = 0;
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.skip(1),
                b'\n' => {
                    new_line = true;
                    breaks += 1;
                    self.bump();
                }
                b'%' if new_line => {
                    self.skip(1);
                    self.skip_until_after(b'\n');
                    breaks += 1;
                }
                _ => break,
            }
        }
        breaks
    }
}

impl Lexed {
    /// Reads one game: its tags into `tags` (values unescaped as pgn-reader
    /// does), and the lines of its tags and mainline tokens. `bytes` starts
    /// at the game's first byte (see `skip_blanks`), on line `first_line`.
    /// Returns where the game ends: the next game starts there, after
    /// blanks.
    pub fn scan(&mut self, bytes: &[u8], first_line: u64, tags: &mut Tags) -> usize {
        self.reset(tags);
        let mut cur = Cursor {
            bytes,
            pos: 0,
            line: first_line,
        };
        let more = self.scan_tags(&mut cur, tags);
        self.tags_end = cur.pos;
        if more {
            self.scan_movetext(&mut cur);
        }
        self.end_line = cur.line;
        cur.pos.min(bytes.len())
    }

    /// Forgets the previous game.
    fn reset(&mut self, tags: &mut Tags) {
        tags.clear();
        self.tag_lines.clear();
        self.tag_values.clear();
        self.bad_tags.clear();
        self.spaced_tags.clear();
        self.split_tags.clear();
        self.quoted_tags.clear();
        self.last_bad = None;
        self.name_set.0.clear();
        self.name_set.1 = 0;
        self.sans.clear();
        // A game of a million moves leaves a buffer of tens of MiB: give
        // it back rather than keep it in every worker.
        if self.sans.capacity() > 1 << 16 {
            self.sans.shrink_to(1 << 16);
        }
        self.stop = None;
        self.marker = None;
        self.unterminated_comment = None;
        self.variations = None;
        self.odd.clear();
        self.numbers.clear();
        self.tag_break = None;
        self.names.clear();
        self.comments.clear();
    }

    /// A tag pair over lines, which PGN 8.1 allows (white space, line ends
    /// too, may stand between its tokens) and pgn-reader does not (it reads
    /// a tag on one line only): read as the tag it names.
    fn split_tag_pair(
        &mut self,
        cur: &mut Cursor<'_>,
        tags: &mut Tags,
        split: &SplitTag,
        line: u64,
    ) {
        let base = cur.pos;
        let name = (base + split.name.0, base + split.name.1);
        self.names.push(name);
        let bytes = cur.bytes;
        let value = (base + split.value.0, base + split.value.1);
        let text = crate::read::pgn::unescape(bytes.get(value.0..value.1).unwrap_or_default());
        let name = bytes.get(name.0..name.1).unwrap_or_default();
        for _ in 0..split.end {
            cur.bump();
        }
        self.split_tags.push((line, cur.line, self.tag_lines.len()));
        self.keep_tag(tags, name, &text, line, value);
    }

    /// Keeps a tag pair read on `line`: its name and its value's text
    /// (escapes decoded) in `tags`, and where the value stands in the
    /// game's bytes.
    #[inline]
    fn keep_tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        text: &[u8],
        line: u64,
        value: (usize, usize),
    ) {
        tags.push(name, text);
        self.tag_lines.push(line);
        self.tag_values.push(value);
    }

    /// Whether the fast paths (`moves`, `plain_tag`) are taken: always, but
    /// in the tests that hold them to the general loops.
    #[inline(always)]
    fn fast_paths(&self) -> bool {
        #[cfg(test)]
        return !self.general_only;
        #[cfg(not(test))]
        true
    }

    /// pgn-reader's `read_tags` and `skip_ket`. Returns false when the tags
    /// end the game (an unterminated tag at the end of the input).
    fn scan_tags(&mut self, cur: &mut Cursor<'_>, tags: &mut Tags) -> bool {
        let mut blank_before = false;
        while cur.peek() == Some(b'[') {
            if blank_before && self.repeats_a_name(cur) {
                self.tag_break = Some((cur.pos, self.tag_lines.len()));
                return false;
            }
            let line_start = cur.pos;
            let line = cur.line;
            if self.fast_paths()
                && let Some(plain) = plain_tag(cur.rest())
            {
                let name = (line_start + 1, line_start + 1 + plain.name);
                let value = (name.1 + 2, line_start + plain.quote);
                self.names.push(name);
                if !self.skim {
                    let bytes = cur.bytes;
                    let text = bytes.get(value.0..value.1).unwrap_or_default();
                    let name = bytes.get(name.0..name.1).unwrap_or_default();
                    self.keep_tag(tags, name, text, line, value);
                }
                cur.skip(plain.quote + 2);
                // Most tag lines are followed by the next one.
                if cur.rest().starts_with(b"\n[") {
                    cur.bump();
                    blank_before = false;
                } else {
                    blank_before = cur.skip_whitespace(false) >= 2;
                }
                continue;
            }
            cur.skip(1);
            let rest = cur.rest();
            let Some(delim) = memchr::memchr3(b'"', b'\n', b']', rest) else {
                self.bad(TagProblem::UnterminatedValue, line, line_start);
                cur.skip_until_after(b'\n');
                return false;
            };
            if rest[delim] == b'\n'
                && let Some(split) = split_tag(rest)
            {
                self.split_tag_pair(cur, tags, &split, line);
                blank_before = cur.skip_whitespace(false) >= 2;
                continue;
            }
            if rest[delim] != b'"' {
                self.bad(TagProblem::NoValue, line, line_start);
                cur.skip(delim);
                cur.bump();
                blank_before = self.skip_ket(cur, line, line_start) >= 2;
                continue;
            }
            let name = &rest[..delim];
            let name = name.strip_suffix(b" ").unwrap_or(name);
            let mut name_range = (cur.pos, cur.pos + name.len());
            let is_name = |n: &[u8]| {
                !n.is_empty() && n.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
            };
            let mut problem = None;
            if !is_name(name) {
                // White space around the name is allowed on import (PGN
                // 8.1): `[ Result  "1-0"]` is the Result tag.
                let trimmed = name.trim_ascii();
                if is_name(trimmed) {
                    let lead = name.len() - name.trim_ascii_start().len();
                    name_range = (cur.pos + lead, cur.pos + lead + trimmed.len());
                    self.spaced_tags.push((line, line_start));
                } else {
                    problem = Some(TagProblem::BadName);
                }
            }
            self.names.push(name_range);
            cur.skip(delim + 1);
            let value_start = cur.pos;
            let Some(value_end) = self.tag_value(cur, line, line_start, &mut problem) else {
                return false;
            };
            let bytes = cur.bytes;
            let value = bytes.get(value_start..value_end).unwrap_or_default();
            let name = bytes.get(name_range.0..name_range.1).unwrap_or_default();
            // Where games end does not depend on tag values (`skim`).
            if !self.skim {
                let text = crate::read::pgn::unescape(value);
                self.keep_tag(tags, name, &text, line, (value_start, value_end));
            }
            if let Some(problem) = problem {
                self.bad(problem, line, line_start);
            }
            blank_before = self.skip_ket(cur, line, line_start) >= 2;
        }
        true
    }

    /// A tag's value from the cursor: up to an unescaped quote, or the end
    /// of the line (then `problem` says so). Returns where it ends; `None`
    /// when the input ends first (pgn-reader fails the game there).
    fn tag_value(
        &mut self,
        cur: &mut Cursor<'_>,
        line: u64,
        line_start: usize,
        problem: &mut Option<TagProblem>,
    ) -> Option<usize> {
        loop {
            let rest = cur.rest();
            match memchr::memchr3(b'\\', b'"', b'\n', rest) {
                Some(n) if rest[n] == b'"' => {
                    let after = rest.get(n + 1..).unwrap_or_default();
                    // `[White ""Mephisto""]`: quotes inside the value
                    // that are not escaped; the value runs to the quote
                    // that closes the tag.
                    let inner = (!closes_tag(after))
                        .then(|| inner_quoted_end(after))
                        .flatten();
                    let n = match inner {
                        Some(m) => {
                            self.quoted_tags.push((line, self.tag_lines.len()));
                            n + 1 + m
                        }
                        None => n,
                    };
                    let end = cur.pos + n;
                    cur.skip(n + 1);
                    return Some(end);
                }
                Some(n) if rest[n] == b'\n' => {
                    let end = cur.pos + n;
                    cur.skip(n);
                    problem.get_or_insert(TagProblem::UnterminatedValue);
                    return Some(end);
                }
                Some(n) => cur.skip(n + 2),
                None => {
                    // pgn-reader fails the game here ("unterminated tag").
                    self.bad(TagProblem::UnterminatedValue, line, line_start);
                    cur.skip(rest.len());
                    return None;
                }
            }
        }
    }

    /// Whether the tag at the cursor has a name this game already has.
    /// A set takes over from the list in long tag sections, so that a game
    /// of a million tags is not quadratic.
    fn repeats_a_name(&mut self, cur: &Cursor<'_>) -> bool {
        let rest = cur.rest().get(1..).unwrap_or_default();
        let end = rest
            .iter()
            .position(|&b| matches!(b, b' ' | b'"' | b']' | b'\n'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            return false;
        }
        if self.names.len() <= 32 {
            return self
                .names
                .iter()
                .any(|&(a, b)| cur.bytes.get(a..b) == Some(name));
        }
        let (set, synced) = &mut self.name_set;
        for &(a, b) in self.names.get(*synced..).unwrap_or_default() {
            set.insert(cur.bytes.get(a..b).unwrap_or_default().to_vec());
        }
        *synced = self.names.len();
        set.contains(name)
    }

    /// Returns the line breaks crossed after the tag.
    fn skip_ket(&mut self, cur: &mut Cursor<'_>, line: u64, line_start: usize) -> usize {
        while let Some(b) = cur.peek() {
            match b {
                b' ' | b'\t' | b'\r' => cur.skip(1),
                b']' => {
                    cur.skip(1);
                    return cur.skip_whitespace(false);
                }
                b'\n' => {
                    self.bad(TagProblem::MissingBracket, line, line_start);
                    cur.bump();
                    return 1 + cur.skip_whitespace(true);
                }
                _ => break,
            }
        }
        self.bad(TagProblem::MissingBracket, line, line_start);
        0
    }

    /// Records a tag problem, once per tag line.
    fn bad(&mut self, problem: TagProblem, line: u64, line_start: usize) {
        if self.last_bad == Some(line_start) {
            return;
        }
        self.last_bad = Some(line_start);
        self.bad_tags.push(BadTag {
            problem,
            line,
            line_start,
        });
    }

    /// pgn-reader's `read_movetext`, with variations skipped as its
    /// `skip_variation` does.
    fn scan_movetext(&mut self, cur: &mut Cursor<'_>) {
        loop {
            if self.fast_paths() && !self.skim && self.stop.is_none() && self.marker.is_none() {
                self.moves(cur);
            }
            let Some(b) = cur.peek() else { break };
            let start = cur.pos;
            let line = cur.line;
            match b {
                b'{' => {
                    cur.skip(1);
                    if cur.skip_until_after(b'}') {
                        self.comment(cur.bytes, line, start + 1, cur.pos - 1);
                    } else {
                        self.unterminated_comment = Some(line);
                        self.unterminated_comment_at = start;
                    }
                }
                b'\n' => {
                    cur.bump();
                    match cur.peek() {
                        Some(b'%') => {
                            cur.skip(1);
                            cur.skip_until(b'\n');
                        }
                        // A tag line ends the movetext; a blank line only
                        // after the termination marker (see the module
                        // documentation).
                        Some(b'[') => return,
                        Some(b'\n') if self.marker.is_some() => return,
                        Some(b'\r') if self.marker.is_some() && cur.peek_at(1) == Some(b'\n') => {
                            return;
                        }
                        _ => {}
                    }
                }
                b';' => {
                    cur.skip_until(b'\n');
                }
                b'0' => self.zero(cur, line, start),
                b'1' => self.one(cur, line, start),
                0xc2 => {
                    // ½-½
                    cur.skip(1);
                    if cur.eat(b"\xbd") && cur.eat_dash() && cur.eat("½".as_bytes()) {
                        self.outcome(Outcome::Known(KnownOutcome::Draw), line, start, cur.pos);
                        self.odd(Oddity::HalfSigns, line, start, cur.pos);
                    } else {
                        self.unreadable(cur, line, start);
                    }
                }
                b'2'..=b'9' => {
                    cur.skip(1);
                    self.move_number(cur, line, b);
                }
                b'(' => self.variation(cur, line, start),
                b')' => {
                    // pgn-reader reports an unmatched `)` as the end of a
                    // variation, which the mainline ignores.
                    cur.skip(1);
                    self.odd(Oddity::StrayParenthesis, line, start, start + 1);
                }
                b'$' => self.nag(cur, line, start),
                b'!' | b'?' => {
                    cur.skip(1);
                    if matches!(cur.peek(), Some(b'!' | b'?')) {
                        cur.skip(1);
                    }
                }
                b'*' => {
                    cur.skip(1);
                    self.outcome(Outcome::Unknown, line, start, cur.pos);
                }
                b' ' | b'\t' | b'\r' | b'.' if self.skim => skim_to_next(cur, start),
                b' ' | b'\t' | b'\r' | b'.' => {
                    // A run of them at once.
                    let run = cur
                        .rest()
                        .iter()
                        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'.'))
                        .count();
                    cur.skip(run);
                }
                // Where a game ends does not depend on what its moves are.
                _ if self.skim => skim_to_next(cur, start),
                _ => self.token(cur, line, start),
            }
        }
    }

    /// The run of movetext most games are made of, in one loop that keeps
    /// its place in registers: moves in the forms [`quick_san`] reads,
    /// move numbers, blanks, and line breaks that neither end the game nor
    /// start an escape line; each read as `scan_movetext` reads it. Stops,
    /// not past it, at the first byte it leaves to `scan_movetext`. Only
    /// for the mainline before its end (no stop, no marker) when moves are
    /// read (not `skim`).
    #[inline]
    fn moves(&mut self, cur: &mut Cursor<'_>) {
        let bytes = cur.bytes;
        let (mut pos, mut line) = (cur.pos, cur.line);
        while let Some(&b) = bytes.get(pos) {
            match b {
                b' ' => pos += 1,
                b'\n' => {
                    if matches!(bytes.get(pos + 1), Some(b'%' | b'[')) {
                        break;
                    }
                    line += 1;
                    pos += 1;
                }
                b'1'..=b'9' => {
                    let mut at = pos + 1;
                    let mut number = u32::from(b - b'0');
                    while let Some(&digit @ b'0'..=b'9') = bytes.get(at) {
                        number = number
                            .saturating_mul(10)
                            .saturating_add(u32::from(digit - b'0'));
                        at += 1;
                    }
                    // A lone `1` before anything but a dot or a blank may
                    // be a marker (`1-0`, `1/2-1/2`): `one` reads it.
                    if at == pos + 1 && b == b'1' && !matches!(bytes.get(at), Some(b'.' | b' ')) {
                        break;
                    }
                    while let Some(b'.' | b' ') = bytes.get(at) {
                        at += 1;
                    }
                    self.numbers.push((self.sans.len(), number, line));
                    pos = at;
                }
                _ => {
                    let Some((san, n)) = quick_san(bytes.get(pos..).unwrap_or_default()) else {
                        break;
                    };
                    let end = pos + n;
                    let next = bytes.get(end).copied();
                    if !next.is_none_or(is_token_end) {
                        break;
                    }
                    self.sans.push(SanToken {
                        san,
                        line,
                        start: pos,
                        end,
                        form: None,
                        ep_mark: false,
                    });
                    pos = end + usize::from(next == Some(b' '));
                }
            }
        }
        cur.pos = pos;
        cur.line = line;
    }

    /// A variation (`(` at `start`), skipped as pgn-reader skips it; the
    /// first one's place is kept for the variation walk.
    fn variation(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize) {
        cur.skip(1);
        let closed = skip_variation(cur);
        if self.stop.is_none() && self.marker.is_none() {
            let end = cur.pos;
            self.variations
                .get_or_insert(Variations { start, end, line })
                .end = end;
        }
        if !closed {
            self.odd(Oddity::UnclosedVariation, line, start, start + 1);
        }
    }

    /// A NAG (`$` at `start`): digits that do not fit a byte are said.
    fn nag(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize) {
        cur.skip(1);
        let end = cur.token_end();
        let digits = cur.bytes.get(cur.pos..end).unwrap_or_default();
        if btoi::btou::<u8>(digits).is_err() {
            // Digits that only overflow are plainly a NAG.
            if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                self.odd(Oddity::NagOutOfRange, line, start, end);
            } else {
                self.unreadable_token(line, start, end);
            }
        }
        cur.pos = end;
    }

    /// A token that starts with `0`: `0-1`, or castling written with
    /// zeros.
    fn zero(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize) {
        cur.skip(1);
        if cur.eat_dash() {
            if cur.eat(b"1") {
                let outcome = Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::Black,
                });
                self.outcome(outcome, line, start, cur.pos);
                self.dash_check(cur.bytes, line, start, cur.pos);
            } else if cur.eat(b"0") {
                let side = if cur.eat_dash() && cur.eat(b"0") {
                    shakmaty::CastlingSide::QueenSide
                } else {
                    shakmaty::CastlingSide::KingSide
                };
                let suffix = match cur.peek() {
                    Some(b'+') => Some(Suffix::Check),
                    Some(b'#') => Some(Suffix::Checkmate),
                    _ => None,
                };
                if suffix.is_some() {
                    cur.skip(1);
                }
                let san = SanPlus {
                    san: San::Castle(side),
                    suffix,
                };
                // PGN writes castling with the letter O.
                self.san(san, line, start, cur.pos, Some(Form::Castling));
            } else {
                self.unreadable(cur, line, start);
            }
        } else {
            self.unreadable(cur, line, start);
        }
    }

    /// A token that starts with `1`: `1-0`, `1/2-1/2`, or a move number.
    fn one(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize) {
        cur.skip(1);
        // Most often a move number (`1.`, `12.`, `1...`): neither a dash
        // nor `/` follows the `1`.
        if matches!(cur.peek(), Some(b'0'..=b'9' | b'.' | b' ')) {
            self.move_number(cur, line, b'1');
        } else if cur.eat_dash() {
            if cur.eat(b"0") {
                let outcome = Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::White,
                });
                self.outcome(outcome, line, start, cur.pos);
                self.dash_check(cur.bytes, line, start, cur.pos);
            } else {
                self.unreadable(cur, line, start);
            }
        } else if cur.eat(b"/2") {
            if cur.eat_dash() && cur.eat(b"1/2") {
                self.outcome(Outcome::Known(KnownOutcome::Draw), line, start, cur.pos);
                self.dash_check(cur.bytes, line, start, cur.pos);
            } else {
                self.unreadable(cur, line, start);
                skip_move_number_tail(cur);
            }
        } else {
            self.move_number(cur, line, b'1');
        }
    }

    /// A token that is no marker, number, comment or symbol: a move, an
    /// `e.p.` mark, or something unreadable.
    fn token(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize) {
        match read_san(cur.rest()) {
            Ok((san, n)) => {
                cur.skip(n);
                let next = cur.peek();
                if next.is_none_or(is_token_end) {
                    self.san(san, line, start, cur.pos, None);
                    // The blank between two moves, as `scan_movetext` would
                    // pass it, without going back to it.
                    if next == Some(b' ') {
                        cur.skip(1);
                    }
                } else {
                    let end = cur.token_end();
                    self.lenient_or_unreadable(cur, line, start, end);
                }
            }
            Err(_) => {
                if let Some(n) = en_passant_mark(cur.rest()) {
                    cur.skip(n);
                    if self.stop.is_none()
                        && self.marker.is_none()
                        && let Some(last) = self.sans.last_mut()
                    {
                        last.ep_mark = true;
                    }
                } else {
                    // pgn-reader skips one byte, then to the token end.
                    let probe = Cursor {
                        bytes: cur.bytes,
                        pos: start + 1,
                        line,
                    };
                    let end = probe.token_end();
                    self.lenient_or_unreadable(cur, line, start, end);
                    cur.pos = end;
                }
            }
        }
    }

    fn san(&mut self, san: SanPlus, line: u64, start: usize, end: usize, form: Option<Form>) {
        if self.stop.is_some() {
            return;
        }
        if self.marker.is_some() {
            self.stop = Some(Stop {
                kind: StopKind::AfterResult,
                line,
                start,
                end,
            });
            return;
        }
        self.sans.push(SanToken {
            san,
            line,
            start,
            end,
            form,
            ep_mark: false,
        });
    }

    /// A token pgn-reader skips: read as it plainly means when it has a
    /// plain reading ([`read::notation::read_token`]), else the first unreadable
    /// token. Either way the cursor moves past it.
    ///
    /// [`read::notation::read_token`]: crate::read::notation::read_token
    #[cold]
    fn lenient_or_unreadable(&mut self, cur: &mut Cursor<'_>, line: u64, start: usize, end: usize) {
        match notation::read_token(cur.bytes.get(start..end).unwrap_or_default()) {
            Some((san, form)) => self.san(san, line, start, end, Some(form)),
            None => self.unreadable_token(line, start, end),
        }
        cur.pos = end;
    }

    /// A move number whose `first` digit the cursor has passed: the rest
    /// of its digits, read as they are passed, then dots and blanks;
    /// recorded for the mainline.
    #[inline]
    fn move_number(&mut self, cur: &mut Cursor<'_>, line: u64, first: u8) {
        let mut number = u32::from(first - b'0');
        while let Some(digit @ b'0'..=b'9') = cur.peek() {
            number = number
                .saturating_mul(10)
                .saturating_add(u32::from(digit - b'0'));
            cur.skip(1);
        }
        skip_move_number_tail(cur);
        if self.skim || self.stop.is_some() || self.marker.is_some() {
            return;
        }
        self.numbers.push((self.sans.len(), number, line));
    }

    /// A termination marker written with an en or em dash.
    fn dash_check(&mut self, bytes: &[u8], line: u64, start: usize, end: usize) {
        if !bytes.get(start..end).unwrap_or_default().is_ascii() {
            self.odd(Oddity::DashInMarker, line, start, end);
        }
    }

    /// Records an oddity of the mainline (not after its end).
    #[cold]
    fn odd(&mut self, what: Oddity, line: u64, start: usize, end: usize) {
        if self.stop.is_some() {
            return;
        }
        self.odd.push(Odd {
            what,
            line,
            start,
            end,
        });
    }

    /// A mainline comment from `start` to `end` of `bytes`, on `line`,
    /// handed to what reads comments.
    fn comment(&mut self, bytes: &[u8], line: u64, start: usize, end: usize) {
        // A time is read after a move, up to the mainline's end.
        let timed = self.stop.is_none() && self.marker.is_none();
        (self.comments).mainline(bytes, line, start, end, self.sans.len(), timed);
    }

    fn outcome(&mut self, outcome: Outcome, line: u64, start: usize, end: usize) {
        if self.marker.is_none() {
            self.marker = Some(Marker {
                outcome,
                line,
                start,
                end,
            });
        } else if self.stop.is_none() {
            // A second marker is text after the first.
            self.stop = Some(Stop {
                kind: StopKind::AfterResult,
                line,
                start,
                end,
            });
        }
    }

    /// A token from `start` that pgn-reader skips; the cursor is after what
    /// pgn-reader consumed of it.
    fn unreadable(&mut self, cur: &Cursor<'_>, line: u64, start: usize) {
        let probe = Cursor {
            bytes: cur.bytes,
            pos: start,
            line,
        };
        let end = probe.token_end().max(cur.pos);
        self.unreadable_token(line, start, end);
    }

    fn unreadable_token(&mut self, line: u64, start: usize, end: usize) {
        if self.stop.is_some() {
            return;
        }
        let kind = if self.marker.is_some() {
            StopKind::AfterResult
        } else {
            StopKind::Malformed
        };
        self.stop = Some(Stop {
            kind,
            line,
            start,
            end,
        });
    }
}

/// A tag line in the form nearly every tag is written in, `[Name "value"]`
/// (a name of letters, digits and `_`, one blank, a value with no escape
/// and no line break, `]` right after its closing quote): the name's
/// length and where the closing quote stands, from the `[`. `scan_tags`
/// reads it as it reads any tag line, without looking for what else a tag
/// line may hold.
struct PlainTag {
    name: usize,
    quote: usize,
}

#[inline]
fn plain_tag(line: &[u8]) -> Option<PlainTag> {
    let name = line
        .get(1..)?
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))?;
    let open = 1 + name;
    if name == 0 || line.get(open..open + 2)? != b" \"" {
        return None;
    }
    let value = line.get(open + 2..)?;
    let end = memchr::memchr3(b'"', b'\\', b'\n', value)?;
    (value[end] == b'"' && value.get(end + 1) == Some(&b']')).then_some(PlainTag {
        name,
        quote: open + 2 + end,
    })
}

/// A tag pair split over lines, as offsets from after its `[`.
struct SplitTag {
    name: (usize, usize),
    value: (usize, usize),
    /// After the `]`.
    end: usize,
}

/// Whether what follows a value's quote closes the tag: blanks, then `]`,
/// a line end or the end of the input.
fn closes_tag(after: &[u8]) -> bool {
    let rest = after.trim_ascii_start();
    let blanks = &after[..after.len() - rest.len()];
    rest.is_empty() || rest[0] == b']' || blanks.contains(&b'\n')
}

/// Where the quote that closes a tag value with unescaped quotes inside it
/// stands in `after` (which follows the first inner quote): the first
/// quote on the line followed by `]` and then only blanks or another tag,
/// else the first quote followed by `]`. `None` when no quote on the line
/// is followed by `]` (then the first quote ends the value, as in
/// pgn-reader). A `{` ends the search: what follows it on a tag's line is
/// a comment (as `--fix` writes where movetext runs into a tag line).
fn inner_quoted_end(after: &[u8]) -> Option<usize> {
    let line = &after[..memchr::memchr2(b'\n', b'{', after).unwrap_or(after.len())];
    let mut first = None;
    let mut i = 0;
    while let Some(n) = memchr::memchr2(b'\\', b'"', line.get(i..).unwrap_or_default()) {
        let at = i + n;
        if line[at] == b'\\' {
            i = at + 2;
            continue;
        }
        i = at + 1;
        let rest = line.get(at + 1..).unwrap_or_default().trim_ascii_start();
        let Some(tail) = rest.strip_prefix(b"]") else {
            continue;
        };
        let tail = tail.trim_ascii_start();
        if tail.is_empty() || tail[0] == b'[' {
            return Some(at);
        }
        first.get_or_insert(at);
    }
    first
}

/// Bytes within which a tag pair split over lines must close.
const SPLIT_TAG_MAX: usize = 1024;

/// A tag pair whose tokens stand on more than one line (`[`, then `ECO`,
/// `"B01"` and `]` on lines of their own): the name, a value on one line,
/// and the `]`, separated by white space only, within `SPLIT_TAG_MAX`
/// bytes of the `[`. `rest` starts after the `[`.
fn split_tag(rest: &[u8]) -> Option<SplitTag> {
    let window = rest.get(..rest.len().min(SPLIT_TAG_MAX))?;
    let blanks = |mut i: usize| {
        while window.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let name_start = blanks(0);
    let mut i = name_start;
    while window
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    {
        i += 1;
    }
    let name = (name_start, i);
    i = blanks(i);
    if i == name.0 || window.get(i) != Some(&b'"') {
        return None;
    }
    let value_start = i + 1;
    i = value_start;
    loop {
        match *window.get(i)? {
            b'\\' => i += 2,
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    let value = (value_start, i);
    i = blanks(i + 1);
    (window.get(i) == Some(&b']')).then_some(SplitTag {
        name,
        value,
        end: i + 1,
    })
}

/// shakmaty's `SanPlus::from_ascii_prefix`, with the forms most moves are
/// written in (`e4`, `Nf3`, `exd5`, `Nxe5`, each with `+` or `#`) read
/// directly: the same SAN and length where shakmaty would read no more
/// (no `=`, nor `x` or a second square after a first), shakmaty's reading
/// otherwise. `read_san_agrees_with_shakmaty` holds the two to the same
/// answer.
#[inline]
fn read_san(rest: &[u8]) -> Result<(SanPlus, usize), shakmaty::san::ParseSanError> {
    quick_san(rest).map_or_else(|| SanPlus::from_ascii_prefix(rest), Ok)
}

/// The forms of [`read_san`] read directly, and their length; `None`
/// where shakmaty's reading is needed (which may be a move all the same).
#[inline(always)]
fn quick_san(rest: &[u8]) -> Option<(SanPlus, usize)> {
    // The first eight bytes as one word, zero past the end: no bounds to
    // check below, and a byte at a computed place is a shift, not a load.
    let word = match rest.first_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight),
        None => padded(rest),
    };
    let byte = |i: usize| (word >> (8 * i)) as u8;
    // The piece by a table, and the rest by comparisons the compiler turns
    // into selects: which piece a move is and whether it takes are as good
    // as random, and each branch on them would often be guessed wrong.
    let piece = PIECE[usize::from(byte(0))];
    let takes = byte(1) == b'x';
    let from_file = byte(0).wrapping_sub(b'a');
    // `x` after neither a piece nor a file: shakmaty's reading.
    if piece.is_none() && takes && from_file >= 8 {
        return None;
    }
    // Where the square starts: after the piece, the file a pawn takes
    // from, and the `x`.
    let at = if takes {
        2
    } else {
        usize::from(piece.is_some())
    };
    let (to_file, to_rank) = (byte(at).wrapping_sub(b'a'), byte(at + 1).wrapping_sub(b'1'));
    let next = byte(at + 2);
    if to_file >= 8
        || to_rank >= 8
        // What shakmaty would read on: a promotion, or a capture or second
        // square after a first one (`e2xd3`, `Ng1f3`).
        || next == b'='
        || (!takes && (next == b'x' || next.wrapping_sub(b'a') < 8))
    {
        return None;
    }
    let suffix = match next {
        b'+' => Some(Suffix::Check),
        b'#' => Some(Suffix::Checkmate),
        _ => None,
    };
    let san = San::Normal {
        role: piece.unwrap_or(shakmaty::Role::Pawn),
        file: (piece.is_none() && takes).then(|| shakmaty::File::new(u32::from(from_file))),
        rank: None,
        capture: takes,
        to: shakmaty::Square::from_coords(
            shakmaty::File::new(u32::from(to_file)),
            shakmaty::Rank::new(u32::from(to_rank)),
        ),
        promotion: None,
    };
    Some((
        SanPlus { san, suffix },
        at + 2 + usize::from(suffix.is_some()),
    ))
}

/// The piece a SAN's first byte names, if it names one.
static PIECE: [Option<shakmaty::Role>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some(shakmaty::Role::Knight);
    table[b'B' as usize] = Some(shakmaty::Role::Bishop);
    table[b'R' as usize] = Some(shakmaty::Role::Rook);
    table[b'Q' as usize] = Some(shakmaty::Role::Queen);
    table[b'K' as usize] = Some(shakmaty::Role::King);
    table
};

/// The bytes of a slice shorter than eight as a little-endian word, zero
/// past its end. Out of line: joined with the read of eight bytes, it
/// would make that one a call as well.
#[cold]
#[inline(never)]
fn padded(rest: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    for (to, &from) in b.iter_mut().zip(rest) {
        *to = from;
    }
    u64::from_le_bytes(b)
}

/// After the first digit of a move number: more digits, then dots and blanks.
fn skip_move_number_tail(cur: &mut Cursor<'_>) {
    while matches!(cur.peek(), Some(b'0'..=b'9')) {
        cur.skip(1);
    }
    while matches!(cur.peek(), Some(b'.' | b' ')) {
        cur.skip(1);
    }
}

/// `e.p.` or `ep` after an en passant capture: an optional mark of the
/// notation (FIDE 2023 Appendix C.9), not a move. Returns its length.
pub fn en_passant_mark(rest: &[u8]) -> Option<usize> {
    [&b"e.p."[..], b"ep"].into_iter().find_map(|mark| {
        let after = rest.strip_prefix(mark)?;
        after
            .first()
            .is_none_or(|&b| is_token_end(b) && b != b'.')
            .then_some(mark.len())
    })
}

/// pgn-reader's `skip_variation`, entered after the `(` (but a blank line
/// does not end it). Returns whether the variation was closed, its `)`
/// consumed; else it ran to the next tag line or the end of the game.
fn skip_variation(cur: &mut Cursor<'_>) -> bool {
    let mut depth = 0usize;
    while let Some(b) = cur.peek() {
        match b {
            b'(' => {
                cur.skip(1);
                depth += 1;
            }
            b')' => {
                cur.skip(1);
                match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return true,
                }
            }
            b'{' => {
                cur.skip(1);
                cur.skip_until_after(b'}');
            }
            b';' => {
                cur.skip(1);
                cur.skip_until(b'\n');
            }
            b'\n' => match cur.peek_at(1) {
                Some(b'%') => {
                    cur.bump();
                    cur.skip(1);
                    cur.skip_until(b'\n');
                }
                Some(b'[') => return false,
                _ => cur.bump(),
            },
            _ => cur.skip(1),
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(movetext: &str) -> Lexed {
        let mut lexed = Lexed::default();
        lexed.scan(movetext.as_bytes(), 1, &mut Tags::default());
        lexed
    }

    /// Scans `bytes` game by game with `lexed`, as a run reads an input,
    /// telling `each` where each game ends (offset) and what it read.
    fn each_game(bytes: &[u8], mut lexed: Lexed, mut each: impl FnMut(usize, &mut Lexed, &Tags)) {
        let mut tags = Tags::default();
        let (mut pos, mut line) = (0, 1);
        loop {
            let (start, lines) = skip_blanks(bytes, pos);
            line += lines;
            let Some(rest) = bytes.get(start..).filter(|r| !r.is_empty()) else {
                return;
            };
            pos = start + lexed.scan(rest, line, &mut tags).max(1);
            line = lexed.end_line;
            each(pos, &mut lexed, &tags);
        }
    }

    /// Game ends of `bytes` as a scan finds them, skimming or not.
    fn game_ends(bytes: &[u8], skim: bool) -> Vec<(usize, u64)> {
        let mut ends = Vec::new();
        let lexed = Lexed {
            skim,
            ..Lexed::default()
        };
        each_game(bytes, lexed, |pos, lexed, _| {
            ends.push((pos, lexed.end_line))
        });
        ends
    }

    /// Skimming (cutting blocks, counting) ends games exactly where reading
    /// them does, lines and all: on every fixture, and on edits of them.
    /// The direct reading of common SAN gives what shakmaty's does: on
    /// every string of up to four bytes over the bytes SAN is made of, and
    /// on two million longer ones drawn from them.
    #[test]
    fn read_san_agrees_with_shakmaty() {
        let alphabet = b"NBRQKPOZxX-=@+#!?abdeh0123789 .";
        let same = |bytes: &[u8]| {
            assert_eq!(
                read_san(bytes).ok(),
                SanPlus::from_ascii_prefix(bytes).ok(),
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        };
        let mut bytes = Vec::new();
        let mut tried = 0;
        for len in 0..=4u32 {
            for mut code in 0..alphabet.len().pow(len) {
                bytes.clear();
                for _ in 0..len {
                    bytes.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                same(&bytes);
                tried += 1;
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2_000_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = 5 + (state % 6) as usize;
            bytes.clear();
            let mut pick = state;
            for _ in 0..len {
                pick = pick.rotate_left(11).wrapping_mul(0x2545_f491_4f6c_dd1d);
                bytes.push(alphabet[(pick >> 40) as usize % alphabet.len()]);
            }
            same(&bytes);
            tried += 1;
        }
        assert!(tried > 2_900_000);
    }

    #[test]
    fn skims_end_games_where_scans_do() {
        let files = crate::testing::plain_pgn_files(&crate::testing::fixtures());
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        let pieces: [&[u8]; 20] = [
            b"1-0",
            b"0-1",
            b"1/2-1/2",
            b"*",
            b"\xc2\xbd-\xc2\xbd",
            b"$1",
            b"{",
            b"}",
            b"(",
            b")",
            b"\n",
            b"\n\n",
            b";",
            b"%",
            b"0-0",
            b"[",
            b" $1-0\n\n",
            b" 0-1\n\n",
            b" 26\xc2\xbd-\xc2\xbd\n\n",
            b" 1-x0-1\n\n",
        ];
        for file in &files {
            let bytes = std::fs::read(file).unwrap();
            assert_eq!(
                game_ends(&bytes, true),
                game_ends(&bytes, false),
                "{}",
                file.display()
            );
            for _ in 0..20 {
                let mut edited = bytes.clone();
                for _ in 0..4 {
                    let at = next() % (edited.len() + 1);
                    let piece = pieces[next() % pieces.len()];
                    edited.splice(at..at, piece.iter().copied());
                }
                assert_eq!(
                    game_ends(&edited, true),
                    game_ends(&edited, false),
                    "{}: {}",
                    file.display(),
                    String::from_utf8_lossy(&edited)
                );
            }
        }
    }

    /// Each game of `bytes` as a scan reads it (where it ends, its tags,
    /// everything located), with the fast paths or by the general loops
    /// alone.
    fn games_read(bytes: &[u8], general_only: bool) -> Vec<String> {
        let mut games = Vec::new();
        let lexed = Lexed {
            general_only,
            ..Lexed::default()
        };
        each_game(bytes, lexed, |pos, lexed, tags| {
            // The switch itself is not what is compared.
            lexed.general_only = false;
            games.push(format!("{pos} {lexed:?} {tags:?}"));
            lexed.general_only = general_only;
        });
        games
    }

    #[test]
    fn the_fast_paths_read_as_the_general_loops() {
        let files = crate::testing::plain_pgn_files(&crate::testing::fixtures());
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        let pieces: [&[u8]; 30] = [
            b"\"",
            b"\\",
            b"]",
            b"_",
            b"[Site \"x\"]\n",
            b"\n\n[Event \"?\"]\n",
            b"1",
            b"1.",
            b"12...",
            b"9",
            b" ",
            b"  ",
            b"\n",
            b"\r\n",
            b"\n%",
            b"\n[",
            b"e4",
            b"Nf3+",
            b"exd5#",
            b"e8=Q",
            b"Ng1f3",
            b"O-O",
            b"0-0",
            b"1-0",
            b"1/2",
            b"*",
            b"!",
            b".",
            b"x",
            b"\t",
        ];
        let mut games = 0;
        for file in &files {
            let bytes = std::fs::read(file).unwrap();
            let read = games_read(&bytes, false);
            assert_eq!(read, games_read(&bytes, true), "{}", file.display());
            games += read.len();
            for _ in 0..20 {
                let mut edited = bytes.clone();
                for _ in 0..6 {
                    let at = next() % (edited.len() + 1);
                    let piece = pieces[next() % pieces.len()];
                    edited.splice(at..at, piece.iter().copied());
                }
                assert_eq!(
                    games_read(&edited, false),
                    games_read(&edited, true),
                    "{}: {}",
                    file.display(),
                    String::from_utf8_lossy(&edited)
                );
            }
        }
        assert!(games > 100, "only {games} games");
    }

    #[test]
    #[ignore = "reads ../shared/corpora; .ci/run runs it"]
    fn the_fast_paths_read_as_the_general_loops_on_the_shared_corpora() {
        let mut games = 0;
        for file in crate::testing::plain_pgn_files(&crate::testing::corpora()) {
            let bytes = std::fs::read(&file).unwrap();
            let read = games_read(&bytes, false);
            assert_eq!(read, games_read(&bytes, true), "{}", file.display());
            games += read.len();
        }
        assert!(games > 10_000, "only {games} games");
    }

    #[test]
    #[ignore = "reads ../shared/corpora; .ci/run runs it"]
    fn skims_end_games_where_scans_do_on_the_shared_corpora() {
        let mut games = 0;
        for file in crate::testing::plain_pgn_files(&crate::testing::corpora()) {
            let bytes = std::fs::read(&file).unwrap();
            let ends = game_ends(&bytes, false);
            assert_eq!(game_ends(&bytes, true), ends, "{}", file.display());
            games += ends.len();
        }
        assert!(games > 10_000, "only {games} games");
    }

    #[test]
    fn runs_of_header_only_games_are_cut_where_a_game_starts() {
        let run = b"[White \"a\"]\n\n[White \"b\"]\n\n[White \"c\"]\n\n[Wh";
        // The last whole line that starts a game is the third one; the
        // partial fourth is never a cut.
        assert_eq!(
            last_game_start(run),
            Cut {
                at: 26,
                after_tag_break: true
            }
        );
        assert_eq!(last_game_start(b"[White \"a\"]\n\n").at, 0);
        // After a game with movetext, the next game is a cut too, and the
        // one preferred to a game after a tag break.
        let mixed = b"[White \"a\"]\n\n1. e4 *\n\n[White \"b\"]\n\n[White \"c\"]\n";
        assert_eq!(
            last_game_start(mixed),
            Cut {
                at: 22,
                after_tag_break: false
            }
        );
        // Movetext continued after a blank line stays with its game.
        let pgn = b"[A \"1\"]\n1. e4\n\n[B \"2\"]\n1. d4\n\n2. c4\n";
        assert_eq!(last_game_start(pgn).at, 15);
        assert_eq!(last_game_start(b"").at, 0);
    }

    #[test]
    fn a_tag_line_of_any_length_is_never_a_cut() {
        // pgn-reader gives up on a tag line over 255 bytes and reads on
        // from the next line as a new game; the lexer reads the tag.
        let long = "x".repeat(300);
        let pgn = format!(
            "[Event \"E\"]\n[Site \"S\"]\n[Annotator \"{long}\"]\n[White \"W\"]\n\n1. e4 *\n\n[Event"
        );
        assert_eq!(last_game_start(pgn.as_bytes()).at, pgn.len() - 6);
        // A game whose first line is not complete yet is a cut too, when
        // the game before ended with its marker: a game of one 3.9 MB tag
        // is read whole.
        let pgn = format!("*\n\n[Event \"{}", "x".repeat(1000));
        assert_eq!(last_game_start(pgn.as_bytes()).at, 3);
    }

    #[test]
    fn quotes_inside_a_value_are_part_of_it() {
        let cases: &[(&str, &[&str], bool)] = &[
            (r#"[White ""Mephisto""]"#, &[r#""Mephisto""#], true),
            (
                r#"[Event "006.Torneo "Pribaltic""]"#,
                &[r#"006.Torneo "Pribaltic""#],
                true,
            ),
            (
                r#"[Annotator "Lopez "Battle Royale""]"#,
                &[r#"Lopez "Battle Royale""#],
                true,
            ),
            // Two tags on a line: each closes at its own quote.
            (
                r#"[White "a "b" c"] [Black "d"]"#,
                &[r#"a "b" c"#, "d"],
                true,
            ),
            // Escaped quotes are PGN's own, not inner quotes.
            (r#"[White "a \"b\""]"#, &[r#"a "b""#], false),
            // No quote closes the tag: the first quote ends the value.
            (r#"[White "a" b]"#, &["a"], false),
        ];
        for &(line, values, quoted) in cases {
            let mut tags = Tags::default();
            let mut lexed = Lexed::default();
            let text = format!("{line}\n\n1. e4 *\n");
            let end = lexed.scan(text.as_bytes(), 1, &mut tags);
            assert_eq!(end, text.len(), "{line}: one game");
            let read: Vec<&[u8]> = tags.iter().map(|(_, _, v)| v).collect();
            let want: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
            assert_eq!(read, want, "{line}");
            assert_eq!(!lexed.quoted_tags.listed().is_empty(), quoted, "{line}");
            if quoted {
                assert_eq!(lexed.sans.len(), 1, "{line}");
                assert!(lexed.bad_tags.listed().is_empty(), "{line}");
            }
        }
    }

    #[test]
    fn plain_readings_move_numbers_and_oddities() {
        let lexed = lex("1. e4 e5 2. o-o $256 7. Ng1-f3 ) ½-½");
        let forms: Vec<Option<Form>> = lexed.sans.iter().map(|t| t.form).collect();
        assert_eq!(
            forms,
            [None, None, Some(Form::Castling), Some(Form::Squares)]
        );
        let numbers: Vec<(usize, u32)> = lexed.numbers.iter().map(|&(i, n, _)| (i, n)).collect();
        assert_eq!(numbers, [(0, 1), (2, 2), (3, 7)]);
        let odd: Vec<Oddity> = lexed.odd.listed().iter().map(|o| o.what).collect();
        assert_eq!(
            odd,
            [
                Oddity::NagOutOfRange,
                Oddity::StrayParenthesis,
                Oddity::HalfSigns
            ]
        );
        assert!(lexed.stop.is_none());
        assert!(lexed.marker.is_some());
    }

    #[test]
    fn an_unclosed_variation_and_an_en_passant_mark() {
        let lexed = lex("1. e4 d5 2. exd5 e.p. (2. e5 *");
        assert!(lexed.sans[2].ep_mark);
        assert_eq!(lexed.odd.listed()[0].what, Oddity::UnclosedVariation);
        assert!(lexed.marker.is_none());
    }
}
