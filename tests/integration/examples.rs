//! Every shell example of the README and `docs/` runs as written: each
//! ```` ```sh ```` block is run by bash in a sandbox (a home of its own, the
//! built `pgn-arbiter` first on PATH, `fixtures/` and `scale/` of the
//! repository, an `archive/` of PGN files, and the lichess file names the
//! docs use standing for small zstd files of two frames). A command that
//! exits with 2 or more (an operational problem, a command not found), or
//! a complaint of the shell (a redirection that fails), fails the test,
//! naming the file, the block's line and the command; 1 (findings found)
//! is what an audit of these games says. A summary a page prints after
//! a block (`pgn-arbiter: N files, ...`) is the one the block gives.
//!
//! A few commands cannot run inside the tests, each for a reason stated in
//! `NOT_RUN` and each still run elsewhere; `cargo run --release --` runs
//! the binary already built.

use std::{fs, path::Path, process::Command};

use crate::util::{fixtures, root, text};

/// Commands (the start of a line) not run here, and where they are run.
const NOT_RUN: [(&str, &str); 8] = [
    ("cargo test", "the tests themselves; .ci/run runs them"),
    (
        "cargo install",
        "a release build of minutes; the pre-commit hook's test builds with cargo install in .ci/run",
    ),
    ("cargo build", "the binary the tests run is built"),
    (
        "python3 -m venv",
        "installs the Dask packages; .ci/run installs them and runs scale/test_audit.py",
    ),
    (
        ".venv/bin/python scale/audit.py",
        "needs the Dask packages; scale/test_audit.py runs the driver in .ci/run",
    ),
    (
        "scripts/build_wheels.sh",
        "a release build of minutes; scripts/test_wheel.sh builds the wheel in .ci/run",
    ),
    (
        ".venv/bin/pip install",
        "installs the wheel; scripts/test_wheel.sh installs it into fresh venvs in .ci/run",
    ),
    (
        ".venv/bin/pgn-arbiter",
        "the installed command; scripts/test_wheel.sh runs it on the sample in .ci/run",
    ),
];

/// The `sh` blocks of a Markdown file: the line each starts on, and its
/// text.
fn blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        if let Some((start, body)) = &mut open {
            if line.trim_start().starts_with("```") {
                out.push((*start, std::mem::take(body)));
                open = None;
            } else {
                body.push_str(line);
                body.push('\n');
            }
        } else if line.trim() == "```sh" {
            open = Some((i + 1, String::new()));
        }
    }
    out
}

/// The summary a page prints for the `sh` block ending before `from`
/// (0-based): the next plain block, before any other `sh` block, when it
/// is one (`pgn-arbiter: N files, ...`); its first line without the time
/// taken, which no two runs share.
fn printed_after(markdown: &str, from: usize) -> Option<String> {
    let mut lines = markdown.lines().skip(from);
    lines.find(|l| l.trim_start().starts_with("```"))?;
    let open = lines.find(|l| l.trim_start().starts_with("```"))?;
    let body: Vec<&str> = lines
        .take_while(|l| !l.trim_start().starts_with("```"))
        .collect();
    let first = body.first()?;
    (open.trim() == "```" && first.starts_with("pgn-arbiter: ")).then(|| untimed(&body.join("\n")))
}

