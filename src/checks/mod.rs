//! Judges one game: each submodule is one rule area and adds its findings.
//! `audit` runs them in the order a game's life goes: tags, the starting
//! position, the movetext, the replay, the draw rules, the result.

mod draws;
pub mod ending;
mod moves;
mod result;
mod setup;
mod tags;
pub mod winnable;

use shakmaty::{Chess, Color, KnownOutcome, Position};

use self::{
    ending::{Facts, HowEnded},
    winnable::{Search, Winnability},
};
use crate::{
    finding::{Finding, Kind},
    game::RawGame,
    history::{EndKind, History},
    replay,
    rules::{Article, Edition},
};

/// What the board shows at the end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
            BoardEnd::Fivefold => "fivefold",
            BoardEnd::SeventyFiveMoves => "seventy-five-moves",
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
    /// How the game ended, as the record tells it.
    pub how_ended: HowEnded,
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
    pub rule: &'static str,
    /// The deciding position.
    pub fen: String,
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
}

/// The recorded result: the Result tag if it is one of the four, else the
/// termination marker. `Some(None)` is `*`.
fn recorded_result(game: &RawGame<'_>) -> Option<Option<KnownOutcome>> {
    let outcome = match game.tags.get("Result").and_then(result::parse) {
        Some(outcome) => outcome,
        None => game.lexed.marker?.outcome,
    };
    Some(match outcome {
        shakmaty::Outcome::Known(known) => Some(known),
        shakmaty::Outcome::Unknown => None,
    })
}

/// Checks one game, appending its findings in the order of the record.
/// `history` is a reused buffer.
pub fn audit(
    game: &RawGame<'_>,
    judging: Judging,
    history: &mut History,
    findings: &mut Vec<Finding>,
) -> Verdict {
    let edition = judging.edition;
    tags::check(game, findings);
    let start = match setup::start(game, findings) {
        Ok(start) => start,
        Err(why) => {
            // Another variant's movetext has its own notation: not judged.
            if why == setup::NotReplayed::Fen {
                moves::check_tokens(game, None, findings);
            }
            result::check(game, None, findings);
            let facts = Facts {
                board_end: BoardEnd::NotReplayed,
                result: recorded_result(game),
                start_turn: Color::White,
                claimable: None,
            };
            return Verdict {
                plies: 0,
                board_end: BoardEnd::NotReplayed,
                expected: None,
                how_ended: ending::how_ended(game, &facts),
            };
        }
    };
    let replayed = replay::replay(&start, &game.lexed.sans, history, edition);
    moves::check_replay(game, &replayed, findings);
    moves::check_tokens(game, Some(&replayed), findings);
    draws::check(game, &replayed, history, edition, findings);
    // An automatic end comes first: what follows it does not count.
    let decided = if let Some(end) = &history.end {
        let (board_end, article) = match end.kind {
            EndKind::Fivefold => (BoardEnd::Fivefold, Article::Fivefold),
            EndKind::SeventyFive => (BoardEnd::SeventyFiveMoves, Article::SeventyFive),
            EndKind::DeadPosition => (BoardEnd::DeadPosition, Article::DeadPosition),
        };
        Some(Decided {
            end: board_end,
            expected: KnownOutcome::Draw,
            rule: edition.cite(article),
            fen: end.fen.clone(),
            turn: end.turn,
        })
    } else if replayed.stopped.is_some() || stopped_unreadable(game) {
        result::check(game, None, findings);
        let facts = Facts {
            board_end: BoardEnd::IllegalMove,
            result: recorded_result(game),
            start_turn: start.turn(),
            claimable: None,
        };
        return Verdict {
            plies: replayed.plies,
            board_end: BoardEnd::IllegalMove,
            expected: None,
            how_ended: ending::how_ended(game, &facts),
        };
    } else {
        judge(&replayed.end, edition)
    };
    let last = replayed.plies;
    let claimable = if history
        .threefold
        .as_ref()
        .is_some_and(|c| c.index + 1 >= last)
    {
        Some(HowEnded::Repetition)
    } else if history.fifty.as_ref().is_some_and(|c| c.index + 1 >= last) {
        Some(HowEnded::FiftyMoves)
    } else {
        None
    };
    let facts = Facts {
        board_end: decided.as_ref().map_or(BoardEnd::Open, |d| d.end),
        result: recorded_result(game),
        start_turn: start.turn(),
        claimable,
    };
    let how_ended = ending::how_ended(game, &facts);
    let mut decided = decided;
    let mut expected = decided.as_ref().map(|d| d.expected);
    if decided.is_none()
        && let Some(Some(KnownOutcome::Decisive { winner })) = facts.result
    {
        match unearned_win(game, &replayed.end, winner, how_ended, judging, findings) {
            Unearned::No => {}
            Unearned::Yes => expected = Some(KnownOutcome::Draw),
            Unearned::Dead => {
                decided = Some(Decided {
                    end: BoardEnd::DeadPosition,
                    expected: KnownOutcome::Draw,
                    rule: edition.cite(Article::DeadPosition),
                    fen: replay::fen(&replayed.end),
                    turn: replayed.end.turn(),
                });
                expected = Some(KnownOutcome::Draw);
            }
        }
    }
    result::check(game, decided.as_ref(), findings);
    Verdict {
        plies: replayed.plies,
        board_end: decided.as_ref().map_or(BoardEnd::Open, |d| d.end),
        expected,
        how_ended,
    }
}

