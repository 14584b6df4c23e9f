//! Where outputs go, and the promise that an output file is whole or not
//! there at all: the reports (here) and the corrected copies of `--fix`
//! ([`corrected`]).
//!
//! A report file is written to a temporary file beside its target
//! (`.NAME.XXXXXX.partial`, in the same directory so that the final rename
//! cannot cross file systems) and renamed over the target only when the run
//! has completed. On an error, SIGINT, SIGTERM or SIGHUP the temporary file is
//! removed and the previous report, if any, is left as it was. Before
//! anything is opened, [`check`] refuses a report path that is an input (the
//! same file by device and inode, through symlinks), that names a PGN file,
//! or that both reports share.

pub mod corrected;

use std::{
    fs::{self, File},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use tempfile::TempPath;

use crate::read::input::{self, Input, Source, identity};

/// Where a report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, replaced as a whole when the run completes.
    File(PathBuf),
    /// A writer handed over by a program that runs the audit as a library
    /// (the Python module), which reads the report as it is written.
    Handed(Handed),
}

/// A writer for [`Output::Handed`], taken by the run that opens it.
#[derive(Clone)]
pub struct Handed(Arc<Mutex<Option<Box<dyn Write + Send>>>>);

impl Handed {
    /// Hands over `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Handed {
        Handed(Arc::new(Mutex::new(Some(Box::new(writer)))))
    }

    /// The writer, the first time it is asked for.
    fn take(&self) -> Option<Box<dyn Write + Send>> {
        self.0.lock().ok()?.take()
    }
}

impl std::fmt::Debug for Handed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Handed")
    }
}

impl PartialEq for Handed {
    fn eq(&self, other: &Handed) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Handed {}

impl Output {
    /// `-` is standard output; anything else a file.
    pub fn from_path(path: PathBuf) -> Output {
        if path.as_os_str() == "-" {
            Output::Stdout
        } else {
            Output::File(path)
        }
    }
}

/// The identity of what standard input reads, when it is a file.
#[cfg(unix)]
pub(crate) fn stdin_identity() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    identity(&File::from(fd).metadata().ok()?)
}

#[cfg(not(unix))]
pub(crate) fn stdin_identity() -> Option<(u64, u64)> {
    None
}

/// The identity of what standard output writes to, when it is a regular
/// file (`> file`, `>> file`, `1<> file`): a file the run may read.
#[cfg(unix)]
fn stdout_identity() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let meta = File::from(fd).metadata().ok()?;
    if meta.is_file() {
        identity(&meta)
    } else {
        None
    }
}

#[cfg(not(unix))]
fn stdout_identity() -> Option<(u64, u64)> {
    None
}

/// Refuses a run whose standard output, written by `flag`, is a file the
/// run reads: `pgn-arbiter --fix - archive > archive/fixed.pgn` would read
/// its own output as an input until the disk is full.
pub fn check_stdout(flag: &'static str, read: &[Input]) -> Result<(), Refused> {
    let Some(out) = stdout_identity() else {
        return Ok(());
    };
    for input in read {
        let clash = match &input.source {
            Source::File(p) | Source::Shard(p, _) => {
                fs::metadata(p).ok().as_ref().and_then(identity) == Some(out)
            }
            Source::Stdin => stdin_identity() == Some(out),
            Source::Unlistable(_) | Source::Text(_) => false,
        };
        if clash {
            return Err(Refused::Input(
                flag,
                PathBuf::from("standard output"),
                input.name.clone(),
            ));
        }
    }
    Ok(())
}

/// What tells one file from another: its device and inode when it
/// exists, else the absolute path of its directory (links followed) and
/// its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum FileKey {
    /// An existing file.
    Id(u64, u64),
    /// A path not there yet (or on a system without inodes).
    Path(PathBuf),
}

impl FileKey {
    pub(crate) fn of(path: &Path) -> FileKey {
        if let Some((dev, ino)) = fs::metadata(path).ok().as_ref().and_then(identity) {
            return FileKey::Id(dev, ino);
        }
        // A symlink to a file not there yet is the file it leads to.
        let resolved = resolve_links(path);
        let path = resolved.as_path();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        FileKey::Path(match fs::canonicalize(dir) {
            Ok(dir) => dir.join(path.file_name().unwrap_or_default()),
            Err(_) => path.to_path_buf(),
        })
    }
}

