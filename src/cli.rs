//! The command line, as clap reads it. Doc comments are the `--help` text.
//! Beyond `main`, which parses it, only [`config`](crate::config) sees
//! these types.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::report::format::Format;

/// The version `--version` prints: the crate's, the commit the binary was
/// built from and that commit's date (`unknown` outside a git checkout).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("PGN_ARBITER_COMMIT"),
    " ",
    env!("PGN_ARBITER_COMMIT_DATE"),
    ")"
);

/// The subcommands' names. A first argument that names an existing file
/// or directory is read as an input, not as one of these.
pub const SUBCOMMANDS: [&str; 5] = ["frames", "across", "completions", "man", "help"];

/// Audits PGN chess archives: replays every game by the Laws of Chess and
/// reports, as CSV, illegal or ambiguous moves, malformed tags and movetext,
/// draws that could have been claimed, games played on after they had ended
/// by themselves, and results that contradict the record or the board
/// (including wins on time or by resignation that the winner could not
/// have earned).
///
/// Exit status: 0 no finding at or above --fail-on; 1 there are such
/// findings; 2 an input could not be read (missing file, corrupt compressed
/// stream), no game was read at all, a report could not be written, or the
/// flags are wrong; 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (no report file
/// is written then).
#[derive(Debug, Parser)]
#[command(
    name = "pgn-arbiter",
    version = VERSION,
    about,
    long_about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Other tasks than an audit.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// PGN files, directories (searched recursively, in sorted order, for
    /// regular files named *.pgn, *.pgn.gz, *.pgn.bz2, *.pgn.zst, *.pgn.xz)
    /// or `-` for standard input.
    ///
    /// gzip, bzip2, zstd and xz input is recognised by its first bytes.
    /// With no INPUT, standard input is read when it is not a terminal.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Follow symbolic links to directories while searching a directory
    /// INPUT.
    ///
    /// By default such a link is skipped with a note, so that a link to `/`
    /// or to a mount cannot turn a run into a walk of the whole file system
    /// (links to files are read; a directory named on the command line is
    /// searched wherever it is).
    #[arg(long)]
    pub follow: bool,

    /// Write the findings report (CSV, one row per finding) to this file
    /// instead of standard output (`-`).
    ///
    /// A report file appears, whole, only when the run completes (after an
    /// unreadable input, as FILE.partial); never over an input.
    #[arg(long, value_name = "FILE")]
    pub findings: Option<PathBuf>,

    /// The form of the findings report.
    ///
    /// csv: one row per finding, with every column (the default, unless the
    /// findings go to a terminal); concise: `file:line:1: code [severity]
    /// game N: message`, one line each (the default on a terminal);
    /// json-lines: one JSON object per finding, with the CSV's columns;
    /// github: GitHub Actions workflow commands, shown as annotations;
    /// sarif: one SARIF 2.1.0 log, for code-scanning uploads; junit: JUnit
    /// XML, a test suite per input and a test case per game with findings
    /// (failed when one reaches --fail-on), for GitLab and Jenkins. The
    /// games report, the baseline and its update are CSV whatever this is.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<Format>,

    /// Also write the games report (CSV, one row per game) to this file
    /// (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub games: Option<PathBuf>,

    /// Also write the run's summary as JSON to this file (`-`: standard
    /// output):
    ///
    /// version, rules, options, and per input and in total the games, plies
    /// and findings per code and severity, the time taken, and `complete`
    /// (false when an input could not be read or the run was cut short).
    /// Written whole, even when the run is not complete.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,

    /// Also write the audit page to this file:
    ///
    /// one self-contained HTML page for a person (it prints to PDF) with
    /// what was audited, totals per code and the rule each rests on, a
    /// table per event and round, players' names written several ways by
    /// event, and the games with findings, errors first, each with a board
    /// of the position it is about and the changes --fix made. Written
    /// whole when the run ends.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Match the games to this tournament report file (FIDE TRF16 or
    /// TRF-2026).
    ///
    /// Every game is matched to a pairing by round (the number before the
    /// dot of the Round tag) and players (FIDE ID tags, else names), and
    /// the run reports games the TRF does not pair, pairings played without
    /// a game, results and colours that differ, players' tags that differ,
    /// and what is wrong with the TRF itself (rows with game 0, at the
    /// TRF's line, after the games).
    #[arg(long, value_name = "FILE")]
    pub trf: Option<PathBuf>,

    /// Also write a corrected copy of the input to OUT (plain PGN):
    ///
    /// every game in input order, with the corrections the findings justify
    /// and nothing else, each explained by a `{pgn-arbiter: CODE: what
    /// changed}` comment: the result the board or the Laws decide, moves
    /// after an automatic end removed, missing roster tags added as `?`,
    /// PlyCount corrected, moves written in standard SAN. With several
    /// inputs OUT is a directory (created if needed) where each copy keeps
    /// its path below the inputs' common directory; `-` is standard output.
    /// Never written over an input; put in place only when the run
    /// completes.
    #[arg(long, value_name = "OUT")]
    pub fix: Option<PathBuf>,

    /// Audit only the games that start in zstd frames A..B of the one
    /// INPUT.
    ///
    /// Frames are 0-based, both included, as `pgn-arbiter frames` numbers
    /// them; the run reads on into later frames to the end of a game that
    /// straddles B: a shard of an archive for one machine of many. A game starts, for
    /// this, at a line beginning with `[` after a blank line that follows a
    /// line ending with a termination marker; the shards of a file then
    /// hold its games exactly once. Duplicates and round checks see only
    /// the shard's games.
    #[arg(long, value_name = "A..B", conflicts_with = "bytes")]
    pub zstd_frames: Option<String>,

    /// The bytes S..E that the frames of --zstd-frames take in the file.
    ///
    /// E is excluded, as `pgn-arbiter frames` lists them (the first frame's
    /// offset; the last one's offset plus its size): the file is then not listed again, only checked to hold frames
    /// there. For a driver that lists a file once and hands out its shards.
    #[arg(long, value_name = "S..E", requires = "zstd_frames")]
    pub frame_bytes: Option<String>,

    /// The same as --zstd-frames for bytes A..B (B excluded) of one plain
    /// (uncompressed) INPUT.
    #[arg(long, value_name = "A..B")]
    pub bytes: Option<String>,

    /// Number the games of the one INPUT from N+1:
    ///
    /// the games before its shard, so that the `game` column is the game's
    /// number in the file (N at most 2^53, the largest whole number a
    /// spreadsheet keeps).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_offset)]
    pub game_offset: u64,

    /// Number the lines of the one INPUT from N+1:
    ///
    /// the lines before its shard, so that the `line` column is the line in
    /// the file (N at most 2^53).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_offset)]
    pub line_offset: u64,

    /// Write the CSV reports without their header row (shards' reports to
    /// be joined).
    #[arg(long)]
    pub no_header: bool,

    /// Do not audit: count the games and lines of the input (or its shard)
    /// and print them as JSON (`{"games": N, "lines": L}`):
    ///
    /// what numbering the next shard takes. It reads the games without
    /// replaying them. An input not read whole prints no count (exit status
    /// 2).
    #[arg(long)]
    pub count: bool,

    /// Do not audit: count the lines of the input (or its shard) and print
    /// them as JSON (`{"lines": L}`):
    ///
    /// the --line-offset of the next shard, for a driver that numbers games
    /// itself (the `game` column of a shard audited with no --game-offset
    /// counts from 1, and only there does a game number appear). It costs
    /// about what decompressing does. An input not read whole prints no
    /// count (exit status 2).
    #[arg(long, conflicts_with = "count")]
    pub count_lines: bool,

    /// Do not write reports: keep every game's result in FILE.
    ///
    /// A result is a game's tags, verdict, findings and fingerprint, for
    /// `pgn-arbiter across` and --render. The first step of an archive audited in shards with the run-wide
    /// checks (duplicates, rounds) seeing every shard's games; the one
    /// INPUT's games are numbered from 1 there. --summary counts the games;
    /// their findings are counted when rendered. FILE appears whole when
    /// the run completes; after an unreadable input, the games read before
    /// it are kept as FILE.partial. FILE is sealed (its records counted and
    /// its SHA-256 at its end), and replaces no file but a results file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["findings", "games", "html", "fix", "trf", "baseline_update", "count", "count_lines", "game_offset"])]
    pub keep_results: Option<PathBuf>,

    /// Write the reports of the results --keep-results kept in RESULTS.
    ///
    /// Instead of auditing an INPUT: the games numbered from N+1 for
    /// --game-offset N, each game's run-wide findings from --across after
    /// its own; the report an audit of the shard would have written, with
    /// every option of the reports (--select, --baseline, --output-format, ...).
    /// Only the build that kept them reads them, under the same --rules; a
    /// file cut short or changed in any byte is refused before a game is
    /// read. The options that judge games (--strict-tags, --no-variations,
    /// --winnability) act when the results are kept, not here.
    #[arg(long, value_name = "RESULTS", conflicts_with_all = ["inputs", "keep_results", "zstd_frames", "bytes", "line_offset", "fix", "trf", "count", "count_lines", "strict_tags", "no_variations", "winnability"])]
    pub render: Option<PathBuf>,

    /// With --render: the file of run-wide findings `pgn-arbiter across`
    /// wrote for these results.
    ///
    /// Without it, no game has any.
    #[arg(long, value_name = "FILE", requires = "render")]
    pub across: Option<PathBuf>,

    /// Exit with status 1 when there is a finding of this severity or worse
    /// (default: error).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,

    /// Report only these findings:
    ///
    /// a comma-separated list of codes, severities (error, warning, info)
    /// and starts of codes (`unclaimed-`). Applies to both reports, the
    /// summary and the exit status. Default: all.
    #[arg(long, value_name = "LIST")]
    pub select: Option<String>,

    /// Leave out these findings (same kinds of items as --select; applied
    /// after it).
    #[arg(long, value_name = "LIST")]
    pub ignore: Option<String>,

    /// A findings report (CSV) of an earlier run:
    ///
    /// findings that match one of its rows on game_id, code, ply and san
    /// (on file, White, Black, Date, Round and Result for rows without a
    /// game_id, such as games with no move) are left out,
    /// one row for one finding, so that only new findings are reported and
    /// fail the run; moving games within a file or renaming it makes no
    /// finding new. The rows that matched nothing are counted in the
    /// summary.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Write the ratcheted baseline to this file when the run completes:
    ///
    /// the --baseline rows still found, as this run writes them (file,
    /// game, line and game_id as they are now), and the rows it cannot
    /// judge (of a code left out by --select/--ignore, or of a file not
    /// read), but not the findings it fixed, nor new ones. It may be the
    /// --baseline file itself, which is then replaced whole, and only when
    /// the run is complete.
    #[arg(long, value_name = "FILE", requires = "baseline")]
    pub baseline_update: Option<PathBuf>,

    /// The Laws of Chess to apply:
    ///
    /// fide-2023 (with the automatic draws by fivefold repetition and 75
    /// moves), fide-2000 (no automatic draws; a dead position is any where
    /// neither side has mating material), or fide-1994 (no automatic draws;
    /// dead positions are the 10.4 list). Default: fide-2023.
    #[arg(long, value_enum, value_name = "EDITION")]
    pub rules: Option<Rules>,

    /// How hard to look, for a game won on time, for a mate the winner
    /// could still give.
    ///
    /// fast: CHA-Solver's quick sound check; full: its complete analysis (a
    /// helpmate found, or proof there is none) where the winner has no
    /// queen and no rook, the quick check elsewhere; all: the complete
    /// analysis for every game lost on time. full and all cost much more on
    /// online archives. Positions left undecided are not reported. Default:
    /// fast.
    #[arg(long, value_enum, value_name = "SEARCH")]
    pub winnability: Option<WinnabilitySearch>,

    /// Also report roster tags whose value is not known (`?`,
    /// `????.??.??`) as `unknown-tag-value` (info).
    #[arg(long)]
    pub strict_tags: bool,

    /// Do not look across the run's games: no duplicates, no rounds, no
    /// players' names.
    ///
    /// By default a game with the same players, start and moves as an
    /// earlier one of the run (any input) is reported as `duplicate-game`,
    /// naming the first, a player or board given twice in a round as
    /// `player-twice-in-round` or `duplicate-board`, and a FIDE ID under a
    /// name other than the one it first had as `player-name-variant`, and
    /// one name and rating under two IDs in an event as
    /// `player-id-conflict`; these keep about 22 bytes a game (44 with a
    /// name written `Surname, Given` in full, also compared by initial),
    /// and a few
    /// for each player of a round, for the whole run (see --memory-limit),
    /// and about 60 bytes a FIDE ID, up to 16 MiB.
    #[arg(long)]
    pub no_duplicates: bool,

    /// The memory the run-wide tables may take before part of them goes to
    /// disk.
    ///
    /// In bytes, or with K, M, G: KiB, MiB, GiB. Past it, part of the
    /// tables is written to anonymous temporary files (in TMPDIR), with the
    /// same findings.
    /// Seven eighths go to the duplicates table: about 22 bytes a game in
    /// memory (twice that with a name written `Surname, Given` in full),
    /// about 1.3
    /// once its older part is on disk. One eighth goes to
    /// the round tables: past it, the events seen longest ago are written
    /// to disk and read back if they come again (an event that alone takes
    /// more stays in memory, and the run says so). The findings are the
    /// same whatever the limit. 0 keeps it all in memory; else at least 1M.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_memory_limit)]
    pub memory_limit: usize,

    /// Do not replay variations.
    ///
    /// By default every variation (nested ones too) is replayed from the
    /// move it replaces, and a move in it that cannot be played or read is
    /// a warning (`illegal-move-in-variation` and its kin); the mainline's
    /// findings are the same either way.
    #[arg(long)]
    pub no_variations: bool,

    /// Worker threads (default: all cores; at most 4 per core).
    ///
    /// Output is the same for any number. With one for each core the
    /// process may use, each worker keeps to a core of its own.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,

    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    /// Read the settings from this file.
    ///
    /// A `pgn-arbiter.toml`, or a `pyproject.toml` with a
    /// `[tool.pgn-arbiter]` table, instead of the one found from the working
    /// directory upward. Its keys are the flags' names (select, ignore, fail-on, rules,
    /// winnability, strict-tags, output-format) and per-file-ignores (globs
    /// to codes); a flag given here replaces the file's value.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,

    /// Read no settings file.
    #[arg(long)]
    pub isolated: bool,

    /// Write cells as the input has them.
    ///
    /// By default a cell of text from the input is made safe to open in a
    /// spreadsheet: a leading =, +, -, @ or tab gets a ' before it (so it
    /// is never a formula), control characters become U+FFFD, and a cell is
    /// cut at 1,000 characters, saying so.
    #[arg(long)]
    pub raw_csv: bool,
}

