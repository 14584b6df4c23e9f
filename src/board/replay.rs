//! Plays a game's mainline moves on shakmaty: the plies that are legal, the
//! first move that is not (and why), the final position, and the moves whose
//! check or mate suffix disagrees with the board.

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, Position, Rank, Role, attacks,
    fen::Fen,
    san::{San, SanError, SanPlus, Suffix},
};

use crate::{
    board::lenient::{self, Form},
    finding::Listed,
    read::lexer::SanToken,
};

/// What a replay tells, ply by ply, to whoever keeps the positions (the
/// draw rules' `History`). Taken as `&mut impl Observer`, so a replay with
/// `Unobserved` costs nothing for it; the replay knows nothing of the draw
/// rules.
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
#[derive(Debug, Clone)]
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
}

/// Plays `moves` from `start` until one is not legal, telling `observer`
/// each position reached.
pub fn replay(start: &Chess, moves: &[SanToken], observer: &mut impl Observer) -> Replay {
    observer.start(start);
    let mut out = Replay {
        end: start.clone(),
        plies: moves.len(),
        stopped: None,
        suffix_issues: Listed::default(),
        readings: Listed::default(),
        false_ep_marks: Listed::default(),
    };
    let pos = &mut out.end;
    for (index, token) in moves.iter().enumerate() {
        // How the lexer read the token comes first: `Ng1-f3` resolves
        // strictly once read, but is long notation all the same.
        let resolved =
            lenient::resolve(token.san.san, pos).map(|(m, form)| (m, token.form.or(form)));
        let m = match resolved {
            Ok((m, None)) => m,
            Ok((m, Some(form))) => {
                out.readings.push(ReadingIssue {
                    index,
                    before: pos.clone(),
                    played: m,
                    form,
                });
                m
            }
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
        if token.ep_mark && !m.is_en_passant() {
            out.false_ep_marks.push(index);
        }
        // A move without a suffix is only judged when it is the last one: a
        // check written without `+` is common and not reported, and a mate
        // can only be the last move (nothing legal follows it), so only the
        // last move needs the mate test.
        let written = token.san.suffix;
        let last = index + 1 == moves.len();
        let before = (written.is_some() || last).then(|| pos.clone());
        pos.play_unchecked(m);
        if observer.open() {
            observer.ply(pos, m);
        }
        if let Some(before) = before {
            let board = board_suffix(pos, last);
            if board != written && !(board == Some(Suffix::Check) && written.is_none()) {
                out.suffix_issues.push(SuffixIssue {
                    index,
                    before,
                    board,
                });
            }
        }
    }
    observer.finish();
    out
}

/// The legal move `san` names in `pos`, as `San::to_move` finds it.
///
/// When the king is not in check, the candidates for a move to a square are
/// the pieces of that kind that reach it (a pawn: by its capture or its one
/// or two steps forward; the king: to a square no enemy piece attacks), less
/// those pinned off the line to their king: the tests shakmaty makes, without
/// building its list of every candidate move, which is returned by value and
/// costs more to copy than the tests. Checks, castling and en passant are
/// left to shakmaty. A test holds the two to the same answer on every move
/// of the corpora and every way of writing a move in sampled positions.
pub fn to_move(san: San, pos: &Chess) -> Result<Move, SanError> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return san.to_move(pos);
    };
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return san.to_move(pos);
    };
    if pos.checkers().any() || (role == Role::Pawn && capture && !occupied.contains(to)) {
        return san.to_move(pos);
    }
    // Never onto one's own piece; `x` exactly when there is a piece to take;
    // a pawn promotes exactly on the last rank, to a piece.
    let last_rank = to.rank() == turn.fold_wb(Rank::Eighth, Rank::First);
    let promotes = match promotion {
        None => false,
        Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) => true,
        Some(_) => return Err(SanError::IllegalSan),
    };
    if board.by_color(turn).contains(to)
        || capture != occupied.contains(to)
        || promotes != (role == Role::Pawn && last_rank)
    {
        return Err(SanError::IllegalSan);
    }
    let ours = board.by_piece(role.of(turn));
    let mut from = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!turn, to) & ours,
        Role::Pawn => {
            let back = turn.fold_wb(-8, 8);
            match to.offset(back) {
                Some(one) if ours.contains(one) => Bitboard::from_square(one),
                Some(one)
                    if !occupied.contains(one)
                        && to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth) =>
                {
                    one.offset(back)
                        .filter(|&two| ours.contains(two))
                        .map_or(Bitboard::EMPTY, Bitboard::from_square)
                }
                _ => Bitboard::EMPTY,
            }
        }
        Role::King if board.attacks_to(to, !turn, occupied).any() => Bitboard::EMPTY,
        _ => attacks::attacks(to, role.of(turn), occupied) & ours,
    };
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    if from.is_empty() {
        return Err(SanError::IllegalSan);
    }
    // A piece that alone stands between its king and an enemy slider may
    // only move along that line.
    let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & board.by_color(!turn);
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() && (between & from).any() {
            let pinned = between.first().expect("one square");
            if !attacks::aligned(pinned, to, king) {
                from.discard(pinned);
            }
        }
    }
    let mut legal = from.into_iter();
    match (legal.next(), legal.next()) {
        (Some(from), None) => Ok(Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion,
        }),
        (None, _) => Err(SanError::IllegalSan),
        (Some(_), Some(_)) => Err(SanError::AmbiguousSan),
    }
}

