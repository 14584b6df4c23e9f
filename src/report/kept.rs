//! Games kept for later instead of reported (`--keep-results`), and the
//! run-wide findings `pgn-arbiter across` finds for them: the files that
//! carry a shard's games from its audit to its reports
//! ([`run::results`](crate::run::results) says how they are used).
//!
//! Both prove themselves before a byte of them is believed. A file is its
//! kind as a line of text (`pgn-arbiter results 3`), a zstd stream of
//! records (each a little-endian `u32` length and a postcard-encoded value:
//! a header naming the build that wrote it, then one record a game, or a
//! game with run-wide findings), and a seal of [`SEAL_BYTES`] bytes: a
//! mark, the number of records, the length of the stream, and the SHA-256
//! of everything before the seal and of those two numbers. A reader checks
//! the seal against the whole file first (`verify`): a file cut short,
//! added to, or with any byte changed is refused, named, before it is
//! read; then it reads the records, each length bounded by [`MAX_RECORD`]
//! before anything is allocated for it, and counts them against the seal.
//! Only the build that wrote a file reads it.

use std::{
    fs::File,
    io::{self, BufReader, Read, Seek, SeekFrom, Write},
    path::Path,
};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use sha2::{Digest, Sha256};
use shakmaty::{Color, KnownOutcome};

use super::{GameResult, TagColumns};
use crate::{
    board::rules::Edition,
    checks::{
        suppress::Suppressions,
        verdict::{BoardEnd, HowEnded, Verdict},
    },
    finding::{Finding, Kept},
    read::input::read_up_to,
};

/// The first line of a results file: its kind, then the form of its
/// records (3: sealed; 2: findings keep the clocks they concern).
const RESULTS: &[u8] = b"pgn-arbiter results 3\n";
/// The first line of an across file.
const ACROSS: &[u8] = b"pgn-arbiter across 3\n";

/// What the first line of a file of either kind begins with.
const OURS: &[u8] = b"pgn-arbiter ";

/// The seal's first bytes.
const SEAL_MARK: &[u8; 8] = b"PGNA\0END";

/// The seal's first bytes when the results are of an input read only in
/// part (`--keep-results FILE.partial`): the games before the damage.
const CUT_MARK: &[u8; 8] = b"PGNA\0CUT";

/// The seal at a file's end: the mark, the records and the stream's
/// length (little-endian `u64`s) and the SHA-256.
pub const SEAL_BYTES: usize = 8 + 8 + 8 + 32;

/// A record larger than this is refused, before it is read: a game is at
/// most 4 MiB of PGN (`read::blocks::MAX_GAME_BYTES`), and its record (its
/// tags, findings and their messages) is smaller than four times that.
pub const MAX_RECORD: usize = 16 << 20;

/// The largest window (as a power of two) a record stream's frame may
/// ask the reader for: 8 MiB.
const WINDOW_LOG_MAX: u32 = 23;

/// The kinds of file, by their first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Results,
    Across,
}

impl Form {
    fn line(self) -> &'static [u8] {
        match self {
            Form::Results => RESULTS,
            Form::Across => ACROSS,
        }
    }

    /// The first line's words before the form's number, and the blank.
    fn kind(self) -> &'static [u8] {
        match self {
            Form::Results => b"pgn-arbiter results ",
            Form::Across => b"pgn-arbiter across ",
        }
    }

    /// What a file that is not of this kind is told.
    fn not_this(self) -> String {
        match self {
            Form::Results => "not a results file (--keep-results writes them)".to_owned(),
            Form::Across => "not an across file (`pgn-arbiter across` writes them)".to_owned(),
        }
    }
}

/// What the seal of a whole file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seal {
    /// The records after the header.
    pub records: u64,
    /// The bytes of the zstd stream.
    stream: u64,
    /// The SHA-256 of the file before its seal (and of the mark and the
    /// two numbers).
    digest: [u8; 32],
    /// Whether the input was read whole (else the games before damage).
    whole: bool,
}

