//! The run-wide checks (duplicates, rounds) across shards: each shard
//! audited with `--keep-results`, `pgn-arbiter across` over them all in run
//! order, each rendered with `--render --across --game-offset`, gives
//! reports that, joined in order under one header, are byte for byte those
//! of one default run (copies and rounds on) over the whole file, with the
//! reports' options given to the renderings.

use crate::util::*;
use std::{
    fs,
    path::{Path, PathBuf},
    process::Output,
};

/// A game, a copy of it whose comment leaves `duplicate-game` out, and a
/// game whose comment leaves it out with no copy to leave out: with the
/// first at the start of the archive and the others at its end, the copy
/// is found, and the comment used, only when the checks see every shard.
const FIRST: &str = "[Event \"Shard test\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"1\"]\n[White \"Ahlberg, Ann\"]\n[Black \"Berg, Bo\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n";
const LAST: &str = "[Event \"Shard test\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"1\"]\n[White \"Ahlberg, Ann\"]\n[Black \"Berg, Bo\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {pgn-arbiter: ignore duplicate-game} 1-0\n\n[Event \"Shard test\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"2\"]\n[White \"Berg, Bo\"]\n[Black \"Cole, Cy\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# {pgn-arbiter: ignore duplicate-game} 0-1\n\n[Event \"Shard test\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"2\"]\n[White \"Ahlberg, Ann\"]\n[Black \"Cole, Cy\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n";

/// Every plain `.pgn` fixture, joined, between `FIRST` and `LAST`.
fn archive(dir: &Path) -> PathBuf {
    let mut all = FIRST.as_bytes().to_vec();
    all.extend(joined_fixtures());
    all.extend_from_slice(LAST.as_bytes());
    let path = dir.join("archive.pgn");
    fs::write(&path, all).unwrap();
    path
}

