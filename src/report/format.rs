//! The findings report in the forms its readers take it in
//! (`--output-format`): CSV for spreadsheets and scripts; one line a
//! finding for a terminal (`concise`); JSON lines for programs; workflow
//! commands for GitHub Actions (`github`); SARIF 2.1.0 for code-scanning
//! uploads; JUnit XML (one test case per game with findings) for GitLab and
//! Jenkins. Every form is written as the findings come, a game at a time:
//! none holds more than one game's findings.

use std::{
    borrow::Cow,
    io::{self, BufWriter, Seek, SeekFrom, Write},
};

use serde::Serialize;

use crate::{
    finding::{Kind, Severity},
    read::{game::TagValues, tags::Tag},
    report::cell::cell,
};

/// The findings report's columns, in order.
pub const FINDINGS_HEADER: [&str; 17] = [
    "file", "game", "line", "white", "black", "date", "round", "result", "ply", "move", "san",
    "severity", "code", "rule", "message", "fen", "game_id",
];

/// A form of the findings report (`--output-format`, whose values are
/// these names in kebab case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One CSV row a finding, cells safe for a spreadsheet.
    Csv,
    /// `file:line:1: code [severity] game N: message`, one line a finding.
    Concise,
    /// One JSON object a line, with the CSV's columns.
    JsonLines,
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`).
    Github,
    /// One SARIF 2.1.0 log.
    Sarif,
    /// JUnit XML: a test suite per input, a test case per game with
    /// findings.
    Junit,
    /// Parquet (zstd): the CSV's columns, numbers as numbers, text as the
    /// input has it; the games report too. Files only.
    Parquet,
}

impl Format {
    /// The name `--output-format` takes.
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// One finding and where it is: the findings report's columns, as the
/// input has them (each form makes them safe in its own way).
#[derive(Debug, Clone, Copy)]
pub struct Located<'a> {
    /// The input's name (`-`: standard input; a TRF's, for its own rows).
    pub file: &'a str,
    /// The game's number in the input (0: a row of the TRF itself).
    pub game: u64,
    /// The line the finding is about.
    pub line: u64,
    /// The game's tags (none for a row of the TRF itself).
    pub tags: TagValues<'a>,
    /// The ply of the move it is about.
    pub ply: Option<u32>,
    /// The move's number (`23.` or `23...`).
    pub number: &'a str,
    /// The move as written.
    pub san: &'a str,
    /// Its kind.
    pub kind: Kind,
    /// The rule, as the run's edition cites it.
    pub rule: &'a str,
    /// What was found.
    pub message: &'a str,
    /// The position it is about, as FEN.
    pub fen: &'a str,
    /// The game's `game_id`.
    pub game_id: &'a str,
}

/// A row of the findings report: a CSV row (and a baseline's), with its
/// cells made safe for a spreadsheet, or a JSON line, as the input has
/// them.
#[derive(Serialize)]
pub(super) struct FindingRow<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    white: &'a str,
    black: &'a str,
    date: &'a str,
    round: &'a str,
    result: &'a str,
    ply: Option<u32>,
    #[serde(rename = "move")]
    number: &'a str,
    san: &'a str,
    severity: &'a str,
    code: &'a str,
    rule: &'a str,
    message: &'a str,
    fen: &'a str,
    game_id: &'a str,
}

/// The findings report's columns as Parquet has them.
fn findings_fields() -> Vec<arrow_schema::FieldRef> {
    use arrow_schema::DataType;
    super::parquet::fields(
        &FINDINGS_HEADER,
        &[
            ("game", DataType::UInt64, false),
            ("line", DataType::UInt64, false),
            ("ply", DataType::UInt32, true),
        ],
    )
}

/// Serialises `f` as one row, each text cell through `text` (made safe
/// for a spreadsheet, or as it is).
fn serialize_row<'a, T>(
    f: &Located<'a>,
    text: impl Fn(&'a str) -> Cow<'a, str>,
    write: impl FnOnce(&FindingRow<'_>) -> T,
) -> T {
    write(&FindingRow {
        file: &text(f.file),
        game: f.game,
        line: f.line,
        white: &text(f.tags.get(Tag::White)),
        black: &text(f.tags.get(Tag::Black)),
        date: &text(f.tags.get(Tag::Date)),
        round: &text(f.tags.get(Tag::Round)),
        result: &text(f.tags.get(Tag::Result)),
        ply: f.ply,
        number: f.number,
        san: &text(f.san),
        severity: f.kind.severity().as_str(),
        code: f.kind.code(),
        rule: f.rule,
        message: &text(f.message),
        fen: &text(f.fen),
        game_id: f.game_id,
    })
}

/// Writes `f` as a CSV row, its cells made safe for a spreadsheet unless
/// `raw`.
pub(super) fn write_csv<W: Write>(
    w: &mut csv::Writer<W>,
    f: &Located<'_>,
    raw: bool,
) -> csv::Result<()> {
    serialize_row(f, |t| cell(t, raw), |row| w.serialize(row))
}

/// The findings report, in one of its forms.
pub struct FindingsWriter {
    form: Form,
}

enum Form {
    Csv {
        w: csv::Writer<Box<dyn Write + Send>>,
        raw: bool,
        /// The header, not yet written: with the first row, or at the end
        /// of a run that read a game (a run that read nothing writes
        /// nothing).
        header: bool,
    },
    Parquet(super::parquet::ParquetRows),
    Text {
        w: BufWriter<Box<dyn Write + Send>>,
        format: Format,
        /// SARIF: whether a result has been written (a comma comes first).
        written: bool,
        /// JUnit: the input's test suite that is open, and the game whose
        /// test case is being gathered.
        suite: Option<Suite>,
        case: Option<Case>,
        /// JUnit: a finding at or above this fails its test case.
        fail_on: Option<Severity>,
    },
}

impl FindingsWriter {
    /// Starts the report on `out`: its CSV header (when `header`), SARIF's
    /// opening with every rule, JUnit's root element. `raw`: CSV cells as
    /// they are; `fail_on`: what fails a JUnit test case.
    pub fn new(
        out: Box<dyn Write + Send>,
        format: Format,
        raw: bool,
        header: bool,
        fail_on: Option<Severity>,
    ) -> csv::Result<FindingsWriter> {
        let form = if format == Format::Parquet {
            Form::Parquet(super::parquet::ParquetRows::new(out, &findings_fields())?)
        } else if format == Format::Csv {
            let w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out);
            Form::Csv { w, raw, header }
        } else {
            let mut w = BufWriter::with_capacity(1 << 16, out);
            match format {
                Format::Sarif => sarif_start(&mut w)?,
                Format::Junit => {
                    w.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
                    w.write_all(b"<testsuites name=\"pgn-arbiter\">\n")?;
                }
                _ => {}
            }
            Form::Text {
                w,
                format,
                written: false,
                suite: None,
                case: None,
                fail_on,
            }
        };
        Ok(FindingsWriter { form })
    }

    /// Whether the report is Parquet (and so the games report too).
    pub fn is_parquet(&self) -> bool {
        matches!(self.form, Form::Parquet(_))
    }

    /// Writes one finding.
    pub fn finding(&mut self, f: &Located<'_>) -> csv::Result<()> {
        let (w, format, written, suite, case, fail_on) = match &mut self.form {
            Form::Csv { w, raw, header } => {
                if std::mem::take(header) {
                    w.write_record(FINDINGS_HEADER)?;
                }
                return write_csv(w, f, *raw);
            }
            Form::Parquet(rows) => {
                return serialize_row(f, Cow::Borrowed, |row| rows.push(row)).map_err(Into::into);
            }
            Form::Text {
                w,
                format,
                written,
                suite,
                case,
                fail_on,
            } => (w, *format, written, suite, case, *fail_on),
        };
        match format {
            Format::Csv | Format::Parquet => {}
            // `file:line:column:` as editors and compilers write it (the
            // column is not known: 1), then the code as ruff writes it.
            Format::Concise => writeln!(
                w,
                "{}:{}:1: {} [{}] game {}: {}",
                terminal(f.file),
                f.line,
                f.kind.code(),
                f.kind.severity(),
                f.game,
                terminal(f.message)
            )?,
            Format::JsonLines => {
                serialize_row(f, Cow::Borrowed, |row| serde_json::to_writer(&mut *w, row))
                    .map_err(io::Error::from)?;
                w.write_all(b"\n")?;
            }
            Format::Github => github(w, f)?,
            Format::Sarif => {
                if std::mem::replace(written, true) {
                    w.write_all(b",\n")?;
                }
                serde_json::to_writer(&mut *w, &sarif_result(f)).map_err(io::Error::from)?;
            }
            Format::Junit => junit_finding(w, suite, case, f, fail_on)?,
        }
        Ok(())
    }

    /// The game whose findings were written last has no more.
    pub fn end_game(&mut self) -> csv::Result<()> {
        if let Form::Text { suite, case, .. } = &mut self.form
            && let (Some(done), Some(suite)) = (case.take(), suite)
        {
            suite.case(&done)?;
        }
        Ok(())
    }

    /// Closes the report (the CSV header of a report with no row, when
    /// `any` game was read; SARIF's and JUnit's closing) and flushes it.
    pub fn finish(&mut self, any: bool) -> io::Result<()> {
        self.end_game().map_err(io::Error::other)?;
        match &mut self.form {
            Form::Csv { w, header, .. } => {
                if std::mem::take(header) && any {
                    w.write_record(FINDINGS_HEADER)?;
                }
                w.flush()
            }
            Form::Parquet(rows) => rows.finish(),
            Form::Text {
                w, format, suite, ..
            } => {
                match format {
                    Format::Sarif => w.write_all(b"\n]}]}\n")?,
                    Format::Junit => {
                        if let Some(suite) = suite.take() {
                            suite.write(w)?;
                        }
                        w.write_all(b"</testsuites>\n")?;
                    }
                    _ => {}
                }
                w.flush()
            }
        }
    }
}

/// Text for a terminal or a CI log: control characters (line ends, escape
/// sequences) become U+FFFD, so a finding stays on its line and no input
/// can drive the terminal.
fn terminal(text: &str) -> Cow<'_, str> {
    if text.chars().any(char::is_control) {
        Cow::Owned(
            text.chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// Where the finding is, in words: the game and the move.
fn whereabouts(f: &Located<'_>) -> String {
    let mut at = format!("game {}", f.game);
    if !f.san.is_empty() {
        at.push_str(&format!(", {}{}", f.number, f.san));
    }
    at
}

/// A GitHub Actions workflow command: `::error file=F,line=L,title=CODE::`
/// then the game, the move and the message. Severities map to `error`,
/// `warning` and `notice`.
fn github(w: &mut impl Write, f: &Located<'_>) -> io::Result<()> {
    let level = match f.kind.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let message = format!("{}: {} ({})", whereabouts(f), f.message, f.rule);
    write!(w, "::{level} file={}", github_escape(f.file, true))?;
    if f.line > 0 {
        write!(w, ",line={}", f.line)?;
    }
    writeln!(
        w,
        ",title={}::{}",
        github_escape(f.kind.code(), true),
        github_escape(&message, false)
    )
}

/// GitHub's escapes for a workflow command: `%`, CR and LF in the message,
/// and also `:` and `,` in a property; other control characters become
/// U+FFFD.
fn github_escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// SARIF's level for a severity.
fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// SARIF's opening: the tool, with every rule (code) it can report, then
/// the results array opened.
fn sarif_start(w: &mut impl Write) -> io::Result<()> {
    let rules: Vec<serde_json::Value> = Kind::ALL
        .iter()
        .map(|k| {
            serde_json::json!({
                "id": k.code(),
                "shortDescription": {"text": k.description()},
                "defaultConfiguration": {"level": sarif_level(k.severity())},
            })
        })
        .collect();
    let driver = serde_json::json!({
        "name": "pgn-arbiter",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    w.write_all(
        b"{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":",
    )?;
    serde_json::to_writer(&mut *w, &driver).map_err(io::Error::from)?;
    w.write_all(b"},\"columnKind\":\"unicodeCodePoints\",\"results\":[\n")
}

/// One SARIF result: the code as its rule, the input and line as its
/// location, the game's id as its fingerprint, the other columns as
/// properties.
fn sarif_result(f: &Located<'_>) -> serde_json::Value {
    let index = Kind::ALL.iter().position(|k| *k == f.kind).unwrap_or(0);
    let mut location = serde_json::json!({
        "physicalLocation": {"artifactLocation": {"uri": uri_reference(f.file)}},
    });
    if f.line > 0 {
        location["physicalLocation"]["region"] = serde_json::json!({"startLine": f.line});
    }
    let mut result = serde_json::json!({
        "ruleId": f.kind.code(),
        "ruleIndex": index,
        "level": sarif_level(f.kind.severity()),
        "message": {"text": format!("{}: {}", whereabouts(f), f.message)},
        "locations": [location],
        "properties": {
            "game": f.game,
            "white": f.tags.get(Tag::White),
            "black": f.tags.get(Tag::Black),
            "date": f.tags.get(Tag::Date),
            "round": f.tags.get(Tag::Round),
            "result": f.tags.get(Tag::Result),
            "ply": f.ply,
            "move": f.number,
            "san": f.san,
            "rule": f.rule,
            "fen": f.fen,
        },
    });
    if !f.game_id.is_empty() {
        result["partialFingerprints"] = serde_json::json!({"gameId/v1": f.game_id});
    }
    result
}

/// A path as a URI reference: bytes other than unreserved ones and `/`
/// percent-encoded; an absolute path as a `file://` URI.
fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Text for XML: the five escapes, and characters XML 1.0 does not allow
/// as U+FFFD.
fn xml(text: &str) -> Cow<'_, str> {
    let plain = |c: char| {
        !matches!(c, '&' | '<' | '>' | '"' | '\'') && (!c.is_control() || c == '\t' || c == '\n')
    };
    if text.chars().all(plain) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// JUnit: the cases of a suite held in memory before they spill to a
