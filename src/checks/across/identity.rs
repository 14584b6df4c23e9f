//! Players' identity across a run (`player-name-variant`): one FIDE ID
//! (`WhiteFideId`, `BlackFideId`) under names that differ however they are
//! folded (case, accents and transliteration, punctuation, word order, as
//! `--trf` and the duplicates fold them). Archives written by different
//! hands give one player several names (TWIC's `Muzychuk,A` is the
//! broadcast's `Muzychuk, Anna`; `Lahno,Kateri` is `Lagno, Kateryna`), and a
//! wrong ID gives one ID to two players; archive keepers fix both by hand
//! (ChessBase's player spell-check, SCID's spelling files).
//!
//! The first name a FIDE ID is seen with is kept, with where; a game that
//! gives the ID another name is reported once for each other name, naming
//! both spellings and where each was first seen. The table keeps about 60
//! bytes an ID, up to its share of `--memory-limit`; past it, IDs not yet
//! seen are not recorded (and the run says so), so their later spellings
//! are not compared.

use hashbrown::{HashMap, HashSet};

use super::check::{Across, Seen};
use crate::{
    finding::{Finding, Kind},
    read::game::folded_name_hash,
};

/// The bytes the table keeps: about 270,000 IDs, beside `--memory-limit`.
pub const LIMIT: usize = 16 << 20;

/// A name longer than this is kept cut (a name is rarely half as long).
const NAME_MAX: usize = 80;

/// Where an ID was first seen, and with which name.
#[derive(Debug, Clone, Copy)]
struct First {
    /// Its folded name, hashed.
    folded: u64,
    /// The input (an index of `files`) and the game's number there.
    file: u32,
    number: u64,
    /// The name as written: a range of `names`.
    name: (u32, u16),
}

/// The bytes an ID takes in the table, about: the entry, the map's
/// overhead and the name.
const ENTRY: usize = std::mem::size_of::<(u32, First)>() + 8;

/// The run's FIDE IDs and the names first given to them.
#[derive(Debug, Default)]
pub struct Identity {
    first: HashMap<u32, First>,
    /// Every kept name, one after the other.
    names: String,
    /// (ID, folded name) already reported.
    reported: HashSet<(u32, u64)>,
    /// Input names, by index.
    files: Vec<String>,
    /// Bytes the table may take (0: no limit), and whether it is full.
    limit: usize,
    full: Option<String>,
}

/// A FIDE ID tag's value as a number: digits only, not 0 (`invalid-fide-id`
/// judges the others).
fn fide_id(value: &str) -> Option<u32> {
    let value = value.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok().filter(|&id| id > 0)
}

/// A tag value that names nobody.
fn unnamed(name: &str) -> bool {
    crate::checks::header::unknown(name.trim().as_bytes())
}

