//! `--fix`: the corrected copy of every golden fixture (and, in `.ci/run`,
//! of the whole shared corpora). For each input:
//!
//! - a copy with changes is compared with `<case>.fixed` beside the input
//!   (`BLESS=1 cargo test --test integration fix::` rewrites them; the diff between a
//!   fixture and its `.fixed` is the review); a copy without changes is the
//!   input, byte for byte, and has no `.fixed`;
//! - auditing the copy finds the same number of games and none of the codes
//!   `--fix` corrects (`pgn_arbiter::fix::fixed`), except in games whose
//!   moves cannot be replayed, which keep their movetext;
//! - pgn-reader finds as many games in the copy as in the input;
//! - fixing the copy again changes nothing.

use crate::util::*;
use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    io::Cursor,
    ops::ControlFlow,
    path::{Path, PathBuf},
    process::Output,
};

use pgn_arbiter::fix;
use pgn_reader::{Reader, Visitor};

/// Codes that say a game's record is kept as written: its moves cannot be
/// replayed, or it stops before its end (its PlyCount and result stay).
const UNREPLAYABLE: [&str; 5] = [
    "illegal-move",
    "ambiguous-move",
    "malformed-move",
    "invalid-fen",
    "truncated-game",
];

/// Counts games as pgn-reader reads them.
struct CountGames;

impl Visitor for CountGames {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) {}
}

fn pgn_reader_games(bytes: &[u8]) -> usize {
    let mut reader = Reader::new(Cursor::new(bytes));
    let mut games = 0;
    while let Ok(Some(())) = reader.read_game(&mut CountGames) {
        games += 1;
    }
    games
}

fn decompressed(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    match path.extension().and_then(|e| e.to_str()) {
        Some("zst") => zstd::decode_all(&bytes[..]).unwrap(),
        Some("gz") => {
            use std::io::Read;
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut out)
                .unwrap();
            out
        }
        _ => bytes,
    }
}

/// The findings report's rows: (game, code).
fn findings(out: &Output) -> Vec<(u64, String)> {
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[1].parse().unwrap(), r[12].to_owned())
        })
        .collect()
}

fn games(path: &Path) -> usize {
    csv::Reader::from_path(path).unwrap().records().count()
}

/// The games of a games report with no tag and no move (a Ctrl-Z, a bare
/// `*`): `--fix` copies them as they are. (file, game).
fn no_games(path: &Path) -> BTreeSet<(String, u64)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| (3..10).all(|i| r[i].is_empty()) && &r[10] == "0")
        .map(|r| (r[0].to_owned(), r[1].parse().unwrap()))
        .collect()
}

/// The games no move of which was replayed (an unknown start, a first move
/// that cannot be played): `--fix` leaves their moves as they are.
fn not_replayed(path: &Path) -> BTreeSet<u64> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[10] == "0")
        .map(|r| r[1].parse().unwrap())
        .collect()
}

