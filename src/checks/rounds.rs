//! Rounds across a run: a player with two opponents in one round
//! (`player-twice-in-round`) and one round and board on two games
//! (`duplicate-board`).
//!
//! PGN writes a round as `R` or `R.S` (8.1.1.4: "1.5" is round 1,
//! sub-round 5), and sources use `S` two ways. Broadcasts and most
//! archives write round and board: `3.12` is board 12 of round 3 (the
//! FWWRC 2024 broadcast, TCEC's early leagues). Match series write round
//! and game: in a knockout `1.1`, `1.2`, `1.3` are the games of one pair's
//! mini-match in round 1 (`Russia Cup Final 2012` in TWIC 944), and a
//! gauntlet numbers all its games in round 1 (`TCEC Season 23 - Chess324
//! Testing`). The rule, decided game by game as the run reaches them:
//!
//! - A round (event, year and `R`; for a player, the site too) is a match series from the first time
//!   a pair that has met in it meets again under another `S`. Then `S`
//!   numbers games, not boards: no `duplicate-board`, and a player has one
//!   opponent in each `R.S`, not in each `R`.
//! - Otherwise `S` is a board: a player has one opponent in round `R`, and
//!   a board taken by another pair is a `duplicate-board` once the round
//!   has shown more than one board (a knockout listed game 1 of every pair
//!   first shows only `S` = 1 until its pairs meet again).
//! - A player met with the same colour by someone new to the event is
//!   giving a simultaneous display (`Carlsen vs chess.com`, Round "1" for
//!   all eleven games, Carlsen White in each): not reported. A second game
//!   with the other colour, or against a player who has already played in
//!   the event, is.
//!
//! A player's latest game in a round is kept, and each game is compared
//! with the one before it.

use crate::finding::{Finding, Kind};

/// A hash of some strings after `seed`, letters folded to lower case:
/// 64 bits, without allocating (it runs for every game).
pub fn key(seed: u64, parts: &[&str]) -> u64 {
    let mut h = seed ^ 0xCBF2_9CE4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xFF]) {
            h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    h ^ (h >> 29)
}

/// A tag value that says nothing: empty, `?` or `-`.
fn unknown(value: &str) -> bool {
    crate::checks::header::unknown(value.as_bytes())
}

/// Where a game is in the run: an input's index and its game number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The input's index in the run.
    pub file: u32,
    /// The game's number in that input.
    pub game: u64,
}

/// The tags of a game that place it in a round.
#[derive(Debug, Clone, Copy)]
pub struct Game<'a> {
    /// Where the game starts (its first byte's line).
    pub line: u64,
    /// Event tag.
    pub event: &'a str,
    /// Site tag.
    pub site: &'a str,
    /// Date tag.
    pub date: &'a str,
    /// Round tag.
    pub round: &'a str,
    /// White tag.
    pub white: &'a str,
    /// Black tag.
    pub black: &'a str,
}

/// A board of a game: a hash of (round, `S`), a hash of its pair, and
/// the texts its finding names.
#[derive(Debug, Clone, Copy)]
struct Board<'a> {
    key: u64,
    pair: u64,
    full: &'a str,
    event: &'a str,
}

/// A player's latest game in a round.
#[derive(Debug, Clone, Copy)]
struct Seat {
    at: Place,
    /// A hash of the opponent's name.
    opponent: u64,
    /// A hash of the sub-round (`S` of `R.S`, 0 for none).
    sub: u64,
    white: bool,
}

/// What a round has shown so far.
#[derive(Debug, Clone, Copy)]
struct Shape {
    first_sub: u64,
    /// More than one `S` seen.
    several: bool,
    /// A pair met again under another `S`: a match series.
    series: bool,
}

type ByHash<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<Prehashed>>;

