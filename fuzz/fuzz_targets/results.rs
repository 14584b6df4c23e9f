//! Arbitrary bytes as a results file and as an across file (`--render`,
//! `pgn-arbiter across`): as they are, and sealed around as the records a
//! reader finds behind a valid seal (which the fuzzer cannot forge).
//! Nothing may panic, hang or allocate past the bounds: a file that is not
//! whole is refused, and every record the reader takes is read through.

#![no_main]

use std::{path::PathBuf, sync::OnceLock};

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::{cli::VERSION, report::kept};

/// A file of this process's own in a directory that lives as long as it.
fn path() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("file");
        (dir, path)
    })
    .1
}

/// Reads the file at `path` through, as results and as an across file.
fn read_through() {
    if let Ok((mut reader, _)) = kept::Reader::results(path(), VERSION) {
        while let Ok(Some(game)) = reader.next_game() {
            // What the run-wide checks read of it.
            let _ = game.seen("fuzz.pgn", 1);
        }
    }
    if let Ok(mut reader) = kept::Reader::across(path(), VERSION, [0; 32], 0) {
        while let Ok(Some(game)) = reader.next_across() {
            let _ = game.findings();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    std::fs::write(path(), data).expect("the file is written");
    read_through();
    let Some((&records, body)) = data.split_first() else {
        return;
    };
    for results in [true, false] {
        let file = kept::sealed_around(results, VERSION, u64::from(records), body)
            .expect("a file in memory");
        std::fs::write(path(), file).expect("the file is written");
        read_through();
    }
});
