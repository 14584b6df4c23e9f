//! What a game's mainline comments say that the checks read, taken from
//! each comment as the lexer hands it out ([`Comments::mainline`]): the
//! clocks (`[%clk h:mm:ss]`) and elapsed times (`[%emt]`) after moves,
//! the comments that leave findings out (`{pgn-arbiter: ignore CODE}`),
//! and the last three, where servers write how a game ended. The lexer
//! knows where comments are, not what they hold.

/// What the mainline's comments say, for one game.
#[derive(Debug, Default)]
pub struct Comments {
    /// The last three mainline comments, oldest first, wherever they are
    /// (also after the termination marker): the number of moves before
    /// each and the byte range of its text. Servers write how a game ended
    /// and the clocks there; they are read only when needed.
    pub recent: [Option<(usize, usize, usize)>; 3],
    /// The clock readings of the mainline (`[%clk h:mm:ss]` in a comment
    /// after a move, the first of each move's), up to its end.
    pub clocks: Vec<Clock>,
    /// The time each move took, where a comment after it records that and
    /// no clock (`[%emt 0:00:05]`, `[%emt 1.337]`: elapsed move time), the
    /// first of each move's, up to the mainline's end; `tenths` is the time
    /// taken.
    pub elapsed: Vec<Clock>,
    /// The mainline comments that leave findings out of the game
    /// (`{pgn-arbiter: ignore CODE, ...}`, [`is_suppression`]): the line
    /// of each and the byte range of its text.
    pub suppressions: Vec<(u64, usize, usize)>,
    /// Such comments past the first `MAX_SUPPRESSIONS`, not read.
    pub suppressions_past: u64,
}

impl Comments {
    /// Forgets the last game's comments.
    pub fn clear(&mut self) {
        self.recent = [None; 3];
        self.clocks.clear();
        self.elapsed.clear();
        self.suppressions.clear();
        self.suppressions_past = 0;
    }

    /// A mainline comment from `start` to `end` of `bytes`, on `line`,
    /// after `ply` moves; a time in it is read when `timed` (before the
    /// mainline's end and its first unreadable token).
    #[inline]
    pub fn mainline(
        &mut self,
        bytes: &[u8],
        line: u64,
        start: usize,
        end: usize,
        ply: usize,
        timed: bool,
    ) {
        let [_, b, c] = self.recent;
        self.recent = [b, c, Some((ply, start, end))];
        let text = bytes.get(start..end).unwrap_or_default().trim_ascii_start();
        // `bench-no-clocks` (bench/clocks.sh only): no reading is kept.
        if cfg!(not(feature = "bench-no-clocks"))
            && ply > 0
            && timed
            && self.clocks.last().is_none_or(|c| c.ply < ply)
        {
            match reading(text) {
                Some(Reading::Clock(tenths)) => self.clocks.push(Clock { ply, tenths, line }),
                Some(Reading::Elapsed(tenths))
                    if self.elapsed.last().is_none_or(|c| c.ply < ply) =>
                {
                    self.elapsed.push(Clock { ply, tenths, line });
                }
                _ => {}
            }
        }
        if text.first() == Some(&b'p') && is_suppression(text) {
            if self.suppressions.len() < MAX_SUPPRESSIONS {
                self.suppressions.push((line, start, end));
            } else {
                self.suppressions_past += 1;
            }
        }
    }

    /// The last mainline comment's text range.
    pub fn last(&self) -> Option<(usize, usize)> {
        self.recent[2].map(|(_, start, end)| (start, end))
    }
}

/// A player's clock after a move, as a comment records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The 1-based ply of the move it follows.
    pub ply: usize,
    /// The time left, in tenths of a second.
    pub tenths: u32,
    /// The line of the comment.
    pub line: u64,
}

/// The comments of a game that leave findings out that are read: memory
/// stays bounded whatever a game holds.
pub const MAX_SUPPRESSIONS: usize = 1000;

/// Whether a comment's text (from its first non-blank byte) asks for
/// findings of the game to be left out: `pgn-arbiter:` then `ignore`.
pub fn is_suppression(text: &[u8]) -> bool {
    text.strip_prefix(b"pgn-arbiter:")
        .map(<[u8]>::trim_ascii_start)
        .is_some_and(|rest| {
            rest.starts_with(b"ignore")
                && rest
                    .get(6)
                    .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'-')
        })
}

/// The whole seconds of a `[%clk h:mm:ss(.f)]` command in a comment.
pub fn clock_seconds(comment: &[u8]) -> Option<u32> {
    clock_tenths(comment).map(|tenths| tenths / 10)
}

/// The tenths of a second of a `[%clk h:mm:ss(.f)]` command in a comment
/// (`[%clk 0:03]` and `[%clk 1:02:03.4]` too; digits past the tenths are
/// dropped).
pub fn clock_tenths(comment: &[u8]) -> Option<u32> {
    let rest = command(comment, b"%clk")?;
    time_tenths(rest, 2, false)
}

/// The tenths of a second of an `[%emt ...]` command in a comment: the
/// time a move took, as `h:mm:ss(.f)`, `m:ss` or seconds (`1.337`, as
/// FICS writes it), rounded to the nearest tenth (they are summed).
#[cfg(test)]
pub fn elapsed_tenths(comment: &[u8]) -> Option<u32> {
    let rest = command(comment, b"%emt")?;
    time_tenths(rest, 1, true)
}

/// A time a comment records after a move: the clock, or else the time the
/// move took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// `[%clk ...]`: the time left, in tenths.
    Clock(u32),
    /// `[%emt ...]`: the time taken, in tenths.
    Elapsed(u32),
}

