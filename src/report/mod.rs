//! The two CSV reports (findings, one row each; games, one row each) written
//! in input order, with the run's summary counts (`summary`) and the audit
//! page (`page`) gathered as they go.

use std::{borrow::Cow, io::Write};

use serde::Serialize;

use crate::{
    board::rules::Edition,
    checks::RESULTS,
    checks::{
        Verdict, result_str,
        rounds::{self, Rounds},
    },
    finding::{Finding, Kind, Severity},
    read::game::{RawGame, decode},
    selection::Selection,
};

pub mod cell;
mod fingerprints;
pub mod page;
pub mod summary;
pub mod tournament;

pub use self::{
    cell::{CELL_MAX, cell},
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

/// The findings report's columns, in order.
pub const FINDINGS_HEADER: [&str; 17] = [
    "file", "game", "line", "white", "black", "date", "round", "result", "ply", "move", "san",
    "severity", "code", "rule", "message", "fen", "game_id",
];

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
    pub event: String,
    /// Site tag.
    pub site: String,
    /// Date tag.
    pub date: String,
    /// Round tag.
    pub round: String,
    /// White tag.
    pub white: String,
    /// Black tag.
    pub black: String,
    /// Result tag.
    pub result: String,
    /// Termination tag.
    pub termination: String,
    /// WhiteFideId, BlackFideId, WhiteElo, BlackElo, WhiteTitle,
    /// BlackTitle: what `--trf` compares with the TRF.
    pub players: [String; 6],
    /// The verdict.
    pub verdict: Verdict,
    /// Findings in the order of the record.
    pub findings: Vec<Finding>,
    /// Its fingerprint (the `game_id` column; copies, when they are looked
    /// for), when it can have one.
    pub fingerprint: Option<u128>,
    /// The game as `--fix` writes it, when it does.
    pub fixed: Option<crate::fix::Fixed>,
}

impl GameResult {
    /// A game's result with its tag columns still empty.
    pub fn new(line: u64, verdict: Verdict, findings: Vec<Finding>) -> GameResult {
        GameResult {
            line,
            event: String::new(),
            site: String::new(),
            date: String::new(),
            round: String::new(),
            white: String::new(),
            black: String::new(),
            result: String::new(),
            termination: String::new(),
            players: Default::default(),
            verdict,
            findings,
            fingerprint: None,
            fixed: None,
        }
    }

    /// About the bytes the result holds, its heap included: what bounds
    /// the results waiting for the writer, whatever their findings.
    pub fn weight(&self) -> usize {
        let columns = [
            &self.event,
            &self.site,
            &self.date,
            &self.round,
            &self.white,
            &self.black,
            &self.result,
            &self.termination,
        ]
        .into_iter()
        .chain(&self.players)
        .map(String::capacity)
        .sum::<usize>();
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

    /// Fills in the tag columns from the game's tags; the first of each
    /// name counts.
    pub fn fill_tags(&mut self, game: &RawGame<'_>) {
        let mut seen = 0u16;
        let [
            white_fide,
            black_fide,
            white_elo,
            black_elo,
            white_title,
            black_title,
        ] = &mut self.players;
        for (_, name, value) in game.tags.iter() {
            let (bit, slot) = match name {
                b"Event" => (0, &mut self.event),
                b"Site" => (1, &mut self.site),
                b"Date" => (2, &mut self.date),
                b"Round" => (3, &mut self.round),
                b"White" => (4, &mut self.white),
                b"Black" => (5, &mut self.black),
                b"Result" => (6, &mut self.result),
                b"Termination" => (7, &mut self.termination),
                b"WhiteFideId" => (8, &mut *white_fide),
                b"BlackFideId" => (9, &mut *black_fide),
                b"WhiteElo" => (10, &mut *white_elo),
                b"BlackElo" => (11, &mut *black_elo),
                b"WhiteTitle" => (12, &mut *white_title),
                b"BlackTitle" => (13, &mut *black_title),
                _ => continue,
            };
            if seen & (1 << bit) == 0 {
                seen |= 1 << bit;
                *slot = decode(value).0.into_owned();
            }
        }
    }
}

#[derive(Serialize)]
struct FindingRow<'a> {
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

#[derive(Debug, Default)]
struct Copies {
    /// The first copy of each game of the run, by fingerprint: its ordinal
    /// among the games written and its `Labels`.
    first: fingerprints::Fingerprints,
    /// Who played in which round, and which boards were taken.
    rounds: Rounds,
    /// Input names, by index.
    files: Vec<String>,
    /// Runs of games numbered one after the other in one input: the first
    /// game's ordinal, the input's index and the game's number.
    runs: Vec<(u64, u32, u64)>,
    /// Games written so far.
    ordinal: u64,
}

/// Where a game was: "game 3 of this file", "game 3 of a.pgn".
fn place(files: &[String], file_index: u32, here: u32, number: u64) -> String {
    if file_index == here {
        format!("game {number} of this file")
    } else {
        let name = files.get(file_index as usize).map_or("", String::as_str);
        format!("game {number} of {name}")
    }
}

impl Copies {
    /// Where the game with this ordinal is: its input's index and number.
    fn place_of(&self, ordinal: u64) -> (u32, u64) {
        let at = self.runs.partition_point(|r| r.0 <= ordinal);
        let (first, file, number) = self.runs[at.saturating_sub(1)];
        (file, number + (ordinal - first))
    }

