//! The run: inputs are read and cut into blocks of whole games (one reader,
//! [`read::blocks`](crate::read::blocks)),
//! blocks are checked (by `jobs` workers), and results are written in input
//! order (by the workers in turn, or the caller's thread with one worker).
//! Queues are bounded and so is the number of blocks in flight, so memory
//! does not grow with the input.

use std::sync::{
    Arc, Mutex, TryLockError,
    atomic::{AtomicBool, AtomicU64, Ordering, fence},
};

use crate::run::affinity;
use crate::{
    checks::draws::history::History,
    checks::{self, Judging, Verdict, ending::HowEnded, suppress::Suppressions},
    fix,
    read::blocks::Confirmation,
    read::blocks::{BLOCK_BYTES, Block, MAX_GAME_BYTES, Piece, Pieces, Tail, read_inputs},
    read::input::{Input, Tally},
    read::lexer::{self, Cut, Lexed},
    read::{game::RawGame, tags::Tags},
    report::GameResult,
    report::Selection,
};

/// Results are handed from a worker to the writer in parts of at most this
/// many games ...
const PART_GAMES: usize = 256;

/// ... and about this many bytes ([`GameResult::weight`], and the copy's
/// bytes with `--fix`): 256 ordinary games weigh about 150 KiB, 256 games
/// with four findings each and their corrected copy about 600 KiB.
const PART_BYTES: usize = 128 << 10;

/// Parts of one piece that may wait for the writer: enough that a block of
/// ordinary games (about 1,500, 900 KiB of results) never makes its worker
/// wait, few enough that a flood of tiny games holds about 1 MiB of
/// results per piece (a dozen pieces in flight at `-j 8`).
const PARTS_QUEUED: usize = 8;

/// Games lexed before the first of them is checked: lexing a few games in
/// a row, then checking them in a row, keeps each stage's code in the
/// instruction cache over several games instead of evicting the other's at
/// every game.
const BATCH: usize = 8;

/// A game larger than this is lexed and checked at the end of a batch, and
/// its buffers are then given back (its slot is not kept), so that the
/// batch's slots hold what a few ordinary games need.
const BATCH_GAME_BYTES: usize = 8 << 10;

/// Lists of games given back by the writer that may wait for a worker;
/// more are dropped ...
const SPARE_LISTS: usize = 4;

/// ... and a worker keeps no tag buffer larger than this (a game's long
/// tag values) ...
const SPARE_BYTES: usize = 1 << 10;

/// ... nor more tag buffers than this at hand.
const SPARE_TAGS: usize = 2 * PART_GAMES;

/// The games written, handed back by the writer to the worker that
/// checked them (each worker has its own): it writes the next games' tag
/// columns into the buffers they hold and their results into the list,
/// and frees the rest of them, so that what a worker's thread allocates
/// for a game is reused or freed there (not on the thread that wrote
/// them, which may be another worker's, nor allocated afresh for every
/// part). Bounded: what the worker does not take is dropped.
#[derive(Debug, Clone)]
pub struct Spares {
    give: crossbeam_channel::Sender<Vec<GameResult>>,
    take: crossbeam_channel::Receiver<Vec<GameResult>>,
}

impl Default for Spares {
    fn default() -> Spares {
        let (give, take) = crossbeam_channel::bounded(SPARE_LISTS);
        Spares { give, take }
    }
}

impl Spares {
    /// Gives back games the writer is done with.
    pub fn give(&self, games: Vec<GameResult>) {
        // A list holding a game of large tags is dropped here, not kept
        // waiting for a worker that may be idle while a large game is
        // checked alone (eight of them held 31 MiB at -j 8).
        if games.capacity() > 0 && !games.iter().any(GameResult::holds_large_tags) {
            // Full: the workers have enough; these are dropped.
            let _ = self.give.try_send(games);
        }
    }

