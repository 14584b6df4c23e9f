//! Which findings are reported (`--select`, `--ignore`, `--baseline`).
//! What is left out here is left out everywhere: both reports, the summary
//! and the exit status.
//!
//! A finding is kept when it matches an item of `--select` (all do when it
//! is not given) and no item of `--ignore`. An item is a code, a severity
//! (`error`, `warning`, `info`) or the start of one or more codes
//! (`unclaimed-`). Then, with `--baseline`, a finding that matches a row of
//! the earlier findings report on file, game, code, ply and san is left out,
//! one row for one finding.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    path::Path,
};

use crate::{
    finding::{Kind, Severity},
    report::cell::cell,
};

/// Why `--select`, `--ignore` or `--baseline` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectionError {
    /// An item that is no code, severity or start of a code, and the code
    /// nearest to it.
    UnknownItem(String, &'static str),
    /// The baseline cannot be read as a findings report: its path and why.
    Baseline(String, String),
    /// `--select` or `--ignore` given with no item (an unset variable in a
    /// script, say): the flag.
    Empty(&'static str),
}

impl std::fmt::Display for SelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SelectionError::UnknownItem(item, nearest) => write!(
                f,
                "'{item}' is no finding code, severity (error, warning, info) or start of a code; did you mean '{nearest}'?"
            ),
            SelectionError::Baseline(path, why) => write!(f, "--baseline {path}: {why}"),
            SelectionError::Empty(flag) => write!(
                f,
                "{flag} is given with no item (an unset variable?); give codes, severities or starts of codes, such as {flag} error,unclaimed-, or leave {flag} out"
            ),
        }
    }
}

impl std::error::Error for SelectionError {}

/// One item of `--select` or `--ignore`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Code(Kind),
    Severity(Severity),
    Prefix(String),
}

impl Item {
    fn parse(text: &str) -> Result<Item, SelectionError> {
        let text = text.trim();
        if let Some(kind) = Kind::from_code(text) {
            return Ok(Item::Code(kind));
        }
        for severity in [Severity::Error, Severity::Warning, Severity::Info] {
            if severity.as_str() == text {
                return Ok(Item::Severity(severity));
            }
        }
        if !text.is_empty() && Kind::ALL.iter().any(|k| k.code().starts_with(text)) {
            return Ok(Item::Prefix(text.to_owned()));
        }
        // The nearest code, or severity (`warnings` is `warning`).
        let code = Kind::nearest(text);
        let nearest = [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .map(Severity::as_str)
            .chain([code])
            .min_by_key(|word| strsim::levenshtein(word, text))
            .unwrap_or(code);
        Err(SelectionError::UnknownItem(text.to_owned(), nearest))
    }

    fn matches(&self, kind: Kind) -> bool {
        match self {
            Item::Code(code) => *code == kind,
            Item::Severity(severity) => kind.severity() == *severity,
            Item::Prefix(prefix) => kind.code().starts_with(prefix.as_str()),
        }
    }
}

/// The longest line a baseline may have: far more than any row of a
/// findings report, whose cells are capped.
const MAX_BASELINE_LINE: usize = 1 << 20;

/// A reader that fails on a line longer than `MAX_BASELINE_LINE`, so that a
/// baseline that is no report (`/dev/zero`, a binary file) is an error in
/// bounded memory, not a record that grows until memory runs out.
struct LineBounded<R> {
    inner: R,
    since_break: usize,
}

impl<R: std::io::Read> std::io::Read for LineBounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let read = buf.get(..n).unwrap_or_default();
        match memchr::memrchr(b'\n', read) {
            Some(at) => self.since_break = n - at - 1,
            None => self.since_break += n,
        }
        if self.since_break > MAX_BASELINE_LINE {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "a line is longer than {} MiB, so it is no findings report",
                    MAX_BASELINE_LINE >> 20
                ),
            ));
        }
        Ok(n)
    }
}

/// The findings a run reports.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Which kinds are kept, by [`Kind`] order.
    kept: Vec<bool>,
    /// `--baseline`: how many rows of the earlier report each key has left.
    baseline: Option<Baseline>,
    /// The baseline's path, read again at the end (`carry_over`).
    baseline_path: Option<std::path::PathBuf>,
    /// Whether the baseline has a `game_id` column: where it has, a game
    /// with an id is matched by it alone, never by another game's tags.
    baseline_ids: bool,
    /// The kinds left out of each input (`per-file-ignores` of the
    /// settings file), one bit a kind by [`Kind`] order; empty when none.
    per_input: Vec<u128>,
}

