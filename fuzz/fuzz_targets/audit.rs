//! Arbitrary bytes through the whole audit: decompression and decoding,
//! cutting into games, the lexer, the replay, every check, and both CSV
//! reports (`pgn_arbiter::audit_bytes`). Nothing may panic or hang; every
//! report must read back as strict CSV, one games row per game, with cells
//! safe for a spreadsheet.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::{audit_bytes, checks::Judging, report, board::rules::Edition};

fuzz_target!(|data: &[u8]| {
    let edition = match data.last().map(|b| b % 3) {
        Some(1) => Edition::Fide2000,
        Some(2) => Edition::Fide1994,
        _ => Edition::Fide2023,
    };
    let judging = Judging {
        edition,
        ..Judging::default()
    };
    let Ok((findings, games, count)) = audit_bytes(data, judging, false) else {
        return;
    };
    report::read_back(&findings).expect("a sound findings report");
    let games = report::read_back(&games).expect("a sound games report");
    assert_eq!(games.len() as u64, count, "one games row per game");
});