    /// Records a game: the finding that it is a copy of an earlier one, or
    /// else what is wrong with its place in its round. A game without a
    /// fingerprint is only counted.
    fn see(
        &mut self,
        fp: Option<u128>,
        file: &str,
        number: u64,
        game: &GameResult,
    ) -> Vec<Finding> {
        if self.files.last().is_none_or(|f| f != file) {
            self.files.push(file.to_owned());
        }
        let here = u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX);
        let ordinal = self.ordinal;
        self.ordinal += 1;
        if self.runs.last().is_none_or(|&(first, file, start)| {
            file != here || number.checked_sub(ordinal - first) != Some(start)
        }) {
            self.runs.push((ordinal, here, number));
        }
        let Some(fp) = fp else {
            return Vec::new();
        };
        let labels = Labels::of(game);
        let seen = fingerprints::Seen {
            ordinal,
            labels: labels.0,
        };
        let Some(first) = self.first.first_or_keep(fp, seen) else {
            let mut out = Vec::new();
            let at = rounds::Place {
                file: here,
                game: number,
            };
            let round = rounds::Game {
                line: game.line,
                event: &game.event,
                site: &game.site,
                date: &game.date,
                round: &game.round,
                white: &game.white,
                black: &game.black,
            };
            let files = &self.files;
            self.rounds
                .see(at, &round, |p| place(files, p.file, here, p.game), &mut out);
            return out;
        };
        let first_labels = Labels(first.labels);
        let (file_index, first_game) = self.place_of(first.ordinal);
        let where_ = place(&self.files, file_index, here, first_game);
        let differ = labels.differing(first_labels);
        let tags = match differ.as_slice() {
            [] => String::new(),
            [one] => format!(" Its {one} differs there."),
            [init @ .., last] => format!(" Its {} and {last} differ there.", init.join(", ")),
        };
        let (result, first_result) = (labels.result(), first_labels.result());
        let results = if first_result == result {
            String::new()
        } else {
            format!(
                " The results differ: {} there, {} here; which one counts is for the arbiter.",
                result_text(first_result),
                result_text(result)
            )
        };
        vec![Finding::new(
            Kind::DuplicateGame,
            game.line,
            format!(
                "This game has the same players (their names folded: case, accents, punctuation, word order), start and movetext as {where_}, which comes first.{tags}{results}"
            ),
        )]
    }
}

