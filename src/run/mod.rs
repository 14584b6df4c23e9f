//! The run: opening the outputs, the reader thread, the workers and the
//! ordered writer they take turns at ([`pipeline`], [`affinity`]), the
//! files put in place only when the run completes ([`output`]), the
//! progress bar, the summary, and the exit status; and the command line as
//! a whole ([`command`]).

pub mod affinity;
mod bytes;
pub mod command;
pub mod pipeline;
pub mod progress;
pub mod results;

use std::{
    io,
    sync::{Arc, atomic::AtomicU64},
    time::Instant,
};

pub use self::bytes::{audit_bytes, fix_bytes};
use self::pipeline::Checked;
use crate::output::{self, Output, corrected};
use crate::{
    checks,
    config::Config,
    read::input::{self, Source},
    report::{self, Report},
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

/// Standard output closed before the end (`pgn-arbiter ... | head`): a
/// quiet success, unless a report file was being written, which is then
/// incomplete and so is not put in place.
fn stdout_closed(to_file: bool) -> Status {
    if to_file {
        eprintln!(
            "pgn-arbiter: standard output was closed before the run ended; the files of this run (reports, corrected copies) were not written"
        );
        Status::Trouble
    } else {
        Status::Clean
    }
}

/// Writes an output made at the end of a run (the JSON summary, the audit
/// page) and puts it in place: whole, also when the run is not complete (it
/// says so itself).
fn write_whole(out: output::Opened, json: &str) -> io::Result<()> {
    let (mut writer, file) = out.into_parts();
    writer.write_all(json.as_bytes())?;
    writer.flush()?;
    drop(writer);
    let mut commit = output::Commit::default();
    commit.add(file);
    commit.commit()
}

/// The outputs of a run, open: both reports (written as the run goes) and
/// the JSON summary (written at the end), and the report files to put in
/// place when the run completes.
struct Outputs {
    report: Report,
    commit: output::Commit,
    summary: Option<output::Opened>,
    html: Option<output::Opened>,
    /// `--keep-results`: where each game's result goes instead of the
    /// reports.
    results: Option<report::kept::ResultsWriter>,
    /// Whether any output is a file (standard output closing early then
    /// matters).
    to_file: bool,
}

/// The writer of `--keep-results`, its header written.
fn keep_results(
    config: &Config,
    out: Box<dyn io::Write + Send>,
) -> Result<report::kept::ResultsWriter, Status> {
    let name = config.inputs.first().map_or("", |i| i.name.as_str());
    let duplicates = !config.no_duplicates;
    report::kept::ResultsWriter::new(out, crate::cli::VERSION, name, config.edition, duplicates)
        .map_err(|err| {
            eprintln!("pgn-arbiter: cannot write the results: {err}");
            Status::Trouble
        })
}

impl Outputs {
    /// Opens every output, or says why not (and returns the exit status).
    fn open(config: &Config) -> Result<Outputs, Status> {
        let open = |out: &Output| {
            output::Opened::open(out).map_err(|err| {
                eprintln!("pgn-arbiter: cannot write {err}");
                Status::Trouble
            })
        };
        let findings = match config.keep_results {
            Some(_) => output::Opened::discard(),
            None => open(&config.findings)?,
        };
        let results = config.keep_results.as_ref().map(open).transpose()?;
        let games = config.games.as_ref().map(open).transpose()?;
        let summary = config.summary.as_ref().map(open).transpose()?;
        let html = config.html.as_ref().map(open).transpose()?;
        let baseline_update = config.baseline_update.as_ref().map(open).transpose()?;
        let opened = [&results, &baseline_update, &games, &summary, &html];
        let to_file = findings.is_file()
            || opened
                .iter()
                .any(|o| o.as_ref().is_some_and(output::Opened::is_file))
            || config
                .fix
                .iter()
                .flatten()
                .flatten()
                .any(|o| matches!(o, Output::File(_)));
        let mut commit = output::Commit::default();
        // Each output's writer; its file is put in place when the run
        // completes.
        let mut writer = |opened: output::Opened| {
            let (writer, file) = opened.into_parts();
            commit.add(file);
            writer
        };
        let findings = writer(findings);
        let games = games.map(&mut writer);
        let results = results.map(&mut writer);
        let baseline_update = baseline_update.map(&mut writer);
        let header = !config.no_header;
        let made = report::format::FindingsWriter::new(
            findings,
            config.output_format,
            config.raw_csv,
            header,
            config.fail_on,
        )
        .and_then(|findings| Report::new(findings, games, config.raw_csv, config.edition, header));
        let mut report = match made {
            Ok(report) => report,
            Err(err) if is_broken_pipe(&err) => return Err(stdout_closed(to_file)),
            Err(err) => {
                eprintln!("pgn-arbiter: cannot write the report: {err}");
                return Err(Status::Trouble);
            }
        };
        report.select(config.selection.clone());
        if let Some(out) = baseline_update
            && let Err(err) = report.update_baseline(out)
        {
            eprintln!("pgn-arbiter: cannot write the baseline: {err}");
            return Err(Status::Trouble);
        }
        let results = results.map(|out| keep_results(config, out)).transpose()?;
        if results.is_none() && !config.no_duplicates && config.render.is_none() {
            // A rendering's run-wide findings are those `across` found.
            report.find_duplicates(config.memory_limit);
        }
        if html.is_some() {
            report.page = Some(Default::default());
        }
        if let Some((name, tournament)) = &config.trf {
            report.across.tournament = Some(crate::checks::across::tournament::TrfAudit::new(
                name.clone(),
                tournament.clone(),
            ));
        }
        Ok(Outputs {
            report,
            results,
            commit,
            summary,
            html,
            to_file,
        })
    }
}

/// Takes what the pipeline gives, in input order: writes each game's rows,
/// counts per input, and tells of inputs that failed or held no game.
struct Sink<'a> {
    config: &'a Config,
    report: &'a mut Report,
    /// `--keep-results`: where the games go instead of the report.
    results: Option<report::kept::ResultsWriter>,
    bar: &'a indicatif::ProgressBar,
    /// Raw bytes read so far, for the bar.
    counter: &'a AtomicU64,
    started: Instant,
    /// The input being written, and its games so far.
    current: usize,
    number: u64,
    /// Inputs whose counts have begun (all before the current one).
    begun: usize,
    /// The last input that failed, and why.
    failed: Option<(usize, String)>,
    /// Why the report could not be written.
    write_error: Option<csv::Error>,
    /// `--fix`: the corrected copies.
    fix: Option<corrected::FixFiles>,
    /// Why a corrected copy could not be written.
    fix_error: Option<io::Error>,
}

