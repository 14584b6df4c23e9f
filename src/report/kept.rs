//! Games kept for later instead of reported (`--keep-results`), and the
//! run-wide findings `pgn-arbiter across` finds for them: the files that
//! carry a shard's games from its audit to its reports
//! ([`run::results`](crate::run::results) says how they are used).
//!
//! Both are zstd streams of records, each a little-endian `u32` length and
//! a postcard-encoded value: a header, then one record a game (results) or
//! a game with run-wide findings (across). Only the build that wrote a file
//! reads it.

use std::{
    fs::File,
    io::{self, BufReader, Read, Write},
    path::Path,
};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use shakmaty::{Color, KnownOutcome};

use super::{GameResult, TagColumns};
use crate::{
    board::rules::Edition,
    checks::{
        suppress::Suppressions,
        verdict::{BoardEnd, HowEnded, Verdict},
    },
    finding::{Finding, Kept},
};

/// What a results file says it is, first: its kind, then the form of its
/// records (2: findings keep the clocks they concern).
const RESULTS: &str = "pgn-arbiter results 2";
/// What an across file says it is, first.
const ACROSS: &str = "pgn-arbiter across 2";

/// A record larger than this is taken for a damaged file.
const MAX_RECORD: usize = 1 << 28;

/// The first record of a results file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    /// [`RESULTS`].
    form: String,
    /// The version of the pgn-arbiter that wrote it.
    version: String,
    /// The input's name, as the reports give it.
    pub input: String,
    /// The rule edition the games were judged under.
    pub edition: String,
    /// Whether the games have their fingerprints (not with
    /// `--no-duplicates`).
    pub duplicates: bool,
}

/// The first record of an across file.
#[derive(Debug, Serialize, Deserialize)]
struct AcrossHeader {
    /// [`ACROSS`].
    form: String,
    /// The version of the pgn-arbiter that wrote it.
    version: String,
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
    folded: [Option<u64>; 2],
    findings: Vec<Kept>,
    suppressions: (Vec<(u64, String)>, u64),
}

