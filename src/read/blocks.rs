//! An input cut into blocks of whole games, for the workers: a block ends
//! where the lexer says the last game in it starts ([`lexer::last_game_start`]),
//! so no game is split; a game larger than `MAX_GAME_BYTES` is not read, and
//! reading goes on at the next line that starts with `[` after a blank line
//! (`next_tagged_start`: a looser rule than the lexer's, since what comes
//! before is junk that no rule can read).
//!
//! Where workers check blocks on other threads, the reader does not lex:
//! it guesses where the last game of a chunk starts
//! ([`lexer::guess_game_start`]), the worker that checks the block before
//! the guess confirms it (its last game ends there), and a guess that
//! turns out wrong is undone: the reader keeps the blocks whose guesses are
//! not yet confirmed and reads the input again from the last game that ran
//! past the wrong one, without guessing (`Stream::settle`). Before bytes
//! are skipped (a game too large) and at an input's end, every guess must
//! have been confirmed.

use std::{
    collections::VecDeque,
    io::{self, Read},
    sync::Arc,
};

use crate::read::{
    input::{self, Input, Tally},
    lexer,
};

/// Bytes of decompressed input per block (a block only ends between games;
/// an input's first three are smaller, `block_bytes`).
pub const BLOCK_BYTES: usize = 1 << 20;

/// A game larger than this is not read: it gets a `game-too-large` finding
/// and the input is read on from the next game start, so that a stray `{`
/// or a stream of junk cannot make the reader hold an archive in memory.
pub const MAX_GAME_BYTES: usize = 4 << 20;

/// Blocks of an input cut exactly before the reader guesses: every guess
/// must be confirmed before the next input is read, which leaves workers
/// idle for about a block's check, so a short input is not worth it.
pub const GUESS_AFTER: u64 = 4;

/// An input known to be at least this long (a plain file's size) is cut at
/// guesses from its first block: the first `GUESS_AFTER` blocks' exact cuts
/// would have the reader skim-lex them (two thirds of the cost of lexing
/// their games in full) while the workers wait for their first games.
const GUESS_FROM_START: u64 = 4 * BLOCK_BYTES as u64;

/// The first blocks of an input are smaller: an eighth of `BLOCK_BYTES`,
/// then a quarter, then a half. Before the reader guesses, it cuts every
/// block by lexing it, and no worker has a game to check until the first
/// block is cut: a small one sets them going sooner.
fn block_bytes(blocks_so_far: u64) -> usize {
    BLOCK_BYTES >> 3u64.saturating_sub(blocks_so_far)
}

/// Near an input's end, where its size is known and workers on other
/// threads check the blocks, a block is at most a quarter of what is left
/// to read, and no smaller than this: the workers then finish the input
/// together, instead of one checking a last block of a megabyte while the
/// others wait.
const TAIL_BYTES: usize = 64 << 10;

/// The size of the next block (`target`) near the end of an input of which
/// `left` bytes are still to be read, if known.
fn near_end(target: usize, left: Option<u64>) -> usize {
    match left {
        Some(left) => target.min(
            usize::try_from(left / 4)
                .unwrap_or(usize::MAX)
                .max(TAIL_BYTES),
        ),
        None => target,
    }
}

/// Buffers of blocks done with that the reader keeps for the next blocks:
/// as many as the pieces two workers may have in flight, which the reader
/// often learns are done with several at once.
const SPARE_BUFFERS: usize = 4;

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
    /// The games' bytes; where `guessed`, followed by the `[` that starts
    /// the next game, which is not the block's.
    pub bytes: Arc<Vec<u8>>,
    /// The block ends where the reader guessed that the next game starts:
    /// the worker confirms that its last game ends there ([`Tail`]).
    pub guessed: bool,
    /// The block's place among the input's blocks, for the confirmation.
    pub seq: u64,
    /// 1-based line of the block's first byte.
    pub first_line: u64,
    /// Whether the game before the block ended only because the block's
    /// first tag repeats one of its names ([`RawGame::after_tag_break`]).
    ///
    /// [`RawGame::after_tag_break`]: crate::read::game::RawGame::after_tag_break
    pub after_tag_break: bool,
}