impl Sink<'_> {
    fn name(&self, input: usize) -> &str {
        self.config
            .inputs
            .get(input)
            .map_or("", |i| i.name.as_str())
    }

    /// Every input up to `input` has its counts begun, in order.
    fn begin(&mut self, input: usize) {
        while self.begun <= input {
            let name = self.name(self.begun).to_owned();
            self.report.summary.begin_input(&name);
            self.begun += 1;
        }
    }

    /// One piece of the pipeline's output; false stops the run.
    fn take(&mut self, checked: Checked) -> bool {
        if let Some(stop) = &self.config.stop
            && stop.load(std::sync::atomic::Ordering::Relaxed)
        {
            // Ended as when the reader of standard output goes away.
            self.write_error = Some(io::Error::from(io::ErrorKind::BrokenPipe).into());
            return false;
        }
        match checked {
            Checked::Games {
                input,
                games,
                copy,
                spares,
            } => {
                self.begin(input);
                if input != self.current {
                    self.current = input;
                    self.number = self.config.game_offset;
                }
                if games.is_empty() {
                    return true;
                }
                let name = self.name(input).to_owned();
                for (i, game) in games.iter().enumerate() {
                    self.number += 1;
                    let written = match &mut self.results {
                        Some(results) => {
                            self.report.summary.count_game(game.verdict.plies);
                            results.game(game).map_err(csv::Error::from)
                        }
                        None => {
                            self.report.ahead(games.get(i + 2), games.get(i + 1));
                            self.report.write_game(&name, self.number, game)
                        }
                    };
                    if let Err(err) = written {
                        self.write_error = Some(err);
                        return false;
                    }
                    if let (Some(counts), Some(fixed)) =
                        (&mut self.report.summary.fixed, &game.fixed)
                    {
                        counts.count(&fixed.changes);
                    }
                }
                if let Some(fix) = &mut self.fix
                    && let Err(err) = fix.games(input, &games, &copy)
                {
                    self.fix_error = Some(err);
                    return false;
                }
                if let Some(spares) = spares {
                    spares.give(games);
                }
                self.bar
                    .set_position(self.counter.load(std::sync::atomic::Ordering::Relaxed));
                let secs = self.started.elapsed().as_secs_f64().max(1e-9);
                let games = self.report.summary.games;
                self.bar
                    .set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
            }
            Checked::Problem { input, message } => {
                self.begin(input);
                let name = self.name(input);
                self.bar
                    .suspend(|| eprintln!("pgn-arbiter: {name}: {message}"));
                self.report.summary.problems += 1;
                if let Some(fix) = &mut self.fix {
                    fix.broken_input(input, message.clone());
                }
                self.failed = Some((input, message));
            }
            Checked::InputDone(input) => {
                self.begin(input);
                if let Some(fix) = &mut self.fix
                    && let Err(err) = fix.input_done(input)
                {
                    self.fix_error = Some(err);
                    return false;
                }
                let problem = match self.failed.take() {
                    Some((failed, why)) if failed == input => Some(why),
                    other => {
                        self.failed = other;
                        None
                    }
                };
                let failed = problem.is_some();
                self.report.summary.end_input(problem);
                if self.current != input && !failed && !self.config.is_shard() {
                    let name = self.name(input);
                    self.bar
                        .suspend(|| eprintln!("pgn-arbiter: {name}: no game found in it"));
                }
            }
        }
        true
    }
}

