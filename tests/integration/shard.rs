//! Shards: an archive cut into byte ranges (`--bytes`) or zstd frame ranges
//! (`--zstd-frames`, with or without the bytes they take, `--frame-bytes`),
//! each counted (`--count`, `--count-lines`) and audited with the lines
//! before it (`--line-offset`) and no header (`--no-header`), its games
//! numbered on from the games before it (`--game-offset`) or from 1 and
//! renumbered when joined, gives reports that, joined in order under one
//! header, are byte for byte the reports of one run over the whole file. The
//! archive is every plain golden fixture joined (messy ones included), and
//! the cuts fall at arbitrary bytes.

use crate::util::*;
use std::{
    fs,
    path::{Path, PathBuf},
};

/// Every plain `.pgn` fixture, joined.
fn archive(dir: &Path) -> PathBuf {
    let path = dir.join("archive.pgn");
    fs::write(&path, joined_fixtures()).unwrap();
    path
}

/// Both reports of a run over `input` with `args`: (findings, games).
fn reports(input: &Path, args: &[String]) -> (String, String) {
    let games = tempfile::NamedTempFile::new().unwrap();
    let out = bin()
        .args(["-q", "--fail-on", "never", "--no-duplicates", "-j", "2"])
        .arg("--games")
        .arg(games.path())
        .args(args)
        .arg(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        fs::read_to_string(games.path()).unwrap(),
    )
}

/// `--count` of a shard: (games, lines). `--count-lines` is held to the
/// same lines.
fn count(input: &Path, shard: &[String]) -> (u64, u64) {
    let json = |flag: &str| -> serde_json::Value {
        let out = bin().arg(flag).args(shard).arg(input).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (both, lines) = (json("--count"), json("--count-lines"));
    assert_eq!(both["lines"], lines["lines"], "{shard:?}");
    assert_eq!(lines.as_object().unwrap().len(), 1, "{lines}");
    (
        both["games"].as_u64().unwrap(),
        both["lines"].as_u64().unwrap(),
    )
}

/// How a driver numbers the games of a shard.
#[derive(Debug, Clone, Copy)]
enum Numbering {
    /// `--game-offset`: the games before it, counted by `--count`.
    Offset,
    /// From 1; the join adds the games before it to each row's `game` (as
    /// `scale/audit.py` does).
    Joined,
}

/// A shard's rows with `before` added to each `game` (the second cell;
/// the first, the file's name, holds no comma here).
fn renumber(rows: &str, before: u64) -> String {
    rows.lines()
        .map(|row| {
            let (file, rest) = row.split_once(',').unwrap();
            let (game, rest) = rest.split_once(',').unwrap();
            let game: u64 = game.parse().unwrap();
            format!("{file},{},{rest}\n", game + before)
        })
        .collect()
}

/// Joins the shards' reports as a driver does and compares them with one
/// run's.
fn joined_equals_one_run(input: &Path, shards: &[Vec<String>], numbering: Numbering) {
    let (want_findings, want_games) = reports(input, &[]);
    let header = |text: &str| text.lines().next().unwrap().to_owned() + "\n";
    let (mut findings, mut games) = (header(&want_findings), header(&want_games));
    let (mut games_before, mut lines_before) = (0, 0);
    let mut counted = 0;
    for shard in shards {
        let mut args = shard.clone();
        args.extend([
            "--no-header".to_owned(),
            "--line-offset".to_owned(),
            lines_before.to_string(),
        ]);
        if let Numbering::Offset = numbering {
            args.extend(["--game-offset".to_owned(), games_before.to_string()]);
        }
        let (f, g) = reports(input, &args);
        let (n, lines) = count(input, shard);
        match numbering {
            Numbering::Offset => {
                findings.push_str(&f);
                games.push_str(&g);
            }
            Numbering::Joined => {
                findings.push_str(&renumber(&f, games_before));
                games.push_str(&renumber(&g, games_before));
                assert_eq!(g.lines().count() as u64, n, "{shard:?}: a row a game");
            }
        }
        games_before += n;
        lines_before += lines;
        counted += n;
    }
    assert_eq!(
        counted as usize,
        want_games.lines().count() - 1,
        "every game counted once"
    );
    assert!(
        findings == want_findings,
        "findings differ for {shards:?}, {numbering:?}"
    );
    assert!(
        games == want_games,
        "games differ for {shards:?}, {numbering:?}"
    );
}

#[test]
fn byte_shards_join_into_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let input = archive(tmp.path());
    let len = fs::metadata(&input).unwrap().len();
    for parts in [1, 3, 17] {
        let cuts: Vec<u64> = (0..=parts).map(|i| len * i / parts).collect();
        let shards: Vec<Vec<String>> = cuts
            .windows(2)
            .map(|w| vec!["--bytes".to_owned(), format!("{}..{}", w[0], w[1])])
            .collect();
        joined_equals_one_run(&input, &shards, Numbering::Offset);
        joined_equals_one_run(&input, &shards, Numbering::Joined);
    }
}

