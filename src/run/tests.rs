//! The tests of `run`.

use super::*;
use crate::{board::rules, report};

/// What the fuzz target asserts of every input: strict CSV, one games
/// row per game, safe cells.
pub fn assert_sound(data: &[u8]) {
    for edition in [rules::Edition::Fide2023, rules::Edition::Fide1994] {
        let judging = checks::Judging {
            edition,
            ..checks::Judging::default()
        };
        let Ok((findings, games, count)) = audit_bytes(data, judging, false) else {
            return;
        };
        report::read_back(&findings).unwrap();
        let games = report::read_back(&games).unwrap();
        assert_eq!(games.len() as u64, count, "one games row per game");
    }
}

#[test]
fn moves_written_differently_are_one_game() {
    let game = |moves: &str| {
        format!("[White \"Lange, Max\"]\n[Black \"Anderssen, Adolf\"]\n\n{moves} 1-0\n\n")
    };
    let data = [
        game("1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6"),
        game("1. e4 e5 2. Ng1f3 Nbc6 3. Nbc3 Ngf6"),
        game("1. e2e4 e5 2. Nf3 Nc6 3. Nc3 Nh6"),
    ]
    .concat();
    let (findings, games, _) =
        audit_bytes(data.as_bytes(), checks::Judging::default(), false).unwrap();
    let findings = report::read_back(&findings).unwrap();
    let duplicates: Vec<&str> = findings
        .iter()
        .filter(|r| &r[12] == "duplicate-game")
        .map(|r| &r[1])
        .collect();
    assert_eq!(duplicates, ["2"]);
    // The first two share a game_id; the third does not.
    let ids: Vec<String> = report::read_back(&games)
        .unwrap()
        .iter()
        .map(|r| r[18].to_owned())
        .collect();
    assert_eq!(ids[0], ids[1]);
    assert_ne!(ids[0], ids[2]);
}

/// The fuzz target over `--fix` in miniature, bounded by work: edits of
/// real games (quotes, brackets, braces, markers, line ends, a Ctrl-Z,
/// deletions). The copy holds as many games as the input, and fixing
/// the copy again changes nothing. Returns the mutants checked.
fn fix_mutants(count: usize, seed: u64) -> (usize, Vec<String>) {
    let files = crate::testing::plain_pgn_files(&crate::testing::fixtures());
    let pieces: [&[u8]; 24] = [
        b"\"",
        b"[",
        b"]",
        b"{",
        b"}",
        b"\n",
        b"\n\n",
        b"*",
        b"1-0",
        b"1/2",
        b"(",
        b")",
        b"12.",
        b"\x1a",
        b"Nf3",
        b"O-O",
        b"\r",
        b";",
        b"%",
        b"$1",
        b"R8xg20-1",
        b"[Event \"",
        b"\x0c",
        b"\0",
    ];
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for _ in 0..count {
        let file = &files[next() % files.len()];
        let mut bytes = std::fs::read(file).unwrap();
        // A window of the file, so that each mutant is small.
        let from = next() % bytes.len().max(1);
        bytes = bytes[from..bytes.len().min(from + 4096)].to_vec();
        for _ in 0..1 + next() % 4 {
            let at = next() % (bytes.len() + 1);
            let piece = pieces[next() % pieces.len()];
            match next() % 3 {
                0 => {
                    bytes.splice(at..at, piece.iter().copied());
                }
                1 => {
                    let end = (at + 1 + next() % 8).min(bytes.len());
                    bytes.drain(at.min(end)..end);
                }
                _ => {
                    let end = (at + 1).min(bytes.len());
                    bytes.splice(at.min(end)..end, piece.iter().copied());
                }
            }
        }
        let judging = checks::Judging::default();
        let (copy, games, too_large) = crate::fix_bytes(&bytes, judging).unwrap();
        if too_large > 0 {
            continue;
        }
        checked += 1;
        let (again, games_again, _) = crate::fix_bytes(&copy, judging).unwrap();
        let name = file.file_name().unwrap().to_string_lossy();
        if games_again != games {
            failures.push(format!(
                "{name}: {games} games, the copy {games_again}:\n{}",
                String::from_utf8_lossy(&bytes)
            ));
        } else if again != copy {
            failures.push(format!(
                "{name}: {}\n--- input\n{}",
                second_pass_change(&copy, &again),
                String::from_utf8_lossy(&bytes)
            ));
        }
    }
    (checked, failures)
}

/// Where fixing a copy again changed it, with the bytes around.
fn second_pass_change(copy: &[u8], again: &[u8]) -> String {
    let at = copy
        .iter()
        .zip(again)
        .position(|(a, b)| a != b)
        .unwrap_or(copy.len().min(again.len()));
    let show = |b: &[u8]| {
        String::from_utf8_lossy(&b[at.saturating_sub(80)..(at + 120).min(b.len())]).into_owned()
    };
    format!(
        "fixing the copy again changes it at byte {at}:\n--- copy\n{}\n--- again\n{}",
        show(copy),
        show(again)
    )
}

/// `FIX_MUTANTS=N` checks N mutants (and a seed of its own) for a
/// longer search than the default 400.
#[test]
fn fixing_edited_games_keeps_every_game_and_is_idempotent() {
    let count = std::env::var("FIX_MUTANTS").map_or(400, |n| n.parse().unwrap());
    let seed = 0x9e37_79b9_7f4a_7c15 ^ count as u64;
    let (checked, failures) = fix_mutants(count, seed);
    assert!(checked > count * 3 / 4, "only {checked} mutants checked");
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Inputs a fuzz target once found wrong: the corrected copy of each
/// holds its games, and fixing it again changes nothing.
#[test]
fn fuzz_regressions_fix_idempotently() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let judging = checks::Judging::default();
        let Ok((copy, games, 0)) = crate::fix_bytes(&std::fs::read(&path).unwrap(), judging) else {
            continue;
        };
        let (again, games_again, _) = crate::fix_bytes(&copy, judging).unwrap();
        assert_eq!(games_again, games, "{}", path.display());
        assert!(
            again == copy,
            "{}: {}",
            path.display(),
            second_pass_change(&copy, &again)
        );
    }
}

/// Inputs the fuzz target once found wrong, kept so they stay right.
#[test]
fn fuzz_regressions_stay_sound() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        assert_sound(&std::fs::read(&path).unwrap());
        count += 1;
    }
    assert!(count > 0, "no regression inputs in {}", dir.display());
}
