//! Validated, typed settings, built once from the command line and the
//! settings file ([`file`](mod@file)): where bytes come from and where reports go.

pub mod file;

use std::{
    io::{self, IsTerminal},
    path::{Path, PathBuf},
};

use crate::{
    board::rules::Edition,
    board::winnable::Search,
    cli::{Cli, FailOn, Rules, WinnabilitySearch},
    finding::Severity,
    output::{self, Output, corrected},
    read::{
        input::{self, Input},
        shard,
    },
    report::{Selection, format::Format},
};

/// Everything a run needs to know.
#[derive(Debug, Clone)]
pub struct Config {
    /// Inputs, in order.
    pub inputs: Vec<Input>,
    /// The findings report.
    pub findings: Output,
    /// Its form.
    pub output_format: Format,
    /// The games report, if asked for.
    pub games: Option<Output>,
    /// The summary as JSON, if asked for.
    pub summary: Option<Output>,
    /// The audit page, if asked for.
    pub html: Option<Output>,
    /// `--baseline-update`: where the ratcheted baseline goes.
    pub baseline_update: Option<Output>,
    /// `--fix`: where each input's corrected copy goes.
    pub fix: Option<Vec<Option<Output>>>,
    /// Findings at or above this make the exit status 1; `None` never.
    pub fail_on: Option<Severity>,
    /// The rule edition.
    pub edition: Edition,
    /// The winnability search for games won on time.
    pub search: Search,
    /// Variations are not replayed.
    pub skip_variations: bool,
    /// `--strict-tags`.
    pub strict_tags: bool,
    /// `--no-duplicates`.
    pub no_duplicates: bool,
    /// `--memory-limit`: bytes the run-wide tables (duplicates, rounds) keep
    /// in memory.
    pub memory_limit: usize,
    /// Worker threads.
    pub jobs: usize,
    /// Progress bar and summary on stderr.
    pub quiet: bool,
    /// Cells as they are, not made safe for spreadsheets.
    pub raw_csv: bool,
    /// Which findings are reported (`--select`, `--ignore`, `--baseline`).
    pub selection: Selection,
    /// The options as given, for the JSON summary.
    pub options: serde_json::Value,
    /// Games before the one input's first (`--game-offset`).
    pub game_offset: u64,
    /// Lines before the one input's first (`--line-offset`).
    pub line_offset: u64,
    /// CSV reports without their header row.
    pub no_header: bool,
    /// Count games and lines instead of auditing (`--count`).
    pub count: bool,
    /// Count only lines (`--count-lines`).
    pub count_lines: bool,
    /// `--keep-results`: where the games' results go instead of reports.
    pub keep_results: Option<Output>,
    /// `--render`: the results whose reports are written, instead of an
    /// audit.
    pub render: Option<Render>,
    /// The tournament report file (`--trf`), as named and as read.
    pub trf: Option<(String, crate::read::trf::Tournament)>,
    /// Set by a program that runs the audit as a library (the Python
    /// module) to end it early, as a closed standard output ends it.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Config {
    /// Whether the run is one shard of a file (`--zstd-frames`, `--bytes`),
    /// which may hold no game at all.
    pub fn is_shard(&self) -> bool {
        self.render.is_some()
            || matches!(
                &self.inputs[..],
                [Input {
                    source: input::Source::Shard(..),
                    ..
                }]
            )
    }
}

/// `--jobs` is capped at this many threads per core.
pub const MAX_JOBS_PER_CORE: usize = 4;

/// `--render RESULTS --across ACROSS`: what is rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Render {
    /// The results file.
    pub results: PathBuf,
    /// The run-wide findings of its games, when there are.
    pub across: Option<PathBuf>,
}

/// A problem with the command line.
#[derive(Debug)]
pub struct UsageError(pub String);