/// Checks that the file at `path` is a whole, unchanged file of `form`:
/// its first line, then its seal against its length and content.
fn verify(file: &mut File, form: Form) -> Result<Seal, String> {
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(
            "not a regular file: it is checked whole before it is read, so it must be one on disk"
                .to_owned(),
        );
    }
    let size = meta.len();
    let line = form.line();
    let mut first = vec![0u8; line.len()];
    let got = read_up_to(file, &mut first).map_err(|e| e.to_string())?;
    let first = &first[..got];
    if first != line && of_form_2(file, form) {
        return Err(format!(
            "kept by an older build of pgn-arbiter, in a form this one does not read ('{} 2'): make it again with this one",
            String::from_utf8_lossy(form.kind())
        ));
    }
    if first != line {
        let kind = |l: &[u8]| {
            l.iter()
                .rposition(|&b| b == b' ')
                .map(|at| l[..at].to_vec())
        };
        return Err(match first.iter().position(|&b| b == b'\n') {
            Some(end)
                if first.starts_with(OURS)
                    && kind(&first[..end]) == kind(&line[..line.len() - 1]) =>
            {
                format!(
                    "kept in another form ('{}') by another build of pgn-arbiter; this one reads '{}': make it again with this one",
                    String::from_utf8_lossy(&first[..end]),
                    String::from_utf8_lossy(&line[..line.len() - 1])
                )
            }
            _ => form.not_this(),
        });
    }
    let least = (line.len() + SEAL_BYTES) as u64;
    if size < least {
        return Err(format!(
            "cut short: {size} bytes, where even an empty one has {least}"
        ));
    }
    let mut seal = [0u8; SEAL_BYTES];
    file.seek(SeekFrom::Start(size - SEAL_BYTES as u64))
        .and_then(|_| file.read_exact(&mut seal))
        .map_err(|e| e.to_string())?;
    let whole = &seal[..8] == SEAL_MARK;
    if !whole && &seal[..8] != CUT_MARK {
        return Err("cut short or added to: it does not end with its seal".to_owned());
    }
    let number = |at: usize| {
        let mut n = [0u8; 8];
        n.copy_from_slice(&seal[at..at + 8]);
        u64::from_le_bytes(n)
    };
    let mut found = Seal {
        records: number(8),
        stream: number(16),
        digest: [0; 32],
        whole,
    };
    let stream = size - least;
    if found.stream != stream {
        return Err(format!(
            "its seal says {} bytes of records and it holds {stream}: cut short, added to, or changed",
            found.stream
        ));
    }
    let mut hash = Sha256::new();
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 1 << 16];
    let mut left = size - SEAL_BYTES as u64;
    while left > 0 {
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        file.read_exact(&mut buf[..n]).map_err(|e| e.to_string())?;
        hash.update(&buf[..n]);
        left -= n as u64;
    }
    hash.update(&seal[..24]);
    if hash.finalize()[..] != seal[24..] {
        return Err(
            "its content does not match its checksum: it was changed after it was written"
                .to_owned(),
        );
    }
    found.digest.copy_from_slice(&seal[24..]);
    Ok(found)
}

/// Whether the file at `path` may be replaced by a file of `form`: it is
/// not there, is not a regular file (a device), or begins with the line a
/// file of that kind (of any form) begins with: `pgn-arbiter results 3`
/// and a line break. Any other file, an empty one too, is not the tool's
/// to replace.
fn replaceable(path: &Path, form: Form) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return true;
    };
    if !meta.is_file() {
        return true;
    }
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut first = [0u8; 64];
    let Ok(n) = read_up_to(&mut file, &mut first) else {
        return false;
    };
    let Some(rest) = first[..n].strip_prefix(form.kind()) else {
        return of_form_2(&mut file, form);
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest.get(digits) == Some(&b'\n')
}

/// Whether `file` is of `form` as builds before 0.6.0 wrote it: a zstd
/// stream whose first record names the kind (`pgn-arbiter results 2`).
/// Only its first bytes are read.
fn of_form_2(file: &mut File, form: Form) -> bool {
    if file.seek(SeekFrom::Start(0)).is_err() {
        return false;
    }
    let Ok(mut stream) = zstd::stream::read::Decoder::new(&mut *file) else {
        return false;
    };
    if stream.window_log_max(WINDOW_LOG_MAX).is_err() {
        return false;
    }
    let mut head = [0u8; 64];
    let Ok(n) = read_up_to(&mut stream, &mut head) else {
        return false;
    };
    let named = [form.kind(), b"2"].concat();
    head[..n].windows(named.len()).any(|w| w == named)
}

