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
    fingerprints::{self, Fingerprints, Seen as Kept},
    rounds::{self, Rounds},
};
use crate::{
    finding::{Finding, Kind},
    read::{outcome::RESULTS, tags::Tag},
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
        first: fingerprints::Seen,
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
        let initials = if first.by_initials {
            "; a name written `Surname, Given` read by its surname and first initial"
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
        let seen = fingerprints::Seen {
            ordinal,
            labels: labels.0,
            by_initials: false,
        };
        let first = match game.by_initials {
            None => self.first.first_or_keep(fp, seen),
            // Its names as written first, then by initials; it is kept
            // under both.
            Some(short) => match self.first.first(fp) {
                Some(first) => Some(first),
                None => {
                    let by_initials = true;
                    let first = (self.first).first_or_keep(
                        short,
                        Kept {
                            by_initials,
                            ..seen
                        },
                    );
                    let first = first.map(|first| Kept {
                        by_initials,
                        ..first
                    });
                    // A copy by initials stands for its first under its own
                    // names: a third copy written as this one is its first's.
                    self.first.keep(fp, first.unwrap_or(seen));
                    first
                }
            },
        };
        if let Some(first) = first {
            out.push(self.duplicate(game, here, labels, first));
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

    /// Game `number` of `t.pgn`: its fingerprint, and its fingerprint by
    /// initials when that differs (small numbers, in the bits a key keeps).
    fn game(number: u64, fingerprint: u128, by_initials: Option<u128>) -> Seen<'static> {
        Seen {
            number,
            fingerprint: Some(fingerprint << 64),
            by_initials: by_initials.map(|fp| fp << 64),
            ..Seen::pairing(["A", "B"], "1", "1-0", [""; 6])
        }
    }

    /// The messages of the games in turn, `None` for a game with none.
    fn run(games: &[Seen<'_>]) -> Vec<Option<String>> {
        let mut table = Duplicates::default();
        (games.iter())
            .map(|g| {
                let mut out = Vec::new();
                table.game(g, &mut out);
                out.pop().map(|f| f.message)
            })
            .collect()
    }

    #[test]
    fn a_name_in_full_and_by_initials_is_one_player_in_either_order() {
        // `Carlsen,M` (its fingerprint is its fingerprint by initials: 1)
        // and `Carlsen, Magnus` (2 as written, 1 by initials).
        for games in [
            [game(1, 1, None), game(2, 2, Some(1))],
            [game(1, 2, Some(1)), game(2, 1, None)],
        ] {
            let said = run(&games);
            assert_eq!(said[0], None);
            let second = said[1].as_deref().unwrap();
            assert!(second.contains("as game 1 of this file"), "{second}");
            assert!(
                second.contains("by its surname and first initial"),
                "{second}"
            );
        }
    }

    #[test]
    fn a_copy_by_initials_stands_for_its_first_under_its_own_names() {
        // `Carlsen,M`, `Carlsen, Magnus`, then `Magnus Carlsen`, whose
        // names fold as the second's: all of the first.
        let said = run(&[game(1, 1, None), game(2, 2, Some(1)), game(3, 2, None)]);
        for message in &said[1..] {
            let message = message.as_deref().unwrap();
            assert!(message.contains("as game 1 of this file"), "{message}");
        }
        // Copies by their names as written say nothing of initials.
        let said = run(&[game(1, 2, Some(1)), game(2, 2, Some(1))]);
        let second = said[1].as_deref().unwrap();
        assert!(!second.contains("initial"), "{second}");
        // Games whose names differ by initials only are no copies.
        assert_eq!(
            run(&[game(1, 2, Some(1)), game(2, 3, Some(4))]),
            [None, None]
        );
    }
}
