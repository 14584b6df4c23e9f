//! Arbitrary bytes through the whole audit: decompression and decoding,
//! cutting into games, the lexer, the replay, every check, and both CSV
//! reports (`pgn_arbiter::audit_bytes`). Nothing may panic or hang; every
//! report must read back as strict CSV, one games row per game, with cells
//! safe for a spreadsheet.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::{audit_bytes, checks::Judging, report::CELL_MAX, rules::Edition};

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
    for (bytes, width) in [(findings, 16), (games, 18)] {
        let mut reader = csv::ReaderBuilder::new()
            .flexible(false)
            .from_reader(&bytes[..]);
        let mut rows = 0u64;
        for row in reader.records() {
            let row = row.expect("strict CSV");
            assert_eq!(row.len(), width);
            for cell in &row {
                let dashes = !cell.is_empty() && cell.bytes().all(|b| b == b'-');
                assert!(
                    dashes || !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{cell:?}"
                );
                assert!(cell.chars().count() <= CELL_MAX);
                assert!(!cell.chars().any(|c| c.is_control() && c != '\t'));
            }
            rows += 1;
        }
        if width == 18 {
            assert_eq!(rows, count, "one games row per game");
        }
    }
});
