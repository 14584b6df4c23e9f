//! Arbitrary bytes as the list `pgn-arbiter across` reads: every line
//! bounded before it is read whole, every error quoting a bounded part of
//! it. Nothing may panic, hang or allocate without bound.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::run::results::shards_listed;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let list = dir.path().join("list.jsonl");
    std::fs::write(&list, data).expect("the list is written");
    if let Err(why) = shards_listed(&list) {
        // An error quotes at most 200 characters of a line, with the path.
        assert!(
            why.chars().count() <= 200 * 2 + 600 + list.as_os_str().len(),
            "{} characters",
            why.chars().count()
        );
    }
});