/// Where the games of a block with a guessed end stop ending inside it: the
/// game there runs past the guess, so the guess was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    /// Byte offset of the game's start in the block.
    pub at: usize,
    /// Its 1-based line.
    pub line: u64,
    /// Whether the game before it ended at a tag break.
    pub after_tag_break: bool,
}

/// What the reader learns of a guessed block end.
#[derive(Debug)]
pub enum Confirmation {
    /// Nothing yet.
    Pending,
    /// The block numbered `seq` ends where it was guessed to (`None`), or
    /// its last games start at the tail.
    On(u64, Option<Tail>),
    /// No worker is left to say (the run is stopping).
    Gone,
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

    /// Whether chunks are cut where a game start is guessed, for workers
    /// on other threads to confirm ([`lexer::guess_game_start`]).
    fn guesses(&self) -> bool {
        false
    }

    /// The next verdict on a guessed block end since the last roll-back,
    /// waiting for one when `wait`.
    fn confirmation(&mut self, _wait: bool) -> Confirmation {
        Confirmation::Gone
    }

    /// A guess was wrong: the blocks handed on since it are void, and the
    /// input is read again from its tail.
    fn rolled_back(&mut self) {}
}

impl<F: FnMut(Piece) -> bool> Pieces for F {
    fn piece(&mut self, piece: Piece) -> bool {
        self(piece)
    }
}

/// The bytes read and not yet handed on, in a buffer whose bytes past them
/// are kept from block to block: a buffer is zeroed once, where it grows,
/// and not before every read (as `read_to_end` does for a reader that only
/// has `read`, which every layer of an input is).
struct Chunk {
    /// Every byte of it is initialised; the chunk is its first `len`.
    buf: Vec<u8>,
    len: usize,
}

impl Chunk {
    /// A chunk in `buf` (its bytes are room, not content).
    fn in_buffer(buf: Vec<u8>) -> Chunk {
        Chunk { buf, len: 0 }
    }

    fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Room for `n` more bytes, zeroing only what the buffer grows by.
    fn room(&mut self, n: usize) -> &mut [u8] {
        let end = self.len + n;
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        &mut self.buf[self.len..end]
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.room(bytes.len()).copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// Drops the first `n` bytes.
    fn drain_front(&mut self, n: usize) {
        let n = n.min(self.len);
        self.buf.copy_within(n..self.len, 0);
        self.len -= n;
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// Reads up to `want` more bytes. Returns true at the end of the
    /// stream.
    fn fill(&mut self, reader: &mut dyn Read, want: usize) -> io::Result<bool> {
        let target = self.len + want;
        self.room(want);
        while self.len < target {
            match reader.read(&mut self.buf[self.len..target]) {
                Ok(0) => return Ok(true),
                Ok(n) => self.len += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
        Ok(false)
    }

    /// The bytes up to `end` as a block's, in this buffer; the chunk goes
    /// on from `at` in `next`.
    fn split_off(&mut self, at: usize, end: usize, next: Vec<u8>) -> Vec<u8> {
        let mut next = Chunk::in_buffer(next);
        next.extend(self.bytes().get(at..).unwrap_or_default());
        let mut bytes = std::mem::replace(self, next).buf;
        bytes.truncate(end);
        bytes
    }

    /// Gives back a buffer grown for a large game.
    fn shrink(&mut self, most: usize) {
        if self.buf.capacity() > most {
            self.buf.truncate(most.max(self.len));
            self.buf.shrink_to(most);
        }
    }
}

/// Reads every input in order and cuts it into blocks of whole games.
/// `emit` returns false to stop early (the output is gone).
pub fn read_inputs(inputs: &[Input], line_offset: u64, tally: &Tally, emit: &mut dyn Pieces) {
    for (index, input) in inputs.iter().enumerate() {
        if !read_input(index, input, line_offset, tally, emit) {
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
    tally: &Tally,
    emit: &mut dyn Pieces,
) -> bool {
    let hash = tally.digests.is_some();
    let (mut opened, hashed) = match input::open_hashed(&input.source, tally.bytes.clone(), hash) {
        Ok(opened) => opened,
        Err(err) => {
            return emit.piece(Piece::Problem {
                input: index,
                message: err.to_string(),
            });
        }
    };
    // Plain text is about as long as its file (the size of a compressed
    // one says little of what it holds).
    let size = (opened.compression == input::Compression::None)
        .then(|| input::size(&input.source))
        .flatten();
    let going = read_sized(index, &mut *opened.reader, line_offset, size, emit);
    drop(opened);
    if let (Some(hashed), Some(digests)) = (hashed, &tally.digests) {
        let digest = hashed.finish(&input.source);
        if let Ok(mut all) = digests.lock()
            && let Some(slot) = all.get_mut(index)
        {
            *slot = digest;
        }
    }
    going
}

/// Cuts one input's decompressed stream into pieces: blocks of whole
/// games, games too large, and problems. `emit` returns false to stop.
pub fn read_stream(reader: &mut dyn Read, emit: &mut dyn Pieces) -> bool {
    read_sized(0, reader, 0, None, emit)
}

/// [`read_stream`], of a stream of about `size` bytes if known.
fn read_sized(
    index: usize,
    reader: &mut dyn Read,
    line_offset: u64,
    size: Option<u64>,
    emit: &mut dyn Pieces,
) -> bool {
    Stream::new(index, reader, line_offset, size, emit.guesses()).read(emit)
}

/// The decompressed stream of an input, with bytes put back in front of
/// it when a guessed block end was wrong.
struct Source<'a> {
    front: Vec<u8>,
    at: usize,
    inner: &'a mut dyn Read,
    /// The inner reader failed: it is not read again.
    failed: bool,
}

impl Read for Source<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(front) = self.front.get(self.at..).filter(|f| !f.is_empty()) {
            let n = buf.len().min(front.len());
            buf[..n].copy_from_slice(&front[..n]);
            self.at += n;
            if self.at == self.front.len() {
                self.front = Vec::new();
                self.at = 0;
            }
            return Ok(n);
        }
        if self.failed {
            return Ok(0);
        }
        let read = self.inner.read(buf);
        if read
            .as_ref()
            .is_err_and(|err| err.kind() != io::ErrorKind::Interrupted)
        {
            self.failed = true;
        }
        read
    }
}

/// A block handed on while a guess before it, or its own, is not yet
/// confirmed.
struct Held {
    seq: u64,
    bytes: Arc<Vec<u8>>,
    /// The block's own bytes (less the next game's `[` of a guess).
    len: usize,
    guessed: bool,
    /// The worker's verdict on a guessed end, once given.
    verdict: Option<Option<Tail>>,
}

/// What settling the guesses came to.
enum Settled {
    /// Every verdict in so far holds.
    Held,
    /// A guess was wrong: the input is read again from its tail.
    RolledBack,
    /// The run is stopping.
    Gone,
}

/// The reading of one input.
struct Stream<'a> {
    index: usize,
    source: Source<'a>,
    /// Read and not yet handed on.
    chunk: Chunk,
    /// 1-based line of the chunk's first byte.
    line: u64,
    /// The chunk is filled up to this many bytes; more only while one game
    /// does not fit.
    target: usize,
    /// Whether the next block starts at a tag break (`Cut`).
    after_tag_break: bool,
    /// Whether chunks are cut at guessed game starts.
    guessing: bool,
    /// Blocks handed on since the oldest guess not yet confirmed.
    held: VecDeque<Held>,
    /// Blocks handed on so far.
    seq: u64,
    /// Chunks cut so far (blocks handed on, or games a worker checked as
    /// it cut them).
    cuts: u64,
    /// Buffers of blocks done with, for the next blocks.
    spare: Vec<Arc<Vec<u8>>>,
    /// A read that failed, said after what was read before it.
    error: Option<io::Error>,
    /// About how many bytes the stream holds, if known.
    size: Option<u64>,
    /// Bytes handed on so far (counted again after a wrong guess).
    handed: u64,
}

impl<'a> Stream<'a> {
    /// The stream of input `index`, of about `size` bytes if known, whose
    /// first line is `line_offset` + 1; cut at guessed game starts when
    /// `guessing`.
    fn new(
        index: usize,
        reader: &'a mut dyn Read,
        line_offset: u64,
        size: Option<u64>,
        guessing: bool,
    ) -> Stream<'a> {
        Stream {
            index,
            source: Source {
                front: Vec::new(),
                at: 0,
                inner: reader,
                failed: false,
            },
            chunk: Chunk::in_buffer(Vec::with_capacity(BLOCK_BYTES * 2)),
            line: 1 + line_offset,
            target: block_bytes(0),
            after_tag_break: false,
            guessing,
            held: VecDeque::new(),
            seq: 0,
            cuts: 0,
            spare: Vec::new(),
            error: None,
            size,
            handed: 0,
        }
    }
}

impl Stream<'_> {
    fn read(&mut self, emit: &mut dyn Pieces) -> bool {
        loop {
            let want = self.target.saturating_sub(self.chunk.len());
            let eof = match self.chunk.fill(&mut self.source, want) {
                Ok(eof) => eof,
                Err(err) => {
                    self.error.get_or_insert(err);
                    true
                }
            };
            // Confirmations that have come in.
            match self.settle(emit, false) {
                Settled::Held => {}
                Settled::RolledBack => continue,
                Settled::Gone => return false,
            }
            let cut = if eof {
                lexer::Cut {
                    at: self.chunk.len(),
                    after_tag_break: false,
                }
            } else if let Some(at) = self
                .guesses_now()
                .then(|| lexer::guess_game_start(self.chunk.bytes()))
                .flatten()
            {
                if !self.hand_on(emit, at, true, false) {
                    return false;
                }
                continue;
            } else {
                let Some((cut, handed)) = emit.cut(
                    self.index,
                    self.chunk.bytes(),
                    self.line,
                    self.after_tag_break,
                ) else {
                    return false;
                };
                match cut {
                    lexer::Cut { at: 0, .. } if self.chunk.len() < MAX_GAME_BYTES => {
                        // One game larger than the chunk: read more of it.
                        self.target = (self.chunk.len() * 2).clamp(BLOCK_BYTES, MAX_GAME_BYTES);
                        continue;
                    }
                    lexer::Cut { at: 0, .. } => match self.too_large(emit) {
                        Some(true) => continue,
                        Some(false) => return true,
                        None => return false,
                    },
                    cut => {
                        if !self.hand_on(emit, cut.at, false, handed) {
                            return false;
                        }
                        self.after_tag_break = cut.after_tag_break;
                        continue;
                    }
                }
            };
            if !self.hand_on(emit, cut.at, false, false) {
                return false;
            }
            // Every guess must hold before the next input is read; the last
            // block is checked meanwhile (and dropped if one does not).
            match self.settle(emit, true) {
                Settled::Held => {}
                Settled::RolledBack => continue,
                Settled::Gone => return false,
            }
            return match self.error.take() {
                Some(err) => emit.piece(Piece::Problem {
                    input: self.index,
                    message: format!("read failed after line {}: {err}", self.line),
                }),
                None => true,
            };
        }
    }