/// Refuses a path a results file (`results`: else an across file) would
/// replace when a file is there that is not one: so that a slip in a
/// command or a list never destroys a file of another kind.
pub fn may_replace(path: &Path, results: bool) -> Result<(), String> {
    let form = if results { Form::Results } else { Form::Across };
    if replaceable(path, form) {
        return Ok(());
    }
    Err(format!(
        "{} is there and is {}: only such a file is replaced (nothing was written)",
        path.display(),
        form.not_this()
    ))
}

/// The first record of a results file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    /// The build of pgn-arbiter that wrote it (`--version`).
    version: String,
    /// The input's name, as the reports give it.
    pub input: String,
    /// The rule edition the games were judged under.
    pub edition: String,
    /// Whether the games have their fingerprints (not with
    /// `--no-duplicates`).
    pub duplicates: bool,
}

/// The first record of an across file: what it was made for.
#[derive(Debug, Serialize, Deserialize)]
struct AcrossHeader {
    /// The build of pgn-arbiter that wrote it.
    version: String,
    /// The SHA-256 of the results file whose games it is about.
    results: [u8; 32],
    /// The games of its input before those (`games_before`).
    games_before: u64,
}

/// The most findings a game's record may hold: each code lists at most
/// 100 of its findings and counts the rest in one more.
const MAX_FINDINGS: usize = 10_000;

/// The most codes a game's comments may name that a record keeps.
const MAX_NAMED: usize = crate::read::comments::MAX_SUPPRESSIONS;

/// A game's comments' codes, each as named with its line, and the words
/// not read ([`Suppressions::named`]).
type NamedCodes = (Vec<(u64, String)>, u64);

/// [`NamedCodes`] read back, at most [`MAX_NAMED`] of them.
fn named_codes<'de, D: serde::Deserializer<'de>>(input: D) -> Result<NamedCodes, D::Error> {
    #[derive(Deserialize)]
    struct Named(
        #[serde(deserialize_with = "crate::finding::at_most::<_, _, MAX_NAMED>")]
        Vec<(u64, String)>,
        u64,
    );
    let Named(named, not_read) = Named::deserialize(input)?;
    Ok((named, not_read))
}

/// A game's result as kept: what the report writer and the run-wide
/// checks read of it.
#[derive(Debug, Serialize, Deserialize)]
struct Game {
    line: u64,
    tags: TagColumns,
    plies: u64,
    board_end: BoardEnd,
    expected: Option<u8>,
    how_ended: HowEnded,
    fingerprint: Option<u128>,
    by_initials: Option<(u128, crate::read::game::InFull)>,
    folded: [Option<u64>; 2],
    #[serde(deserialize_with = "crate::finding::at_most::<_, _, MAX_FINDINGS>")]
    findings: Vec<Kept>,
    #[serde(deserialize_with = "named_codes")]
    suppressions: NamedCodes,
}

/// A game's run-wide findings, as an across file keeps them.
#[derive(Debug, Serialize, Deserialize)]
pub struct AcrossGame {
    /// Its number in its input.
    pub number: u64,
    /// Its first line: a check that it is the game rendered as `number`.
    pub line: u64,
    #[serde(deserialize_with = "crate::finding::at_most::<_, _, MAX_FINDINGS>")]
    findings: Vec<Kept>,
}

impl AcrossGame {
    /// Game `number`'s run-wide findings.
    pub fn new(number: u64, line: u64, findings: &[Finding]) -> AcrossGame {
        AcrossGame {
            number,
            line,
            findings: findings.iter().map(Finding::kept).collect(),
        }
    }

    /// The findings, or why they cannot be read.
    pub fn findings(self) -> Result<Vec<Finding>, String> {
        self.findings.into_iter().map(Kept::finding).collect()
    }
}

/// A result as kept: 0 a draw, 1 White's win, 2 Black's.
fn outcome_code(outcome: Option<KnownOutcome>) -> Option<u8> {
    outcome.map(|o| o.winner().map_or(0, |c| c.fold_wb(1, 2)))
}

