//! Rule editions (`--rules`) and the articles findings cite in each. Where
//! editions differ, the difference is chosen here, never silently.
//!
//! - `fide-1994`: the 1994 Laws (seed text). No fivefold or 75-move rule;
//!   dead positions are exactly the 10.4 list.
//! - `fide-2000`: the Laws adopted in November 2000. No fivefold or 75-move
//!   rule; a dead position is any in which neither side can mate (1.3), as
//!   far as material shows.
//! - `fide-2023`: the Laws in force from 1 January 2023: also the automatic
//!   draws by fivefold repetition (9.6.1) and 75 moves (9.6.2).

use std::fmt;

use shakmaty::{Board, Chess, Color, Position, Role};

/// A rule edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Edition {
    /// FIDE Laws of Chess, 1994.
    Fide1994,
    /// FIDE Laws of Chess, adopted November 2000.
    Fide2000,
    /// FIDE Laws of Chess, in force from 1 January 2023.
    #[default]
    Fide2023,
}

/// The articles that differ between editions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Article {
    /// The mating side wins.
    Checkmate,
    /// Stalemate is a draw.
    Stalemate,
    /// A dead position is a draw.
    DeadPosition,
    /// Threefold repetition, claimed before the move that repeats.
    ThreefoldAbout,
    /// Threefold repetition, claimed after it appeared.
    ThreefoldJust,
    /// Fifty moves, claimed before the move that completes them.
    FiftyAbout,
    /// Fifty moves, claimed after they were completed.
    FiftyJust,
    /// Fivefold repetition ends the game.
    Fivefold,
    /// Seventy-five moves end the game.
    SeventyFive,
    /// A flag fell: a loss, unless the opponent cannot mate.
    FlagFall,
    /// A lone king can never win.
    BareKing,
    /// A move that is not legal.
    IllegalMove,
    /// The game of chess itself (not one of its variants).
    Variant,
    /// A resignation wins.
    Resignation,
    /// How a game is won.
    Win,
    /// A forfeit for illegal moves is a draw when the other side cannot
    /// mate: where a lone king's win falls.
    LoneKingForfeit,
    /// Time is given as the control stated in advance says: the time of
    /// each period and the time added a move.
    TimeControl,
    /// A player's clock stops when that player has moved.
    ClockPaused,
    /// A flag counts once the arbiter sees it or a player claims it.
    FlagNoticed,
    /// A flag fell in a 60- or 30-minute rapid game: a loss, unless the
    /// opponent cannot mate by any series of moves (the 1994 appendix).
    RapidFlagFall,
}

/// What a kind of finding rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A section of the PGN standard, the same under every edition.
    Pgn(&'static str),
    /// An article of the Laws: the edition decides which ([`Edition::cite`]).
    Law(Article),
    /// A limit of this tool.
    Limit,
    /// A check of the archive as a whole, not a rule of chess or PGN.
    Audit,
    /// FIDE's Tournament Report File (Handbook C.04 Annex 2), or the games
    /// against it.
    Trf,
    /// The rules of one of lichess's variants, as lichess states them.
    Lichess(shakmaty::variant::Variant),
}

impl From<Article> for Source {
    fn from(article: Article) -> Source {
        Source::Law(article)
    }
}

impl Source {
    /// The `rule` column under an edition.
    pub fn cite(self, edition: Edition) -> &'static str {
        match self {
            Source::Pgn(section) => section,
            Source::Law(article) => edition.cite(article).unwrap_or("not in these Laws"),
            Source::Limit => "pgn-arbiter limit",
            Source::Audit => "archive audit",
            Source::Trf => "FIDE TRF (C.04 A.2)",
            Source::Lichess(variant) => lichess_rules(variant),
        }
    }
}

/// Where lichess states a variant's rules; for standard chess, which has
/// no variant findings, the page of them all (a kind's own source).
pub fn lichess_rules(variant: shakmaty::variant::Variant) -> &'static str {
    match variant {
        shakmaty::variant::Variant::Chess => "lichess.org/variant (each variant's page)",
        shakmaty::variant::Variant::Atomic => "lichess.org/variant/atomic",
        shakmaty::variant::Variant::Antichess => "lichess.org/variant/antichess",
        shakmaty::variant::Variant::KingOfTheHill => "lichess.org/variant/kingOfTheHill",
        shakmaty::variant::Variant::ThreeCheck => "lichess.org/variant/threeCheck",
        shakmaty::variant::Variant::Crazyhouse => "lichess.org/variant/crazyhouse",
        shakmaty::variant::Variant::RacingKings => "lichess.org/variant/racingKings",
        shakmaty::variant::Variant::Horde => "lichess.org/variant/horde",
    }
}