/// What tells a copy's record from the first: its Result tag as a code
/// (3 bits), and 7 bits of hash of each of Event, Date and Round, in the 24
/// bits the fingerprint table keeps. Equal hashes may hide a difference (1
/// in 128), so only differences are stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Labels(u32);

impl Labels {
    const TAGS: [&str; 3] = ["Event", "Date", "Round"];

    fn of(game: &GameResult) -> Labels {
        let mut packed = result_code(&game.result);
        for (i, value) in [&game.event, &game.date, &game.round]
            .into_iter()
            .enumerate()
        {
            let bits = (rounds::key(0, &[value.trim()]) & 0x7F) as u32;
            packed |= bits << (3 + 7 * i);
        }
        Labels(packed)
    }

    fn result(self) -> u32 {
        self.0 & 0x7
    }

    /// The tags whose values surely differ.
    fn differing(self, other: Labels) -> Vec<&'static str> {
        (0..3)
            .filter(|i| (self.0 >> (3 + 7 * i)) & 0x7F != (other.0 >> (3 + 7 * i)) & 0x7F)
            .map(|i| Labels::TAGS[i])
            .collect()
    }
}

/// The `game_id` column: the first 64 bits of the game's fingerprint
/// (`RawGame::fingerprint`) in 16 hex digits, the same wherever the game
/// stands in whatever file; empty for a game with no move or no named
/// player, which has none.
pub fn game_id(fingerprint: Option<u128>) -> String {
    fingerprint.map_or_else(String::new, |fp| format!("{:016x}", (fp >> 64) as u64))
}

/// A Result tag as a code: 1 + its place among the values PGN allows, 0
/// for none or another value.
fn result_code(result: &str) -> u32 {
    RESULTS
        .iter()
        .position(|r| *r == result)
        .map_or(0, |i| i as u32 + 1)
}

fn result_text(code: u32) -> &'static str {
    (code as usize)
        .checked_sub(1)
        .and_then(|i| RESULTS.get(i))
        .copied()
        .unwrap_or("no result")
}

/// Writes both reports.
pub struct Report {
    findings: csv::Writer<Box<dyn Write + Send>>,
    games: Option<csv::Writer<Box<dyn Write + Send>>>,
    /// Cells as they are (`--raw-csv`), not made safe for spreadsheets.
    raw: bool,
    /// The edition the `rule` column cites.
    edition: Edition,
    /// Which findings are reported.
    selection: Selection,
    /// The first copy of each game seen, when copies are looked for.
    copies: Option<Copies>,
    /// Counts so far.
    pub summary: Summary,
    /// The audit page's contents, when one is written (`--html`).
    pub page: Option<page::Page>,
    /// The tournament's report file the games are matched to (`--trf`).
    pub tournament: Option<tournament::TrfAudit>,
    /// `--baseline-update`: the baseline's rows still found, as this run
    /// writes them, then those it cannot judge.
    baseline_update: Option<csv::Writer<Box<dyn Write + Send>>>,
}

impl Report {
    /// Starts both reports, writing their headers (unless `header` is
    /// false: a shard's reports, to be joined).
    pub fn new(
        findings: Box<dyn Write + Send>,
        games: Option<Box<dyn Write + Send>>,
        raw: bool,
        edition: Edition,
        header: bool,
    ) -> csv::Result<Report> {
        // Headers are written here, so that an empty report still has one.
        let builder = || {
            let mut b = csv::WriterBuilder::new();
            b.has_headers(false);
            b
        };
        let mut findings = builder().from_writer(findings);
        if header {
            findings.write_record(FINDINGS_HEADER)?;
        }
        let games = match games {
            Some(out) => {
                let mut w = builder().from_writer(out);
                if header {
                    w.write_record(GAMES_HEADER)?;
                }
                Some(w)
            }
            None => None,
        };
        Ok(Report {
            findings,
            games,
            raw,
            edition,
            selection: Selection::default(),
            copies: None,
            summary: Summary::default(),
            page: None,
            tournament: None,
            baseline_update: None,
        })
    }

