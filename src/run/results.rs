//! A shard's checked games kept for later, so that the run-wide checks
//! (duplicates, rounds) can see a whole archive audited in shards.
//!
//! Three steps give the reports one run would write:
//!
//! 1. Each shard is audited with `--keep-results FILE`: every game's
//!    result (its tag columns, verdict, findings, fingerprint and
//!    suppression comments) is written to FILE instead of to reports.
//! 2. `pgn-arbiter across LIST` reads every shard's results in run order,
//!    numbering each input's games on from shard to shard, and gives them to
//!    the run-wide checks as one run does; each shard's run-wide findings go
//!    to a file of their own.
//! 3. Each shard is written with `--render FILE --across FILE
//!    --game-offset N`: its results and run-wide findings, through the same
//!    report writer as an audit, a game's run-wide findings after its own.
//!
//! The files are those of [`report::kept`](crate::report::kept).

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
};

use serde::Deserialize;

use super::pipeline::Checked;
use crate::{
    Status,
    checks::across::AcrossGames,
    cli::VERSION,
    config::Render,
    output::{self, FileKey, Output},
    report::kept::{AcrossGame, Reader, Records},
};

/// Games handed to the writer at a time when rendering.
const BATCH: usize = 256;

/// Hands the games of `render`'s results to `sink` as the pipeline hands an
/// audit's, numbered from `offset` + 1 (input 0), each with its run-wide
/// findings after its own; a file that cannot be read is a problem of the
/// input. `read`: the bytes of the results read so far, for the progress
/// bar.
pub fn replay(
    render: &Render,
    offset: u64,
    read: &AtomicU64,
    sink: &mut dyn FnMut(Checked) -> bool,
) {
    let stopped = match replay_games(render, offset, read, sink) {
        Ok(going) => !going,
        Err(message) => !sink(Checked::Problem { input: 0, message }),
    };
    if !stopped {
        sink(Checked::InputDone(0));
    }
}

/// The run-wide findings of an across file, game by game in order.
struct Across<'a> {
    path: &'a Path,
    reader: Reader,
    /// The next game that has some.
    next: Option<AcrossGame>,
}

impl Across<'_> {
    /// The across file at `path`, made for the results sealed with
    /// `results` numbered from `offset` + 1.
    fn open(path: &Path, results: [u8; 32], offset: u64) -> Result<Across<'_>, String> {
        let mut reader = Reader::across(path, VERSION, results, offset)?;
        let next = reader.next_across()?;
        Ok(Across { path, reader, next })
    }

    /// The findings of game `number`, which begins on `line`: none unless
    /// the file has that game next.
    fn of(&mut self, number: u64, line: u64) -> Result<Vec<crate::finding::Finding>, String> {
        if let Some(skipped) = self.next.as_ref().filter(|a| a.number < number) {
            return Err(format!(
                "it has findings for game {}, which this rendering does not hold: it was made for other games (another shard, or another --game-offset)",
                skipped.number
            ));
        }
        let Some(found) = self.next.take_if(|a| a.number == number) else {
            return Ok(Vec::new());
        };
        if found.line != line {
            return Err(format!(
                "its game {number} begins on line {}, and the results' on line {line}: it is another game (another shard, or another --game-offset)",
                found.line
            ));
        }
        self.next = self.reader.next_across()?;
        if self.next.as_ref().is_some_and(|a| a.number <= number) {
            return Err("its games are out of order".into());
        }
        found.findings()
    }
}

/// Names `path` before `why`.
fn name(path: &Path) -> impl Fn(String) -> String + '_ {
    move |why| format!("{}: {why}", path.display())
}