/// temporary file: the suite's counts come first, in its opening tag.
const HELD: usize = 1 << 20;

/// An input's test suite: its cases, written once the last is known.
struct Suite {
    file: String,
    cases: tempfile::SpooledTempFile,
    tests: u64,
    failures: u64,
}

impl Suite {
    fn new(file: &str) -> Suite {
        Suite {
            file: file.to_owned(),
            cases: tempfile::SpooledTempFile::new(HELD),
            tests: 0,
            failures: 0,
        }
    }

    /// Writes a game's test case: failed when a finding reached
    /// `--fail-on` (the first such one its message), every finding in its
    /// text.
    fn case(&mut self, case: &Case) -> io::Result<()> {
        let name = if case.game == 0 {
            "the tournament report".to_owned()
        } else {
            format!("game {}: {} - {}", case.game, case.white, case.black)
        };
        let mut w = Vec::new();
        writeln!(
            w,
            "<testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\">",
            xml(&case.file),
            xml(&name),
            xml(&case.file),
            case.line
        )?;
        if case.failed {
            writeln!(
                w,
                "<failure message=\"{}\">{}</failure>",
                xml(&case.first),
                xml(&case.text)
            )?;
        } else {
            writeln!(w, "<system-out>{}</system-out>", xml(&case.text))?;
        }
        w.extend_from_slice(b"</testcase>\n");
        self.tests += 1;
        self.failures += u64::from(case.failed);
        (self.cases.write_all(&w)).map_err(|e| {
            io::Error::other(format!(
                "the temporary file that holds a JUnit suite's test cases: {e}"
            ))
        })
    }