/// The same file: by device and inode when the file exists, else by the
/// absolute path of its directory and its name.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    FileKey::of(a) == FileKey::of(b)
}

/// `/dev/null` and terminals may take both reports.
#[cfg(unix)]
fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

#[cfg(not(unix))]
fn is_char_device(_path: &Path) -> bool {
    false
}

/// Refuses reports that would destroy an input or each other. Called before
/// any output is opened.
pub fn check(inputs: &[Input], outputs: &[(&'static str, &Output)]) -> Result<(), Refused> {
    for (i, &(flag_a, a)) in outputs.iter().enumerate() {
        for &(flag_b, b) in &outputs[i + 1..] {
            if let (Output::File(a), Output::File(b)) = (a, b)
                && same_file(a, b)
                && !is_char_device(a)
            {
                return Err(Refused::SameFile(flag_a, flag_b, a.clone()));
            }
            if *a == Output::Stdout && *b == Output::Stdout {
                return Err(Refused::BothStdout(flag_a, flag_b));
            }
        }
    }
    let stdin = inputs
        .iter()
        .any(|i| i.source == Source::Stdin)
        .then(stdin_identity)
        .flatten();
    for &(flag, out) in outputs {
        let Output::File(path) = out else {
            continue;
        };
        if input::is_pgn_name(path) {
            return Err(Refused::PgnName(flag, path.clone()));
        }
        if let Some(file) = path.parent().and_then(file_on_the_way) {
            return Err(Refused::FileOnTheWay(flag, path.clone(), file));
        }
        let target = fs::metadata(path).ok();
        if target.as_ref().is_some_and(|m| m.is_dir()) {
            return Err(Refused::Directory(flag, path.clone()));
        }
        let target = target.as_ref().and_then(identity);
        for input in inputs {
            let clash = match &input.source {
                Source::File(p) | Source::Shard(p, _) => same_file(p, path),
                Source::Stdin => target.is_some() && target == stdin,
                Source::Unlistable(_) | Source::Text(_) => false,
            };
            if clash {
                return Err(Refused::Input(flag, path.clone(), described(input)));
            }
        }
    }
    Ok(())
}

/// Why an output path is refused before anything is opened (the flag is
/// named in each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Two outputs name one file.
    SameFile(&'static str, &'static str, PathBuf),
    /// Two outputs go to standard output.
    BothStdout(&'static str, &'static str),
    /// An output has a PGN name.
    PgnName(&'static str, PathBuf),
    /// An output is a directory.
    Directory(&'static str, PathBuf),
    /// An output is an input (its name given).
    Input(&'static str, PathBuf, String),
    /// An output's directory cannot be made: a file is on its way.
    FileOnTheWay(&'static str, PathBuf, PathBuf),
}

/// The first of a directory's path and its parents that is there and is
/// no directory: where a directory cannot be made.
pub(crate) fn file_on_the_way(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir())
        .map(Path::to_path_buf)
}

/// An input as an error names it: its name, and the file behind it when
/// that is another (the results file `--render` reads for `games.pgn`).
fn described(input: &Input) -> String {
    match &input.source {
        Source::File(p) if p.display().to_string() != input.name => {
            format!("{}, for {}", p.display(), input.name)
        }
        _ => input.name.clone(),
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::SameFile(a, b, path) => write!(
                f,
                "{a} and {b} both name {}: give each its own file",
                path.display()
            ),
            Refused::BothStdout(a, b) => write!(
                f,
                "{a} and {b} cannot both go to standard output: give one a file"
            ),
            Refused::PgnName(flag, path) => write!(
                f,
                "{flag} {} names a PGN file; reports are CSV and the summary JSON, so choose a name such as report.csv (nothing was written)",
                path.display()
            ),
            Refused::Directory(flag, path) => write!(f, "{flag} {} is a directory", path.display()),
            Refused::FileOnTheWay(flag, path, file) => write!(
                f,
                "{flag} {}: {} is a file, so no directory can be made there (nothing was written)",
                path.display(),
                file.display()
            ),
            Refused::Input(flag, path, input) => write!(
                f,
                "{flag} {} is a file this run reads ({input}); an output is never written over what the run reads (nothing was written)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// Temporary report files not yet renamed into place: removed if the run is
/// interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Beyond [`INTERRUPTS`], the signals whose default action ends the
/// process and that a process may catch, each of which removes the
/// temporary files: but those a fault raises (SIGBUS, SIGSEGV, SIGILL,
/// SIGFPE: caught, the fault would come again), SIGABRT (a panic's, which
/// [`remove_partials_on_panic`] covers), and the profiling timers' SIGPROF
/// and SIGVTALRM (a profiler sends them all the time). SIGPIPE is ignored
/// by every Rust program (a closed pipe is an error of the write), and
/// SIGXFSZ here ([`clean_up_on_signals`]).
#[cfg(unix)]
fn ending_signals() -> Vec<i32> {
    use signal_hook::consts::signal::*;
    let mut signals = vec![SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGIO, SIGSYS, SIGTRAP];
    #[cfg(any(target_os = "linux", target_os = "android"))]
    signals.extend([libc::SIGSTKFLT, libc::SIGPWR]);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    signals.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
    signals
}

/// The signals a terminal or a job control sends to end a process.
#[cfg(unix)]
const INTERRUPTS: [i32; 4] = [
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGQUIT,
];

/// Whether the program that runs the audit within itself (the Python
/// module) keeps its signals: none is handled here.
static HOST_SIGNALS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Leaves every signal to the program the audit runs in: Ctrl-C there is
/// the program's (a `KeyboardInterrupt` in Python, which stops the run and
/// so removes its temporary files), never an exit of the process. Called
/// before the first output is opened.
pub fn leave_signals_to_the_host() {
    HOST_SIGNALS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// On any signal that would end the process (`INTERRUPTS`: SIGINT,
/// SIGTERM, SIGHUP when the terminal closes, SIGQUIT; and
/// `ending_signals`: SIGUSR1, SIGALRM and the others), removes the temporary report files and exits with
/// 128 + the signal's number, as a shell does for a process the signal
/// killed. A file grown past the size limit (`ulimit -f`) raises SIGXFSZ,
/// which is ignored: the write fails instead, and the run ends as on any
/// failed write (exit status 2, the file named, nothing left). Installed
/// once, before the first temporary file is made ([`Opened::open`]).
#[cfg(unix)]
pub fn clean_up_on_signals() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if HOST_SIGNALS.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        ignore_file_size_signal();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(INTERRUPTS) else {
            return;
        };
        // Each of the others on its own: one the system will not let a
        // process handle (under a debugger or an emulator) costs only
        // itself.
        for signal in ending_signals() {
            let _ = signals.add_signal(signal);
        }
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let handled: Vec<i32> = INTERRUPTS.into_iter().chain(ending_signals()).collect();
                let on_another = |action| {
                    for &again in &handled {
                        // SAFETY: sets a signal's action to a default or
                        // to ignored; no code of ours runs in a handler.
                        unsafe {
                            libc::signal(again, action);
                        }
                    }
                };
                // A second signal, while this one waits for a run putting
                // its outputs in place, ends the process as it would have.
                on_another(libc::SIG_DFL);
                // A run putting its outputs in place finishes first, so that
                // they are all of this run or all of the last.
                let finished = FINISHING.lock().unwrap_or_else(|e| e.into_inner());
                // Nothing waits now: no signal cuts the removal short.
                on_another(libc::SIG_IGN);
                // Held until the exit, so that no file is renamed meanwhile.
                let paths = pending();
                remove_all(&paths);
                if *finished {
                    eprintln!(
                        "pgn-arbiter: interrupted; the files put in place before it are whole, and any being written was removed"
                    );
                } else {
                    eprintln!(
                        "pgn-arbiter: interrupted; the files being written were removed (no report of this run was put in place; previous reports are unchanged)"
                    );
                }
                std::process::exit(128 + signal);
            }
        });
    });
}

#[cfg(not(unix))]
pub fn clean_up_on_signals() {}

/// Whether the run has put its outputs in place, behind the lock a run
/// holds while it does ([`finishing`]).
static FINISHING: Mutex<bool> = Mutex::new(false);

/// Holds off the signal handler while a run puts its outputs in place
/// (reports renamed, page and summary written): a signal then waits for
/// the last of them, so that they are never part this run's and part the
/// last's. The guard holds whether an output of the run is in place: set
/// when one is, cleared when a run starts.
pub fn finishing() -> std::sync::MutexGuard<'static, bool> {
    FINISHING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A file grown past the size limit (`ulimit -f`) raises SIGXFSZ, whose
/// default action ends the process with the file cut short (a report to
/// standard output or a device included): ignored, the write fails
/// instead, and the run ends as on any failed write. Set before the first
/// output is opened.
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal's disposition to "ignore" runs no code of
    // ours in the handler.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// A path that names a descriptor the process was given (`/dev/stdout`,
/// `/dev/fd/3`, `/proc/self/fd/1`), written as it is.
fn is_descriptor(path: &Path) -> bool {
    let text = path.to_string_lossy();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = text.split('/').collect();
    match parts.as_slice() {
        ["", "dev", "stdout" | "stderr"] => true,
        ["", "dev", "fd", n] => number(n),
        ["", "proc", process, "fd", n] => {
            (matches!(*process, "self" | "thread-self") || number(process)) && number(n)
        }
        _ => false,
    }
}

fn remove_all(paths: &[PathBuf]) {
    for path in paths {
        let _ = fs::remove_file(path);
    }
}

/// On a panic, removes the temporary report files once the panic is told.
/// The binary is built with `panic = "abort"` (Cargo.toml): a panic ends
/// the process at once, with nothing dropped, so no temporary file would be
/// removed otherwise. A panic while the list is held (renaming) leaves it.
pub fn remove_partials_on_panic() {
    let told = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        told(info);
        let paths = match PENDING.try_lock() {
            Ok(paths) => paths,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return,
        };
        if !paths.is_empty() {
            remove_all(&paths);
            eprintln!("pgn-arbiter: no report file was written (previous reports are unchanged)");
        }
    }));
}

