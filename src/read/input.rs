//! Where bytes come from: the paths given (files, directories searched for
//! PGN files, `-` for standard input), decompression recognised by magic
//! bytes, and a count of the raw bytes read for the progress bar.

use std::{
    fs::{self, File},
    io::{self, Read},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use sha2::{Digest as _, Sha256};

/// One input of the run, in the order it will be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The name used in reports: the path as given (joined with what was
    /// found below a directory), or `-` for standard input.
    pub name: String,
    /// Where its bytes come from.
    pub source: Source,
}

/// Where an input's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file (or something that will fail to open as one).
    File(PathBuf),
    /// Standard input.
    Stdin,
    /// A directory that could not be listed: an operational problem to report
    /// in its turn.
    Unlistable(String),
    /// A shard of a file: a range of its zstd frames or bytes.
    Shard(PathBuf, crate::read::shard::Range),
    /// Bytes handed over whole by a program that runs the audit as a
    /// library (the Python module's text input).
    Text(Arc<[u8]>),
}

/// Compression formats recognised by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (one or more members).
    Gzip,
    /// bzip2 (one or more streams).
    Bzip2,
    /// Zstandard, including files that open with a skippable frame.
    Zstd,
    /// xz.
    Xz,
}

impl Compression {
    /// Recognises a format from the first bytes of a stream.
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            // Skippable frames: magic 0x184D2A50..=0x184D2A5F, little endian.
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Compression::Zstd,
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Compression::Xz,
            _ => Compression::None,
        }
    }
}

/// What a directory walk met besides PGN files, for notes on stderr.
pub type Notes = Vec<String>;

/// Expands the command line's paths into inputs: a directory becomes the PGN
/// files below it, in sorted order, each file once (by device and inode) and
/// each directory once (so symlink loops end); anything else is taken as
/// given, so that `<(zcat x.gz)` and `/dev/stdin` work. Symbolic links to
/// directories met in a walk are followed only when `follow` (`--follow`,
/// as ripgrep and fd have it). What a walk skips (FIFOs, sockets, devices,
/// loops, links to directories, files seen before) is said in `notes`.
pub fn expand(paths: &[PathBuf], follow: bool) -> (Vec<Input>, Notes) {
    let mut walk = Walk {
        follow,
        ..Walk::default()
    };
    for path in paths {
        if path.as_os_str() == "-" {
            walk.inputs.push(Input {
                name: "-".to_owned(),
                source: Source::Stdin,
            });
        } else if path.is_dir() {
            let before = walk.inputs.len();
            walk.dir(path);
            if walk.inputs.len() == before {
                walk.notes.push(format!(
                    "{}: no PGN file in it (names ending in .pgn, .pgn.gz, .pgn.bz2, .pgn.zst or .pgn.xz)",
                    path.display()
                ));
            }
        } else {
            if let Some(id) = fs::metadata(path).ok().as_ref().and_then(identity) {
                walk.files.insert(id);
            }
            walk.inputs.push(Input {
                name: path.display().to_string(),
                source: Source::File(path.clone()),
            });
        }
    }
    (walk.inputs, walk.notes)
}

