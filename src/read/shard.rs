//! Shards of one input, for running an archive on many machines: a range
//! of zstd frames (`--zstd-frames A..B`) or of bytes of a plain file
//! (`--bytes A..B`). A shard holds the games from the first game start
//! found from its range's start (unless that is the file's start) to the
//! first found from its end, reading on past the end to the end of the
//! game that straddles it (and, for a range inside one game, to the game
//! after it). A game start, for this purpose, is a line
//! that begins with `[` after a blank line whose last non-blank line before
//! it ends with a game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`):
//! shards then split an archive into the same games as one run, and the
//! shards' reports, joined in order, are the reports of one run, except
//! where a comment holds text that looks like a game start (docs/scale.md).

use std::{
    fs::File,
    io::{self, BufReader, Read, Seek, SeekFrom},
    path::Path,
};

use super::frames;

/// Which part of an input a shard holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// zstd frames `first..=last` (0-based, skippable frames not counted),
    /// and, when it is known (`--frame-bytes`), the bytes they take in the
    /// file, so that the file need not be listed again.
    Frames(u64, u64, Option<(u64, u64)>),
    /// Bytes `start..end` of a plain file.
    Bytes(u64, u64),
}

impl Range {
    /// Reads `A..B` (frames: inclusive of B, as `frames` numbers them;
    /// bytes: B exclusive).
    pub fn parse_frames(text: &str) -> Result<Range, String> {
        let (a, b) = bounds(text)?;
        Ok(Range::Frames(a, b, None))
    }

    /// Gives a frame range the bytes it takes (`S..E`, E exclusive: the
    /// offset of its first frame and the end of its last, as `pgn-arbiter
    /// frames` lists them).
    pub fn with_frame_bytes(self, text: &str) -> Result<Range, String> {
        let Range::Frames(first, last, _) = self else {
            return Err("goes with --zstd-frames".into());
        };
        let (start, end) = bounds(text)?;
        if start >= end {
            return Err(format!("{text}: the range is empty"));
        }
        Ok(Range::Frames(first, last, Some((start, end))))
    }

    /// Reads `A..B` for a byte range, B exclusive.
    pub fn parse_bytes(text: &str) -> Result<Range, String> {
        let (a, b) = bounds(text)?;
        if a >= b {
            return Err(format!("{text}: the range is empty"));
        }
        Ok(Range::Bytes(a, b))
    }
}

fn bounds(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("{text}: write a range as A..B"))?;
    let number = |n: &str| {
        n.trim()
            .parse::<u64>()
            .map_err(|_| format!("{text}: {n:?} is not a number"))
    };
    let (a, b) = (number(a)?, number(b)?);
    if a > b {
        return Err(format!("{text}: the range runs backwards"));
    }
    Ok((a, b))
}

/// Finds game starts in a stream, a byte at a time, remembering only the
/// end of the last non-blank line.
#[derive(Debug, Clone)]
pub struct Starts {
    at_line_start: bool,
    line_blank: bool,
    /// The last bytes of the current line, white space runs as one space.
    tail: [u8; 9],
    tail_len: usize,
    pending_space: bool,
    /// The last non-blank line ended with a termination marker.
    ended_result: bool,
    /// A blank line has come since.
    blank_after: bool,
    /// The line being read began before the scan did: it ends with no
    /// marker, whatever it ends with.
    partial: bool,
}

impl Default for Starts {
    fn default() -> Self {
        Starts {
            at_line_start: true,
            line_blank: true,
            tail: [0; 9],
            tail_len: 0,
            pending_space: false,
            ended_result: false,
            blank_after: false,
            partial: false,
        }
    }
}

impl Starts {
    /// A scan that begins anywhere in a stream (at a shard's boundary):
    /// it knows nothing of what came before, so the line it begins in
    /// counts as ending with no marker. Both sides of a boundary scan from
    /// it so, and so agree on the first game start after it.
    pub fn mid_stream() -> Starts {
        Starts {
            at_line_start: false,
            line_blank: false,
            partial: true,
            ..Starts::default()
        }
    }

