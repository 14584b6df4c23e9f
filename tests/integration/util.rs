//! What the test modules share: the built binary and where things are.

use std::{
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
