//! pgn-arbiter audits PGN chess archives.
//!
//! The life of one game: `input` opens the bytes (decompressing by magic
//! bytes); `pipeline` cuts them into blocks of whole games, using `pgn` (the
//! only module that knows pgn-reader) to find where games start; a worker
//! reads each game with `lexer`, which follows pgn-reader's rules and also
//! says where every tag and move is; `checks` judges the game: tags, starting position
//! (`checks::setup`), the replay on shakmaty (`replay`), moves and result;
//! each problem becomes a `finding::Finding`; `report` writes both CSV
//! reports in input order and counts the summary.
//!
//! Design priorities, in order: never crash or hang on any input; correct on
//! valid PGN, article by article; every game accounted for, exactly once;
//! deterministic output; throughput; convenience.

pub mod checks;
pub mod cli;
pub mod config;
pub mod finding;
pub mod game;
pub mod history;
pub mod input;
pub mod lexer;
pub mod output;
pub mod pgn;
pub mod pipeline;
pub mod progress;
pub mod replay;
pub mod report;
pub mod rules;

#[cfg(test)]
mod testing;

use std::{
    io,
    sync::{Arc, atomic::AtomicU64},
    time::Instant,
};

use crate::{config::Config, input::Source, output::Output, pipeline::Checked, report::Report};

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
    let to_file = findings.is_file() || games.as_ref().is_some_and(output::Opened::is_file);
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
    let mut report = match Report::new(findings, games, config.raw_csv) {
        Ok(report) => report,
        Err(err) if is_broken_pipe(&err) => return stdout_closed(to_file),
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            return Status::Trouble;
        }
    };

    let total = config
        .inputs
        .iter()
        .map(|i| match i.source {
            Source::Stdin => None,
            _ => Some(input::size(&i.source).unwrap_or(0)),
        })
        .sum::<Option<u64>>();
    let bar = progress::bar(total, config.quiet);
    let counter = Arc::new(AtomicU64::new(0));

    let mut write_error = None;
    let mut current = usize::MAX;
    let mut number = 0u64;
    let mut failed = None;
    let mut sink = |checked: Checked| -> bool {
        match checked {
            Checked::Games { input, games } => {
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
                let name = config.inputs.get(input).map_or("", |i| i.name.as_str());
                bar.suspend(|| eprintln!("pgn-arbiter: {name}: {message}"));
                report.summary.problems += 1;
                failed = Some(input);
            }
            Checked::InputDone(input) => {
                report.summary.files += 1;
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
    match (write_error, finished) {
        (Some(err), _) if is_broken_pipe(&err) => return stdout_closed(to_file),
        (_, Err(err)) if err.kind() == io::ErrorKind::BrokenPipe => return stdout_closed(to_file),
        (Some(err), _) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            return Status::Trouble;
        }
        (None, Err(err)) => {
            eprintln!("pgn-arbiter: cannot write the report: {err}");
            return Status::Trouble;
        }
        (None, Ok(())) => {}
    }
    if let Err(err) = commit.commit() {
        eprintln!("pgn-arbiter: cannot write the report {err}");
        return Status::Trouble;
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
