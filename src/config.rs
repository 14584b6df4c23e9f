//! Validated, typed settings, built once from the command line: where bytes
//! come from and where reports go.

use std::{
    fs::File,
    io::{self, BufWriter, IsTerminal, Write},
    path::PathBuf,
};

use crate::{
    checks::winnable::Search,
    cli::{Cli, FailOn, Rules, WinnabilitySearch},
    finding::Severity,
    input::{self, Input},
    rules::Edition,
};

/// Where a report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    File(PathBuf),
}

impl Output {
    /// Opens the destination, buffered.
    pub fn open(&self) -> io::Result<Box<dyn Write + Send>> {
        Ok(match self {
            Output::Stdout => Box::new(BufWriter::with_capacity(1 << 16, io::stdout())),
            Output::File(path) => Box::new(BufWriter::with_capacity(1 << 16, File::create(path)?)),
        })
    }
}

/// Everything a run needs to know.
#[derive(Debug, Clone)]
pub struct Config {
    /// Inputs, in order.
    pub inputs: Vec<Input>,
    /// The findings report.
    pub findings: Output,
    /// The games report, if asked for.
    pub games: Option<Output>,
    /// Findings at or above this make the exit status 1; `None` never.
    pub fail_on: Option<Severity>,
    /// The rule edition.
    pub edition: Edition,
    /// The winnability search for games won on time.
    pub search: Search,
    /// Worker threads.
    pub jobs: usize,
    /// Progress bar and summary on stderr.
    pub quiet: bool,
}

/// A problem with the command line.
#[derive(Debug)]
pub struct UsageError(pub String);

impl Config {
    /// Validates the command line.
    pub fn from_cli(cli: Cli) -> Result<Config, UsageError> {
        let mut paths = cli.inputs;
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
        let jobs = match cli.jobs {
            Some(0) => return Err(UsageError("--jobs must be at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let fail_on = match cli.fail_on {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        };
        Ok(Config {
            inputs: input::expand(&paths),
            findings: cli.findings.map_or(Output::Stdout, Output::File),
            games: cli.games.map(Output::File),
            fail_on,
            edition: match cli.rules {
                Rules::Fide2023 => Edition::Fide2023,
                Rules::Fide2000 => Edition::Fide2000,
                Rules::Fide1994 => Edition::Fide1994,
            },
            search: match cli.winnability {
                WinnabilitySearch::Full => Search::Full,
                WinnabilitySearch::Fast => Search::Fast,
                WinnabilitySearch::All => Search::All,
            },
            jobs,
            quiet: cli.quiet,
        })
    }
}
