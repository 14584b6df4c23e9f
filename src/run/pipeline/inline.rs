//! One thread that reads and checks: the worker finds where each chunk is
//! cut as it checks the chunk's games.

use super::{
    handoff::{Checked, Part},
    worker::{BATCH, BATCH_GAME_BYTES, Worker, slice},
};
use crate::read::{
    blocks::{BLOCK_BYTES, Block, Piece, Pieces},
    lexer::{self, Cut},
};
use std::sync::Arc;

/// A place in a chunk: a byte offset and its line, and whether the game
/// there follows a tag break.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mark {
    at: usize,
    line: u64,
    after_tag_break: bool,
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
pub(super) struct Inline<'a> {
    pub(super) worker: Worker,
    pub(super) sink: &'a mut dyn FnMut(Checked) -> bool,
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
