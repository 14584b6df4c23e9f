//! Arbitrary bytes as a settings file (`pgn-arbiter.toml`, and a
//! `pyproject.toml` looked for upward): read, or refused with the file and
//! the key named. Nothing may panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::config::file;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let settings = dir.path().join("pgn-arbiter.toml");
    std::fs::write(&settings, data).expect("the file is written");
    if let Err(why) = file::load(&settings) {
        assert!(why.contains("pgn-arbiter.toml"), "{why}");
    }
    std::fs::remove_file(&settings).expect("removed");
    std::fs::write(dir.path().join("pyproject.toml"), data).expect("the file is written");
    if let Some(found) = file::find(dir.path()) {
        let _ = file::load(&found);
    }
});
