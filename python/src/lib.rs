//! `pgn_arbiter._native`: the audit run for Python. A run is the command
//! line's own (its arguments parsed by the same parser, its messages the
//! same), with one report handed to Python as it is written, in chunks of
//! whole lines, through a bounded channel: memory stays flat however large
//! the input, and Python reads while the audit runs without the GIL.
//! `pgn_arbiter/__init__.py` turns the lines into findings and game rows.

use std::{
    ffi::OsString,
    io::{self, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread::JoinHandle,
    time::Duration,
};

use clap::Parser;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use pgn_arbiter::{
    cli::Cli,
    config::Config,
    output::{Handed, Output},
    read::input::{Input, Source},
};
use pyo3::{
    create_exception,
    exceptions::{PyException, PyValueError},
    prelude::*,
    types::PyBytes,
};

create_exception!(
    _native,
    UsageError,
    PyValueError,
    "Options the command line would refuse, with its message."
);
create_exception!(
    _native,
    AuditError,
    PyException,
    "An audit that could not read an input or finish."
);

/// Bytes gathered before a chunk is handed over.
const CHUNK: usize = 1 << 16;
/// Chunks in flight between the audit and Python.
const IN_FLIGHT: usize = 4;

/// Writes whole lines into the channel, a chunk at a time. Once Python has
/// dropped its end, writing fails as a closed pipe does, and the run ends
/// as it does when a reader of its standard output goes away.
struct Lines {
    to: Sender<Vec<u8>>,
    pending: Vec<u8>,
}

impl Lines {
    fn send(&mut self, upto: usize) -> io::Result<()> {
        let rest = self.pending.split_off(upto);
        let chunk = std::mem::replace(&mut self.pending, rest);
        self.to
            .send(chunk)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= CHUNK
            && let Some(end) = self.pending.iter().rposition(|&b| b == b'\n')
        {
            self.send(end + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.pending.iter().rposition(|&b| b == b'\n') {
            Some(end) => self.send(end + 1),
            None => Ok(()),
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.send(self.pending.len());
        }
    }
}

/// A buffer the run writes the summary into.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One audit under way: its report's chunks, then its exit status and
/// summary.
#[pyclass(module = "pgn_arbiter._native")]
struct Run {
    chunks: Option<Receiver<Vec<u8>>>,
    worker: Option<JoinHandle<u8>>,
    status: Option<u8>,
    summary: Shared,
    stop: Arc<AtomicBool>,
}

#[pymethods]
impl Run {
    /// The next chunk of whole lines of the report, or `None` once the run
    /// has ended (then `status` and `summary` are known). Waits without the
    /// GIL, and lets Python handle a signal (Ctrl-C) while it waits.
    fn next_chunk<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        loop {
            let Some(chunks) = &self.chunks else {
                return Ok(None);
            };
            let got = py.detach(|| chunks.recv_timeout(Duration::from_millis(100)));
            match got {
                Ok(chunk) => return Ok(Some(PyBytes::new(py, &chunk))),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    self.chunks = None;
                    self.finish(py);
                }
            }
        }
    }

    /// Stops reading: the run ends at the next part of the input it has
    /// checked, and is waited for.
    fn close(&mut self, py: Python<'_>) {
        if self.status.is_none() {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.chunks = None;
        self.finish(py);
    }

    /// The run's exit status as the command line gives it (0 clean, 1
    /// findings at or above `fail_on`, 2 trouble), once it has ended.
    #[getter]
    fn status(&self) -> Option<u8> {
        self.status
    }

    /// The run's summary as JSON text (the command line's `--summary`),
    /// once it has ended.
    #[getter]
    fn summary(&self) -> Option<String> {
        self.status?;
        let bytes = self.summary.0.lock().ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

impl Run {
    fn finish(&mut self, py: Python<'_>) {
        if let Some(worker) = self.worker.take() {
            let status = py.detach(|| worker.join());
            // A run that panicked is trouble, as the binary's exit would be.
            self.status = Some(status.unwrap_or(pgn_arbiter::Status::Trouble as u8));
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        // The run ends at the next part of the input it has checked; it is
        // not waited for here, where the GIL may be held.
        self.stop.store(true, Ordering::Relaxed);
        self.chunks = None;
    }
}

/// Starts an audit with the command line's arguments `args` (without the
/// program's name). `stream` is the report handed back: `"findings"` (as
/// JSON lines) or `"games"` (the games report, CSV). With `text`, the
/// input is those bytes, named `name`, instead of any path in `args`.
#[pyfunction]
#[pyo3(signature = (args, stream, text=None, name=None))]
fn start(
    args: Vec<String>,
    stream: &str,
    text: Option<Vec<u8>>,
    name: Option<String>,
) -> PyResult<Run> {
    // The Python program keeps its signals: Ctrl-C raises KeyboardInterrupt,
    // which stops the run, and that removes its temporary files.
    pgn_arbiter::output::leave_signals_to_the_host();
    let mut argv = vec!["pgn-arbiter".to_owned(), "--quiet".to_owned()];
    argv.extend(args);
    let cli =
        Cli::try_parse_from(argv).map_err(|err| UsageError::new_err(err.render().to_string()))?;
    let mut config = Config::from_cli(cli).map_err(|err| UsageError::new_err(err.0))?;
    if let Some(bytes) = text {
        config.inputs = vec![Input {
            name: name.unwrap_or_else(|| "<text>".to_owned()),
            source: Source::Text(bytes.into()),
        }];
    }
    let (to, chunks) = bounded(IN_FLIGHT);
    let lines = Output::Handed(Handed::new(Lines {
        to,
        pending: Vec::with_capacity(CHUNK),
    }));
    match stream {
        "findings" => config.findings = lines,
        "games" => {
            config.findings = Output::Handed(Handed::new(io::sink()));
            config.games = Some(lines);
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "stream is \"findings\" or \"games\", not {stream:?}"
            )));
        }
    }
    let summary = Shared::default();
    config.summary = Some(Output::Handed(Handed::new(summary.clone())));
    let stop = Arc::new(AtomicBool::new(false));
    config.stop = Some(stop.clone());
    let worker = std::thread::Builder::new()
        .name("pgn-arbiter".to_owned())
        .spawn(move || pgn_arbiter::run(&config) as u8)
        .map_err(|err| AuditError::new_err(format!("cannot start the audit: {err}")))?;
    Ok(Run {
        chunks: Some(chunks),
        worker: Some(worker),
        status: None,
        summary,
        stop,
    })
}

/// The `pgn-arbiter` command: runs the command line with `args` (the
/// program's name first, each argument as the bytes the system gave) and
/// returns its exit status. Ctrl-C ends it as it ends the binary.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<Vec<u8>>) -> u8 {
    use std::os::unix::ffi::OsStringExt;
    let args: Vec<OsString> = args.into_iter().map(OsString::from_vec).collect();
    // SAFETY: restores the default action of SIGINT, which Python replaced
    // with a handler that only runs between its own bytecodes; the
    // process is the command's alone.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
    pgn_arbiter::run::command::bound_the_allocator();
    py.detach(|| pgn_arbiter::run::command::main(args))
}

/// The crate's version, which is the package's.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(start, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add("UsageError", m.py().get_type::<UsageError>())?;
    m.add("AuditError", m.py().get_type::<AuditError>())?;
    Ok(())
}