impl Selection {
    /// Reads `--select` and `--ignore` (comma-separated lists).
    pub fn new(select: Option<&str>, ignore: Option<&str>) -> Result<Selection, SelectionError> {
        let list = |flag, text: &str| -> Result<Vec<Item>, SelectionError> {
            let items = text
                .split(',')
                .filter(|t| !t.trim().is_empty())
                .map(Item::parse)
                .collect::<Result<Vec<Item>, SelectionError>>()?;
            if items.is_empty() {
                return Err(SelectionError::Empty(flag));
            }
            Ok(items)
        };
        let select = select.map(|t| list("--select", t)).transpose()?;
        let ignore = ignore
            .map(|t| list("--ignore", t))
            .transpose()?
            .unwrap_or_default();
        let kept = Kind::ALL
            .iter()
            .map(|&kind| {
                select
                    .as_ref()
                    .is_none_or(|items| items.iter().any(|i| i.matches(kind)))
                    && !ignore.iter().any(|i| i.matches(kind))
            })
            .collect();
        Ok(Selection {
            kept,
            ..Selection::default()
        })
    }

    /// The kinds a comma-separated list names (codes, severities, starts
    /// of codes), one bit a kind by [`Kind`] order.
    pub fn kinds_in(list: &str) -> Result<u128, SelectionError> {
        let items = list
            .split(',')
            .filter(|t| !t.trim().is_empty())
            .map(Item::parse)
            .collect::<Result<Vec<Item>, SelectionError>>()?;
        Ok(Kind::ALL
            .iter()
            .filter(|&&kind| items.iter().any(|i| i.matches(kind)))
            .fold(0, |mask, &kind| mask | 1u128 << kind as usize))
    }

    /// Leaves out, of input `i`, the kinds of `per_input[i]` (bits by
    /// [`Kind`] order, [`kinds_in`](Self::kinds_in)).
    pub fn per_input(&mut self, per_input: Vec<u128>) {
        self.per_input = if per_input.iter().all(|&m| m == 0) {
            Vec::new()
        } else {
            per_input
        };
    }

    /// Whether findings of `kind` are reported for input `input`.
    pub fn keeps_in(&self, input: usize, kind: Kind) -> bool {
        self.keeps(kind)
            && self
                .per_input
                .get(input)
                .is_none_or(|&mask| mask & (1u128 << kind as usize) == 0)
    }

    /// Reads a findings report of an earlier run as the baseline. A row
    /// with a `game_id` is matched on (game_id, code, ply, san), wherever
    /// its game now stands; a row without (an older report's, a game with
    /// no id, a TRF's) on (file, white, black, date, round, result, code,
    /// ply, san), so that games inserted or removed around it change
    /// nothing, the file's path normalised (`./a/b.pgn` is `a/b.pgn`). Memory: 8 bytes of hash per
    /// distinct row, and a count of 4 in each copy of the selection.
    pub fn with_baseline(mut self, path: &Path) -> Result<Selection, SelectionError> {
        let mut keys = Vec::new();
        read_baseline(path, |row| {
            keys.push(row.key);
            self.baseline_ids |= row.ids;
            Ok(())
        })?;
        self.baseline = Some(Baseline::of(keys));
        self.baseline_path = Some(path.to_owned());
        Ok(self)
    }

    /// The baseline's rows this run cannot judge, passed to `keep` with
    /// the baseline's header and taken out of the unmatched count: rows
    /// that matched no finding and are of a code the selection leaves out,
    /// or of a file the run did not read (`inputs`, as the report names
    /// them) that is still there. Rows of a file gone (renamed or removed)
    /// or of a code this build no longer has are dropped. Returns how many
    /// rows were kept.
    pub fn carry_over(
        &mut self,
        inputs: &[&str],
        mut keep: impl FnMut(&csv::StringRecord, &csv::StringRecord) -> Result<(), String>,
    ) -> Result<u64, SelectionError> {
        let (Some(path), Some(mut counts)) = (self.baseline_path.clone(), self.baseline.take())
        else {
            return Ok(0);
        };
        let read: Vec<String> = inputs
            .iter()
            .map(|f| normal_path(&cell(f, false)))
            .collect();
        let mut kept = 0;
        let result = read_baseline(&path, |row| {
            let Some(n) = counts.left_of(row.key) else {
                return Ok(());
            };
            let Some(kind) = Kind::from_code(row.code) else {
                return Ok(());
            };
            // A file not read in this run but still there (a run over part
            // of an archive); a file gone was renamed or removed.
            let file = normal_path(row.file);
            if self.keeps(kind) && (read.contains(&file) || !Path::new(&file).exists()) {
                return Ok(());
            }
            *n -= 1;
            kept += 1;
            keep(row.headers, row.record)
        });
        self.baseline = Some(counts);
        result.map(|()| kept)
    }