impl Config {
    /// Validates the command line.
    pub fn from_cli(cli: Cli) -> Result<Config, UsageError> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let (cli, settings) = merge(cli, &cwd)?;
        let jobs = jobs(cli.jobs)?;
        let fail_on = fail_on(cli.fail_on);
        let mut options = options(&cli, jobs);
        let mut selection = selection(&cli)?;
        let trf = trf(cli.trf.as_deref())?;
        let (inputs, render) = sources(&cli)?;
        let keep_results = kept(&cli, &inputs)?;
        if let Some(settings) = &settings {
            selection.per_input(per_input(settings, &inputs, &cwd)?);
        }
        let findings = cli.findings.map_or(Output::Stdout, Output::from_path);
        let games = cli.games.map(Output::from_path);
        let summary = cli.summary.map(Output::from_path);
        let html = cli.html.map(Output::from_path);
        let mut outputs = vec![("--findings", &findings)];
        outputs.extend(games.as_ref().map(|g| ("--games", g)));
        outputs.extend(summary.as_ref().map(|s| ("--summary", s)));
        outputs.extend(html.as_ref().map(|h| ("--html", h)));
        outputs.extend(keep_results.as_ref().map(|k| ("--keep-results", k)));
        let settings_path = settings.as_ref().map(|s| &s.path);
        let others = [&cli.trf, &cli.baseline, &cli.across];
        let read = read_by_run(&inputs, others.into_iter().flatten().chain(settings_path));
        output::check(&read, &outputs).map_err(|e| UsageError(e.to_string()))?;
        // The ratcheted baseline may replace the baseline it reads (the
        // baseline is read whole before the run, and replaced only when the
        // run is complete), but nothing else the run reads or writes: not
        // an input, even one that is the baseline file too.
        let baseline_update = cli.baseline_update.map(Output::from_path);
        if let Some(update) = &baseline_update {
            let baseline = cli.baseline.as_ref().map(|b| b.display().to_string());
            let others: Vec<Input> = (read.iter().enumerate())
                .filter(|(i, input)| *i < inputs.len() || Some(&input.name) != baseline.as_ref())
                .map(|(_, input)| input.clone())
                .collect();
            outputs.push(("--baseline-update", update));
            output::check(&others, &outputs).map_err(|e| UsageError(e.to_string()))?;
        }
        check_stdout(cli.fix.as_deref(), &outputs, &read)?;
        let reports: Vec<&Output> = outputs.iter().map(|(_, o)| *o).collect();
        let fix = cli
            .fix
            .as_deref()
            .map(|out| corrected::plan(&inputs, &read, out, &reports))
            .transpose()
            .map_err(UsageError)?;
        let output_format = output_format(cli.output_format, &findings, games.as_ref())?;
        options["output_format"] = output_format.name().into();
        options["config"] = settings
            .as_ref()
            .map(|s| s.path.display().to_string())
            .into();
        Ok(Config {
            inputs,
            output_format,
            findings,
            games,
            summary,
            html,
            baseline_update,
            fix,
            fail_on,
            edition: edition(cli.rules),
            search: search(cli.winnability),
            skip_variations: cli.no_variations,
            strict_tags: cli.strict_tags,
            no_duplicates: cli.no_duplicates,
            memory_limit: cli.memory_limit,
            jobs,
            quiet: cli.quiet,
            raw_csv: cli.raw_csv,
            selection,
            options,
            game_offset: cli.game_offset,
            line_offset: cli.line_offset,
            no_header: cli.no_header,
            count: cli.count,
            count_lines: cli.count_lines,
            keep_results,
            render,
            trf,
            stop: None,
        })
    }
}

/// What the run reads: the inputs, and the TRF, the baseline, the across
/// file and the settings file, read as an input is: no output may be
/// written over them.
fn read_by_run<'a>(inputs: &[Input], others: impl Iterator<Item = &'a PathBuf>) -> Vec<Input> {
    let mut read = inputs.to_vec();
    read.extend(others.map(|path| Input {
        name: path.display().to_string(),
        source: input::Source::File(path.clone()),
    }));
    read
}

