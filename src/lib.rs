//! pgn-arbiter audits PGN chess archives.
//!
//! The modules in the order a game meets them:
//!
//! - `cli`, `config`: the command line, checked once into a `Config`.
//! - `read`: `read::input` opens the bytes (directory walk, decompression by
//!   magic bytes, UTF-16, lone carriage returns); `read::pgn` (the only
//!   module that knows pgn-reader) finds where games start, so that
//!   `run::pipeline` can cut blocks of whole games; `read::lexer` reads each
//!   game the way pgn-reader does and says where every tag and move is,
//!   filling `read::tags` and giving a `read::game::RawGame`.
//! - `board`: facts from the board, without findings: `board::san` and
//!   `board::lenient` resolve moves (strictly, then by a plain reading),
//!   `board::replay` plays the mainline and tells an observer each ply,
//!   `board::variations` replays the variations, `board::rules` holds the
//!   editions and the one table of citations, `board::winnable` says
//!   whether a side can still mate.
//! - `checks`: judges the game, one module per rule area, each deciding its
//!   findings (below); `checks::verdict` holds what they share, and
//!   `checks::draws::history` the positions the draw rules need.
//! - `finding`: the kinds of finding (code, severity, what each rests on)
//!   and one finding's place in its game.
//! - `selection`, `report`: which findings are reported (`--select`,
//!   `--ignore`, `--baseline`), both CSV reports in input order with
//!   spreadsheet-safe cells (`report::cell`), and the summary.
//! - `run`: the reader thread, the workers and the ordered writer
//!   (`run::pipeline`), report files put in place only when the run
//!   completes and never over an input (`run::output`), the progress bar.
//!
//! Where each finding is decided (a test holds this list to the code):
//!
//! - `src/checks/tags.rs`: `malformed-tag`, `encoding`, `invalid-result`,
//!   `non-standard-tag`
//! - `src/checks/setup.rs`: `invalid-fen`, `unsupported-variant`
//! - `src/checks/moves.rs`: `illegal-move`, `ambiguous-move`,
//!   `malformed-move`, `wrong-check-suffix`, `unterminated-comment`,
//!   `text-after-result`, `non-standard-san`, `non-standard-movetext`,
//!   `move-number`, `illegal-move-in-variation`,
//!   `ambiguous-move-in-variation`, `malformed-move-in-variation`
//! - `src/checks/draws/mod.rs`: `unclaimed-threefold`,
//!   `unclaimed-fifty-moves`, `played-past-fivefold`,
//!   `played-past-seventy-five-moves`, `played-past-dead-position`
//! - `src/checks/result.rs`: `missing-result`, `result-mismatch`,
//!   `result-contradicts-checkmate`, `result-contradicts-stalemate`,
//!   `result-contradicts-dead-position`, `result-contradicts-fivefold`,
//!   `result-contradicts-seventy-five-moves`
//! - `src/checks/wins.rs`: `unwinnable-win-on-time`,
//!   `unwinnable-win-by-resignation`, `bare-king-win`,
//!   `unexplained-win-unwinnable`, `bare-king-forfeit-win`
//! - `src/run/pipeline.rs`: `game-too-large` (a game too large to read is
//!   never judged)
//!
//! Design priorities, in order: never crash or hang on any input; correct on
//! valid PGN, article by article; every game accounted for, exactly once;
//! deterministic output; throughput; convenience.

pub mod board;
pub mod checks;
pub mod cli;
pub mod config;
pub mod finding;
pub mod read;
pub mod report;
pub mod run;
pub mod selection;

#[cfg(test)]
mod testing;

use std::{
    io,
    sync::{Arc, atomic::AtomicU64},
    time::Instant,
};

use crate::{
    config::Config,
    read::input::{self, Source},
    report::Report,
    run::{
        output::{self, Output},
        pipeline::{self, Checked},
        progress,
    },
};

/// How a run ended, as the exit status says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No finding at or above `--fail-on`, and every input was read.
    Clean = 0,
    /// Findings at or above `--fail-on`.
    Findings = 1,
    /// An input could not be read, an output could not be written, or the
    /// command line was wrong.
    Trouble = 2,
}