    /// Games given back, if there are any.
    fn take(&self) -> Option<Vec<GameResult>> {
        self.take.try_recv().ok()
    }
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
        /// With `--fix`: the games as the corrected copy has them.
        copy: Vec<u8>,
        /// Where the games go once written: back to the worker that
        /// checked them, on whose thread what they hold was allocated.
        spares: Option<Spares>,
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

/// What each worker does with a game: how it is judged, whether its tag
/// columns are always filled in (a games report or the audit page), and
/// whether it is written back corrected (`--fix`, by the findings the
/// selection keeps).
#[derive(Debug, Clone, Default)]
pub struct Task {
    /// How games are judged.
    pub judging: Judging,
    /// Fill in every game's tag columns.
    pub all_rows: bool,
    /// `--fix`, with the report's selection.
    pub fix: Option<Arc<Selection>>,
}

impl Task {
    /// A worker for this task.
    pub fn worker(&self) -> Worker {
        let mut worker = Worker::new(self.judging, self.all_rows);
        worker.fix = self.fix.clone();
        worker
    }
}

/// Reusable buffers of one worker.
#[derive(Default)]
pub struct Worker {
    /// For `--count` and games too large to read.
    tags: Tags,
    lexed: Lexed,
    /// Games lexed and not yet checked (the first `BATCH` slots in use).
    batch: Vec<Lexing>,
    history: History,
    /// How games are judged.
    pub judging: Judging,
    /// Fill in the tag columns of every game (a games report is written),
    /// not only of games with findings.
    pub all_rows: bool,
    /// `--fix`: each game is also written back with its corrections, by
    /// the findings the selection keeps.
    pub fix: Option<Arc<Selection>>,
    /// After a block with a guessed end: where its games stopped ending
    /// inside it, when the guess was wrong.
    unconfirmed: Option<Tail>,
    /// The input of the block being checked.
    input: usize,
    /// Where games come back from the writer; the tag buffers at hand, and
    /// an empty list for the next part's results.
    spares: Spares,
    spare: Vec<String>,
    spare_list: Vec<GameResult>,
}

/// A game lexed and waiting for its checks, in a chunk or block: its tags
/// and tokens, where its blank lines before it start, where it starts and
/// ends, and its first line.
#[derive(Default)]
struct Lexing {
    lexed: Lexed,
    tags: Tags,
    blanks: usize,
    start: usize,
    end: usize,
    line: u64,
}

impl Lexing {
    /// Lexes the game at `start` of `bytes`, after blanks from `blanks`;
    /// returns where it ends.
    fn scan(&mut self, bytes: &[u8], blanks: usize, start: usize, line: u64) -> usize {
        let end = start
            + (self.lexed)
                .scan(slice(bytes, start, bytes.len()), line, &mut self.tags)
                .max(1);
        (self.blanks, self.start, self.end, self.line) = (blanks, start, end, line);
        end
    }
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
    /// Checks a piece, handing results to `emit` in order: a block's games
    /// in parts of at most `PART_GAMES`, the rest as it is. Returns false
    /// when `emit` does (the output is gone).
    pub fn check(&mut self, piece: Piece, emit: &mut dyn FnMut(Checked) -> bool) -> bool {
        match piece {
            Piece::Block(block) => {
                let going = self.check_parts(&block, emit);
                self.give_back(block.bytes.len());
                going
            }
            Piece::Problem { input, message } => emit(Checked::Problem { input, message }),
            Piece::InputDone(input) => emit(Checked::InputDone(input)),
            Piece::TooLarge {
                input,
                head,
                line,
                size,
            } => emit(Checked::Games {
                input,
                games: vec![self.too_large(&head, line, size)],
                copy: Vec::new(),
                spares: None,
            }),
        }
    }

    /// After `read` bytes more than a block: the buffers one game larger
    /// than a block needed (tens of MiB for a million moves) are given
    /// back, so that the workers do not each keep one for the rest of the
    /// run.
    fn give_back(&mut self, read: usize) {
        if read > BLOCK_BYTES {
            let skim = self.lexed.skim;
            self.lexed = Lexed::default();
            self.lexed.skim = skim;
            self.tags = Tags::default();
            self.batch = Vec::new();
            self.history = History::default();
        }
    }

    /// The row of a game that was not read: its tags, as far as the first
    /// bytes show them, and one finding.
    fn too_large(&mut self, head: &[u8], line: u64, size: usize) -> GameResult {
        self.lexed.scan(head, line, &mut self.tags);
        let game = RawGame {
            bytes: head,
            line,
            tags: &self.tags,
            lexed: &self.lexed,
            after_tag_break: false,
        };
        let finding = checks::too_large(line, MAX_GAME_BYTES, size);
        let verdict = Verdict::not_replayed(HowEnded::Unknown);
        let mut result = GameResult::new(line, verdict, vec![finding]);
        result.fill_tags(&game, String::new());
        result
    }

    /// How many games a block holds, read as `check_block` reads them but
    /// not judged (`--count`).
    pub fn count_games(&mut self, block: &Block) -> u64 {
        self.lexed.skim = true;
        let bytes = &block.bytes[..];
        let (mut pos, mut line, mut games) = (0, block.first_line, 0);
        loop {
            let (start, lines) = lexer::skip_blanks(bytes, pos);
            line += lines;
            let rest = bytes.get(start..).unwrap_or_default();
            if rest.is_empty() {
                return games;
            }
            let end = self.lexed.scan(rest, line, &mut self.tags).max(1);
            games += 1;
            line = self.lexed.end_line;
            pos = start + end;
        }
    }

    /// Checks every game of a block, reading them one after another with
    /// the lexer.
    pub fn check_block(&mut self, block: &Block) -> Vec<GameResult> {
        let mut all = Vec::new();
        self.check_parts(block, &mut |checked| {
            if let Checked::Games { games, .. } = checked {
                all.extend(games);
            }
            true
        });
        all
    }

