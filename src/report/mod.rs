//! The two CSV reports (findings, one row each; games, one row each) written
//! in input order, with the run's summary counts ([`summary`]) and the audit
//! page ([`page`]) gathered as they go. The report decides no finding: the
//! run-wide ones come from [`checks::across`](crate::checks::across).

use std::io::Write;

use serde::Serialize;

use crate::{
    board::rules::Edition,
    checks::{
        Verdict,
        across::{self, AcrossGames},
        suppress::Suppressions,
    },
    finding::{Finding, Severity},
    read::{
        game::{RawGame, TagColumns, TagValues},
        tags::Tag,
    },
};

pub mod cell;
pub mod format;
pub mod kept;
pub mod page;
pub mod parquet;
pub mod selection;
pub mod summary;

pub use self::{
    cell::{CELL_MAX, cell},
    format::FINDINGS_HEADER,
    selection::Selection,
    summary::{FixCounts, InputCounts, Summary},
};

/// Reads a report back as strict CSV (every row as wide as the header) and
/// checks every cell as `cell` promises it: never a formula, no control
/// character but tab, at most `CELL_MAX` characters. Returns the rows after
/// the header. For the fuzz target and the tests.
pub fn read_back(bytes: &[u8]) -> Result<Vec<csv::StringRecord>, String> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let width = reader.headers().map_err(|e| e.to_string())?.len();
    let mut rows = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| e.to_string())?;
        if row.len() != width {
            return Err(format!(
                "a row of {} cells under {width} columns",
                row.len()
            ));
        }
        for text in &row {
            let dashes = !text.is_empty() && text.bytes().all(|b| b == b'-');
            if !dashes && text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
                return Err(format!("a cell a spreadsheet would run: {text:?}"));
            }
            if text.chars().count() > CELL_MAX {
                return Err(format!("a cell of {} characters", text.chars().count()));
            }
            if text.chars().any(|c| c.is_control() && c != '\t') {
                return Err(format!("a control character in {text:?}"));
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The games report's columns, in order.
pub const GAMES_HEADER: [&str; 19] = [
    "file",
    "game",
    "line",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "result",
    "plies",
    "termination",
    "board_end",
    "expected_result",
    "errors",
    "warnings",
    "infos",
    "how_ended",
    "game_id",
];

/// One game, checked: what the reports say about it.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// Tag values for the reports, decoded to text.
    pub tags: TagColumns,
    /// The verdict.
    pub verdict: Verdict,
    /// Findings in the order of the record.
    pub findings: Vec<Finding>,
    /// Its fingerprint (the `game_id` column; duplicates, when they are looked
    /// for), when it can have one.
    pub fingerprint: Option<u128>,
    /// Its fingerprint with each name written `Surname, Given` read by its
    /// surname and initial, when duplicates are looked for and that
    /// changes a name ([`RawGame::players`]).
    ///
    /// [`RawGame::players`]: crate::read::game::RawGame::players
    pub by_initials: Option<(u128, crate::read::game::InFull)>,
    /// The game as `--fix` writes it, when it does.
    pub fixed: Option<crate::fix::Fixed>,
    /// The codes its comments leave out (`{pgn-arbiter: ignore CODE}`).
    pub suppressions: Suppressions,
    /// White's and Black's names folded ([`folded_key`]), when they name
    /// someone and the run-wide checks may need them (as the fingerprint).
    ///
    /// [`folded_key`]: crate::read::game::folded_key
    pub folded: [Option<u64>; 2],
}

impl GameResult {
    /// A game's result with its tag columns still empty.
    pub fn new(line: u64, verdict: Verdict, findings: Vec<Finding>) -> GameResult {
        GameResult {
            line,
            tags: TagColumns::default(),
            verdict,
            findings,
            fingerprint: None,
            by_initials: None,
            fixed: None,
            suppressions: Suppressions::default(),
            folded: [None, None],
        }
    }

    /// The value of `tag`; empty when the tag is absent.
    #[cfg(test)]
    pub fn tag(&self, tag: Tag) -> &str {
        self.tags.get(tag)
    }

