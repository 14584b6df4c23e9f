//! The pipeline's tests: arbitrary inputs, blocks and guesses, the
//! writer's turns, and the buffers handed back.

use super::handoff::{Handed, PART_GAMES, SPARE_BYTES, SPARE_LISTS, SPARE_TAGS};
use super::worker::BATCH_GAME_BYTES;
use super::writer::hand_on;
use super::*;
use crate::checks::{Verdict, ending::HowEnded};
use crate::read::blocks::GUESS_AFTER;
use crate::read::blocks::{BLOCK_BYTES, Block, MAX_GAME_BYTES, Piece};
use crate::read::lexer;
use crate::read::tags::Tag;
use crate::report::GameResult;
use crate::{finding::Kind, read::input};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    b"[Variant \"Atomic\"]\n",
    b"[Variant \"Crazyhouse\"]\n",
    b"[Variant \"Antichess\"]\n",
    b"[Variant \"Horde\"]\n",
    b"[FEN \"",
    b"N@f3",
    b"e.p.",
];

/// Mutated real games and random bytes go through the whole check of a
/// block without a panic, and every game found gets a result.
#[test]
fn arbitrary_input_never_panics() {
    let root = crate::testing::sample();
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
                    let random: Vec<u8> = (0..rng.below(30)).map(|_| rng.next() as u8).collect();
                    bytes.splice(at..at, random);
                }
            }
        }
        let block = Block {
            input: 0,
            bytes: bytes.into(),
            guessed: false,
            seq: 0,
            first_line: 1,
            after_tag_break: false,
        };
        let games = worker.check_block(&block);
        for game in &games {
            assert!(game.line >= 1);
        }
    }
}

/// Reads a whole input as the run does, one thread: every piece, and
/// the games of each part.
fn read_all(bytes: &[u8]) -> (Vec<Piece>, Vec<GameResult>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let inputs = crate::testing::file_input(dir.path(), bytes);
    let mut pieces = Vec::new();
    read_inputs(&inputs, 0, &Tally::default(), &mut |piece: Piece| {
        pieces.push(piece);
        true
    });
    let mut worker = Worker::new(Judging::default(), true);
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for piece in pieces.iter().map(clone_piece) {
        worker.check(piece, &mut |checked| {
            match checked {
                Checked::Games { games: part, .. } => {
                    assert!(part.len() <= PART_GAMES);
                    games.extend(part);
                }
                Checked::Problem { message, .. } => problems.push(message),
                Checked::InputDone(_) => {}
            }
            true
        });
    }
    (pieces, games, problems)
}

/// The first blocks of an input are an eighth, a quarter and a half of
/// `BLOCK_BYTES` at most (a block ends at the last game that fits);
/// the rest up to `BLOCK_BYTES`, and every game is read once.
#[test]
fn the_first_blocks_of_an_input_are_smaller() {
    let (bytes, i) = crate::testing::short_games(3 * BLOCK_BYTES);
    let (pieces, games, problems) = read_all(&bytes);
    assert!(problems.is_empty());
    assert_eq!(games.len(), i);
    let sizes: Vec<usize> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Block(b) => Some(b.bytes.len()),
            _ => None,
        })
        .collect();
    let game = bytes.len() / i + 1;
    for (n, &size) in sizes.iter().enumerate().take(sizes.len() - 1) {
        let most = BLOCK_BYTES >> 3usize.saturating_sub(n);
        assert!(
            size <= most && size + 2 * game > most,
            "block {n}: {size} bytes"
        );
    }
}

fn clone_piece(piece: &Piece) -> Piece {
    match piece {
        Piece::Block(b) => Piece::Block(Block {
            input: b.input,
            bytes: b.bytes.clone(),
            guessed: b.guessed,
            seq: b.seq,
            first_line: b.first_line,
            after_tag_break: b.after_tag_break,
        }),
        Piece::Problem { input, message } => Piece::Problem {
            input: *input,
            message: message.clone(),
        },
        Piece::InputDone(i) => Piece::InputDone(*i),
        Piece::TooLarge {
            input,
            head,
            line,
            size,
        } => Piece::TooLarge {
            input: *input,
            head: head.clone(),
            line: *line,
            size: *size,
        },
    }
}