    fn push_tail(&mut self, byte: u8) {
        if self.tail_len == self.tail.len() {
            self.tail.copy_within(1.., 0);
            self.tail_len -= 1;
        }
        self.tail[self.tail_len] = byte;
        self.tail_len += 1;
    }

    fn tail_ends_with_result(&self) -> bool {
        let tail = &self.tail[..self.tail_len];
        crate::read::outcome::RESULTS.iter().any(|marker| {
            tail.strip_suffix(marker.as_bytes()).is_some_and(|before| {
                // The whole token: after white space, a comment or a
                // variation, or at the line's start (when the tail holds
                // the whole line).
                before.last().map_or(self.tail_len < self.tail.len(), |b| {
                    matches!(b, b' ' | b'}' | b')')
                })
            })
        })
    }

    /// Takes one byte; true when it begins a game.
    #[inline]
    pub fn feed(&mut self, byte: u8) -> bool {
        let start = self.at_line_start && byte == b'[' && self.ended_result && self.blank_after;
        match byte {
            b'\n' => {
                if self.partial {
                    self.partial = false;
                    self.ended_result = false;
                    self.blank_after = false;
                } else if self.line_blank {
                    self.blank_after = true;
                } else {
                    self.ended_result = self.tail_ends_with_result();
                    self.blank_after = false;
                }
                self.at_line_start = true;
                self.line_blank = true;
                self.tail_len = 0;
                self.pending_space = false;
            }
            b' ' | b'\t' | b'\r' => {
                self.at_line_start = false;
                self.pending_space = !self.line_blank;
            }
            _ => {
                self.at_line_start = false;
                self.line_blank = false;
                if self.pending_space {
                    self.push_tail(b' ');
                    self.pending_space = false;
                }
                self.push_tail(byte);
            }
        }
        start
    }
}

/// Opens a shard of the file at `path`: the decompressed bytes it holds.
pub fn open(path: &Path, range: Range) -> io::Result<Box<dyn Read + Send>> {
    let mut file = File::open(path)?;
    match range {
        Range::Bytes(start, end) => {
            let rest = File::open(path)?;
            let file_end = rest.metadata()?.len();
            Ok(shard(
                bounded(file, start, end)?,
                bounded(rest, end, file_end)?,
                start == 0,
            ))
        }
        Range::Frames(first, last, span) => {
            let (start, end) = match span {
                // Where the driver listed them: checked, not listed again.
                Some((start, end)) => {
                    frames::check_span(&mut BufReader::new(&mut file), start, end).map_err(
                        |err| {
                            io::Error::new(
                                err.kind(),
                                format!("frames {first}..{last} at bytes {start}..{end}: {err}"),
                            )
                        },
                    )?;
                    (start, end)
                }
                None => {
                    // The frames before any damage: a shard of them is whole.
                    let (list, damage) = frames::list_readable(&mut BufReader::new(&mut file));
                    let count = list.len() as u64;
                    let (Some(a), Some(b)) = (list.get(first as usize), list.get(last as usize))
                    else {
                        return Err(match damage {
                            Some(err) => io::Error::new(
                                err.kind(),
                                format!("frames {first}..{last}: {err}; {count} frames before it"),
                            ),
                            None => io::Error::new(
                                io::ErrorKind::InvalidInput,
                                format!(
                                    "frames {first}..{last}: the file has {count} frames (0..{})",
                                    count.saturating_sub(1)
                                ),
                            ),
                        });
                    };
                    (a.offset, b.offset + b.size)
                }
            };
            // The shard's own frames, then the rest of the file for the
            // game that straddles their end.
            let own = File::open(path)?;
            let rest = File::open(path)?;
            let file_end = rest.metadata()?.len();
            let own = zstd::stream::read::Decoder::new(bounded(own, start, end)?)?;
            // (A decoder given no frame at all says the stream is cut.)
            let rest: Box<dyn Read + Send> = if end < file_end {
                Box::new(zstd::stream::read::Decoder::new(bounded(
                    rest, end, file_end,
                )?)?)
            } else {
                Box::new(io::empty())
            };
            Ok(shard(own, rest, first == 0))
        }
    }
}