/// Fixes `input` (with `extra` arguments) into `copy` and checks what the
/// module promises of the copy. Returns the copy's bytes.
fn fix_and_check(input: &Path, extra: &[&str], copy: &Path, failures: &mut Vec<String>) -> Vec<u8> {
    let tmp = copy.parent().unwrap();
    let games_in = tmp.join("in.games.csv");
    let out = bin()
        .current_dir(fixtures())
        .args(["-q", "--games", games_in.to_str().unwrap(), "--fix"])
        .arg(copy)
        .args(extra)
        .arg(input)
        .output()
        .unwrap();
    let name = input.display();
    if !matches!(out.status.code(), Some(0 | 1)) || !out.stderr.is_empty() {
        failures.push(format!(
            "{name}: exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
        return Vec::new();
    }
    let fixed = fs::read(copy).unwrap();
    // The copy, audited.
    let games_out = tmp.join("out.games.csv");
    let again = bin()
        .current_dir(fixtures())
        .args(["-q", "--games", games_out.to_str().unwrap()])
        .args(extra)
        .arg(copy)
        .output()
        .unwrap();
    let rows = findings(&again);
    let stuck: BTreeSet<u64> = rows
        .iter()
        .filter(|(_, code)| UNREPLAYABLE.contains(&code.as_str()))
        .map(|(game, _)| *game)
        .chain(no_games(&games_out).into_iter().map(|(_, game)| game))
        .chain(not_replayed(&games_out))
        .collect();
    for (game, code) in &rows {
        if fix::fixed().any(|k| k.code() == code) && !stuck.contains(game) {
            failures.push(format!("{name}: the copy's game {game} still has {code}"));
        }
    }
    let (before, after) = (games(&games_in), games(&games_out));
    if before != after {
        failures.push(format!("{name}: {before} games, the copy {after}"));
    }
    // pgn-reader reads the copy's games as pgn-arbiter does, except where
    // the two already read the input differently (a blank line within
    // movetext, documented in `read::lexer`); a run of header-only games,
    // one game to pgn-reader, is as many once each has its marker (or a
    // comment: then the gap narrows, and never turns the other way).
    let original = decompressed(input);
    let ours = |n: usize| n as i64;
    let (reader_in, reader_out) = (pgn_reader_games(&original), pgn_reader_games(&fixed));
    let gap_in = reader_in as i64 - ours(games(&games_in));
    let gap_out = reader_out as i64 - ours(after);
    let narrowed = gap_out.signum() == gap_in.signum() && gap_out.abs() <= gap_in.abs();
    if gap_out != 0 && !narrowed {
        failures.push(format!(
            "{name}: pgn-reader reads {reader_out} games in the copy, pgn-arbiter {after} (in the input {reader_in} and {before})"
        ));
    }
    // Fixing the copy changes nothing.
    let twice = tmp.join("twice.pgn");
    bin()
        .current_dir(fixtures())
        .args(["-q", "--findings", "/dev/null", "--fix"])
        .arg(&twice)
        .args(extra)
        .arg(copy)
        .output()
        .unwrap();
    if fs::read(&twice).unwrap() != fixed {
        failures.push(format!("{name}: fixing the copy again changes it"));
    }
    fixed
}

fn fixture_inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() {
            if name != "corpora-sample" {
                fixture_inputs(&path, out);
            }
        } else if name.contains(".pgn") && !name.ends_with(".csv") {
            out.push(path);
        }
    }
}

#[test]
fn every_fixture_fixed() {
    let dir = fixtures();
    let mut inputs = Vec::new();
    fixture_inputs(&dir, &mut inputs);
    inputs.sort();
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut changed = 0;
    for input in &inputs {
        let name = input.file_name().unwrap().to_str().unwrap();
        let case = input.with_file_name(&name[..name.find(".pgn").unwrap()]);
        let args = fs::read_to_string(format!("{}.args", case.display())).unwrap_or_default();
        let extra: Vec<&str> = args.lines().filter(|l| !l.is_empty()).collect();
        let copy = tmp.path().join("copy.pgn");
        if name.starts_with("game-too-large.") {
            // Its game is never read whole, so it cannot be copied.
            let copy = tmp.path().join("large.pgn");
            let out = bin()
                .args(["-q", "--fix"])
                .arg(&copy)
                .arg(input)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains("is not whole"), "{stderr}");
            assert!(!copy.exists() && tmp.path().join("large.pgn.partial").exists());
            continue;
        }
        let fixed = fix_and_check(input, &extra, &copy, &mut failures);
        let expected = PathBuf::from(format!("{}.fixed", case.display()));
        if fixed == decompressed(input) {
            if expected.exists() {
                failures.push(format!(
                    "{}: the copy has no change, so remove it",
                    expected.display()
                ));
            }
            continue;
        }
        changed += 1;
        if std::env::var_os("BLESS").is_some() {
            fs::write(&expected, &fixed).unwrap();
            continue;
        }
        match fs::read(&expected) {
            Ok(want) if want == fixed => {}
            Ok(want) => failures.push(format!(
                "{} differs:\n--- expected\n{}\n--- actual\n{}",
                expected.display(),
                String::from_utf8_lossy(&want),
                String::from_utf8_lossy(&fixed)
            )),
            Err(_) => failures.push(format!(
                "{} is missing (BLESS=1 writes it)",
                expected.display()
            )),
        }
    }
    assert!(changed >= 10, "only {changed} fixtures changed");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every code `--fix` corrects is corrected in some golden copy.
#[test]
fn every_fixed_code_has_a_golden_copy() {
    let mut inputs = Vec::new();
    fixture_inputs(&fixtures(), &mut inputs);
    let mut all = String::new();
    for input in inputs {
        let name = input.file_name().unwrap().to_str().unwrap();
        let case = input.with_file_name(&name[..name.find(".pgn").unwrap()]);
        if let Ok(text) = fs::read(format!("{}.fixed", case.display())) {
            all.push_str(&String::from_utf8_lossy(&text));
        }
    }
    for kind in fix::fixed() {
        let mark = format!("{{pgn-arbiter: {}: ", kind.code());
        assert!(
            all.contains(&mark),
            "no golden copy corrects {}",
            kind.code()
        );
    }
}