/// Follows symlinks (even one to a file not yet there) to the path a
/// write would reach.
fn resolve_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as the kernel follows.
    for _ in 0..40 {
        let Ok(link) = fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) if link.is_relative() => dir.join(link),
            _ => link,
        };
    }
    path
}

/// An error of the file at `path`, naming it.
pub(crate) fn named(path: &Path, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}

/// A file whose errors name it, so that a write that fails (a full disk,
/// a file-size limit, a device that takes nothing) says which output it
/// was.
struct Named<W> {
    inner: W,
    path: PathBuf,
}

impl<W> Named<W> {
    fn new(inner: W, path: &Path) -> Named<W> {
        Named {
            inner,
            path: path.to_path_buf(),
        }
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| named(&self.path, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| named(&self.path, e))
    }
}

/// A report being written.
pub struct Opened {
    /// Where the rows go.
    pub writer: Box<dyn Write + Send>,
    /// The temporary file and its target, for a file report.
    pending: Option<Pending>,
}

/// A report file not yet in place.
pub struct Pending {
    temp: Option<TempPath>,
    /// Open until `close` (made durable then).
    file: Option<File>,
    target: PathBuf,
}

impl Pending {
    /// Closes the written file, for outputs written one after another (a
    /// corrected copy per input) that must not hold a descriptor each
    /// until the run ends. It is made durable when committed (opened again
    /// then), so that the run does not wait for the disk in the meantime.
    pub fn close(&mut self) {
        self.file = None;
    }

