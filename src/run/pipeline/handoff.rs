//! What passes from a worker to the writer: the results of a piece, in
//! parts ([`Checked`]), and the games the writer gives back ([`Spares`]).

use crate::report::GameResult;

/// Results are handed from a worker to the writer in parts of at most this
/// many games ...
pub(super) const PART_GAMES: usize = 256;

/// ... and about this many bytes ([`GameResult::weight`], and the copy's
/// bytes with `--fix`): 256 ordinary games weigh about 150 KiB, 256 games
/// with four findings each and their corrected copy about 600 KiB.
pub(super) const PART_BYTES: usize = 128 << 10;

/// Parts of one piece that may wait for the writer: enough that a block of
/// ordinary games (about 1,500, 900 KiB of results) never makes its worker
/// wait, few enough that a flood of tiny games holds about 1 MiB of
/// results per piece (a dozen pieces in flight at `-j 8`).
pub(super) const PARTS_QUEUED: usize = 8;

/// Lists of games given back by the writer that may wait for a worker;
/// more are dropped ...
pub(super) const SPARE_LISTS: usize = 4;

/// ... and a worker keeps no tag buffer larger than this (a game's long
/// tag values) ...
pub(super) const SPARE_BYTES: usize = 1 << 10;

/// ... nor more tag buffers than this at hand.
pub(super) const SPARE_TAGS: usize = 2 * PART_GAMES;

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
    pub(super) fn take(&self) -> Option<Vec<GameResult>> {
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

/// Results on their way to the writer, with their corrected copy.
#[derive(Default)]
pub(super) struct Part {
    pub(super) games: Vec<GameResult>,
    pub(super) copy: Vec<u8>,
    pub(super) weight: usize,
}

impl Part {
    /// Hands the results on, if there are any; false when `emit` refuses.
    pub(super) fn flush(
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
    pub(super) fn full(&self) -> bool {
        !self.games.is_empty()
            && (self.games.len() == PART_GAMES || self.weight + self.copy.len() >= PART_BYTES)
    }
}

/// What a worker hands the writer for one piece: its results, and after
/// them, for a block whose guessed end was wrong, that the pieces dealt
/// after it are void.
pub(super) enum Handed {
    Checked(Checked),
    Unconfirmed,
}

/// Where the writer takes a piece's results from, in input order, with the
/// tokens it holds and its epoch.
pub(super) type Order = (crossbeam_channel::Receiver<Handed>, usize, u64);
