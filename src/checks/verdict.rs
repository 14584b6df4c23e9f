//! What the rule areas share about a game: how the board ended it, the
//! verdict beside its findings, how the board decided it, and how it is
//! judged. The four results as PGN writes them are
//! [`read::outcome`](crate::read::outcome)'s.

use shakmaty::{Chess, Color, KnownOutcome};

use super::header::HeaderRules;
use crate::board::{
    replay::{Correction, Stopped},
    rules::{Article, Edition},
    winnable::Search,
};

/// What the board shows at the end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BoardEnd {
    /// Nothing that ends the game.
    Open,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (as far as material shows).
    DeadPosition,
    /// The same position for the fifth time (FIDE 2023 9.6.1).
    Fivefold,
    /// 75 moves of each player without capture or pawn move (9.6.2).
    SeventyFiveMoves,
    /// A lichess variant's own end: an exploded king, a third check, a
    /// king on the hill or on the eighth rank, a side with no piece left.
    VariantEnd,
    /// Replay stopped at a move that could not be played.
    IllegalMove,
    /// The game was not replayed (unsupported variant, bad FEN).
    NotReplayed,
}

impl BoardEnd {
    /// Whether the board ended the game (mate, stalemate, a dead position,
    /// an automatic draw): its result is decided there.
    pub fn decides(self) -> bool {
        matches!(
            self,
            BoardEnd::Checkmate
                | BoardEnd::Stalemate
                | BoardEnd::DeadPosition
                | BoardEnd::Fivefold
                | BoardEnd::SeventyFiveMoves
                | BoardEnd::VariantEnd
        )
    }

    /// The word in the games report.
    pub fn as_str(self) -> &'static str {
        match self {
            BoardEnd::Open | BoardEnd::NotReplayed => "",
            BoardEnd::Checkmate => "checkmate",
            BoardEnd::Stalemate => "stalemate",
            BoardEnd::DeadPosition => "dead-position",
            BoardEnd::Fivefold => "fivefold",
            BoardEnd::SeventyFiveMoves => "seventy-five-moves",
            BoardEnd::VariantEnd => "variant-end",
            BoardEnd::IllegalMove => "illegal-move",
        }
    }
}

/// The verdict on one game, beside its findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Plies replayed.
    pub plies: usize,
    /// A hash of the first `resolved` plies as resolved ([`Replay::moves`](crate::board::replay::Replay::moves)).
    pub moves: u128,
    /// The plies `moves` covers: those replayed as chess; none of a lichess
    /// variant's game, whose identity takes its moves as written.
    pub resolved: usize,
    /// What the board shows at the end.
    pub board_end: BoardEnd,
    /// The result the rules require, when the board decides it.
    pub expected: Option<KnownOutcome>,
    /// How the game ended, as the record tells it.
    pub how_ended: HowEnded,
    /// The plies that count, when the game ended by itself (fivefold, 75
    /// moves, a dead position) and more were recorded after that end.
    pub ended_at: Option<usize>,
    /// The move the replay stopped at, illegal or ambiguous (`--fix`
    /// comments on it without replaying the game again).
    pub stopped: Option<Stopped>,
    /// Every move not written in standard SAN, as the replay resolved it
    /// (`--fix` writes them back without replaying the game again); empty
    /// unless [`Judging::corrections`].
    pub corrections: Vec<Correction>,
}

impl Verdict {
    /// The verdict on a game not replayed (its start cannot be set up, or
    /// it was not read), which ended `how_ended`.
    pub fn not_replayed(how_ended: HowEnded) -> Verdict {
        Verdict {
            plies: 0,
            moves: 0,
            resolved: 0,
            board_end: BoardEnd::NotReplayed,
            expected: None,
            how_ended,
            ended_at: None,
            stopped: None,
            corrections: Vec::new(),
        }
    }
}

/// How the board decided a game: the end, the result it requires, the
/// article, and the position (FEN).
#[derive(Debug, Clone)]
pub struct Decided {
    /// The kind of end.
    pub end: BoardEnd,
    /// The result it requires.
    pub expected: KnownOutcome,
    /// The article it rests on.
    pub rule: Article,
    /// The deciding position (its FEN is written only for a finding).
    pub position: Chess,
    /// The side to move there.
    pub turn: Color,
}

/// How a game is judged: the rule edition and how hard to look for a mate
/// a winner could still give.
#[derive(Debug, Clone, Copy, Default)]
pub struct Judging {
    /// The rule edition.
    pub edition: Edition,
    /// The winnability search for games won on time.
    pub search: Search,
    /// Leave variations unread (`--no-variations`).
    pub skip_variations: bool,
    /// How the tag section is judged (the run's day, `--strict-tags`).
    pub header: HeaderRules,
    /// Fingerprint each game so that the writer finds duplicates (not with
    /// `--no-duplicates`).
    pub duplicates: bool,
    /// Keep the standard SAN of every move written otherwise, for the
    /// corrected copy (`--fix`).
    pub corrections: bool,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum HowEnded {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate on the board.
    Stalemate,
    /// A dead position on the board.
    DeadPosition,
    /// Fivefold repetition.
    Fivefold,
    /// 75 moves.
    SeventyFiveMoves,
    /// A lichess variant's own end on the board.
    VariantEnd,
    /// A flag fell.
    TimeForfeit,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A draw claimed by repetition.
    Repetition,
    /// A draw claimed under the 50-move rule.
    FiftyMoves,
    /// A player abandoned the game.
    Abandoned,
    /// A player broke the rules.
    RulesInfraction,
    /// An arbiter or a tablebase decided.
    Adjudication,
    /// A player died.
    Death,
    /// An emergency stopped the game.
    Emergency,
    /// Not finished (result `*`).
    Unterminated,
    /// Nothing in the record says.
    Unknown,
}

impl HowEnded {
    /// The word in the games report.
    pub fn as_str(self) -> &'static str {
        match self {
            HowEnded::Checkmate => "checkmate",
            HowEnded::Stalemate => "stalemate",
            HowEnded::DeadPosition => "dead-position",
            HowEnded::Fivefold => "fivefold",
            HowEnded::SeventyFiveMoves => "seventy-five-moves",
            HowEnded::VariantEnd => "variant-end",
            HowEnded::TimeForfeit => "time-forfeit",
            HowEnded::Resignation => "resignation",
            HowEnded::Agreement => "agreement",
            HowEnded::Repetition => "repetition",
            HowEnded::FiftyMoves => "fifty-moves",
            HowEnded::Abandoned => "abandoned",
            HowEnded::RulesInfraction => "rules-infraction",
            HowEnded::Adjudication => "adjudication",
            HowEnded::Death => "death",
            HowEnded::Emergency => "emergency",
            HowEnded::Unterminated => "unterminated",
            HowEnded::Unknown => "unknown",
        }
    }
}
