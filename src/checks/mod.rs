//! Judges one game: each submodule is one rule area and adds its findings.
//! `audit` runs them in the order a game's life goes: tags, the starting
//! position, the movetext, the replay, the result.

mod moves;
mod result;
mod setup;
mod tags;

use shakmaty::{Chess, Color, KnownOutcome, Position};

use crate::{finding::Finding, game::RawGame, replay};

/// What the board shows at the end of the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardEnd {
    /// Nothing that ends the game.
    Open,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (insufficient material).
    DeadPosition,
    /// Replay stopped at a move that could not be played.
    IllegalMove,
    /// The game was not replayed (unsupported variant, bad FEN).
    NotReplayed,
}

impl BoardEnd {
    /// The word in the games report.
    pub fn as_str(self) -> &'static str {
        match self {
            BoardEnd::Open | BoardEnd::NotReplayed => "",
            BoardEnd::Checkmate => "checkmate",
            BoardEnd::Stalemate => "stalemate",
            BoardEnd::DeadPosition => "dead-position",
            BoardEnd::IllegalMove => "illegal-move",
        }
    }
}

/// The verdict on one game, beside its findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Plies replayed.
    pub plies: usize,
    /// What the board shows at the end.
    pub board_end: BoardEnd,
    /// The result the rules require, when the board decides it.
    pub expected: Option<KnownOutcome>,
}

/// Checks one game, appending its findings in the order of the record.
pub fn audit(game: &RawGame<'_>, findings: &mut Vec<Finding>) -> Verdict {
    tags::check(game, findings);
    let start = match setup::start(game, findings) {
        Ok(start) => start,
        Err(why) => {
            // Another variant's movetext has its own notation: not judged.
            if why == setup::NotReplayed::Fen {
                moves::check_tokens(game, None, findings);
            }
            result::check(game, None, findings);
            return Verdict {
                plies: 0,
                board_end: BoardEnd::NotReplayed,
                expected: None,
            };
        }
    };
    let replayed = replay::replay(&start, &game.lexed.sans);
    moves::check_replay(game, &replayed, findings);
    moves::check_tokens(game, Some(&replayed), findings);
    let (board_end, expected) = if replayed.stopped.is_some() || stopped_unreadable(game) {
        (BoardEnd::IllegalMove, None)
    } else {
        judge(&replayed.end)
    };
    result::check(game, Some((&replayed.end, board_end, expected)), findings);
    Verdict {
        plies: replayed.plies,
        board_end,
        expected,
    }
}

/// Whether the mainline stopped at a malformed token (rather than at its end
/// or at its termination marker).
fn stopped_unreadable(game: &RawGame<'_>) -> bool {
    game.lexed
        .stop
        .is_some_and(|s| s.kind == crate::lexer::StopKind::Malformed)
}

/// What the final position decides by itself.
fn judge(pos: &Chess) -> (BoardEnd, Option<KnownOutcome>) {
    // One move generation serves both mate and stalemate.
    let no_moves = pos.legal_moves().is_empty();
    if no_moves && pos.is_check() {
        let winner = !pos.turn();
        (BoardEnd::Checkmate, Some(KnownOutcome::Decisive { winner }))
    } else if no_moves {
        (BoardEnd::Stalemate, Some(KnownOutcome::Draw))
    } else if pos.is_insufficient_material() {
        (BoardEnd::DeadPosition, Some(KnownOutcome::Draw))
    } else {
        (BoardEnd::Open, None)
    }
}

/// A result as PGN writes it.
pub fn result_str(outcome: KnownOutcome) -> &'static str {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => "1-0",
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => "0-1",
        KnownOutcome::Draw => "1/2-1/2",
    }
}