fn is_broken_pipe(err: &csv::Error) -> bool {
    matches!(err.kind(), csv::ErrorKind::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
}

/// Audits one input held in memory (compressed or not) with one thread and
/// returns both reports and the number of games: the whole path a run takes,
/// for the fuzz target and its regression tests.
pub fn audit_bytes(
    data: &[u8],
    judging: checks::Judging,
    raw_csv: bool,
) -> io::Result<(Vec<u8>, Vec<u8>, u64)> {
    let mut opened = input::decode(Box::new(io::Cursor::new(data.to_vec())))?;
    let (findings, games) = (SharedBuf::default(), SharedBuf::default());
    let mut report = Report::new(
        Box::new(findings.clone()),
        Some(Box::new(games.clone())),
        raw_csv,
        judging.edition,
    )
    .map_err(io::Error::other)?;
    let mut worker = pipeline::Worker::new(judging, true);
    let mut number = 0;
    let mut failed = None;
    pipeline::read_stream(0, &mut *opened.reader, &mut |piece| {
        worker.check(piece, &mut |checked| {
            if let Checked::Games { games, .. } = checked {
                for game in &games {
                    number += 1;
                    if let Err(err) = report.write_game("-", number, game) {
                        failed = Some(err);
                        return false;
                    }
                }
            }
            true
        })
    });
    if let Some(err) = failed {
        return Err(io::Error::other(err));
    }
    report.finish()?;
    drop(report);
    Ok((findings.take(), games.take(), number))
}

/// A writer that a report owns while its creator reads what was written.
#[derive(Clone, Default)]
struct SharedBuf(Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuf {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Standard output closed before the end (`pgn-arbiter ... | head`): a
/// quiet success, unless a report file was being written, which is then
/// incomplete and so is not put in place.
fn stdout_closed(to_file: bool) -> Status {
    if to_file {
        eprintln!(
            "pgn-arbiter: standard output was closed before the run ended; the report file was not written"
        );
        Status::Trouble
    } else {
        Status::Clean
    }
}

/// Writes the JSON summary and puts it in place: whole, also when the run
/// is not complete (it says so itself).
fn write_summary(out: output::Opened, json: &str) -> io::Result<()> {
    let (mut writer, file) = out.into_parts();
    writer.write_all(json.as_bytes())?;
    writer.flush()?;
    drop(writer);
    let mut commit = output::Commit::default();
    commit.add(file);
    commit.commit()
}

/// Runs the audit described by `config`.
pub fn run(config: &Config) -> Status {
    let started = Instant::now();
    let open = |out: &Output| {
        output::Opened::open(out).map_err(|err| {
            eprintln!("pgn-arbiter: cannot write {}: {err}", out.name());
        })
    };
    let Ok(findings) = open(&config.findings) else {
        return Status::Trouble;
    };
    let Ok(games) = config.games.as_ref().map(open).transpose() else {
        return Status::Trouble;
    };
    let Ok(summary_out) = config.summary.as_ref().map(open).transpose() else {
        return Status::Trouble;
    };
    let to_file = findings.is_file()
        || games.as_ref().is_some_and(output::Opened::is_file)
        || summary_out.as_ref().is_some_and(output::Opened::is_file);
    if to_file {
        output::clean_up_on_signals();
    }
    let (findings, findings_file) = findings.into_parts();
    let (games, games_file) = match games.map(output::Opened::into_parts) {
        Some((writer, file)) => (Some(writer), file),
        None => (None, None),
    };
    let mut commit = output::Commit::default();
    commit.add(findings_file);
    commit.add(games_file);
    let mut report = match Report::new(findings, games, config.raw_csv, config.edition) {
        Ok(report) => report,
        Err(err) if is_broken_pipe(&err) => return stdout_closed(to_file),
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            return Status::Trouble;
        }
    };
    report.select(config.selection.clone());

    let total = config
        .inputs
        .iter()
        .map(|i| match i.source {
            Source::Stdin => None,
            _ => Some(input::size(&i.source).unwrap_or(0)),
        })
        .sum::<Option<u64>>();
    let rows_on_stdout =
        config.findings == Output::Stdout || config.games.as_ref() == Some(&Output::Stdout);
    let bar = progress::bar(total, config.quiet, rows_on_stdout);
    let counter = Arc::new(AtomicU64::new(0));

    let mut write_error = None;
    let mut current = usize::MAX;
    let mut number = 0u64;
    let mut failed = None;
    let mut failure = None;
    // Per-input counts: every input up to `input` has begun, in order.
    let mut begun = 0usize;
    let mut begin = |report: &mut Report, input: usize| {
        while begun <= input {
            let name = config.inputs.get(begun).map_or("", |i| i.name.as_str());
            report.summary.begin_input(name);
            begun += 1;
        }
    };
    let mut sink = |checked: Checked| -> bool {
        match checked {
            Checked::Games { input, games } => {
                begin(&mut report, input);
                if input != current {
                    current = input;
                    number = 0;
                }
                if games.is_empty() {
                    return true;
                }
                let name = config.inputs.get(input).map_or("", |i| i.name.as_str());
                for game in &games {
                    number += 1;
                    if let Err(err) = report.write_game(name, number, game) {
                        write_error = Some(err);
                        return false;
                    }
                }
                bar.set_position(counter.load(std::sync::atomic::Ordering::Relaxed));
                let secs = started.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "{} games, {:.0} games/s",
                    report.summary.games,
                    report.summary.games as f64 / secs
                ));
            }
            Checked::Problem { input, message } => {
                begin(&mut report, input);
                let name = config.inputs.get(input).map_or("", |i| i.name.as_str());
                bar.suspend(|| eprintln!("pgn-arbiter: {name}: {message}"));
                report.summary.problems += 1;
                failed = Some(input);
                failure = Some(message);
            }
            Checked::InputDone(input) => {
                begin(&mut report, input);
                let problem = if failed == Some(input) {
                    failure.take()
                } else {
                    None
                };
                report.summary.end_input(problem);
                if current != input && failed != Some(input) {
                    let name = config.inputs.get(input).map_or("", |i| i.name.as_str());
                    bar.suspend(|| eprintln!("pgn-arbiter: {name}: no game found in it"));
                }
            }
        }
        true
    };
    let all_rows = config.games.is_some();
    let judging = checks::Judging {
        edition: config.edition,
        search: config.search,
        skip_variations: config.skip_variations,
    };
    pipeline::run(
        &config.inputs,
        config.jobs,
        judging,
        all_rows,
        &counter,
        &mut sink,
    );
    bar.finish_and_clear();

    let finished = report.finish();
    let cut_short = match (write_error, finished) {
        (Some(err), _) if is_broken_pipe(&err) => Some(stdout_closed(to_file)),
        (_, Err(err)) if err.kind() == io::ErrorKind::BrokenPipe => Some(stdout_closed(to_file)),
        (Some(err), _) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            Some(Status::Trouble)
        }
        (None, Err(err)) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            Some(Status::Trouble)
        }
        (None, Ok(())) => None,
    };
    let complete = cut_short.is_none() && report.summary.problems == 0;
    if let Some(out) = summary_out {
        let json = report.summary.json(
            started.elapsed(),
            complete,
            config.edition.name(),
            config.options.clone(),
        );
        if let Err(err) = write_summary(out, &json) {
            eprintln!("pgn-arbiter: cannot write the summary: {err}");
            return Status::Trouble;
        }
    }
    if let Some(status) = cut_short {
        return status;
    }
    // A report is put in place only when every input was read and a game
    // was; after an input problem it is kept beside the target as
    // NAME.partial, which cannot be taken for a complete report.
    let summary = &report.summary;
    let committed = if summary.games == 0 {
        Ok(Vec::new())
    } else if summary.problems > 0 {
        commit.commit_partial()
    } else {
        commit.commit().map(|()| Vec::new())
    };
    match committed {
        Ok(partial) => {
            for path in partial {
                eprintln!(
                    "pgn-arbiter: an input could not be read, so the report is left as {} (the previous report, if any, is unchanged)",
                    path.display()
                );
            }
        }
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the report {err}");
            return Status::Trouble;
        }
    }

    let summary = &report.summary;
    if !config.quiet {
        eprint!(
            "{}",
            summary.render(started.elapsed(), config.edition.name())
        );
    }
    if summary.games == 0 {
        // A guard that checked nothing must not pass.
        eprintln!("pgn-arbiter: no game was read from the input(s); nothing was checked");
        Status::Trouble
    } else if summary.problems > 0 {
        Status::Trouble
    } else if config.fail_on.is_some_and(|s| summary.at_least(s) > 0) {
        Status::Findings
    } else {
        Status::Clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules;

    /// What the fuzz target asserts of every input: strict CSV, one games
    /// row per game, safe cells.
    pub fn assert_sound(data: &[u8]) {
        for edition in [rules::Edition::Fide2023, rules::Edition::Fide1994] {
            let judging = checks::Judging {
                edition,
                ..checks::Judging::default()
            };
            let Ok((findings, games, count)) = audit_bytes(data, judging, false) else {
                return;
            };
            report::read_back(&findings).unwrap();
            let games = report::read_back(&games).unwrap();
            assert_eq!(games.len() as u64, count, "one games row per game");
        }
    }

    /// Inputs the fuzz target once found wrong, kept so they stay right.
    #[test]
    fn fuzz_regressions_stay_sound() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            assert_sound(&std::fs::read(&path).unwrap());
            count += 1;
        }
        assert!(count > 0, "no regression inputs in {}", dir.display());
    }
}
