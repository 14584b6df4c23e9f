//! Issue 56: one rule for every file the tool writes. A write that fails
//! is exit status 2 with the file named, and nothing that looks whole is
//! left (no report, no `.partial`, a summary that says `complete: false`);
//! a signal that would end the process leaves no temporary file.

use std::{
    fs,
    io::Write,
    process::{Command, Stdio},
};

use crate::util::{bin, fixtures, listing, text};

/// Every output, sent to a device that takes nothing (`/dev/full`): exit
/// status 2, the device named, and the summary (to a file of its own)
/// says the run is not complete.
#[cfg(target_os = "linux")]
#[test]
fn a_write_that_fails_is_exit_2_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fixtures().join("sample.pgn");
    let made = bin()
        .current_dir(tmp.path())
        .args(["-q", "--fail-on", "never", "--findings", "b.csv"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    let cases: [&[&str]; 8] = [
        &["--findings", "/dev/full"],
        &["--findings", "/dev/null", "--games", "/dev/full"],
        &["--findings", "/dev/null", "--html", "/dev/full"],
        &["--findings", "/dev/null", "--fix", "/dev/full"],
        &["--keep-results", "/dev/full"],
        &[
            "--findings",
            "/dev/null",
            "--baseline",
            "b.csv",
            "--baseline-update",
            "/dev/full",
        ],
        &[
            "--output-format",
            "parquet",
            "--findings",
            "/dev/full",
            "--games",
            "g.parquet",
        ],
        &["--findings", "/dev/full", "--output-format", "junit"],
    ];
    for args in cases {
        let out = bin()
            .current_dir(tmp.path())
            .args(["-q", "--fail-on", "never", "--summary", "s.json"])
            .args(args)
            .arg(&sample)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("/dev/full: No space left"), "{args:?}: {err}");
        let summary: serde_json::Value =
            serde_json::from_slice(&fs::read(tmp.path().join("s.json")).unwrap()).unwrap();
        assert_eq!(summary["complete"], false, "{args:?}");
        assert_eq!(summary["fixed"], serde_json::Value::Null, "{args:?}");
        assert_eq!(
            listing(tmp.path()),
            ["b.csv", "s.json"],
            "{args:?}: nothing else is left"
        );
        fs::remove_file(tmp.path().join("s.json")).unwrap();
    }
    // The summary itself.
    let out = bin()
        .args(["-q", "--findings", "/dev/null", "--summary", "/dev/full"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/dev/full: No space left"));
}

/// A file grown past the size limit (`ulimit -f`): the write fails (the
/// signal the kernel sends, SIGXFSZ, would end the process and leave the
/// temporary files), the file is named, nothing is left.
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_a_failed_write() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    let input = tmp.path().join("in.txt");
    fs::write(&input, sample.repeat(400)).unwrap();
    let bin = env!("CARGO_BIN_EXE_pgn-arbiter");
    for out in ["--findings f.csv", "--keep-results r.res", "--fix c.txt"] {
        let script =
            format!("ulimit -f 20; exec '{bin}' -q --fail-on never {out} --summary s.json in.txt");
        let done = Command::new("sh")
            .current_dir(tmp.path())
            .args(["-c", &script])
            .output()
            .unwrap();
        let err = text(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{out}: {err}");
        let file = out.split(' ').nth(1).unwrap();
        assert!(
            err.contains(&format!("{file}: File too large")),
            "{out}: {err}"
        );
        assert_eq!(listing(tmp.path()), ["in.txt", "s.json"], "{out}");
        fs::remove_file(tmp.path().join("s.json")).unwrap();
    }
}

/// Every signal whose default action ends the process and that can be
/// caught (but those a fault raises, SIGABRT, a panic's, and the profiling
/// timers): the
/// temporary files are removed and the exit status is 128 + the signal's
/// number, as a shell gives for a process a signal killed.
#[cfg(target_os = "linux")]
#[test]
fn every_ending_signal_leaves_no_partial_file() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("f.csv"), "yesterday\n").unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    let signals = [
        ("HUP", 1),
        ("QUIT", 3),
        ("TRAP", 5),
        ("USR1", 10),
        ("USR2", 12),
        ("ALRM", 14),
        ("STKFLT", 16),
        ("XCPU", 24),
        ("IO", 29),
        ("PWR", 30),
        ("SYS", 31),
        ("RTMIN", 34),
        ("RTMAX", 64),
    ];
    for (signal, number) in signals {
        let mut child = bin()
            .current_dir(tmp.path())
            .args(["-q", "--findings", "f.csv", "--summary", "s.json", "-"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&sample).unwrap();
        stdin.flush().unwrap();
        // The temporary files are made before the first game is read.
        let started = std::time::Instant::now();
        while !listing(tmp.path()).iter().any(|n| n.ends_with(".partial")) {
            assert!(started.elapsed().as_secs() < 20, "no temporary file");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let killed = Command::new("kill")
            .args([&format!("-{number}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success(), "kill -{signal}");
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            out.status.code(),
            Some(128 + number),
            "SIG{signal}: {}",
            text(&out.stderr)
        );
        assert_eq!(listing(tmp.path()), ["f.csv"], "SIG{signal}");
        assert_eq!(
            fs::read_to_string(tmp.path().join("f.csv")).unwrap(),
            "yesterday\n"
        );
    }
}

/// Standard output redirected to a file the run reads (`> archive/x.pgn`
/// before the directory is walked, `>> input`, `1<> input`) is refused:
/// the run would read its own output, or write over its input.
#[cfg(unix)]
#[test]
fn standard_output_is_never_a_file_the_run_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("archive");
    fs::create_dir(&dir).unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    fs::write(dir.join("a.pgn"), &sample).unwrap();
    let fixed = dir.join("z-fixed.pgn");
    for args in [&["--findings", "/dev/null", "--fix", "-"][..], &[][..]] {
        let out = fs::File::create(&fixed).unwrap();
        let done = bin()
            .args(["-q"])
            .args(args)
            .arg(&dir)
            .stdout(out)
            .output()
            .unwrap();
        assert_eq!(done.status.code(), Some(2), "{args:?}");
        let err = text(&done.stderr);
        assert!(
            err.contains("standard output is a file this run reads"),
            "{err}"
        );
        assert_eq!(fs::metadata(&fixed).unwrap().len(), 0, "{args:?}");
    }
    // Appending to the one input.
    let input = dir.join("a.pgn");
    let out = fs::OpenOptions::new().append(true).open(&input).unwrap();
    let done = bin().arg("-q").arg(&input).stdout(out).output().unwrap();
    assert_eq!(done.status.code(), Some(2));
    assert_eq!(fs::read(&input).unwrap(), sample);
}

/// A report to standard output past the file-size limit fails its write
/// (it was killed by SIGXFSZ, without a word): exit 2, standard output
/// named.
#[cfg(unix)]
#[test]
fn a_file_size_limit_on_standard_output_is_a_failed_write() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    fs::write(tmp.path().join("in.txt"), sample.repeat(400)).unwrap();
    let bin = env!("CARGO_BIN_EXE_pgn-arbiter");
    let script = format!("ulimit -f 20; exec '{bin}' -q --fail-on never in.txt > out.csv");
    let done = Command::new("sh")
        .current_dir(tmp.path())
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(2), "{}", text(&done.stderr));
    assert!(text(&done.stderr).contains("standard output: File too large"));
}

/// Paths that only look alike are one file: a symlink to a file not there
/// yet is the file it leads to; an output whose directory cannot be made
/// is refused by name; `--baseline-update` may replace the baseline, but
/// not an input that is the baseline file too.
#[cfg(unix)]
#[test]
fn outputs_are_told_apart_by_what_they_reach() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = fixtures().join("sample.pgn");
    std::os::unix::fs::symlink("f.csv", tmp.path().join("g.csv")).unwrap();
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "f.csv", "--games", "g.csv"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("both name"),
        "{}",
        text(&out.stderr)
    );
    fs::write(tmp.path().join("afile"), "x").unwrap();
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "afile/x.csv"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("afile is a file, so no directory can be made"));
    // A file that is both a findings report (the baseline) and the input.
    let both = tmp.path().join("both.txt");
    fs::write(
        &both,
        "file,game,code,ply,san\n[Event \"x,1,c,d,e\"]\n[Result \"*,1,c,d,e\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let before = fs::read(&both).unwrap();
    let out = bin()
        .current_dir(tmp.path())
        .args(["-q", "--findings", "/dev/null", "--baseline", "both.txt"])
        .args(["--baseline-update", "both.txt", "both.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(fs::read(&both).unwrap(), before);
}
