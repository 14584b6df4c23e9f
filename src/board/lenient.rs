//! Import leniency: the one place that decides how a move written in a form
//! PGN does not use is read, when its meaning is plain (PGN 8.2.3: import
//! software should accept such text; export writes standard SAN).
//!
//! A move is first resolved strictly. When that finds no legal move, the
//! plain readings are tried in turn, and the first that names exactly one
//! legal move is taken:
//!
//! 1. a from-square and a to-square (long algebraic or UCI without the
//!    piece letter): `g1f3`, `e1g1` (castling), `e4d5`;
//! 2. the capture mark the other way round: `Ne5` or `ed5` that takes,
//!    `Nxe5` to an empty square.
//!
//! A reading that fits two legal moves is [`SanError::AmbiguousSan`],
//! never a guess. A pawn move written with its from-square (`e2e4`)
//! resolves strictly but is long notation all the same, and is reported as
//! such. Every move read this way comes with its [`Form`], which
//! `checks::moves` reports as `non-standard-san` with the standard form.

use shakmaty::{
    Bitboard, Chess, Move, Role, Square,
    san::{San, SanError},
    uci::UciMove,
};

use crate::{
    board::san::{to_move, to_move_inlined},
    read::notation::Form,
};

/// The move a written SAN names in `pos`, strictly or by a plain reading,
/// and which reading it took (`None`: standard form).
///
/// Inlined where the replay calls it: most moves resolve strictly and are
/// written without a from-square, and that path is a few tests long.
#[inline(always)]
pub fn resolve(san: San, pos: &Chess) -> Result<(Move, Option<Form>), SanError> {
    match to_move_inlined(san, pos) {
        Ok((m, reaching)) => {
            let form = match san {
                // Nothing written beyond the piece and the square, or a
                // pawn's file only: the standard form (as `strict_form`
                // finds, without the call).
                San::Normal {
                    file: None,
                    rank: None,
                    ..
                }
                | San::Normal {
                    role: Role::Pawn,
                    rank: None,
                    ..
                } => None,
                _ => strict_form(san, pos, m, reaching),
            };
            Ok((m, form))
        }
        Err(SanError::AmbiguousSan) => Err(SanError::AmbiguousSan),
        Err(failed) => plain_reading(san, pos, failed),
    }
}

/// The plain readings of a SAN that names no legal move strictly, in
/// turn; `failed` when none names one.
#[cold]
#[inline(never)]
fn plain_reading(
    san: San,
    pos: &Chess,
    failed: SanError,
) -> Result<(Move, Option<Form>), SanError> {
    // Long notation is read as the squares it names first: `e4d5` is a
    // capture written in squares, not a SAN without its `x`.
    if let San::Normal {
        role: Role::Pawn,
        file: Some(file),
        rank: Some(rank),
        to,
        promotion,
        ..
    } = san
    {
        let uci = UciMove::Normal {
            from: Square::from_coords(file, rank),
            to,
            promotion,
        };
        if let Ok(m) = uci.to_move(pos) {
            return Ok((m, Some(Form::Squares)));
        }
    }
    if let Some((flipped, form)) = flip_capture(san) {
        match to_move(flipped, pos) {
            Ok(m) => return Ok((m, Some(form))),
            Err(SanError::AmbiguousSan) => return Err(SanError::AmbiguousSan),
            Err(SanError::IllegalSan) => {}
        }
    }
    Err(failed)
}

/// How a move that resolved strictly departs from standard SAN: a pawn
/// move with its from-square (`e2e4`), or a from-file, rank or square that
/// is not needed, or not the one PGN 8.2.3.4 prefers (`Ngf3` where `Nf3` is
/// unique, `N1d2` for `Nbd2`). Only moves written with one are looked at.
/// `reaching` are the pieces that reach the square, as `to_move_inlined`
/// found them.
#[inline(never)]
fn strict_form(san: San, pos: &Chess, m: Move, reaching: Option<Bitboard>) -> Option<Form> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        ..
    } = san
    else {
        return None;
    };
    if role == Role::Pawn {
        return (file.is_some() && rank.is_some()).then_some(Form::Squares);
    }
    let from = m.from()?;
    // Less than what was written, in PGN's order of preference: nothing,
    // the file, the rank. If one of them is enough, what was written is
    // not the standard form: where it leaves exactly one of the pieces
    // that could make the move.
    if let Some(froms) = reaching.map(|reaching| crate::board::san::unpinned(pos, to, reaching)) {
        let one = |squares: Bitboard| (froms & squares).count() == 1;
        let needless = match (file, rank) {
            (None, None) => false,
            (Some(_), None) => one(Bitboard::FULL),
            (None, Some(_)) => one(Bitboard::FULL) || one(Bitboard::from_file(from.file())),
            (Some(_), Some(_)) => {
                one(Bitboard::FULL)
                    || one(Bitboard::from_file(from.file()))
                    || one(Bitboard::from_rank(from.rank()))
            }
        };
        return needless.then_some(Form::Disambiguation);
    }
    // Without a king on the board (`to_move_inlined` leaves such a position
    // to shakmaty), each shorter form is resolved.
    let enough = |less_file, less_rank| {
        let mut less = san;
        if let San::Normal { file, rank, .. } = &mut less {
            (*file, *rank) = (less_file, less_rank);
        }
        to_move(less, pos).is_ok()
    };
    let needless = match (file, rank) {
        (None, None) => false,
        (Some(_), None) => enough(None, None),
        (None, Some(_)) => enough(None, None) || enough(Some(from.file()), None),
        (Some(_), Some(_)) => {
            enough(None, None) || enough(Some(from.file()), None) || enough(None, Some(from.rank()))
        }
    };
    needless.then_some(Form::Disambiguation)
}