fn ran(out: Output, what: &str) -> Output {
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{what}: {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Both reports (findings, games) and the summary's totals of one run with
/// `args`.
fn one_run(dir: &Path, args: &[&str]) -> (String, String, serde_json::Value) {
    let (f, g, s) = (dir.join("f.csv"), dir.join("g.csv"), dir.join("s.json"));
    ran(
        bin()
            .args(["-q", "--findings"])
            .arg(&f)
            .arg("--games")
            .arg(&g)
            .arg("--summary")
            .arg(&s)
            .args(args)
            .output()
            .unwrap(),
        "a run",
    );
    let summary: serde_json::Value = serde_json::from_slice(&fs::read(s).unwrap()).unwrap();
    (
        fs::read_to_string(f).unwrap(),
        fs::read_to_string(g).unwrap(),
        summary["total"].clone(),
    )
}

/// Audits `input` cut at `cuts` as a driver does, with `options` for the
/// reports, and compares the joined reports and the summed counts with
/// one run's. Returns the run-wide findings `across` found.
fn joined_equals_one_run(input: &Path, cuts: &[u64], options: &[&str]) -> u64 {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let name = input.to_str().unwrap();
    let mut whole = vec![name];
    whole.extend(options);
    let (want_findings, want_games, want_total) = one_run(dir, &whole);
    let (mut games_before, mut lines_before) = (0u64, 0u64);
    let mut list = String::new();
    let mut rendered = Vec::new();
    for (i, w) in cuts.windows(2).enumerate() {
        let range = format!("{}..{}", w[0], w[1]);
        let results = dir.join(format!("{i}.results"));
        let summary = dir.join(format!("{i}.summary.json"));
        ran(
            bin()
                .args(["-q", "--bytes", &range, "--line-offset"])
                .arg(lines_before.to_string())
                .arg("--keep-results")
                .arg(&results)
                .arg("--summary")
                .arg(&summary)
                .arg(input)
                .output()
                .unwrap(),
            "--keep-results",
        );
        let kept: serde_json::Value = serde_json::from_slice(&fs::read(&summary).unwrap()).unwrap();
        let games = kept["total"]["games"].as_u64().unwrap();
        assert_eq!(kept["total"]["findings"], 0, "findings come when rendered");
        let across = dir.join(format!("{i}.across"));
        list += &serde_json::json!({"results": results, "games_before": games_before, "across": across})
            .to_string();
        list.push('\n');
        rendered.push((results, across, games_before));
        let lines = ran(
            bin()
                .args(["--count-lines", "--bytes", &range])
                .arg(input)
                .output()
                .unwrap(),
            "--count-lines",
        );
        lines_before += json(&lines)["lines"].as_u64().unwrap();
        games_before += games;
    }
    let list_file = dir.join("list.jsonl");
    fs::write(&list_file, list).unwrap();
    let across = ran(
        bin().arg("across").arg(&list_file).output().unwrap(),
        "across",
    );
    let counted = json(&across);
    assert_eq!(counted["games"].as_u64(), Some(games_before));
    let header = |text: &str| text.lines().next().unwrap().to_owned() + "\n";
    let (mut findings, mut games) = (header(&want_findings), header(&want_games));
    let mut total = serde_json::json!({"games": 0, "plies": 0, "findings": 0});
    for (i, (results, across, before)) in rendered.iter().enumerate() {
        let (f, g, s) = (dir.join("rf.csv"), dir.join("rg.csv"), dir.join("rs.json"));
        ran(
            bin()
                .args(["-q", "--no-header", "--render"])
                .arg(results)
                .arg("--across")
                .arg(across)
                .args(["--game-offset", &before.to_string()])
                .arg("--findings")
                .arg(&f)
                .arg("--games")
                .arg(&g)
                .arg("--summary")
                .arg(&s)
                .args(options)
                .output()
                .unwrap(),
            "--render",
        );
        findings += &fs::read_to_string(&f).unwrap();
        games += &fs::read_to_string(&g).unwrap();
        let summary: serde_json::Value = serde_json::from_slice(&fs::read(&s).unwrap()).unwrap();
        assert_eq!(summary["inputs"][0]["name"], name, "shard {i}");
        for key in ["games", "plies", "findings"] {
            let sum = total[key].as_u64().unwrap() + summary["total"][key].as_u64().unwrap();
            total[key] = sum.into();
        }
    }
    assert!(
        findings == want_findings,
        "findings differ for {cuts:?} {options:?}"
    );
    assert!(games == want_games, "games differ for {cuts:?} {options:?}");
    for key in ["games", "plies", "findings"] {
        assert_eq!(total[key], want_total[key], "{key}");
    }
    counted["findings"].as_u64().unwrap()
}

#[test]
fn kept_shards_join_into_one_run_with_copies_and_rounds() {
    let tmp = tempfile::tempdir().unwrap();
    let input = archive(tmp.path());
    let len = fs::metadata(&input).unwrap().len();
    let mut found = Vec::new();
    for parts in [1, 3, 17] {
        let cuts: Vec<u64> = (0..=parts).map(|i| len * i / parts).collect();
        found.push(joined_equals_one_run(&input, &cuts, &[]));
    }
    // The shards see the same run-wide findings however many they are,
    // and there are some: copies across the fixtures and the suppressed
    // copy at the end.
    assert!(
        found[0] > 0 && found.iter().all(|&n| n == found[0]),
        "{found:?}"
    );
    // The reports' options act on the rendering as on one run.
    let cuts = [0, len / 2, len];
    joined_equals_one_run(&input, &cuts, &["--ignore", "duplicate-board", "--raw-csv"]);
    joined_equals_one_run(&input, &cuts, &["--select", "warning"]);
}

#[test]
fn the_copy_at_the_end_uses_its_comment() {
    let tmp = tempfile::tempdir().unwrap();
    let input = archive(tmp.path());
    let (findings, _, _) = one_run(tmp.path(), &[input.to_str().unwrap()]);
    let unused: Vec<&str> = findings
        .lines()
        .filter(|row| row.contains(",unused-suppression,") && row.contains("\"Berg, Bo\""))
        .collect();
    // The copy's comment is used; the other game's is not.
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert!(unused[0].contains("Cole, Cy"), "{}", unused[0]);
}

/// The archive in `dir`, and its games kept whole (`--keep-results`).
fn kept(dir: &Path) -> (PathBuf, PathBuf) {
    let input = archive(dir);
    let results = dir.join("r");
    ran(
        bin()
            .args(["-q", "--keep-results"])
            .arg(&results)
            .arg(&input)
            .output()
            .unwrap(),
        "--keep-results",
    );
    (input, results)
}

/// Runs pgn-arbiter with `args`: exit status 2, and `says` on stderr.
fn refused(args: &[&std::ffi::OsStr], says: &str) {
    let out = bin().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn renderings_refuse_what_they_cannot_render() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (input, results) = kept(dir);
    let r = results.as_os_str();
    // Another edition than the games were judged under.
    refused(
        &[
            "--render".as_ref(),
            r,
            "--rules".as_ref(),
            "fide-1994".as_ref(),
        ],
        "give --rules fide-2023",
    );
    // A file that is no results file, and an across file that is none.
    refused(
        &["--render".as_ref(), input.as_os_str()],
        "not a results file",
    );
    let out = bin()
        .args([
            "-q".as_ref(),
            "--render".as_ref(),
            r,
            "--across".as_ref(),
            r,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an across file"));
    // Kept results are of one input, to a file.
    refused(
        &[
            "--keep-results".as_ref(),
            dir.join("x").as_os_str(),
            input.as_os_str(),
            input.as_os_str(),
        ],
        "exactly one INPUT",
    );
    // The results are never written over the input.
    refused(
        &[
            "--keep-results".as_ref(),
            input.as_os_str(),
            input.as_os_str(),
        ],
        "--keep-results",
    );
}

#[test]
fn across_files_of_other_games_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (_, results) = kept(dir);
    let r = results.as_os_str();
    // A list that names a missing file, and across files out of step.
    let list = dir.join("list.jsonl");
    fs::write(
        &list,
        "{\"results\": \"nowhere\", \"games_before\": 0, \"across\": \"a\"}\n",
    )
    .unwrap();
    refused(&["across".as_ref(), list.as_os_str()], "nowhere");
    // An across file over a results file, or over the list itself.
    for across in [results.as_path(), list.as_path()] {
        let row = serde_json::json!({"results": results, "games_before": 0, "across": across});
        fs::write(&list, format!("{row}\n")).unwrap();
        refused(
            &["across".as_ref(), list.as_os_str()],
            "is a file this step reads",
        );
    }
    // The results were not written over: they still render.
    ran(
        bin()
            .args(["-q", "--render"])
            .arg(&results)
            .output()
            .unwrap(),
        "--render",
    );
    // Issue 56: a list whose first shard of an input says games come
    // before it, or whose shards are out of order, is refused.
    let across = dir.join("a");
    let row = serde_json::json!({"results": results, "games_before": 5, "across": across});
    fs::write(&list, format!("{row}\n")).unwrap();
    refused(&["across".as_ref(), list.as_os_str()], "out of order");
    let row = serde_json::json!({"results": results, "games_before": 0, "across": across});
    fs::write(&list, format!("{row}\n")).unwrap();
    ran(bin().arg("across").arg(&list).output().unwrap(), "across");
    // A rendering's reports are never written over its across file.
    let a = across.as_os_str();
    refused(
        &[
            "--render".as_ref(),
            r,
            "--across".as_ref(),
            a,
            "--findings".as_ref(),
            a,
        ],
        "--findings",
    );
    // Issue 56: the across file is of these results, numbered as they
    // are rendered: refused before anything is written otherwise.
    let rendering = |results: &Path, offset: &str| {
        bin()
            .args(["-q".as_ref(), "--render".as_ref(), results.as_os_str()])
            .args(["--across".as_ref(), a])
            .args(["--game-offset", offset])
            .output()
            .unwrap()
    };
    let out = rendering(&results, "5");
    assert_eq!(
        out.status.code(),
        Some(2),
        "numbered from 1, rendered from 6"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("numbers its games from 1, and this rendering from 6"),
        "{err}"
    );
    // Results of other games (one more at the end) with the old file.
    let input = dir.join("archive.pgn");
    let mut more = fs::read(&input).unwrap();
    more.extend_from_slice(b"\n[White \"X\"]\n[Black \"Y\"]\n\n1. d4 *\n");
    let other = dir.join("other.pgn");
    fs::write(&other, more).unwrap();
    let other_results = dir.join("other.results");
    ran(
        bin()
            .args(["-q", "--keep-results"])
            .arg(&other_results)
            .arg(&other)
            .output()
            .unwrap(),
        "--keep-results",
    );
    let out = rendering(&other_results, "0");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("made for another results file"), "{err}");
    assert!(out.stdout.is_empty(), "nothing is written");
}

/// Issue 56: a list's lines are bounded before they are read whole, and
/// quoted in part; an across file never replaces a file that is not one.
#[test]
fn across_lists_are_bounded_and_replace_only_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (_, results) = kept(dir);
    let list = dir.join("list.jsonl");
    // A line longer than a list's may be is refused, and quoted in part;
    // so is an endless one.
    fs::write(&list, vec![b'x'; (1 << 20) + 10]).unwrap();
    let out = bin().arg("across").arg(&list).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("longer than 1048576 bytes"), "{err}");
    assert!(err.len() < 600, "{} bytes on stderr", err.len());
    refused(
        &["across".as_ref(), "/dev/zero".as_ref()],
        "longer than 1048576 bytes",
    );
    // A list that names no shard checks nothing.
    fs::write(&list, "\n\n").unwrap();
    refused(&["across".as_ref(), list.as_os_str()], "names no shard");
    // An across file through a symlink to one not there yet is that file.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("a1.across", dir.join("b1.across")).unwrap();
        let rows = [("a1.across", 0), ("b1.across", 9)].map(|(a, n)| {
            serde_json::json!({"results": results, "games_before": n, "across": dir.join(a)})
                .to_string()
        });
        fs::write(&list, rows.join("\n")).unwrap();
        refused(
            &["across".as_ref(), list.as_os_str()],
            "is the across file of shards 1 and 2",
        );
    }
    // The options that judge games act when they are kept, not rendered.
    refused(
        &[
            "--render".as_ref(),
            results.as_os_str(),
            "--strict-tags".as_ref(),
        ],
        "cannot be used with",
    );
    // Games numbered on from more than 2^53 could wrap.
    let row =
        serde_json::json!({"results": results, "games_before": u64::MAX, "across": dir.join("a")});
    fs::write(&list, format!("{row}\n")).unwrap();
    refused(
        &["across".as_ref(), list.as_os_str()],
        "more than 9007199254740992",
    );
    // Nor over a PGN file, or any file that is not an across file: the
    // step does not read the games, and must not destroy them.
    let games = dir.join("games.txt");
    fs::write(&games, "[White \"A\"]\n\n1. e4 *\n").unwrap();
    for (across, says) in [
        (dir.join("games.pgn"), "names a PGN file"),
        (games.clone(), "is there and is not an across file"),
    ] {
        let row = serde_json::json!({"results": results, "games_before": 0, "across": across});
        fs::write(&list, format!("{row}\n")).unwrap();
        refused(&["across".as_ref(), list.as_os_str()], says);
    }
    assert_eq!(
        fs::read_to_string(&games).unwrap(),
        "[White \"A\"]\n\n1. e4 *\n"
    );
    // Two shards' findings to one file.
    let twice = serde_json::json!({"results": results, "games_before": 0, "across": dir.join("t")});
    fs::write(&list, format!("{twice}\n{twice}\n")).unwrap();
    refused(
        &["across".as_ref(), list.as_os_str()],
        "is the across file of shards 1 and 2",
    );
}

/// The real archives of the shared corpora (tournaments, online games,
/// a broadcast, engine events, Chess960), joined and cut at arbitrary
/// bytes: their copies and rounds span the cuts, and the rendered reports
/// are still one run's.
#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn real_archives_in_shards_are_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = ["master", "online", "engine", "chess960"];
    let all = joined_pgn(dirs.iter().map(|d| corpora().join(d)).collect());
    let input = tmp.path().join("corpora.pgn");
    fs::write(&input, &all).unwrap();
    let len = all.len() as u64;
    let cuts: Vec<u64> = (0..=7).map(|i| len * i / 7).collect();
    let found = joined_equals_one_run(&input, &cuts, &[]);
    // Copies, players twice in a round, a doubled board said once a round
    // (56 at 0.6.0).
    assert!(found > 40, "{found} run-wide findings");
}