/// `pgn-arbiter frames FILE`: the zstd file's frames as CSV on standard
/// output.
pub fn frames(path: &std::path::Path) -> Status {
    let (frames, damage) = match std::fs::File::open(path) {
        Ok(file) => crate::read::frames::list_readable(&mut io::BufReader::new(file)),
        Err(err) => (Vec::new(), Some(err)),
    };
    // A file cut short or damaged: the frames before the damage are
    // listed (they can be audited), and the damage said; exit status 2.
    let status = match damage {
        Some(err) if frames.is_empty() => {
            eprintln!("pgn-arbiter: {}: {err}", path.display());
            return Status::Trouble;
        }
        Some(err) => {
            eprintln!(
                "pgn-arbiter: {}: {err}; the {} frames before it are listed",
                path.display(),
                frames.len()
            );
            Status::Trouble
        }
        None => Status::Clean,
    };
    let mut out = String::from("frame,offset,size,content_size\n");
    for (index, frame) in frames.iter().enumerate() {
        let content = frame
            .content_size
            .map(|n| n.to_string())
            .unwrap_or_default();
        out.push_str(&format!(
            "{index},{},{},{content}\n",
            frame.offset, frame.size
        ));
    }
    match io::Write::write_all(&mut io::stdout(), out.as_bytes()) {
        Ok(()) => status,
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => status,
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the frames: {err}");
            Status::Trouble
        }
    }
}

/// A reader that counts the line feeds it passes on.
struct CountLines<'a> {
    inner: &'a mut dyn io::Read,
    lines: u64,
}

impl io::Read for CountLines<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        Ok(n)
    }
}

