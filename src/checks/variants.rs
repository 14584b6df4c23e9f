//! lichess's variants (Atomic, Antichess, King of the Hill, Three-check,
//! Crazyhouse, Racing Kings, Horde), replayed by their own rules as
//! shakmaty plays them and as lichess states them
//! (lichess.org/variant/...): the first move that cannot be played
//! (`illegal-move`, `ambiguous-move`, citing the variant's rules), and a
//! result that differs from the one the variant's end decides
//! (`result-contradicts-variant-end`). A capture mark on a move that
//! captures nothing is read as the move it plainly means
//! (`non-standard-san`), as for chess; the other plain readings of the
//! lexer are taken as read, without a warning.
//!
//! lichess's own draws (scalachess `Variant.autoDraw`) end a game as the
//! variant's ends do: material with which neither side can win, a
//! position's fifth occurrence (`Positions`), and 50 moves of each side
//! without capture or pawn move, but in Crazyhouse.
//!
//! lichess also draws a game when a player claims it while a position
//! stands for the third time (lila's draw claim, scalachess
//! `threefoldRepetition`): the first such position the game went on from
//! is `unclaimed-threefold`, as in chess, but only after the fact (lichess
//! takes no claim by a move written down first).
//!
//! Such a game is not judged by the rules of chess: no other draw claims
//! and no winnability. Its clocks are read as a chess game's, and the games
//! report gives its plies, how its board ended (`variant-end` for the
//! variant's own ends) and the result that end decides.

use shakmaty::{
    CastlingMode, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position,
    fen::Fen,
    san::{San, SanError, SanPlus},
    variant::{Variant, VariantPosition},
    zobrist::Zobrist64,
};

use super::{draws, verdict::BoardEnd};
use crate::{
    board::replay::{fen, side},
    read::notation::Form,
};
use crate::{
    board::{
        replay::{self, Correction, Failure, Stopped},
        rules::Source,
    },
    finding::{Finding, Kind, MoveRef},
    read::{
        game::{RawGame, excerpt},
        lexer::{SanToken, StopKind},
    },
};

/// The variant's name as lichess writes it.
fn name(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "standard chess",
        Variant::Atomic => "Atomic",
        Variant::Antichess => "Antichess",
        Variant::KingOfTheHill => "King of the Hill",
        Variant::ThreeCheck => "Three-check",
        Variant::Crazyhouse => "Crazyhouse",
        Variant::RacingKings => "Racing Kings",
        Variant::Horde => "Horde",
    }
}

/// A draw lichess makes itself in its variants, besides a position
/// neither side can win (scalachess `Variant.autoDraw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AutoDraw {
    /// The same position for the fifth time (pieces, side to move,
    /// castling and en passant rights, and a variant's pockets or checks
    /// given).
    Fivefold,
    /// 50 moves of each side without capture or pawn move (halfmove clock
    /// 100); not in Crazyhouse.
    FiftyMoves,
}

impl AutoDraw {
    fn describe(self) -> &'static str {
        match self {
            AutoDraw::Fivefold => "the same position stood for the fifth time, which lichess draws",
            AutoDraw::FiftyMoves => {
                "50 moves of each side were made without capture or pawn move, which lichess draws"
            }
        }
    }
}

/// The positions of a variant's game so far, for lichess's automatic
/// draws and its threefold claim. A Zobrist hash of each (pockets,
/// promoted pieces and checks given included) counts its occurrences; a
/// count of three or five is confirmed by replaying the game's moves and
/// comparing the positions in full, so a hash collision never ends a game
/// or makes a claim. Counted over the whole game: none but Crazyhouse's
/// positions can recur after a capture or pawn move.
struct Positions {
    variant: Variant,
    start: VariantPosition,
    moves: Vec<Move>,
    seen: hashbrown::HashMap<u64, u8>,
    /// Whether a position has stood three times yet.
    third: bool,
}

/// What counting a position found.
struct Counted {
    /// The draw lichess made there, if it made one.
    auto: Option<AutoDraw>,
    /// The plies a position stood at, the first time one stands for the
    /// third time (this ply last).
    third: Option<Vec<usize>>,
}

/// A position in full, as lichess compares them: its FEN less the
/// halfmove clock and move number.
fn key(pos: &VariantPosition) -> String {
    let fen = fen(pos);
    fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen).to_owned()
}

