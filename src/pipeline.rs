//! The run: inputs are read and cut into blocks of whole games (one reader),
//! blocks are checked (by `jobs` workers), and results are written in input
//! order (the caller's thread). Queues are bounded and so is the number of
//! blocks in flight, so memory does not grow with the input.

use std::{
    io::{self, Read},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use crate::{
    checks::{self, Judging},
    game::{RawGame, Tags, decode},
    history::History,
    input::{self, Input},
    lexer::{self, Lexed},
    pgn,
    report::GameResult,
};

/// Bytes of decompressed input per block (a block only ends between games).
const BLOCK_BYTES: usize = 1 << 20;

/// A game larger than this is cut, so that a stray `{` cannot make the
/// reader hold the rest of an archive in memory.
const MAX_GAME_BYTES: usize = 1 << 30;

/// Whole games from one input.
#[derive(Debug)]
pub struct Block {
    /// Index of the input.
    pub input: usize,
    /// The games' bytes.
    pub bytes: Vec<u8>,
    /// 1-based line of the block's first byte.
    pub first_line: u64,
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
}

/// What the writer receives, in input order.
#[derive(Debug)]
pub enum Checked {
    /// The games of one block.
    Games {
        /// Index of the input.
        input: usize,
        /// The games, in order.
        games: Vec<GameResult>,
    },
    /// An operational problem.
    Problem {
        /// Index of the input.
        input: usize,
        /// What went wrong.
        message: String,
    },
    /// An input is done.
    InputDone(usize),
}

/// Reusable buffers of one worker.
#[derive(Default)]
pub struct Worker {
    tags: Tags,
    lexed: Lexed,
    history: History,
    /// How games are judged.
    pub judging: Judging,
    /// Fill in the tag columns of every game (a games report is written),
    /// not only of games with findings.
    pub all_rows: bool,
}

impl Worker {
    /// A worker judging by `judging`; `all_rows` when a games report is
    /// written.
    pub fn new(judging: Judging, all_rows: bool) -> Worker {
        Worker {
            all_rows,
            judging,
            ..Worker::default()
        }
    }
}

impl Worker {
    /// Checks a piece: blocks are checked, the rest passes through.
    pub fn check(&mut self, piece: Piece) -> Checked {
        match piece {
            Piece::Block(block) => Checked::Games {
                input: block.input,
                games: self.check_block(&block),
            },
            Piece::Problem { input, message } => Checked::Problem { input, message },
            Piece::InputDone(input) => Checked::InputDone(input),
        }
    }

    /// Checks every game of a block, reading them one after another with
    /// the lexer.
    pub fn check_block(&mut self, block: &Block) -> Vec<GameResult> {
        let bytes = &block.bytes[..];
        let mut out = Vec::new();
        let mut pos = 0;
        let mut line = block.first_line;
        loop {
            let (start, lines) = lexer::skip_blanks(bytes, pos);
            line += lines;
            let rest = bytes.get(start..).unwrap_or_default();
            if rest.is_empty() {
                break;
            }
            let end = self.lexed.scan(rest, line, &mut self.tags).max(1);
            let game = RawGame {
                bytes: slice(rest, 0, end),
                line,
                tags: &self.tags,
                lexed: &self.lexed,
            };
            out.push(check_game(
                &game,
                self.judging,
                &mut self.history,
                self.all_rows,
            ));
            line = self.lexed.end_line;
            pos = start + end;
        }
        out
    }
}

fn slice(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    bytes.get(start..end).unwrap_or_default()
}

/// Checks one game. The tag columns are filled in when `all_rows` or when
/// there are findings (the findings report needs them).
pub fn check_game(
    game: &RawGame<'_>,
    judging: Judging,
    history: &mut History,
    all_rows: bool,
) -> GameResult {
    let mut findings = Vec::new();
    let verdict = checks::audit(game, judging, history, &mut findings);
    // Rows in input order: by line (stable, so a line keeps check order).
    findings.sort_by_key(|f| f.line);
    let mut result = GameResult {
        line: game.line,
        event: String::new(),
        site: String::new(),
        date: String::new(),
        round: String::new(),
        white: String::new(),
        black: String::new(),
        result: String::new(),
        termination: String::new(),
        verdict,
        findings,
    };
    if !all_rows && result.findings.is_empty() {
        return result;
    }
    // One pass over the tags; the first of each name counts.
    let mut seen = 0u16;
    for (_, name, value) in game.tags.iter() {
        let (bit, slot) = match name {
            b"Event" => (0, &mut result.event),
            b"Site" => (1, &mut result.site),
            b"Date" => (2, &mut result.date),
            b"Round" => (3, &mut result.round),
            b"White" => (4, &mut result.white),
            b"Black" => (5, &mut result.black),
            b"Result" => (6, &mut result.result),
            b"Termination" => (7, &mut result.termination),
            _ => continue,
        };
        if seen & (1 << bit) == 0 {
            seen |= 1 << bit;
            *slot = decode(value).0.into_owned();
        }
    }
    result
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
    counter: &Arc<AtomicU64>,
    emit: &mut dyn FnMut(Piece) -> bool,
) {
    for (index, input) in inputs.iter().enumerate() {
        if !read_input(index, input, counter, emit) {
            return;
        }
        if !emit(Piece::InputDone(index)) {
            return;
        }
    }
}

fn read_input(
    index: usize,
    input: &Input,
    counter: &Arc<AtomicU64>,
    emit: &mut dyn FnMut(Piece) -> bool,
) -> bool {
    let mut opened = match input::open(&input.source, counter.clone()) {
        Ok(opened) => opened,
        Err(err) => {
            return emit(Piece::Problem {
                input: index,
                message: err.to_string(),
            });
        }
    };
    let mut chunk: Vec<u8> = Vec::with_capacity(BLOCK_BYTES * 2);
    let mut line = 1u64;
    let mut want = BLOCK_BYTES;
    loop {
        let (eof, error) = match fill(&mut opened.reader, &mut chunk, want) {
            Ok(eof) => (eof, None),
            Err(err) => (true, Some(err)),
        };
        let cut = if eof {
            chunk.len()
        } else {
            match pgn::last_game_start(&chunk) {
                0 if chunk.len() < MAX_GAME_BYTES => {
                    // One game larger than the chunk: read more of it.
                    want = chunk.len();
                    continue;
                }
                0 => {
                    let message = format!(
                        "a game at line {line} is larger than {} MiB (an unclosed comment?); it is checked in pieces",
                        MAX_GAME_BYTES >> 20
                    );
                    if !emit(Piece::Problem {
                        input: index,
                        message,
                    }) {
                        return false;
                    }
                    chunk.len()
                }
                cut => cut,
            }
        };
        want = BLOCK_BYTES;
        // The block gets an allocation of its own size; the chunk buffer
        // keeps its capacity for the next read.
        let bytes = chunk.get(..cut).unwrap_or_default().to_vec();
        chunk.drain(..cut);
        let lines = memchr::memchr_iter(b'\n', &bytes).count() as u64;
        if !bytes.is_empty()
            && !emit(Piece::Block(Block {
                input: index,
                bytes,
                first_line: line,
            }))
        {
            return false;
        }
        line += lines;
        if let Some(err) = error {
            return emit(Piece::Problem {
                input: index,
                message: format!("read failed after line {line}: {err}"),
            });
        }
        if eof {
            return true;
        }
    }
}

/// Runs the reader, `jobs` workers and the writer `sink` (on this thread),
/// which receives results in input order and returns false to stop.
pub fn run(
    inputs: &[Input],
    jobs: usize,
    judging: Judging,
    all_rows: bool,
    counter: &Arc<AtomicU64>,
    sink: &mut dyn FnMut(Checked) -> bool,
) {
    if jobs <= 1 {
        let mut worker = Worker::new(judging, all_rows);
        read_inputs(inputs, counter, &mut |piece| sink(worker.check(piece)));
        return;
    }
    // Pieces in flight (read but not yet written) are capped by tokens.
    let in_flight = jobs * 2 + 2;
    let (tokens_tx, tokens_rx) = crossbeam_channel::bounded::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = tokens_tx.send(());
    }
    let (work_tx, work_rx) = crossbeam_channel::bounded::<(u64, Piece)>(jobs);
    let (done_tx, done_rx) = crossbeam_channel::bounded::<(u64, Checked)>(in_flight);
    let stop = Arc::new(AtomicU64::new(0));
    std::thread::scope(|scope| {
        let reader_stop = stop.clone();
        scope.spawn(move || {
            let mut seq = 0u64;
            read_inputs(inputs, counter, &mut |piece| {
                if reader_stop.load(Ordering::Relaxed) != 0 || tokens_rx.recv().is_err() {
                    return false;
                }
                let sent = work_tx.send((seq, piece)).is_ok();
                seq += 1;
                sent
            });
        });
        for _ in 0..jobs {
            let work_rx = work_rx.clone();
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                let mut worker = Worker::new(judging, all_rows);
                for (seq, piece) in work_rx {
                    if done_tx.send((seq, worker.check(piece))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(work_rx);
        drop(done_tx);
        let mut next = 0u64;
        let mut waiting = std::collections::BTreeMap::new();
        let mut open = true;
        for (seq, checked) in &done_rx {
            waiting.insert(seq, checked);
            while let Some(checked) = waiting.remove(&next) {
                next += 1;
                if open && !sink(checked) {
                    open = false;
                    stop.store(1, Ordering::Relaxed);
                }
                let _ = tokens_tx.send(());
            }
            if !open {
                break;
            }
        }
        // Unblock the reader if it waits for a token, then let threads end.
        drop(tokens_tx);
        drop(done_rx);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    const NASTY: &[&[u8]] = &[
        b"{",
        b"}",
        b"(",
        b")",
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"\n",
        b"\n\n",
        b"\r\n",
        b"%",
        b";",
        b"$",
        b"$999",
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        b"O-O-O",
        b"0-0",
        b"--",
        b"Z0",
        b"e8=Q#",
        b"\xc2\xbd",
        b"\xff",
        b"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n",
        b"[SetUp \"1\"]\n",
        b"[Variant \"Chess960\"]\n",
        b"[FEN \"",
        b"N@f3",
        b"e.p.",
    ];

    /// Mutated real games and random bytes go through the whole check of a
    /// block without a panic, and every game found gets a result.
    #[test]
    fn arbitrary_input_never_panics() {
        let root = crate::testing::corpora();
        let seeds: Vec<Vec<u8>> = [
            "parser-tests/pgn-extract/fischer.pgn",
            "parser-tests/python-chess/cutechess-fischerrandom.pgn",
            "parser-tests/rust-pgn-reader/fixture.pgn",
            "parser-tests/hoover-chess-utils/parsertest-1.pgn",
        ]
        .iter()
        .map(|p| std::fs::read(root.join(p)).unwrap())
        .collect();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut worker = Worker::new(Judging::default(), true);
        for round in 0..1500 {
            let seed = &seeds[round % seeds.len()];
            let mut bytes = seed[..seed.len().min(4000)].to_vec();
            for _ in 0..1 + rng.below(12) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 => {
                        let piece = NASTY[rng.below(NASTY.len())];
                        bytes.splice(at..at, piece.iter().copied());
                    }
                    1 => {
                        let end = (at + rng.below(40)).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    2 => {
                        if let Some(b) = bytes.get_mut(at) {
                            *b = rng.next() as u8;
                        }
                    }
                    _ => {
                        let random: Vec<u8> =
                            (0..rng.below(30)).map(|_| rng.next() as u8).collect();
                        bytes.splice(at..at, random);
                    }
                }
            }
            let block = Block {
                input: 0,
                bytes,
                first_line: 1,
            };
            let games = worker.check_block(&block);
            for game in &games {
                assert!(game.line >= 1);
            }
        }
    }

    #[test]
    fn blocks_end_between_games_whatever_the_block_size() {
        // Cutting a file into blocks must not change what is found.
        let path = crate::testing::corpora().join("parser-tests/pgn-extract/fischer.pgn");
        let bytes = std::fs::read(path).unwrap();
        let mut worker = Worker::new(Judging::default(), true);
        let whole = worker.check_block(&Block {
            input: 0,
            bytes: bytes.clone(),
            first_line: 1,
        });
        let mut pieces = Vec::new();
        let mut rest = &bytes[..];
        let mut line = 1;
        let mut size = 3000;
        while !rest.is_empty() {
            let chunk = &rest[..rest.len().min(size)];
            let cut = if chunk.len() == rest.len() {
                rest.len()
            } else {
                pgn::last_game_start(chunk)
            };
            if cut == 0 {
                size *= 2;
                continue;
            }
            size = 3000;
            let (block, tail) = rest.split_at(cut);
            pieces.extend(worker.check_block(&Block {
                input: 0,
                bytes: block.to_vec(),
                first_line: line,
            }));
            line += block.iter().filter(|&&b| b == b'\n').count() as u64;
            rest = tail;
        }
        assert_eq!(whole.len(), pieces.len());
        for (a, b) in whole.iter().zip(&pieces) {
            assert_eq!(
                (a.line, &a.findings, &a.verdict),
                (b.line, &b.findings, &b.verdict)
            );
        }
    }
}
