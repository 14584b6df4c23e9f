//! Plays a game's mainline moves on shakmaty: the plies that are legal, the
//! first move that is not (and why), the final position, and the moves whose
//! check or mate suffix disagrees with the board.

use shakmaty::{
    Chess, Color, EnPassantMode, Move, Position,
    fen::Fen,
    san::{San, SanError, SanPlus, Suffix},
};

use crate::{board::lenient, read::lexer::SanToken, read::listed::Listed, read::notation::Form};

/// What a replay tells, ply by ply, to whoever keeps the positions (the
/// draw rules' [`History`]). Taken as `&mut impl Observer`, so a replay with
/// [`Unobserved`] costs nothing for it; the replay knows nothing of the draw
/// rules.
///
/// [`History`]: crate::checks::draws::history::History
pub trait Observer {
    /// The game starts at `start`.
    fn start(&mut self, start: &Chess);
    /// Whether it still wants plies (not once the game has ended by
    /// itself).
    fn open(&self) -> bool;
    /// `after` was reached by `m`.
    fn ply(&mut self, after: &Chess, m: Move);
    /// No more plies.
    fn finish(&mut self);
}

/// An observer that wants nothing.
#[derive(Debug, Default)]
pub struct Unobserved;

impl Observer for Unobserved {
    fn start(&mut self, _: &Chess) {}
    fn open(&self) -> bool {
        false
    }
    fn ply(&mut self, _: &Chess, _: Move) {}
    fn finish(&mut self) {}
}

/// Why a move could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The SAN matches no legal move.
    Illegal,
    /// The SAN matches more than one legal move.
    Ambiguous,
}

/// The first move that could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// Index of the move in the mainline (0-based; the ply is `index + 1`).
    pub index: usize,
    /// Why.
    pub failure: Failure,
}

/// A move whose written suffix disagrees with the position it produces.
#[derive(Debug, Clone)]
pub struct SuffixIssue {
    /// Index of the move in the mainline.
    pub index: usize,
    /// The position before the move.
    pub before: Chess,
    /// What the board says the suffix should be: `None` no check, else check
    /// or mate.
    pub board: Option<Suffix>,
}

/// A move written in a form PGN does not use, read as it plainly means.
#[derive(Debug, Clone)]
pub struct ReadingIssue {
    /// Index of the move in the mainline.
    pub index: usize,
    /// The position before the move.
    pub before: Chess,
    /// The move it was read as.
    pub played: Move,
    /// How it was written.
    pub form: Form,
}

/// A move not written in standard SAN, as standard SAN writes it: what
/// `--fix` puts in its place. Kept for every such move, not only the first
/// `MAX_LISTED`, and only when asked for ([`Replay::corrections`]).
///
/// [`MAX_LISTED`]: crate::read::listed::MAX_LISTED
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// Index of the move in the mainline.
    pub index: usize,
    /// Written in a form PGN does not use (a [`ReadingIssue`]).
    pub form: bool,
    /// Its `+` or `#` is wrong (a [`SuffixIssue`]).
    pub suffix: bool,
    /// The move in standard SAN.
    pub standard: SanPlus,
}

/// The outcome of replaying a mainline.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The position after the last legal move.
    pub end: Chess,
    /// How many moves were played.
    pub plies: usize,
    /// The move replay stopped at, if any.
    pub stopped: Option<Stopped>,
    /// Moves with a wrong `+` or `#`.
    pub suffix_issues: Listed<SuffixIssue>,
    /// Moves read by a plain reading (`lenient`).
    pub readings: Listed<ReadingIssue>,
    /// Indices of the moves marked `e.p.` that take no pawn en passant.
    pub false_ep_marks: Listed<usize>,
    /// Every move not written in standard SAN, with its standard SAN, when
    /// the replay was asked for them (`--fix`); else empty.
    pub corrections: Vec<Correction>,
    /// A 128-bit hash of the moves played, as resolved (from, to,
    /// promotion), whatever way each was written: a game's identity.
    pub moves: u128,
}

/// A move's code in the hash: its origin (64 for a drop), its target (for
/// castling, the rook's square), its promotion and whether it castles,
/// told by one match on the move.
fn move_code(m: &Move) -> u64 {
    match *m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => u64::from(from) | u64::from(to) << 8 | promotion.map_or(0, |r| r as u64) << 16,
        Move::EnPassant { from, to } => u64::from(from) | u64::from(to) << 8,
        Move::Castle { king, rook } => u64::from(king) | u64::from(rook) << 8 | 1 << 24,
        Move::Put { to, .. } => 64 | u64::from(to) << 8,
    }
}

