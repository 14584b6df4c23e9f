//! Helpers for tests that read the shared corpora.

use std::path::{Path, PathBuf};

/// The shared corpora, beside the repository. Tests that use them fail
/// (never skip) when they are missing.
pub fn corpora() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    assert!(
        root.is_dir(),
        "the shared corpora are missing at {}",
        root.display()
    );
    root
}

/// Every uncompressed PGN file below `root`, sorted.
pub fn plain_pgn_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