/// The same move with the capture mark the other way round, and what that
/// says about how it was written.
pub fn flip_capture(san: San) -> Option<(San, Form)> {
    let mut flipped = san;
    let San::Normal { capture, .. } = &mut flipped else {
        return None;
    };
    *capture = !*capture;
    let form = if *capture {
        Form::CaptureWithoutMark
    } else {
        Form::MarkWithoutCapture
    };
    Some((flipped, form))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// Each written form, in a position, and what it is read as.
    #[test]
    fn plain_readings() {
        // White: Ng1, Nc3, pawns e4; black pawns d5, e5 (en passant on d6
        // after ...d7-d5 is set in the FEN where needed).
        let open = position("rnbqkbnr/ppp2ppp/8/3pp3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq d6 0 3");
        let castle = position("r3k2r/pppq1ppp/2n2n2/4p3/4P3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8");
        let promote = position("8/4P1k1/8/8/8/8/5K2/8 w - - 0 1");
        let two_knights = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        type Want = Result<(&'static str, Option<Form>), SanError>;
        let cases: &[(&Chess, &str, Want)] = &[
            (&open, "exd5", Ok(("exd5", None))),
            (&open, "ed5", Ok(("exd5", Some(Form::CaptureWithoutMark)))),
            (&open, "Nd5", Ok(("Nxd5", Some(Form::CaptureWithoutMark)))),
            (&open, "Nxf3", Ok(("Nf3", Some(Form::MarkWithoutCapture)))),
            (&open, "Nf3", Ok(("Nf3", None))),
            (&open, "g1f3", Ok(("Nf3", Some(Form::Squares)))),
            (&open, "e4d5", Ok(("exd5", Some(Form::Squares)))),
            (&open, "a2a4", Ok(("a4", Some(Form::Squares)))),
            (&open, "Nd6", Err(SanError::IllegalSan)),
            (&open, "g1g3", Err(SanError::IllegalSan)),
            (&castle, "e1g1", Ok(("O-O", Some(Form::Squares)))),
            (&castle, "e1c1", Ok(("O-O-O", Some(Form::Squares)))),
            // Both knights reach the empty d2: `Nxd2`'s plain reading fits
            // both, so it stays ambiguous.
            (&two_knights, "Nd2", Err(SanError::AmbiguousSan)),
            (&two_knights, "Nxd2", Err(SanError::AmbiguousSan)),
            (&two_knights, "Nbd2", Ok(("Nbd2", None))),
            (
                &two_knights,
                "N1d2",
                Ok(("Nbd2", Some(Form::Disambiguation))),
            ),
            (
                &two_knights,
                "Nb1d2",
                Ok(("Nbd2", Some(Form::Disambiguation))),
            ),
            (&open, "Ngf3", Ok(("Nf3", Some(Form::Disambiguation)))),
            (&promote, "e7e8=Q", Ok(("e8=Q", Some(Form::Squares)))),
            (&promote, "e8=N", Ok(("e8=N", None))),
        ];
        for (pos, written, want) in cases {
            let san: San = written.parse().unwrap();
            let got =
                resolve(san, pos).map(|(m, form)| (San::from_move(*pos, m).to_string(), form));
            let want = want.clone().map(|(s, form)| (s.to_owned(), form));
            assert_eq!(got, want, "{written}");
        }
    }

    #[test]
    fn en_passant_without_the_capture_mark() {
        let pos = position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        let san: San = "ef6".parse().unwrap();
        let (m, form) = resolve(san, &pos).unwrap();
        assert!(m.is_en_passant());
        assert_eq!(form, Some(Form::CaptureWithoutMark));
    }
}