fn outcome(code: Option<u8>) -> Result<Option<KnownOutcome>, String> {
    code.map(|c| match c {
        0..=2 => Ok(KnownOutcome::from_winner(
            (c > 0).then(|| Color::from_white(c == 1)),
        )),
        _ => Err(format!("{c} is no result")),
    })
    .transpose()
}

impl Game {
    fn of(game: &GameResult) -> Game {
        Game {
            line: game.line,
            tags: game.tags.clone(),
            plies: game.verdict.plies as u64,
            board_end: game.verdict.board_end,
            expected: outcome_code(game.verdict.expected),
            how_ended: game.verdict.how_ended,
            fingerprint: game.fingerprint,
            by_initials: game.by_initials,
            folded: game.folded,
            findings: game.findings.iter().map(Finding::kept).collect(),
            suppressions: game.suppressions.named(),
        }
    }

    fn result(self) -> Result<GameResult, String> {
        let verdict = Verdict {
            plies: usize::try_from(self.plies).map_err(|e| e.to_string())?,
            moves: 0,
            resolved: 0,
            board_end: self.board_end,
            expected: outcome(self.expected)?,
            how_ended: self.how_ended,
            ended_at: None,
            stopped: None,
            corrections: Vec::new(),
        };
        let findings = (self.findings.into_iter())
            .map(Kept::finding)
            .collect::<Result<_, _>>()?;
        let mut result = GameResult::new(self.line, verdict, findings);
        result.tags = self.tags;
        result.fingerprint = self.fingerprint;
        result.by_initials = self.by_initials;
        result.folded = self.folded;
        let (named, not_read) = self.suppressions;
        result.suppressions = Suppressions::from_named(named, not_read);
        Ok(result)
    }
}

/// A writer that hashes and counts what goes through it.
struct Hashing<W: Write> {
    out: W,
    hash: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes records to a sealed file: its first line, the zstd stream, and
/// the seal once finished.
pub struct Records<W: Write> {
    out: zstd::stream::write::Encoder<'static, Hashing<W>>,
    buf: Vec<u8>,
    /// Records after the header.
    records: u64,
    /// The bytes before the stream.
    line: u64,
}

impl<W: Write> Records<W> {
    fn new(out: W, form: Form) -> io::Result<Records<W>> {
        let mut out = Hashing {
            out,
            hash: Sha256::new(),
            bytes: 0,
        };
        out.write_all(form.line())?;
        Ok(Records {
            out: zstd::stream::write::Encoder::new(out, 1)?,
            buf: Vec::new(),
            records: 0,
            line: form.line().len() as u64,
        })
    }

    /// Writes one record; a record too large to be read back is an error.
    fn put(&mut self, value: &impl Serialize) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend_from_slice(&[0; 4]);
        self.buf = postcard::to_extend(value, buf).map_err(io::Error::other)?;
        let len = self.buf.len() - 4;
        if len > MAX_RECORD {
            return Err(io::Error::other(format!(
                "a record of {len} bytes, more than the {MAX_RECORD} a reader takes"
            )));
        }
        let len = u32::try_from(len).map_err(io::Error::other)?;
        self.buf[..4].copy_from_slice(&len.to_le_bytes());
        self.out.write_all(&self.buf)
    }

    /// Ends the stream and writes the seal; the writer it went to.
    pub fn finish(self) -> io::Result<W> {
        self.sealed(true)
    }

    /// Ends the stream and writes the seal, saying whether the input was
    /// read whole; the writer it went to.
    fn sealed(self, whole: bool) -> io::Result<W> {
        let Hashing {
            mut out,
            mut hash,
            bytes,
        } = self.out.finish()?;
        let stream = bytes - self.line;
        let mut seal = Vec::with_capacity(SEAL_BYTES);
        seal.extend_from_slice(if whole { SEAL_MARK } else { CUT_MARK });
        seal.extend_from_slice(&self.records.saturating_sub(1).to_le_bytes());
        seal.extend_from_slice(&stream.to_le_bytes());
        hash.update(&seal[..24]);
        seal.extend_from_slice(&hash.finalize());
        out.write_all(&seal)?;
        out.flush()?;
        Ok(out)
    }

