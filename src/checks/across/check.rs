//! What a run-wide check is: a game as it sees it (`Seen`), and the
//! trait the writer calls it through ([`Across`]).

use shakmaty::KnownOutcome;

use crate::{checks::suppress::Suppressions, finding::Finding, read::game::TagValues};

/// A game as the run-wide checks see it: where it is, its tags (decoded)
/// and what the board decided.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// Its input's name.
    pub file: &'a str,
    /// Its number in that input.
    pub number: u64,
    /// Its first line.
    pub line: u64,
    /// Its fingerprint, when it can have one ([`RawGame::fingerprint`]).
    ///
    /// [`RawGame::fingerprint`]: crate::read::game::RawGame::fingerprint
    pub fingerprint: Option<u128>,
    /// Its fingerprint with names read by surname and initial, when that
    /// differs, and which names it changed.
    pub by_initials: Option<(u128, crate::read::game::InFull)>,
    /// Its tags the checks read.
    pub tags: TagValues<'a>,
    /// White's and Black's names folded, when they name someone
    /// ([`folded_key`](crate::read::game::folded_key)).
    pub folded: [Option<u64>; 2],
    /// The result the board decides, if it does.
    pub expected: Option<KnownOutcome>,
    /// The codes its comments leave out: a finding a check reports once
    /// (one spelling pair, one ID pair) is not taken as reported where a
    /// comment leaves it out, so that a later game gives it.
    pub accepted: &'a Suppressions,
}

/// A check that decides its findings from the run's games together.
pub trait Across {
    /// One game, in input order: its findings go to `out`.
    fn game(&mut self, game: &Seen<'_>, out: &mut Vec<Finding>);

    /// After the last game: findings of no game (a row with game 0).
    fn finish(&mut self, _out: &mut Vec<Finding>) {}
}

#[cfg(test)]
use crate::read::tags::Tag;

#[cfg(test)]
impl<'a> Seen<'a> {
    /// Game 1 of `t.pgn` with these players, round and result, and their
    /// `players` tags (WhiteFideId, BlackFideId, WhiteElo, BlackElo,
    /// WhiteTitle, BlackTitle): what the TRF's tests need.
    pub fn pairing(
        [white, black]: [&'a str; 2],
        round: &'a str,
        result: &'a str,
        players: [&'a str; 6],
    ) -> Seen<'a> {
        let [
            white_id,
            black_id,
            white_elo,
            black_elo,
            white_title,
            black_title,
        ] = players;
        Seen {
            file: "t.pgn",
            number: 1,
            line: 1,
            fingerprint: None,
            by_initials: None,
            tags: TagValues::of(&[
                (Tag::Round, round),
                (Tag::White, white),
                (Tag::Black, black),
                (Tag::Result, result),
                (Tag::WhiteFideId, white_id),
                (Tag::BlackFideId, black_id),
                (Tag::WhiteElo, white_elo),
                (Tag::BlackElo, black_elo),
                (Tag::WhiteTitle, white_title),
                (Tag::BlackTitle, black_title),
            ]),
            folded: [white, black].map(|name| {
                let name = name.trim();
                (!matches!(name, "" | "?" | "-")).then(|| {
                    crate::read::game::folded_key(crate::read::game::folded_name_hash(
                        name.as_bytes(),
                    ))
                })
            }),
            expected: None,
            accepted: &crate::checks::suppress::NONE,
        }
    }
}

/// `value` without white space at either end, as [`str::trim`] cuts it;
/// a value that begins and ends with a printable ASCII byte, as almost
/// every tag value does, is returned without decoding a character.
#[inline]
pub fn trim(value: &str) -> &str {
    let bytes = value.as_bytes();
    let kept = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_graphic());
    if kept(bytes.first()) && kept(bytes.last()) {
        value
    } else {
        value.trim()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn trim_cuts_what_str_trim_cuts() {
        let ends = [
            "", " ", "\t", "\u{b}", "\u{c}", "\r\n", "\u{85}", "\u{a0}", "\u{3000}", "\u{2028}",
            "é", "a", "~", "\u{1}",
        ];
        for left in ends {
            for middle in ["", "Carlsen, Magnus", "x", "\u{a0}", " b "] {
                for right in ends {
                    let value = format!("{left}{middle}{right}");
                    assert_eq!(super::trim(&value), value.trim(), "{value:?}");
                }
            }
        }
    }
}
