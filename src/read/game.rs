//! One game as read from the input, before any chess: its tags, where it
//! is, and the located movetext; plus decoding of tag values to text.

use std::borrow::Cow;

use crate::read::{lexer::Lexed, tags::Tags};

/// Decodes a tag value: UTF-8 when it is, else Windows-1252 (what non-UTF-8
/// PGN files almost always are; PGN 4.1 names ISO 8859-1, its subset).
/// Returns the text and whether it was valid UTF-8.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), true),
        Err(_) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            (text, false)
        }
    }
}

/// Decodes bytes for a message, shortened to `max` characters.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    let (text, _) = decode(bytes);
    let text = text.trim_end_matches(['\r', '\n']);
    if text.chars().count() > max {
        let mut short: String = text.chars().take(max).collect();
        short.push('…');
        short
    } else {
        text.to_owned()
    }
}

/// One game, borrowed from the reader's buffers.
#[derive(Debug)]
pub struct RawGame<'a> {
    /// The game's bytes, from its first tag to the start of the next game.
    pub bytes: &'a [u8],
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// Tag pairs as pgn-reader read them.
    pub tags: &'a Tags,
    /// Located lines, malformed tags and mainline tokens.
    pub lexed: &'a Lexed,
}

impl RawGame<'_> {
    /// The line of the tag at this index (as `Tags::find` returns it), or
    /// the game's first line.
    pub fn tag_line(&self, index: usize) -> u64 {
        self.lexed
            .tag_lines
            .get(index)
            .copied()
            .unwrap_or(self.line)
    }

    /// The text of the byte range, for messages and the `san` column.
    pub fn text(&self, start: usize, end: usize) -> String {
        excerpt(self.bytes.get(start..end).unwrap_or_default(), 60)
    }

    /// The line starting at a byte offset, without its line break.
    pub fn line_text(&self, start: usize) -> String {
        let rest = self.bytes.get(start..).unwrap_or_default();
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        excerpt(&rest[..end], 80)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_latin1_as_windows_1252() {
        assert_eq!(decode("Müller".as_bytes()), (Cow::Borrowed("Müller"), true));
        let (text, utf8) = decode(b"M\xfcller \x80");
        assert_eq!(text, "Müller €");
        assert!(!utf8);
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt(b"abcdef", 3), "abc…");
        assert_eq!(excerpt(b"ab\r\n", 3), "ab");
    }
}