    /// Whether the chunk is cut at a guessed game start (`GUESS_AFTER`,
    /// `GUESS_FROM_START`).
    fn guesses_now(&self) -> bool {
        self.guessing
            && (self.seq >= GUESS_AFTER || self.size.is_some_and(|size| size >= GUESS_FROM_START))
    }

    /// Hands on the chunk's bytes up to `at` as a block (unless the games
    /// before the cut were already `handed` on), and keeps the rest; a
    /// `guessed` cut also gives the block the `[` at `at`.
    fn hand_on(&mut self, emit: &mut dyn Pieces, at: usize, guessed: bool, handed: bool) -> bool {
        let block = self.chunk.bytes().get(..at).unwrap_or_default();
        let lines = memchr::memchr_iter(b'\n', block).count() as u64;
        let end = if guessed { at + 1 } else { at };
        // The chunk's buffer becomes the block, and the rest of the chunk
        // (the start of the next game) goes to a buffer given back, where
        // guesses are confirmed: the block's bytes are not copied. Games
        // already handed on make no block.
        let bytes = if handed {
            self.chunk.drain_front(at);
            Arc::default()
        } else {
            let next = self.spare_buffer();
            Arc::new(self.chunk.split_off(at, end, next))
        };
        self.chunk.shrink(BLOCK_BYTES * 2);
        let after_tag_break = std::mem::replace(&mut self.after_tag_break, false);
        self.cuts += 1;
        self.handed += at as u64;
        let left = self
            .size
            .filter(|_| self.guessing)
            .map(|size| size.saturating_sub(self.handed));
        self.target = near_end(block_bytes(self.cuts), left);
        if !bytes.is_empty() {
            self.seq += 1;
            if self.guessing {
                self.held.push_back(Held {
                    seq: self.seq,
                    bytes: bytes.clone(),
                    len: at,
                    guessed,
                    verdict: None,
                });
            }
            let block = Block {
                input: self.index,
                bytes,
                guessed,
                seq: self.seq,
                first_line: self.line,
                after_tag_break,
            };
            if !emit.piece(Piece::Block(block)) {
                return false;
            }
        }
        self.line += lines;
        true
    }

