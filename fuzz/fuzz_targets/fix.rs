//! Arbitrary bytes through `--fix` (`pgn_arbiter::fix_bytes`): the copy
//! holds as many games as the input, auditing the copy reads the same
//! number of games, and fixing the copy again changes nothing. Nothing may
//! panic or hang.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::{audit_bytes, checks::Judging, fix_bytes};

fuzz_target!(|data: &[u8]| {
    let judging = Judging::default();
    let Ok((copy, games, too_large)) = fix_bytes(data, judging) else {
        return;
    };
    if too_large > 0 {
        // A game too large is not copied: the copy is left as NAME.partial.
        return;
    }
    let (again, games_again, _) = fix_bytes(&copy, judging).expect("the copy reads");
    assert_eq!(games_again, games, "the copy holds every game");
    assert!(again == copy, "fixing the copy again changes nothing");
    let (_, _, audited) = audit_bytes(&copy, judging, false).expect("the copy audits");
    assert_eq!(audited, games, "the copy's audit reads every game");
});
