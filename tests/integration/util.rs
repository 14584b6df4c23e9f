//! What the test modules share: the built binary and where things are.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

/// The built binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pgn-arbiter"))
}

/// The repository.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The golden fixtures.
pub fn fixtures() -> PathBuf {
    root().join("fixtures")
}

/// The shared corpora beside the repository, for the tests `.ci/run`
/// runs with `--include-ignored`: they fail, never skip, without them.
pub fn corpora() -> PathBuf {
    let dir = root().join("../shared/corpora");
    assert!(dir.is_dir(), "shared corpora missing at {}", dir.display());
    dir
}

/// The binary run with `args` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().unwrap()
}

/// Bytes that must be UTF-8, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Every plain `.pgn` fixture, in sorted order of path, each followed by a
/// blank line: an archive of every case at once.
pub fn joined_fixtures() -> Vec<u8> {
    joined_pgn(vec![fixtures()])
}

/// Every plain `.pgn` file below `roots`, in sorted order of path, each
/// followed by a blank line.
pub fn joined_pgn(roots: Vec<PathBuf>) -> Vec<u8> {
    let mut files = Vec::new();
    let mut todo = roots;
    while let Some(dir) = todo.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut all = Vec::new();
    for file in files {
        all.extend_from_slice(&fs::read(file).unwrap());
        all.extend_from_slice(b"\n\n");
    }
    all
}

/// The names in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