    /// Looks for copies of games across the run (`duplicate-game`) and
    /// at each game's place in its round. `limit`: the bytes their tables
    /// keep in memory before writing part of them to disk (0: no limit),
    /// an eighth of it for the rounds.
    pub fn find_duplicates(&mut self, limit: usize) {
        let rounds = limit / 8;
        self.copies = Some(Copies {
            first: fingerprints::Fingerprints::with_limit(limit - rounds),
            rounds: Rounds::with_limit(rounds),
            ..Copies::default()
        });
    }

    /// Writes the ratcheted baseline to `out` (`--baseline-update`): the
    /// rows of the baseline that still match a finding, as this run writes
    /// them (file, game, line and game id as they are now), then the rows
    /// it cannot judge (`Selection::carry_over`). New findings are not
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

    /// Writes one game's findings and its row.
    pub fn write_game(&mut self, file: &str, number: u64, game: &GameResult) -> csv::Result<()> {
        let raw = self.raw;
        let file_name = file;
        let mut across = match &mut self.copies {
            Some(copies) => copies.see(game.fingerprint, file_name, number, game),
            None => Vec::new(),
        };
        if let Some(tournament) = &mut self.tournament {
            across.extend(tournament.game(&tournament::Game {
                line: game.line,
                white: &game.white,
                black: &game.black,
                round: &game.round,
                result: &game.result,
                players: &game.players,
                expected: game.verdict.expected,
            }));
        }
        if game.findings.is_empty()
            && across.is_empty()
            && self.games.is_none()
            && self.page.is_none()
        {
            // Nothing to write: the counts only (most games of most runs).
            self.summary.count_game(game.verdict.plies);
            return Ok(());
        }
        let text = |t| cell(t, raw);
        // The name of standard input is the tool's own `-`.
        let file = if file == "-" {
            Cow::Borrowed(file)
        } else {
            text(file)
        };
        let (white, black, date, round, result) = (
            text(&game.white),
            text(&game.black),
            text(&game.date),
            text(&game.round),
            text(&game.result),
        );
        let id = game_id(game.fingerprint);
        let mut counts = [0usize; 3];
        let mut shown = Vec::new();
        for f in game.findings.iter().chain(&across) {
            if !self.selection.keeps(f.kind) {
                continue;
            }
            let raw_ply = f.mv.as_ref().map(|m| m.ply);
            let raw_san = f.mv.as_ref().map_or("", |m| m.san.as_str());
            let at = crate::selection::Place {
                file: file_name,
                game: number,
                game_id: &id,
            };
            let severity = f.kind.severity();
            let (ply, number_label, san) = match &f.mv {
                Some(m) => (Some(m.ply), m.number.as_str(), m.san.as_str()),
                None => (None, "", ""),
            };
            let row = FindingRow {
                file: &file,
                game: number,
                line: f.line,
                white: &white,
                black: &black,
                date: &date,
                round: &round,
                result: &result,
                ply,
                number: number_label,
                san: &text(san),
                severity: severity.as_str(),
                code: f.kind.code(),
                rule: f.rule.cite(self.edition),
                message: &text(&f.message),
                fen: &text(&f.fen),
                game_id: &id,
            };
            if self.selection.in_baseline(&at, f.kind, raw_ply, raw_san) {
                self.summary.in_baseline += 1;
                if let Some(update) = &mut self.baseline_update {
                    update.serialize(row)?;
                }
                continue;
            }
            if self.page.is_some() {
                shown.push(f);
            }
            counts[severity as usize] += 1;
            *self.summary.by_severity.entry(severity).or_default() += 1;
            *self.summary.by_kind.entry(f.kind).or_default() += 1;
            if let Some(input) = self.summary.inputs.last_mut() {
                input.findings += 1;
                *input.by_severity.entry(severity.as_str()).or_default() += 1;
                *input.by_code.entry(f.kind.code()).or_default() += 1;
            }
            self.findings.serialize(row)?;
        }
        self.summary.count_game(game.verdict.plies);
        if let Some(page) = &mut self.page {
            let facts = page::GameFacts {
                file: file_name,
                number,
                line: game.line,
                white: &game.white,
                black: &game.black,
                event: &game.event,
                site: &game.site,
                round: &game.round,
                date: &game.date,
                result: &game.result,
                game_id: &id,
                changes: game.fixed.as_ref().map_or(&[], |f| &f.changes),
            };
            page.game(&facts, &shown, self.edition);
        }
        if let Some(games) = &mut self.games {
            games.serialize(GameRow {
                file: &file,
                game: number,
                line: game.line,
                event: &text(&game.event),
                site: &text(&game.site),
                date: &date,
                round: &round,
                white: &white,
                black: &black,
                result: &result,
                plies: game.verdict.plies,
                termination: &text(&game.termination),
                board_end: game.verdict.board_end.as_str(),
                expected_result: game.verdict.expected.map_or("", result_str),
                errors: counts[Severity::Error as usize],
                warnings: counts[Severity::Warning as usize],
                infos: counts[Severity::Info as usize],
                how_ended: game.verdict.how_ended.as_str(),
                game_id: &id,
            })?;
        }
        Ok(())
    }