/// Tasks other than an audit.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the frames of a zstd file as CSV.
    ///
    /// `frame,offset,size,content_size`: the 0-based number that
    /// --zstd-frames takes, the byte offset, the compressed size and the
    /// decompressed size when the frame's header gives it, reading only
    /// their headers.
    Frames {
        /// The zstd file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Run the run-wide checks over shards kept with --keep-results.
    ///
    /// The games of the shards go to the run-wide checks (duplicates,
    /// rounds) in run order, as one run over the whole archive would give
    /// them, and each shard's findings are written for --render --across.
    /// LIST is JSON lines, a shard a line, in run order: `{"results": FILE,
    /// "games_before": N, "across": FILE}` (N: the games of its input
    /// before its own, the --game-offset it is rendered with). Prints the
    /// games and findings as JSON.
    Across {
        /// The shards, as JSON lines.
        #[arg(value_name = "LIST")]
        list: PathBuf,
        /// As for an audit: the memory the run-wide tables may take before
        /// part of them is written to disk.
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_memory_limit)]
        memory_limit: usize,
    },
    /// Write the completions for SHELL to standard output.
    ///
    /// bash: source it, or put it in the directory bash-completion reads;
    /// zsh: a file `_pgn-arbiter` on $fpath; fish:
    /// ~/.config/fish/completions/.
    Completions {
        /// bash, elvish, fish, powershell or zsh.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Write the manual page (roff) to standard output:
    /// `pgn-arbiter man > pgn-arbiter.1`.
    Man,
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Fail on errors.
    Error,
    /// Fail on warnings and errors.
    Warning,
    /// Fail on any finding.
    Info,
    /// Never fail because of findings.
    Never,
}