/// A writer that stops early (standard output closed) ends the run at
/// any number of threads: no thread is left waiting.
#[test]
fn the_run_ends_when_the_writer_stops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn");
    // Blocks of many parts, so that workers wait to hand them on.
    std::fs::write(&path, b"*\n\n".repeat(2 * BLOCK_BYTES)).unwrap();
    let inputs = vec![Input {
        name: "x.pgn".into(),
        source: input::Source::File(path),
    }];
    for jobs in [2, 8] {
        for stop_after in [0, 3] {
            let (done_tx, done_rx) = crossbeam_channel::bounded(1);
            let inputs = inputs.clone();
            std::thread::spawn(move || {
                let mut calls = 0;
                run(
                    &inputs,
                    jobs,
                    &Task {
                        all_rows: true,
                        ..Task::default()
                    },
                    0,
                    &Arc::default(),
                    &mut |_| {
                        calls += 1;
                        if calls == 1 {
                            // Let the reader and the workers fill every queue.
                            std::thread::sleep(std::time::Duration::from_millis(2000));
                        }
                        calls <= stop_after
                    },
                );
                let _ = done_tx.send(calls);
            });
            let calls = done_rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("-j{jobs}, stop after {stop_after}: hung"));
            assert_eq!(calls, stop_after + 1);
        }
    }
}

/// A writer over one piece dealt with two tokens, whose results go to
/// `sink`; the piece's sender, and where the tokens come back.
fn writing<'a>(
    sink: &'a mut (dyn FnMut(Checked) -> bool + Send),
    stop: &'a AtomicU64,
) -> (
    Writing<'a>,
    crossbeam_channel::Sender<Handed>,
    crossbeam_channel::Receiver<()>,
) {
    let (order_tx, order_rx) = crossbeam_channel::bounded(1);
    let (parts_tx, parts_rx) = crossbeam_channel::bounded(2);
    order_tx.send((parts_rx, 2, 0)).unwrap();
    let (tokens_tx, tokens_rx) = crossbeam_channel::unbounded();
    let writer = Writer {
        sink,
        order: order_rx,
        current: None,
        void: None,
        tokens: Some(tokens_tx),
    };
    let writing = Writing {
        writer: Mutex::new(writer),
        pending: AtomicBool::new(false),
        stop,
    };
    (writing, parts_tx, tokens_rx)
}

#[test]
fn a_worker_never_waits_for_another_to_write() {
    let written = std::sync::Mutex::new(Vec::new());
    let mut sink = |checked: Checked| {
        if let Checked::InputDone(input) = checked {
            written.lock().unwrap().push(input);
        }
        true
    };
    let stop = AtomicU64::new(0);
    let (writing, parts, tokens) = writing(&mut sink, &stop);
    assert!(hand_on(
        &parts,
        Handed::Checked(Checked::InputDone(1)),
        &writing
    ));
    assert_eq!(*written.lock().unwrap(), [1]);
    // Another worker is writing: this one hands on and goes on at once,
    // and what it handed on is written before the other lets go.
    let mut held = Some(writing.writer.lock().unwrap());
    let (done_tx, done_rx) = crossbeam_channel::bounded(1);
    let waited = std::thread::scope(|scope| {
        scope.spawn(|| {
            let handed = hand_on(&parts, Handed::Checked(Checked::InputDone(2)), &writing);
            writing.write_soon();
            done_tx.send(handed).unwrap();
        });
        let done = done_rx.recv_timeout(std::time::Duration::from_secs(5));
        if done.is_err() {
            // Let it go on, so that the test fails instead of hanging.
            held = None;
        }
        done.is_err()
    });
    assert!(!waited, "a worker waited for the other to write");
    assert_eq!(*written.lock().unwrap(), [1]);
    assert!(writing.pending.load(Ordering::SeqCst));
    drop(held);
    writing.write_soon();
    assert_eq!(*written.lock().unwrap(), [1, 2]);
    // The piece ends: its tokens come back.
    assert!(tokens.try_recv().is_err());
    drop(parts);
    writing.write_soon();
    assert_eq!(tokens.try_iter().count(), 2);
}