    /// Checks the games lexed into the first `n` slots of the batch, in
    /// order, from `bytes` (the chunk or block they were lexed from), into
    /// `part`; with `--fix` each is written to the part's copy after its
    /// blank lines. The first follows a tag break when `after_tag_break`;
    /// returns whether the game after the last does (the copy's tag breaks
    /// are the input's unless a game was changed), or `None` when `emit`
    /// refuses.
    fn check_batch(
        &mut self,
        bytes: &[u8],
        n: usize,
        mut after_tag_break: bool,
        part: &mut Part,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> Option<bool> {
        let batch = std::mem::take(&mut self.batch);
        let mut going = true;
        for game in batch.iter().take(n) {
            if part.full() && !part.flush(self.input, &self.spares, emit) {
                going = false;
                break;
            }
            let (result, changed) = self.check_lexed(game, bytes, after_tag_break, &mut part.copy);
            part.weight += result.weight();
            if part.games.capacity() == 0 {
                // A part's games are not moved as it fills up.
                if self.spare_list.capacity() < PART_GAMES {
                    self.restock();
                }
                part.games = std::mem::take(&mut self.spare_list);
                part.games.reserve_exact(PART_GAMES);
            }
            part.games.push(result);
            // A comment of a changed game is movetext, which the next
            // game's tags end.
            after_tag_break = game.lexed.tag_break.is_some() && !changed;
        }
        self.batch = batch;
        self.trim_batch();
        going.then_some(after_tag_break)
    }

    /// Takes games the writer gave back, if there are any: their tag
    /// buffers for the next games' columns, their list for a next part's
    /// results; the rest of them is freed.
    fn restock(&mut self) {
        let Some(mut games) = self.spares.take() else {
            return;
        };
        for game in games.drain(..) {
            let buffer = game.into_tag_text();
            if (1..=SPARE_BYTES).contains(&buffer.capacity()) && self.spare.len() < SPARE_TAGS {
                self.spare.push(buffer);
            }
        }
        if games.capacity() > self.spare_list.capacity() {
            self.spare_list = games;
        }
    }

    /// Gives back the buffers of the games over `BATCH_GAME_BYTES` in the
    /// batch's slots after the first, checked or passed over (a game at a
    /// chunk's end, or waiting at a tag break): so that each slot but the
    /// first holds what an ordinary game needs, as the first holds what
    /// one game does.
    fn trim_batch(&mut self) {
        for game in self.batch.iter_mut().skip(1) {
            if game.end - game.start > BATCH_GAME_BYTES {
                *game = Lexing::default();
            }
        }
    }

    /// The batch's slot `i`, made when it is first needed.
    fn slot(&mut self, i: usize) -> &mut Lexing {
        if self.batch.len() <= i {
            self.batch.resize_with(i + 1, Lexing::default);
        }
        &mut self.batch[i]
    }

    /// Checks a game lexed from `bytes`, and with `--fix` writes it to
    /// `copy` after the blank lines before it. Returns its result and
    /// whether the copy changed it.
    fn check_lexed(
        &mut self,
        lexing: &Lexing,
        bytes: &[u8],
        after_tag_break: bool,
        copy: &mut Vec<u8>,
    ) -> (GameResult, bool) {
        // The copy writes back every move the replay resolved otherwise.
        let judging = Judging {
            corrections: self.fix.is_some(),
            ..self.judging
        };
        let game = RawGame {
            bytes: slice(bytes, lexing.start, lexing.end),
            line: lexing.line,
            tags: &lexing.tags,
            lexed: &lexing.lexed,
            after_tag_break,
        };
        if self.spare.is_empty() {
            self.restock();
        }
        let mut result = check_game(
            &game,
            judging,
            &mut self.history,
            self.all_rows,
            &mut self.spare,
        );
        let mut changed = false;
        if let Some(selection) = &self.fix {
            // Nothing a comment of the game accepts is corrected.
            let input = self.input;
            let keep = |kind| selection.keeps_in(input, kind) && !result.suppressions.names(kind);
            copy.extend_from_slice(slice(bytes, lexing.blanks, lexing.start));
            let fixed = fix::rewrite(&game, &result.verdict, &result.findings, &keep, copy);
            changed = !fixed.changes.is_empty();
            result.fixed = Some(fixed);
        }
        (result, changed)
    }

    /// Checks every game of a block, handing the results on in parts of at
    /// most `PART_GAMES` and about `PART_BYTES`, so that a block of a
    /// hundred thousand tiny games, or of games with many findings, never
    /// holds all their results at once. With `--fix`, each part
    /// comes with its games as the corrected copy has them, blank lines
    /// between them included.
    ///
    /// A block with a guessed end is read with the `[` after it, which ends
    /// its last game there when the guess is right; a game that runs past
    /// it is not checked, and `unconfirmed` says where it starts.
    fn check_parts(&mut self, block: &Block, emit: &mut dyn FnMut(Checked) -> bool) -> bool {
        let with_next = &block.bytes[..];
        let bytes = &with_next[..with_next.len() - usize::from(block.guessed)];
        self.unconfirmed = None;
        self.input = block.input;
        let mut part = Part::default();
        let mut pos = 0;
        let mut line = block.first_line;
        let mut after_tag_break = block.after_tag_break;
        loop {
            // A few games lexed, then checked.
            let mut n = 0;
            let mut last = None;
            while n < BATCH {
                let (start, lines) = lexer::skip_blanks(bytes, pos);
                line += lines;
                if start >= bytes.len() {
                    // Blank lines after the last game go with it.
                    last = Some(bytes.len());
                    break;
                }
                let game = self.slot(n);
                let end = game.scan(with_next, pos, start, line);
                if end > bytes.len() {
                    // The guess was wrong: blank lines before the game go
                    // with the game before, as at a block's end.
                    last = Some(start);
                    self.unconfirmed = Some(Tail {
                        at: start,
                        line,
                        after_tag_break: false,
                    });
                    break;
                }
                (pos, line) = (end, game.lexed.end_line);
                n += 1;
                if end - start > BATCH_GAME_BYTES {
                    break;
                }
            }
            let Some(next) = self.check_batch(bytes, n, after_tag_break, &mut part, emit) else {
                return false;
            };
            after_tag_break = next;
            if let Some(end) = last {
                if let Some(tail) = &mut self.unconfirmed {
                    // (For the first game of a block, `Block::after_tag_break`
                    // says what the input has.)
                    tail.after_tag_break = after_tag_break;
                }
                if self.fix.is_some() {
                    part.copy.extend_from_slice(slice(bytes, pos, end));
                }
                return part.flush(self.input, &self.spares, emit);
            }
        }
    }
}

/// A place in a chunk: a byte offset and its line, and whether the game
/// there follows a tag break.
#[derive(Debug, Clone, Copy)]
struct Mark {
    at: usize,
    line: u64,
    after_tag_break: bool,
}

/// Results on their way to the writer, with their corrected copy.
#[derive(Default)]
struct Part {
    games: Vec<GameResult>,
    copy: Vec<u8>,
    weight: usize,
}

impl Part {
    /// Hands the results on, if there are any; false when `emit` refuses.
    fn flush(
        &mut self,
        input: usize,
        spares: &Spares,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> bool {
        self.weight = 0;
        let copy = std::mem::take(&mut self.copy);
        self.games.is_empty()
            || emit(Checked::Games {
                input,
                games: std::mem::take(&mut self.games),
                copy,
                spares: Some(spares.clone()),
            })
    }

    /// Whether the next game should start a new part.
    fn full(&self) -> bool {
        !self.games.is_empty()
            && (self.games.len() == PART_GAMES || self.weight + self.copy.len() >= PART_BYTES)
    }
}

impl Worker {
    /// Checks the games of `chunk` (not its input's end) that the block
    /// `lexer::last_game_start` cuts from it would hold, and returns that
    /// cut: where one thread both reads and checks, one scan of the bytes
    /// instead of a skimming one to cut and a full one to check. A game is
    /// checked once the start after it is known to be clean (no tag
    /// break), which puts it before the cut: with the batch it ends, or
    /// before anything else is handed on. Games that end at a tag break
    /// wait for a clean start after them and are then read again as a
    /// block; with none in the chunk, the cut is found as the reader finds
    /// it. `None` when `emit` refuses.
    fn check_to_cut(
        &mut self,
        input: usize,
        chunk: &[u8],
        at: Mark,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> Option<Cut> {
        // The corrected copy keeps what `per-file-ignores` leaves out of
        // this input.
        self.input = input;
        let mut part = Part::default();
        let (mut pos, mut line) = (0, at.line);
        let mut waiting: Option<Mark> = None;
        // Games lexed and found before the cut, checked a batch at a time:
        // how many, and whether the first follows a tag break.
        let (mut lexed, mut after_tag_break) = (0, false);
        let last = loop {
            let (start, lines) = lexer::skip_blanks(chunk, pos);
            if start >= chunk.len() {
                break None;
            }
            let first = Mark {
                at: pos,
                line,
                after_tag_break: pos == 0 && at.after_tag_break,
            };
            line += lines;
            let game = self.slot(lexed);
            let end = game.scan(chunk, pos, start, line);
            let (tag_break, end_line) = (game.lexed.tag_break.is_some(), game.lexed.end_line);
            let (next, blank_lines) = lexer::skip_blanks(chunk, end);
            if next >= chunk.len() {
                break Some((start, first));
            }
            match (waiting, tag_break) {
                (None, false) => {
                    if lexed == 0 {
                        after_tag_break = first.after_tag_break;
                    }
                    lexed += 1;
                    if lexed == BATCH || end - start > BATCH_GAME_BYTES {
                        self.check_batch(chunk, lexed, after_tag_break, &mut part, emit)?;
                        lexed = 0;
                    }
                    (pos, line) = (end, end_line);
                    continue;
                }
                (None, true) => {
                    // The games before are before the cut.
                    if lexed > 0 {
                        self.check_batch(chunk, lexed, after_tag_break, &mut part, emit)?;
                        lexed = 0;
                    }
                    waiting = Some(first);
                }
                (Some(from), false) => {
                    // A clean start after games that ended at a tag break:
                    // they are before the cut.
                    if !part.flush(input, &self.spares, emit)
                        || !self.check_range(input, chunk, from, next, emit)
                    {
                        return None;
                    }
                    waiting = None;
                    (pos, line) = (next, end_line + blank_lines);
                    continue;
                }
                (Some(_), true) => {}
            }
            (pos, line) = (end, end_line);
        };
        if lexed > 0 {
            self.check_batch(chunk, lexed, after_tag_break, &mut part, emit)?;
        }
        let cut = self.cut_chunk(input, chunk, waiting, last, &mut part, emit)?;
        self.trim_batch();
        self.give_back(chunk.len());
        part.flush(input, &self.spares, emit).then_some(cut)
    }

    /// Where `check_to_cut` cuts `chunk`, once its loop is done: before the
    /// first game `waiting` at a tag break (the games from it checked as a
    /// block when it starts the chunk), or before the `last` game, whose
    /// end the chunk does not hold. Blank lines before the cut go with the
    /// part's copy. `None` when `emit` refuses.
    fn cut_chunk(
        &mut self,
        input: usize,
        chunk: &[u8],
        waiting: Option<Mark>,
        last: Option<(usize, Mark)>,
        part: &mut Part,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> Option<Cut> {
        Some(match (waiting, last) {
            (Some(from), _) => {
                let start = lexer::skip_blanks(chunk, from.at).0;
                if start > 0 {
                    // The start of the first waiting game is clean.
                    part.copy.extend_from_slice(slice(chunk, from.at, start));
                    Cut {
                        at: start,
                        after_tag_break: false,
                    }
                } else {
                    let cut = lexer::last_game_start(chunk);
                    if cut.at > 0 && !self.check_range(input, chunk, from, cut.at, emit) {
                        return None;
                    }
                    cut
                }
            }
            (None, Some((start, first))) if start > 0 => {
                part.copy.extend_from_slice(slice(chunk, first.at, start));
                Cut {
                    at: start,
                    after_tag_break: false,
                }
            }
            (None, _) => Cut::default(),
        })
    }

    /// Checks the games of `chunk[from.at..to]` as a block.
    fn check_range(
        &mut self,
        input: usize,
        chunk: &[u8],
        from: Mark,
        to: usize,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> bool {
        let block = Block {
            input,
            bytes: Arc::new(slice(chunk, from.at, to).to_vec()),
            guessed: false,
            seq: 0,
            first_line: from.line,
            after_tag_break: from.after_tag_break,
        };
        self.check(Piece::Block(block), emit)
    }
}

/// One thread that reads and checks: the worker finds where each chunk is
/// cut as it checks the chunk's games ([`Worker::check_to_cut`]).
struct Inline<'a> {
    worker: Worker,
    sink: &'a mut dyn FnMut(Checked) -> bool,
}

impl Pieces for Inline<'_> {
    fn piece(&mut self, piece: Piece) -> bool {
        self.worker.check(piece, self.sink)
    }

    fn cut(
        &mut self,
        input: usize,
        chunk: &[u8],
        first_line: u64,
        after_tag_break: bool,
    ) -> Option<(Cut, bool)> {
        if chunk.len() > BLOCK_BYTES {
            // A game larger than a block: its end is found by skimming, so
            // that a game too large to read is never lexed move by move.
            return Some((lexer::last_game_start(chunk), false));
        }
        let at = Mark {
            at: 0,
            line: first_line,
            after_tag_break,
        };
        let cut = self.worker.check_to_cut(input, chunk, at, self.sink)?;
        Some((cut, true))
    }
}

fn slice(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    bytes.get(start..end).unwrap_or_default()
}

/// Checks one game. The tag columns are filled in when `all_rows`, when
/// there are findings (the findings report needs them), or when duplicates
/// are looked for and it has a fingerprint (the writer may find it one),
/// into a buffer of `spare` when there is one.
pub fn check_game(
    game: &RawGame<'_>,
    judging: Judging,
    history: &mut History,
    all_rows: bool,
    spare: &mut Vec<String>,
) -> GameResult {
    let mut findings = Vec::new();
    let verdict = checks::audit(game, judging, history, &mut findings);
    // Rows in input order: by line (stable, so a line keeps check order).
    findings.sort_by_key(|f| f.line);
    let mut result = GameResult::new(game.line, verdict, findings);
    if !game.lexed.suppressions.is_empty() {
        result.suppressions = Suppressions::of(game);
    }
    // The game_id of its rows, and duplicates when they are looked for: not
    // computed for a game that has no row to write (a comment that leaves
    // nothing out is a row).
    let rows = !result.findings.is_empty() || !result.suppressions.is_empty();
    if judging.duplicates || all_rows || rows {
        let folded = game.players_folded();
        let (plies, moves) = (result.verdict.resolved, result.verdict.moves);
        result.fingerprint = game.fingerprint_with(plies, moves, folded);
        result.folded = folded.map(|name| name.map(crate::read::game::folded_key));
    }
    // A game that may turn out to be a duplicate needs its tags for that row.
    let may_be_a_duplicate = judging.duplicates && result.fingerprint.is_some();
    if all_rows || rows || may_be_a_duplicate {
        result.fill_tags(game, spare.pop().unwrap_or_default());
    }
    result
}

/// Runs the reader, `jobs` workers and the writer `sink`, which receives
/// results in input order and returns false to stop. With one worker,
/// all of it runs on this thread; with more, the workers take turns to
/// write (`Writing`), each keeping to a processor of its own when there is
/// one for each ([`affinity`]).
///
/// Each piece read gets a small channel of its own for its results; the
/// writer takes those channels in input order, so results are written in
/// order and a worker that runs ahead waits instead of piling results up.
/// What is in flight is capped by tokens: a block of games takes one, a
/// game larger than a block takes them all (it is checked alone).
///
/// With more than one worker, the reader cuts chunks where it guesses that
/// a game starts, without lexing them (`Dealer`); the worker that checks
/// a block confirms its end, and after a wrong guess the reader reads the
/// input again from there and the writer drops what was dealt since. With
/// one, the worker finds each cut as it checks (`Inline`).
pub fn run(
    inputs: &[Input],
    jobs: usize,
    task: &Task,
    line_offset: u64,
    tally: &Tally,
    sink: &mut (dyn FnMut(Checked) -> bool + Send),
) {
    if jobs <= 1 {
        let mut inline = Inline {
            worker: task.worker(),
            sink,
        };
        read_inputs(inputs, line_offset, tally, &mut inline);
        return;
    }
    // Every worker busy, and as many pieces again up to four waiting:
    // enough slack for the order of completion to vary.
    let in_flight = jobs + jobs.min(4);
    let (tokens_tx, tokens_rx) = crossbeam_channel::bounded::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = tokens_tx.send(());
    }
    let (work_tx, work_rx) = crossbeam_channel::bounded::<Work>(jobs);
    let (order_tx, order_rx) = crossbeam_channel::bounded::<Order>(in_flight);
    let (confirm_tx, confirm_rx) = crossbeam_channel::unbounded::<Confirmed>();
    let stop = AtomicU64::new(0);
    let epoch = AtomicU64::new(0);
    let writer = Writing {
        writer: Mutex::new(Writer {
            sink,
            order: order_rx,
            current: None,
            void: None,
            tokens: Some(tokens_tx),
        }),
        pending: AtomicBool::new(false),
        stop: &stop,
    };
    std::thread::scope(|scope| {
        let mut dealer = Dealer {
            in_flight,
            tokens: tokens_rx,
            order: order_tx,
            work: work_tx,
            confirmations: confirm_rx,
            stop: &stop,
            epoch: &epoch,
        };
        scope.spawn(move || read_inputs(inputs, line_offset, tally, &mut dealer));
        for cpu in affinity::one_each(jobs) {
            let (work_rx, confirm_tx, epoch) = (work_rx.clone(), confirm_tx.clone(), &epoch);
            let (stop, writer) = (&stop, &writer);
            scope.spawn(move || {
                if let Some(cpu) = cpu {
                    affinity::keep_to(cpu);
                }
                let _stop = StopOnPanic(stop);
                let mut worker = task.worker();
                for (piece, parts, at) in work_rx {
                    let going = worker.check_dealt(piece, &parts, at, epoch, &confirm_tx, writer);
                    // The piece's results are all handed on: written now
                    // if it is the oldest in flight (its end is seen once
                    // its sender is gone).
                    drop(parts);
                    writer.write_soon();
                    if !going {
                        return;
                    }
                }
            });
        }
        drop((work_rx, confirm_tx));
    });
    // Every thread is done: what is left is written (or dropped, when the
    // run stopped).
    let _ = (writer.writer)
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .write_ready();
}

/// The writer's side of the run, which the workers take in turn: it
/// writes the results of the pieces in input order, as far as they have
/// come, and gives back each piece's tokens once it is written. A worker
/// writes after each part it hands on and after each piece, so that what
/// it wrote is read on the processor where it was made, and the run needs
/// no thread beside the reader and the workers.
struct Writer<'a> {
    sink: &'a mut (dyn FnMut(Checked) -> bool + Send),
    order: crossbeam_channel::Receiver<Order>,
    /// The piece being written, and whether its results are dropped.
    current: Option<(Order, bool)>,
    /// Pieces dealt in this epoch or before are void (a wrong guess).
    void: Option<u64>,
    /// Gone once the sink has stopped the run.
    tokens: Option<crossbeam_channel::Sender<()>>,
}

/// The writer, taken by one worker at a time, and whether there may be
/// more to write than its holder has seen.
struct Writing<'a> {
    writer: Mutex<Writer<'a>>,
    pending: AtomicBool,
    /// Set when the run stops (the output is gone, or a worker panicked).
    stop: &'a AtomicU64,
}

impl Writing<'_> {
    /// Writes what is ready, unless another worker is writing: that one
    /// then writes it too before it lets go, so that a worker never waits
    /// for another to write and nothing ready is left unwritten.
    fn write_soon(&self) {
        self.pending.store(true, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        while self.pending.load(Ordering::SeqCst) {
            let mut writer = match self.writer.try_lock() {
                Ok(writer) => writer,
                // A thread panicked while writing: the panic is raised
                // where the threads are joined.
                Err(TryLockError::Poisoned(_)) => return,
                // The holder sees `pending` once it has let go.
                Err(TryLockError::WouldBlock) => return,
            };
            self.pending.store(false, Ordering::SeqCst);
            if !writer.write_ready() {
                // The reader deals nothing more; the workers see their
                // results' channels go.
                self.stop.store(1, Ordering::Relaxed);
            }
            drop(writer);
            fence(Ordering::SeqCst);
        }
    }
}

impl Writer<'_> {
    /// Writes what has come, in order, up to the first piece whose results
    /// are still coming; never waits for them. Once the sink has stopped
    /// the run, what comes is dropped, so that no worker waits to hand it
    /// on. False once the sink has stopped the run.
    fn write_ready(&mut self) -> bool {
        loop {
            let Some(((parts, tokens, at), dropped)) = &self.current else {
                match self.order.try_recv() {
                    Ok(order) => {
                        let dropped = self.void.is_some_and(|v| order.2 <= v);
                        self.current = Some((order, dropped));
                        continue;
                    }
                    Err(_) => return self.tokens.is_some(),
                }
            };
            if self.tokens.is_none() {
                self.current = None;
                continue;
            }
            match parts.try_recv() {
                Ok(Handed::Checked(checked)) => {
                    if !*dropped && !(self.sink)(checked) {
                        self.tokens = None;
                    }
                }
                Ok(Handed::Unconfirmed) => self.void = Some(*at),
                Err(crossbeam_channel::TryRecvError::Empty) => return true,
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    if let Some(tx) = &self.tokens {
                        for _ in 0..*tokens {
                            let _ = tx.send(());
                        }
                    }
                    self.current = None;
                }
            }
        }
    }
}

