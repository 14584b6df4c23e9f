//! The writer's side of the run, taken by the workers in turn.

use std::sync::{
    Mutex, TryLockError,
    atomic::{AtomicBool, AtomicU64, Ordering, fence},
};

use super::handoff::{Checked, Handed, Order};

/// The writer's side of the run, which the workers take in turn: it
/// writes the results of the pieces in input order, as far as they have
/// come, and gives back each piece's tokens once it is written. A worker
/// writes after each part it hands on and after each piece, so that what
/// it wrote is read on the processor where it was made, and the run needs
/// no thread beside the reader and the workers.
pub(super) struct Writer<'a> {
    pub(super) sink: &'a mut (dyn FnMut(Checked) -> bool + Send),
    pub(super) order: crossbeam_channel::Receiver<Order>,
    /// The piece being written, and whether its results are dropped.
    pub(super) current: Option<(Order, bool)>,
    /// Pieces dealt in this epoch or before are void (a wrong guess).
    pub(super) void: Option<u64>,
    /// Gone once the sink has stopped the run.
    pub(super) tokens: Option<crossbeam_channel::Sender<()>>,
}

/// The writer, taken by one worker at a time, and whether there may be
/// more to write than its holder has seen.
pub(super) struct Writing<'a> {
    pub(super) writer: Mutex<Writer<'a>>,
    pub(super) pending: AtomicBool,
    /// Set when the run stops (the output is gone, or a worker panicked).
    pub(super) stop: &'a AtomicU64,
}

impl Writing<'_> {
    /// Writes what is ready, unless another worker is writing: that one
    /// then writes it too before it lets go, so that a worker never waits
    /// for another to write and nothing ready is left unwritten.
    pub(super) fn write_soon(&self) {
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
    pub(super) fn write_ready(&mut self) -> bool {
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
pub(super) struct StopOnPanic<'a>(pub(super) &'a AtomicU64);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(1, Ordering::Relaxed);
        }
    }
}

/// Hands a piece's results on, and writes what is ready. When the piece's
/// queue is full, its results wait for an older piece still being checked:
/// the worker waits a moment for room, writing in between (this piece's
/// results too, once the pieces before it are written). False when the
/// run is stopping.
pub(super) fn hand_on(
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
