//! The lexer's cursor over a game's bytes, and the byte classes it
//! reads tokens by (pgn-reader's token terminators).

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
/// token terminator after which the full scan starts a token: every one
/// but `}`, which outside a comment pgn-reader skips with the token after
/// it, so that `}1-0` is no marker).
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
        if TOKEN_END[b] && b != b'}' as usize {
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
pub(super) fn skim_to_next(cur: &mut Cursor<'_>, start: usize) {
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
pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) line: u64,
}

impl Cursor<'_> {
    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    pub(super) fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    #[inline]
    pub(super) fn rest(&self) -> &[u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// Advances one byte, counting a newline.
    #[inline]
    pub(super) fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Advances `n` bytes known to hold no newline.
    #[inline]
    pub(super) fn skip(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.bytes.len());
    }

    #[inline]
    pub(super) fn eat(&mut self, prefix: &[u8]) -> bool {
        if self.rest().starts_with(prefix) {
            self.skip(prefix.len());
            true
        } else {
            false
        }
    }

    /// pgn-reader accepts an ASCII hyphen and the en and em dashes.
    pub(super) fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    /// Moves to the next `needle` (not past it), counting lines; to the end
    /// if there is none. Returns whether it was found.
    pub(super) fn skip_until(&mut self, needle: u8) -> bool {
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
    pub(super) fn skip_until_after(&mut self, needle: u8) -> bool {
        let found = self.skip_until(needle);
        if found {
            self.bump();
        }
        found
    }

    /// The end of the token starting at the cursor.
    pub(super) fn token_end(&self) -> usize {
        self.rest()
            .iter()
            .position(|&b| is_token_end(b))
            .map_or(self.bytes.len(), |n| self.pos + n)
    }

    /// pgn-reader's `skip_whitespace`: blanks, newlines, and `%` escape
    /// lines (a `%` at the start of a line hides the rest of that line).
    /// Returns how many line breaks it crossed.
    pub(super) fn skip_whitespace(&mut self, mut new_line: bool) -> usize {
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

/// pgn-reader's `skip_variation`, entered after the `(` (but a blank line
/// does not end it). Returns whether the variation was closed, its `)`
/// consumed; else it ran to the next tag line or the end of the game.
pub(super) fn skip_variation(cur: &mut Cursor<'_>) -> bool {
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

/// After the first digit of a move number: more digits, then dots and blanks.
pub(super) fn skip_move_number_tail(cur: &mut Cursor<'_>) {
    while matches!(cur.peek(), Some(b'0'..=b'9')) {
        cur.skip(1);
    }
    while matches!(cur.peek(), Some(b'.' | b' ')) {
        cur.skip(1);
    }
}