/// Reads `reader` to its end.
fn read_through(reader: &mut impl io::Read) -> io::Result<()> {
    let mut buf = vec![0; 1 << 18];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// `--count`: the games and lines of the inputs (shards), read as an audit
/// reads them but not judged, as JSON on standard output; `--count-lines`:
/// only the lines, the games not looked for.
fn count(config: &Config) -> Status {
    let (mut games, mut lines, mut failed) = (0u64, 0u64, false);
    let mut worker = pipeline::Worker::new(checks::Judging::default(), false);
    for input in &config.inputs {
        let mut opened = match input::open(&input.source, Arc::default()) {
            Ok(opened) => opened,
            Err(err) => {
                eprintln!("pgn-arbiter: {}: {err}", input.name);
                failed = true;
                continue;
            }
        };
        let mut reader = CountLines {
            inner: &mut *opened.reader,
            lines: 0,
        };
        if config.count_lines {
            if let Err(err) = read_through(&mut reader) {
                eprintln!("pgn-arbiter: {}: {err}", input.name);
                failed = true;
            }
            lines += reader.lines;
            continue;
        }
        crate::read::blocks::read_stream(&mut reader, &mut |piece: crate::read::blocks::Piece| {
            match piece {
                crate::read::blocks::Piece::Block(block) => games += worker.count_games(&block),
                crate::read::blocks::Piece::TooLarge { .. } => games += 1,
                crate::read::blocks::Piece::Problem { message, .. } => {
                    eprintln!("pgn-arbiter: {}: {message}", input.name);
                    failed = true;
                }
                crate::read::blocks::Piece::InputDone(_) => {}
            }
            true
        });
        lines += reader.lines;
    }
    // A count of part of the input would pass for the whole's.
    if failed {
        eprintln!("pgn-arbiter: no count: an input was not read whole");
        return Status::Trouble;
    }
    if config.count_lines {
        println!("{}", serde_json::json!({ "lines": lines }));
    } else {
        println!("{}", serde_json::json!({ "games": games, "lines": lines }));
    }
    Status::Clean
}

/// What each worker does with a game, by the run's settings.
fn task(config: &Config) -> pipeline::Task {
    let judging = checks::Judging {
        edition: config.edition,
        search: config.search,
        skip_variations: config.skip_variations,
        header: checks::header::HeaderRules {
            today: checks::header::latest_day(),
            strict: config.strict_tags,
        },
        duplicates: !config.no_duplicates,
        corrections: config.fix.is_some(),
    };
    pipeline::Task {
        judging,
        all_rows: config.games.is_some()
            || config.html.is_some()
            || config.trf.is_some()
            || config.keep_results.is_some(),
        fix: config
            .fix
            .is_some()
            .then(|| Arc::new(config.selection.without_baseline())),
    }
}

/// Runs the audit described by `config`.
pub fn run(config: &Config) -> Status {
    if config.count || config.count_lines {
        return count(config);
    }
    // No output of this run is in place yet (a program may run several).
    *output::finishing() = false;
    let started = Instant::now();
    let mut outputs = match Outputs::open(config) {
        Ok(outputs) => outputs,
        Err(status) => return status,
    };
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
    // Each input's SHA-256 for the summary and the page, which name the
    // files audited.
    let hash = config.summary.is_some() || config.html.is_some();
    let tally = input::Tally::new(config.inputs.len(), hash);
    let mut sink = Sink {
        config,
        report: &mut outputs.report,
        results: outputs.results.take(),
        bar: &bar,
        counter: &tally.bytes,
        started,
        current: usize::MAX,
        number: 0,
        begun: 0,
        failed: None,
        write_error: None,
        fix: config.fix.clone().map(corrected::FixFiles::new),
        fix_error: None,
    };
    if config.fix.is_some() {
        sink.report.summary.fixed = Some(Default::default());
    }
    let task = task(config);
    match &config.render {
        Some(render) => results::replay(render, config.game_offset, &tally.bytes, &mut |c| {
            sink.take(c)
        }),
        None => pipeline::run(
            &config.inputs,
            config.jobs,
            &task,
            config.line_offset,
            &tally,
            &mut |checked| sink.take(checked),
        ),
    }
    for (index, counts) in sink.report.summary.inputs.iter_mut().enumerate() {
        counts.sha256 = tally.digest(index);
    }
    let mut write_error = sink.write_error.take();
    let whole = sink.report.summary.problems == 0;
    if let Some(results) = sink.results.take()
        && let Err(err) = results.finish(whole)
    {
        write_error.get_or_insert(err.into());
    }
    if write_error.is_none()
        && sink.fix_error.is_none()
        && let Err(err) = sink.report.write_tournament()
    {
        write_error = Some(err);
    }
    let fix = match sink.fix_error.take() {
        Some(err) => Err(err),
        None => Ok(sink.fix.take()),
    };
    bar.finish_and_clear();
    finish(config, outputs, write_error, fix, started)
}

/// Puts the report files and the corrected copies in place (or keeps them
/// as NAME.partial). Returns whether a copy is not whole, or the exit
/// status when an output could not be written.
fn put_in_place(
    commit: output::Commit,
    fix: io::Result<Option<corrected::FixFiles>>,
    nothing: bool,
    problems: u64,
    to_file: bool,
) -> Result<bool, Status> {
    let fix = match fix {
        Ok(fix) => fix,
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Err(stdout_closed(to_file)),
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the corrected copy: {err}");
            return Err(Status::Trouble);
        }
    };
    // A report is put in place only when every input was read and a game
    // was (a shard may hold none); after an input problem it is kept
    // beside the target as NAME.partial, which cannot be taken for a
    // complete report.
    let committed = if nothing {
        Ok(Vec::new())
    } else if problems > 0 {
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
            return Err(Status::Trouble);
        }
    }
    // Corrected copies: whole ones put in place, the others as NAME.partial.
    let Some(fix) = fix.filter(|_| !nothing) else {
        return Ok(false);
    };
    match fix.commit() {
        Ok(messages) => {
            for message in &messages {
                eprintln!("pgn-arbiter: {message}");
            }
            Ok(!messages.is_empty())
        }
        Err(err) => {
            eprintln!("pgn-arbiter: cannot write the corrected copy: {err}");
            Err(Status::Trouble)
        }
    }
}