/// Check or mate as the board shows it after a move; mate is only looked for
/// after the last move.
fn board_suffix(pos: &Chess, last: bool) -> Option<Suffix> {
    if !pos.is_check() {
        None
    } else if last && pos.is_checkmate() {
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
pub fn fen(pos: &Chess) -> String {
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
    use crate::{finding::MAX_LISTED, read::lexer::Lexed};

    /// Every SAN a move could be written as in `pos` (castling aside),
    /// legal or not: each piece kind and target square, with and without
    /// `x`, bare or with the file, rank or square of each piece of its kind,
    /// with and without a promotion. Each must resolve as shakmaty resolves
    /// it. Returns how many were tried.
    fn probe(pos: &Chess) -> usize {
        let mut tried = 0;
        for role in Role::ALL {
            let mut hints = vec![(None, None)];
            for square in pos.board().by_piece(role.of(pos.turn())) {
                hints.push((Some(square.file()), None));
                hints.push((None, Some(square.rank())));
                hints.push((Some(square.file()), Some(square.rank())));
            }
            let promotions: &[Option<Role>] = if role == Role::Pawn {
                &[
                    None,
                    Some(Role::Queen),
                    Some(Role::Knight),
                    Some(Role::King),
                ]
            } else {
                &[None, Some(Role::Queen)]
            };
            for to in shakmaty::Square::ALL {
                for capture in [false, true] {
                    for &(file, rank) in &hints {
                        for &promotion in promotions {
                            let san = San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            };
                            assert_eq!(to_move(san, pos), san.to_move(pos), "{} {san}", fen(pos));
                            tried += 1;
                        }
                    }
                }
            }
        }
        tried
    }

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

    #[test]
    fn to_move_agrees_with_shakmaty_on_pins_and_ambiguity() {
        let positions = [
            // The knight on d2 is pinned by the bishop on a5: Nf3 names the
            // one on g1 alone, Nb3 names no legal move.
            "4k3/8/8/b7/8/8/3N4/4K1N1 w - - 0 1",
            // The rook on e4 is pinned on the e-file: it may move along it.
            "4r1k1/8/8/8/R3R3/8/8/4K3 w - - 0 1",
            // Both knights reach d4, but the one on c2 is pinned: Nd4 is
            // not ambiguous.
            "2r4k/8/8/8/8/8/2N1N3/2K5 w - - 0 1",
            // The pawn on d2 is pinned: it may take the bishop but not
            // advance; the other pawns push one or two squares or promote.
            "4k3/6P1/8/8/8/2b5/3P3P/4K3 w - - 0 1",
            // En passant is possible: shakmaty decides.
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            // The king may not step next to the enemy king or onto an
            // attacked square.
            "8/8/8/3k4/8/3K4/8/7r w - - 0 1",
            // In check: shakmaty decides.
            "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1",
        ];
        let positions: Vec<Chess> = positions
            .iter()
            .map(|fen| {
                fen.parse::<Fen>()
                    .unwrap()
                    .into_position(shakmaty::CastlingMode::Standard)
                    .unwrap()
            })
            .collect();
        for pos in &positions {
            assert!(probe(pos) > 0);
        }
        let pinned = &positions[0];
        let san: San = "Nb3".parse().unwrap();
        assert_eq!(to_move(san, pinned), Err(SanError::IllegalSan));
        let san: San = "Nf3".parse().unwrap();
        assert!(to_move(san, pinned).is_ok());
        let two = &positions[2];
        let san: San = "Nd4".parse().unwrap();
        assert_eq!(
            to_move(san, two).map(|m| m.from()),
            Ok(Some(shakmaty::Square::E2))
        );
        let pawns = &positions[3];
        for (san, legal) in [
            ("dxc3", true),
            ("d3", false),
            ("h4", true),
            ("g8=N", true),
            ("g8", false),
        ] {
            let san: San = san.parse().unwrap();
            assert_eq!(to_move(san, pawns).is_ok(), legal, "{san}");
        }
    }

    /// Moves resolved and positions probed, every move of every game
    /// below `root` held to shakmaty's answer.
    fn to_move_agrees_below(root: &std::path::Path, probe_every: usize) -> (usize, usize) {
        let (mut moves, mut tried) = (0usize, 0usize);
        let mut tags = crate::read::game::Tags::default();
        let mut lexed = Lexed::default();
        for path in crate::testing::plain_pgn_files(root) {
            let bytes = std::fs::read(&path).unwrap();
            // Games are cut roughly, before each tag section: enough to
            // have real positions and the moves written in them.
            let mut starts: Vec<usize> = memchr::memmem::find_iter(&bytes, b"\n\n[")
                .map(|i| i + 2)
                .collect();
            starts.insert(0, 0);
            starts.push(bytes.len());
            for span in starts.windows(2) {
                lexed.scan(&bytes[span[0]..span[1]], 1, &mut tags);
                let start = match tags.get("FEN") {
                    Some(fen) => match Fen::from_ascii(fen) {
                        Ok(fen) => {
                            let mode = shakmaty::CastlingMode::detect(fen.as_setup());
                            match fen.into_position(mode) {
                                Ok(pos) => pos,
                                Err(_) => continue,
                            }
                        }
                        Err(_) => continue,
                    },
                    None => Chess::default(),
                };
                let mut pos = start;
                for token in &lexed.sans {
                    let san = token.san.san;
                    let theirs = san.to_move(&pos);
                    assert_eq!(
                        to_move(san, &pos),
                        theirs,
                        "{}: {san} in {}",
                        path.display(),
                        fen(&pos)
                    );
                    moves += 1;
                    if moves % probe_every == 0 {
                        tried += probe(&pos);
                    }
                    match theirs {
                        Ok(m) => pos.play_unchecked(m),
                        Err(_) => break,
                    }
                }
            }
        }
        (moves, tried)
    }

    #[test]
    fn to_move_agrees_with_shakmaty_on_the_fixtures() {
        let (moves, tried) = to_move_agrees_below(&crate::testing::fixtures(), 50);
        assert!(moves > 5_000, "only {moves} moves");
        assert!(tried > 50_000, "only {tried} probes");
    }

    #[test]
    #[ignore = "reads ../shared/corpora; .ci/run runs it"]
    fn to_move_agrees_with_shakmaty_on_the_shared_corpora() {
        let (moves, tried) = to_move_agrees_below(&crate::testing::corpora(), 2000);
        assert!(moves > 1_000_000, "only {moves} moves");
        assert!(tried > 1_000_000, "only {tried} probes");
    }

    fn play(movetext: &str) -> (Replay, Lexed) {
        let mut lexed = Lexed::default();
        lexed.scan(
            movetext.as_bytes(),
            1,
            &mut crate::read::game::Tags::default(),
        );
        (
            replay(&Chess::default(), &lexed.sans, &mut Unobserved),
            lexed,
        )
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