    /// About the bytes the result holds, its heap included: what bounds
    /// the results waiting for the writer, whatever their findings.
    pub fn weight(&self) -> usize {
        let columns = self.tags.capacity();
        let findings = self
            .findings
            .iter()
            .map(|f| f.message.capacity() + f.fen.capacity())
            .sum::<usize>()
            + self.findings.capacity() * std::mem::size_of::<Finding>();
        let changes = self.fixed.as_ref().map_or(0, |fixed| {
            fixed
                .changes
                .iter()
                .map(|c| c.what.capacity())
                .sum::<usize>()
                + fixed.changes.capacity() * std::mem::size_of::<crate::fix::Change>()
        });
        std::mem::size_of::<Self>() + columns + findings + changes
    }

    /// The game as the run-wide checks see it: game `number` of `file`.
    pub fn seen<'a>(&'a self, file: &'a str, number: u64) -> across::Seen<'a> {
        across::Seen {
            file,
            number,
            line: self.line,
            fingerprint: self.fingerprint,
            by_initials: self.by_initials,
            tags: self.tags.values(),
            folded: self.folded,
            expected: self.verdict.expected,
            accepted: &self.suppressions,
        }
    }

    /// Fills in the tag columns from the game's tags, in `buffer` (emptied
    /// first: one an earlier game filled, or a new one); the first of each
    /// name counts.
    pub fn fill_tags(&mut self, game: &RawGame<'_>, buffer: String) {
        self.tags = TagColumns::of(game.tags, buffer);
    }

    /// Whether its tag columns hold more than a game's usually do.
    pub fn holds_large_tags(&self) -> bool {
        self.tags.is_large()
    }

    /// The buffer its tag columns are in, for another game's (a large one
    /// is let go, not kept for later games).
    pub fn into_tag_text(self) -> String {
        self.tags.into_buffer()
    }

    /// The game with its tag columns in `buffer`.
    #[cfg(test)]
    pub fn with_tag_text(mut self, buffer: String) -> GameResult {
        self.tags = self.tags.with_buffer(buffer);
        self
    }
}

/// What both reports write of a game, as the input has it.
struct Cells<'a> {
    /// The input's name as the run knows it.
    name: &'a str,
    number: u64,
    tags: TagValues<'a>,
    id: String,
}

impl<'a> Cells<'a> {
    fn of(name: &'a str, number: u64, game: &'a GameResult) -> Cells<'a> {
        Cells {
            name,
            number,
            tags: game.tags.values(),
            id: game_id(game.fingerprint),
        }
    }
}

/// The games report, in its form: CSV, or Parquet when the findings
/// report is.
enum GamesWriter {
    Csv(csv::Writer<Box<dyn Write + Send>>),
    Parquet(parquet::ParquetRows),
}

/// The games report's columns as Parquet has them.
fn games_fields() -> Vec<arrow_schema::FieldRef> {
    use arrow_schema::DataType::UInt64;
    parquet::fields(
        &GAMES_HEADER,
        &[
            ("game", UInt64, false),
            ("line", UInt64, false),
            ("plies", UInt64, false),
            ("errors", UInt64, false),
            ("warnings", UInt64, false),
            ("infos", UInt64, false),
        ],
    )
}

#[derive(Serialize)]
struct GameRow<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    event: &'a str,
    site: &'a str,
    date: &'a str,
    round: &'a str,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    plies: usize,
    termination: &'a str,
    board_end: &'a str,
    expected_result: &'a str,
    errors: usize,
    warnings: usize,
    infos: usize,
    how_ended: &'a str,
    game_id: &'a str,
}

/// The `game_id` column: the first 64 bits of the game's fingerprint
/// ([`RawGame::fingerprint`]) in 16 hex digits, the same wherever the game
/// stands in whatever file; empty for a game with no move or no named
/// player, which has none.
pub fn game_id(fingerprint: Option<u128>) -> String {
    fingerprint.map_or_else(String::new, |fp| format!("{:016x}", (fp >> 64) as u64))
}

/// Writes both reports.
pub struct Report {
    findings: format::FindingsWriter,
    games: Option<GamesWriter>,
    /// Cells as they are (`--raw-csv`), not made safe for spreadsheets.
    raw: bool,
    /// The edition the `rule` column cites.
    edition: Edition,
    /// Which findings are reported.
    selection: Selection,
    /// The checks that need every game of the run.
    pub across: AcrossGames,
    /// Counts so far.
    pub summary: Summary,
    /// The audit page's contents, when one is written (`--html`).
    pub page: Option<page::Page>,
    /// `--baseline-update`: the baseline's rows still found, as this run
    /// writes them, then those it cannot judge.
    baseline_update: Option<csv::Writer<Box<dyn Write + Send>>>,
}