    /// A game larger than `MAX_GAME_BYTES` at the chunk's start: once every
    /// guess before it holds, hands on its head and skips to the next game
    /// start. Returns whether there is more to read; `None` to stop.
    fn too_large(&mut self, emit: &mut dyn Pieces) -> Option<bool> {
        match self.settle(emit, true) {
            Settled::Held => {}
            Settled::RolledBack => return Some(true),
            Settled::Gone => return None,
        }
        self.after_tag_break = false;
        let head = self
            .chunk
            .bytes()
            .get(..TOO_LARGE_HEAD)
            .unwrap_or(self.chunk.bytes())
            .to_vec();
        if !emit.piece(Piece::TooLarge {
            input: self.index,
            head,
            line: self.line,
            size: self.chunk.len(),
        }) {
            return None;
        }
        match skip_to_game_start(&mut self.source, &mut self.chunk, &mut self.line) {
            Ok(more) => {
                self.target = block_bytes(self.cuts);
                Some(more)
            }
            Err(message) => emit
                .piece(Piece::Problem {
                    input: self.index,
                    message,
                })
                .then_some(false),
        }
    }

    /// Takes in the verdicts on guessed block ends that have come (all of
    /// them, waiting, when `all`), and lets go of the blocks known to end
    /// where they were cut. When the oldest guess still held was wrong,
    /// the blocks after it are void and the input is read again from the
    /// game that ran past it, without guessing: its bytes, the blocks'
    /// after it and the chunk go back in front of the stream.
    fn settle(&mut self, emit: &mut dyn Pieces, all: bool) -> Settled {
        loop {
            while let Some(front) = self.held.front() {
                match (front.guessed, front.verdict) {
                    (false, _) | (true, Some(None)) => {
                        let done = self.held.pop_front().map(|h| h.bytes);
                        self.give_back(done);
                    }
                    (true, Some(Some(tail))) => {
                        self.roll_back(tail);
                        emit.rolled_back();
                        return Settled::RolledBack;
                    }
                    (true, None) => break,
                }
            }
            if self.held.is_empty() {
                return Settled::Held;
            }
            match emit.confirmation(all) {
                Confirmation::Pending => return Settled::Held,
                Confirmation::On(seq, tail) => {
                    if let Some(held) = self.held.iter_mut().find(|h| h.seq == seq) {
                        held.verdict = Some(tail);
                    }
                }
                Confirmation::Gone => return Settled::Gone,
            }
        }
    }