/// Standard output, when it is redirected to a file: never one the run
/// reads (`--fix - dir > dir/fixed.pgn`).
fn check_stdout(
    fix: Option<&Path>,
    outputs: &[(&'static str, &Output)],
    read: &[Input],
) -> Result<(), UsageError> {
    let fix_to_stdout = fix.is_some_and(|f| f.as_os_str() == "-");
    let to_stdout = outputs
        .iter()
        .find(|(_, o)| **o == Output::Stdout)
        .map(|(f, _)| *f);
    match fix_to_stdout.then_some("--fix -").or(to_stdout) {
        Some(flag) => output::check_stdout(flag, read).map_err(|e| UsageError(e.to_string())),
        None => Ok(()),
    }
}

/// Which findings are reported: `--select`, `--ignore`, `--baseline`.
fn selection(cli: &Cli) -> Result<Selection, UsageError> {
    let usage = |e: crate::report::selection::SelectionError| UsageError(e.to_string());
    let selection = Selection::new(cli.select.as_deref(), cli.ignore.as_deref()).map_err(usage)?;
    match &cli.baseline {
        Some(path) => selection.with_baseline(path).map_err(usage),
        None => Ok(selection),
    }
}

/// The inputs, or the results rendered (`--render`) and their input.
fn sources(cli: &Cli) -> Result<(Vec<Input>, Option<Render>), UsageError> {
    Ok(match rendered(cli)? {
        Some((render, input)) => (vec![input], Some(render)),
        None => (inputs(cli, &paths(cli)?)?, None),
    })
}

/// `--render RESULTS [--across FILE]`, and the input its results are of:
/// named as the audit named it, read from RESULTS. The results must have
/// been judged under the run's --rules.
fn rendered(cli: &Cli) -> Result<Option<(Render, Input)>, UsageError> {
    let Some(results) = &cli.render else {
        return Ok(None);
    };
    let (reader, header) = crate::report::kept::Reader::results(results, crate::cli::VERSION)
        .map_err(|why| UsageError(format!("--render {}: {why}", results.display())))?;
    // The across file is checked whole, and against these results and
    // numbers, before anything is written.
    if let Some(across) = &cli.across {
        let version = crate::cli::VERSION;
        crate::report::kept::Reader::across(across, version, reader.digest(), cli.game_offset)
            .map_err(|why| UsageError(format!("--across {}: {why}", across.display())))?;
    }
    let rules = edition(cli.rules).name();
    if header.edition != rules {
        return Err(UsageError(format!(
            "--render {}: its games were judged under {}, and this run is under {rules}: give --rules {}",
            results.display(),
            header.edition,
            header.edition
        )));
    }
    let render = Render {
        results: results.clone(),
        across: cli.across.clone(),
    };
    let input = Input {
        name: header.input,
        source: input::Source::File(results.clone()),
    };
    Ok(Some((render, input)))
}

/// `--keep-results FILE`: a file, for the run's one input.
fn kept(cli: &Cli, inputs: &[Input]) -> Result<Option<Output>, UsageError> {
    let Some(path) = &cli.keep_results else {
        return Ok(None);
    };
    if path.as_os_str() == "-" || inputs.len() != 1 {
        return Err(UsageError(
            "--keep-results takes a file, and exactly one INPUT".into(),
        ));
    }
    crate::report::kept::may_replace(path, true)
        .map_err(|why| UsageError(format!("--keep-results {why}")))?;
    Ok(Some(Output::from_path(path.clone())))
}

/// The tournament report file (`--trf`), as named and as read.
fn trf(path: Option<&Path>) -> Result<Option<(String, crate::read::trf::Tournament)>, UsageError> {
    path.map(|path| {
        crate::read::trf::load(path)
            .map(|tournament| (path.display().to_string(), tournament))
            .map_err(|e| UsageError(format!("--trf {}: {e}", path.display())))
    })
    .transpose()
}

/// The edition of the Laws (`--rules`, default fide-2023).
fn edition(asked: Option<Rules>) -> Edition {
    match asked.unwrap_or(Rules::Fide2023) {
        Rules::Fide2023 => Edition::Fide2023,
        Rules::Fide2000 => Edition::Fide2000,
        Rules::Fide1994 => Edition::Fide1994,
    }
}

/// The winnability search (`--winnability`, default fast).
fn search(asked: Option<WinnabilitySearch>) -> Search {
    match asked.unwrap_or(WinnabilitySearch::Fast) {
        WinnabilitySearch::Full => Search::Full,
        WinnabilitySearch::Fast => Search::Fast,
        WinnabilitySearch::All => Search::All,
    }
}

/// The severity that fails the run (`--fail-on`, default error); `None`:
/// never.
fn fail_on(asked: Option<FailOn>) -> Option<Severity> {
    match asked.unwrap_or(FailOn::Error) {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    }
}

/// The settings file's values where the command line gives none: the file
/// `--config` names, else the one found from `cwd` upward, unless
/// `--isolated`.
fn merge(mut cli: Cli, cwd: &Path) -> Result<(Cli, Option<file::Settings>), UsageError> {
    if cli.isolated {
        return Ok((cli, None));
    }
    let Some(path) = cli.config.clone().or_else(|| file::find(cwd)) else {
        return Ok((cli, None));
    };
    let settings = file::load(&path).map_err(UsageError)?;
    cli.select = cli.select.or_else(|| settings.select.clone());
    cli.ignore = cli.ignore.or_else(|| settings.ignore.clone());
    cli.fail_on = cli.fail_on.or(settings.fail_on);
    cli.rules = cli.rules.or(settings.rules);
    cli.winnability = cli.winnability.or(settings.winnability);
    cli.output_format = cli.output_format.or(settings.output_format);
    cli.strict_tags |= settings.strict_tags.unwrap_or(false);
    Ok((cli, Some(settings)))
}

/// The kinds `per-file-ignores` leaves out of each input.
fn per_input(
    settings: &file::Settings,
    inputs: &[Input],
    cwd: &Path,
) -> Result<Vec<u128>, UsageError> {
    let per_file = file::PerFile::new(settings, cwd).map_err(UsageError)?;
    let name = settings.path.display();
    inputs
        .iter()
        .map(|input| {
            let path = match &input.source {
                input::Source::File(path) | input::Source::Shard(path, _) => path,
                _ => return Ok(0),
            };
            per_file
                .lists_for(path, cwd)
                .into_iter()
                .try_fold(0, |mask, list| {
                    Selection::kinds_in(list)
                        .map(|kinds| mask | kinds)
                        .map_err(|e| UsageError(format!("{name}: per-file-ignores: {e}")))
                })
        })
        .collect()
}

/// The findings report's form: as asked, else `concise` when the findings go
/// to a terminal, CSV otherwise.
/// The findings report's form: as asked, else concise for a terminal and
/// CSV otherwise. Parquet reports are files (a Parquet file is written
/// whole, its footer last, and read by programs that seek in it).
fn output_format(
    asked: Option<Format>,
    findings: &Output,
    games: Option<&Output>,
) -> Result<Format, UsageError> {
    let format = match asked {
        Some(format) => format,
        None if *findings == Output::Stdout && io::stdout().is_terminal() => Format::Concise,
        None => Format::Csv,
    };
    if format == Format::Parquet {
        for (flag, output) in [("--findings", Some(findings)), ("--games", games)] {
            if let Some(output) = output
                && !matches!(output, Output::File(_))
            {
                return Err(UsageError(format!(
                    "--output-format parquet writes files: give {flag} FILE (not standard output)"
                )));
            }
        }
    }
    Ok(format)
}

/// Worker threads: `--jobs`, else every core; at most `MAX_JOBS_PER_CORE`
/// a core.
fn jobs(requested: Option<usize>) -> Result<usize, UsageError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = match requested {
        Some(0) => return Err(UsageError("--jobs must be at least 1".into())),
        Some(n) => n,
        None => cores,
    };
    // More threads than cores only costs memory; a typo such as
    // `-j 100000` must not start that many.
    let jobs = if jobs > cores * MAX_JOBS_PER_CORE {
        eprintln!(
            "pgn-arbiter: --jobs {jobs} is more than {MAX_JOBS_PER_CORE} per core; using {}",
            cores * MAX_JOBS_PER_CORE
        );
        cores * MAX_JOBS_PER_CORE
    } else {
        jobs
    };
    Ok(jobs)
}

/// The options as the summary's `options` records them.
fn options(cli: &Cli, jobs: usize) -> serde_json::Value {
    serde_json::json!({
        "select": cli.select,
        "ignore": cli.ignore,
        "baseline": cli.baseline.as_ref().map(|p| p.display().to_string()),
        "fail_on": format!("{:?}", cli.fail_on.unwrap_or(FailOn::Error)).to_lowercase(),
        "winnability": format!("{:?}", cli.winnability.unwrap_or(WinnabilitySearch::Fast)).to_lowercase(),
        "no_variations": cli.no_variations,
        "strict_tags": cli.strict_tags,
        "no_duplicates": cli.no_duplicates,
        "memory_limit": cli.memory_limit,
        "raw_csv": cli.raw_csv,
        "keep_results": cli.keep_results.as_ref().map(|p| p.display().to_string()),
        "render": cli.render.as_ref().map(|p| p.display().to_string()),
        "across": cli.across.as_ref().map(|p| p.display().to_string()),
        "trf": cli.trf.as_ref().map(|p| p.display().to_string()),
        "zstd_frames": cli.zstd_frames,
        "frame_bytes": cli.frame_bytes,
        "bytes": cli.bytes,
        "game_offset": cli.game_offset,
        "line_offset": cli.line_offset,
        "html": cli.html.as_ref().map(|p| p.display().to_string()),
        "fix": cli.fix.as_ref().map(|p| p.display().to_string()),
        "jobs": jobs,
    })
}

/// The paths named, or standard input when none are and it is not a
/// terminal.
fn paths(cli: &Cli) -> Result<Vec<PathBuf>, UsageError> {
    let mut paths = cli.inputs.clone();
    if paths.is_empty() {
        if io::stdin().is_terminal() {
            return Err(UsageError(
                "no input: name PGN files or directories, or pipe PGN into standard input (see --help)".into(),
            ));
        }
        paths.push(PathBuf::from("-"));
    }
    if paths.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(UsageError(
            "standard input ('-') can be read only once".into(),
        ));
    }
    Ok(paths)
}