/// [`replay`]'s games: Ok(false) when the sink stopped.
fn replay_games(
    render: &Render,
    offset: u64,
    read: &AtomicU64,
    sink: &mut dyn FnMut(Checked) -> bool,
) -> Result<bool, String> {
    let (mut games, _) =
        Reader::results(&render.results, VERSION).map_err(name(&render.results))?;
    let mut across = match &render.across {
        Some(path) => Some(Across::open(path, games.digest(), offset).map_err(name(path))?),
        None => None,
    };
    let mut number = offset;
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(mut game) = games.next_game().map_err(name(&render.results))? {
        number += 1;
        if let Some(across) = &mut across {
            let found = across.of(number, game.line).map_err(name(across.path))?;
            game.findings.extend(found);
        }
        batch.push(game);
        if batch.len() == BATCH {
            read.store(games.position(), Ordering::Relaxed);
            let games = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            if !sink(Checked::Games {
                input: 0,
                games,
                copy: Vec::new(),
                spares: None,
            }) {
                return Ok(false);
            }
        }
    }
    if let Some(Across {
        path,
        next: Some(left),
        ..
    }) = across
    {
        return Err(name(path)(format!(
            "it has findings for game {}, past the {} games of the results",
            left.number,
            number - offset
        )));
    }
    let going = batch.is_empty()
        || sink(Checked::Games {
            input: 0,
            games: batch,
            copy: Vec::new(),
            spares: None,
        });
    if going && !games.whole() {
        // The games before the damage are rendered, and the run ends as
        // the audit of the shard's input did: not complete.
        return Err(name(&render.results)(
            "kept from an input read only in part: the games before the damage are rendered"
                .to_owned(),
        ));
    }
    Ok(going)
}

/// One shard in the list `pgn-arbiter across` reads.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Shard {
    /// Its results file.
    results: PathBuf,
    /// The games of its input before its first.
    games_before: u64,
    /// Where its games' run-wide findings go.
    across: PathBuf,
}

/// A line of the list longer than this is refused before it is read on.
pub const MAX_LIST_LINE: usize = 1 << 20;

/// A list longer than this is refused: its shards in memory take about
/// as much again.
pub const MAX_LIST_BYTES: u64 = 8 << 20;

/// Shards a list may name (an archive of 7 billion games in shards of
/// 256 MB of PGN is some 30,000); their lines together are at most
/// [`MAX_LIST_BYTES`].
pub const MAX_SHARDS: usize = 1 << 16;

/// A path longer than the kernel opens.
const MAX_PATH: usize = 4096;

/// What an error quotes of a line: at most 200 characters, control
/// characters escaped (and counted as escaped), in quotes.
fn quoted(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut shown = String::from("\"");
    for c in text.chars() {
        let escaped: String = c.escape_debug().collect();
        if shown.chars().count() + escaped.chars().count() > 200 {
            shown.push_str("...");
            break;
        }
        shown.push_str(&escaped);
    }
    shown.push('"');
    shown
}

