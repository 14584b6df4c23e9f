//! The lexer's fast paths: the runs of movetext most games are made of
//! (plain moves, move numbers, blanks) and plain tag lines, read in one
//! loop each, and the SAN forms most moves are written in read without
//! shakmaty's parser. Each reads as the general loops do; the tests hold
//! them to that (`the_fast_paths_read_as_the_general_loops`).

use super::{
    cursor::{Cursor, is_token_end},
    lexed::{Lexed, SanToken},
};
use shakmaty::san::{San, SanPlus, Suffix};

/// A tag line in the form nearly every tag is written in, `[Name "value"]`
/// (a name of letters, digits and `_`, one blank, a value with no escape
/// and no line break, `]` right after its closing quote): the name's
/// length and where the closing quote stands, from the `[`. `scan_tags`
/// reads it as it reads any tag line, without looking for what else a tag
/// line may hold.
pub(super) struct PlainTag {
    pub(super) name: usize,
    pub(super) quote: usize,
}

#[inline]
pub(super) fn plain_tag(line: &[u8]) -> Option<PlainTag> {
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

/// shakmaty's `SanPlus::from_ascii_prefix`, with the forms most moves are
/// written in (`e4`, `Nf3`, `exd5`, `Nxe5`, each with `+` or `#`) read
/// directly: the same SAN and length where shakmaty would read no more
/// (no `=`, nor `x` or a second square after a first), shakmaty's reading
/// otherwise. `read_san_agrees_with_shakmaty` holds the two to the same
/// answer.
#[inline]
pub(super) fn read_san(rest: &[u8]) -> Result<(SanPlus, usize), shakmaty::san::ParseSanError> {
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

impl Lexed {
    /// Whether the fast paths (`moves`, `plain_tag`) are taken: always, but
    /// in the tests that hold them to the general loops.
    #[inline(always)]
    pub(super) fn fast_paths(&self) -> bool {
        #[cfg(test)]
        return !self.general_only;
        #[cfg(not(test))]
        true
    }

    /// The run of movetext most games are made of, in one loop that keeps
    /// its place in registers: moves in the forms [`quick_san`] reads,
    /// move numbers, blanks, and line breaks that neither end the game nor
    /// start an escape line; each read as `scan_movetext` reads it. Stops,
    /// not past it, at the first byte it leaves to `scan_movetext`. Only
    /// for the mainline before its end (no stop, no marker) when moves are
    /// read (not `skim`).
    #[inline]
    pub(super) fn moves(&mut self, cur: &mut Cursor<'_>) {
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
}