/// Stops the run if a worker panics, so that the reader does not wait for
/// a confirmation that will not come; the panic is raised where the run's
/// threads are joined.
struct StopOnPanic<'a>(&'a AtomicU64);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(1, Ordering::Relaxed);
        }
    }
}

/// What a worker hands the writer for one piece: its results, and after
/// them, for a block whose guessed end was wrong, that the pieces dealt
/// after it are void.
enum Handed {
    Checked(Checked),
    Unconfirmed,
}

/// A piece for a worker: the piece, where its results go, and the epoch it
/// was dealt in (one more after each wrong guess).
type Work = (Piece, crossbeam_channel::Sender<Handed>, u64);

/// Where the writer takes a piece's results from, in input order, with the
/// tokens it holds and its epoch.
type Order = (crossbeam_channel::Receiver<Handed>, usize, u64);

/// A worker's confirmation of a guessed block end: the block's number, its
/// epoch, and where its games stopped ending inside it if the guess was
/// wrong.
type Confirmed = (u64, u64, Option<Tail>);

/// The reader's side of the run: deals pieces to the workers in turn, each
/// with a channel for its results that the writer takes in order, and
/// cuts chunks at guessed game starts, which the workers confirm.
struct Dealer<'a> {
    in_flight: usize,
    tokens: crossbeam_channel::Receiver<()>,
    order: crossbeam_channel::Sender<Order>,
    work: crossbeam_channel::Sender<Work>,
    confirmations: crossbeam_channel::Receiver<Confirmed>,
    stop: &'a AtomicU64,
    epoch: &'a AtomicU64,
}