    /// Whether findings of this kind are reported.
    pub fn keeps(&self, kind: Kind) -> bool {
        self.kept.get(kind as usize).copied().unwrap_or(true)
    }

    /// Whether a finding is in the baseline (and takes its row, so that a
    /// row matches one finding only): by its game's id, or, for a game with
    /// none or a baseline with none, by its file and tags. `file`, the tags and `san` are the report's texts
    /// before they are made safe for spreadsheets; `game_id` is the
    /// column's.
    pub fn in_baseline(&mut self, at: &Place<'_>, kind: Kind, ply: Option<u32>, san: &str) -> bool {
        let Some(counts) = &mut self.baseline else {
            return false;
        };
        let ply = ply.map(|p| p.to_string()).unwrap_or_default();
        let by_id = (!at.game_id.is_empty()).then(|| id_key(at.game_id, kind.code(), &ply, san));
        // A report of an older version has no ids: its rows are all keyed
        // by place.
        let by_place = (by_id.is_none() || !self.baseline_ids)
            .then(|| key(at.file, at.tags, kind.code(), &ply, san));
        for key in by_id.into_iter().chain(by_place) {
            if let Some(n) = counts.left_of(key) {
                *n -= 1;
                return true;
            }
        }
        false
    }

    /// The selection without its baseline: what `--fix` needs of it.
    pub fn without_baseline(&self) -> Selection {
        Selection {
            baseline: None,
            baseline_path: None,
            ..self.clone()
        }
    }

    /// The baseline's rows that matched no finding of the run: findings
    /// fixed since (or whose games changed), when the run read its inputs
    /// whole.
    pub fn baseline_unmatched(&self) -> Option<u64> {
        let counts = self.baseline.as_ref()?;
        Some(counts.left.iter().map(|&n| u64::from(n)).sum())
    }
}

/// The rows of a baseline by key: the distinct keys, sorted, shared by
/// every copy of the selection (8 bytes a row), and how many rows of each
/// are left to match, each copy its own (4 bytes a row).
#[derive(Debug, Clone)]
struct Baseline {
    keys: std::sync::Arc<[u64]>,
    left: Vec<u32>,
}

impl Baseline {
    /// The baseline of these rows' keys.
    fn of(mut keys: Vec<u64>) -> Baseline {
        keys.sort_unstable();
        let mut left: Vec<u32> = Vec::new();
        let mut distinct = 0;
        for i in 0..keys.len() {
            if distinct > 0 && keys[distinct - 1] == keys[i] {
                if let Some(n) = left.last_mut() {
                    *n = n.saturating_add(1);
                }
            } else {
                keys[distinct] = keys[i];
                distinct += 1;
                left.push(1);
            }
        }
        keys.truncate(distinct);
        left.shrink_to_fit();
        Baseline {
            keys: keys.into(),
            left,
        }
    }

    /// The rows of `key` left to match, when there are any.
    fn left_of(&mut self, key: u64) -> Option<&mut u32> {
        let at = self.keys.binary_search(&key).ok()?;
        self.left.get_mut(at).filter(|n| **n > 0)
    }

    /// The bytes it holds: its keys, and the counts of one copy.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.keys.len() * 8 + self.left.capacity() * 4
    }
}

/// One row of a baseline, as `read_baseline` gives it.
struct BaselineRow<'a> {
    key: u64,
    /// Whether the report has a `game_id` column.
    ids: bool,
    file: &'a str,
    code: &'a str,
    headers: &'a csv::StringRecord,
    record: &'a csv::StringRecord,
}