    /// Writes the suite, its counts in its opening tag.
    fn write(mut self, w: &mut impl Write) -> io::Result<()> {
        writeln!(
            w,
            "<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">",
            xml(&self.file),
            self.tests,
            self.failures
        )?;
        self.cases.seek(SeekFrom::Start(0))?;
        io::copy(&mut self.cases, w)?;
        w.write_all(b"</testsuite>\n")
    }
}

/// A test case being gathered: one game's findings.
struct Case {
    file: String,
    game: u64,
    line: u64,
    white: String,
    black: String,
    failed: bool,
    first: String,
    text: String,
}

/// JUnit: adds a finding to its game's test case, opening the input's test suite
/// (and writing the one before) and closing the case of the game before.
fn junit_finding(
    w: &mut impl Write,
    suite: &mut Option<Suite>,
    case: &mut Option<Case>,
    f: &Located<'_>,
    fail_on: Option<Severity>,
) -> io::Result<()> {
    if case
        .as_ref()
        .is_some_and(|c| c.game != f.game || c.file != f.file)
        && let (Some(done), Some(open)) = (case.take(), suite.as_mut())
    {
        open.case(&done)?;
    }
    if suite.as_ref().is_none_or(|s| s.file != f.file) {
        let done = suite.replace(Suite::new(f.file));
        done.map_or(Ok(()), |done| done.write(w))?;
    }
    let case = case.get_or_insert_with(|| Case {
        file: f.file.to_owned(),
        game: f.game,
        line: f.line,
        white: f.tags.get(Tag::White).to_owned(),
        black: f.tags.get(Tag::Black).to_owned(),
        failed: false,
        first: String::new(),
        text: String::new(),
    });
    let severity = f.kind.severity();
    if fail_on.is_some_and(|at| severity >= at) && !case.failed {
        case.failed = true;
        case.first = format!("{severity} {}: {}", f.kind.code(), f.message);
    }
    case.text.push_str(&format!(
        "line {}: {severity} {} ({}): {}\n",
        f.line,
        f.kind.code(),
        f.rule,
        f.message
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_keep_each_form_whole() {
        assert_eq!(terminal("a\nb\x1b[31m"), "a\u{fffd}b\u{fffd}[31m");
        assert_eq!(github_escape("50%, a:b\r\n", true), "50%25%2C a%3Ab%0D%0A");
        assert_eq!(github_escape("50%, a:b\n", false), "50%25, a:b%0A");
        assert_eq!(
            xml("<a & 'b'>\"\x07"),
            "&lt;a &amp; &apos;b&apos;&gt;&quot;\u{fffd}"
        );
        assert_eq!(uri_reference("dir/a b#1.pgn"), "dir/a%20b%231.pgn");
        assert_eq!(uri_reference("/tmp/é.pgn"), "file:///tmp/%C3%A9.pgn");
    }
}