#[test]
fn a_copy_is_never_written_over_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("a.pgn");
    let text = "[White \"A\"]\n\n1. e4 *\n";
    fs::write(&pgn, text).unwrap();
    for target in [pgn.clone(), tmp.path().join("a.pgn.gz")] {
        let out = bin()
            .args(["-q", "--fix"])
            .arg(&target)
            .arg(&pgn)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", target.display());
        assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was written"));
    }
    assert_eq!(fs::read_to_string(&pgn).unwrap(), text);
    // Several inputs fixed into their own directory would overwrite them.
    fs::write(tmp.path().join("b.pgn"), text).unwrap();
    let out = bin()
        .args(["-q", "--fix"])
        .arg(tmp.path())
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 2);
}

#[test]
fn several_inputs_are_fixed_into_a_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("in/a"), tmp.path().join("in/b"));
    fs::create_dir_all(&a).unwrap();
    fs::create_dir_all(&b).unwrap();
    fs::write(a.join("x.pgn"), "[White \"A\"]\n\n1. e4 *\n").unwrap();
    fs::write(b.join("x.pgn"), "[White \"B\"]\n\n1. d4 *\n").unwrap();
    let out_dir = tmp.path().join("out");
    let out = bin()
        .args(["-q", "--fail-on", "never", "--findings", "/dev/null"])
        .args(["--summary", "-", "--fix"])
        .arg(&out_dir)
        .arg(tmp.path().join("in"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The summary counts what was changed.
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fixed = &summary["total"]["fixed"];
    assert_eq!(fixed["games"], 2, "{summary}");
    assert_eq!(fixed["by_code"]["missing-tag"], 2, "{summary}");
    assert_eq!(fixed["by_code"]["missing-result"], 2, "{summary}");
    assert_eq!(fixed["changes"], 4, "{summary}");
    let a = fs::read_to_string(out_dir.join("a/x.pgn")).unwrap();
    let b = fs::read_to_string(out_dir.join("b/x.pgn")).unwrap();
    assert!(
        a.contains("[White \"A\"]") && a.contains("[Event \"?\"]"),
        "{a}"
    );
    assert!(b.contains("1. d4 *"), "{b}");
}

/// Issue 56: a --fix path where no directory can be made (a file there,
/// or a file on its way) is refused before anything is read, naming the
/// path; the file is left as it was.
#[test]
fn a_fix_directory_that_is_a_file_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["a.pgn", "b.pgn"] {
        fs::write(tmp.path().join(name), "[White \"A\"]\n\n1. e4 *\n").unwrap();
    }
    fs::write(tmp.path().join("existing.pgn"), "mine\n").unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["existing.pgn", "a.pgn", "b.pgn"],
            "--fix existing.pgn: with several inputs",
        ),
        (
            &["existing.pgn/sub", "a.pgn", "b.pgn"],
            "existing.pgn is a file",
        ),
        (&["existing.pgn/x.pgn", "a.pgn"], "existing.pgn is a file"),
    ];
    for (args, says) in cases {
        let out = bin()
            .current_dir(tmp.path())
            .args(["-q", "--fix"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: audited before refusing");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(
            fs::read_to_string(tmp.path().join("existing.pgn")).unwrap(),
            "mine\n"
        );
    }
}