/// A summary without the time its first line gives (`; 0.01 s, 3525
/// games/s`).
fn untimed(summary: &str) -> String {
    summary
        .lines()
        .map(|l| match l.strip_prefix("pgn-arbiter: ") {
            Some(_) => l.rsplit_once("; ").map_or(l, |(kept, _)| kept),
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A block as the sandbox runs it: commands of `NOT_RUN` taken out (with
/// their continuation lines), `cargo run --release --` as the binary.
fn runnable(block: &str) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut skipped = Vec::new();
    let mut skipping = false;
    for line in block.lines() {
        let starts = NOT_RUN
            .iter()
            .position(|(command, _)| line.trim_start().starts_with(command));
        if starts.is_some() || skipping {
            skipped.extend(starts);
            skipping = line.trim_end().ends_with('\\');
            continue;
        }
        out.push_str(&line.replace("cargo run --release --", "pgn-arbiter"));
        out.push('\n');
    }
    (out, skipped)
}

/// A zstd file of `text` in two frames, cut at a game's start.
fn two_frames(text: &[u8]) -> Vec<u8> {
    let cut = text
        .windows(3)
        .rposition(|w| w == b"\n\n[")
        .map_or(text.len() / 2, |i| i + 2);
    let mut out = zstd::encode_all(&text[..cut], 3).unwrap();
    out.extend(zstd::encode_all(&text[cut..], 3).unwrap());
    out
}

/// The sandbox: a directory with what the examples name.
fn sandbox(dir: &Path) {
    #[cfg(unix)]
    for name in ["fixtures", "scale"] {
        std::os::unix::fs::symlink(root().join(name), dir.join(name)).unwrap();
    }
    fs::create_dir_all(dir.join("archive")).unwrap();
    fs::create_dir_all(dir.join("home")).unwrap();
    for name in ["sample.pgn", "tags/header.pgn"] {
        let to = dir.join("archive").join(name.replace('/', "-"));
        fs::copy(fixtures().join(name), to).unwrap();
    }
    let sample = fs::read(fixtures().join("sample.pgn")).unwrap();
    for month in ["2024-01", "2024-02"] {
        let name = format!("lichess_db_standard_rated_{month}.pgn.zst");
        fs::write(dir.join(name), two_frames(&sample)).unwrap();
    }
}

#[test]
fn every_shell_example_of_the_docs_runs() {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<_> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_pgn-arbiter"))
        .parent()
        .unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let (mut ran, mut skipped, mut failures) = (0, std::collections::BTreeSet::new(), Vec::new());
    let mut printed_checked = 0;
    for file in &files {
        let markdown = fs::read_to_string(file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for (line, block) in blocks(&markdown) {
            let (script, not_run) = runnable(&block);
            skipped.extend(not_run);
            if script.trim().is_empty() {
                continue;
            }
            let tmp = tempfile::tempdir().unwrap();
            sandbox(tmp.path());
            // A command ending 2 or more ends the block, and says which.
            let guarded = format!(
                "set -o pipefail\ntrap 'rc=$?; if [ $rc -ge 2 ]; then echo \"failed ($rc): $BASH_COMMAND\" >&2; exit $rc; fi' ERR\n{script}"
            );
            let out = Command::new("bash")
                .args(["-c", &guarded])
                .current_dir(tmp.path())
                .env("PATH", &path)
                .env("HOME", tmp.path().join("home"))
                .env("TMPDIR", tmp.path())
                .output()
                .unwrap();
            ran += 1;
            // The shell's own complaints (a redirection to a directory that
            // is not there, a syntax error) fail the example too.
            let shell_said = text(&out.stderr).contains("bash: ");
            if out.status.code().is_none_or(|c| c >= 2) || shell_said {
                failures.push(format!(
                    "{name}:{line}: exit {:?}\n{}\n--- stderr\n{}",
                    out.status.code(),
                    script,
                    text(&out.stderr)
                ));
            }
            // The summary the page prints after it is the one it gives.
            if let Some(printed) = printed_after(&markdown, line) {
                printed_checked += 1;
                if !untimed(&text(&out.stderr)).contains(&printed) {
                    failures.push(format!(
                        "{name}:{line}: the page prints\n{printed}\n--- where the run says\n{}",
                        text(&out.stderr)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every command left out is still in the docs (the list stays true),
    // and most of them run.
    let gone: Vec<_> = (0..NOT_RUN.len())
        .filter(|i| !skipped.contains(i))
        .map(|i| NOT_RUN[i].0)
        .collect();
    assert!(
        gone.is_empty(),
        "NOT_RUN names commands the docs no longer have: {gone:?}"
    );
    assert!(ran >= 6, "{ran} blocks ran");
    assert!(
        printed_checked >= 2,
        "{printed_checked} printed summaries compared"
    );
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_`
/// dropped, blanks as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_link_of_the_docs_leads_somewhere() {
    let mut files = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    for entry in fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut broken = Vec::new();
    for file in &files {
        let markdown = fs::read_to_string(file).unwrap();
        for link in markdown.split("](").skip(1) {
            let target = link.split([')', ' ']).next().unwrap();
            if target.starts_with("http") || target.is_empty() {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let to = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let ok = to.exists()
                && (fragment.is_empty()
                    || to.extension().is_none_or(|e| e != "md")
                    || anchors(&fs::read_to_string(&to).unwrap())
                        .iter()
                        .any(|a| a == fragment));
            if !ok {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}

/// The README's table of options names every long option `--help` lists,
/// so that a new flag cannot go unsaid there.
#[test]
fn the_readme_table_names_every_option() {
    let help = Command::new(env!("CARGO_BIN_EXE_pgn-arbiter"))
        .arg("--help")
        .output()
        .unwrap();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let table: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `")).collect();
    let missing: Vec<String> = text(&help.stdout)
        .lines()
        .filter_map(|l| l.trim_start().split_once("--"))
        .filter(|(before, _)| before.is_empty() || before.ends_with(", "))
        .map(|(_, after)| {
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            format!("--{name}")
        })
        .filter(|flag| {
            // The whole flag, not the start of a longer one.
            let named = |l: &&str| {
                ["`", ", "].iter().any(|before| {
                    ["`", " "]
                        .iter()
                        .any(|after| l.contains(&format!("{before}{flag}{after}")))
                })
            };
            flag != "--help" && !table.iter().any(named)
        })
        .collect();
    assert!(missing.is_empty(), "not in the README's table: {missing:?}");
}

/// The README's table of speeds is the one `bench/ratio.sh` last wrote in
/// bench/RATIO.md, row for row.
#[test]
fn the_readme_speeds_are_bench_ratio_md_s() {
    let ratio = fs::read_to_string(root().join("bench/RATIO.md")).unwrap();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let (_, tools) = ratio.split_once("## Each tool on its own").unwrap();
    let table: Vec<&str> = tools.lines().filter(|l| l.starts_with('|')).collect();
    assert!(table.len() >= 8, "{table:?}");
    let (_, performance) = readme.split_once("## Performance").unwrap();
    let shown: Vec<&str> = performance
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(shown, table);
}