impl Edition {
    /// The name used on the command line and in the summary.
    pub fn name(self) -> &'static str {
        match self {
            Edition::Fide1994 => "fide-1994",
            Edition::Fide2000 => "fide-2000",
            Edition::Fide2023 => "fide-2023",
        }
    }

    /// Whether fivefold repetition and 75 moves end a game by themselves:
    /// whether the edition has the article.
    pub fn automatic_draws(self) -> bool {
        self.cite(Article::Fivefold).is_some()
    }

    /// Whether a player may claim 50 moves before playing the move that
    /// completes them (not in the 1994 text of 10.12).
    pub fn fifty_by_intention(self) -> bool {
        self != Edition::Fide1994
    }

    /// The article as the `rule` column cites it under this edition: the
    /// one table of citations of the Laws. `None` where the edition has no
    /// such article; a kind resting on it is then never reported under this
    /// edition (`checks::tests::each_kind_from_a_tiny_game` holds the two
    /// together: under each edition, every finding's rule column names that
    /// edition, its appendix, the PGN standard or the tool's limit).
    pub fn cite(self, article: Article) -> Option<&'static str> {
        use Article::*;
        use Edition::*;
        Some(match (self, article) {
            (Fide2023, IllegalMove) => "FIDE 2023 3.10.1",
            (Fide2023, Variant) => "FIDE 2023 1.1",
            (Fide2023, Checkmate) => "FIDE 2023 5.1.1",
            (Fide2023, Resignation) => "FIDE 2023 5.1.2",
            (Fide2023, Win) => "FIDE 2023 5.1",
            (Fide2023, Stalemate) => "FIDE 2023 5.2.1",
            (Fide2023, DeadPosition) => "FIDE 2023 5.2.2",
            (Fide2023, ThreefoldAbout) => "FIDE 2023 9.2.1.1",
            (Fide2023, ThreefoldJust) => "FIDE 2023 9.2.1.2",
            (Fide2023, FiftyAbout) => "FIDE 2023 9.3.1",
            (Fide2023, FiftyJust) => "FIDE 2023 9.3.2",
            (Fide2023, Fivefold) => "FIDE 2023 9.6.1",
            (Fide2023, SeventyFive) => "FIDE 2023 9.6.2",
            (Fide2023, FlagFall) => "FIDE 2023 6.9",
            (Fide2023, LoneKingForfeit) => "FIDE 2023 7.5.5",
            (Fide2023, TimeControl) => "FIDE 2023 6.3.1",
            (Fide2023, ClockPaused) => "FIDE 2023 6.2.1",
            (Fide2023, FlagNoticed) => "FIDE 2023 6.8",
            // The seed text of 2000 holds Articles 1 to 3 only; the others
            // follow the published English text of the 2000 Laws.
            (Fide2000, IllegalMove) => "FIDE 2000 3",
            (Fide2000, Variant) => "FIDE 2000 1.1",
            (Fide2000, Checkmate | Win | LoneKingForfeit) => "FIDE 2000 1.2",
            (Fide2000, DeadPosition) => "FIDE 2000 1.3",
            (Fide2000, Stalemate) => "FIDE 2000 5.2",
            (Fide2000, ThreefoldAbout | ThreefoldJust) => "FIDE 2000 9.2",
            (Fide2000, FiftyAbout | FiftyJust) => "FIDE 2000 9.3",
            (Fide2000, FlagFall) => "FIDE 2000 6.9",
            (Fide2000, TimeControl) => "FIDE 2000 6.1",
            (Fide2000, ClockPaused) => "FIDE 2000 6.2",
            (Fide2000, FlagNoticed) => "FIDE 2000 6.8",
            (Fide1994, IllegalMove) => "FIDE 1994 8.1",
            (Fide1994, Variant) => "FIDE 1994 1",
            (Fide1994, Checkmate | Win) => "FIDE 1994 10.1",
            (Fide1994, Resignation) => "FIDE 1994 10.2",
            (Fide1994, Stalemate) => "FIDE 1994 10.3",
            (Fide1994, DeadPosition) => "FIDE 1994 10.4",
            (Fide1994, BareKing) => "FIDE 1994 10.5",
            (Fide1994, ThreefoldAbout) => "FIDE 1994 10.10(1)",
            (Fide1994, ThreefoldJust) => "FIDE 1994 10.10(2)",
            (Fide1994, FiftyAbout | FiftyJust) => "FIDE 1994 10.12",
            (Fide1994, FlagFall) => "FIDE 1994 10.14",
            (Fide1994, TimeControl) => "FIDE 1994 12.1",
            (Fide1994, ClockPaused) => "FIDE 1994 12.3",
            (Fide1994, FlagNoticed) => "FIDE 1994 12.2",
            // The 1994 appendix on 60- and 30-minute rapid games.
            (Fide1994, RapidFlagFall) => "Rapid 1994 11(2)",
            // Not in the edition: the automatic draws before 2014; a
            // resignation the winner could not earn before 2023; the lone
            // king, which only 1994 settles outright.
            (Fide2000 | Fide1994, Fivefold | SeventyFive)
            | (Fide2000, Resignation | BareKing)
            | (Fide2023, BareKing)
            | (Fide1994, LoneKingForfeit)
            | (Fide2023 | Fide2000, RapidFlagFall) => return None,
        })
    }

    /// Whether the position could be dead: no pawn, rook or queen on the
    /// board (any of them always leaves a mate possible).
    #[inline]
    pub fn may_be_dead(self, pos: &Chess) -> bool {
        let board = pos.board();
        (board.pawns() | board.rooks_and_queens()).is_empty()
    }

    /// Whether the position is dead under this edition, as far as material
    /// shows: the 1994 list, or (2000, 2023) insufficient material for both
    /// sides.
    pub fn is_dead(self, pos: &Chess) -> bool {
        if !self.may_be_dead(pos) {
            return false;
        }
        let board = pos.board();
        match self {
            Edition::Fide1994 => is_dead_1994(board),
            Edition::Fide2000 | Edition::Fide2023 => pos.is_insufficient_material(),
        }
    }
}

