//! One game as read from the input, before any chess: its tags, where it
//! is, and the located movetext; plus decoding of tag values to text.

use std::borrow::Cow;

use shakmaty::san::San;

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
    /// Whether the game before ended only because this game's first tag
    /// repeats one of its names (header-only games): tags written before
    /// that tag would join the two games.
    pub after_tag_break: bool,
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

    /// A 128-bit fingerprint of the game for finding copies: the players
    /// (White and Black as written, trimmed), the starting position (the
    /// FEN tag, if any) and the mainline moves as read. `None` when there
    /// is no move or neither player is named: nothing tells two such games
    /// apart.
    pub fn fingerprint(&self) -> Option<u128> {
        let player = |name: &str| {
            self.tags
                .get(name)
                .map(<[u8]>::trim_ascii)
                .filter(|v| !matches!(*v, b"" | b"?" | b"-"))
        };
        let (white, black) = (player("White"), player("Black"));
        if self.lexed.sans.is_empty() || (white.is_none() && black.is_none()) {
            return None;
        }
        let mut fp = Fingerprint::default();
        fp.bytes(white.unwrap_or_default());
        fp.bytes(black.unwrap_or_default());
        fp.bytes(self.tags.get("FEN").unwrap_or_default().trim_ascii());
        for token in &self.lexed.sans {
            fp.word(san_code(token.san.san));
        }
        Some(fp.finish())
    }

    /// The line starting at a byte offset, without its line break.
    pub fn line_text(&self, start: usize) -> String {
        let rest = self.bytes.get(start..).unwrap_or_default();
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        excerpt(&rest[..end], 80)
    }
}

/// Two 64-bit multiply-rotate streams: fast enough to run over every move
/// of every game, and 128 bits wide so that copies found by chance are
/// vanishingly rare (about n² / 2¹²⁹ for n distinct games).
#[derive(Debug)]
struct Fingerprint(u64, u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344)
    }
}

impl Fingerprint {
    fn word(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
        self.1 = (self.1.rotate_left(31) ^ x).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    }

    /// A byte string, its length first so that fields do not run together.
    fn bytes(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
    }

    fn finish(&self) -> u128 {
        let mix = |mut x: u64| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            x ^= x >> 33;
            x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
            x ^ (x >> 33)
        };
        (u128::from(mix(self.0)) << 64) | u128::from(mix(self.1 ^ self.0.rotate_left(17)))
    }
}

/// A move as read, in a word: its kind, piece, squares and promotion (the
/// check suffix left out).
fn san_code(san: San) -> u64 {
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            1 | (role as u64) << 4
                | file.map_or(0, |f| u64::from(f) + 1) << 8
                | rank.map_or(0, |r| u64::from(r) + 1) << 12
                | u64::from(capture) << 16
                | (to as u64) << 20
                | promotion.map_or(0, |p| p as u64) << 28
        }
        San::Castle(side) => 2 | (side as u64) << 4,
        San::Put { role, to } => 3 | (role as u64) << 4 | (to as u64) << 20,
        San::Null => 4,
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
