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

use crate::read::tags::Tags;

mod cursor;
mod fast;
mod lexed;
mod movetext;
mod tags;
#[cfg(test)]
mod tests;

use self::cursor::Cursor;
pub use self::{
    cursor::{is_token_end, trim_blanks_end},
    lexed::*,
    movetext::en_passant_mark,
};

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