impl Pieces for Dealer<'_> {
    fn piece(&mut self, piece: Piece) -> bool {
        // A game larger than a block is checked alone: checking one
        // takes about ten times its size (a token per move), so a
        // few at once would take hundreds of MiB.
        let tokens = if piece.weight() > BLOCK_BYTES {
            self.in_flight
        } else {
            1
        };
        for _ in 0..tokens {
            if self.stop.load(Ordering::Relaxed) != 0 || self.tokens.recv().is_err() {
                return false;
            }
        }
        let epoch = self.epoch.load(Ordering::Relaxed);
        let (parts_tx, parts_rx) = crossbeam_channel::bounded(PARTS_QUEUED);
        self.order.send((parts_rx, tokens, epoch)).is_ok()
            && self.work.send((piece, parts_tx, epoch)).is_ok()
    }

    fn guesses(&self) -> bool {
        true
    }

    fn confirmation(&mut self, wait: bool) -> Confirmation {
        let epoch = self.epoch.load(Ordering::Relaxed);
        loop {
            let next = if wait {
                // The writer may stop meanwhile, and the worker that had
                // the block with it: then no confirmation comes.
                match (self.confirmations).recv_timeout(std::time::Duration::from_millis(20)) {
                    Ok(next) => Some(next),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout)
                        if self.stop.load(Ordering::Relaxed) == 0 =>
                    {
                        continue;
                    }
                    Err(_) => None,
                }
            } else {
                match self.confirmations.try_recv() {
                    Ok(next) => Some(next),
                    Err(crossbeam_channel::TryRecvError::Empty) => return Confirmation::Pending,
                    Err(crossbeam_channel::TryRecvError::Disconnected) => None,
                }
            };
            match next {
                // Of blocks dealt before the last wrong guess: void.
                Some((_, at, _)) if at != epoch => {}
                Some((seq, _, tail)) => return Confirmation::On(seq, tail),
                None => return Confirmation::Gone,
            }
        }
    }

    fn rolled_back(&mut self) {
        self.epoch.fetch_add(1, Ordering::Relaxed);
    }
}

