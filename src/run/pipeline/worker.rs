//! A worker: checks the games of a block, a few lexed then a few checked,
//! and hands their results on in parts.

use std::sync::Arc;

use super::handoff::{Checked, PART_GAMES, Part, SPARE_BYTES, SPARE_TAGS, Spares};
use crate::{
    checks::draws::history::History,
    checks::{self, Judging, Verdict, ending::HowEnded, suppress::Suppressions},
    fix,
    read::blocks::{BLOCK_BYTES, Block, MAX_GAME_BYTES, Piece, Tail},
    read::lexer::{self, Lexed},
    read::{game::RawGame, tags::Tags},
    report::GameResult,
    report::Selection,
};

/// Games lexed before the first of them is checked: lexing a few games in
/// a row, then checking them in a row, keeps each stage's code in the
/// instruction cache over several games instead of evicting the other's at
/// every game.
pub(super) const BATCH: usize = 8;

/// A game larger than this is lexed and checked at the end of a batch, and
/// its buffers are then given back (its slot is not kept), so that the
/// batch's slots hold what a few ordinary games need.
pub(super) const BATCH_GAME_BYTES: usize = 8 << 10;

/// Reusable buffers of one worker.
#[derive(Default)]
pub struct Worker {
    /// For `--count` and games too large to read.
    tags: Tags,
    lexed: Lexed,
    /// Games lexed and not yet checked (the first `BATCH` slots in use).
    pub(super) batch: Vec<Lexing>,
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
    pub(super) unconfirmed: Option<Tail>,
    /// The input of the block being checked.
    pub(super) input: usize,
    /// Where games come back from the writer; the tag buffers at hand, and
    /// an empty list for the next part's results.
    pub(super) spares: Spares,
    pub(super) spare: Vec<String>,
    pub(super) spare_list: Vec<GameResult>,
}

/// A game lexed and waiting for its checks, in a chunk or block: its tags
/// and tokens, where its blank lines before it start, where it starts and
/// ends, and its first line.
#[derive(Default)]
pub(super) struct Lexing {
    pub(super) lexed: Lexed,
    tags: Tags,
    blanks: usize,
    start: usize,
    end: usize,
    line: u64,
}

impl Lexing {
    /// Lexes the game at `start` of `bytes`, after blanks from `blanks`;
    /// returns where it ends.
    pub(super) fn scan(&mut self, bytes: &[u8], blanks: usize, start: usize, line: u64) -> usize {
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
    pub(super) fn give_back(&mut self, read: usize) {
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
    pub(super) fn check_batch(
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
    pub(super) fn restock(&mut self) {
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
    pub(super) fn trim_batch(&mut self) {
        for game in self.batch.iter_mut().skip(1) {
            if game.end - game.start > BATCH_GAME_BYTES {
                *game = Lexing::default();
            }
        }
    }

    /// The batch's slot `i`, made when it is first needed.
    pub(super) fn slot(&mut self, i: usize) -> &mut Lexing {
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
    pub(super) fn check_parts(
        &mut self,
        block: &Block,
        emit: &mut dyn FnMut(Checked) -> bool,
    ) -> bool {
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
    if !game.lexed.comments.suppressions.is_empty() {
        result.suppressions = Suppressions::of(game);
    }
    // The game_id of its rows, and duplicates when they are looked for: not
    // computed for a game that has no row to write (a comment that leaves
    // nothing out is a row).
    let rows = !result.findings.is_empty() || !result.suppressions.is_empty();
    if judging.duplicates || all_rows || rows {
        let (folded, by_initials) = game.players();
        let (plies, moves) = (result.verdict.resolved, result.verdict.moves);
        result.fingerprint = game.fingerprint_with(plies, moves, folded);
        if judging.duplicates && result.fingerprint.is_some() {
            result.by_initials = by_initials.and_then(|(names, sides)| {
                Some((game.fingerprint_with(plies, moves, names)?, sides))
            });
        }
        result.folded = folded.map(|name| name.map(crate::read::game::folded_key));
    }
    // A game that may turn out to be a duplicate needs its tags for that row.
    let may_be_a_duplicate = judging.duplicates && result.fingerprint.is_some();
    if all_rows || rows || may_be_a_duplicate {
        result.fill_tags(game, spare.pop().unwrap_or_default());
    }
    result
}

pub(super) fn slice(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    bytes.get(start..end).unwrap_or_default()
}