    /// Keeps the buffer of a block done with for a next block, once no
    /// worker holds it any more: buffers of a block's size are mapped pages
    /// of their own, and mapping them for every block costs page faults.
    fn give_back(&mut self, done: Option<Arc<Vec<u8>>>) {
        if let Some(done) = done
            && self.spare.len() < SPARE_BUFFERS
            && done.capacity() <= 2 * BLOCK_BYTES
        {
            self.spare.push(done);
        }
    }

    /// A buffer of a block done with that no worker holds any more (its
    /// bytes stay: they are the next chunk's room, zeroed once), or a new
    /// one.
    fn spare_buffer(&mut self) -> Vec<u8> {
        let free = self.spare.iter().position(|b| Arc::strong_count(b) == 1);
        free.and_then(|i| Arc::try_unwrap(self.spare.swap_remove(i)).ok())
            .unwrap_or_default()
    }

    /// Reads the input again from `tail` of the oldest block held.
    fn roll_back(&mut self, tail: Tail) {
        let mut held = std::mem::take(&mut self.held).into_iter();
        let Some(first) = held.next() else {
            return;
        };
        let mut front = Vec::new();
        for later in held {
            front.extend_from_slice(later.bytes.get(..later.len).unwrap_or_default());
        }
        front.extend_from_slice(self.chunk.bytes());
        front.extend_from_slice(self.source.front.get(self.source.at..).unwrap_or_default());
        self.source.front = front;
        self.source.at = 0;
        self.chunk.clear();
        self.chunk
            .extend(first.bytes.get(tail.at..first.len).unwrap_or_default());
        self.line = tail.line;
        self.after_tag_break = tail.after_tag_break;
        self.target = BLOCK_BYTES;
        self.guessing = false;
    }
}

/// After a game too large, discards input up to the next line that starts
/// with `[` after a blank line, counting lines, and leaves what follows in
/// `chunk`. Returns false at the end of the input, and an error message when
/// no game start came in `MAX_SKIP_BYTES`.
fn skip_to_game_start(
    reader: &mut dyn Read,
    chunk: &mut Chunk,
    line: &mut u64,
) -> Result<bool, String> {
    let mut skipped = 0u64;
    let from = *line;
    loop {
        if let Some(at) = next_tagged_start(chunk.bytes()) {
            *line += memchr::memchr_iter(b'\n', &chunk.bytes()[..at]).count() as u64;
            chunk.drain_front(at);
            return Ok(true);
        }
        // Keep the last two bytes: a blank line may end there.
        let keep = chunk.len().min(2);
        let gone = chunk.len() - keep;
        *line += memchr::memchr_iter(b'\n', &chunk.bytes()[..gone]).count() as u64;
        chunk.drain_front(gone);
        skipped += gone as u64;
        if skipped > MAX_SKIP_BYTES {
            return Err(format!(
                "no game start in the {} MiB after the game too large at line {from}; the rest of the input is not read",
                MAX_SKIP_BYTES >> 20
            ));
        }
        match chunk.fill(reader, BLOCK_BYTES) {
            // The last bytes may still hold a game start.
            Ok(true) => {
                if let Some(at) = next_tagged_start(chunk.bytes()) {
                    *line += memchr::memchr_iter(b'\n', &chunk.bytes()[..at]).count() as u64;
                    chunk.drain_front(at);
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

#[cfg(test)]
mod tests;