/// A hasher for keys that are hashes already: it keeps their bits.
#[derive(Debug, Default, Clone, Copy)]
struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 ^= u64::from_le_bytes(word);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// Every round of the run, as far as it has been read.
#[derive(Debug, Default)]
pub struct Rounds {
    /// By a hash of (round, site, player): the player's latest game there.
    seats: ByHash<Seat>,
    /// Who has played in an event (name, site and year), by a hash of
    /// (event, player).
    entrants: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Prehashed>>,
    /// By a hash of the round: event, year and `R`.
    shapes: ByHash<Shape>,
    /// By a hash of (round, `S`): the first game and a hash of its pair.
    boards: ByHash<(Place, u64)>,
}

impl Rounds {
    /// Reads one game's place in its round; `place` names where an
    /// earlier game is ("game 3 of this file").
    pub fn see(
        &mut self,
        at: Place,
        game: &Game<'_>,
        place: impl Fn(Place) -> String,
        out: &mut Vec<Finding>,
    ) {
        let event = game.event.trim();
        let full = game.round.trim();
        let (round, sub) = match full.split_once('.') {
            Some((round, sub)) => (round, Some(sub)),
            None => (full, None),
        };
        if unknown(round) || unknown(event) {
            return;
        }
        // An event's name comes back year after year, and generic names
        // ("It") are used in many places: a player's round is the event's
        // name, site and year. Boards are numbered across sites: one
        // event's broadcasts may write its site two ways (FWWRC 2024).
        let year = game.date.trim().get(..4).unwrap_or_default();
        let here = key(0, &[event, year, round]);
        let event_here = key(0, &[event, year, game.site.trim()]);
        let players_here = key(event_here, &[round]);
        let sub_hash = sub.map_or(0, |s| key(1, &[s]));
        let shape = self.shapes.entry(here).or_insert(Shape {
            first_sub: sub_hash,
            several: false,
            series: false,
        });
        shape.several |= shape.first_sub != sub_hash;
        let (white, black) = (game.white.trim(), game.black.trim());
        let players = [(white, black, true), (black, white, false)];
        // Each name hashed once: the opponent of player i is name 1 - i.
        let names = [key(0, &[white]), key(0, &[black])];
        let seats = players.map(|(player, _, _)| {
            (!unknown(player))
                .then(|| self.seats.get(&key(players_here, &[player])).copied())
                .flatten()
        });
        let mut twice = [false; 2];
        for (i, &(_, opponent, white)) in players.iter().enumerate() {
            let Some(seat) = seats[i] else { continue };
            if seat.opponent == names[1 - i] {
                if seat.sub != sub_hash {
                    shape.series = true;
                }
                continue;
            }
            // New to the event, not only to the round: by round 3 of a
            // tournament every player has been seen.
            let newcomer =
                unknown(opponent) || !self.entrants.contains(&key(event_here, &[opponent]));
            twice[i] = if shape.series {
                // Games of a match series: one opponent in each `R.S`.
                sub.is_some() && seat.sub == sub_hash
            } else {
                // A simultaneous display: the same colour, someone new.
                !(seat.white == white && newcomer)
            };
        }
        let shape = *shape;
        for (i, &(player, _, white)) in players.iter().enumerate() {
            if unknown(player) {
                continue;
            }
            self.entrants.insert(key(event_here, &[player]));
            self.seats.insert(
                key(players_here, &[player]),
                Seat {
                    at,
                    opponent: names[1 - i],
                    sub: sub_hash,
                    white,
                },
            );
            if let (true, Some(seat)) = (twice[i], seats[i]) {
                let which = if shape.series { full } else { round };
                let earlier = place(seat.at);
                out.push(Finding::new(
                    Kind::PlayerTwiceInRound,
                    game.line,
                    format!(
                        "{player} plays in round {which} of '{event}' here and in {earlier}, against another opponent; a player has one opponent a round, so one of the two games is labelled wrong."
                    ),
                ));
            }
        }
        if let Some(sub) = sub {
            let board = Board {
                key: key(!here, &[sub]),
                pair: names[0] ^ names[1],
                full,
                event,
            };
            self.board(at, game.line, &board, shape, place, out);
        }
    }