impl Positions {
    fn new(variant: Variant, start: &VariantPosition) -> Positions {
        let mut seen = hashbrown::HashMap::new();
        seen.insert(start.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0, 1);
        Positions {
            variant,
            start: start.clone(),
            moves: Vec::new(),
            seen,
            third: false,
        }
    }

    /// Counts `pos`, reached by `m`.
    fn count(&mut self, m: Move, pos: &VariantPosition) -> Counted {
        self.moves.push(m);
        let hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let count = self.seen.entry(hash).or_insert(0);
        *count = count.saturating_add(1);
        let times = *count;
        let mut third = None;
        if times >= 3 && !self.third {
            let at = self.occurrences(pos);
            if at.len() >= 3 {
                self.third = true;
                third = Some(at);
            }
        }
        let auto = if times >= 5 && self.occurrences(pos).len() >= 5 {
            Some(AutoDraw::Fivefold)
        } else if self.variant != Variant::Crazyhouse && pos.halfmoves() >= 100 {
            Some(AutoDraw::FiftyMoves)
        } else {
            None
        };
        Counted { auto, third }
    }

    /// The plies at which `pos` stood (0: the start), compared in full.
    fn occurrences(&self, pos: &VariantPosition) -> Vec<usize> {
        let wanted = key(pos);
        let mut at = self.start.clone();
        let mut plies = Vec::new();
        if key(&at) == wanted {
            plies.push(0);
        }
        for (ply, &m) in self.moves.iter().enumerate() {
            at.play_unchecked(m);
            if key(&at) == wanted {
                plies.push(ply + 1);
            }
        }
        plies
    }
}

/// The first position that stood for the third time while the game was
/// on: lichess draws the game then on either player's claim.
struct Claimable {
    /// Its ply.
    index: usize,
    /// The plies it stood at before.
    earlier: Vec<usize>,
    /// The move that led to it, and its line.
    mv: MoveRef,
    line: u64,
    fen: String,
}

impl Claimable {
    /// The position `pos`, reached by `mv` on `line`, stood at the plies
    /// `at` (its own last).
    fn new(mut at: Vec<usize>, mv: MoveRef, line: u64, pos: &VariantPosition) -> Claimable {
        let index = at.pop().unwrap_or_default();
        Claimable {
            index,
            earlier: at,
            mv,
            line,
            fen: fen(pos),
        }
    }

    /// `unclaimed-threefold`, when the record goes on past it to `last`
    /// (the plies played).
    fn unclaimed(self, variant: Variant, last: usize) -> Option<Finding> {
        let more = last.checked_sub(self.index).filter(|&n| n > 0)?;
        Some(
            Finding::new(
                Kind::UnclaimedThreefold,
                self.line,
                format!(
                    "Either player could have claimed a draw by threefold repetition, which lichess grants in {}: the position after {}{} stood for the third time (before at {}); the game went on for {}.",
                    name(variant),
                    self.mv.number,
                    self.mv.san,
                    draws::plies(&self.earlier),
                    crate::finding::counted(more, "more ply", "more plies"),
                ),
            )
            .citing(Source::Lichess(variant))
            .at_move(self.mv)
            .with_fen(self.fen),
        )
    }
}

/// `non-standard-san` for `mv`, written with a capture mark though it
/// captures nothing in `pos`, read as `plain`.
fn capture_mark(mv: MoveRef, line: u64, plain: &str, pos: &VariantPosition) -> Finding {
    let message = format!(
        "'{}' is read as {plain}: PGN writes 'x' only for a capture.",
        mv.san
    );
    moved(Finding::new(Kind::NonStandardSan, line, message), mv, pos)
}

/// `finding` about `mv`, played in `pos`.
fn moved(finding: Finding, mv: MoveRef, pos: &VariantPosition) -> Finding {
    finding.at_move(mv).with_fen(fen(pos))
}

