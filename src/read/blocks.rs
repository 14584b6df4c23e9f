//! An input cut into blocks of whole games, for the workers: a block ends
//! where the lexer says the last game in it starts ([`lexer::last_game_start`]),
//! so no game is split; a game larger than `MAX_GAME_BYTES` is not read, and
//! reading goes on at the next line that starts with `[` after a blank line
//! (`next_tagged_start`: a looser rule than the lexer's, since what comes
//! before is junk that no rule can read).

use std::{
    io::{self, Read},
    sync::{Arc, atomic::AtomicU64},
};

use crate::read::{
    input::{self, Input},
    lexer,
};

/// Bytes of decompressed input per block (a block only ends between games).
pub const BLOCK_BYTES: usize = 1 << 20;

/// A game larger than this is not read: it gets a `game-too-large` finding
/// and the input is read on from the next game start, so that a stray `{`
/// or a stream of junk cannot make the reader hold an archive in memory.
pub const MAX_GAME_BYTES: usize = 4 << 20;

/// Bytes of a game too large that are kept to read its tags.
const TOO_LARGE_HEAD: usize = 64 << 10;

/// After a game too large, how far to look for the next game start before
/// giving up on the input.
pub const MAX_SKIP_BYTES: u64 = 256 << 20;

/// Whole games from one input.
#[derive(Debug)]
pub struct Block {
    /// Index of the input.
    pub input: usize,
    /// The games' bytes.
    pub bytes: Vec<u8>,
    /// 1-based line of the block's first byte.
    pub first_line: u64,
    /// Whether the game before the block ended only because the block's
    /// first tag repeats one of its names ([`RawGame::after_tag_break`]).
    ///
    /// [`RawGame::after_tag_break`]: crate::read::game::RawGame::after_tag_break
    pub after_tag_break: bool,
}

/// What the reader hands on, in input order.
#[derive(Debug)]
pub enum Piece {
    /// Games to check.
    Block(Block),
    /// An operational problem with an input (it is printed and counted).
    Problem {
        /// Index of the input.
        input: usize,
        /// What went wrong.
        message: String,
    },
    /// An input has been read to its end (or given up on).
    InputDone(usize),
    /// A game larger than `MAX_GAME_BYTES`, not read.
    TooLarge {
        /// Index of the input.
        input: usize,
        /// The game's first bytes, for its tags.
        head: Vec<u8>,
        /// 1-based line of its first byte.
        line: u64,
        /// Bytes read of it before the limit.
        size: usize,
    },
}

impl Piece {
    /// The bytes it holds, for the bound on what is in flight.
    pub fn weight(&self) -> usize {
        match self {
            Piece::Block(block) => block.bytes.len(),
            Piece::TooLarge { head, .. } => head.len(),
            _ => 0,
        }
    }
}

/// Where the pieces of a read go, in input order.
pub trait Pieces {
    /// The next piece; false to stop (the output is gone).
    fn piece(&mut self, piece: Piece) -> bool;

    /// Where a chunk that is not the input's end is cut into a block
    /// (`lexer::last_game_start`'s cut), and whether the games before the
    /// cut were already handed on (then no block is made of them); `None`
    /// to stop. By default a skimming scan finds the cut and the block
    /// goes on to be checked.
    fn cut(
        &mut self,
        _input: usize,
        chunk: &[u8],
        _first_line: u64,
        _after_tag_break: bool,
    ) -> Option<(lexer::Cut, bool)> {
        Some((lexer::last_game_start(chunk), false))
    }
}

impl<F: FnMut(Piece) -> bool> Pieces for F {
    fn piece(&mut self, piece: Piece) -> bool {
        self(piece)
    }
}