    /// A board (`R.S`) taken twice: by the same pair whatever `S` means,
    /// by another pair when `S` is a board.
    fn board(
        &mut self,
        at: Place,
        line: u64,
        board: &Board<'_>,
        shape: Shape,
        place: impl Fn(Place) -> String,
        out: &mut Vec<Finding>,
    ) {
        let Board {
            key: board,
            pair,
            full,
            event,
        } = *board;
        match self.boards.get(&board) {
            None => {
                self.boards.insert(board, (at, pair));
            }
            Some(&(first, first_pair)) => {
                // The same pair twice under one number is wrong whatever
                // `S` means; another pair is wrong only if `S` is a board.
                if first_pair == pair || (shape.several && !shape.series) {
                    let earlier = place(first);
                    out.push(Finding::new(
                        Kind::DuplicateBoard,
                        line,
                        format!(
                            "Round {full} of '{event}' is also {earlier}; sources that number boards each from 1 (team matches, merged broadcasts) give two games one number, so match games by players, not by board."
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes each game gets, games given as (round, white, black).
    fn codes(games: &[(&str, &str, &str)]) -> Vec<Vec<&'static str>> {
        let mut rounds = Rounds::default();
        games
            .iter()
            .enumerate()
            .map(|(i, &(round, white, black))| {
                let mut out = Vec::new();
                rounds.see(
                    Place {
                        file: 0,
                        game: i as u64 + 1,
                    },
                    &Game {
                        line: 1,
                        event: "Open",
                        site: "Town",
                        date: "2024.01.01",
                        round,
                        white,
                        black,
                    },
                    |p| format!("game {}", p.game),
                    &mut out,
                );
                out.iter().map(|f| f.kind.code()).collect()
            })
            .collect()
    }

    #[test]
    fn a_player_with_two_opponents_in_a_round_is_reported() {
        let found = codes(&[("1.1", "A", "B"), ("1.2", "C", "D"), ("1.3", "D", "A")]);
        assert_eq!(found[2], ["player-twice-in-round", "player-twice-in-round"]);
    }

    #[test]
    fn a_knockout_listed_by_game_is_no_board_twice() {
        // Game 1 of each pair, then game 2 with colours reversed.
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.1", "C", "D"),
            ("1.2", "B", "A"),
            ("1.2", "D", "C"),
            ("1.3", "A", "B"),
        ]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
    }

    #[test]
    fn a_gauntlet_numbering_its_games_is_no_player_twice() {
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "B", "A"),
            ("1.3", "A", "C"),
            ("1.4", "C", "A"),
            ("1.5", "D", "A"),
        ]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        // In a series, one player in two games of one `R.S` still is.
        let found = codes(&[("1.1", "A", "B"), ("1.2", "B", "A"), ("1.2", "A", "C")]);
        assert_eq!(found[2], ["player-twice-in-round"]);
    }

    #[test]
    fn boards_numbered_from_one_twice_are_a_duplicate_board() {
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "C", "D"),
            ("1.1", "E", "F"),
            ("1.2", "G", "H"),
        ]);
        assert_eq!(found[2], ["duplicate-board"]);
        assert_eq!(found[3], ["duplicate-board"]);
    }

    #[test]
    fn a_simultaneous_display_is_not_a_player_twice() {
        let found = codes(&[("1", "M", "A"), ("1", "M", "B"), ("1", "M", "C")]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        // The other colour, or an opponent who has played in the round, is.
        let found = codes(&[("1", "M", "A"), ("1", "B", "M")]);
        assert_eq!(found[1], ["player-twice-in-round"]);
        let found = codes(&[("1", "M", "A"), ("1", "C", "B"), ("1", "M", "B")]);
        assert_eq!(found[2], ["player-twice-in-round", "player-twice-in-round"]);
        // Someone who played an earlier round is not new to the event.
        let found = codes(&[("1", "B", "C"), ("2", "M", "A"), ("2", "M", "B")]);
        assert_eq!(found[2], ["player-twice-in-round"]);
    }

    #[test]
    fn a_pair_meeting_twice_in_a_round_plays_a_match() {
        let found = codes(&[("1", "A", "B"), ("1", "B", "A")]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
    }
}