    /// The file it will become.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl Opened {
    /// Opens a destination: standard output, or a temporary file beside the
    /// target.
    pub fn open(out: &Output) -> io::Result<Opened> {
        let path = match out {
            Output::Stdout => {
                let named = Named::new(io::stdout(), Path::new("standard output"));
                return Ok(Opened {
                    writer: Box::new(BufWriter::with_capacity(1 << 16, named)),
                    pending: None,
                });
            }
            Output::File(path) => path,
            Output::Handed(handed) => {
                return Ok(Opened {
                    writer: handed
                        .take()
                        .ok_or_else(|| io::Error::other("the writer handed over was taken"))?,
                    pending: None,
                });
            }
        };
        // A device or a pipe (`/dev/null`, a FIFO), or a descriptor the
        // shell opened (`/dev/stdout`, `/dev/fd/3`), is written to as it
        // is: there is nothing to replace, and renaming over it would
        // replace the device's name in /dev, not write to it. Any other
        // path (`/dev/shm/x`, `/proc/self/cwd/x`) is a file like any.
        if is_descriptor(path) || fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let file = fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .map_err(|e| named(path, e))?;
            return Ok(Opened {
                writer: Box::new(BufWriter::with_capacity(1 << 16, Named::new(file, path))),
                pending: None,
            });
        }
        // The handlers that remove temporary files on a signal are in
        // place before the first such file is made.
        clean_up_on_signals();
        // A symlink stays; the file it leads to is replaced.
        let path = resolve_links(path);
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        // One rule for every output: missing parent directories are made.
        fs::create_dir_all(dir).map_err(|e| named(dir, e))?;
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        // 0666, which creating the file reduces by the umask.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        // Made and listed under the lock the signal handler takes: a signal
        // never finds a temporary file that is not listed.
        let mut listed = pending();
        let temp = builder.tempfile_in(dir).map_err(|e| named(&path, e))?;
        let (file, temp) = temp.into_parts();
        listed.push(temp.to_path_buf());
        drop(listed);
        // From here an error drops it: the file is removed and unlisted.
        let mut pending = Pending {
            temp: Some(temp),
            file: None,
            target: path,
        };
        let path = &pending.target;
        // A file replaced keeps its mode; a new one has what the umask
        // leaves of 0666, as any file a program creates.
        if let Ok(meta) = fs::metadata(path)
            && meta.is_file()
        {
            file.set_permissions(meta.permissions())
                .map_err(|e| named(path, e))?;
        }
        let writer = Box::new(BufWriter::with_capacity(
            1 << 16,
            Named::new(file.try_clone().map_err(|e| named(path, e))?, path),
        ));
        pending.file = Some(file);
        Ok(Opened {
            writer,
            pending: Some(pending),
        })
    }

    /// Whether this report goes to a file.
    pub fn is_file(&self) -> bool {
        self.pending.is_some()
    }

    /// A destination that keeps nothing (the reports of a run that keeps
    /// its results instead, `--keep-results`).
    pub fn discard() -> Opened {
        Opened {
            writer: Box::new(io::sink()),
            pending: None,
        }
    }
}

