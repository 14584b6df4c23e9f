//! One game as read from the input, before any chess: its tags, where it
//! is, and the located movetext; plus decoding of tag values to text.

use std::borrow::Cow;

use shakmaty::san::San;

use crate::read::{
    lexer::{Lexed, StopKind, is_token_end},
    tags::Tags,
};

/// A name folded for matching: transliterated to ASCII, lower case,
/// `ae`/`oe`/`ue` as the letters they stand for, its words sorted (so that
/// "Müller, Jan" and "Jan Mueller" are one name, and "Harrwitz Daniel" and
/// "Harrwitz, Daniel").
pub fn fold_name(name: &str) -> String {
    let ascii = deunicode::deunicode(name).to_ascii_lowercase();
    let ascii = ascii
        .replace("ae", "a")
        .replace("oe", "o")
        .replace("ue", "u");
    let mut words: Vec<&str> = ascii
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    words.join(" ")
}

/// `fold_name` of an ASCII name of at most `FOLD_MAX` bytes and 16 words,
/// written into `out` without allocating (it runs for every game); `None`
/// for any other name.
fn fold_ascii(name: &[u8], out: &mut [u8; FOLD_MAX]) -> Option<usize> {
    if name.len() > FOLD_MAX || !name.is_ascii() {
        return None;
    }
    let mut buf = [0u8; FOLD_MAX];
    let mut len = name.len();
    for (b, &c) in buf.iter_mut().zip(name) {
        *b = c.to_ascii_lowercase();
    }
    // `replace("ae", "a")`, then "oe", then "ue": each pass left to right.
    for first in [b'a', b'o', b'u'] {
        let (mut read, mut write) = (0, 0);
        while read < len {
            buf[write] = buf[read];
            write += 1;
            read += if buf[read] == first && buf.get(read + 1) == Some(&b'e') && read + 1 < len {
                2
            } else {
                1
            };
        }
        len = write;
    }
    let mut words = [(0u8, 0u8); 16];
    let mut count = 0;
    let mut i = 0;
    while i < len {
        if !buf[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < len && buf[i].is_ascii_alphanumeric() {
            i += 1;
        }
        *words.get_mut(count)? = (start as u8, i as u8);
        count += 1;
    }
    let words = &mut words[..count];
    words.sort_unstable_by(|a, b| {
        buf[a.0 as usize..a.1 as usize].cmp(&buf[b.0 as usize..b.1 as usize])
    });
    let mut n = 0;
    for (k, &(a, b)) in words.iter().enumerate() {
        if k > 0 {
            out[n] = b' ';
            n += 1;
        }
        let word = &buf[a as usize..b as usize];
        out[n..n + word.len()].copy_from_slice(word);
        n += word.len();
    }
    Some(n)
}

/// The longest name `fold_ascii` folds (`u8` offsets).
const FOLD_MAX: usize = 255;

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

    /// A 128-bit fingerprint of the game as recorded, for finding copies:
    /// the players (White and Black, their names folded as `fold_name`
    /// folds them), the starting position (the FEN tag, if any), the
    /// mainline moves as read, and from the first token that is no move to
    /// the end of the movetext, every token as written (comments,
    /// variations, NAGs and move numbers aside). `None` when there is no
    /// move or neither player is named: nothing tells two such games apart.
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
        for name in [white, black] {
            let name = name.unwrap_or_default();
            let mut folded = [0u8; FOLD_MAX];
            match fold_ascii(name, &mut folded) {
                Some(n) => fp.bytes(&folded[..n]),
                None => fp.bytes(fold_name(&decode(name).0).as_bytes()),
            }
        }
        fp.bytes(self.tags.get("FEN").unwrap_or_default().trim_ascii());
        for token in &self.lexed.sans {
            fp.word(san_code(token.san.san));
        }
        if let Some(stop) = self.lexed.stop.filter(|s| s.kind == StopKind::Malformed) {
            fp.word(u64::MAX);
            let end = self.lexed.marker.map_or(self.bytes.len(), |m| m.start);
            for token in movetext_tokens(self.bytes.get(stop.start..end).unwrap_or_default()) {
                fp.bytes(token);
            }
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

/// The tokens of movetext that are not comments, variations, NAGs, move
/// numbers or markers, as pgn-reader ends tokens (`.`, `!` and `?` end one
/// and are dropped).
fn movetext_tokens(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while let Some(&b) = bytes.get(i) {
            let rest = &bytes[i..];
            match b {
                b'{' => i += memchr::memchr(b'}', rest).map_or(rest.len(), |n| n + 1),
                b';' => i += memchr::memchr(b'\n', rest).unwrap_or(rest.len()),
                b'(' => {
                    // To the `)` that closes it, over comments.
                    let mut depth = 0usize;
                    while let Some(&c) = bytes.get(i) {
                        i += 1;
                        match c {
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            b'{' => {
                                i += memchr::memchr(b'}', &bytes[i..])
                                    .map_or(bytes.len() - i, |n| n + 1);
                            }
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                    }
                }
                _ if is_token_end(b) && b != b'$' => i += 1,
                _ => {
                    let len = rest[1..]
                        .iter()
                        .position(|&c| is_token_end(c))
                        .map_or(rest.len(), |n| n + 1);
                    let token = &rest[..len];
                    i += len;
                    let skipped = token[0] == b'$'
                        || token.iter().all(u8::is_ascii_digit)
                        || matches!(token, b"1-0" | b"0-1" | b"1/2-1/2");
                    if !skipped {
                        return Some(token);
                    }
                }
            }
        }
        None
    })
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

    fn fingerprint(pgn: &str) -> Option<u128> {
        let mut tags = Tags::default();
        let mut lexed = Lexed::default();
        lexed.scan(pgn.as_bytes(), 1, &mut tags);
        RawGame {
            bytes: pgn.as_bytes(),
            line: 1,
            tags: &tags,
            lexed: &lexed,
            after_tag_break: false,
        }
        .fingerprint()
    }

    #[test]
    fn a_fingerprint_covers_the_whole_record_and_folds_names() {
        let game = |white: &str, moves: &str| {
            fingerprint(&format!(
                "[White \"{white}\"]\n[Black \"Staunton, Howard\"]\n\n{moves}"
            ))
        };
        let base = game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 3. Bc4 *");
        assert!(base.is_some());
        // Names as they fold: punctuation, case, accents, word order.
        for same in [
            "Harrwitz Daniel",
            "HARRWITZ, Daniel",
            "Daniel Harrwitz",
            "Hárrwitz, Daniel",
        ] {
            assert_eq!(game(same, "1. e4 e5 2. Nf3 Sf6 3. Bc4 *"), base, "{same}");
        }
        // Comments, NAGs, variations and move numbers aside, also past
        // the first token that is no move.
        assert_eq!(
            game(
                "Harrwitz, Daniel",
                "1. e4 {x} e5 $1 (1... c5) 2. Nf3 Sf6 {y} 3. Bc4! 1-0"
            ),
            base
        );
        // Every token counts, past the first that is no move too.
        assert_ne!(
            game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 3. Bb5 *"),
            base
        );
        assert_ne!(
            game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sc6 3. Bc4 *"),
            base
        );
        assert_ne!(game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 *"), base);
        assert_ne!(
            game("Anderssen, Adolf", "1. e4 e5 2. Nf3 Sf6 3. Bc4 *"),
            base
        );
    }

    #[test]
    fn names_fold_alike_without_allocating() {
        let mut names: Vec<String> = [
            "Harrwitz, Daniel",
            "  Mueller,Jan  ",
            "aee oae uoe aoee ueue",
            "Carlsen, M.",
            "Stockfish 16.1 (NNUE)",
            "",
            "?",
            "a b c d e f g h i j k l m n o p",
        ]
        .map(str::to_owned)
        .to_vec();
        // Every name of the fixtures.
        for file in crate::testing::plain_pgn_files(&crate::testing::fixtures()) {
            let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
            for line in text.lines() {
                for tag in ["[White \"", "[Black \""] {
                    if let Some(rest) = line.strip_prefix(tag) {
                        names.push(rest.trim_end_matches("\"]").to_owned());
                    }
                }
            }
        }
        assert!(names.len() > 100);
        for name in &names {
            let mut out = [0u8; FOLD_MAX];
            if let Some(n) = fold_ascii(name.as_bytes(), &mut out) {
                assert_eq!(
                    std::str::from_utf8(&out[..n]).unwrap(),
                    fold_name(name),
                    "{name}"
                );
            }
        }
        // More than 16 words, or not ASCII: left to `fold_name`.
        let mut out = [0u8; FOLD_MAX];
        assert_eq!(
            fold_ascii(b"a b c d e f g h i j k l m n o p q", &mut out),
            None
        );
        assert_eq!(fold_ascii("Réti".as_bytes(), &mut out), None);
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt(b"abcdef", 3), "abc…");
        assert_eq!(excerpt(b"ab\r\n", 3), "ab");
    }
}