/// The starting position: the FEN tag's, else the variant's own.
fn start(
    game: &RawGame<'_>,
    variant: Variant,
    findings: &mut Vec<Finding>,
) -> Option<VariantPosition> {
    let Some((index, value)) = game.tags.find("FEN") else {
        return Some(VariantPosition::new(variant));
    };
    let shown = excerpt(value, 90);
    let line = game.tag_line(index);
    let invalid = |why: String| {
        Finding::new(
            Kind::InvalidFen,
            line,
            format!("FEN '{shown}' {why}, so the game is not replayed."),
        )
    };
    let fen = match Fen::from_ascii(value.trim_ascii()) {
        Ok(fen) => fen,
        Err(err) => {
            findings.push(invalid(format!("cannot be parsed ({err})")));
            return None;
        }
    };
    let setup = fen.into_setup();
    let mode = CastlingMode::detect(&setup);
    match VariantPosition::from_setup(variant, setup, mode) {
        Ok(pos) => Some(pos),
        Err(err) => {
            findings.push(invalid(format!(
                "is not a legal position of {} ({err})",
                name(variant)
            )));
            None
        }
    }
}

/// The move a SAN names in `pos`; a capture mark on a move that captures
/// nothing is read as the move it plainly means, as the replay of chess
/// reads it, with that move's SAN.
fn resolve(san: &San, pos: &VariantPosition) -> Result<(Move, Option<String>), SanError> {
    match (san.to_move(pos), crate::board::lenient::flip_capture(*san)) {
        (Err(SanError::IllegalSan), Some((plain, Form::MarkWithoutCapture))) => {
            let m = plain.to_move(pos)?;
            Ok((m, Some(San::from_move(pos, m).to_string())))
        }
        (found, _) => found.map(|m| (m, None)),
    }
}

/// Why the variant's rules ended the game in `pos`, in words: its own
/// end, mate, no move, no material, or lichess's draw `auto`.
fn why_ended(pos: &VariantPosition, variant: Variant, auto: Option<AutoDraw>) -> String {
    let mover = pos.turn();
    if pos.is_variant_end() {
        return match variant {
            Variant::Atomic => {
                let gone = [Color::White, Color::Black]
                    .into_iter()
                    .find(|&c| pos.board().king_of(c).is_none());
                match gone {
                    Some(c) => format!("{}'s king exploded", side(c)),
                    None => "a king exploded".to_owned(),
                }
            }
            Variant::KingOfTheHill => "a king reached the centre".to_owned(),
            Variant::ThreeCheck => "a king was checked for the third time".to_owned(),
            Variant::RacingKings => {
                let goal = pos.board().kings() & shakmaty::Bitboard::from(shakmaty::Rank::Eighth);
                if goal.count() == 2 {
                    "both kings reached the eighth rank".to_owned()
                } else {
                    "a king reached the eighth rank".to_owned()
                }
            }
            Variant::Horde => "White has no piece left".to_owned(),
            Variant::Antichess => "a side has no piece left".to_owned(),
            Variant::Chess | Variant::Crazyhouse => "the variant's own end".to_owned(),
        };
    }
    if pos.legal_moves().is_empty() {
        if pos.is_check() {
            format!("{} checkmated", side(mover))
        } else {
            format!("{} has no legal move", side(mover))
        }
    } else if let (false, Some(auto)) = (pos.is_insufficient_material(), auto) {
        auto.describe().to_owned()
    } else {
        "neither side can win with the material left".to_owned()
    }
}

/// The finding's kind and why, for a move that cannot be played in `pos`:
/// the game had ended, the move fits several, or none.
fn unplayable(
    pos: &VariantPosition,
    variant: Variant,
    auto: Option<AutoDraw>,
    failure: Failure,
) -> (Kind, String) {
    let rules = name(variant);
    match failure {
        Failure::Illegal if pos.is_game_over() || auto.is_some() => (
            Kind::IllegalMove,
            format!(
                "cannot be played: under {rules} rules the game had ended ({}); the game is not replayed past it.",
                why_ended(pos, variant, auto)
            ),
        ),
        Failure::Ambiguous => (
            Kind::AmbiguousMove,
            format!(
                "fits more than one legal move for {} under {rules} rules; the game is not replayed past it.",
                side(pos.turn())
            ),
        ),
        Failure::Illegal => (
            Kind::IllegalMove,
            format!(
                "cannot be played: it is not a legal move for {} under {rules} rules in this position; the game is not replayed past it.",
                side(pos.turn())
            ),
        ),
    }
}