/// The temporary files of finished reports: renamed into place together by
/// `commit`, or removed when dropped.
#[derive(Default)]
pub struct Commit(Vec<Pending>);

impl Commit {
    /// Takes the pending file of a report whose writer has been flushed.
    pub fn add(&mut self, opened: Option<Pending>) {
        self.0.extend(opened);
    }

    /// Makes every report file durable and renames it over its target.
    pub fn commit(self) -> io::Result<()> {
        self.rename(|target| target.to_path_buf()).map(drop)
    }

    /// Keeps the reports of an incomplete run as `NAME.partial` beside
    /// their targets, which stay as they were. Returns the paths written.
    pub fn commit_partial(self) -> io::Result<Vec<PathBuf>> {
        self.rename(|target| {
            let mut name = target.file_name().unwrap_or_default().to_os_string();
            name.push(".partial");
            target.with_file_name(name)
        })
    }

    /// Syncs every temporary file and renames it to `to(target)`; after
    /// the first failure the rest are removed. Returns the paths written.
    fn rename(self, to: impl Fn(&Path) -> PathBuf) -> io::Result<Vec<PathBuf>> {
        for p in &self.0 {
            let synced = match (&p.file, &p.temp) {
                (Some(file), _) => file.sync_all(),
                (None, Some(temp)) => File::open(temp).and_then(|f| f.sync_all()),
                (None, None) => Ok(()),
            };
            synced.map_err(|e| named(&p.target, e))?;
        }
        // Hold the list so that a signal cannot remove files mid-way. Every
        // temporary is taken out of its `Pending`, so no drop locks it again.
        let mut list = pending();
        let mut written = Vec::new();
        let mut error = None;
        for mut p in self.0 {
            let Some(temp) = p.temp.take() else {
                continue;
            };
            let path = temp.to_path_buf();
            list.retain(|t| *t != path);
            if error.is_some() {
                continue; // Dropping `temp` removes the file.
            }
            let dest = to(&p.target);
            match temp.persist(&dest) {
                Ok(_) => written.push(dest),
                Err(e) => {
                    error = Some(io::Error::new(
                        e.error.kind(),
                        format!("{}: {}", dest.display(), e.error),
                    ));
                }
            }
        }
        error.map_or(Ok(written), Err)
    }
}

