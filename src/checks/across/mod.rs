//! Checks that need every game of the run: duplicate games ([`duplicates`]),
//! players and boards given twice in a round ([`rounds`]), one FIDE ID
//! under several names ([`identity`]), and the games against the
//! tournament's report file ([`tournament`], `--trf`). The
//! writer gives each game, in input order, to every one of them
//! ([`Across::game`]), and calls [`Across::finish`] once after the last.

use crate::finding::Finding;

mod check;
pub mod duplicates;
mod fingerprints;
pub mod identity;
pub mod rounds;
pub mod tournament;

pub use self::check::{Across, Seen};

/// The run-wide checks of a run.
#[derive(Debug, Default)]
pub struct AcrossGames {
    /// Duplicates and rounds (none with `--no-duplicates`).
    pub duplicates: Option<duplicates::Duplicates>,
    /// Players' FIDE IDs and names (none with `--no-duplicates`).
    pub identity: Option<identity::Identity>,
    /// The games against the TRF (`--trf`).
    pub tournament: Option<tournament::TrfAudit>,
}

impl AcrossGames {
    /// The checks that look at a game, in the order they do.
    fn each(&mut self) -> impl Iterator<Item = &mut dyn Across> {
        let duplicates = self.duplicates.as_mut().map(|c| c as &mut dyn Across);
        let identity = self.identity.as_mut().map(|c| c as &mut dyn Across);
        let tournament = self.tournament.as_mut().map(|t| t as &mut dyn Across);
        duplicates.into_iter().chain(identity).chain(tournament)
    }

    /// One game's run-wide findings, in input order.
    pub fn game(&mut self, game: &Seen<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for check in self.each() {
            check.game(game, &mut out);
        }
        out
    }

    /// The findings of no game, after the last.
    pub fn finish(&mut self) -> Vec<Finding> {
        let mut out = Vec::new();
        for check in self.each() {
            check.finish(&mut out);
        }
        out
    }

    /// The run-wide checks of a default run: duplicates, rounds and
    /// players' identity, their tables within `limit` bytes (0: no limit).
    pub fn of_run(limit: usize) -> AcrossGames {
        AcrossGames {
            duplicates: Some(duplicates::Duplicates::with_limit(limit)),
            identity: Some(identity::Identity::with_limit(identity::LIMIT)),
            tournament: None,
        }
    }

    /// What kept a table from staying within `--memory-limit`.
    pub fn trouble(&self) -> Vec<String> {
        let mut trouble = self
            .duplicates
            .as_ref()
            .map(duplicates::Duplicates::trouble)
            .unwrap_or_default();
        trouble.extend(self.identity.iter().flat_map(identity::Identity::trouble));
        trouble
    }
}