/// What the replay of a variant's game reached.
pub struct Reached {
    /// The starting position.
    pub start: VariantPosition,
    /// Plies played.
    pub plies: usize,
    /// The move that could not be played, if one could not.
    pub stopped: Option<Stopped>,
    /// How the board ended the game, when every move recorded was
    /// played (`IllegalMove` when one could not be).
    pub end: BoardEnd,
    /// The result the variant's end decides, when it decides one.
    pub expected: Option<KnownOutcome>,
    /// The side to move in the final position.
    pub turn: Color,
    /// The moves written with a capture mark that capture nothing, in
    /// standard SAN (`--fix`); empty unless asked for.
    pub corrections: Vec<Correction>,
}

/// How the variant's rules end the game in `pos`, if they do, and the
/// result they decide; `auto`: a draw lichess made there.
fn board_end(pos: &VariantPosition, auto: Option<AutoDraw>) -> (BoardEnd, Option<KnownOutcome>) {
    let end = if pos.is_variant_end() {
        BoardEnd::VariantEnd
    } else if pos.legal_moves().is_empty() {
        if pos.is_check() {
            BoardEnd::Checkmate
        } else {
            BoardEnd::Stalemate
        }
    } else if pos.is_insufficient_material() {
        BoardEnd::DeadPosition
    } else {
        return match auto {
            Some(AutoDraw::Fivefold) => (BoardEnd::Fivefold, Some(KnownOutcome::Draw)),
            Some(AutoDraw::FiftyMoves) => (BoardEnd::VariantEnd, Some(KnownOutcome::Draw)),
            None => (BoardEnd::Open, None),
        };
    };
    match pos.outcome() {
        Outcome::Known(known) => (end, Some(known)),
        Outcome::Unknown => (end, None),
    }
}

/// Replays a game of `variant` and judges its result against the end the
/// variant's rules decide. `recorded` is the recorded result (`None`: no
/// valid one; `Some(None)`: `*`); `corrections`: keep the standard SAN of
/// moves written otherwise. `None` when the game cannot start (its FEN).
pub fn check(
    game: &RawGame<'_>,
    variant: Variant,
    recorded: Option<Option<KnownOutcome>>,
    corrections: bool,
    findings: &mut Vec<Finding>,
) -> Option<Reached> {
    let start = start(game, variant, findings)?;
    let mut pos = start.clone();
    let mut positions = Positions::new(variant, &start);
    // lichess's own draw, once the game reached one.
    let mut auto = None;
    let mut claimable = None;
    let mut kept = Vec::new();
    let rules = Source::Lichess(variant);
    let sans = &game.lexed.sans;
    // The last move played: its number and token (labelled only if a
    // finding needs it).
    let mut last = None;
    for (index, token) in sans.iter().enumerate() {
        let number = (pos.turn(), pos.fullmoves().get());
        let mv = || MoveRef {
            ply: u32::try_from(index + 1).unwrap_or(u32::MAX),
            number: replay::number_label(number.0, number.1),
            san: game.text(token.start, token.end),
        };
        // An end mate and stalemate aside (no move matches then): they are
        // told apart below, when a move does not match.
        let ended = pos.is_variant_end() || pos.is_insufficient_material() || auto.is_some();
        let failed = match (ended, resolve(&token.san.san, &pos)) {
            (false, Ok((m, plain))) => {
                if let Some(plain) = plain {
                    findings.push(capture_mark(mv(), token.line, &plain, &pos));
                    kept.extend(corrections.then(|| Correction {
                        index,
                        form: true,
                        suffix: false,
                        standard: SanPlus::from_move(pos.clone(), m),
                    }));
                }
                last = Some((number, token));
                pos.play_unchecked(m);
                let counted = positions.count(m, &pos);
                auto = counted.auto;
                if let Some(at) = counted.third
                    && auto.is_none()
                    && !pos.is_game_over()
                {
                    claimable = Some(Claimable::new(at, mv(), token.line, &pos));
                }
                None
            }
            (_, Err(SanError::AmbiguousSan)) if !pos.is_game_over() && auto.is_none() => {
                Some(Failure::Ambiguous)
            }
            _ => Some(Failure::Illegal),
        };
        if let Some(failure) = failed {
            findings.extend(claimable.and_then(|c| c.unclaimed(variant, index)));
            let (kind, message) = unplayable(&pos, variant, auto, failure);
            let mv = mv();
            let message = format!("'{}' {message}", mv.san);
            findings.push(moved(
                Finding::new(kind, token.line, message).citing(rules),
                mv,
                &pos,
            ));
            return Some(Reached {
                start,
                plies: index,
                stopped: Some(Stopped { index, failure }),
                end: BoardEnd::IllegalMove,
                expected: None,
                turn: pos.turn(),
                corrections: kept,
            });
        }
    }
    findings.extend(claimable.and_then(|c| c.unclaimed(variant, sans.len())));
    // The board ends the game where the record is read to its end.
    let unreadable = game
        .lexed
        .stop
        .is_some_and(|s| s.kind == StopKind::Malformed);
    let (end, expected) = if unreadable {
        (BoardEnd::IllegalMove, None)
    } else {
        judge_result(game, variant, (&pos, auto), last, recorded, findings);
        board_end(&pos, auto)
    };
    Some(Reached {
        start,
        plies: sans.len(),
        stopped: None,
        end,
        expected,
        turn: pos.turn(),
        corrections: kept,
    })
}