/// 1994 10.4: K v K; K v K+B or K+N; K+B v K+B with bishops on squares of
/// the same colour.
fn is_dead_1994(board: &Board) -> bool {
    let minors = |color: Color| {
        let ours = board.by_color(color);
        (
            (board.by_role(Role::Bishop) & ours).count(),
            (board.by_role(Role::Knight) & ours).count(),
        )
    };
    match (minors(Color::White), minors(Color::Black)) {
        ((0, 0), (0, 0)) => true,
        ((b, n), (0, 0)) | ((0, 0), (b, n)) => b + n == 1,
        ((1, 0), (1, 0)) => {
            let bishops = board.by_role(Role::Bishop);
            (bishops & shakmaty::Bitboard::LIGHT_SQUARES).count() != 1
        }
        _ => false,
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn dead_positions_by_edition() {
        let cases = [
            // (FEN, dead in 1994, dead in 2000/2023)
            ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true, true),
            ("8/8/4k3/8/8/4KB2/8/8 w - - 0 1", true, true),
            ("8/8/4k3/8/8/4KN2/8/8 w - - 0 1", true, true),
            // Same-coloured bishops (c1 and f8 are both dark).
            ("5b2/8/4k3/8/8/4K3/8/2B5 w - - 0 1", true, true),
            // Opposite-coloured bishops: a mate can be helped.
            ("5b2/8/4k3/8/8/4K3/8/1B6 w - - 0 1", false, false),
            // Two same-coloured bishops against a king: not on the 1994 list.
            ("8/8/4k3/8/8/4K3/8/2B1B3 w - - 0 1", false, true),
            // K+N v K+N: a helpmate exists.
            ("8/8/4k1n1/8/8/4KN2/8/8 w - - 0 1", false, false),
            ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", false, false),
        ];
        for (fen, dead_1994, dead_later) in cases {
            let p = pos(fen);
            assert_eq!(Edition::Fide1994.is_dead(&p), dead_1994, "1994 {fen}");
            assert_eq!(Edition::Fide2000.is_dead(&p), dead_later, "2000 {fen}");
            assert_eq!(Edition::Fide2023.is_dead(&p), dead_later, "2023 {fen}");
        }
    }

    #[test]
    fn citations_name_the_edition() {
        assert_eq!(
            Edition::Fide1994.cite(Article::ThreefoldJust),
            Some("FIDE 1994 10.10(2)")
        );
        assert_eq!(
            Edition::Fide2023.cite(Article::ThreefoldAbout),
            Some("FIDE 2023 9.2.1.1")
        );
        assert_eq!(
            Edition::Fide2000.cite(Article::DeadPosition),
            Some("FIDE 2000 1.3")
        );
        // Every citation of an edition names it.
        let articles = [
            Article::Checkmate,
            Article::Stalemate,
            Article::DeadPosition,
            Article::ThreefoldAbout,
            Article::ThreefoldJust,
            Article::FiftyAbout,
            Article::FiftyJust,
            Article::Fivefold,
            Article::SeventyFive,
            Article::FlagFall,
            Article::BareKing,
            Article::IllegalMove,
            Article::Variant,
            Article::Resignation,
            Article::Win,
            Article::LoneKingForfeit,
            Article::TimeControl,
            Article::ClockPaused,
            Article::FlagNoticed,
            Article::RapidFlagFall,
        ];
        for edition in [Edition::Fide2023, Edition::Fide2000, Edition::Fide1994] {
            let year = &edition.name()[5..];
            let prefix = format!("FIDE {year} ");
            for article in articles {
                if let Some(cited) = edition.cite(article) {
                    // The 1994 appendix on rapid games is of that edition.
                    let appendix = format!("Rapid {year} ");
                    assert!(
                        cited.starts_with(&prefix) || cited.starts_with(&appendix),
                        "{edition} {article:?}: {cited}"
                    );
                }
            }
        }
        assert_eq!(Edition::Fide2023.cite(Article::RapidFlagFall), None);
        assert!(Edition::Fide2023.automatic_draws());
        assert!(!Edition::Fide2000.automatic_draws());
    }
}
