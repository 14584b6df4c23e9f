//! Duplicate games across the run (`duplicate-game`): the same players
//! (names folded), start and movetext as an earlier game, in any input,
//! by the game's fingerprint ([`RawGame::fingerprint`]). A name written
//! `Surname, Given` also matches its surname and first initial
//! (`Carlsen, Magnus` and `Carlsen,M`, as one event's sources write them):
//! a game with such a name is looked up, and kept, under a second
//! fingerprint that reads it so. A game that is no
//! duplicate is then placed in its round (`rounds`): a duplicate's place is
//! its first's. (A "copy", in this crate, is the corrected file `--fix`
//! writes.)
//!
//! [`RawGame::fingerprint`]: crate::read::game::RawGame::fingerprint

use super::{
    check::{Across, Seen, trim},
    fingerprints::{Fingerprints, Seen as Kept},
    rounds::{self, Rounds},
};
use crate::{
    finding::{Finding, Kind},
    read::{game::InFull, outcome::RESULTS, tags::Tag},
};

/// Every game seen so far, by fingerprint, and where each game is.
#[derive(Debug, Default)]
pub struct Duplicates {
    /// The first record of each game of the run, by fingerprint: its ordinal
    /// among the games seen and its `Labels`.
    first: Fingerprints,
    /// Who played in which round, and which boards were taken.
    rounds: Rounds,
    /// Input names, by index.
    files: Vec<String>,
    /// Runs of games numbered one after the other in one input: the first
    /// game's ordinal, the input's index and the game's number.
    runs: Vec<(u64, u32, u64)>,
    /// Games seen so far.
    ordinal: u64,
}

/// Where a game was: "game 3 of this file", "game 3 of a.pgn".
pub(super) fn place(files: &[String], file_index: u32, here: u32, number: u64) -> String {
    if file_index == here {
        format!("game {number} of this file")
    } else {
        let name = files.get(file_index as usize).map_or("", String::as_str);
        format!("game {number} of {name}")
    }
}

impl Duplicates {
    /// Tables that keep at most `limit` bytes in memory (0: no limit),
    /// an eighth of it for the rounds, and write the rest to disk.
    pub fn with_limit(limit: usize) -> Duplicates {
        let rounds = limit / 8;
        Duplicates {
            first: Fingerprints::with_limit(limit - rounds),
            rounds: Rounds::with_limit(rounds),
            ..Duplicates::default()
        }
    }

    /// What kept the tables from staying within their limit, if anything
    /// did.
    pub fn trouble(&self) -> Vec<String> {
        let duplicates = self.first.trouble.as_ref().map(|why| {
            format!(
                "the duplicates table could not use the disk ({why}); it was kept in memory, or its games on disk were not all looked up"
            )
        });
        let rounds = (self.rounds.trouble.as_ref())
            .map(|why| format!("round tables under --memory-limit: {why}"));
        duplicates.into_iter().chain(rounds).collect()
    }

    /// Where the game with this ordinal is: its input's index and number.
    fn place_of(&self, ordinal: u64) -> (u32, u64) {
        let at = self.runs.partition_point(|r| r.0 <= ordinal);
        let (first, file, number) = self.runs[at.saturating_sub(1)];
        (file, number + (ordinal - first))
    }

    /// The game's input as an index, and its ordinal, counted.
    fn count(&mut self, file: &str, number: u64) -> (u32, u64) {
        if self.files.last().is_none_or(|f| f != file) {
            self.files.push(file.to_owned());
        }
        let here = u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX);
        let ordinal = self.ordinal;
        self.ordinal += 1;
        if self.runs.last().is_none_or(|&(first, file, start)| {
            file != here || number.checked_sub(ordinal - first) != Some(start)
        }) {
            self.runs.push((ordinal, here, number));
        }
        (here, ordinal)
    }

    /// The finding that a game is a duplicate of the one first seen with its
    /// fingerprint.
    fn duplicate(
        &self,
        game: &Seen<'_>,
        here: u32,
        labels: Labels,
        first: Kept,
        by_initials: bool,
    ) -> Finding {
        let first_labels = Labels(first.labels);
        let (file_index, first_game) = self.place_of(first.ordinal);
        let where_ = place(&self.files, file_index, here, first_game);
        let differ = labels.differing(first_labels);
        let tags = match differ.as_slice() {
            [] => String::new(),
            [one] => format!(" Its {one} differs there."),
            [init @ .., last] => format!(" Its {} and {last} differ there.", init.join(", ")),
        };
        let (result, first_result) = (labels.result(), first_labels.result());
        let results = if first_result == result {
            String::new()
        } else {
            format!(
                " The results differ: {} there, {} here; which one counts is for the arbiter.",
                result_text(first_result),
                result_text(result)
            )
        };
        let initials = if by_initials {
            "; a given name in one record matched by its first initial in the other"
        } else {
            ""
        };
        Finding::new(
            Kind::DuplicateGame,
            game.line,
            format!(
                "This game has the same players (their names folded: case, accents, punctuation, word order{initials}), start and movetext as {where_}, which comes first.{tags}{results}"
            ),
        )
    }
}