/// The shards `list` names, each line bounded before it is read whole.
fn read_list(list: &Path) -> Result<Vec<Shard>, String> {
    use std::io::{BufRead, Read};
    let at = |n: usize| format!("{} line {n}", list.display());
    let file = std::fs::File::open(list).map_err(|e| format!("{}: {e}", list.display()))?;
    let mut input = std::io::BufReader::new(file);
    let mut shards = Vec::new();
    let mut line = Vec::new();
    let mut total = 0u64;
    for n in 1.. {
        line.clear();
        let read = (&mut input)
            .take(MAX_LIST_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{}: {e}", at(n)))?;
        if read == 0 {
            break;
        }
        total += read as u64;
        if total > MAX_LIST_BYTES {
            return Err(format!(
                "{}: the list is longer than {} MiB",
                at(n),
                MAX_LIST_BYTES >> 20
            ));
        }
        if line.len() > MAX_LIST_LINE {
            return Err(format!(
                "{}: longer than {MAX_LIST_LINE} bytes; it begins {}",
                at(n),
                quoted(&line)
            ));
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        let shard: Shard = serde_json::from_slice(&line)
            .map_err(|e| format!("{}: {e}: {}", at(n), quoted(line.trim_ascii())))?;
        for path in [&shard.results, &shard.across] {
            if path.as_os_str().len() > MAX_PATH {
                return Err(format!(
                    "{}: a path of {} bytes, longer than any file's: {}",
                    at(n),
                    path.as_os_str().len(),
                    quoted(path.as_os_str().as_encoded_bytes())
                ));
            }
        }
        if shard.games_before > crate::cli::MAX_OFFSET {
            return Err(format!(
                "{}: games_before {} is more than {} (2^53)",
                at(n),
                shard.games_before,
                crate::cli::MAX_OFFSET
            ));
        }
        if shards.len() == MAX_SHARDS {
            return Err(format!(
                "{}: more than {MAX_SHARDS} shards in one list",
                at(n)
            ));
        }
        shards.push(shard);
    }
    Ok(shards)
}

/// The shards a list names, or why it is refused: the reading of a list
/// alone, for the fuzz target.
pub fn shards_listed(list: &Path) -> Result<usize, String> {
    read_list(list).map(|shards| shards.len())
}

/// `pgn-arbiter across LIST`: gives the games of every shard the list
/// names, in its order, to the run-wide checks, and writes each shard's
/// findings to its `across` file. Prints the games and findings as JSON.
pub fn across(list: &Path, memory_limit: usize) -> Status {
    match across_shards(list, memory_limit) {
        Ok((games, findings)) => {
            use std::io::Write;
            let line = format!("{{\"games\":{games},\"findings\":{findings}}}\n");
            let mut out = std::io::stdout().lock();
            match out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
                // The across files are written: a reader that went away
                // (`| head`) is no failure of the step.
                Ok(()) => Status::Clean,
                Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Status::Clean,
                Err(err) => {
                    eprintln!("pgn-arbiter across: cannot write to standard output: {err}");
                    Status::Trouble
                }
            }
        }
        Err(why) => {
            eprintln!("pgn-arbiter across: {why}");
            Status::Trouble
        }
    }
}

/// Refuses an across file that would replace what the step reads (the
/// list, a results file), another shard's across file, a PGN file, a
/// directory, or any file that is not an across file. Files are told
/// apart by [`FileKey`], in sets: a list is checked in as many steps as it
/// has shards.
fn check_outputs(list: &Path, shards: &[Shard]) -> Result<(), String> {
    let read: HashMap<FileKey, &Path> = (shards.iter().map(|s| s.results.as_path()))
        .chain([list])
        .map(|path| (FileKey::of(path), path))
        .collect();
    let mut written: HashMap<FileKey, usize> = HashMap::new();
    for (n, shard) in shards.iter().enumerate() {
        let path = &shard.across;
        let named = || format!("the across file {}", path.display());
        if crate::read::input::is_pgn_name(path) {
            return Err(format!(
                "{} names a PGN file (nothing was written)",
                named()
            ));
        }
        if path.is_dir() {
            return Err(format!("{} is a directory", named()));
        }
        let key = FileKey::of(path);
        if let Some(read) = read.get(&key) {
            return Err(format!(
                "{} is a file this step reads ({}); an output is never written over what the run reads (nothing was written)",
                named(),
                read.display()
            ));
        }
        if let Some(first) = written.insert(key, n) {
            return Err(format!(
                "{} is the across file of shards {} and {} of the list: give each its own (nothing was written)",
                named(),
                first + 1,
                n + 1
            ));
        }
        crate::report::kept::may_replace(path, false)?;
    }
    Ok(())
}

/// Refuses a list whose shards are not in run order: each input's shards
/// must follow one another, each numbered on from the games of the shards
/// of its input before it in the list (`games_before`: their sum, or 0 for
/// the input given again), and no results file may be listed twice. Each
/// results file is checked whole here, so that a list that fails writes
/// nothing.
fn check_order(shards: &[Shard]) -> Result<(), String> {
    let mut next: HashMap<String, u64> = HashMap::new();
    let mut listed: HashMap<FileKey, usize> = HashMap::new();
    for (n, shard) in shards.iter().enumerate() {
        let name = |why: String| format!("{}: {why}", shard.results.display());
        if let Some(first) = listed.insert(FileKey::of(&shard.results), n) {
            return Err(name(format!(
                "listed twice, as shards {} and {}: each game is given to the checks once",
                first + 1,
                n + 1
            )));
        }
        let (reader, header) = Reader::results(&shard.results, VERSION).map_err(name)?;
        if !header.duplicates {
            return Err(name(
                "audited with --no-duplicates: its games have no fingerprints".into(),
            ));
        }
        let expected = next.get(&header.input).copied().unwrap_or(0);
        if shard.games_before != expected && shard.games_before != 0 {
            return Err(name(format!(
                "shard {} of the list says {} games of {} come before its own, but the shards of {} before it in the list hold {expected}: the list is out of order, or a shard is missing or given twice",
                n + 1,
                shard.games_before,
                header.input,
                header.input
            )));
        }
        next.insert(header.input, shard.games_before + reader.games());
    }
    Ok(())
}

/// [`across`]: the games and findings, or why it failed.
fn across_shards(list: &Path, memory_limit: usize) -> Result<(u64, u64), String> {
    *output::finishing() = false;
    let shards = read_list(list)?;
    if shards.is_empty() {
        return Err(format!(
            "{}: the list names no shard, so no game was looked at",
            list.display()
        ));
    }
    check_outputs(list, &shards)?;
    check_order(&shards)?;
    let mut checks = AcrossGames::of_run(memory_limit);
    let (mut games, mut findings) = (0, 0);
    for shard in &shards {
        let (g, f) = across_shard(shard, &mut checks)?;
        games += g;
        findings += f;
    }
    for why in checks.trouble() {
        eprintln!("pgn-arbiter across: {why}");
    }
    Ok((games, findings))
}

/// One shard of [`across`]: its games given to `checks`, its findings
/// written (whole, or not at all); its games and findings.
fn across_shard(shard: &Shard, checks: &mut AcrossGames) -> Result<(u64, u64), String> {
    let name = |why: String| format!("{}: {why}", shard.results.display());
    let (mut reader, header) = Reader::results(&shard.results, VERSION).map_err(name)?;
    let shown = shard.across.display().to_string();
    let out = |e: &dyn std::fmt::Display| {
        let why = e.to_string();
        if why.contains(&shown) {
            format!("cannot write {why}")
        } else {
            format!("cannot write {shown}: {why}")
        }
    };
    let target = Output::File(shard.across.clone());
    let (writer, pending) = output::Opened::open(&target)
        .map_err(|e| out(&e))?
        .into_parts();
    let mut records = Records::across(writer, VERSION, reader.digest(), shard.games_before)
        .map_err(|e| out(&e))?;
    let (mut games, mut findings) = (0, 0);
    let mut number = shard.games_before;
    while let Some(game) = reader.next_game().map_err(name)? {
        number += 1;
        games += 1;
        let found = checks.game(&game.seen(&header.input, number));
        if !found.is_empty() {
            findings += found.len() as u64;
            records
                .across_game(&AcrossGame::new(number, game.line, &found))
                .map_err(|e| out(&e))?;
        }
    }
    drop(records.finish().map_err(|e| out(&e))?);
    let mut commit = output::Commit::default();
    commit.add(pending);
    let mut finishing = output::finishing();
    commit.commit().map_err(|e| format!("cannot write {e}"))?;
    *finishing = true;
    Ok((games, findings))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error quotes at most 200 characters of a line, however many
    /// its escapes take (the fuzz target found control characters
    /// quoted eight times as long).
    #[test]
    fn a_line_is_quoted_in_part() {
        let mut line = b"{\"r".to_vec();
        line.extend([0x7f; 300]);
        let shown = quoted(&line);
        assert!(shown.chars().count() <= 200 + 5, "{shown}");
        assert!(
            shown.starts_with("\"{\\\"r\\u{7f}") && shown.ends_with("...\""),
            "{shown}"
        );
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("l");
        std::fs::write(&list, &line).unwrap();
        let why = shards_listed(&list).unwrap_err();
        assert!(why.chars().count() < 200 + 200, "{why}");
        assert_eq!(quoted(b"ab"), "\"ab\"");
    }
}