/// A file's identity: device and inode.
#[cfg(unix)]
pub fn identity(meta: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
pub fn identity(_meta: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[derive(Default)]
struct Walk {
    inputs: Vec<Input>,
    notes: Notes,
    dirs: std::collections::HashSet<(u64, u64)>,
    files: std::collections::HashSet<(u64, u64)>,
    /// Follow symbolic links to directories.
    follow: bool,
}

impl Walk {
    fn dir(&mut self, dir: &Path) {
        if let Some(id) = fs::metadata(dir).ok().as_ref().and_then(identity)
            && !self.dirs.insert(id)
        {
            self.notes.push(format!(
                "{}: skipped, a directory already searched (a symlink loop?)",
                dir.display()
            ));
            return;
        }
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                self.inputs.push(Input {
                    name: dir.display().to_string(),
                    source: Source::Unlistable(err.to_string()),
                });
                return;
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut failed = None;
        for entry in entries {
            match entry {
                Ok(entry) => paths.push(entry.path()),
                Err(err) => failed = Some(err.to_string()),
            }
        }
        paths.sort();
        for path in paths {
            // Symlinks are followed; what they lead to decides.
            let meta = match fs::metadata(&path) {
                Ok(meta) => meta,
                Err(err) => {
                    if is_pgn_name(&path) {
                        self.inputs.push(Input {
                            name: path.display().to_string(),
                            source: Source::Unlistable(err.to_string()),
                        });
                    }
                    continue;
                }
            };
            if meta.is_dir() {
                let link = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
                if link && !self.follow {
                    self.notes.push(format!(
                        "{}: skipped, a symbolic link to a directory; give --follow to search it",
                        path.display()
                    ));
                } else {
                    self.dir(&path);
                }
            } else if !is_pgn_name(&path) {
            } else if !meta.is_file() {
                self.notes.push(format!(
                    "{}: skipped, not a regular file (a FIFO, socket or device); name it on the command line to read it",
                    path.display()
                ));
            } else if identity(&meta).is_some_and(|id| !self.files.insert(id)) {
                self.notes.push(format!(
                    "{}: skipped, the same file as one already read",
                    path.display()
                ));
            } else {
                self.inputs.push(Input {
                    name: path.display().to_string(),
                    source: Source::File(path),
                });
            }
        }
        if let Some(err) = failed {
            self.inputs.push(Input {
                name: dir.display().to_string(),
                source: Source::Unlistable(err),
            });
        }
    }
}

/// A file below a directory is read when its name ends in `.pgn`, or in
/// `.pgn` and a compression suffix: `.pgn.gz`, `.pgn.bz2`, `.pgn.zst`,
/// `.pgn.xz` (any case). `a.pgn.bak` and `a.pgn.sha256` are not read.
pub fn is_pgn_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.to_string_lossy().to_ascii_lowercase();
    let name = [".gz", ".bz2", ".zst", ".xz"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
    name.len() > 4 && name.ends_with(".pgn")
}

/// Counts the raw (compressed) bytes read, for the progress bar.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// What reading the inputs tells the rest of the run: the raw bytes read
/// so far (for the progress bar) and, when asked for, each input's
/// SHA-256 as stored (compressed or not), so that whoever receives the
/// report can check that the files they hold are the ones audited.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Raw bytes read so far.
    pub bytes: Arc<AtomicU64>,
    /// Per input, its SHA-256 in hex once read to its end (`None` for a
    /// shard, or an input that could not be read); `None` when not asked
    /// for.
    pub digests: Option<Arc<Mutex<Vec<Option<String>>>>>,
}

impl Tally {
    /// A tally that hashes each of `inputs` inputs when `hash` is set.
    pub fn new(inputs: usize, hash: bool) -> Tally {
        Tally {
            bytes: Arc::default(),
            digests: hash.then(|| Arc::new(Mutex::new(vec![None; inputs]))),
        }
    }

    /// Input `index`'s digest, once read.
    pub fn digest(&self, index: usize) -> Option<String> {
        let digests = self.digests.as_ref()?.lock().ok()?;
        digests.get(index).cloned().flatten()
    }
}

/// The SHA-256 of the bytes read so far, and how many.
#[derive(Debug, Default)]
struct Digest {
    hasher: Sha256,
    read: u64,
}

/// Hashes the raw bytes as they are read.
struct Hashing<R> {
    inner: R,
    digest: Arc<Mutex<Digest>>,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut d) = self.digest.lock() {
            d.hasher.update(buf.get(..n).unwrap_or_default());
            d.read += n as u64;
        }
        Ok(n)
    }
}

/// An input being hashed as it is read.
pub struct Hashed {
    digest: Arc<Mutex<Digest>>,
}

impl Hashed {
    /// The digest of the whole input, once the audit has read what it
    /// needs: the bytes after the end of the compressed stream (which a
    /// decoder does not ask for) are hashed too, from the file, or read
    /// from standard input to its end.
    pub fn finish(self, source: &Source) -> Option<String> {
        let mut d = self.digest.lock().ok()?;
        let read = d.read;
        let mut rest: Box<dyn Read> = match source {
            Source::File(path) => {
                let mut file = File::open(path).ok()?;
                std::io::Seek::seek(&mut file, io::SeekFrom::Start(read)).ok()?;
                Box::new(file)
            }
            Source::Stdin => Box::new(io::stdin()),
            Source::Text(bytes) => Box::new(io::Cursor::new(bytes.get(read as usize..)?.to_vec())),
            _ => return None,
        };
        io::copy(&mut rest, &mut d.hasher).ok()?;
        let hasher = std::mem::take(&mut d.hasher);
        Some(hex(&hasher.finalize()))
    }
}