impl Report {
    /// Starts both reports, writing their headers (unless `header` is
    /// false: a shard's reports, to be joined).
    pub fn new(
        findings: format::FindingsWriter,
        games: Option<Box<dyn Write + Send>>,
        raw: bool,
        edition: Edition,
        header: bool,
    ) -> csv::Result<Report> {
        // Headers are written here, so that an empty report still has one.
        let games = match games {
            Some(out) if findings.is_parquet() => Some(GamesWriter::Parquet(
                parquet::ParquetRows::new(out, &games_fields())?,
            )),
            Some(out) => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(out);
                if header {
                    w.write_record(GAMES_HEADER)?;
                }
                Some(GamesWriter::Csv(w))
            }
            None => None,
        };
        Ok(Report {
            findings,
            games,
            raw,
            edition,
            selection: Selection::default(),
            across: AcrossGames::default(),
            summary: Summary::default(),
            page: None,
            baseline_update: None,
        })
    }

    /// Looks for duplicates of games across the run (`duplicate-game`), at
    /// each game's place in its round, and at the names each FIDE ID is
    /// given (`player-name-variant`). `limit`: the bytes the duplicate and
    /// round tables keep in memory before writing part of them to disk (0:
    /// no limit).
    pub fn find_duplicates(&mut self, limit: usize) {
        let tournament = self.across.tournament.take();
        self.across = AcrossGames::of_run(limit);
        self.across.tournament = tournament;
    }

    /// Writes the ratcheted baseline to `out` (`--baseline-update`): the
    /// rows of the baseline that still match a finding, as this run writes
    /// them (file, game, line and game id as they are now), then the rows
    /// it cannot judge ([`Selection::carry_over`]). New findings are not
    /// added: the baseline only shrinks.
    pub fn update_baseline(&mut self, out: Box<dyn Write + Send>) -> csv::Result<()> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        w.write_record(FINDINGS_HEADER)?;
        self.baseline_update = Some(w);
        Ok(())
    }

    /// Reports only the findings `selection` keeps, in both reports and the
    /// summary.
    pub fn select(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// Fetches ahead what the run-wide checks of the games to come will
    /// read: the game after next (`far`) and the next one (`near`).
    pub fn ahead(&self, far: Option<&GameResult>, near: Option<&GameResult>) {
        if let Some(duplicates) = &self.across.duplicates {
            duplicates.ahead(
                far.and_then(|g| g.fingerprint),
                near.and_then(|g| g.fingerprint),
            );
        }
    }

    /// Writes one game's findings and its row.
    pub fn write_game(&mut self, file: &str, number: u64, game: &GameResult) -> csv::Result<()> {
        let across = self.across.game(&game.seen(file, number));
        if game.findings.is_empty()
            && across.is_empty()
            && game.suppressions.is_empty()
            && self.games.is_none()
            && self.page.is_none()
        {
            // Nothing to write: the counts only (most games of most runs).
            self.summary.count_game(game.verdict.plies);
            return Ok(());
        }
        let cells = Cells::of(file, number, game);
        let mut counts = [0usize; 3];
        let mut shown = Vec::new();
        let (left_out, unused) = self.suppress(game, &across);
        let all = game.findings.iter().chain(&across).chain(&unused);
        for (i, f) in all.enumerate() {
            if left_out.get(i).copied().unwrap_or(false) {
                continue;
            }
            if let Some(severity) = self.write_finding(&cells, f, true)? {
                counts[severity as usize] += 1;
                if self.page.is_some() {
                    shown.push(f);
                }
            }
        }
        self.summary.count_game(game.verdict.plies);
        if let Some(page) = &mut self.page {
            let facts = page::GameFacts {
                file,
                number,
                line: game.line,
                tags: cells.tags,
                game_id: &cells.id,
                changes: game.fixed.as_ref().map_or(&[], |f| &f.changes),
            };
            page.game(&facts, &shown, self.edition);
        }
        self.findings.end_game()?;
        self.write_game_row(&cells, game, counts)
    }

    /// Whether findings of `kind` are reported for the input being written
    /// (the selection, and the settings file's per-file ignores).
    fn keeps(&self, kind: crate::finding::Kind) -> bool {
        let input = self.summary.inputs.len().saturating_sub(1);
        self.selection.keeps_in(input, kind)
    }

    /// What the comments of a game leave out (`{pgn-arbiter: ignore
    /// CODE}`): for each of its findings then `across`, whether it is left
    /// out (empty when the game has no such comment), and the
    /// `unused-suppression` findings. Only a finding the selection keeps
    /// uses a comment; those left out are counted in the summary.
    fn suppress(&mut self, game: &GameResult, across: &[Finding]) -> (Vec<bool>, Vec<Finding>) {
        if game.suppressions.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let mut suppressions = game.suppressions.clone();
        let left_out: Vec<bool> = game
            .findings
            .iter()
            .chain(across)
            .map(|f| self.keeps(f.kind) && suppressions.covers(f.kind))
            .collect();
        self.summary.suppressed += left_out.iter().filter(|&&out| out).count() as u64;
        let unused = suppressions.unused(|kind| self.keeps(kind));
        (left_out, unused)
    }

    /// Writes one finding, of a game of the input being written or (not
    /// `of_input`) of the TRF, unless the selection leaves it out or the
    /// baseline has it; its severity when it is written.
    fn write_finding(
        &mut self,
        cells: &Cells<'_>,
        f: &Finding,
        of_input: bool,
    ) -> csv::Result<Option<Severity>> {
        let kept = if of_input {
            self.keeps(f.kind)
        } else {
            self.selection.keeps(f.kind)
        };
        if !kept {
            return Ok(None);
        }
        let severity = f.kind.severity();
        let (ply, number_label, san) = match &f.mv {
            Some(m) => (Some(m.ply), m.number.as_str(), m.san.as_str()),
            None => (None, "", ""),
        };
        let located = format::Located {
            file: cells.name,
            game: cells.number,
            line: f.line,
            tags: cells.tags,
            ply,
            number: number_label,
            san,
            kind: f.kind,
            rule: f.rule.cite(self.edition),
            message: &f.message,
            fen: &f.fen,
            game_id: &cells.id,
        };
        let tag = |t| cells.tags.get(t);
        let at = selection::Place {
            file: cells.name,
            game_id: &cells.id,
            tags: [Tag::White, Tag::Black, Tag::Date, Tag::Round, Tag::Result].map(tag),
        };
        if self.selection.in_baseline(&at, f.kind, ply, san) {
            self.summary.in_baseline += 1;
            if let Some(update) = &mut self.baseline_update {
                format::write_csv(update, &located, self.raw)?;
            }
            return Ok(None);
        }
        *self.summary.by_severity.entry(severity).or_default() += 1;
        *self.summary.by_kind.entry(f.kind).or_default() += 1;
        if let Some(input) = self.summary.inputs.last_mut().filter(|_| of_input) {
            input.findings += 1;
            *input.by_severity.entry(severity.as_str()).or_default() += 1;
            *input.by_code.entry(f.kind.code()).or_default() += 1;
        }
        self.findings.finding(&located)?;
        Ok(Some(severity))
    }

    /// Writes a game's row of the games report, if there is one; `counts`:
    /// the findings written, by severity.
    fn write_game_row(
        &mut self,
        cells: &Cells<'_>,
        game: &GameResult,
        counts: [usize; 3],
    ) -> csv::Result<()> {
        let Some(games) = &mut self.games else {
            return Ok(());
        };
        let raw = self.raw || matches!(games, GamesWriter::Parquet(_));
        let text = |t| cell(t, raw);
        let row = GameRow {
            file: &text(cells.name),
            game: cells.number,
            line: game.line,
            event: &text(cells.tags.get(Tag::Event)),
            site: &text(cells.tags.get(Tag::Site)),
            date: &text(cells.tags.get(Tag::Date)),
            round: &text(cells.tags.get(Tag::Round)),
            white: &text(cells.tags.get(Tag::White)),
            black: &text(cells.tags.get(Tag::Black)),
            result: &text(cells.tags.get(Tag::Result)),
            plies: game.verdict.plies,
            termination: &text(cells.tags.get(Tag::Termination)),
            board_end: game.verdict.board_end.as_str(),
            expected_result: game
                .verdict
                .expected
                .map_or("", shakmaty::KnownOutcome::as_str),
            errors: counts[Severity::Error as usize],
            warnings: counts[Severity::Warning as usize],
            infos: counts[Severity::Info as usize],
            how_ended: game.verdict.how_ended.as_str(),
            game_id: &cells.id,
        };
        match games {
            GamesWriter::Csv(w) => w.serialize(row),
            GamesWriter::Parquet(rows) => rows.push(&row).map_err(Into::into),
        }
    }

    /// The run-wide checks' findings of no game, after the games: the rows
    /// of the TRF itself and of its pairings no game matched (`--trf`),
    /// where `game` is 0 and the line is the TRF's.
    pub fn write_tournament(&mut self) -> csv::Result<()> {
        let findings = self.across.finish();
        let Some(tournament) = &self.across.tournament else {
            return Ok(());
        };
        let counts = summary::TournamentCounts {
            file: tournament.name().to_owned(),
            name: tournament.event().to_owned(),
            players: tournament.players(),
            file_problems: tournament.file_problems(),
            rounds: tournament.rounds(),
            sha256: crate::read::input::sha256_of(std::path::Path::new(tournament.name())).ok(),
        };
        if let Some(page) = &mut self.page {
            page.tournament(&counts, tournament.crosstable());
        }
        let name = counts.file.clone();
        self.summary.tournament = Some(counts);
        let cells = Cells {
            name: &name,
            number: 0,
            tags: TagValues::default(),
            id: String::new(),
        };
        for f in &findings {
            self.write_finding(&cells, f, false)?;
        }
        self.findings.end_game()
    }

    /// Flushes both reports, writes the rest of the ratcheted baseline, and
    /// counts the baseline's rows left unmatched: of this run's inputs and
    /// codes only, since the others cannot be judged.
    pub fn finish(&mut self) -> std::io::Result<()> {
        for why in self.across.trouble() {
            eprintln!("pgn-arbiter: {why}");
        }
        let mut inputs: Vec<&str> = self
            .summary
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        if let Some(tournament) = &self.across.tournament {
            inputs.push(tournament.name());
        }
        let mut update = self.baseline_update.as_mut();
        let carried = self.selection.carry_over(&inputs, |headers, record| {
            let Some(update) = update.as_deref_mut() else {
                return Ok(());
            };
            let cells = FINDINGS_HEADER.map(|column| {
                headers
                    .iter()
                    .position(|h| h == column)
                    .and_then(|i| record.get(i))
                    .unwrap_or_default()
            });
            update.write_record(cells).map_err(|e| e.to_string())
        });
        carried.map_err(|e| std::io::Error::other(e.to_string()))?;
        self.summary.baseline_unmatched = self.selection.baseline_unmatched();
        if let Some(update) = &mut self.baseline_update {
            update.flush()?;
        }
        self.findings.finish(self.summary.games > 0)?;
        match &mut self.games {
            Some(GamesWriter::Csv(w)) => w.flush()?,
            Some(GamesWriter::Parquet(rows)) => rows.finish()?,
            None => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_never_formulas_nor_too_long_nor_control_characters() {
        for (input, want) in [
            ("Carlsen, Magnus", "Carlsen, Magnus"),
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("@SUM(1+1)", "'@SUM(1+1)"),
            ("+cmd|calc!A1", "'+cmd|calc!A1"),
            ("-2+3", "'-2+3"),
            ("-", "-"),
            ("--", "--"),
            ("-1", "'-1"),
            ("\tx", "'\tx"),
            ("\r=1", "\u{fffd}=1"),
            ("a\x00b\x1bc\u{85}d", "a\u{fffd}b\u{fffd}c\u{fffd}d"),
            ("~ a\x7f", "~ a\u{fffd}"),
            ("1-0", "1-0"),
            ("e4\te5", "e4\te5"),
            ("", ""),
        ] {
            assert_eq!(cell(input, false), want, "{input:?}");
            assert_eq!(cell(input, true), input, "{input:?}");
        }
        let long = "é".repeat(5000);
        let cut = cell(&long, false);
        assert_eq!(cut.chars().count(), CELL_MAX);
        assert!(cut.ends_with("… (cut from 5000 characters)"), "{cut}");
        let long = format!("={}", "x".repeat(3000));
        let cut = cell(&long, false);
        assert_eq!(cut.chars().count(), CELL_MAX);
        assert!(cut.starts_with("'=xx"));
        assert_eq!(cell(&"x".repeat(CELL_MAX), false).len(), CELL_MAX);
    }
}