    /// Starts an across file, written by `version`, of the games of the
    /// results file sealed with `results` ([`Reader::digest`]), which have
    /// `games_before` games of their input before them.
    pub fn across(
        out: W,
        version: &str,
        results: [u8; 32],
        games_before: u64,
    ) -> io::Result<Records<W>> {
        let mut records = Records::new(out, Form::Across)?;
        records.put(&AcrossHeader {
            version: version.to_owned(),
            results,
            games_before,
        })?;
        records.records += 1;
        Ok(records)
    }

    /// Adds a game's run-wide findings to an across file.
    pub fn across_game(&mut self, game: &AcrossGame) -> io::Result<()> {
        self.put(game)?;
        self.records += 1;
        Ok(())
    }
}

/// Reads the records of a sealed file.
pub struct Reader {
    input: zstd::stream::read::Decoder<'static, BufReader<io::Take<File>>>,
    buf: Vec<u8>,
    /// What the seal says, and the records read so far (the header too).
    seal: Seal,
    read: u64,
    /// The bytes before the stream.
    line: u64,
}

impl Reader {
    /// Opens `path`, a whole file of `form` ([`verify`]), and reads its
    /// header, which must be one written by `version`.
    fn open<H: DeserializeOwned>(
        path: &Path,
        form: Form,
        version: &str,
        written_by: impl Fn(&H) -> &str,
    ) -> Result<(Reader, H), String> {
        // The file checked is the file read: one handle for both.
        let mut file = File::open(path).map_err(|e| e.to_string())?;
        let seal = verify(&mut file, form)?;
        let line = form.line().len() as u64;
        file.seek(SeekFrom::Start(line))
            .map_err(|e| e.to_string())?;
        let mut input =
            zstd::stream::read::Decoder::new(file.take(seal.stream)).map_err(|e| e.to_string())?;
        // The window a frame may ask for: the writer's level 1 asks for
        // 512 KiB; a frame that wants more is refused, not allocated.
        input
            .window_log_max(WINDOW_LOG_MAX)
            .map_err(|e| e.to_string())?;
        let mut reader = Reader {
            input,
            buf: Vec::new(),
            seal,
            read: 0,
            line,
        };
        let header: H = reader.next()?.ok_or_else(|| form.not_this())?;
        let by = written_by(&header);
        if by != version {
            return Err(format!(
                "written by pgn-arbiter {by}, and this is {version}: make it again with this one"
            ));
        }
        Ok((reader, header))
    }

    /// The next record's bytes, or `None` at the end of the stream, where
    /// the records read must be those the seal counts.
    fn next_bytes(&mut self) -> Result<Option<&[u8]>, String> {
        let mut len = [0u8; 4];
        match read_up_to(&mut self.input, &mut len).map_err(|e| e.to_string())? {
            0 if self.read == self.seal.records + 1 => return Ok(None),
            0 => {
                return Err(format!(
                    "{} records where its seal counts {}",
                    self.read.saturating_sub(1),
                    self.seal.records
                ));
            }
            4 => {}
            _ => return Err("cut short within a record".to_owned()),
        }
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_RECORD {
            return Err(format!(
                "a record of {len} bytes, more than the {MAX_RECORD} any is"
            ));
        }
        self.read += 1;
        if self.read > self.seal.records + 1 {
            return Err(format!(
                "more records than the {} its seal counts",
                self.seal.records
            ));
        }
        self.buf.resize(len, 0);
        self.input
            .read_exact(&mut self.buf)
            .map_err(|e| format!("cut short within a record: {e}"))?;
        Ok(Some(&self.buf))
    }

    /// The next record, or `None` at the end.
    fn next<T: DeserializeOwned>(&mut self) -> Result<Option<T>, String> {
        match self.next_bytes()? {
            None => Ok(None),
            Some(bytes) => postcard::from_bytes(bytes)
                .map(Some)
                .map_err(|e| format!("a damaged record: {e}")),
        }
    }

    /// Opens a results file written by `version`: its header and a reader
    /// of its games ([`next_game`](Self::next_game)).
    pub fn results(path: &Path, version: &str) -> Result<(Reader, Header), String> {
        Reader::open(path, Form::Results, version, |h: &Header| &h.version)
    }