/// Reads a findings report of an earlier run row by row. A row with a
/// `game_id` is keyed on (game_id, code, ply, san), one without on (file,
/// white, black, date, round, result, code, ply, san).
fn read_baseline(
    path: &Path,
    mut row: impl FnMut(BaselineRow<'_>) -> Result<(), String>,
) -> Result<(), SelectionError> {
    let name = path.display().to_string();
    let fail = |why: String| SelectionError::Baseline(name.clone(), why);
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut reader = csv::Reader::from_reader(LineBounded {
        inner: std::io::BufReader::new(file),
        since_break: 0,
    });
    let headers = reader.headers().map_err(|e| fail(e.to_string()))?.clone();
    let column = |want: &str| {
        headers.iter().position(|h| h == want).ok_or_else(|| {
            fail(format!(
                "it is no findings report: it has no '{want}' column"
            ))
        })
    };
    let columns = [
        column("file")?,
        column("game")?,
        column("code")?,
        column("ply")?,
        column("san")?,
    ];
    let id_column = headers.iter().position(|h| h == "game_id");
    let tag_columns = TAG_COLUMNS.map(|c| headers.iter().position(|h| h == c));
    for record in reader.records() {
        let record = record.map_err(|e| fail(e.to_string()))?;
        let field = |i: usize| record.get(columns[i]).unwrap_or_default();
        field(1).parse::<u64>().map_err(|_| {
            let line = record.position().map_or(0, |p| p.line());
            fail(format!(
                "line {line}: the game '{}' is not a number",
                field(1)
            ))
        })?;
        let id = id_column.and_then(|i| record.get(i)).unwrap_or_default();
        // A renamed code's old name matches findings of the new.
        let written = record.get(columns[2]).unwrap_or_default();
        let code: &str = match Kind::from_code(written) {
            Some(kind) => kind.code(),
            None => written,
        };
        let key = if id.is_empty() {
            let tags = tag_columns.map(|i| i.and_then(|i| record.get(i)).unwrap_or_default());
            key(field(0), tags, code, field(3), field(4))
        } else {
            id_key(id, code, field(3), field(4))
        };
        row(BaselineRow {
            key,
            ids: id_column.is_some(),
            file: field(0),
            code,
            headers: &headers,
            record: &record,
        })
        .map_err(&fail)?;
    }
    Ok(())
}

/// Where a finding is, for the baseline.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The input's path as the report writes it.
    pub file: &'a str,
    /// The `game_id` column ("" for none).
    pub game_id: &'a str,
    /// The game's tags in the report's columns ([`TAG_COLUMNS`]).
    pub tags: [&'a str; 5],
}

/// The columns of a game's tags that a baseline row without a `game_id`
/// is matched on.
pub const TAG_COLUMNS: [&str; 5] = ["white", "black", "date", "round", "result"];

/// A path as the baseline compares it: `.` components dropped, `\` and `/`
/// alike, so that `./archive/a.pgn` and `archive/a.pgn` are one file.
fn normal_path(file: &str) -> String {
    file.replace('\\', "/")
        .split('/')
        .filter(|part| *part != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// The key a finding of a game with an id is matched on.
fn id_key(game_id: &str, code: &str, ply: &str, san: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    "game_id".hash(&mut hasher);
    game_id.hash(&mut hasher);
    code.hash(&mut hasher);
    ply.hash(&mut hasher);
    cell(san, false).hash(&mut hasher);
    hasher.finish()
}

/// The key a finding of a game with no id is matched on. File, tags and
/// san are compared as a spreadsheet-safe cell has them, so a baseline
/// written with or without `--raw-csv` matches alike.
fn key(file: &str, tags: [&str; 5], code: &str, ply: &str, san: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    normal_path(&cell(file, false)).hash(&mut hasher);
    tags.map(|tag| cell(tag, false)).hash(&mut hasher);
    code.hash(&mut hasher);
    ply.hash(&mut hasher);
    cell(san, false).hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_severities_and_prefixes() {
        let s = Selection::new(Some("unclaimed-,error"), Some("illegal-move")).unwrap();
        assert!(s.keeps(Kind::UnclaimedThreefold));
        assert!(s.keeps(Kind::UnclaimedFiftyMoves));
        assert!(s.keeps(Kind::MissingResult));
        assert!(!s.keeps(Kind::IllegalMove), "ignored");
        assert!(!s.keeps(Kind::NonStandardSan), "not selected");
        let all = Selection::new(None, None).unwrap();
        assert!(Kind::ALL.iter().all(|k| all.keeps(*k)));
        let warnings = Selection::new(None, Some("warning")).unwrap();
        assert!(!warnings.keeps(Kind::WrongCheckSuffix));
        assert!(warnings.keeps(Kind::IllegalMove));
    }

    #[test]
    fn an_unknown_item_names_the_nearest_code() {
        let err = Selection::new(Some("ilegal-move"), None).unwrap_err();
        assert_eq!(
            err,
            SelectionError::UnknownItem("ilegal-move".into(), "illegal-move")
        );
        assert_eq!(
            Selection::new(None, Some("warnings")).unwrap_err(),
            SelectionError::UnknownItem("warnings".into(), "warning")
        );
        let err = Selection::new(None, Some("errors")).unwrap_err();
        assert!(err.to_string().contains("did you mean"), "{err}");
    }

    #[test]
    fn a_baseline_row_takes_one_finding() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("base.csv");
        std::fs::write(
            &path,
            "file,game,line,white,black,date,round,result,ply,san,code\n\
             a.pgn,1,5,A,B,2024.01.01,1,*,3,'=x,illegal-move\n\
             a.pgn,2,9,C,'-D,????.??.??,?,*,,,missing-result\n",
        )
        .unwrap();
        let mut s = Selection::new(None, None)
            .unwrap()
            .with_baseline(&path)
            .unwrap();
        let at = |file, game_id, tags| Place {
            file,
            game_id,
            tags,
        };
        let ab = ["A", "B", "2024.01.01", "1", "*"];
        let cd = ["C", "-D", "????.??.??", "?", "*"];
        // The raw san `=x` is written `'=x` in a safe report.
        assert!(s.in_baseline(&at("a.pgn", "", ab), Kind::IllegalMove, Some(3), "=x"));
        assert!(!s.in_baseline(&at("a.pgn", "", ab), Kind::IllegalMove, Some(3), "=x"));
        // Another game's finding of that code, or the same game's in
        // another file, is new.
        let other = ["C", "-D", "????.??.??", "2", "*"];
        assert!(!s.in_baseline(&at("a.pgn", "", other), Kind::MissingResult, None, ""));
        assert!(!s.in_baseline(&at("b.pgn", "", cd), Kind::MissingResult, None, ""));
        // A path given another way is the same file; the game's number is
        // not compared (games inserted before it change nothing).
        assert!(s.in_baseline(&at("./a.pgn", "", cd), Kind::MissingResult, None, ""));
        assert_eq!(s.baseline_unmatched(), Some(0));
        // A row with a game_id matches that game wherever it stands.
        std::fs::write(
            &path,
            "file,game,line,ply,san,code,game_id\n\
             a.pgn,1,5,,,missing-tag,00000000000000aa\n\
             a.pgn,2,9,,,missing-tag,00000000000000bb\n",
        )
        .unwrap();
        let mut s = Selection::new(None, None)
            .unwrap()
            .with_baseline(&path)
            .unwrap();
        let missing_tag =
            |s: &mut Selection, place| s.in_baseline(&place, Kind::MissingTag, None, "");
        assert!(missing_tag(&mut s, at("b.pgn", "00000000000000bb", ab)));
        assert!(!missing_tag(&mut s, at("a.pgn", "00000000000000cc", ab)));
        assert_eq!(s.baseline_unmatched(), Some(1));
        // In a report with ids, a row without one (a game with no move) is
        // that game's: a game with an id and the same tags does not take it.
        std::fs::write(
            &path,
            "file,game,line,white,black,date,round,result,ply,san,code,game_id\n\
             a.pgn,1,5,A,B,2024.01.01,1,*,,,missing-tag,00000000000000aa\n\
             a.pgn,2,9,A,B,2024.01.01,1,*,,,missing-tag,\n",
        )
        .unwrap();
        let mut s = Selection::new(None, None)
            .unwrap()
            .with_baseline(&path)
            .unwrap();
        assert!(!missing_tag(&mut s, at("a.pgn", "00000000000000dd", ab)));
        assert!(missing_tag(&mut s, at("a.pgn", "", ab)));
        assert!(missing_tag(&mut s, at("a.pgn", "00000000000000aa", ab)));
        assert_eq!(s.baseline_unmatched(), Some(0));
        std::fs::write(&path, "file,game\n").unwrap();
        let err = Selection::new(None, None)
            .unwrap()
            .with_baseline(&path)
            .unwrap_err();
        assert!(err.to_string().contains("no 'code' column"), "{err}");
    }

    /// Issue 56: a baseline holds 12 bytes a distinct row, and a copy of
    /// the selection (the run's and the report's) 4 more; keys given many
    /// times count their rows.
    #[test]
    fn a_baseline_holds_twelve_bytes_a_row() {
        let keys: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let mut twice = keys.clone();
        twice.extend(&keys[..10]);
        let mut baseline = Baseline::of(twice);
        assert_eq!(baseline.keys.len(), 100_000);
        assert_eq!(baseline.bytes(), 1_200_000);
        let copy = baseline.clone();
        assert!(std::sync::Arc::ptr_eq(&copy.keys, &baseline.keys));
        assert_eq!(*baseline.left_of(keys[3]).unwrap(), 2);
        assert_eq!(*baseline.left_of(keys[50]).unwrap(), 1);
        assert!(baseline.left_of(12345).is_none());
        *baseline.left_of(keys[50]).unwrap() = 0;
        assert!(baseline.left_of(keys[50]).is_none());
        assert_eq!(
            copy.left.iter().map(|&n| u64::from(n)).sum::<u64>(),
            100_010
        );
    }
}