/// Plays `moves` from `start` until one is not legal, telling `observer`
/// each position reached. With `corrections`, also the standard SAN of
/// every move written otherwise ([`Replay::corrections`]).
pub fn replay(
    start: &Chess,
    moves: &[SanToken],
    observer: &mut impl Observer,
    corrections: bool,
) -> Replay {
    observer.start(start);
    let mut out = Replay {
        end: start.clone(),
        plies: moves.len(),
        stopped: None,
        suffix_issues: Listed::default(),
        readings: Listed::default(),
        false_ep_marks: Listed::default(),
        corrections: Vec::new(),
        moves: 0,
    };
    let pos = &mut out.end;
    for (index, token) in moves.iter().enumerate() {
        // How the lexer read the token comes first: `Ng1-f3` resolves
        // strictly once read, but is long notation all the same.
        let (m, form) = match lenient::resolve(token.san.san, pos) {
            Ok((m, form)) => (m, token.form.or(form)),
            Err(err) => {
                let failure = match err {
                    SanError::IllegalSan => Failure::Illegal,
                    SanError::AmbiguousSan => Failure::Ambiguous,
                };
                out.plies = index;
                out.stopped = Some(Stopped { index, failure });
                break;
            }
        };
        if let Some(form) = form {
            out.readings.push(ReadingIssue {
                index,
                before: pos.clone(),
                played: m,
                form,
            });
        }
        if token.ep_mark && !m.is_en_passant() {
            out.false_ep_marks.push(index);
        }
        out.moves = crate::read::hash::lanes(out.moves, move_code(&m));
        // The position before, for a move whose suffix is judged or that
        // is written back.
        let written = token.san.suffix;
        let last = index + 1 == moves.len();
        let before =
            (written.is_some() || last || (corrections && form.is_some())).then(|| pos.clone());
        pos.play_unchecked(m);
        if observer.open() {
            observer.ply(pos, m);
        }
        let Some(before) = before else {
            continue;
        };
        let board = wrong_suffix(written, pos, last);
        if corrections && (form.is_some() || board.is_some()) {
            out.corrections.push(Correction {
                index,
                form: form.is_some(),
                suffix: board.is_some(),
                standard: SanPlus::from_move(before.clone(), m),
            });
        }
        if let Some(board) = board {
            out.suffix_issues.push(SuffixIssue {
                index,
                before,
                board,
            });
        }
    }
    observer.finish();
    out
}

/// The suffix the board shows after a move (`after`), when the one
/// `written` is wrong: `+` or `#` where the move gives no check or mate, or
/// a mate without `#`. A move without a suffix is judged only when it is
/// the `last` one: a check written without `+` is common and not reported,
/// and a mate can only be the last move (nothing legal follows it). The
/// one rule for the replay's `wrong-check-suffix` and `--fix`.
pub fn wrong_suffix(written: Option<Suffix>, after: &Chess, last: bool) -> Option<Option<Suffix>> {
    if written.is_none() && !last {
        return None;
    }
    let board = board_suffix(after, last);
    (board != written && !(board == Some(Suffix::Check) && written.is_none())).then_some(board)
}