/// A game's run-wide findings, as an across file keeps them.
#[derive(Debug, Serialize, Deserialize)]
pub struct AcrossGame {
    /// Its number in its input.
    pub number: u64,
    /// Its first line: a check that it is the game rendered as `number`.
    pub line: u64,
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

fn outcome_code(outcome: Option<KnownOutcome>) -> Option<u8> {
    outcome.map(|o| match o {
        KnownOutcome::Draw => 0,
        KnownOutcome::Decisive {
            winner: Color::White,
        } => 1,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => 2,
    })
}

fn outcome(code: Option<u8>) -> Result<Option<KnownOutcome>, String> {
    code.map(|c| match c {
        0 => Ok(KnownOutcome::Draw),
        1 => Ok(KnownOutcome::Decisive {
            winner: Color::White,
        }),
        2 => Ok(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
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
        result.folded = self.folded;
        let (named, not_read) = self.suppressions;
        result.suppressions = Suppressions::from_named(named, not_read);
        Ok(result)
    }
}

/// Writes records to a zstd stream.
pub struct Records<W: Write> {
    out: zstd::stream::write::Encoder<'static, W>,
    buf: Vec<u8>,
}

impl<W: Write> Records<W> {
    fn new(out: W) -> io::Result<Records<W>> {
        Ok(Records {
            out: zstd::stream::write::Encoder::new(out, 1)?,
            buf: Vec::new(),
        })
    }

    fn put(&mut self, value: &impl Serialize) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend_from_slice(&[0; 4]);
        self.buf = postcard::to_extend(value, buf).map_err(io::Error::other)?;
        let len = u32::try_from(self.buf.len() - 4).map_err(io::Error::other)?;
        self.buf[..4].copy_from_slice(&len.to_le_bytes());
        self.out.write_all(&self.buf)
    }

    /// Ends the stream; the writer it went to.
    pub fn finish(self) -> io::Result<W> {
        self.out.finish()
    }

    /// Starts an across file, written by `version`.
    pub fn across(out: W, version: &str) -> io::Result<Records<W>> {
        let mut records = Records::new(out)?;
        records.put(&AcrossHeader {
            form: ACROSS.to_owned(),
            version: version.to_owned(),
        })?;
        Ok(records)
    }

    /// Adds a game's run-wide findings to an across file.
    pub fn across_game(&mut self, game: &AcrossGame) -> io::Result<()> {
        self.put(game)
    }
}

/// Reads the records of a zstd stream.
pub struct Reader {
    input: zstd::stream::read::Decoder<'static, BufReader<File>>,
    buf: Vec<u8>,
}

impl Reader {
    /// Opens `path`, checking that its header (the first record, which
    /// begins with the form's name) is a `form` one written by `version`.
    fn open<H: DeserializeOwned>(
        path: &Path,
        form: &str,
        version: &str,
        written_by: impl Fn(&H) -> &str,
    ) -> Result<(Reader, H), String> {
        let file = File::open(path).map_err(|e| e.to_string())?;
        let input = zstd::stream::read::Decoder::new(file).map_err(|e| e.to_string())?;
        let mut reader = Reader {
            input,
            buf: Vec::new(),
        };
        let not_ours = || match form {
            RESULTS => "not a results file (--keep-results writes them)".to_owned(),
            _ => "not an across file (`pgn-arbiter across` writes them)".to_owned(),
        };
        let bytes = match reader.next_bytes() {
            Ok(Some(bytes)) => bytes,
            _ => return Err(not_ours()),
        };
        let kind = |name: &str| name.rsplit_once(' ').map(|(kind, _)| kind.to_owned());
        match postcard::take_from_bytes::<(String,)>(bytes) {
            Ok(((named,), _)) if named == form => {}
            Ok(((named,), _)) if kind(&named) == kind(form) => {
                return Err(format!(
                    "kept in another form ('{named}') by another build of pgn-arbiter; this one reads '{form}': make it again with this one"
                ));
            }
            _ => return Err(not_ours()),
        }
        let header: H = postcard::from_bytes(bytes).map_err(|_| not_ours())?;
        let by = written_by(&header);
        if by != version {
            return Err(format!(
                "written by pgn-arbiter {by}, and this is {version}: make it again with this one"
            ));
        }
        Ok((reader, header))
    }

    /// The next record's bytes, or `None` at the end.
    fn next_bytes(&mut self) -> Result<Option<&[u8]>, String> {
        let mut len = [0u8; 4];
        match self.input.read(&mut len[..1]) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        self.input
            .read_exact(&mut len[1..])
            .map_err(|e| format!("cut short: {e}"))?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_RECORD {
            return Err(format!("a record of {len} bytes"));
        }
        self.buf.resize(len, 0);
        self.input
            .read_exact(&mut self.buf)
            .map_err(|e| format!("cut short: {e}"))?;
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
        Reader::open(path, RESULTS, version, |h: &Header| &h.version)
    }

    /// Opens an across file written by `version`: a reader of its games
    /// ([`next_across`](Self::next_across)).
    pub fn across(path: &Path, version: &str) -> Result<Reader, String> {
        let (reader, _) = Reader::open(path, ACROSS, version, |h: &AcrossHeader| &h.version)?;
        Ok(reader)
    }

    /// The bytes of the file read so far (for a progress bar).
    pub fn position(&mut self) -> u64 {
        use std::io::Seek;
        let file = self.input.get_mut().get_mut();
        file.stream_position().unwrap_or(0)
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
        let mut records = Records::new(out)?;
        records.put(&Header {
            form: RESULTS.to_owned(),
            version: version.to_owned(),
            input: input.to_owned(),
            edition: edition.name().to_owned(),
            duplicates,
        })?;
        Ok(ResultsWriter { records })
    }

    /// Keeps one game's result.
    pub fn game(&mut self, game: &GameResult) -> io::Result<()> {
        self.records.put(&Game::of(game))
    }

    /// Ends the stream and flushes it.
    pub fn finish(self) -> io::Result<()> {
        self.records.finish()?.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_comes_back_as_it_was_kept() {
        let pgn = b"[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {pgn-arbiter: ignore duplicate-game nonsense} 0-1\n";
        let game = crate::testing::checked(pgn);
        assert!(!game.findings.is_empty());
        assert!(!game.suppressions.is_empty());
        let back = Game::of(&game).result().unwrap();
        assert_eq!(back.findings, game.findings);
        assert_eq!(back.suppressions, game.suppressions);
        assert_eq!(back.fingerprint, game.fingerprint);
        assert_eq!(back.folded, game.folded);
        assert!(game.folded[0].is_some());
        assert_eq!(back.verdict.expected, game.verdict.expected);
        assert_eq!(back.verdict.board_end, game.verdict.board_end);
        assert_eq!(back.verdict.how_ended, game.verdict.how_ended);
        assert_eq!(back.verdict.plies, game.verdict.plies);
        assert_eq!(back.line, game.line);
        assert_eq!(back.white(), "A");
        assert_eq!(back.result(), "1-0");
    }

    /// A clock finding keeps the clocks the page shows beside its moves.
    #[test]
    fn a_clock_finding_comes_back_with_its_clocks() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[TimeControl \"60+0\"]\n\n1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} 2. Nf3 {[%clk 0:00:58]} Nc6 {[%clk 0:00:59]} 3. Bc4 {[%clk 0:00:57]} Nf6 {[%clk 0:01:30]} *\n";
        let game = crate::testing::checked(pgn);
        let rises = game
            .findings
            .iter()
            .find(|f| f.kind == crate::finding::Kind::ClockRises)
            .expect("Black's clock rises");
        let strip = rises.clocks.as_deref().expect("its clocks");
        assert_eq!(
            strip
                .rows
                .iter()
                .map(|r| (r.mv.as_str(), r.clock.as_str(), r.marked))
                .collect::<Vec<_>>(),
            [
                ("2...Nc6", "0:00:59", true),
                ("3.Bc4", "0:00:57", false),
                ("3...Nf6", "0:01:30", true)
            ]
        );
        let back = Game::of(&game).result().unwrap();
        assert_eq!(back.findings, game.findings);
    }

    /// A file of an older form is refused as such, not read wrong.
    #[test]
    fn a_file_of_another_form_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old");
        let mut bytes = Vec::new();
        let header = postcard::to_stdvec(&("pgn-arbiter results 1", "v1")).unwrap();
        bytes.extend_from_slice(&u32::try_from(header.len()).unwrap().to_le_bytes());
        bytes.extend_from_slice(&header);
        std::fs::write(&path, zstd::encode_all(&bytes[..], 1).unwrap()).unwrap();
        let err = Reader::results(&path, "v1").err().unwrap();
        assert!(
            err.contains("another form ('pgn-arbiter results 1')"),
            "{err}"
        );
    }

    #[test]
    fn files_are_read_back_and_others_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r");
        let game = crate::testing::checked(b"[White \"A\"]\n\n1. e4 *\n");
        let file = File::create(&path).unwrap();
        let mut out =
            ResultsWriter::new(Box::new(file), "v1", "x.pgn", Edition::Fide2000, true).unwrap();
        out.game(&game).unwrap();
        out.game(&game).unwrap();
        out.finish().unwrap();
        let (mut reader, header) = Reader::results(&path, "v1").unwrap();
        assert_eq!(
            (header.input.as_str(), header.edition.as_str()),
            ("x.pgn", "fide-2000")
        );
        assert_eq!(reader.next_game().unwrap().unwrap().white(), "A");
        assert!(reader.next_game().unwrap().is_some());
        assert!(reader.next_game().unwrap().is_none());
        let err = Reader::results(&path, "v2").err().unwrap();
        assert!(err.contains("written by pgn-arbiter v1"), "{err}");
        assert!(Reader::across(&path, "v1").is_err());
        // Cut short: an error, not the end.
        let bytes = std::fs::read(&path).unwrap();
        let cut = zstd::decode_all(&bytes[..]).unwrap();
        let short = zstd::encode_all(&cut[..cut.len() - 3], 1).unwrap();
        std::fs::write(&path, short).unwrap();
        let (mut reader, _) = Reader::results(&path, "v1").unwrap();
        assert!(reader.next_game().unwrap().is_some());
        assert!(reader.next_game().is_err());
    }
}
