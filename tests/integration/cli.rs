//! Runs the built binary: golden fixtures (every `fixtures/**/<case>.pgn*`
//! beside `<case>.findings.csv` and `<case>.games.csv`), the command line's
//! promises (stdin, missing files, exit codes, compressed and corrupt input),
//! and the whole shared corpora (no crash, one row per game, the same output
//! for any number of threads).
//!
//! A fixture is audited with the default options, plus the arguments listed
//! one per line in `<case>.args` when there is one, and after the input
//! `<case>.before` when there is one (for the checks across inputs).
//!
//! `BLESS=1 cargo test --test integration cli::` rewrites the expected files from the
//! current output; the git diff is the review.

use crate::util::*;
use std::{
    collections::BTreeMap,
    fs,
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

/// The fixture's case name: its path up to the first `.pgn`.
fn case_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let stem = &name[..name.find(".pgn")?];
    Some(path.with_file_name(stem))
}

fn fixture_inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // Copied real files for tests that need no expected reports.
            if !path.ends_with("corpora-sample") {
                fixture_inputs(&path, out);
            }
        } else if path.to_str().is_some_and(|p| !p.ends_with(".csv")) && case_of(&path).is_some() {
            out.push(path);
        }
    }
}

fn check_golden(expected: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("BLESS").is_some() {
        fs::write(expected, actual).unwrap();
        return;
    }
    match fs::read_to_string(expected) {
        Ok(want) if want == actual => {}
        Ok(want) => failures.push(format!(
            "{} differs:\n--- expected\n{want}\n--- actual\n{actual}",
            expected.display()
        )),
        Err(_) => failures.push(format!(
            "{} is missing (BLESS=1 writes it)",
            expected.display()
        )),
    }
}

#[test]
fn golden_fixtures() {
    let dir = fixtures();
    let mut inputs = Vec::new();
    fixture_inputs(&dir, &mut inputs);
    inputs.sort();
    assert!(inputs.len() >= 25, "only {} fixtures", inputs.len());
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for input in &inputs {
        let rel = input
            .strip_prefix(&dir)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let games = tmp.path().join("games.csv");
        let case = case_of(input).unwrap();
        // `<case>.args`: more arguments, one per line (e.g. another --rules).
        let extra = fs::read_to_string(format!("{}.args", case.display())).unwrap_or_default();
        let mut args = vec!["-q", "--games", games.to_str().unwrap()];
        args.extend(extra.lines().filter(|l| !l.is_empty()));
        let before = PathBuf::from(format!("{}.before", case.display()));
        let before = before.exists().then(|| {
            let rel = before.strip_prefix(&dir).unwrap();
            rel.to_str().unwrap().to_owned()
        });
        args.extend(before.as_deref());
        args.push(rel.as_str());
        let out = run_in(&dir, &args);
        let findings = text(&out.stdout);
        let with = |ext: &str| PathBuf::from(format!("{}.{ext}", case.display()));
        check_golden(&with("findings.csv"), &findings, &mut failures);
        check_golden(
            &with("games.csv"),
            &fs::read_to_string(&games).unwrap(),
            &mut failures,
        );
        // Exit status 1 exactly when an error is found (the default --fail-on).
        let has_error = findings.lines().any(|l| l.contains(",error,"));
        let want = if has_error { 1 } else { 0 };
        if out.status.code() != Some(want) {
            failures.push(format!("{rel}: exit {:?}, want {want}", out.status.code()));
        }
        assert!(out.stderr.is_empty(), "{rel}: {}", text(&out.stderr));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every finding code appears in some expected findings file, so each is
/// pinned by a golden test.
#[test]
fn every_code_has_a_golden_fixture() {
    let mut all = String::new();
    let mut inputs = Vec::new();
    fixture_inputs(&fixtures(), &mut inputs);
    for input in inputs {
        let case = case_of(&input).unwrap();
        if let Ok(csv) = fs::read_to_string(format!("{}.findings.csv", case.display())) {
            all.push_str(&csv);
        }
    }
    for kind in pgn_arbiter::finding::Kind::ALL {
        assert!(
            all.contains(&format!(",{},", kind.code())),
            "no golden fixture reports {}",
            kind.code()
        );
    }
}

/// The table of finding codes (`docs/codes.md`) has exactly one row per
/// code, in the order of the codes.
#[test]
fn the_docs_list_every_code_once() {
    use pgn_arbiter::board::rules::{Edition, Source};
    let readme = fs::read_to_string(root().join("docs/codes.md")).unwrap();
    let rows: Vec<Vec<&str>> = readme
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| line.split(" | ").collect())
        .collect();
    let listed: Vec<&str> = rows
        .iter()
        .map(|cells| cells[0].trim_start_matches("| ").trim_matches('`'))
        .collect();
    let codes: Vec<&str> = pgn_arbiter::finding::Kind::ALL
        .iter()
        .map(|kind| kind.code())
        .collect();
    assert_eq!(listed, codes);
    // Severity and rule as the kinds table has them: the rule column names
    // the citation under the default edition (or, for a code only another
    // edition reports, under that one); the edition's year may be left out
    // after the first citation of the row.
    for (cells, kind) in rows.iter().zip(pgn_arbiter::finding::Kind::ALL) {
        assert_eq!(cells[1], kind.severity().as_str(), "{}", kind.code());
        let cited = [Edition::Fide2023, Edition::Fide2000, Edition::Fide1994]
            .into_iter()
            .find_map(|edition| match kind.source() {
                Source::Law(article) => edition.cite(article),
                other => Some(other.cite(edition)),
            })
            .unwrap();
        let (prefix, article) = cited.rsplit_once(' ').unwrap();
        assert!(
            cells[2].starts_with(prefix) && cells[2].contains(article),
            "{}: docs/codes.md says {:?}, the kinds table {cited:?}",
            kind.code(),
            cells[2]
        );
    }
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn reads_standard_input_named_dash() {
    let pgn = fs::read(fixtures().join("moves/illegal-move.pgn")).unwrap();
    let expected = fs::read_to_string(fixtures().join("moves/illegal-move.findings.csv")).unwrap();
    let want = expected.replace("moves/illegal-move.pgn,", "-,");
    for args in [&["-q", "-"][..], &["-q"][..]] {
        let out = run_stdin(args, &pgn);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stdout), want, "{args:?}");
    }
}

#[test]
fn reads_compressed_standard_input() {
    let zst = fs::read(fixtures().join("input/zstd.pgn.zst")).unwrap();
    let out = run_stdin(
        &["-q", "--games", "/dev/stdout", "--findings", "/dev/null"],
        &zst,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().count(), 1 + 6);
}

