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
//! Such a game is not judged by the rules of chess: no draw claims, no
//! clocks, no winnability; the games report counts it as not replayed.

use shakmaty::{
    CastlingMode, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position,
    fen::Fen,
    san::{San, SanError},
    variant::{Variant, VariantPosition},
};

use crate::{
    board::{replay, rules::Source},
    finding::{Finding, Kind, MoveRef},
    read::{
        game::{RawGame, excerpt},
        lexer::SanToken,
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

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn result_text(outcome: Option<KnownOutcome>) -> &'static str {
    match outcome {
        Some(KnownOutcome::Decisive {
            winner: Color::White,
        }) => "1-0",
        Some(KnownOutcome::Decisive {
            winner: Color::Black,
        }) => "0-1",
        Some(KnownOutcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

fn fen(pos: &VariantPosition) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
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
    match san.to_move(pos) {
        Ok(m) => Ok((m, None)),
        Err(SanError::IllegalSan) => {
            let San::Normal {
                role,
                file,
                rank,
                capture: true,
                to,
                promotion,
            } = *san
            else {
                return Err(SanError::IllegalSan);
            };
            let plain = San::Normal {
                role,
                file,
                rank,
                capture: false,
                to,
                promotion,
            };
            let m = plain.to_move(pos)?;
            Ok((m, Some(San::from_move(pos, m).to_string())))
        }
        Err(err) => Err(err),
    }
}

/// Why the variant's rules ended the game in `pos`, in words.
fn why_ended(pos: &VariantPosition, variant: Variant) -> String {
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
            Variant::RacingKings => "a king reached the eighth rank".to_owned(),
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
    } else {
        "neither side can win with the material left".to_owned()
    }
}

/// Replays a game of `variant` and judges its result against the end the
/// variant's rules decide. `recorded` is the recorded result (`None`: no
/// valid one; `Some(None)`: `*`). Returns whether the replay reached the
/// end of the moves read (it did not stop at a move, or at the start).
pub fn check(
    game: &RawGame<'_>,
    variant: Variant,
    recorded: Option<Option<KnownOutcome>>,
    findings: &mut Vec<Finding>,
) -> bool {
    let Some(mut pos) = start(game, variant, findings) else {
        return false;
    };
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
        let ended = pos.is_variant_end() || pos.is_insufficient_material();
        let failed = match (ended, resolve(&token.san.san, &pos)) {
            (false, Ok((m, plain))) => {
                if let Some(plain) = plain {
                    let mv = mv();
                    findings.push(
                        Finding::new(
                            Kind::NonStandardSan,
                            token.line,
                            format!(
                                "'{}' is read as {plain}: PGN writes 'x' only for a capture.",
                                mv.san
                            ),
                        )
                        .at_move(mv)
                        .with_fen(fen(&pos)),
                    );
                }
                last = Some((number, token));
                pos.play_unchecked(m);
                None
            }
            (true, _) | (false, Err(SanError::IllegalSan)) if pos.is_game_over() => Some((
                Kind::IllegalMove,
                format!(
                    "cannot be played: under {} rules the game had ended ({}); the game is not replayed past it.",
                    name(variant),
                    why_ended(&pos, variant)
                ),
            )),
            (_, Err(SanError::AmbiguousSan)) => Some((
                Kind::AmbiguousMove,
                format!(
                    "fits more than one legal move for {} under {} rules; the game is not replayed past it.",
                    side(pos.turn()),
                    name(variant)
                ),
            )),
            _ => Some((
                Kind::IllegalMove,
                format!(
                    "cannot be played: it is not a legal move for {} under {} rules in this position; the game is not replayed past it.",
                    side(pos.turn()),
                    name(variant)
                ),
            )),
        };
        if let Some((kind, message)) = failed {
            let mv = mv();
            findings.push(
                Finding::new(kind, token.line, format!("'{}' {message}", mv.san))
                    .citing(rules)
                    .at_move(mv)
                    .with_fen(fen(&pos)),
            );
            return false;
        }
    }
    // The result stands where the record is read to its end.
    if game.lexed.stop.is_none() {
        judge_result(game, variant, &pos, last, recorded, findings);
    }
    true
}

/// `result-contradicts-variant-end`: the end the variant's rules decide in
/// the final position `pos`, reached by `last` (its number and token),
/// against the recorded result.
fn judge_result(
    game: &RawGame<'_>,
    variant: Variant,
    pos: &VariantPosition,
    last: Option<((Color, u32), &SanToken)>,
    recorded: Option<Option<KnownOutcome>>,
    findings: &mut Vec<Finding>,
) {
    let (Outcome::Known(decided), Some(recorded)) = (pos.outcome(), recorded) else {
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
                why_ended(pos, variant),
                result_text(Some(decided)),
                result_text(recorded),
            ),
        )
        .citing(Source::Lichess(variant))
        .with_fen(fen(pos)),
    );
}