/// A name as `fold_name` folds it, hashed (64 bits), without allocating
/// for an ASCII name.
fn hash(name: &str) -> u64 {
    let (sum, count) = folded_name_hash(name.as_bytes());
    sum ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Identity {
    /// A table that keeps at most `limit` bytes (0: no limit).
    pub fn with_limit(limit: usize) -> Identity {
        Identity {
            limit,
            ..Identity::default()
        }
    }

    /// Why some IDs were not recorded, if any were not.
    pub fn trouble(&self) -> Option<String> {
        self.full.clone()
    }

    fn bytes(&self) -> usize {
        self.first.capacity() * ENTRY + self.names.capacity() + self.reported.capacity() * 16
    }

    /// The input's index, counting a new one.
    fn file(&mut self, file: &str) -> u32 {
        if self.files.last().is_none_or(|f| f != file) {
            self.files.push(file.to_owned());
        }
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    fn name(&self, (start, len): (u32, u16)) -> &str {
        let start = start as usize;
        self.names
            .get(start..start + len as usize)
            .unwrap_or_default()
    }

    /// One player of a game: the finding when the ID was first seen with a
    /// name that folds otherwise.
    fn player(&mut self, game: &Seen<'_>, here: u32, name: &str, id: &str) -> Option<Finding> {
        let id = fide_id(id)?;
        if unnamed(name) {
            return None;
        }
        let folded = hash(name);
        let Some(&first) = self.first.get(&id) else {
            if self.full.is_none() && self.limit > 0 && self.bytes() > self.limit {
                self.full = Some(format!(
                    "the table of players' FIDE IDs reached its 16 MiB at game {} of {}: IDs first seen after it are not compared for names",
                    game.number, game.file
                ));
            }
            if self.full.is_none() {
                let mut cut = name.len().min(NAME_MAX);
                while !name.is_char_boundary(cut) {
                    cut -= 1;
                }
                let start = u32::try_from(self.names.len()).ok()?;
                self.names.push_str(&name[..cut]);
                let name = (start, u16::try_from(cut).ok()?);
                let number = game.number;
                let first = First {
                    folded,
                    file: here,
                    number,
                    name,
                };
                self.first.insert(id, first);
            }
            return None;
        };
        if first.folded == folded || !self.reported.insert((id, folded)) {
            return None;
        }
        let other = self.name(first.name);
        let where_ = if first.file == here {
            format!("game {} of this file", first.number)
        } else {
            let file = self
                .files
                .get(first.file as usize)
                .map_or("", String::as_str);
            format!("game {} of {file}", first.number)
        };
        Some(Finding::new(
            Kind::PlayerNameVariant,
            game.line,
            format!(
                "FIDE ID {id} is '{}' here and '{other}' in {where_}, where it is first seen: names that differ however they are folded (case, accents, punctuation, word order). One player written two ways (an initial for a first name, another transliteration, a changed name) or a wrong ID; which is for the archive's keeper.",
                name.trim()
            ),
        ))
    }
}

impl Across for Identity {
    fn game(&mut self, game: &Seen<'_>, out: &mut Vec<Finding>) {
        let here = self.file(game.file);
        let [white_id, black_id, ..] = game.players;
        out.extend(self.player(game, here, game.white, white_id));
        out.extend(self.player(game, here, game.black, black_id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen<'a>(file: &'a str, number: u64, white: &'a str, id: &'a str) -> Seen<'a> {
        let mut game = Seen::pairing([white, "?"], "1", "*", [id, "", "", "", "", ""]);
        game.file = file;
        game.number = number;
        game
    }

    fn messages(identity: &mut Identity, game: &Seen<'_>) -> Vec<String> {
        let mut out = Vec::new();
        identity.game(game, &mut out);
        out.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn one_id_under_two_names_is_reported_once_a_name() {
        let mut identity = Identity::default();
        assert!(
            messages(
                &mut identity,
                &seen("twic.pgn", 3, "Muzychuk,A", "14111330")
            )
            .is_empty()
        );
        // The same name folded: no finding.
        for same in ["Muzychuk, A", "A Muzychuk", "MUZYCHUK,A."] {
            assert!(messages(&mut identity, &seen("twic.pgn", 4, same, "14111330")).is_empty());
        }
        // In the same file.
        let here = messages(
            &mut identity,
            &seen("twic.pgn", 5, "Muzytchuk,A", "14111330"),
        );
        assert!(here[0].contains("in game 3 of this file"), "{here:?}");
        let found = messages(
            &mut identity,
            &seen("b.pgn", 7, "Muzychuk, Anna", "14111330"),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "FIDE ID 14111330 is 'Muzychuk, Anna' here and 'Muzychuk,A' in game 3 of twic.pgn"
            ),
            "{}",
            found[0]
        );
        // Once for that name; again for a third.
        assert!(
            messages(
                &mut identity,
                &seen("b.pgn", 8, "Anna Muzychuk", "14111330")
            )
            .is_empty()
        );
        let third = messages(
            &mut identity,
            &seen("b.pgn", 9, "Muzychuk, Mariya", "14111330"),
        );
        assert!(third[0].contains("in game 3 of twic.pgn"), "{third:?}");
    }

    #[test]
    fn ids_and_names_that_say_nothing_are_not_compared() {
        let mut identity = Identity::default();
        for (name, id) in [("A", "0"), ("A", ""), ("A", "12x"), ("?", "5"), ("", "5")] {
            assert!(messages(&mut identity, &seen("t.pgn", 1, name, id)).is_empty());
        }
        assert!(messages(&mut identity, &seen("t.pgn", 2, "B", "5")).is_empty());
        assert!(identity.first.len() == 1);
    }

    #[test]
    fn a_full_table_stops_recording_and_says_so() {
        let mut identity = Identity::with_limit(4096);
        for id in 1..2000u32 {
            let id = id.to_string();
            assert!(messages(&mut identity, &seen("t.pgn", 1, "A", &id)).is_empty());
        }
        assert!(identity.bytes() < 4 * 4096, "{}", identity.bytes());
        let why = identity.trouble().unwrap();
        assert!(why.contains("not compared"), "{why}");
    }
}