/// Whether the reports were cut short: standard output closed (`to_file`:
/// whether a report goes to a file), or a report that could not be written
/// (said on standard error).
fn cut_short(
    write_error: Option<csv::Error>,
    finished: io::Result<()>,
    to_file: bool,
) -> Option<Status> {
    let err = match (write_error, finished) {
        (None, Ok(())) => return None,
        (Some(err), _) if is_broken_pipe(&err) => return Some(stdout_closed(to_file)),
        (_, Err(err)) if err.kind() == io::ErrorKind::BrokenPipe => {
            return Some(stdout_closed(to_file));
        }
        (Some(err), _) => err.to_string(),
        (None, Err(err)) => err.to_string(),
    };
    eprintln!("pgn-arbiter: cannot write the report: {err}");
    Some(Status::Trouble)
}

/// Writes the audit page whole; false (said on standard error) when it
/// could not be.
fn write_page(
    config: &Config,
    out: output::Opened,
    page: &report::page::Page,
    summary: &report::Summary,
    complete: bool,
) -> bool {
    let today = checks::header::today();
    let date = format!(
        "{:04}-{:02}-{:02}",
        today / 10000,
        today / 100 % 100,
        today % 100
    );
    let run = report::page::RunFacts {
        edition: config.edition,
        date: &date,
        complete,
    };
    if let Err(err) = write_whole(out, &page.render(summary, &run)) {
        eprintln!("pgn-arbiter: cannot write the audit page: {err}");
        return false;
    }
    true
}

/// Ends a run: the report files and copies put in place (or kept as
/// NAME.partial), the JSON summary and the page, the summary for people,
/// and the exit status.
fn finish(
    config: &Config,
    outputs: Outputs,
    write_error: Option<csv::Error>,
    fix: io::Result<Option<corrected::FixFiles>>,
    started: Instant,
) -> Status {
    let Outputs {
        mut report,
        commit,
        summary: summary_out,
        html,
        to_file,
        ..
    } = outputs;
    let finished = report.finish();
    let cut_short = cut_short(write_error, finished, to_file);
    // A signal from here on waits until every file is in place. Held only
    // when a file is put in place: with every output on standard output, a
    // signal does not wait on its reader.
    let mut finishing = to_file.then(output::finishing);
    let nothing = report.summary.games == 0 && !config.is_shard();
    // The copies and the reports first, so that the summary and the page
    // can say whether every output asked for was written whole.
    let mut trouble = None;
    let mut fix_incomplete = false;
    if cut_short.is_none() {
        // From here a file of this run may be in place, even if a later
        // one fails.
        if let Some(put) = finishing.as_deref_mut() {
            *put = true;
        }
        let written = put_in_place(commit, fix, nothing, report.summary.problems, to_file);
        match written {
            Ok(incomplete) => fix_incomplete = incomplete,
            Err(status) => trouble = Some(status),
        }
    }
    let whole = cut_short.is_none() && trouble.is_none() && !fix_incomplete;
    if !whole {
        // What --fix changed is not counted where its copy is not whole.
        report.summary.fixed = None;
    }
    let summary = &report.summary;
    let mut complete = whole && summary.problems == 0;
    // The page before the summary, so that the summary can say whether the
    // page was written.
    if let (Some(out), Some(page)) = (html, &report.page)
        && !write_page(config, out, page, summary, complete)
    {
        complete = false;
        trouble = Some(Status::Trouble);
    }
    if let Some(out) = summary_out {
        let json = summary.json(
            started.elapsed(),
            complete,
            config.edition.name(),
            config.options.clone(),
        );
        if let Err(err) = write_whole(out, &json) {
            eprintln!("pgn-arbiter: cannot write the summary: {err}");
            return Status::Trouble;
        }
    }
    drop(finishing);
    if let Some(status) = cut_short.or(trouble) {
        return status;
    }
    if !config.quiet {
        eprint!(
            "{}",
            summary.render(started.elapsed(), config.edition.name())
        );
    }
    if nothing {
        // A guard that checked nothing must not pass.
        eprintln!("pgn-arbiter: no game was read from the input(s); nothing was checked");
        Status::Trouble
    } else if summary.problems > 0 || fix_incomplete {
        Status::Trouble
    } else if config.fail_on.is_some_and(|s| summary.at_least(s) > 0) {
        Status::Findings
    } else {
        Status::Clean
    }
}

#[cfg(test)]
mod tests;
