//! The movetext, read token by token as pgn-reader reads it, every
//! mainline move, marker and oddity located.

use super::{
    cursor::{Cursor, is_token_end, skim_to_next, skip_move_number_tail, skip_variation},
    fast::read_san,
    lexed::{Lexed, Marker, Odd, Oddity, SanToken, Stop, StopKind, Variations},
};
use crate::read::notation::{self, Form};
use shakmaty::{
    Color, KnownOutcome, Outcome,
    san::{San, SanPlus, Suffix},
};

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

impl Lexed {
    /// pgn-reader's `read_movetext`, with variations skipped as its
    /// `skip_variation` does.
    pub(super) fn scan_movetext(&mut self, cur: &mut Cursor<'_>) {
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