/// Reads up to `want` more bytes into `buf` (without zeroing its spare
/// capacity first). Returns true at the end of the stream.
fn fill(reader: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let target = buf.len() + want;
    buf.reserve(want);
    while buf.len() < target {
        let before = buf.len();
        match reader.take((target - before) as u64).read_to_end(buf) {
            Ok(_) if buf.len() == before => return Ok(true),
            Ok(_) => {}
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(false)
}

/// Reads every input in order and cuts it into blocks of whole games.
/// `emit` returns false to stop early (the output is gone).
pub fn read_inputs(
    inputs: &[Input],
    line_offset: u64,
    counter: &Arc<AtomicU64>,
    emit: &mut dyn Pieces,
) {
    for (index, input) in inputs.iter().enumerate() {
        if !read_input(index, input, line_offset, counter, emit) {
            return;
        }
        if !emit.piece(Piece::InputDone(index)) {
            return;
        }
    }
}

fn read_input(
    index: usize,
    input: &Input,
    line_offset: u64,
    counter: &Arc<AtomicU64>,
    emit: &mut dyn Pieces,
) -> bool {
    let mut opened = match input::open(&input.source, counter.clone()) {
        Ok(opened) => opened,
        Err(err) => {
            return emit.piece(Piece::Problem {
                input: index,
                message: err.to_string(),
            });
        }
    };
    read_stream(index, &mut *opened.reader, line_offset, emit)
}

/// Cuts one input's decompressed stream into pieces: blocks of whole
/// games, games too large, and problems. `emit` returns false to stop.
pub fn read_stream(
    index: usize,
    reader: &mut dyn Read,
    line_offset: u64,
    emit: &mut dyn Pieces,
) -> bool {
    let mut chunk: Vec<u8> = Vec::with_capacity(BLOCK_BYTES * 2);
    let mut line = 1 + line_offset;
    // The chunk is filled up to this many bytes; more only while one game
    // does not fit.
    let mut target = BLOCK_BYTES;
    // Whether the next block starts at a tag break (`Cut`).
    let mut after_tag_break = false;
    loop {
        let want = target.saturating_sub(chunk.len());
        let (eof, error) = match fill(reader, &mut chunk, want) {
            Ok(eof) => (eof, None),
            Err(err) => (true, Some(err)),
        };
        let (cut, handed) = if eof {
            let all = lexer::Cut {
                at: chunk.len(),
                after_tag_break: false,
            };
            (all, false)
        } else {
            let Some((cut, handed)) = emit.cut(index, &chunk, line, after_tag_break) else {
                return false;
            };
            match cut {
                lexer::Cut { at: 0, .. } if chunk.len() < MAX_GAME_BYTES => {
                    // One game larger than the chunk: read more of it.
                    target = (chunk.len() * 2).clamp(BLOCK_BYTES, MAX_GAME_BYTES);
                    continue;
                }
                lexer::Cut { at: 0, .. } => {
                    after_tag_break = false;
                    let head = chunk.get(..TOO_LARGE_HEAD).unwrap_or(&chunk).to_vec();
                    if !emit.piece(Piece::TooLarge {
                        input: index,
                        head,
                        line,
                        size: chunk.len(),
                    }) {
                        return false;
                    }
                    match skip_to_game_start(reader, &mut chunk, &mut line) {
                        Ok(true) => {
                            target = BLOCK_BYTES;
                            continue;
                        }
                        Ok(false) => return true,
                        Err(message) => {
                            return emit.piece(Piece::Problem {
                                input: index,
                                message,
                            });
                        }
                    }
                }
                cut => (cut, handed),
            }
        };
        target = BLOCK_BYTES;
        // The block gets an allocation of its own size; the chunk buffer
        // keeps its capacity for the next read.
        let block = chunk.get(..cut.at).unwrap_or_default();
        let lines = memchr::memchr_iter(b'\n', block).count() as u64;
        // Games already handed on make no block.
        let bytes = if handed { Vec::new() } else { block.to_vec() };
        chunk.drain(..cut.at);
        if chunk.capacity() > BLOCK_BYTES * 2 {
            chunk.shrink_to(BLOCK_BYTES * 2);
        }
        if !bytes.is_empty()
            && !emit.piece(Piece::Block(Block {
                input: index,
                bytes,
                first_line: line,
                after_tag_break,
            }))
        {
            return false;
        }
        line += lines;
        after_tag_break = cut.after_tag_break;
        if let Some(err) = error {
            return emit.piece(Piece::Problem {
                input: index,
                message: format!("read failed after line {line}: {err}"),
            });
        }
        if eof {
            return true;
        }
    }
}

/// After a game too large, discards input up to the next line that starts
/// with `[` after a blank line, counting lines, and leaves what follows in
/// `chunk`. Returns false at the end of the input, and an error message when
/// no game start came in `MAX_SKIP_BYTES`.
fn skip_to_game_start(
    reader: &mut dyn Read,
    chunk: &mut Vec<u8>,
    line: &mut u64,
) -> Result<bool, String> {
    let mut skipped = 0u64;
    let from = *line;
    loop {
        if let Some(at) = next_tagged_start(chunk) {
            *line += memchr::memchr_iter(b'\n', &chunk[..at]).count() as u64;
            chunk.drain(..at);
            return Ok(true);
        }
        // Keep the last two bytes: a blank line may end there.
        let keep = chunk.len().min(2);
        let gone = chunk.len() - keep;
        *line += memchr::memchr_iter(b'\n', &chunk[..gone]).count() as u64;
        chunk.drain(..gone);
        skipped += gone as u64;
        if skipped > MAX_SKIP_BYTES {
            return Err(format!(
                "no game start in the {} MiB after the game too large at line {from}; the rest of the input is not read",
                MAX_SKIP_BYTES >> 20
            ));
        }
        match fill(reader, chunk, BLOCK_BYTES) {
            // The last bytes may still hold a game start.
            Ok(true) => {
                if let Some(at) = next_tagged_start(chunk) {
                    *line += memchr::memchr_iter(b'\n', &chunk[..at]).count() as u64;
                    chunk.drain(..at);
                    return Ok(true);
                }
                chunk.clear();
                return Ok(false);
            }
            Ok(false) => {}
            Err(err) => return Err(format!("read failed after line {line}: {err}")),
        }
    }
}

/// The offset of a `[` that starts a line after a blank line.
fn next_tagged_start(bytes: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'[', bytes).find(|&at| {
        let before = &bytes[..at];
        before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n")
    })
}