#[test]
fn a_worker_with_a_full_queue_stops_with_the_run() {
    let mut sink = |_: Checked| true;
    let stop = AtomicU64::new(0);
    let (writing, parts, _tokens) = writing(&mut sink, &stop);
    // Another worker holds the writer (and then panics, say): the queue
    // fills, and the worker handing on gives up once the run stops.
    let mut held = Some(writing.writer.lock().unwrap());
    let (waiting, handed) = std::thread::scope(|scope| {
        let handing = scope.spawn(|| {
            (0..3).all(|i| hand_on(&parts, Handed::Checked(Checked::InputDone(i)), &writing))
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        let waiting = !handing.is_finished();
        stop.store(1, Ordering::Relaxed);
        let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !handing.is_finished() && std::time::Instant::now() < end {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // Let it go on, so that the test fails instead of hanging.
        held = None;
        (waiting, handing.join().unwrap())
    });
    assert!(waiting, "the queue had room");
    assert!(
        !handed,
        "the run stopped, and the worker went on handing on"
    );
}

/// Everything a run hands the writer at `jobs` threads, with `--fix`:
/// each game's line, White, codes and changes, and the copy.
fn run_rows(path: &std::path::Path, jobs: usize) -> (Vec<String>, Vec<u8>) {
    let inputs = [Input {
        name: "x.pgn".into(),
        source: input::Source::File(path.to_path_buf()),
    }];
    let task = Task {
        fix: Some(Arc::new(Selection::default())),
        ..Task::default()
    };
    let (mut rows, mut copy) = (Vec::new(), Vec::new());
    run(&inputs, jobs, &task, 0, &Arc::default(), &mut |checked| {
        if let Checked::Games {
            games, copy: part, ..
        } = checked
        {
            for g in &games {
                let codes: Vec<_> = g.findings.iter().map(|f| f.kind.code()).collect();
                let changes = g.fixed.as_ref().map_or(0, |f| f.changes.len());
                rows.push(format!(
                    "{} {} {codes:?} {changes}",
                    g.line,
                    g.tag(Tag::White)
                ));
            }
            copy.extend(part);
        }
        true
    });
    (rows, copy)
}

/// One thread, which finds where each chunk is cut while it checks the
/// chunk's games, reads the same games as two threads, whose reader
/// cuts blocks at guessed game starts (with a skimming scan where it
/// guesses none): on inputs of several chunks that
/// mix games, header-only games that end at a tag break (runs of them
/// longer than a chunk among them), blank lines and comments that hold
/// what looks like a game start.
#[test]
fn one_thread_reads_the_games_blocks_hold() {
    let pieces: &[&[u8]] = &[
        b"[Event \"E\"]\n[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke2 1-0\n\n",
        b"[White \"x\"]\n\n",
        b"[White \"y\"]\n[Black \"z\"]\n\n\n",
        // Nothing to correct: a game after it that starts at a tag
        // break has its missing tags added after its first line.
        b"[Event \"F\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n",
        b"[Event \"C\"]\n\n1. e4 {\n\n[Event \"inside\"]\n} e5 *\n\n",
        b"[Event \"M\"]\n\n1. d4 d5\n\n2. c4 *\n\n",
        b"\n\n\r\n",
        b"[Event \"R\"]\r\n[White \"B\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n\r\n",
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for case in 0..6 {
        let mut bytes = Vec::new();
        while bytes.len() < 5 * BLOCK_BYTES / 2 {
            // Runs of one piece; in the last case, first a run of
            // header-only games longer than a chunk.
            let first_run = case == 5 && bytes.is_empty();
            let piece = pieces[if first_run {
                1
            } else {
                rng.below(pieces.len())
            }];
            let run = if first_run {
                BLOCK_BYTES / piece.len() + 1000
            } else {
                1 + rng.below(if case % 2 == 0 { 3 } else { 400 })
            };
            for _ in 0..run {
                bytes.extend_from_slice(piece);
            }
        }
        std::fs::write(&path, &bytes).unwrap();
        let (one, one_copy) = run_rows(&path, 1);
        let (two, two_copy) = run_rows(&path, 2);
        assert!(one.len() > 1000, "case {case}: {} games", one.len());
        assert_eq!(one, two, "case {case}");
        assert!(one_copy == two_copy, "case {case}: the copies differ");
    }
}

/// Blocks cut at guessed game starts read what one thread reads when
/// the guesses are wrong: games whose comments hold whole games (tags,
/// blank lines, moves), one of them longer than a chunk, so that a
/// chunk's last blank line and `[` are inside it (after a header-only
/// game, so that the game read again follows a tag break), and one too
/// large to read, so that bytes are skipped after wrong guesses.
#[test]
fn wrong_guesses_are_read_again() {
    let inner = b"1. d4 d5 *\n\n[Event \"inside\"]\n[White \"I\"]\n\n1. c4 *\n\n";
    let game = |white: &str, comment_bytes: usize| {
        let mut g = format!("[Event \"E\"]\n[White \"{white}\"]\n\n1. e4 {{\n").into_bytes();
        while g.len() < comment_bytes {
            g.extend_from_slice(inner);
        }
        g.extend_from_slice(b"} e5 2. Nf3 *\n\n");
        g
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn");
    for (case, long) in [BLOCK_BYTES * 3 / 2, MAX_GAME_BYTES + BLOCK_BYTES]
        .into_iter()
        .enumerate()
    {
        // Games without a game in their comments first, longer than
        // the blocks an input is cut exactly into before guesses.
        let mut bytes = Vec::new();
        let pad = "p".repeat(1000);
        for i in 0..5000 {
            let before = format!(
                "[Event \"E\"]\n[Annotator \"{pad}\"]\n[White \"before {i}\"]\n\n1. e4 e5 *\n\n"
            );
            bytes.extend_from_slice(before.as_bytes());
        }
        assert!(bytes.len() > (GUESS_AFTER as usize + 1) * BLOCK_BYTES);
        // A header-only game before it: the long game starts after a
        // tag break.
        bytes.extend_from_slice(b"[Event \"H\"]\n[White \"header only\"]\n\n");
        bytes.extend(game("long", long));
        for i in 0..30_000 {
            bytes.extend(game(&format!("after {i}"), (i % 7) * 40));
        }
        std::fs::write(&path, &bytes).unwrap();
        let (one, one_copy) = run_rows(&path, 1);
        if case == 0 {
            assert_eq!(one.len(), 35_002);
        } else {
            // Reading goes on at the first blank line and `[` after the
            // game's start, inside its comment.
            assert!(one.iter().any(|row| row.contains("game-too-large")));
            assert!(one.len() > 35_002);
        }
        for jobs in [2, 3] {
            let (many, many_copy) = run_rows(&path, jobs);
            assert_eq!(one, many, "case {case}, {jobs} threads");
            assert!(one_copy == many_copy, "case {case}: the copies differ");
        }
    }
}

#[test]
fn a_batch_keeps_no_large_games_buffers_past_its_first_slot() {
    let small = "[Event \"x\"]\n\n1. e4 e5 *\n\n".to_owned();
    let large = format!("[Event \"y\"]\n\n{}*\n\n", "Nf3 Nf6 Ng1 Ng8 ".repeat(1000));
    assert!(large.len() > BATCH_GAME_BYTES);
    // A large game third in a batch, the next first in the next.
    let pgn = [&small, &small, &large, &large, &small]
        .map(String::as_str)
        .concat();
    let mut worker = Worker::new(Judging::default(), false);
    let games = worker.check_block(&whole_input(&pgn));
    let lines: Vec<u64> = games.iter().map(|g| g.line).collect();
    assert_eq!(lines, [1, 5, 9, 13, 17]);
    // The first slot keeps what the large game needed, as one lexer
    // did; the third gave it back.
    assert!(worker.batch.len() >= 3);
    assert!(worker.batch[0].lexed.sans.capacity() >= 4000);
    assert_eq!(worker.batch[2].lexed.sans.capacity(), 0);
    assert!(
        worker
            .batch
            .iter()
            .skip(1)
            .all(|g| g.lexed.sans.capacity() < 1000)
    );
}

/// `pgn` as the one block of an input, from its first line.
fn whole_input(pgn: &str) -> Block {
    Block {
        input: 0,
        bytes: Arc::new(pgn.as_bytes().to_vec()),
        guessed: false,
        seq: 0,
        first_line: 1,
        after_tag_break: false,
    }
}

#[test]
fn tag_buffers_the_writer_gives_back_are_filled_again() {
    let pgn = "[Event \"a\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 e5 *\n\n".repeat(3);
    let block = || whole_input(&pgn);
    let task = Task {
        all_rows: true,
        ..Task::default()
    };
    let mut worker = task.worker();
    let games = worker.check_block(&block());
    assert_eq!(games.len(), 3);
    assert!(
        games
            .iter()
            .all(|g| g.tag(Tag::Event) == "a" && g.tag(Tag::White) == "W")
    );
    let given: Vec<*const u8> = games.iter().map(|g| g.tag(Tag::Event).as_ptr()).collect();
    worker.spares.give(games);
    // The next games' columns are written into those very buffers.
    let again = worker.check_block(&block());
    assert!(
        again
            .iter()
            .all(|g| g.tag(Tag::Event) == "a" && g.tag(Tag::Black) == "B")
    );
    let mut reused: Vec<*const u8> = again.iter().map(|g| g.tag(Tag::Event).as_ptr()).collect();
    reused.sort();
    let mut given = given;
    given.sort();
    assert_eq!(reused, given);
}

#[test]
fn games_go_back_to_the_worker_that_checked_them() {
    let pgn = "[Event \"a\"]\n[White \"W\"]\n\n1. e4 e5 *\n\n".repeat(3);
    let block = whole_input(&pgn);
    let task = Task {
        all_rows: true,
        ..Task::default()
    };
    let (mut first, mut second) = (task.worker(), task.worker());
    // Checks the block, gives the games back where they say, as the
    // writer does, and returns where their tag columns were.
    let check = |worker: &mut Worker| {
        let mut columns = Vec::new();
        worker.check_parts(&block, &mut |checked| {
            if let Checked::Games { games, spares, .. } = checked {
                columns.extend(games.iter().map(|g| g.tag(Tag::Event).as_ptr()));
                spares
                    .expect("a worker's games say where they go")
                    .give(games);
            }
            true
        });
        columns.sort();
        columns
    };
    let firsts = check(&mut first);
    assert_eq!(firsts.len(), 3);
    // The other worker's games are in buffers of its own...
    let seconds = check(&mut second);
    assert!(seconds.iter().all(|p| !firsts.contains(p)));
    // ... and each worker fills its own again.
    assert_eq!(check(&mut first), firsts);
    assert_eq!(check(&mut second), seconds);
}

#[test]
fn the_writer_never_waits_to_give_games_back() {
    let spares = Spares::default();
    // More lists than are kept, with nobody taking them: none blocks.
    for _ in 0..SPARE_LISTS * 3 {
        spares.give(Vec::with_capacity(PART_GAMES));
    }
    // An empty list that holds nothing is not given back.
    spares.give(Vec::new());
    let mut lists = 0;
    while let Some(list) = spares.take() {
        assert_eq!(list.capacity(), PART_GAMES);
        lists += 1;
    }
    assert_eq!(lists, SPARE_LISTS);
}

#[test]
fn a_worker_keeps_the_small_tag_buffers_and_the_list_given_back() {
    let task = Task::default();
    let mut worker = task.worker();
    let game = |bytes: usize| {
        GameResult::new(1, Verdict::not_replayed(HowEnded::Unknown), Vec::new())
            .with_tag_text(String::with_capacity(bytes))
    };
    let mut list = Vec::with_capacity(PART_GAMES);
    list.extend([game(100), game(SPARE_BYTES * 4), game(0)]);
    let kept = list[0].tag(Tag::Event).as_ptr();
    worker.spares.give(list);
    worker.restock();
    // A large buffer, or none, is not kept.
    assert_eq!(worker.spare.len(), 1);
    assert_eq!(worker.spare[0].as_ptr(), kept);
    assert!(worker.spare_list.is_empty());
    assert_eq!(worker.spare_list.capacity(), PART_GAMES);
    // Nor more buffers than a worker needs.
    for _ in 0..SPARE_TAGS / PART_GAMES + 1 {
        worker
            .spares
            .give((0..PART_GAMES).map(|_| game(100)).collect());
        worker.restock();
    }
    assert_eq!(worker.spare.len(), SPARE_TAGS);
}

#[test]
fn a_game_too_large_is_one_row() {
    let mut pgn = b"[Event \"before\"]\n[Result \"*\"]\n\n1. e4 *\n\n".to_vec();
    pgn.extend(b"[Event \"huge\"]\n[White \"W\"]\n\n1. e4 {\n");
    for _ in 0..(MAX_GAME_BYTES / 49 + 1000) {
        pgn.extend(b"an unclosed comment goes on and on and on and on\n");
    }
    pgn.extend(b"} *\n\n[Event \"after\"]\n[Result \"*\"]\n\n1. d4 *\n");
    let lines = pgn.iter().filter(|&&b| b == b'\n').count() as u64;
    let (pieces, games, problems) = read_all(&pgn);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(pieces.iter().all(|p| p.weight() <= MAX_GAME_BYTES));
    assert_eq!(games.len(), 3);
    // The small games lack most of the roster, and have nothing else.
    let only_roster = |g: &GameResult| g.findings.iter().all(|f| f.kind == Kind::MissingTag);
    assert!(only_roster(&games[0]));
    let huge = &games[1];
    assert_eq!((huge.line, huge.tag(Tag::White)), (6, "W"));
    assert_eq!(huge.findings.len(), 1);
    assert_eq!(huge.findings[0].kind, Kind::GameTooLarge);
    assert_eq!(games[2].tag(Tag::Event), "after");
    assert_eq!(games[2].line, lines - 3);
    assert!(only_roster(&games[2]));
}

#[test]
fn junk_without_end_is_one_row_and_a_problem() {
    let junk = vec![0u8; MAX_GAME_BYTES * 2];
    let (_, games, problems) = read_all(&junk);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].findings[0].kind, Kind::GameTooLarge);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn floods_of_tiny_and_header_only_games_come_in_small_pieces() {
    for game in [&b"*\n\n"[..], b"[White \"x\"]\n\n"] {
        let count = 3 * BLOCK_BYTES / game.len();
        let (pieces, games, _) = read_all(&game.repeat(count));
        assert!(pieces.iter().all(|p| p.weight() <= BLOCK_BYTES), "{game:?}");
        assert_eq!(games.len(), count, "{game:?}");
    }
}

#[test]
fn long_tags_and_inner_quotes_never_split_a_game_at_a_block_end() {
    // Every game has a tag line longer than pgn-reader reads (255
    // bytes) and a value with quotes inside it; whichever game a block
    // ends in, each is one game with all its tags.
    let long = "y".repeat(300);
    let mut bytes = Vec::new();
    let mut count = 0;
    while bytes.len() < 3 * BLOCK_BYTES {
        let pad = "z".repeat(count % 97);
        bytes.extend_from_slice(
            format!(
                "[Event \"E \"{count}\"\"]\n[Site \"S\"]\n[Annotator \"{long}{pad}\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            )
            .as_bytes(),
        );
        count += 1;
    }
    let (pieces, games, problems) = read_all(&bytes);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(pieces.len() > 3, "{} pieces", pieces.len());
    assert_eq!(games.len(), count);
    for game in &games {
        let codes: Vec<&str> = game.findings.iter().map(|f| f.kind.code()).collect();
        // The Date and Round are missing, the Event has inner quotes:
        // nothing else.
        assert_eq!(
            codes,
            ["non-standard-tag", "missing-tag"],
            "line {}",
            game.line
        );
    }
}

#[test]
fn blocks_end_between_games_whatever_the_block_size() {
    // Cutting a file into blocks must not change what is found.
    let path = crate::testing::sample().join("parser-tests/pgn-extract/fischer.pgn");
    let bytes = std::fs::read(path).unwrap();
    let mut worker = Worker::new(Judging::default(), true);
    let whole = worker.check_block(&Block {
        input: 0,
        bytes: bytes.clone().into(),
        guessed: false,
        seq: 0,
        first_line: 1,
        after_tag_break: false,
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
            lexer::last_game_start(chunk).at
        };
        if cut == 0 {
            size *= 2;
            continue;
        }
        size = 3000;
        let (block, tail) = rest.split_at(cut);
        pieces.extend(worker.check_block(&Block {
            input: 0,
            bytes: Arc::new(block.to_vec()),
            guessed: false,
            seq: 0,
            first_line: line,
            after_tag_break: false,
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