/// Whether a decisive result was earned on the board.
enum Unearned {
    /// Nothing proves otherwise.
    No,
    /// The winner could not mate: a finding was added.
    Yes,
    /// Neither side could mate: the position is dead.
    Dead,
}

/// A decisive result not ended by mate: can the recorded winner still mate
/// (FIDE 2023 6.9 on time, 5.1.2 on resignation; 1994 10.5 for a lone
/// king)? If neither side can, the position is dead (5.2.2).
fn unearned_win(
    game: &RawGame<'_>,
    pos: &Chess,
    winner: Color,
    how_ended: HowEnded,
    judging: Judging,
    findings: &mut Vec<Finding>,
) -> Unearned {
    let edition = judging.edition;
    let bare = winnable::bare_king(pos, winner);
    let kind = match how_ended {
        _ if bare => Kind::BareKingWin,
        HowEnded::TimeForfeit if edition != Edition::Fide1994 => Kind::UnwinnableWinOnTime,
        HowEnded::Resignation if edition == Edition::Fide2023 => Kind::UnwinnableWinByResignation,
        HowEnded::Unknown if edition != Edition::Fide1994 => Kind::UnexplainedWinUnwinnable,
        _ => return Unearned::No,
    };
    // The quick sound check for every decisive game where the winner has no
    // queen and no rook, and for every game lost on time; the complete
    // analysis where a flag fell and the winner has no queen and no rook
    // (`--winnability all`: every game lost on time). With a queen or rook a
    // mate is as good as always possible, and searching for it in every
    // game would cost more than the rest of the audit.
    let light = winnable::only_minor_pieces_and_pawns(pos, winner);
    let search = match (how_ended == HowEnded::TimeForfeit, judging.search) {
        (true, Search::All) => Some(Search::All),
        (true, Search::Full) if light => Some(Search::Full),
        (true, _) => Some(Search::Fast),
        (false, _) if light => Some(Search::Fast),
        (false, _) => None,
    };
    let unwinnable = bare
        || search.is_some_and(|search| {
            winnable::winnability(pos, winner, search) == Winnability::Unwinnable
        });
    if !unwinnable {
        return Unearned::No;
    }
    if winnable::winnability(pos, !winner, Search::Fast) == Winnability::Unwinnable {
        return Unearned::Dead;
    }
    let (index, _) = game.tags.find("Result").unwrap_or((usize::MAX, &[]));
    let line = if index == usize::MAX {
        game.lexed.marker.map_or(game.line, |m| m.line)
    } else {
        game.tag_line(index)
    };
    let w = replay::side(winner);
    let l = replay::side(!winner);
    let score = result_str(KnownOutcome::Decisive { winner });
    let (rule, message) = match kind {
        Kind::BareKingWin => (
            edition.cite(Article::BareKing),
            format!(
                "{w} is recorded as the winner ({score}) with only a king left, and a lone king can never win; the game is a draw."
            ),
        ),
        Kind::UnwinnableWinOnTime => (
            edition.cite(Article::FlagFall),
            format!(
                "{l} lost on time, but {w} cannot checkmate by any series of legal moves from the final position, so the game is a draw, not {score}."
            ),
        ),
        Kind::UnwinnableWinByResignation => (
            kind.rule(),
            format!(
                "{l} resigned in a position where {w} cannot checkmate by any series of legal moves, so the game is a draw, not {score}."
            ),
        ),
        _ => (
            kind.rule(),
            format!(
                "The record does not say how the game ended, and {w}, the recorded winner ({score}), cannot checkmate by any series of legal moves from the final position."
            ),
        ),
    };
    findings.push(
        Finding::new(kind, line, message)
            .citing(rule)
            .with_fen(replay::fen(pos)),
    );
    Unearned::Yes
}

/// Whether the mainline stopped at a malformed token (rather than at its end
/// or at its termination marker).
fn stopped_unreadable(game: &RawGame<'_>) -> bool {
    game.lexed
        .stop
        .is_some_and(|s| s.kind == crate::lexer::StopKind::Malformed)
}

/// What the final position decides by itself.
fn judge(pos: &Chess, edition: Edition) -> Option<Decided> {
    // One move generation serves both mate and stalemate.
    let no_moves = pos.legal_moves().is_empty();
    let (end, expected, article) = if no_moves && pos.is_check() {
        let winner = !pos.turn();
        (
            BoardEnd::Checkmate,
            KnownOutcome::Decisive { winner },
            Article::Checkmate,
        )
    } else if no_moves {
        (BoardEnd::Stalemate, KnownOutcome::Draw, Article::Stalemate)
    } else if edition.is_dead(pos) {
        (
            BoardEnd::DeadPosition,
            KnownOutcome::Draw,
            Article::DeadPosition,
        )
    } else {
        return None;
    };
    Some(Decided {
        end,
        expected,
        rule: edition.cite(article),
        fen: replay::fen(pos),
        turn: pos.turn(),
    })
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