#[test]
fn zstd_frame_shards_join_into_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = fs::read(archive(tmp.path())).unwrap();
    // Frames of about 20 kB cut at arbitrary bytes, each after a skippable
    // frame, as pzstd writes them.
    let mut bytes = Vec::new();
    for part in plain.chunks(20_011) {
        bytes.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        bytes.extend_from_slice(&4u32.to_le_bytes());
        bytes.extend_from_slice(&(part.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&zstd::encode_all(part, 3).unwrap());
    }
    let input = tmp.path().join("archive.pgn.zst");
    fs::write(&input, bytes).unwrap();
    let listed = bin().arg("frames").arg(&input).output().unwrap();
    assert_eq!(listed.status.code(), Some(0));
    // Each frame's (offset, size), as listed.
    let spans: Vec<(u64, u64)> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| {
            let cells: Vec<u64> = row.split(',').take(3).map(|c| c.parse().unwrap()).collect();
            (cells[1], cells[2])
        })
        .collect();
    let frames = spans.len() as u64;
    assert_eq!(frames, plain.len().div_ceil(20_011) as u64);
    for per_shard in [1, 4, frames] {
        let range = |a: u64| (a, (a + per_shard - 1).min(frames - 1));
        let listing: Vec<Vec<String>> = (0..frames)
            .step_by(per_shard as usize)
            .map(|a| vec!["--zstd-frames".to_owned(), format!("{}..{}", a, range(a).1)])
            .collect();
        joined_equals_one_run(&input, &listing, Numbering::Offset);
        // Handed the bytes of their frames, as the driver hands them.
        let handed: Vec<Vec<String>> = (0..frames)
            .step_by(per_shard as usize)
            .map(|a| {
                let (a, b) = range(a);
                let (start, end) = (
                    spans[a as usize].0,
                    spans[b as usize].0 + spans[b as usize].1,
                );
                vec![
                    "--zstd-frames".to_owned(),
                    format!("{a}..{b}"),
                    "--frame-bytes".to_owned(),
                    format!("{start}..{end}"),
                ]
            })
            .collect();
        joined_equals_one_run(&input, &handed, Numbering::Joined);
    }
    // Bytes that are not whole frames of the file are refused.
    let (start, end) = (spans[1].0, spans[2].0 + spans[2].1);
    for bytes in [
        format!("{}..{end}", start + 1),
        format!("{start}..{}", end - 1),
        format!("{start}..{}", end + 1_000_000),
    ] {
        let out = bin()
            .args(["-q", "--zstd-frames", "1..2", "--frame-bytes", &bytes])
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bytes}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not whole frames"), "{bytes}: {err}");
    }
}

#[test]
fn shard_options_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let input = archive(tmp.path());
    for args in [
        vec!["--bytes", "5..2"],
        vec!["--bytes", "x..2"],
        vec!["--zstd-frames", "0..1"],
        vec!["--frame-bytes", "0..10"],
        vec!["--bytes", "0..10", "--frame-bytes", "0..10"],
    ] {
        let out = bin().args(["-q"]).args(&args).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // One input only.
    let out = bin()
        .args(["-q", "--bytes", "0..10"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