/// The inputs: directories walked, and a shard's range on its one file.
fn inputs(cli: &Cli, paths: &[PathBuf]) -> Result<Vec<Input>, UsageError> {
    let (mut inputs, notes) = input::expand(paths, cli.follow);
    for note in notes {
        eprintln!("pgn-arbiter: {note}");
    }
    let range = match (&cli.zstd_frames, &cli.bytes) {
        (Some(text), _) => {
            let frames = shard::Range::parse_frames(text)
                .map_err(|e| UsageError(format!("--zstd-frames {e}")))?;
            Some(match &cli.frame_bytes {
                Some(span) => frames
                    .with_frame_bytes(span)
                    .map_err(|e| UsageError(format!("--frame-bytes {e}")))?,
                None => frames,
            })
        }
        (_, Some(_)) if cli.frame_bytes.is_some() => {
            return Err(UsageError(
                "--frame-bytes goes with --zstd-frames, not --bytes".into(),
            ));
        }
        (_, Some(text)) => {
            Some(shard::Range::parse_bytes(text).map_err(|e| UsageError(format!("--bytes {e}")))?)
        }
        _ => None,
    };
    let one_file = match &inputs[..] {
        [
            Input {
                source: input::Source::File(path),
                ..
            },
        ] => Some(path.clone()),
        _ => None,
    };
    if (range.is_some() || cli.game_offset > 0 || cli.line_offset > 0) && one_file.is_none() {
        return Err(UsageError(
            "--zstd-frames, --bytes, --game-offset and --line-offset take exactly one INPUT, a file".into(),
        ));
    }
    if let (Some(range), Some(path), Some(input)) = (range, one_file, inputs.first_mut()) {
        input.source = input::Source::Shard(path, range);
    }
    Ok(inputs)
}
