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

use crate::{config::Config, input::Source, pipeline::Checked, report::Report};

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

/// Runs the audit described by `config`.
pub fn run(config: &Config) -> Status {
    let started = Instant::now();
    let open = |out: &config::Output| {
        out.open().map_err(|err| {
            let name = match out {
                config::Output::Stdout => "standard output".to_owned(),
                config::Output::File(path) => path.display().to_string(),
            };
            eprintln!("pgn-arbiter: cannot write {name}: {err}");
        })
    };
    let Ok(findings) = open(&config.findings) else {
        return Status::Trouble;
    };
    let games = match config.games.as_ref().map(open).transpose() {
        Ok(games) => games,
        Err(()) => return Status::Trouble,
    };
    let mut report = match Report::new(findings, games) {
        Ok(report) => report,
        Err(err) if is_broken_pipe(&err) => return Status::Clean,
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
    let mut sink = |checked: Checked| -> bool {
        match checked {
            Checked::Games { input, games } => {
                if input != current {
                    current = input;
                    number = 0;
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
            }
            Checked::InputDone(_) => report.summary.files += 1,
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
        (Some(err), _) if is_broken_pipe(&err) => return Status::Clean,
        (_, Err(err)) if err.kind() == io::ErrorKind::BrokenPipe => return Status::Clean,
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

    let summary = &report.summary;
    if !config.quiet {
        eprint!(
            "{}",
            summary.render(started.elapsed(), config.edition.name())
        );
    }
    if summary.problems > 0 {
        Status::Trouble
    } else if config.fail_on.is_some_and(|s| summary.at_least(s) > 0) {
        Status::Findings
    } else {
        Status::Clean
    }
}