/// A file read from `start` to `end`.
fn bounded(mut file: File, start: u64, end: u64) -> io::Result<io::Take<BufReader<File>>> {
    file.seek(SeekFrom::Start(start))?;
    Ok(BufReader::with_capacity(1 << 16, file).take(end.saturating_sub(start)))
}

/// A shard over its own bytes (`own`), then the bytes after them (`rest`),
/// skipping to the first game start unless `from_start`.
fn shard(
    own: impl Read + Send + 'static,
    rest: impl Read + Send + 'static,
    from_start: bool,
) -> Box<dyn Read + Send> {
    Box::new(FramesShard {
        own,
        rest,
        starts: if from_start {
            Starts::default()
        } else {
            Starts::mid_stream()
        },
        from_start,
        seek: None,
        state: State::Own,
        buf: vec![0; 1 << 16],
        ready: 0..0,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In the shard's own frames.
    Own,
    /// After them, up to the next game start.
    Tail,
    Done,
}

/// A frame range: its own frames decompressed (skipping to the first game
/// start unless they open the file), then the following frames up to the
/// next game start. Bytes are scanned only where a start is looked for.
struct FramesShard<A, B> {
    own: A,
    rest: B,
    starts: Starts,
    from_start: bool,
    /// Past the shard's own bytes, where they held no game start: the scan
    /// from their start, on until it finds one.
    seek: Option<Starts>,
    state: State,
    buf: Vec<u8>,
    ready: std::ops::Range<usize>,
}

impl<A: Read, B: Read> Read for FramesShard<A, B> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if !self.ready.is_empty() {
                let n = self.ready.len().min(out.len());
                out[..n].copy_from_slice(&self.buf[self.ready.start..self.ready.start + n]);
                self.ready.start += n;
                return Ok(n);
            }
            let starts = &mut self.starts;
            match self.state {
                State::Done => return Ok(0),
                State::Own => {
                    let n = self.own.read(&mut self.buf)?;
                    if n == 0 {
                        // Scanned afresh from the boundary, as the next
                        // shard scans it; a shard whose own bytes hold no
                        // game start still holds a game that starts before
                        // the next shard's first.
                        let from_end = Starts::mid_stream();
                        let seek = std::mem::replace(&mut self.starts, from_end);
                        self.seek = (!self.from_start).then_some(seek);
                        self.state = State::Tail;
                        continue;
                    }
                    let first = if self.from_start {
                        0
                    } else {
                        match self.buf[..n].iter().position(|&b| starts.feed(b)) {
                            Some(k) => {
                                self.from_start = true;
                                k
                            }
                            None => n,
                        }
                    };
                    self.ready = first..n;
                }
                State::Tail => {
                    let n = self.rest.read(&mut self.buf)?;
                    if n == 0 {
                        self.state = State::Done;
                        continue;
                    }
                    // Up to the next shard's first game start; from this
                    // shard's first, where its own bytes held none.
                    let (mut first, mut end) = (0, n);
                    for (i, &b) in self.buf[..n].iter().enumerate() {
                        if starts.feed(b) {
                            (end, self.state) = (i, State::Done);
                            break;
                        }
                        if let Some(seek) = &mut self.seek {
                            if seek.feed(b) {
                                self.seek = None;
                            } else {
                                first = i + 1;
                            }
                        }
                    }
                    self.ready = first.min(end)..end;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<usize> {
        let mut s = Starts::default();
        text.bytes()
            .enumerate()
            .filter_map(|(i, b)| s.feed(b).then_some(i))
            .collect()
    }

    #[test]
    fn game_starts_follow_a_marker_and_a_blank_line() {
        let text = "[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 { 0-1 }\n[X \"y\"]\n\n1. c4 *  \r\n\r\n[Event \"c\"]\n";
        let want: Vec<usize> = text
            .match_indices("[Event \"")
            .map(|(i, _)| i)
            .skip(1)
            .collect();
        assert_eq!(starts(text), want);
        // A marker that is part of a longer token is none.
        assert!(starts("1. e4 x1-0\n\n[Event \"z\"]\n").is_empty());
    }

    #[test]
    fn byte_shards_join_into_the_whole() {
        let mut games: String = (0..40)
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 {{ comment }} e5 1-0\n\n"))
            .collect();
        // One long game, where whole shards hold no game start.
        games.push_str(&format!(
            "[Event \"long\"]\n\n1. e4 {{{}}} *\n\n",
            "x".repeat(5000)
        ));
        games.push_str("[Event \"last\"]\n\n1. d4 0-1\n");
        let len = games.len() as u64;
        let at = |s: &str| games.find(s).unwrap() as u64;
        let (game4, game5) = (at("[Event \"4\"]"), at("[Event \"5\"]"));
        let long = at("[Event \"long\"]");
        for cuts in [
            vec![0, len],
            vec![0, 1, len],
            vec![0, 100, 333, 334, 1000, len],
            // At a game start, and just before and after one.
            vec![0, game5, len],
            vec![0, game5 - 1, game5 + 1, len],
            vec![0, long + 100, long + 2000, long + 4000, len - 3, len],
            // Cuts in game 4's first line and in its last: the shard
            // between them holds game 5, which starts after both.
            vec![0, game4 + 1, game5 - 5, len],
            vec![0, 1, at("1-0") + 1, len],
        ] {
            let mut joined = Vec::new();
            for w in cuts.windows(2) {
                let bytes = games.as_bytes();
                let (a, b) = (w[0] as usize, w[1] as usize);
                let mut shard = shard(
                    io::Cursor::new(bytes[a..b].to_vec()),
                    io::Cursor::new(bytes[b..].to_vec()),
                    a == 0,
                );
                shard.read_to_end(&mut joined).unwrap();
            }
            assert_eq!(String::from_utf8(joined).unwrap(), games, "{cuts:?}");
        }
    }

    #[test]
    fn any_two_cuts_keep_every_byte_once() {
        let games = "[Event \"a\"]\n[White \"x\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 { 0-1 } d5 0-1\n\n[Event \"c\"]\n\n1. c4 *\n";
        let bytes = games.as_bytes();
        let read = |a: usize, b: usize| {
            let mut out = Vec::new();
            let own = io::Cursor::new(bytes[a..b].to_vec());
            let rest = io::Cursor::new(bytes[b..].to_vec());
            shard(own, rest, a == 0).read_to_end(&mut out).unwrap();
            out
        };
        for a in 1..bytes.len() {
            for b in a + 1..bytes.len() {
                let joined = [read(0, a), read(a, b), read(b, bytes.len())].concat();
                assert_eq!(joined, bytes, "cut at {a} and {b}");
            }
        }
    }

    #[test]
    fn frame_shards_join_into_the_whole() {
        let games: String = (0..60)
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 1/2-1/2\n\n"))
            .collect();
        // Frames cut the games at arbitrary bytes, a skippable frame before
        // each.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pgn.zst");
        let mut bytes = Vec::new();
        for part in games.as_bytes().chunks(77) {
            bytes.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
            bytes.extend_from_slice(&0u32.to_le_bytes());
            bytes.extend_from_slice(&zstd::encode_all(part, 1).unwrap());
        }
        std::fs::write(&path, &bytes).unwrap();
        let count = frames::list(&mut File::open(&path).unwrap()).unwrap().len() as u64;
        for step in [1, 2, 5, count] {
            let mut joined = Vec::new();
            let mut first = 0;
            while first < count {
                let last = (first + step - 1).min(count - 1);
                let mut shard = open(&path, Range::Frames(first, last, None)).unwrap();
                shard.read_to_end(&mut joined).unwrap();
                first = last + 1;
            }
            assert_eq!(
                String::from_utf8(joined).unwrap(),
                games,
                "{step} frames a shard"
            );
        }
        assert!(open(&path, Range::Frames(0, count, None)).is_err());
    }
}
