//! The reader's side of a run of several workers: blocks dealt at guessed
//! game starts, each with a channel for its results, and the workers'
//! confirmations of the guesses.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{
    handoff::{Handed, Order, PARTS_QUEUED},
    worker::Worker,
    writer::{Writing, hand_on},
};
use crate::read::blocks::{BLOCK_BYTES, Confirmation, Piece, Pieces, Tail};

/// A piece for a worker: the piece, where its results go, and the epoch it
/// was dealt in (one more after each wrong guess).
pub(super) type Work = (Piece, crossbeam_channel::Sender<Handed>, u64);

/// A worker's confirmation of a guessed block end: the block's number, its
/// epoch, and where its games stopped ending inside it if the guess was
/// wrong.
pub(super) type Confirmed = (u64, u64, Option<Tail>);

/// The reader's side of the run: deals pieces to the workers in turn, each
/// with a channel for its results that the writer takes in order, and
/// cuts chunks at guessed game starts, which the workers confirm.
pub(super) struct Dealer<'a> {
    pub(super) in_flight: usize,
    pub(super) tokens: crossbeam_channel::Receiver<()>,
    pub(super) order: crossbeam_channel::Sender<Order>,
    pub(super) work: crossbeam_channel::Sender<Work>,
    pub(super) confirmations: crossbeam_channel::Receiver<Confirmed>,
    pub(super) stop: &'a AtomicU64,
    pub(super) epoch: &'a AtomicU64,
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
    pub(super) fn check_dealt(
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