/// `--rules` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Rules {
    /// FIDE Laws of Chess in force from 1 January 2023.
    #[value(name = "fide-2023")]
    Fide2023,
    /// FIDE Laws of Chess adopted in November 2000.
    #[value(name = "fide-2000")]
    Fide2000,
    /// FIDE Laws of Chess, 1994.
    #[value(name = "fide-1994")]
    Fide1994,
}

/// `--winnability` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WinnabilitySearch {
    /// The complete analysis where the winner has no queen and no rook,
    /// the quick check elsewhere.
    Full,
    /// The quick sound check only (the default).
    Fast,
    /// The complete analysis for every game lost on time.
    All,
}

/// The largest `--game-offset` and `--line-offset`, and games before a
/// shard in `pgn-arbiter across`'s list: 2^53, the largest whole number
/// that spreadsheets and JSON readers keep exactly. Numbers counted on
/// from it cannot wrap.
pub const MAX_OFFSET: u64 = 1 << 53;

/// `--game-offset`, `--line-offset`: a number up to [`MAX_OFFSET`].
fn parse_offset(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n <= MAX_OFFSET => Ok(n),
        Ok(_) => Err(format!("'{text}' is more than {MAX_OFFSET} (2^53)")),
        Err(_) => Err(format!("'{text}' is no number of games or lines")),
    }
}