#[test]
fn missing_file_is_reported_and_the_rest_is_read() {
    let out = run_in(
        &fixtures(),
        &["-q", "no-such-file.pgn", "moves/illegal-move.pgn"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no-such-file.pgn"), "{stderr}");
    assert!(text(&out.stdout).contains("moves/illegal-move.pgn,1,20,"));
}

/// A run that read no game writes no report, not even a CSV header that
/// would pass for an empty report; a run that read games with no finding
/// writes the header alone.
#[test]
fn a_run_that_read_nothing_writes_no_header() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("empty.pgn"), "").unwrap();
    for input in ["no-such-file.pgn", "empty.pgn"] {
        let out = run_in(tmp.path(), &["-q", input]);
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert_eq!(text(&out.stdout), "", "{input}");
    }
    let clean = "[Event \"x\"]\n[Site \"?\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 *\n";
    fs::write(tmp.path().join("clean.pgn"), clean).unwrap();
    let out = run_in(tmp.path(), &["-q", "clean.pgn"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 1);
    assert!(text(&out.stdout).starts_with("file,game,line,"));
}

/// A count of part of an input is never printed: frames the file does not
/// have, or an input that cannot be read, give exit status 2 and nothing
/// on standard output.
#[test]
fn a_count_of_an_input_not_read_whole_is_not_printed() {
    let zst = "input/zstd.pgn.zst";
    for args in [
        &["--count", "--zstd-frames", "5..9", zst][..],
        &["--count-lines", "--zstd-frames", "5..9", zst],
        &["--count", "no-such-file.pgn"],
    ] {
        let out = run_in(&fixtures(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        assert!(text(&out.stderr).contains("no count"), "{args:?}");
    }
    let out = run_in(&fixtures(), &["--count", zst]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).starts_with("{\"games\":"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn corrupt_compressed_input_is_an_input_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let gz = fs::read(fixtures().join("input/gzip.pgn.gz")).unwrap();
    let path = tmp.path().join("truncated.pgn.gz");
    fs::write(&path, &gz[..gz.len() / 2]).unwrap();
    let out = run_in(tmp.path(), &["-q", "truncated.pgn.gz"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("truncated.pgn.gz"));
}

#[test]
fn fail_on_sets_the_exit_status() {
    let dir = fixtures();
    // Warnings only.
    let case = "moves/wrong-check-suffix.pgn";
    assert_eq!(run_in(&dir, &["-q", case]).status.code(), Some(0));
    assert_eq!(
        run_in(&dir, &["-q", "--fail-on", "warning", case])
            .status
            .code(),
        Some(1)
    );
    let errors = "moves/illegal-move.pgn";
    assert_eq!(
        run_in(&dir, &["-q", "--fail-on", "never", errors])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn bad_flags_exit_2() {
    assert_eq!(
        run_in(&fixtures(), &["--fail-on", "sometimes"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run_in(&fixtures(), &["-j", "0", "sample.pgn"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn summary_goes_to_stderr() {
    let out = run_in(&fixtures(), &["sample.pgn"]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("1 file, 12 games"), "{stderr}");
    assert!(stderr.contains("illegal-move (error)"), "{stderr}");
}

#[test]
fn a_directory_is_searched_in_sorted_order() {
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--games",
            "/dev/stdout",
            "--findings",
            "/dev/null",
            "input",
        ],
    );
    let csv = text(&out.stdout);
    let files: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert!(files.contains(&"input/gzip.pgn.gz"));
    assert!(files.contains(&"input/zstd.pgn.zst"));
}

/// Reads a games report: file -> game numbers in order.
fn games_by_file(csv: &str) -> BTreeMap<String, Vec<u64>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        out.entry(row[0].to_owned())
            .or_default()
            .push(row[1].parse().unwrap());
    }
    out
}

/// Audits a directory at one and four threads: the reports must be the same
/// bytes, every file's games numbered 1..n once each. Returns the games
/// report.
fn same_output_for_any_thread_count(dir: &Path) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for jobs in ["1", "4"] {
        let findings = tmp.path().join(format!("findings-{jobs}.csv"));
        let games = tmp.path().join(format!("games-{jobs}.csv"));
        let out = bin()
            .args(["-q", "-j", jobs, "--findings"])
            .arg(&findings)
            .arg("--games")
            .arg(&games)
            .arg(dir)
            .output()
            .unwrap();
        // 1: findings; never a panic (101) or an input problem (2).
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        reports.push((
            fs::read(&findings).unwrap(),
            fs::read_to_string(&games).unwrap(),
        ));
    }
    assert!(
        reports[0].0 == reports[1].0,
        "findings differ between -j 1 and -j 4"
    );
    assert!(
        reports[0].1 == reports[1].1,
        "games differ between -j 1 and -j 4"
    );
    for (file, numbers) in &games_by_file(&reports[0].1) {
        let want: Vec<u64> = (1..=numbers.len() as u64).collect();
        assert_eq!(numbers, &want, "{file}: games numbered 1..n, once each");
    }
    reports.swap_remove(0).1
}

#[test]
fn every_fixture_one_row_per_game_and_same_output_for_any_thread_count() {
    let games = same_output_for_any_thread_count(&fixtures());
    let rows = games_by_file(&games);
    assert!(rows.len() > 40, "{} files", rows.len());
    let fischer = fixtures()
        .join("corpora-sample/parser-tests/pgn-extract/fischer.pgn")
        .display()
        .to_string();
    let fischer = rows[&fischer].len();
    assert_eq!(fischer, 34);
}

#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn whole_corpora_one_row_per_game_and_same_output_for_any_thread_count() {
    let corpora = corpora();
    let games = games_by_file(&same_output_for_any_thread_count(&corpora));
    // In the real archives every game has an Event tag: count them apart.
    for dir in ["master", "engine", "online", "chess960"] {
        for entry in fs::read_dir(corpora.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let bytes = if path.extension().is_some_and(|e| e == "zst") {
                zstd::decode_all(fs::File::open(&path).unwrap()).unwrap()
            } else {
                fs::read(&path).unwrap()
            };
            let events = bytes
                .split(|&b| b == b'\n')
                .filter(|l| l.starts_with(b"[Event "))
                .count();
            let name = path.display().to_string();
            let rows = games.get(&name).map_or(0, Vec::len);
            assert_eq!(rows, events, "{name}: rows vs [Event lines");
        }
    }
}

/// The game ids (the first 64 bits of each game's fingerprint) of the
/// shared corpora's games collide as an ideal hash's would: in each
/// 24-bit slice of them, the pairs of distinct ids that share the slice
/// are as many as chance gives (within six standard deviations), so the
/// 88 bits the duplicates table keeps have the odds of a random key
/// (docs/limits.md). And games with one id have one length, as copies do.
#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn game_ids_collide_on_the_corpora_as_an_ideal_hash_would() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.csv");
    let out = bin()
        .args([
            "-q",
            "--fail-on",
            "never",
            "--findings",
            "/dev/null",
            "--games",
        ])
        .arg(&games)
        .arg(corpora())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut reader = csv::Reader::from_path(&games).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (id, plies) = (column("game_id"), column("plies"));
    let mut length: std::collections::HashMap<u64, String> = Default::default();
    for row in reader.records() {
        let row = row.unwrap();
        if row[id].is_empty() {
            continue;
        }
        let key = u64::from_str_radix(&row[id], 16).unwrap();
        let first = length.entry(key).or_insert_with(|| row[plies].to_owned());
        assert_eq!(*first, row[plies], "game id {} of two lengths", &row[id]);
    }
    let ids: Vec<u64> = length.into_keys().collect();
    assert!(ids.len() > 100_000, "{} distinct ids", ids.len());
    let pairs = (ids.len() * (ids.len() - 1) / 2) as f64;
    for shift in [0, 20, 40] {
        let mut slices: std::collections::HashMap<u64, u64> = Default::default();
        for id in &ids {
            *slices.entry((id >> shift) & 0xFF_FFFF).or_default() += 1;
        }
        let sharing: u64 = slices.values().map(|&n| n * (n - 1) / 2).sum();
        let expected = pairs / f64::from(1u32 << 24);
        assert!(
            (sharing as f64 - expected).abs() < 6.0 * expected.sqrt(),
            "bits {shift}..{}: {sharing} pairs share them, chance gives {expected:.0}",
            shift + 24
        );
    }
}

/// The round checks on the real files that shaped their rule (docs/reading.md, "How
/// rounds are read"): counts of each code by event.
#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn round_shapes_in_real_files() {
    let corpora = corpora();
    let counts = |file: &str| -> BTreeMap<(String, String), usize> {
        let out = bin()
            .args(["-q", "--fail-on", "never", "--games", "/dev/null"])
            .args(["--select", "player-twice-in-round,duplicate-board"])
            .arg(corpora.join(file))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let mut counts = BTreeMap::new();
        let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
        for row in reader.records() {
            let row = row.unwrap();
            let event = row[14].split('\'').nth(1).unwrap().to_owned();
            *counts.entry((row[12].to_owned(), event)).or_default() += 1;
        }
        counts
    };
    let of = |counts: &BTreeMap<(String, String), usize>, code: &str, event: &str| {
        counts
            .get(&(code.to_owned(), event.to_owned()))
            .copied()
            .unwrap_or(0)
    };
    // A knockout writes game numbers as sub-rounds: no finding.
    let twic = counts("master/twic944.pgn");
    for event in ["Russia Cup Final 2012", "Russia Cup Final Women 2012"] {
        assert_eq!(of(&twic, "duplicate-board", event), 0, "{twic:?}");
        assert_eq!(of(&twic, "player-twice-in-round", event), 0, "{twic:?}");
    }
    // Round 5 of this event was entered twice, on two days: its boards
    // taken twice are said once there, and once in round 11.
    let event = "15th Mukachevo Rating 2012";
    assert_eq!(of(&twic, "player-twice-in-round", event), 13, "{twic:?}");
    assert_eq!(of(&twic, "duplicate-board", event), 2, "{twic:?}");
    // An exhibition in which Carlsen plays White against everyone.
    let carlsen = counts("master/Carlsen.pgn");
    let event = "Carlsen vs chess.com";
    assert_eq!(
        of(&carlsen, "player-twice-in-round", event),
        0,
        "{carlsen:?}"
    );
    // Two halls, each numbering its boards from 1: 297 boards taken twice
    // in 11 rounds, said once a round.
    let fwwrc = counts("online/lichess-broadcast-FWWRC-2024-full.pgn");
    let event = "FIDE Women’s World Rapid Championships 2024";
    assert_eq!(of(&fwwrc, "duplicate-board", event), 11, "{fwwrc:?}");
    assert_eq!(of(&fwwrc, "player-twice-in-round", event), 0, "{fwwrc:?}");
    // A match: one pair, games 1.1 to 1.22.
    assert!(counts("engine/TCEC_Cup_16_Final.pgn").is_empty());
}

/// Duplicates found through the table's runs on disk are the duplicates found in
/// memory: 70,000 games, the last 4,000 duplicates of games the table has
/// written to disk by then.
#[test]
fn duplicates_past_the_memory_limit_are_found_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("many.pgn");
    let mut pgn = String::new();
    for i in 0..70_000 {
        pgn.push_str(&format!(
            "[White \"W{}\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n",
            i % 66_000
        ));
    }
    fs::write(&input, pgn).unwrap();
    let run = |limit: &str| {
        let out = bin()
            .args(["-q", "--fail-on", "never", "--select", "duplicate-game"])
            .args(["--memory-limit", limit])
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let on_disk = run("1M");
    assert_eq!(on_disk.lines().count(), 4_001);
    assert_eq!(on_disk, run("0"));
    assert_eq!(on_disk, run("1G"));
    let out = bin()
        .args(["--memory-limit", "lots"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Round tables past their share of --memory-limit (an eighth) write the
/// events seen longest ago to disk and read them back when the event comes
/// again: on every real file, the same findings as with no limit.
#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn rounds_past_the_memory_limit_give_the_same_findings() {
    let corpora = corpora();
    let run = |limit: &str| {
        let out = bin()
            .args(["-q", "--fail-on", "never", "--games", "/dev/null"])
            .args(["--select", "player-twice-in-round,duplicate-board"])
            .args(["--memory-limit", limit])
            .arg(&corpora)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    let (all, _) = run("0");
    // 279 players twice in a round and 24 rounds with doubled boards.
    assert!(all.lines().count() > 250, "{all}");
    // 128 KiB for rounds: far less than the corpora's events take, more
    // than the biggest one.
    let (limited, said) = run("1M");
    assert!(said.is_empty(), "{said}");
    assert_eq!(all, limited);
    // Issue 56: less than the tables need to work is refused, naming
    // the least (it dropped the rounds of an event that alone took more).
    let out = bin()
        .args(["--memory-limit", "256K"])
        .arg(&corpora)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("at least 1M"));
}

/// Runs a command, reads the first bytes of its standard output, then closes
/// the pipe, as `| head` does.
fn close_stdout_early(mut command: Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.pgn");
    fs::write(
        &big,
        fs::read(fixtures().join("sample.pgn")).unwrap().repeat(300),
    )
    .unwrap();
    let mut command = bin();
    command.args(["-j", "2"]).arg(&big);
    let out = close_stdout_early(command);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn rule_editions_change_what_is_judged_and_cited() {
    let dir = fixtures();
    let case = "draws/played-past-fivefold.pgn";
    let run = |rules: &str| {
        let out = run_in(&dir, &["--rules", rules, case]);
        (text(&out.stdout), text(&out.stderr))
    };
    let (findings, summary) = run("fide-2023");
    assert!(findings.contains(",played-past-fivefold,FIDE 2023 9.6.1,"));
    assert!(summary.contains("rules fide-2023"), "{summary}");
    // No automatic draws before 2014: the same game only had a claim.
    let (findings, summary) = run("fide-1994");
    assert!(!findings.contains(",played-past-fivefold,"), "{findings}");
    assert!(
        !findings.contains(",result-contradicts-fivefold,"),
        "{findings}"
    );
    assert!(
        findings.contains(",unclaimed-threefold,FIDE 1994 10.10(1),"),
        "{findings}"
    );
    assert!(summary.contains("rules fide-1994"), "{summary}");
    let (findings, _) = run("fide-2000");
    assert!(
        findings.contains(",unclaimed-threefold,FIDE 2000 9.2,"),
        "{findings}"
    );
    assert_eq!(
        run_in(&dir, &["--rules", "fide-1800", case]).status.code(),
        Some(2)
    );
}

/// A game with a 3 MB comment and 20,000 plies is read whole, reported once,
/// and does not disturb its neighbours.
#[test]
fn pathological_games_are_reported_like_any_other() {
    let tmp = tempfile::tempdir().unwrap();
    let mut pgn = String::from("[Event \"huge\"]\n[Result \"*\"]\n\n{");
    pgn.push_str(&"a long comment ".repeat(200_000));
    pgn.push_str("}\n");
    for n in 0..5_000 {
        pgn.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8\n", 2 * n + 1, 2 * n + 2));
    }
    pgn.push_str("*\n\n[Event \"next\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let path = tmp.path().join("huge.pgn");
    fs::write(&path, &pgn).unwrap();
    let games = tmp.path().join("games.csv");
    let out = bin()
        .args(["-q", "--games"])
        .arg(&games)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let games = fs::read_to_string(&games).unwrap();
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{games}");
    assert!(rows[0].contains(",20000,"), "{}", rows[0]);
    assert!(rows[0].contains(",fivefold,1/2-1/2,"), "{}", rows[0]);
    assert!(rows[1].contains(",checkmate,0-1,"), "{}", rows[1]);
    let findings = text(&out.stdout);
    assert!(findings.contains(",played-past-fivefold,"), "{findings}");
    assert!(findings.contains(",result-mismatch,"), "{findings}");
}

#[test]
fn every_winnability_search_finds_the_lichess_flag_fall() {
    for search in ["fast", "full", "all"] {
        let out = run_in(
            &fixtures(),
            &[
                "-q",
                "--winnability",
                search,
                "wins/unwinnable-win-on-time.pgn",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{search}");
        assert!(
            text(&out.stdout).contains(",unwinnable-win-on-time,FIDE 2023 6.9,"),
            "{search}"
        );
    }
    // Under the 1994 Laws only a lone king spares the flagged player.
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--rules",
            "fide-1994",
            "wins/unwinnable-win-on-time.pgn",
        ],
    );
    assert!(!text(&out.stdout).contains(",unwinnable-win-on-time,FIDE"));
}

/// Issue 9: a report path that is an input, a PGN name or the other report
/// is refused before anything is opened.
#[test]
fn a_report_is_never_written_over_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    let archive = tmp.path().join("archive.pgn");
    fs::write(&archive, &sample).unwrap();
    let link = tmp.path().join("link.csv");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&archive, &link).unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["--findings", "archive.pgn", "archive.pgn"],
        vec!["--games", "archive.pgn", "archive.pgn"],
        #[cfg(unix)]
        vec!["--games", "link.csv", "archive.pgn"],
        vec!["--findings", "r.csv", "--games", "./r.csv", "archive.pgn"],
        vec!["--findings", "-", "--games", "-", "archive.pgn"],
    ];
    for args in cases {
        let out = run_in(tmp.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("pgn-arbiter: "), "{args:?}");
        assert_eq!(fs::read(&archive).unwrap(), sample, "{args:?}");
        assert!(!tmp.path().join("r.csv").exists(), "{args:?}");
    }
    // The careless form: the archive named as the report, PGN on stdin.
    let out = bin()
        .current_dir(tmp.path())
        .args(["--findings", "archive.pgn"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read(&archive).unwrap(), sample);
    // `-` is standard output for either report.
    let out = run_in(
        tmp.path(),
        &["-q", "--findings", "-", "--games", "g.csv", "archive.pgn"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("file,game,line,white"));
    assert!(!tmp.path().join("-").exists());
}

/// No output (report, summary, page, corrected copy) may be a file the
/// run reads: an input, the TRF, the baseline, or the file behind standard
/// input. Each is refused with status 2 before anything is written.
#[test]
fn nothing_the_run_reads_is_written_over() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    fs::write(tmp.path().join("s.pgn"), &sample).unwrap();
    let trf = fs::read(fixtures().join("trf/sklangen-example1.trf")).unwrap();
    fs::write(tmp.path().join("t.trf"), &trf).unwrap();
    let out = run_in(tmp.path(), &["-q", "--findings", "b.csv", "s.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    let baseline = fs::read(tmp.path().join("b.csv")).unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["--fix", "t.trf", "--trf", "t.trf", "s.pgn"],
        vec!["--fix", "b.csv", "--baseline", "b.csv", "s.pgn"],
        vec!["--summary", "b.csv", "--baseline", "b.csv", "s.pgn"],
        vec!["--html", "b.csv", "--baseline", "b.csv", "s.pgn"],
        vec!["--games", "t.trf", "--trf", "t.trf", "s.pgn"],
        vec!["--fix", "s.pgn", "s.pgn"],
    ];
    for args in &cases {
        let out = run_in(tmp.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("this run reads"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // The archive on standard input, its copy named the archive.
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "/dev/null", "--fix", "s.pgn", "-"])
        .stdin(fs::File::open(tmp.path().join("s.pgn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the file on standard input"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(fs::read(tmp.path().join("s.pgn")).unwrap(), sample);
    assert_eq!(fs::read(tmp.path().join("t.trf")).unwrap(), trf);
    assert_eq!(fs::read(tmp.path().join("b.csv")).unwrap(), baseline);
}

/// New outputs get what the umask leaves of 0666 (as any program's new
/// file), not 0600; a file replaced keeps its mode; parents are made.
#[cfg(unix)]
#[test]
fn outputs_get_the_umask_and_keep_their_mode() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let sample = fixtures().join("sample.pgn");
    let run = |umask: &str, name: &str| {
        let status = Command::new("sh")
            .current_dir(tmp.path())
            .arg("-c")
            .arg(format!(
                "umask {umask}; exec \"$0\" -q --findings {name} --games out/{name} --fix out/{name}.pgn \"$1\""
            ))
            .arg(env!("CARGO_BIN_EXE_pgn-arbiter"))
            .arg(&sample)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1));
    };
    let mode = |path: &str| {
        fs::metadata(tmp.path().join(path))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    run("022", "a.csv");
    for path in ["a.csv", "out/a.csv", "out/a.csv.pgn"] {
        assert_eq!(mode(path), 0o644, "{path}");
    }
    run("077", "b.csv");
    for path in ["b.csv", "out/b.csv", "out/b.csv.pgn"] {
        assert_eq!(mode(path), 0o600, "{path}");
    }
    // Replaced under umask 077, a 0664 report stays 0664.
    fs::set_permissions(tmp.path().join("a.csv"), fs::Permissions::from_mode(0o664)).unwrap();
    run("077", "a.csv");
    assert_eq!(mode("a.csv"), 0o664);
}

/// `--select ""` (an unset variable in a CI script) would turn every check
/// off; it is a usage error, as a baseline that is no findings report.
#[test]
fn an_empty_selection_or_a_baseline_that_is_no_report_is_refused() {
    let sample = fixtures().join("sample.pgn");
    let sample = sample.to_str().unwrap();
    for args in [
        vec!["--select", "", sample],
        vec!["--ignore", " , ", sample],
        vec!["--baseline", "/dev/zero", sample],
        vec!["--baseline", sample, sample],
    ] {
        let out = run_in(&fixtures(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(text(&out.stderr).starts_with("pgn-arbiter: "), "{args:?}");
    }
}

/// A corrected copy that is not written whole (a game too large to copy)
/// makes the run incomplete: the summary says so and counts no change, and
/// the status is 2.
#[test]
fn a_copy_not_written_whole_is_no_complete_run() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = tmp.path().join("s.json");
    let fixed = tmp.path().join("fixed");
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--findings",
            "/dev/null",
            "--summary",
            summary.to_str().unwrap(),
            "--fix",
            fixed.to_str().unwrap(),
            "sample.pgn",
            "structure/game-too-large.pgn.zst",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is not whole"),
        "{}",
        text(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["complete"], false);
    assert!(json["total"]["fixed"].is_null(), "{}", json["total"]);
    // The whole copy is in place; the other is left as NAME.partial.
    assert!(fixed.join("sample.pgn").is_file());
    assert!(fixed.join("structure/game-too-large.pgn.partial").is_file());
}

/// Issue 9: SIGTERM or SIGHUP (the terminal closed) while the input is
/// still coming: both previous reports stay, and no copy or temporary file
/// is left.
#[test]
fn an_interrupted_run_leaves_the_previous_reports() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("f.csv"), "yesterday\n").unwrap();
    fs::write(tmp.path().join("g.csv"), "yesterday\n").unwrap();
    let listing = || listing(tmp.path());
    let sample = fixtures().join("sample.pgn");
    for (signal, number) in [("TERM", 15), ("HUP", 1)] {
        let mut child = bin()
            .current_dir(tmp.path())
            .args([
                "-q",
                "-j",
                "2",
                "--findings",
                "f.csv",
                "--games",
                "g.csv",
                "--fix",
                "c.pgn",
                "-",
            ])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for _ in 0..200 {
            stdin.write_all(&fs::read(&sample).unwrap()).unwrap();
        }
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(
            listing().iter().any(|n| n.ends_with(".partial")),
            "{:?}",
            listing()
        );
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            out.status.code(),
            Some(128 + number),
            "{}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains("interrupted"));
        assert_eq!(
            fs::read_to_string(tmp.path().join("f.csv")).unwrap(),
            "yesterday\n"
        );
        assert_eq!(
            fs::read_to_string(tmp.path().join("g.csv")).unwrap(),
            "yesterday\n"
        );
        assert_eq!(listing(), ["f.csv", "g.csv"], "SIG{signal}");
    }
}

/// Issue 9: a run that fails leaves the previous reports as they were, and
/// no temporary file behind.
#[test]
fn a_failed_or_interrupted_run_leaves_the_previous_reports() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("f.csv"), "yesterday\n").unwrap();
    fs::write(tmp.path().join("g.csv"), "yesterday\n").unwrap();
    let listing = || listing(tmp.path());
    // A games report that cannot be written (its directory would be below
    // a file): the findings report stays too.
    let sample = fixtures().join("sample.pgn");
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "f.csv", "--games", "f.csv/dir/g.csv"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        fs::read_to_string(tmp.path().join("f.csv")).unwrap(),
        "yesterday\n"
    );
    assert_eq!(listing(), ["f.csv", "g.csv"]);

    // A missing input: the previous report stays, the rows of the other
    // input are kept as f.csv.partial.
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "f.csv", "no-such-file.pgn"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("f.csv.partial"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(tmp.path().join("f.csv")).unwrap(),
        "yesterday\n"
    );
    let partial = fs::read_to_string(tmp.path().join("f.csv.partial")).unwrap();
    assert!(partial.contains(",illegal-move,"), "{partial}");
    fs::remove_file(tmp.path().join("f.csv.partial")).unwrap();
    assert_eq!(listing(), ["f.csv", "g.csv"]);

    // A games report while standard output closes early: not put in place.
    let big = tmp.path().join("big.txt");
    fs::write(&big, fs::read(&sample).unwrap().repeat(300)).unwrap();
    let mut command = bin();
    command
        .current_dir(tmp.path())
        .args(["-j", "2", "--games", "g.csv", "big.txt"]);
    let out = close_stdout_early(command);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not written"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(tmp.path().join("g.csv")).unwrap(),
        "yesterday\n"
    );
    assert_eq!(listing(), ["big.txt", "f.csv", "g.csv"]);
    fs::remove_file(&big).unwrap();

    // A complete run replaces both.
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "f.csv", "--games", "g.csv"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        fs::read_to_string(tmp.path().join("g.csv"))
            .unwrap()
            .starts_with("file,game")
    );
    assert_eq!(listing(), ["f.csv", "g.csv"]);
}

/// Issue 9: a walk reads each file once, ends in symlink loops and skips
/// FIFOs with a note.
#[cfg(unix)]
#[test]
fn a_directory_walk_ends_and_skips_what_is_not_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("archive");
    fs::create_dir(&dir).unwrap();
    fs::copy(fixtures().join("sample.pgn"), dir.join("a.pgn")).unwrap();
    fs::write(dir.join("a.pgn.sha256"), "junk").unwrap();
    std::os::unix::fs::symlink(".", dir.join("self")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("up")).unwrap();
    let fifo = dir.join("pipe.pgn");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = run_in(
        tmp.path(),
        &["--games", "g.csv", "--findings", "/dev/null", "archive"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let games = strict_rows(&fs::read_to_string(tmp.path().join("g.csv")).unwrap());
    assert_eq!(games.len(), 12);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("pipe.pgn: skipped, not a regular file"),
        "{stderr}"
    );
    // Links to directories are not followed without --follow (as ripgrep
    // and fd): a link to `/` cannot turn a run into a walk of the disk.
    assert!(
        stderr.contains("self: skipped, a symbolic link to a directory; give --follow"),
        "{stderr}"
    );
    let out = run_in(
        tmp.path(),
        &[
            "--follow",
            "--games",
            "g.csv",
            "--findings",
            "/dev/null",
            "archive",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let games = strict_rows(&fs::read_to_string(tmp.path().join("g.csv")).unwrap());
    assert_eq!(games.len(), 12);
    assert!(
        text(&out.stderr).contains("already searched"),
        "{}",
        text(&out.stderr)
    );
}

/// Issue 9: checking nothing is not a pass.
#[test]
fn a_run_that_reads_no_game_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("notes.txt"), "1. e4 *\n").unwrap();
    let out = run_in(tmp.path(), &["-q", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no PGN file"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(run_stdin(&["-q"], b"").status.code(), Some(2));
    assert_eq!(run_stdin(&["-q"], b"\n\n  \n").status.code(), Some(2));
    // An empty input beside a good one is a note, not a failure.
    fs::write(tmp.path().join("empty.pgn"), "").unwrap();
    let sample = fixtures().join("moves/wrong-check-suffix.pgn");
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "empty.pgn"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("empty.pgn: no game found"));
    // Thousands of threads are not started for a typo.
    let out = run_in(&fixtures(), &["-q", "-j", "100000", "sample.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("per core"));
}

/// Every row of a report, read back strictly with every cell checked
/// (`report::read_back`).
fn strict_rows(csv_text: &str) -> Vec<csv::StringRecord> {
    pgn_arbiter::report::read_back(csv_text.as_bytes()).unwrap()
}

/// Runs the tool on generated input with both reports: exit status and
/// the rows of each report (checked with `strict_rows`).
fn audit_generated(
    name: &str,
    bytes: &[u8],
    jobs: &str,
) -> (i32, Vec<csv::StringRecord>, Vec<csv::StringRecord>, String) {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join(name), bytes).unwrap();
    let out = run_in(
        tmp.path(),
        &[
            "-q",
            "-j",
            jobs,
            "--findings",
            "f.csv",
            "--games",
            "g.csv",
            name,
        ],
    );
    let findings = strict_rows(&fs::read_to_string(tmp.path().join("f.csv")).unwrap());
    let games = strict_rows(&fs::read_to_string(tmp.path().join("g.csv")).unwrap());
    (
        out.status.code().unwrap(),
        findings,
        games,
        text(&out.stderr),
    )
}

fn codes(findings: &[csv::StringRecord]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for row in findings {
        *out.entry(row[12].to_owned()).or_default() += 1;
    }
    out
}

/// Issue 9: floods of tiny games, header-only games, a huge comment, NUL
/// bytes, junk tags, a long game of wrong suffixes and formulas: every
/// game is counted once, both reports are strict, safe CSV.
#[test]
fn hostile_inputs_are_counted_and_reported_safely() {
    for jobs in ["1", "3"] {
        let (status, _, games, _) = audit_generated("stars.pgn", &b"*\n\n".repeat(300_000), jobs);
        assert_eq!((status, games.len()), (1, 300_000));

        let header_only = b"[White \"=1+1\"]\n\n".repeat(300_000);
        let (status, findings, games, _) = audit_generated("headers.pgn", &header_only, jobs);
        assert_eq!((status, games.len()), (1, 300_000));
        assert_eq!(&games[299_999][7], "'=1+1");
        assert!(findings.iter().all(|r| &r[3] == "'=1+1"));

        let mut comment = b"[Event \"huge\"]\n\n1. e4 {".to_vec();
        comment.extend(b"blah ".repeat(4_000_000));
        comment.extend(b"} *\n\n[Event \"next\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
        let (status, findings, games, _) = audit_generated("comment.pgn", &comment, jobs);
        assert_eq!((status, games.len()), (1, 2));
        assert_eq!(codes(&findings)["game-too-large"], 1);
        assert_eq!((&games[1][3], &games[1][12]), ("next", "checkmate"));

        let (status, findings, games, stderr) =
            audit_generated("nul.pgn", &vec![0u8; 10 << 20], jobs);
        assert_eq!((status, games.len()), (1, 1), "{stderr}");
        assert_eq!(codes(&findings)["game-too-large"], 1);

        let mut line = b"[Event \"one line\"]\n\n".to_vec();
        line.extend(b"Nf3 Nf6 Ng1 Ng8 ".repeat(400_000));
        line.extend(b"*\n");
        let (status, findings, games, _) = audit_generated("line.pgn", &line, jobs);
        assert_eq!((status, games.len()), (1, 1));
        assert_eq!(codes(&findings)["game-too-large"], 1);
        assert_eq!(&games[0][3], "one line");

        let mut tags = b"[x]\n".repeat(200_000);
        tags.extend(b"\n1. e4 *\n");
        let (_, findings, games, _) = audit_generated("tags.pgn", &tags, jobs);
        assert_eq!(games.len(), 1);
        assert_eq!(codes(&findings)["malformed-tag"], 101);

        let mut shuffle = b"[Event \"x\"]\n[Result \"*\"]\n\n".to_vec();
        shuffle.extend(b"Nf3+ Nf6+ Ng1+ Ng8+ ".repeat(25_000));
        shuffle.extend(b"*\n");
        let (_, findings, games, _) = audit_generated("suffix.pgn", &shuffle, jobs);
        assert_eq!((&games[0][10], games.len()), ("100000", 1));
        assert_eq!(codes(&findings)["wrong-check-suffix"], 101);
        assert!(
            findings
                .iter()
                .any(|r| r[14].starts_with("99900 more moves"))
        );
    }
}

/// Issue 9: an endless stream of zero bytes ends, with one row and a
/// clear error.
#[cfg(unix)]
#[test]
fn endless_junk_ends_with_an_error() {
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--games",
            "/dev/stdout",
            "--findings",
            "/dev/null",
            "/dev/zero",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let games = strict_rows(&text(&out.stdout));
    assert_eq!(games.len(), 1);
    assert!(
        text(&out.stderr).contains("no game start in the 256 MiB"),
        "{}",
        text(&out.stderr)
    );
}

/// Issue 9: old Mac line ends, a byte order mark where two files were
/// joined, and UTF-16.
#[test]
fn line_ends_and_encodings() {
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    let cr_only: Vec<u8> = String::from_utf8(sample.clone())
        .unwrap()
        .replace("\r\n", "\n")
        .replace('\n', "\r")
        .into_bytes();
    let (_, findings_cr, games, _) = audit_generated("mac.pgn", &cr_only, "2");
    assert_eq!(games.len(), 12);
    let (_, findings_lf, _, _) = audit_generated("mac.pgn", &sample, "2");
    assert_eq!(findings_cr, findings_lf, "lines are counted the same");

    let mut joined = b"\xef\xbb\xbf".to_vec();
    joined.extend(&sample);
    joined.extend(b"\xef\xbb\xbf");
    joined.extend(&sample);
    let (_, findings, games, _) = audit_generated("joined.pgn", &joined, "2");
    assert_eq!(games.len(), 24);
    // The second half is a copy of the first: each of its games is also a
    // duplicate-game.
    let (duplicates, rest): (Vec<_>, Vec<_>) =
        findings.iter().partition(|r| &r[12] == "duplicate-game");
    assert_eq!(rest.len(), 2 * findings_lf.len());
    assert_eq!(duplicates.len(), 12);
    assert_eq!(&games[12][3], &games[0][3]);

    let text = String::from_utf8(sample).unwrap();
    let mut utf16 = vec![0xff, 0xfe];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let (_, findings, games, _) = audit_generated("mac.pgn", &utf16, "2");
    assert_eq!(games.len(), 12);
    assert_eq!(findings, findings_lf);
}

/// Issue 9: `--raw-csv` writes cells as the input has them.
#[test]
fn raw_csv_leaves_cells_as_they_are() {
    let case = "input/spreadsheet-formulas.pgn";
    let safe = text(&run_in(&fixtures(), &["-q", case]).stdout);
    let raw = text(&run_in(&fixtures(), &["-q", "--raw-csv", case]).stdout);
    assert!(safe.contains(",'=A1+1,"), "{safe}");
    assert!(raw.contains(",=A1+1,"), "{raw}");
    assert!(raw.contains("\"=HYPERLINK("), "{raw}");
}

/// CI keeps the findings of a run as its baseline: a second run against
/// them reports nothing new and passes; a new finding fails it.
#[test]
fn a_second_run_against_its_own_baseline_reports_nothing_new() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fixtures().join("sample.pgn");
    fs::copy(&sample, tmp.path().join("archive.pgn")).unwrap();
    let first = run_in(tmp.path(), &["-q", "--findings", "base.csv", "archive.pgn"]);
    assert_eq!(first.status.code(), Some(1), "the sample has errors");
    let base = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    assert!(base.len() > 3);
    let second = run_in(
        tmp.path(),
        &[
            "--baseline",
            "base.csv",
            "--findings",
            "new.csv",
            "archive.pgn",
        ],
    );
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    let new = strict_rows(&fs::read_to_string(tmp.path().join("new.csv")).unwrap());
    assert!(new.is_empty(), "{new:?}");
    let stderr = text(&second.stderr);
    assert!(
        stderr.contains(&format!(
            "{} finding(s) left out: the baseline has them",
            base.len()
        )),
        "{stderr}"
    );
    // One more game with an illegal move: only it is reported.
    let mut archive = fs::read(&sample).unwrap();
    archive.extend_from_slice(b"\n\n[Event \"new\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n");
    fs::write(tmp.path().join("archive.pgn"), archive).unwrap();
    let third = run_in(tmp.path(), &["-q", "--baseline", "base.csv", "archive.pgn"]);
    assert_eq!(third.status.code(), Some(1));
    let rows = strict_rows(&text(&third.stdout));
    assert!(rows.iter().all(|r| &r[1] == "13"), "{rows:?}");
    assert!(rows.iter().any(|r| &r[12] == "illegal-move"), "{rows:?}");
    // Not a findings report: a usage error.
    let bad = run_in(tmp.path(), &["--baseline", "archive.pgn", "archive.pgn"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("no 'file' column"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn an_unknown_code_is_a_usage_error_naming_the_nearest() {
    let out = run_in(
        &fixtures(),
        &[
            "--ignore",
            "unclaimed-threefold,wrong-check-sufix",
            "sample.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("did you mean 'wrong-check-suffix'"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing is written");
}

/// The JSON summary counts what the reports hold: games and findings, per
/// code, severity and input, and says whether the run was complete.
#[test]
fn the_json_summary_counts_the_reports_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = [
        "sample.pgn",
        "moves/variations.pgn",
        "options/select.pgn",
        "structure/duplicate-game.pgn",
    ];
    let mut args = vec![
        "-q".to_owned(),
        "--findings".to_owned(),
        tmp.path().join("f.csv").display().to_string(),
        "--games".to_owned(),
        tmp.path().join("g.csv").display().to_string(),
        "--summary".to_owned(),
        tmp.path().join("s.json").display().to_string(),
        "--ignore".to_owned(),
        "info".to_owned(),
    ];
    args.extend(inputs.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_in(&fixtures(), &args);
    assert_eq!(out.status.code(), Some(1));
    let findings = strict_rows(&fs::read_to_string(tmp.path().join("f.csv")).unwrap());
    let games = strict_rows(&fs::read_to_string(tmp.path().join("g.csv")).unwrap());
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(json["complete"], true);
    assert_eq!(json["rules"], "fide-2023");
    assert_eq!(json["game_id_scheme"], 4);
    assert_eq!(json["options"]["ignore"], "info");
    let total = &json["total"];
    assert_eq!(total["files"], 4);
    assert_eq!(total["games"], games.len());
    assert_eq!(total["findings"], findings.len());
    assert_eq!(total["by_severity"]["info"], 0, "ignored");
    // duplicate-game.pgn: game 1 again as game 2, as game 4 under names
    // written otherwise, and as game 9 with its Variant written.
    assert_eq!(total["duplicates"], 3);
    let by_code: BTreeMap<String, usize> = total["by_code"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize))
        .collect();
    assert_eq!(by_code, codes(&findings));
    let per_input = json["inputs"].as_array().unwrap();
    assert_eq!(per_input.len(), inputs.len());
    for (input, name) in per_input.iter().zip(inputs) {
        assert_eq!(input["name"], name);
        let rows = findings.iter().filter(|r| &r[0] == name).count();
        assert_eq!(input["findings"], rows, "{name}");
        let game_rows = games.iter().filter(|r| &r[0] == name).count();
        assert_eq!(input["games"], game_rows, "{name}");
    }
    // An input that cannot be read: the summary is written, not complete.
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--findings",
            "-",
            "--summary",
            tmp.path().join("s2.json").to_str().unwrap(),
            "sample.pgn",
            "missing.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("s2.json")).unwrap()).unwrap();
    assert_eq!(json["complete"], false);
    assert_eq!(json["inputs"][1]["complete"], false);
    assert!(json["inputs"][1]["problem"].is_string());
}

/// A game submitted twice, in two files, is reported on its later copy
/// naming the first; `--no-duplicates` looks for none.
#[test]
fn duplicates_are_found_across_files_and_not_with_no_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let game = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
                [White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n";
    fs::write(tmp.path().join("a.pgn"), game).unwrap();
    fs::write(tmp.path().join("b.pgn"), game.replace("1-0", "1/2-1/2")).unwrap();
    let out = run_in(tmp.path(), &["-q", "a.pgn", "b.pgn"]);
    let rows = strict_rows(&text(&out.stdout));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((&rows[0][0], &rows[0][12]), ("b.pgn", "duplicate-game"));
    assert!(rows[0][14].contains("game 1 of a.pgn"), "{}", &rows[0][14]);
    assert!(
        rows[0][14].contains("1-0 there, 1/2-1/2 here"),
        "{}",
        &rows[0][14]
    );
    let out = run_in(tmp.path(), &["-q", "--no-duplicates", "a.pgn", "b.pgn"]);
    assert!(strict_rows(&text(&out.stdout)).is_empty());
    // -j 1 and -j 4 agree.
    let one = run_in(tmp.path(), &["-q", "-j", "1", "a.pgn", "b.pgn", "a.pgn"]);
    let four = run_in(tmp.path(), &["-q", "-j", "4", "a.pgn", "b.pgn", "a.pgn"]);
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn a_report_is_never_written_over_the_tournament_report_file() {
    let tmp = tempfile::tempdir().unwrap();
    let trf = tmp.path().join("event.trf");
    let text = fs::read(fixtures().join("tournament/agrees.trf")).unwrap();
    fs::write(&trf, &text).unwrap();
    let out = bin()
        .args(["-q", "--trf"])
        .arg(&trf)
        .arg("--findings")
        .arg(&trf)
        .arg(fixtures().join("tournament/agrees.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read(&trf).unwrap(), text);
}

/// What a baseline keys findings on (game id, code, ply), sorted.
fn finding_ids(rows: &[&csv::StringRecord]) -> Vec<String> {
    let mut ids: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", &r[16], &r[12], &r[8]))
        .collect();
    ids.sort();
    ids
}

/// The sample's games, one string each, ending with a blank line.
fn sample_games() -> Vec<String> {
    let sample = fs::read_to_string(fixtures().join("sample.pgn")).unwrap();
    let games: Vec<String> = sample
        .split("\n[Event ")
        .enumerate()
        .map(|(i, g)| {
            let g = if i == 0 {
                g.to_owned()
            } else {
                format!("[Event {g}")
            };
            format!("{}\n\n", g.trim_end())
        })
        .collect();
    // As many games as the games report of the sample has rows.
    assert_eq!(
        games.len() + 1,
        fs::read_to_string(fixtures().join("sample.games.csv"))
            .unwrap()
            .lines()
            .count()
    );
    games
}

/// A baseline matches findings by their game's id: inserting, removing and
/// reordering games, and renaming or re-pathing the file, make no old
/// finding new; the inserted game's own are new even where a neighbour
/// has the same code; the rows of the removed game are counted unmatched.
#[test]
fn a_baseline_survives_edits_of_the_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let games = sample_games();
    let n = games.len();
    fs::create_dir(tmp.path().join("archive")).unwrap();
    fs::write(tmp.path().join("archive/a.pgn"), games.concat()).unwrap();
    let out = run_in(
        tmp.path(),
        &[
            "-q",
            "--findings",
            "base.csv",
            "--fail-on",
            "never",
            "archive/a.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let base = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    // The removed game (the last, with an illegal move) had rows.
    let removed = base.iter().filter(|r| r[1] == n.to_string()).count();
    assert!(removed > 0);
    // A game with the codes its neighbours have (missing-tag,
    // invalid-date), inserted first; the others reversed; the last one
    // removed; the file renamed and named through `./`.
    let inserted = "[Event \"Inserted\"]\n[Date \"2024.13.01\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
    let mut edited = vec![inserted.to_owned()];
    edited.extend(games[..n - 1].iter().rev().cloned());
    fs::write(tmp.path().join("archive/b.pgn"), edited.concat()).unwrap();
    fs::remove_file(tmp.path().join("archive/a.pgn")).unwrap();
    let out = run_in(
        tmp.path(),
        &[
            "-q",
            "--findings",
            "new.csv",
            "--summary",
            "s.json",
            "--baseline",
            "base.csv",
            "--baseline-update",
            "base.csv",
            "./archive/b.pgn",
        ],
    );
    let new = strict_rows(&fs::read_to_string(tmp.path().join("new.csv")).unwrap());
    assert!(!new.is_empty());
    for row in &new {
        assert_eq!(
            &row[1], "1",
            "only the inserted game's findings are new: {row:?}"
        );
    }
    let codes: Vec<&str> = new.iter().map(|r| &r[12]).collect();
    assert!(
        codes.contains(&"missing-tag") && codes.contains(&"invalid-date"),
        "{codes:?}"
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings only: {}",
        text(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(json["total"]["baseline_unmatched"], removed);
    assert_eq!(
        json["total"]["left_out_by_baseline"],
        base.len() - removed,
        "every other old finding matched"
    );
    // The baseline, ratcheted in place: the old findings still found, where
    // they are now; neither the removed game's nor the inserted game's.
    let updated = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    assert_eq!(updated.len(), base.len() - removed);
    assert!(
        updated
            .iter()
            .all(|r| &r[0] == "./archive/b.pgn" && &r[1] != "1")
    );
    let kept: Vec<&csv::StringRecord> = base.iter().filter(|r| r[1] != n.to_string()).collect();
    assert_eq!(
        finding_ids(&updated.iter().collect::<Vec<_>>()),
        finding_ids(&kept)
    );
    // Run again on it: only the inserted game's findings, nothing unmatched.
    let out = run_in(
        tmp.path(),
        &[
            "-q",
            "--findings",
            "again.csv",
            "--summary",
            "s.json",
            "--baseline",
            "base.csv",
            "./archive/b.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = strict_rows(&fs::read_to_string(tmp.path().join("again.csv")).unwrap());
    assert_eq!(again, new);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(json["total"]["baseline_unmatched"], 0);
}

/// Games with no move have no `game_id`: their baseline rows match on the
/// file and the game's tags, not its number, so removing a game before
/// them makes none of their findings new, and the ratchet keeps them.
#[test]
fn a_baseline_keeps_games_without_moves_where_games_move() {
    let tmp = tempfile::tempdir().unwrap();
    let game = |round: &str, white: &str, moves: &str| {
        format!(
            "[Event \"E\"]\n[Date \"2024.01.01\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"D\"]\n[Result \"*\"]\n\n{moves} *\n\n"
        )
    };
    let (played, aborted) = (game("1", "A", "1. e4 e5"), game("1", "C", ""));
    let write = |games: &[&String]| {
        let text: String = games.iter().map(|g| g.as_str()).collect();
        fs::write(tmp.path().join("a.pgn"), text).unwrap();
    };
    write(&[&played, &aborted, &game("2", "C", "")]);
    let args = |findings: &'static str| -> Vec<&'static str> {
        vec!["-q", "--fail-on", "never", "--findings", findings, "a.pgn"]
    };
    let out = run_in(tmp.path(), &args("base.csv"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let base = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    let no_id = base.iter().filter(|r| r[16].is_empty()).count();
    assert_eq!(no_id, 2, "each game without moves has a row: {base:?}");
    // The first game removed: the others are games 1 and 2 now.
    write(&[&aborted, &game("2", "C", "")]);
    let mut again = args("new.csv");
    again.extend(["--summary", "s.json", "--baseline", "base.csv"]);
    again.extend(["--baseline-update", "base.csv"]);
    let out = run_in(tmp.path(), &again);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let new = strict_rows(&fs::read_to_string(tmp.path().join("new.csv")).unwrap());
    assert!(new.is_empty(), "no finding is new: {new:?}");
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(json["total"]["left_out_by_baseline"], 2);
    assert_eq!(json["total"]["baseline_unmatched"], base.len() - 2);
    let updated = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    let numbers: Vec<&str> = updated.iter().map(|r| &r[1]).collect();
    assert_eq!(numbers, ["1", "2"], "kept where they are now: {updated:?}");
}

#[test]
fn a_ratcheted_baseline_keeps_what_the_run_cannot_judge() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["a.pgn", "b.pgn"] {
        fs::copy(fixtures().join("sample.pgn"), tmp.path().join(name)).unwrap();
    }
    let base = |args: &[&str]| {
        let out = run_in(tmp.path(), args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    };
    base(&[
        "-q",
        "--fail-on",
        "never",
        "--findings",
        "base.csv",
        "a.pgn",
        "b.pgn",
    ]);
    let rows = strict_rows(&fs::read_to_string(tmp.path().join("base.csv")).unwrap());
    let illegal = rows.iter().filter(|r| &r[12] == "illegal-move").count();
    assert!(illegal > 0 && illegal < rows.len());
    // Only a.pgn, only illegal moves: b.pgn's rows and the other codes'
    // cannot be judged, and stay as they were.
    base(&[
        "-q",
        "--fail-on",
        "never",
        "--select",
        "illegal-move",
        "--baseline",
        "base.csv",
        "--baseline-update",
        "kept.csv",
        "a.pgn",
    ]);
    let mut kept = strict_rows(&fs::read_to_string(tmp.path().join("kept.csv")).unwrap());
    let mut rows = rows;
    let sort = |rows: &mut Vec<csv::StringRecord>| {
        rows.sort_by_key(|r| r.iter().map(str::to_owned).collect::<Vec<_>>())
    };
    sort(&mut kept);
    sort(&mut rows);
    assert_eq!(kept, rows);
    // --baseline-update needs a baseline, and writes over nothing else the
    // run reads.
    let out = run_in(tmp.path(), &["--baseline-update", "kept.csv", "a.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run_in(
        tmp.path(),
        &[
            "--baseline",
            "base.csv",
            "--baseline-update",
            "b.pgn",
            "a.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run_in(
        tmp.path(),
        &[
            "--baseline",
            "base.csv",
            "--baseline-update",
            "x.csv",
            "--findings",
            "x.csv",
            "a.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--baseline-update"),
        "{}",
        text(&out.stderr)
    );
}

/// What is no TRF is refused before anything is read: exit 2, a message
/// naming the file and saying why, and no report written.
#[test]
fn a_trf_that_is_no_trf_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("empty.trf", b"", "empty"),
        ("blank.trf", b"\n \n", "empty"),
        ("binary.trf", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "NUL bytes"),
        (
            "notes.trf",
            b"012 A tournament\nno players here\n",
            "no player line",
        ),
    ];
    for (name, bytes, why) in cases {
        let trf = tmp.path().join(name);
        fs::write(&trf, bytes).unwrap();
        let findings = tmp.path().join(format!("{name}.csv"));
        let out = bin()
            .current_dir(fixtures())
            .args(["-q", "--findings"])
            .arg(&findings)
            .arg("--trf")
            .arg(&trf)
            .arg("sample.pgn")
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(name) && stderr.contains(why),
            "{name}: {stderr}"
        );
        assert!(!findings.exists(), "{name}: a report was written");
    }
}

#[test]
fn the_version_names_its_commit_and_date() {
    let out = run_in(&fixtures(), &["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let version = text(&out.stdout);
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(root())
            .output()
            .unwrap();
        text(&out.stdout).trim().to_owned()
    };
    // A checkout (the tests run in one): the commit built and its date.
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let date = git(&["log", "-1", "--format=%cs", "HEAD"]);
    assert_eq!(
        version.trim(),
        format!(
            "pgn-arbiter {} ({commit} {date})",
            env!("CARGO_PKG_VERSION")
        )
    );
    // And the summary records the same.
    let out = run_in(
        &fixtures(),
        &[
            "-q",
            "--summary",
            "-",
            "--findings",
            "/dev/null",
            "sample.pgn",
        ],
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["commit"], commit.as_str());
    assert_eq!(summary["commit_date"], date.as_str());
}

#[test]
fn completions_and_the_man_page_come_from_the_binary() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run_in(&fixtures(), &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        // Every flag is offered.
        for flag in ["output-format", "fail-on", "baseline-update", "trf"] {
            assert!(script.contains(flag), "{shell}: {flag}");
        }
    }
    // bash reads the script it is given.
    let out = run_in(&fixtures(), &["completions", "bash"]);
    let checked = Command::new("bash")
        .args(["-n", "-c", &text(&out.stdout)])
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    let out = run_in(&fixtures(), &["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(page.starts_with(".ie"), "{page}");
    assert!(page.contains(".TH pgn-arbiter 1"));
    assert!(page.contains("output\\-format"));
    assert_eq!(
        run_in(&fixtures(), &["completions", "tcsh"]).status.code(),
        Some(2)
    );
}

#[test]
fn a_file_named_like_a_subcommand_is_read_as_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    for name in ["help", "frames", "man", "completions"] {
        fs::write(tmp.path().join(name), &sample).unwrap();
        // First (where a subcommand stands), or after flags.
        for args in [
            [name, "-q", "--fail-on", "never"],
            ["-q", "--fail-on", "never", name],
        ] {
            let out = run_in(tmp.path(), &args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                text(&out.stderr)
            );
            let rows = pgn_arbiter::report::read_back(&out.stdout).unwrap();
            assert_eq!(rows.len(), 14, "{args:?}");
            // Named as given, not as the path put in its place.
            assert!(rows.iter().all(|r| &r[0] == name), "{args:?}");
            let noted = text(&out.stderr).contains("not the subcommand");
            assert_eq!(noted, args[0] == name, "{args:?}");
        }
        fs::remove_file(tmp.path().join(name)).unwrap();
    }
    // Where no such file is, the subcommands are themselves.
    let out = run_in(tmp.path(), &["help"]);
    assert!(text(&out.stdout).contains("Usage: pgn-arbiter"));
    let out = run_in(tmp.path(), &["man"]);
    assert!(text(&out.stdout).contains(".TH pgn-arbiter"));
}

/// The codes of a findings report (CSV), by file.
fn codes_by_file(csv: &[u8]) -> BTreeMap<String, Vec<String>> {
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in pgn_arbiter::report::read_back(csv).unwrap() {
        by_file
            .entry(row[0].to_owned())
            .or_default()
            .push(row[12].to_owned());
    }
    by_file
}

#[test]
fn a_settings_file_is_found_upward_and_the_command_line_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    for dir in ["old", "new/deep"] {
        fs::create_dir_all(repo.join(dir)).unwrap();
    }
    fs::write(repo.join("old/a.pgn"), &sample).unwrap();
    fs::write(repo.join("new/deep/b.pgn"), &sample).unwrap();
    fs::write(
        repo.join("pgn-arbiter.toml"),
        "fail-on = \"warning\"\nignore = [\"info\"]\n\n[per-file-ignores]\n\
         \"old/**\" = [\"invalid-date\", \"missing-tag\"]\n",
    )
    .unwrap();
    let deep = repo.join("new/deep");
    let args = [
        "-q",
        "--no-duplicates",
        "--summary",
        "summary.json",
        "--findings",
        "f.csv",
        ".",
        "../../old",
    ];
    let out = run_in(&deep, &args);
    // fail-on warning: the warnings fail the run.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let codes = codes_by_file(&fs::read(deep.join("f.csv")).unwrap());
    let here = &codes["./b.pgn"];
    let old = &codes["../../old/a.pgn"];
    // ignore info everywhere; invalid-date and missing-tag only under old/.
    assert!(!here.iter().chain(old).any(|c| c == "unclaimed-threefold"));
    assert!(here.iter().any(|c| c == "invalid-date") && here.iter().any(|c| c == "missing-tag"));
    assert!(
        !old.iter()
            .any(|c| c == "invalid-date" || c == "missing-tag"),
        "{old:?}"
    );
    assert!(old.iter().any(|c| c == "illegal-move"));
    let summary: serde_json::Value =
        serde_json::from_slice(&fs::read(deep.join("summary.json")).unwrap()).unwrap();
    let config = summary["options"]["config"].as_str().unwrap();
    assert!(config.ends_with("repo/pgn-arbiter.toml"), "{config}");
    // A flag replaces the file's value.
    let out = run_in(
        &deep,
        &["-q", "--fail-on", "error", "--select", "invalid-date", "."],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(codes_by_file(&out.stdout)["./b.pgn"].len(), 6);
    // --isolated reads no file: the info comes back.
    let out = run_in(&deep, &["-q", "--isolated", "."]);
    assert!(codes_by_file(&out.stdout)["./b.pgn"].contains(&"unclaimed-threefold".to_owned()));
    // A pyproject.toml nearer, with its table, is the one read.
    fs::write(
        repo.join("new/pyproject.toml"),
        "[project]\nname = \"x\"\n[tool.pgn-arbiter]\nselect = \"illegal-move\"\n",
    )
    .unwrap();
    let out = run_in(&deep, &["-q", "."]);
    assert_eq!(codes_by_file(&out.stdout)["./b.pgn"], ["illegal-move"]);
}

#[test]
fn a_settings_file_with_an_unknown_key_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(fixtures().join("sample.pgn"), tmp.path().join("a.pgn")).unwrap();
    for (toml, said) in [
        (
            "fail_on = \"warning\"\n",
            "unknown key 'fail_on'; did you mean 'fail-on'?",
        ),
        (
            "[per-file-ignore]\n\"*.pgn\" = \"info\"\n",
            "did you mean 'per-file-ignores'?",
        ),
        (
            "rules = 2023\n",
            "rules must be one of fide-2023, fide-2000, fide-1994",
        ),
        ("select = \"ilegal-move\"\n", "did you mean 'illegal-move'?"),
        (
            "[per-file-ignores]\n\"*.pgn\" = \"nonsense\"\n",
            "per-file-ignores",
        ),
        ("select = [", "pgn-arbiter.toml"),
    ] {
        fs::write(tmp.path().join("pgn-arbiter.toml"), toml).unwrap();
        let out = run_in(tmp.path(), &["-q", "a.pgn"]);
        assert_eq!(out.status.code(), Some(2), "{toml}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(said), "{toml}: {stderr}");
        // --config names it too; --isolated reads none.
        let out = run_in(
            tmp.path(),
            &["-q", "--isolated", "--fail-on", "never", "a.pgn"],
        );
        assert_eq!(out.status.code(), Some(0), "{toml}");
    }
    // No report is written over the settings file the run reads.
    fs::write(tmp.path().join("pgn-arbiter.toml"), "fail-on = \"never\"\n").unwrap();
    for flag in ["--findings", "--games", "--summary", "--html"] {
        let out = run_in(tmp.path(), &["-q", flag, "pgn-arbiter.toml", "a.pgn"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let kept = fs::read_to_string(tmp.path().join("pgn-arbiter.toml")).unwrap();
        assert_eq!(kept, "fail-on = \"never\"\n", "{flag}");
    }
    let out = run_in(tmp.path(), &["-q", "--config", "missing.toml", "a.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read missing.toml"));
}

/// The codes a CHANGELOG line lists after `label`, up to the next list
/// item or heading.
fn changelog_codes<'a>(section: &'a str, label: &str) -> Vec<&'a str> {
    let Some(at) = section.find(&format!("- {label}:")) else {
        return Vec::new();
    };
    let rest = &section[at + label.len() + 3..];
    let end = rest
        .find("\n- ")
        .or_else(|| rest.find("\n#"))
        .unwrap_or(rest.len());
    rest[..end].split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_changelog_adds_every_code_once_and_names_every_alias() {
    let log = fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let sections: Vec<&str> = log.split("\n## ").skip(1).collect();
    assert!(
        sections[0].starts_with(&format!("{} ", env!("CARGO_PKG_VERSION"))),
        "the newest version in CHANGELOG.md is not the crate's"
    );
    let mut added = BTreeMap::new();
    let mut renamed = Vec::new();
    for section in &sections {
        let version = section.split_whitespace().next().unwrap();
        for code in changelog_codes(section, "Added") {
            assert!(added.insert(code, version).is_none(), "{code} added twice");
        }
        renamed.extend(changelog_codes(section, "Renamed"));
    }
    for kind in pgn_arbiter::finding::Kind::ALL {
        assert!(
            added.remove(kind.code()).is_some(),
            "CHANGELOG.md never adds {}",
            kind.code()
        );
    }
    assert!(
        added.is_empty(),
        "CHANGELOG.md adds codes the build lacks: {added:?}"
    );
    for (old, _) in pgn_arbiter::finding::ALIASES {
        assert!(
            renamed.contains(old),
            "CHANGELOG.md does not say {old} was renamed"
        );
    }
}

/// `sha256sum`'s digest of a file.
fn sha256sum(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    text(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn the_summary_names_every_input_by_its_sha256_as_sha256sum_does() {
    let tmp = tempfile::tempdir().unwrap();
    // A gzip member with bytes after it that are no gzip: the input cannot
    // be read to its end (exit 2), and is still named by its whole digest.
    let mut trailing = fs::read(fixtures().join("input/gzip.pgn.gz")).unwrap();
    trailing.extend_from_slice(b"\n\nbytes after the compressed stream\n");
    fs::write(tmp.path().join("trailing.pgn.gz"), &trailing).unwrap();
    let inputs = [
        fixtures().join("sample.pgn"),
        fixtures().join("input/gzip.pgn.gz"),
        fixtures().join("input/zstd.pgn.zst"),
        tmp.path().join("trailing.pgn.gz"),
    ];
    let summary = tmp.path().join("summary.json");
    let trf = fixtures().join("tournament/not-in-trf.trf");
    let out = bin()
        .args([
            "-q",
            "--fail-on",
            "never",
            "--findings",
            "/dev/null",
            "--summary",
        ])
        .arg(&summary)
        .arg("--trf")
        .arg(&trf)
        .args(&inputs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&fs::read(&summary).unwrap()).unwrap();
    for (input, path) in json["inputs"].as_array().unwrap().iter().zip(&inputs) {
        assert_eq!(
            input["sha256"],
            sha256sum(path).as_str(),
            "{}",
            path.display()
        );
    }
    assert_eq!(json["total"]["files"], 4);
    // Standard input, read to its end.
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    let out = run_stdin(
        &[
            "-q",
            "--fail-on",
            "never",
            "--findings",
            "/dev/null",
            "--summary",
            "-",
        ],
        &sample,
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["inputs"][0]["sha256"],
        sha256sum(&fixtures().join("sample.pgn")).as_str()
    );
    // The TRF's, in the summary and on the page.
    let page = tmp.path().join("page.html");
    let out = bin()
        .args([
            "-q",
            "--fail-on",
            "never",
            "--findings",
            "/dev/null",
            "--summary",
            "-",
            "--html",
        ])
        .arg(&page)
        .arg("--trf")
        .arg(&trf)
        .arg(fixtures().join("tournament/not-in-trf.pgn"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trf_digest = sha256sum(&trf);
    assert_eq!(json["tournament"]["sha256"], trf_digest.as_str());
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains(&trf_digest));
    assert!(html.contains(&sha256sum(&fixtures().join("tournament/not-in-trf.pgn"))));
}