    /// The rows of the TRF itself and of its pairings no game matched
    /// (`--trf`), after the games: `game` is 0, the line is the TRF's.
    pub fn write_tournament(&mut self) -> csv::Result<()> {
        let Some(tournament) = &self.tournament else {
            return Ok(());
        };
        let findings = tournament.finish();
        let counts = summary::TournamentCounts {
            file: tournament.name().to_owned(),
            name: tournament.event().to_owned(),
            players: tournament.players(),
            file_problems: tournament.file_problems(),
            rounds: tournament.rounds(),
        };
        if let Some(page) = &mut self.page {
            page.tournament(&counts, tournament.crosstable());
        }
        self.summary.tournament = Some(counts);
        let file = cell(tournament.name(), self.raw).into_owned();
        let at = crate::selection::Place {
            file: tournament.name(),
            game: 0,
            game_id: "",
        };
        for f in &findings {
            if !self.selection.keeps(f.kind) {
                continue;
            }
            let severity = f.kind.severity();
            let row = FindingRow {
                file: &file,
                game: 0,
                line: f.line,
                white: "",
                black: "",
                date: "",
                round: "",
                result: "",
                ply: None,
                number: "",
                san: "",
                severity: severity.as_str(),
                code: f.kind.code(),
                rule: f.rule.cite(self.edition),
                message: &cell(&f.message, self.raw),
                fen: "",
                game_id: "",
            };
            if self.selection.in_baseline(&at, f.kind, None, "") {
                self.summary.in_baseline += 1;
                if let Some(update) = &mut self.baseline_update {
                    update.serialize(row)?;
                }
                continue;
            }
            *self.summary.by_severity.entry(severity).or_default() += 1;
            *self.summary.by_kind.entry(f.kind).or_default() += 1;
            self.findings.serialize(row)?;
        }
        Ok(())
    }

    /// Flushes both reports, writes the rest of the ratcheted baseline, and
    /// counts the baseline's rows left unmatched: of this run's inputs and
    /// codes only, since the others cannot be judged.
    pub fn finish(&mut self) -> std::io::Result<()> {
        if let Some(why) = self.copies.as_ref().and_then(|c| c.first.trouble.as_ref()) {
            eprintln!(
                "pgn-arbiter: the copies table could not use the disk ({why}); it was kept in memory, or its games on disk were not all looked up"
            );
        }
        if let Some(why) = self.copies.as_ref().and_then(|c| c.rounds.trouble.as_ref()) {
            eprintln!("pgn-arbiter: round tables under --memory-limit: {why}");
        }
        let mut inputs: Vec<&str> = self
            .summary
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        if let Some(tournament) = &self.tournament {
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
        self.findings.flush()?;
        if let Some(games) = &mut self.games {
            games.flush()?;
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
