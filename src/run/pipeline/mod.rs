//! The run: inputs are read and cut into blocks of whole games (one reader,
//! [`read::blocks`](crate::read::blocks)),
//! blocks are checked (by `jobs` workers), and results are written in input
//! order (by the workers in turn, or the caller's thread with one worker).
//! Queues are bounded and so is the number of blocks in flight, so memory
//! does not grow with the input.
//!
//! One job a file: a worker checks the games of a block (`worker`) and
//! hands their results on in parts (`handoff`); with one thread, it also
//! finds where the reader cuts the input (`inline`); with more, the reader
//! deals blocks to the workers (`dealer`), and the workers take turns to
//! write the results in input order (`writer`).

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicBool, AtomicU64},
};

use crate::run::affinity;
use crate::{
    checks::Judging,
    read::blocks::read_inputs,
    read::input::{Input, Tally},
    report::Selection,
};

mod dealer;
mod handoff;
mod inline;
mod worker;
mod writer;

use self::{
    dealer::{Confirmed, Dealer, Work},
    handoff::Order,
    inline::Inline,
    writer::{StopOnPanic, Writer, Writing},
};
pub use self::{
    handoff::{Checked, Spares},
    worker::{Worker, check_game},
};

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

#[cfg(test)]
mod tests;