/// `per-file-ignores` holds in the copy of every input, on one thread as on
/// two, for an input read in many chunks after another input.
#[test]
fn per_file_ignores_hold_in_the_copy_of_a_later_input() {
    let tmp = tempfile::tempdir().unwrap();
    let game = "[White \"A\"]\n\n1. e4 e5 *\n\n";
    fs::create_dir_all(tmp.path().join("in/a")).unwrap();
    fs::create_dir_all(tmp.path().join("in/b")).unwrap();
    fs::write(tmp.path().join("in/a/x.pgn"), game).unwrap();
    // Several megabytes: the one thread reads it in more than one chunk.
    fs::write(tmp.path().join("in/b/x.pgn"), game.repeat(200_000)).unwrap();
    fs::write(
        tmp.path().join("pgn-arbiter.toml"),
        "[per-file-ignores]\n\"in/b/**\" = [\"missing-tag\"]\n",
    )
    .unwrap();
    for jobs in ["1", "2"] {
        let out_dir = tmp.path().join(format!("out{jobs}"));
        let out = run_in(
            tmp.path(),
            &[
                "-q",
                "--fail-on",
                "never",
                "--findings",
                "/dev/null",
                "-j",
                jobs,
                "--fix",
                out_dir.to_str().unwrap(),
                "in",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let a = fs::read_to_string(out_dir.join("a/x.pgn")).unwrap();
        let b = fs::read_to_string(out_dir.join("b/x.pgn")).unwrap();
        assert!(a.contains("{pgn-arbiter: missing-tag"), "-j {jobs}: {a}");
        let tagged = b.matches("missing-tag").count();
        assert_eq!(tagged, 0, "-j {jobs}: {tagged} games of b corrected");
        assert_eq!(b.matches("[White ").count(), 200_000, "-j {jobs}");
    }
}

#[test]
fn an_input_read_only_in_part_leaves_its_copy_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.pgn");
    fs::write(&good, "[White \"A\"]\n\n1. e4 *\n").unwrap();
    // A gzip stream cut short: its first game is read, then the stream fails.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(
        &mut gz,
        "[White \"B\"]\n\n1. d4 *\n\n".repeat(2000).as_bytes(),
    )
    .unwrap();
    let bytes = gz.finish().unwrap();
    let cut = tmp.path().join("cut.pgn.gz");
    fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    let out_dir = tmp.path().join("out");
    let out = bin()
        .args(["-q", "--findings", "/dev/null", "--fix"])
        .arg(&out_dir)
        .arg(&good)
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cut.pgn.partial"), "{stderr}");
    let names: BTreeMap<String, u64> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                e.metadata().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        names.keys().collect::<Vec<_>>(),
        ["cut.pgn.partial", "good.pgn"],
        "{names:?}"
    );
}

#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn the_shared_corpora_fixed() {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    let tmp = tempfile::tempdir().unwrap();
    let copies = tmp.path().join("copies");
    let games_in = tmp.path().join("in.csv");
    let out = bin()
        .args(["-q", "--findings", "/dev/null", "--games"])
        .arg(&games_in)
        .arg("--fix")
        .arg(&copies)
        .arg(&corpora)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games_out = tmp.path().join("out.csv");
    let again = bin()
        .args(["-q", "--games"])
        .arg(&games_out)
        .arg(&copies)
        .output()
        .unwrap();
    assert_eq!(games(&games_in), games(&games_out));
    let rows = findings(&again);
    let mut stuck: BTreeSet<(String, String)> = no_games(&games_out)
        .into_iter()
        .map(|(file, game)| (file, game.to_string()))
        .collect();
    let mut reader = csv::Reader::from_reader(&again.stdout[..]);
    for r in reader.records() {
        let r = r.unwrap();
        if UNREPLAYABLE.contains(&&r[12]) {
            stuck.insert((r[0].to_owned(), r[1].to_owned()));
        }
    }
    let mut reader = csv::Reader::from_reader(&again.stdout[..]);
    let mut left = Vec::new();
    for r in reader.records() {
        let r = r.unwrap();
        if fix::fixed().any(|k| k.code() == &r[12])
            && !stuck.contains(&(r[0].to_owned(), r[1].to_owned()))
        {
            left.push(format!("{} game {}: {}", &r[0], &r[1], &r[12]));
        }
    }
    assert!(rows.len() > 1000);
    assert!(left.is_empty(), "{}", left.join("\n"));
}

#[test]
fn a_copy_can_go_to_standard_output() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("a.pgn");
    fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0\n",
    )
    .unwrap();
    let findings = tmp.path().join("f.csv");
    let out = bin()
        .args(["-q", "--fail-on", "never", "--findings"])
        .arg(&findings)
        .args(["--fix", "-"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let copy = String::from_utf8(out.stdout).unwrap();
    assert!(
        copy.contains("4. Qxf7# {pgn-arbiter: wrong-check-suffix: was \"Qxf7\"} 1-0"),
        "{copy}"
    );
    // Not beside a report on standard output.
    let out = bin().args(["-q", "--fix", "-"]).arg(&pgn).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_copy_is_not_written_when_standard_output_closes_early() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.path().join("many.pgn");
    fs::write(&pgn, "[White \"A\"]\n\n1. e4 Ke5 *\n\n".repeat(50_000)).unwrap();
    let copy = tmp.path().join("copy.pgn");
    let mut child = bin()
        .args(["-q", "--fix"])
        .arg(&copy)
        .arg(&pgn)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 512];
    std::io::Read::read_exact(&mut stdout, &mut head).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    assert!(!copy.exists());
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        1,
        "a temporary file was left"
    );
}
