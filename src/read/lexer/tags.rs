//! The tag section, read as pgn-reader's `read_tags` reads it, with
//! every tag line that is not `[Name "value"]` located.

use super::{
    cursor::Cursor,
    fast::plain_tag,
    lexed::{BadTag, Lexed, TagProblem},
};
use crate::read::tags::Tags;

/// A tag pair split over lines, as offsets from after its `[`.
pub(super) struct SplitTag {
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

impl Lexed {
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

    /// pgn-reader's `read_tags` and `skip_ket`. Returns false when the tags
    /// end the game (an unterminated tag at the end of the input).
    pub(super) fn scan_tags(&mut self, cur: &mut Cursor<'_>, tags: &mut Tags) -> bool {
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
}