impl Duplicates {
    /// The first game of the run that this one copies, and whether names
    /// were read by their initials to find it; keeps this one if it is the
    /// first. A game with names written `Surname, Given` in full
    /// (`by_initials`: its fingerprint so read, and a tag of each name so
    /// read) is looked up by its names as written, then so; it is kept
    /// under both, and a copy by initials stands for its first under its
    /// names as written (a third copy written as it is is the first's).
    /// Two names in full that differ are never one by their initials
    /// ([`one_player`]): `Polgar, Susan` and `Polgar, Sofia` are two
    /// players; `Polgar,S` is either.
    fn first_of(
        &mut self,
        fp: u128,
        by_initials: Option<(u128, InFull)>,
        seen: Kept,
    ) -> Option<(Kept, bool)> {
        let Some((short, full)) = by_initials else {
            let first = self.first.first_or_keep(fp, seen)?;
            return Some((first, first.full != [0, 0]));
        };
        // A key that stands for a first keeps the names in full of every
        // record on the way to it: `Carlsen, Magnus`–`Anand,V` found as
        // `Carlsen,M`–`Anand, Viswanathan` is in full on both sides.
        if let Some(first) = self.first.first(fp) {
            if self.first.first(short).is_none() {
                let full = one_player(full, first.full).unwrap_or(full);
                self.first.keep(short, Kept { full, ..first });
            }
            return Some((first, first.full != [0, 0]));
        }
        let first = (self.first.first_or_keep(short, Kept { full, ..seen }))
            .and_then(|first| Some((first, one_player(full, first.full)?)));
        let kept = first.map_or(seen, |(first, full)| Kept { full, ..first });
        self.first.keep(fp, kept);
        first.map(|(first, _)| (first, true))
    }

    /// Fetches ahead what looking up the games to come will read: the
    /// game after next (`far`) and the next one (`near`).
    pub fn ahead(&self, far: Option<u128>, near: Option<u128>) {
        if let Some(fp) = far {
            self.first.ahead_far(fp);
        }
        if let Some(fp) = near {
            self.first.ahead_near(fp);
        }
    }
}

impl Across for Duplicates {
    /// Records a game: the finding that it is a duplicate of an earlier one, or
    /// else what is wrong with its place in its round. A game without a
    /// fingerprint is only counted.
    fn game(&mut self, game: &Seen<'_>, out: &mut Vec<Finding>) {
        let (here, ordinal) = self.count(game.file, game.number);
        let Some(fp) = game.fingerprint else {
            return;
        };
        let labels = Labels::of(game);
        let seen = Kept {
            ordinal,
            labels: labels.0,
            full: [0, 0],
        };
        let first = self.first_of(fp, game.by_initials, seen);
        if let Some((first, by_initials)) = first {
            out.push(self.duplicate(game, here, labels, first, by_initials));
            return;
        }
        let at = rounds::Place {
            file: here,
            game: game.number,
        };
        let files = &self.files;
        self.rounds
            .see(at, game, |p| place(files, p.file, here, p.game), out);
    }
}

/// The names in full of two records found one by initials, or `None`
/// where one player is written in full in both, with another given name
/// first: `Polgar, Susan` and `Polgar, Sofia` are two players (a tag of 6
/// bits tells two given names apart but for one pair in 63), `Blackburne,
/// Joseph H` and `Blackburne, Joseph Henry` one.
fn one_player(a: InFull, b: InFull) -> Option<InFull> {
    let side = |a: u8, b: u8| (a == 0 || b == 0 || a == b).then_some(a.max(b));
    Some([side(a[0], b[0])?, side(a[1], b[1])?])
}

/// What tells a duplicate's record from the first: its Result tag as a code
/// (3 bits), and 7 bits of hash of each of Event, Date and Round, in the 24
/// bits the fingerprint table keeps. Equal hashes may hide a difference (1
/// in 128), so only differences are stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Labels(u32);

impl Labels {
    const TAGS: [&str; 3] = ["Event", "Date", "Round"];

    fn of(game: &Seen<'_>) -> Labels {
        let mut packed = result_code(game.tags.get(Tag::Result));
        for (i, tag) in [Tag::Event, Tag::Date, Tag::Round].into_iter().enumerate() {
            let value = game.tags.get(tag);
            let bits = (rounds::key(0, &[trim(value)]) & 0x7F) as u32;
            packed |= bits << (3 + 7 * i);
        }
        Labels(packed)
    }

    fn result(self) -> u32 {
        self.0 & 0x7
    }

    /// The tags whose values surely differ.
    fn differing(self, other: Labels) -> Vec<&'static str> {
        (0..3)
            .filter(|i| (self.0 >> (3 + 7 * i)) & 0x7F != (other.0 >> (3 + 7 * i)) & 0x7F)
            .map(|i| Labels::TAGS[i])
            .collect()
    }
}