/// Check or mate as the board shows it after a move; mate is only looked for
/// after the last move.
pub fn board_suffix(pos: &Chess, last: bool) -> Option<Suffix> {
    if !crate::board::san::is_check(pos) {
        None
    } else if last && !crate::board::san::has_legal_move(pos) {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The PGN move number of the move to be played in `pos`: `23.` or `23...`.
pub fn move_number(pos: &Chess) -> String {
    number_label(pos.turn(), pos.fullmoves().get())
}

/// The PGN move number of a move by `mover` in move `fullmoves`.
pub fn number_label(mover: Color, fullmoves: u32) -> String {
    match mover {
        Color::White => format!("{fullmoves}."),
        Color::Black => format!("{fullmoves}..."),
    }
}

/// The position as FEN, with an en passant square only when the capture is
/// legal.
pub fn fen(pos: &impl Position) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The legal moves that a SAN fits, written as SAN: what an ambiguous move
/// could have meant.
pub fn candidates(pos: &Chess, san: &SanPlus) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .filter(|m| san.san.matches(**m))
        .map(|m| San::from_move(pos, *m).to_string())
        .collect()
}

/// The side's name for messages.
pub fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{lexer::Lexed, listed::MAX_LISTED};

    #[test]
    fn false_en_passant_marks_past_the_list_are_counted() {
        let mut movetext = String::new();
        for n in 0..60 {
            movetext.push_str(&format!(
                "{}. Nf3 e.p. Nf6 e.p. {}. Ng1 Ng8 ",
                2 * n + 1,
                2 * n + 2
            ));
        }
        let (r, _) = play(&movetext);
        assert_eq!(r.false_ep_marks.listed().len(), MAX_LISTED);
        assert_eq!(r.false_ep_marks.unlisted().map(|(n, _)| n), Some(20));
    }

    fn play(movetext: &str) -> (Replay, Lexed) {
        let lexed = crate::testing::game(movetext).lexed;
        (
            replay(&Chess::default(), &lexed.sans, &mut Unobserved, false),
            lexed,
        )
    }

    /// A move's code is what `Move`'s accessors tell of it, for every kind
    /// of move.
    #[test]
    fn a_move_is_coded_as_its_accessors_tell_it() {
        let told = |m: &Move| {
            m.from().map_or(64, u64::from)
                | u64::from(m.to()) << 8
                | m.promotion().map_or(0, |r| r as u64) << 16
                | u64::from(m.is_castle()) << 24
        };
        let mut moves = vec![Move::Put {
            role: shakmaty::Role::Knight,
            to: shakmaty::Square::E4,
        }];
        for fen in [
            "4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1",
            "r3k2r/8/8/8/3pP3/8/1p6/4K3 b kq e3 0 1",
        ] {
            let setup: Fen = fen.parse().unwrap();
            let pos: Chess = setup
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            moves.extend(pos.legal_moves());
        }
        for (kind, is) in [
            ("promotion", Move::is_promotion as fn(Move) -> bool),
            ("en passant", Move::is_en_passant),
            ("castle", Move::is_castle),
        ] {
            assert!(moves.iter().any(|&m| is(m)), "no {kind} among the moves");
        }
        for m in &moves {
            assert_eq!(move_code(m), told(m), "{m:?}");
        }
    }

    #[test]
    fn plays_legal_moves_to_mate() {
        let (r, _) = play("1. f3 e5 2. g4 Qh4# 0-1");
        assert_eq!(r.plies, 4);
        assert!(r.stopped.is_none());
        assert!(r.end.is_checkmate());
        assert!(r.suffix_issues.listed().is_empty());
    }

    #[test]
    fn stops_at_an_illegal_move() {
        let (r, _) = play("1. e4 e5 2. Ke3 Nc6 *");
        assert_eq!(r.plies, 2);
        let stopped = r.stopped.unwrap();
        assert_eq!(stopped.index, 2);
        assert_eq!(stopped.failure, Failure::Illegal);
        assert_eq!(move_number(&r.end), "2.");
    }

    #[test]
    fn stops_at_an_ambiguous_move() {
        let (r, lexed) = play("1. Nf3 d5 2. d3 e5 3. Nd2 *");
        let stopped = r.stopped.unwrap();
        assert_eq!(stopped.failure, Failure::Ambiguous);
        let mut c = candidates(&r.end, &lexed.sans[stopped.index].san);
        c.sort();
        assert_eq!(c, ["Nbd2", "Nfd2"]);
    }

    #[test]
    fn null_moves_are_illegal() {
        let (r, _) = play("1. e4 -- 2. d4 *");
        assert_eq!(r.stopped.unwrap().failure, Failure::Illegal);
    }

    #[test]
    fn reports_wrong_suffixes_but_not_a_missing_plus() {
        // 2. Qh5 gives no check; 3. Bc4 is not check; 4. Qxf7 mates without '#'.
        let (r, _) = play("1. e4 e5 2. Qh5+ Nc6 3. Bc4# Nf6 4. Qxf7+ 1-0");
        let issues: Vec<(usize, Option<Suffix>)> = r
            .suffix_issues
            .listed()
            .iter()
            .map(|i| (i.index, i.board))
            .collect();
        assert_eq!(issues, [(2, None), (4, None), (6, Some(Suffix::Checkmate))]);
        let (r, _) = play("1. e4 f5 2. Qh5 *");
        assert!(
            r.suffix_issues.listed().is_empty(),
            "a check without '+' is fine"
        );
        let (r, _) = play("1. e4 f5 2. Qh5# *");
        assert_eq!(r.suffix_issues.listed()[0].board, Some(Suffix::Check));
        assert_eq!(
            fen(&r.suffix_issues.listed()[0].before),
            "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
    }

    #[test]
    fn fen_shows_en_passant_only_when_legal() {
        let (r, _) = play("1. e4 a6 2. e5 d5 *");
        assert_eq!(
            fen(&r.end),
            "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
        );
        let (r, _) = play("1. e4 d5 *");
        assert!(fen(&r.end).contains(" w KQkq - 0 2"));
    }
}