/// The first `[%clk]` of a comment as [`clock_tenths`] reads it, else its
/// first `[%emt]` as `elapsed_tenths` does: one pass over the comment,
/// which for most comments ends at its first `%`.
pub fn reading(comment: &[u8]) -> Option<Reading> {
    // Most comments are short: a plain search there, the vector search in
    // an engine's long ones.
    let percent = |rest: &[u8]| {
        if rest.len() <= 64 {
            rest.iter().position(|&b| b == b'%')
        } else {
            memchr::memchr(b'%', rest)
        }
    };
    let mut elapsed = None;
    let mut from = 0;
    while let Some(found) = comment.get(from..).and_then(percent) {
        let at = from + found;
        let rest = || comment.get(at + 4..).unwrap_or_default().trim_ascii_start();
        match comment.get(at + 1..at + 4) {
            Some(b"clk") => match time_tenths(rest(), 2, false) {
                Some(tenths) => return Some(Reading::Clock(tenths)),
                None => break,
            },
            Some(b"emt") if elapsed.is_none() => elapsed = Some(time_tenths(rest(), 1, true)),
            _ => {}
        }
        from = at + 1;
    }
    elapsed.flatten().map(Reading::Elapsed)
}

/// What follows the first `name` (`%clk`) in a comment, blanks skipped.
fn command<'a>(comment: &'a [u8], name: &[u8; 4]) -> Option<&'a [u8]> {
    // Most comments are short: a plain search there, the vector search in
    // an engine's long ones.
    let at = if comment.len() <= 64 {
        comment.windows(4).position(|w| w == name)?
    } else {
        memchr::memmem::find(comment, name)?
    };
    Some(comment.get(at + 4..)?.trim_ascii_start())
}

/// A time at the start of `rest` in tenths: fields of one to four digits
/// between colons (at least `min_fields`, at most three), then maybe a
/// fraction (its tenths kept, cut down or, if `round`, rounded by the
/// hundredths).
fn time_tenths(rest: &[u8], min_fields: u32, round: bool) -> Option<u32> {
    // The form most clocks are written in, `H:MM:SS` ended by what ends a
    // time (lichess's `[%clk 0:03:21]`), read at once: as `time_fields`
    // reads it, which `a_clock_is_read_at_once_as_field_by_field` holds.
    if let Some(&[h, b':', m0, m1, b':', s0, s1, end]) = rest.first_chunk::<8>()
        && [h, m0, m1, s0, s1].iter().all(u8::is_ascii_digit)
        && !matches!(end, b'0'..=b'9' | b':' | b'.')
    {
        let d = |b: u8| u32::from(b - b'0');
        return Some(((d(h) * 60 + d(m0) * 10 + d(m1)) * 60 + d(s0) * 10 + d(s1)) * 10);
    }
    time_fields(rest, min_fields, round)
}

/// [`time_tenths`] field by field.
fn time_fields(rest: &[u8], min_fields: u32, round: bool) -> Option<u32> {
    // Fields of one to four digits between colons, then maybe a fraction.
    let (mut seconds, mut field, mut digits, mut fields) = (0u32, 0u32, 0u32, 1u32);
    let mut bytes = rest.iter();
    let mut tenth = 0;
    while let Some(&b) = bytes.next() {
        match b {
            b'0'..=b'9' if digits < 4 => {
                field = field * 10 + u32::from(b - b'0');
                digits += 1;
            }
            b':' if digits > 0 => {
                seconds = seconds.checked_mul(60)?.checked_add(field)?;
                (field, digits) = (0, 0);
                fields += 1;
            }
            b'.' if digits > 0 => {
                match bytes.next() {
                    Some(&d) if d.is_ascii_digit() => tenth = u32::from(d - b'0'),
                    _ => return None,
                }
                if round
                    && bytes
                        .as_slice()
                        .first()
                        .is_some_and(|&h| (b'5'..=b'9').contains(&h))
                {
                    tenth += 1;
                }
                if bytes
                    .as_slice()
                    .first()
                    .is_some_and(|b| matches!(b, b':' | b'.'))
                {
                    return None;
                }
                break;
            }
            b'0'..=b'9' | b':' | b'.' => return None,
            _ => break,
        }
    }
    let seconds = seconds.checked_mul(60)?.checked_add(field)?;
    (digits > 0 && (min_fields..=3).contains(&fields))
        .then(|| seconds.checked_mul(10)?.checked_add(tenth))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock in the common form is read at once as field by field: on
    /// every string of eight bytes over the bytes a time is made of and
    /// those that end one, and on each followed by a digit or a bracket.
    #[test]
    fn a_clock_is_read_at_once_as_field_by_field() {
        let alphabet = b"05:.] ";
        let mut bytes = Vec::new();
        let mut at_once = 0;
        for code in 0..alphabet.len().pow(8) {
            bytes.clear();
            let mut code = code;
            for _ in 0..8 {
                bytes.push(alphabet[code % alphabet.len()]);
                code /= alphabet.len();
            }
            for last in [None, Some(b'5'), Some(b']')] {
                bytes.truncate(8);
                bytes.extend(last);
                for (min_fields, round) in [(1, true), (2, false)] {
                    let read = time_tenths(&bytes, min_fields, round);
                    assert_eq!(
                        read,
                        time_fields(&bytes, min_fields, round),
                        "{:?}",
                        String::from_utf8_lossy(&bytes)
                    );
                }
            }
            at_once += usize::from(bytes[1] == b':' && bytes[4] == b':' && bytes[7] == b']');
        }
        assert!(at_once > 1000);
        assert_eq!(time_tenths(b"5:05:50] ", 2, false), Some(183_500));
    }
}