/// The least `--memory-limit` (but 0, no limit) with which the run-wide
/// tables work as they should: below it, each game would write part of
/// them to disk.
pub const LEAST_MEMORY_LIMIT: usize = 1 << 20;

/// `--memory-limit`: a size, 0 or at least [`LEAST_MEMORY_LIMIT`].
fn parse_memory_limit(text: &str) -> Result<usize, String> {
    match parse_size(text)? {
        size @ (0 | LEAST_MEMORY_LIMIT..) => Ok(size),
        _ => Err(format!(
            "'{text}' is less than the run-wide tables need to work: give at least 1M (or 0 for no limit)"
        )),
    }
}

/// A size in bytes: digits, then K, M, G or T (powers of 1024), with an
/// optional `iB` or `B`.
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: usize = number
        .parse()
        .map_err(|_| format!("'{text}' is no size (e.g. 512M, 2G)"))?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("'{text}' is no size (e.g. 512M, 2G)")),
    };
    number
        .checked_mul(1usize << shift)
        .ok_or_else(|| format!("'{text}' is too large"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// clap's own checks of the command line: no two flags share a name or
    /// a short letter, defaults parse, every argument is reachable.
    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes_take_units() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert!(parse_size("lots").is_err());
    }

    /// Issue 56: an offset that numbers could wrap past is refused.
    #[test]
    fn offsets_are_bounded() {
        assert_eq!(parse_offset("0"), Ok(0));
        assert_eq!(parse_offset("9007199254740992"), Ok(MAX_OFFSET));
        assert!(parse_offset("9007199254740993").is_err());
        assert!(parse_offset("18446744073709551615").is_err());
        assert!(parse_offset("-1").is_err());
        let too_far = ["pgn-arbiter", "--game-offset", "18446744073709551615", "x"];
        assert!(Cli::try_parse_from(too_far).is_err());
    }

    /// Issue 56: a limit below what the tables need is refused, naming
    /// the least that works.
    #[test]
    fn memory_limits_below_the_least_are_refused() {
        assert_eq!(parse_memory_limit("0"), Ok(0));
        assert_eq!(parse_memory_limit("1M"), Ok(1 << 20));
        let err = parse_memory_limit("512K").unwrap_err();
        assert!(err.contains("at least 1M"), "{err}");
        assert!(Cli::try_parse_from(["pgn-arbiter", "--memory-limit", "64K", "x"]).is_err());
        assert!(
            Cli::try_parse_from(["pgn-arbiter", "across", "--memory-limit", "1", "l"]).is_err()
        );
    }
}