/// Bytes in lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a whole file, in hex.
pub fn sha256_of(path: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    io::copy(&mut File::open(path)?, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

/// An opened input: its decompressed bytes.
pub struct Opened {
    /// The decompressed stream.
    pub reader: Box<dyn Read + Send>,
    /// The format found.
    pub compression: Compression,
}

/// Opens an input and wraps it in the decompressor its first bytes call for.
/// Raw bytes read are added to `count`.
pub fn open(source: &Source, count: Arc<AtomicU64>) -> io::Result<Opened> {
    open_hashed(source, count, false).map(|(opened, _)| opened)
}

/// [`open`], and with `hash` the input's SHA-256 made as it is read (not
/// for a shard, which reads part of its file).
pub fn open_hashed(
    source: &Source,
    count: Arc<AtomicU64>,
    hash: bool,
) -> io::Result<(Opened, Option<Hashed>)> {
    let raw: Box<dyn Read + Send> = match source {
        Source::File(path) => {
            if path.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            Box::new(File::open(path)?)
        }
        Source::Stdin => Box::new(io::stdin()),
        Source::Text(bytes) => Box::new(io::Cursor::new(bytes.clone())),
        Source::Unlistable(err) => return Err(io::Error::other(err.clone())),
        Source::Shard(path, range) => return Ok((open_shard(path, *range)?, None)),
    };
    let counting = Counting { inner: raw, count };
    if !hash {
        return Ok((decode(Box::new(counting))?, None));
    }
    let digest = Arc::new(Mutex::new(Digest::default()));
    let hashing = Hashing {
        inner: counting,
        digest: digest.clone(),
    };
    Ok((decode(Box::new(hashing))?, Some(Hashed { digest })))
}

/// Opens a shard: its decompressed bytes, line ends normalised.
fn open_shard(path: &Path, range: crate::read::shard::Range) -> io::Result<Opened> {
    use crate::read::shard::Range;
    let mut head = [0u8; 6];
    let n = File::open(path)?.read(&mut head)?;
    let compression = Compression::detect(&head[..n]);
    let fits = match range {
        Range::Frames(..) => compression == Compression::Zstd,
        Range::Bytes(..) => compression == Compression::None,
    };
    if !fits {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            match range {
                Range::Frames(..) => "--zstd-frames needs a zstd file".to_owned(),
                Range::Bytes(..) => format!(
                    "--bytes needs a plain file, and this one is {compression:?}-compressed (--zstd-frames splits zstd files)"
                ),
            },
        ));
    }
    Ok(Opened {
        reader: Box::new(Normalize::new(crate::read::shard::open(path, range)?)),
        compression,
    })
}

/// Decompresses (by magic bytes) and decodes (UTF-16) a raw stream, and
/// normalises its line ends.
pub fn decode(raw: Box<dyn Read + Send>) -> io::Result<Opened> {
    let (head, stream) = peek(raw, 6)?;
    let compression = Compression::detect(&head);
    let decompressed: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(stream),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(stream)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(stream)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(stream)?),
        Compression::Xz => {
            // Concatenated streams, like `new_multi_decoder`, but with a
            // bound on the dictionary a file may ask for (xz -9 needs 65 MiB).
            let decoder =
                xz2::stream::Stream::new_stream_decoder(XZ_MEMORY_LIMIT, xz2::stream::CONCATENATED)
                    .map_err(io::Error::other)?;
            Box::new(XzLimited(xz2::read::XzDecoder::new_stream(stream, decoder)))
        }
    };
    // UTF-16 (with a byte order mark, or a first `[` and tag name letter
    // each followed or preceded by a zero byte: `[\0E\0`) is decoded to
    // UTF-8. A `[` then a NUL character is no tag, and not taken for
    // UTF-16, so that a copy of junk reads as it was written.
    let (head, text) = peek(decompressed, 4)?;
    let utf16 = match head[..] {
        [0xff, 0xfe, ..] => Some(encoding_rs::UTF_16LE),
        [0xfe, 0xff, ..] => Some(encoding_rs::UTF_16BE),
        [b'[', 0, letter, 0] if letter.is_ascii_alphabetic() => Some(encoding_rs::UTF_16LE),
        [0, b'[', 0, letter] if letter.is_ascii_alphabetic() => Some(encoding_rs::UTF_16BE),
        _ => None,
    };
    let text: Box<dyn Read + Send> = match utf16 {
        Some(encoding) => Box::new(
            encoding_rs_io::DecodeReaderBytesBuilder::new()
                .encoding(Some(encoding))
                .bom_override(true)
                .build(text),
        ),
        None => Box::new(text),
    };
    Ok(Opened {
        reader: Box::new(Normalize::new(text)),
        compression,
    })
}

/// The most memory the xz decoder may take; a file that needs more is an
/// error, not a way to make the tool allocate gigabytes.
pub const XZ_MEMORY_LIMIT: u64 = 128 << 20;

/// An xz decoder whose memory-limit error says what it means.
struct XzLimited<R>(R);

impl<R: Read> Read for XzLimited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|err| {
            let memlimit = err
                .get_ref()
                .and_then(|e| e.downcast_ref::<xz2::stream::Error>())
                .is_some_and(|e| matches!(e, xz2::stream::Error::MemLimit));
            if memlimit {
                io::Error::other(format!(
                    "xz: decompressing this file needs more than {} MiB of memory (its dictionary is too large); it is not read",
                    XZ_MEMORY_LIMIT >> 20
                ))
            } else {
                err
            }
        })
    }
}