/// A Result tag as a code: 1 + its place among the values PGN allows, 0
/// for none or another value.
fn result_code(result: &str) -> u32 {
    RESULTS
        .iter()
        .position(|r| *r == result)
        .map_or(0, |i| i as u32 + 1)
}

fn result_text(code: u32) -> &'static str {
    (code as usize)
        .checked_sub(1)
        .and_then(|i| RESULTS.get(i))
        .copied()
        .unwrap_or("no result")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Carlsen, Magnus` and `Carlsen, Max` as White, in full.
    const MAGNUS: InFull = [1, 0];
    const MAX: InFull = [2, 0];

    /// Game `number` of `t.pgn`: its fingerprint, and its fingerprint by
    /// initials and a tag of each name that reads so (small numbers, in
    /// the bits a key keeps).
    fn game(number: u64, fingerprint: u128, by_initials: Option<(u128, InFull)>) -> Seen<'static> {
        Seen {
            number,
            fingerprint: Some(fingerprint << 64),
            by_initials: by_initials.map(|(fp, sides)| (fp << 64, sides)),
            ..Seen::pairing(["A", "B"], "1", "1-0", [""; 6])
        }
    }

    /// What is said of each game in turn: the game it copies, and whether
    /// by initials.
    fn run(games: &[Seen<'_>]) -> Vec<Option<(u64, bool)>> {
        let mut table = Duplicates::default();
        (games.iter())
            .map(|g| {
                let mut out = Vec::new();
                table.game(g, &mut out);
                out.pop().map(|f| {
                    let m = &f.message;
                    let number = m.split("as game ").nth(1).unwrap();
                    let number = number.split(' ').next().unwrap().parse().unwrap();
                    (number, m.contains("matched by its first initial"))
                })
            })
            .collect()
    }

    // `Carlsen,M` is game(_, 1, None): its names as written are its
    // reading by initials. `Carlsen, Magnus` is game(_, 2, Some((1, [1,
    // 0]))), `Magnus Carlsen` game(_, 2, None), `Carlsen, Max` game(_, 3,
    // Some((1, [2, 0]))).

    #[test]
    fn a_name_in_full_and_by_initials_is_one_player_in_either_order() {
        let said = run(&[game(1, 1, None), game(2, 2, Some((1, MAGNUS)))]);
        assert_eq!(said, [None, Some((1, true))]);
        let said = run(&[game(1, 2, Some((1, MAGNUS))), game(2, 1, None)]);
        assert_eq!(said, [None, Some((1, true))]);
    }

    #[test]
    fn a_copy_by_initials_stands_for_its_first_under_its_own_names() {
        let said = run(&[
            game(1, 1, None),
            game(2, 2, Some((1, MAGNUS))),
            game(3, 2, None),
        ]);
        assert_eq!(said, [None, Some((1, true)), Some((1, true))]);
        // Found by its names as written, it keeps its reading by initials.
        let said = run(&[
            game(1, 2, None),
            game(2, 2, Some((1, MAGNUS))),
            game(3, 1, None),
        ]);
        assert_eq!(said, [None, Some((1, false)), Some((1, true))]);
    }

    #[test]
    fn two_names_in_full_are_never_one_by_initials() {
        let said = run(&[
            game(1, 2, Some((1, MAGNUS))),
            game(2, 3, Some((1, MAX))),
            game(3, 3, Some((1, MAX))),
            game(4, 1, None),
        ]);
        assert_eq!(said, [None, None, Some((2, false)), Some((1, true))]);
        // Each player in full once: White here, Black there.
        let said = run(&[game(1, 4, Some((1, [0, 1]))), game(2, 5, Some((1, MAGNUS)))]);
        assert_eq!(said, [None, Some((1, true))]);
        // White in full in both: as one name (`Anderssen, Adolf`) or two.
        let said = run(&[game(1, 4, Some((1, [1, 1]))), game(2, 5, Some((1, MAGNUS)))]);
        assert_eq!(said, [None, Some((1, true))]);
        let said = run(&[game(1, 4, Some((1, [1, 1]))), game(2, 5, Some((1, MAX)))]);
        assert_eq!(said, [None, None]);
        // `Carlsen,M`–`Anand, Viswanathan` (6; 1 by initials, Black in
        // full), `Carlsen, Magnus`–`Anand,V` (7; 1, White in full), then
        // `Magnus Carlsen`–`Anand, Vera`, whose reading by initials is the
        // second's names as written (8; 7, Black in full): Black is in
        // full in the first and the third.
        let said = run(&[
            game(1, 6, Some((1, [0, 1]))),
            game(2, 7, Some((1, MAGNUS))),
            game(3, 8, Some((7, [0, 2]))),
        ]);
        assert_eq!(said, [None, Some((1, true)), None]);
        // `Magnus Carlsen`–`Anand, Viswanathan` is the first's copy.
        let said = run(&[
            game(1, 6, Some((1, [0, 1]))),
            game(2, 7, Some((1, MAGNUS))),
            game(3, 8, Some((7, [0, 1]))),
        ]);
        assert_eq!(said, [None, Some((1, true)), Some((1, true))]);
    }
}