/// `result-contradicts-variant-end`: the end the variant's rules decide in
/// the final position `pos`, reached by `last` (its number and token),
/// against the recorded result.
fn judge_result(
    game: &RawGame<'_>,
    variant: Variant,
    (pos, auto): (&VariantPosition, Option<AutoDraw>),
    last: Option<((Color, u32), &SanToken)>,
    recorded: Option<Option<KnownOutcome>>,
    findings: &mut Vec<Finding>,
) {
    let decided = match (pos.outcome(), auto) {
        (Outcome::Known(decided), _) => decided,
        (Outcome::Unknown, Some(_)) => KnownOutcome::Draw,
        (Outcome::Unknown, None) => return,
    };
    let Some(recorded) = recorded else {
        return;
    };
    if recorded == Some(decided) {
        return;
    }
    let after = match last {
        Some(((mover, fullmoves), token)) => format!(
            " after {}{}",
            replay::number_label(mover, fullmoves),
            game.text(token.start, token.end)
        ),
        None => String::new(),
    };
    let line = game.lexed.sans.last().map_or(game.line, |t| t.line);
    findings.push(
        Finding::new(
            Kind::ResultContradictsVariantEnd,
            line,
            format!(
                "Under {} rules the game ended{after}: {}. So the result must be {}, but it is recorded as {}.",
                name(variant),
                why_ended(pos, variant, auto),
                decided.as_str(),
                Outcome::from_known(recorded).as_str(),
            ),
        )
        .citing(Source::Lichess(variant))
        .with_fen(fen(pos)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draws lichess makes after each of `sans` from `fen` (or the
    /// variant's start).
    fn draws(variant: Variant, fen: Option<&str>, sans: &str) -> Vec<Option<AutoDraw>> {
        let mut pos = match fen {
            Some(fen) => {
                let setup = fen.parse::<Fen>().unwrap().into_setup();
                VariantPosition::from_setup(variant, setup, CastlingMode::Standard).unwrap()
            }
            None => VariantPosition::new(variant),
        };
        let mut positions = Positions::new(variant, &pos);
        sans.split_whitespace()
            .map(|san| {
                let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                positions.count(m, &pos).auto
            })
            .collect()
    }

    #[test]
    fn the_fifth_occurrence_of_a_position_is_a_draw() {
        let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
        let found = draws(Variant::KingOfTheHill, None, &shuffle);
        // The start stands for the fifth time after the 16th ply only,
        // its halfmove clock and move number left out of the comparison.
        assert_eq!(found.iter().position(Option::is_some), Some(15));
        assert_eq!(found[15], Some(AutoDraw::Fivefold));
    }

    #[test]
    fn fifty_moves_draw_but_in_crazyhouse() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 98 80";
        let found = draws(Variant::Atomic, Some(fen), "Ra2 Kd7");
        assert_eq!(found, [None, Some(AutoDraw::FiftyMoves)]);
        let fen = "4k3/8/8/8/8/8/8/R3K3[] w - - 98 80";
        let found = draws(Variant::Crazyhouse, Some(fen), "Ra2 Kd7 Ra3");
        assert!(found.iter().all(Option::is_none), "{found:?}");
    }
}