    /// Opens an across file written by `version` for the games of the
    /// results file sealed with `results`, which have `games_before` games
    /// of their input before them: a reader of its games
    /// ([`next_across`](Self::next_across)). An across file made for other
    /// results (another shard's, or these kept again) or other numbers is
    /// refused.
    pub fn across(
        path: &Path,
        version: &str,
        results: [u8; 32],
        games_before: u64,
    ) -> Result<Reader, String> {
        let (reader, header) =
            Reader::open(path, Form::Across, version, |h: &AcrossHeader| &h.version)?;
        if header.results != results {
            return Err(
                "it was made for another results file (another shard's, or these results kept again): make it again with `pgn-arbiter across`"
                    .to_owned(),
            );
        }
        if header.games_before != games_before {
            return Err(format!(
                "it numbers its games from {}, and this rendering from {} (--game-offset {games_before})",
                header.games_before + 1,
                games_before + 1
            ));
        }
        Ok(reader)
    }

    /// The SHA-256 its seal holds: what an across file made for its games
    /// names it by.
    pub fn digest(&self) -> [u8; 32] {
        self.seal.digest
    }

    /// Whether its input was read whole when it was kept.
    pub fn whole(&self) -> bool {
        self.seal.whole
    }

    /// The games its seal counts.
    pub fn games(&self) -> u64 {
        self.seal.records
    }

    /// The bytes of the file read so far (for a progress bar).
    pub fn position(&mut self) -> u64 {
        let left = self.input.get_mut().get_mut().limit();
        self.line + self.seal.stream - left
    }

    /// A results file's next game.
    pub fn next_game(&mut self) -> Result<Option<GameResult>, String> {
        self.next::<Game>()?.map(Game::result).transpose()
    }

    /// An across file's next game.
    pub fn next_across(&mut self) -> Result<Option<AcrossGame>, String> {
        self.next()
    }
}

/// A file sealed as `pgn-arbiter across` (else `--keep-results`,
/// `results`) seals one: the header this build (`version`) writes, then
/// `body` as it is, well-formed records or not, counted as `records`. For
/// the fuzz target and the tests, which reach the reading of records this
/// way (a changed byte is refused before it). The seal proves a file whole
/// and unchanged since it was written, not who wrote it: anyone can seal
/// a file, so what is read behind it is bounded as any input is.
pub fn sealed_around(
    results: bool,
    version: &str,
    records: u64,
    body: &[u8],
) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut sealed = if results {
        let mut writer = Records::new(&mut out, Form::Results)?;
        writer.put(&Header {
            version: version.to_owned(),
            input: "fuzz.pgn".to_owned(),
            edition: "fide-2023".to_owned(),
            duplicates: true,
        })?;
        writer
    } else {
        Records::across(&mut out, version, [0; 32], 0)?
    };
    sealed.records = records.saturating_add(1);
    sealed.out.write_all(body)?;
    sealed.finish()?;
    Ok(out)
}

/// Where `--keep-results` writes: a results file, its header first.
pub struct ResultsWriter {
    records: Records<Box<dyn Write + Send>>,
}

impl std::fmt::Debug for ResultsWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResultsWriter")
    }
}

impl ResultsWriter {
    /// Starts a results file of `input`'s games, written by `version`.
    pub fn new(
        out: Box<dyn Write + Send>,
        version: &str,
        input: &str,
        edition: Edition,
        duplicates: bool,
    ) -> io::Result<ResultsWriter> {
        let mut records = Records::new(out, Form::Results)?;
        records.put(&Header {
            version: version.to_owned(),
            input: input.to_owned(),
            edition: edition.name().to_owned(),
            duplicates,
        })?;
        records.records += 1;
        Ok(ResultsWriter { records })
    }

    /// Keeps one game's result.
    pub fn game(&mut self, game: &GameResult) -> io::Result<()> {
        self.records.put(&Game::of(game))?;
        self.records.records += 1;
        Ok(())
    }

    /// Ends the stream, writes the seal and flushes it; `whole`: whether
    /// the input was read to its end (else the results are the games read
    /// before the damage, and a rendering of them says so).
    pub fn finish(self, whole: bool) -> io::Result<()> {
        self.records.sealed(whole).map(drop)
    }
}

#[cfg(test)]
mod tests;