/// A stream with its first bytes put back in front of it.
type Peeked<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Reads up to `n` bytes of a stream and puts them back in front of it.
fn peek<R: Read>(mut stream: R, n: usize) -> io::Result<(Vec<u8>, Peeked<R>)> {
    let mut head = vec![0u8; n];
    let filled = read_up_to(&mut stream, &mut head)?;
    head.truncate(filled);
    Ok((head.clone(), io::Cursor::new(head).chain(stream)))
}

/// Reads into `buf` until it is full or the input ends; the bytes read.
pub fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];

/// Line ends and byte order marks as a PGN reader wants them: a carriage
/// return not followed by a line feed (old Mac files) is a line end, and a
/// UTF-8 byte order mark at the start of a line (what `cat a.pgn b.pgn`
/// leaves between two files) is dropped. Everything else passes through.
///
/// The bytes are read straight into the caller's buffer and normalised
/// there; only the few bytes that cannot be decided yet (a final `\r`, the
/// start of a byte order mark) are kept back for the next read.
pub struct Normalize<R> {
    inner: R,
    /// Bytes read but not decided yet: at most three.
    undecided: Vec<u8>,
    /// Bytes decided but not handed out yet, for reads into small buffers.
    ready: Vec<u8>,
    /// How much of `ready` has been handed out.
    taken: usize,
    eof: bool,
    /// Whether the next byte read starts a line.
    line_start: bool,
}

impl<R: Read> Normalize<R> {
    /// Wraps a stream.
    pub fn new(inner: R) -> Normalize<R> {
        Normalize {
            inner,
            undecided: Vec::new(),
            ready: Vec::new(),
            taken: 0,
            eof: false,
            line_start: true,
        }
    }

    /// Reads into `out` (at least 8 bytes) and normalises it in place.
    /// Returns how many bytes are ready; 0 only at the end.
    fn read_into(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            let carried = self.undecided.len();
            out[..carried].copy_from_slice(&self.undecided);
            self.undecided.clear();
            let mut end = carried;
            if !self.eof {
                match self.inner.read(&mut out[carried..]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => end += n,
                    Err(err) => {
                        self.undecided.extend_from_slice(&out[..carried]);
                        if err.kind() == io::ErrorKind::Interrupted {
                            continue;
                        }
                        return Err(err);
                    }
                }
            }
            let (ready, undecided) = self.cook(out, end);
            self.undecided.extend_from_slice(&out[undecided..end]);
            if ready > 0 || self.eof {
                return Ok(ready);
            }
        }
    }

    /// Normalises `buf[..end]` in place. Returns the length of the
    /// normalised bytes, now at the front, and where the bytes that need
    /// the next ones to be decided start (they are left where they are).
    fn cook(&mut self, buf: &mut [u8], end: usize) -> (usize, usize) {
        let mut r = 0;
        let mut w = 0;
        loop {
            let next = memchr::memchr2(b'\r', BOM[0], &buf[r..end]).map(|i| r + i);
            let run_end = next.unwrap_or(end);
            if run_end > r {
                if w != r {
                    buf.copy_within(r..run_end, w);
                }
                w += run_end - r;
                r = run_end;
                self.line_start = buf[w - 1] == b'\n';
            }
            if next.is_none() {
                break;
            }
            let rest = &buf[r..end];
            if rest[0] == BOM[0] {
                if self.line_start {
                    if rest.starts_with(&BOM) {
                        r += 3;
                        continue;
                    }
                    if !self.eof && BOM.starts_with(rest) {
                        break;
                    }
                }
                buf[w] = BOM[0];
                self.line_start = false;
            } else {
                match rest.get(1) {
                    Some(b'\n') => {
                        buf[w] = b'\r';
                        self.line_start = false;
                    }
                    None if !self.eof => break,
                    _ => {
                        buf[w] = b'\n';
                        self.line_start = true;
                    }
                }
            }
            w += 1;
            r += 1;
        }
        (w, r)
    }
}

impl<R: Read> Read for Normalize<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.taken == self.ready.len() {
            if out.len() >= 64 {
                return self.read_into(out);
            }
            // A small buffer: normalise into one of our own first.
            let mut ready = std::mem::take(&mut self.ready);
            ready.resize(4096, 0);
            let n = self.read_into(&mut ready)?;
            ready.truncate(n);
            self.ready = ready;
            self.taken = 0;
        }
        let n = out.len().min(self.ready.len() - self.taken);
        out[..n].copy_from_slice(&self.ready[self.taken..self.taken + n]);
        self.taken += n;
        Ok(n)
    }
}

/// The size on disk of a file input, for the progress bar's total.
pub fn size(source: &Source) -> Option<u64> {
    match source {
        Source::File(path) => fs::metadata(path).ok().map(|m| m.len()),
        Source::Text(bytes) => Some(bytes.len() as u64),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