impl Drop for Pending {
    /// Removes the temporary file, then unlists it, under the lock the
    /// signal handler takes: it is never unlisted while it is there.
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let path = temp.to_path_buf();
            let mut listed = pending();
            drop(temp);
            listed.retain(|t| *t != path);
        }
    }
}

impl Opened {
    /// Splits off the pending file (kept until [`Commit::commit`]) from the
    /// writer.
    pub fn into_parts(self) -> (Box<dyn Write + Send>, Option<Pending>) {
        (self.writer, self.pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &Path) -> Input {
        Input {
            name: path.display().to_string(),
            source: Source::File(path.to_path_buf()),
        }
    }

    #[test]
    fn refuses_a_report_over_an_input_even_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.txt");
        fs::write(&pgn, "1. e4 *\n").unwrap();
        let link = dir.path().join("link.csv");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&pgn, &link).unwrap();
        let inputs = [file(&pgn)];
        let one = |out: Output| check(&inputs, &[("--findings", &out)]);
        let two = |a: Output, b: Output| check(&inputs, &[("--findings", &a), ("--games", &b)]);
        assert!(one(Output::File(pgn.clone())).is_err());
        #[cfg(unix)]
        assert!(two(Output::Stdout, Output::File(link)).is_err());
        let report = dir.path().join("r.csv");
        assert!(one(Output::File(report.clone())).is_ok());
        // Both reports on one file, even spelled differently.
        let other = dir.path().join(".").join("r.csv");
        assert!(two(Output::File(report.clone()), Output::File(other)).is_err());
        assert!(two(Output::Stdout, Output::Stdout).is_err());
        // The summary is checked the same way.
        let summary = Output::File(dir.path().join("r.csv"));
        let err = check(
            &inputs,
            &[
                ("--findings", &Output::Stdout),
                ("--summary", &summary),
                ("--games", &Output::File(report)),
            ],
        )
        .unwrap_err();
        assert!(err.to_string().contains("--summary and --games"), "{err}");
        // A report never gets a PGN name.
        let named = dir.path().join("new.pgn");
        assert!(one(Output::File(named)).is_err());
    }

    #[test]
    fn a_report_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.csv");
        fs::write(&target, "old\n").unwrap();
        let opened = Opened::open(&Output::File(target.clone())).unwrap();
        let (mut writer, pending) = opened.into_parts();
        writer.write_all(b"new\n").unwrap();
        writer.flush().unwrap();
        drop(writer);
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
        // Dropped without commit: the old report stays, no temporary is left.
        drop(pending);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let opened = Opened::open(&Output::File(target.clone())).unwrap();
        let (mut writer, pending) = opened.into_parts();
        writer.write_all(b"new\n").unwrap();
        writer.flush().unwrap();
        let mut commit = Commit::default();
        commit.add(pending);
        commit.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(!super::pending().iter().any(|p| p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_report_keeps_its_link_and_devices_are_written_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.csv");
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let (mut writer, pending) = Opened::open(&Output::File(link.clone()))
            .unwrap()
            .into_parts();
        writer.write_all(b"x\n").unwrap();
        writer.flush().unwrap();
        let mut commit = Commit::default();
        commit.add(pending);
        commit.commit().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "x\n");
        let null = Opened::open(&Output::File("/dev/null".into())).unwrap();
        assert!(!null.is_file());
        // Issue 56: a file under /dev or /proc is a file like any other,
        // written beside its place and renamed in; descriptors are written
        // as they are.
        if Path::new("/dev/shm").is_dir() {
            let shm = tempfile::tempdir_in("/dev/shm").unwrap();
            let opened = Opened::open(&Output::File(shm.path().join("r.csv"))).unwrap();
            assert!(opened.is_file());
        }
        assert!(is_descriptor(Path::new("/dev/stdout")));
        assert!(is_descriptor(Path::new("/proc/self/fd/1")));
        assert!(!is_descriptor(Path::new("/proc/self/cwd/r.csv")));
    }
}