impl Worker {
    /// Checks a piece dealt in epoch `at`, handing its results to `parts`,
    /// unless a wrong guess before it has made it void; confirms a guessed
    /// block end. Returns false when the run is stopping.
    fn check_dealt(
        &mut self,
        piece: Piece,
        parts: &crossbeam_channel::Sender<Handed>,
        at: u64,
        epoch: &AtomicU64,
        confirm: &crossbeam_channel::Sender<Confirmed>,
        writer: &Writing<'_>,
    ) -> bool {
        if at < epoch.load(Ordering::Relaxed) {
            return true;
        }
        let guessed = match &piece {
            Piece::Block(block) if block.guessed => Some(block.seq),
            _ => None,
        };
        if !self.check(piece, &mut |checked| {
            hand_on(parts, Handed::Checked(checked), writer)
        }) {
            return false;
        }
        let Some(seq) = guessed else {
            return true;
        };
        let tail = self.unconfirmed.take();
        let _ = confirm.send((seq, at, tail));
        tail.is_none() || hand_on(parts, Handed::Unconfirmed, writer)
    }
}

/// Hands a piece's results on, and writes what is ready. When the piece's
/// queue is full, its results wait for an older piece still being checked:
/// the worker waits a moment for room, writing in between (this piece's
/// results too, once the pieces before it are written). False when the
/// run is stopping.
fn hand_on(
    parts: &crossbeam_channel::Sender<Handed>,
    mut handed: Handed,
    writer: &Writing<'_>,
) -> bool {
    use crossbeam_channel::{SendTimeoutError, TrySendError};
    match parts.try_send(handed) {
        Ok(()) => {
            writer.write_soon();
            return true;
        }
        Err(TrySendError::Disconnected(_)) => return false,
        Err(TrySendError::Full(back)) => handed = back,
    }
    loop {
        writer.write_soon();
        if writer.stop.load(Ordering::Relaxed) != 0 {
            return false;
        }
        match parts.send_timeout(handed, std::time::Duration::from_millis(1)) {
            Ok(()) => return true,
            Err(SendTimeoutError::Timeout(back)) => handed = back,
            Err(SendTimeoutError::Disconnected(_)) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::blocks::GUESS_AFTER;
    use crate::{finding::Kind, read::input};

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
                        let random: Vec<u8> =
                            (0..rng.below(30)).map(|_| rng.next() as u8).collect();
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
                    rows.push(format!("{} {} {codes:?} {changes}", g.line, g.white()));
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
        assert!(games.iter().all(|g| g.event() == "a" && g.white() == "W"));
        let given: Vec<*const u8> = games.iter().map(|g| g.event().as_ptr()).collect();
        worker.spares.give(games);
        // The next games' columns are written into those very buffers.
        let again = worker.check_block(&block());
        assert!(again.iter().all(|g| g.event() == "a" && g.black() == "B"));
        let mut reused: Vec<*const u8> = again.iter().map(|g| g.event().as_ptr()).collect();
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
                    columns.extend(games.iter().map(|g| g.event().as_ptr()));
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
        let kept = list[0].event().as_ptr();
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
        assert_eq!((huge.line, huge.white()), (6, "W"));
        assert_eq!(huge.findings.len(), 1);
        assert_eq!(huge.findings[0].kind, Kind::GameTooLarge);
        assert_eq!(games[2].event(), "after");
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
}
