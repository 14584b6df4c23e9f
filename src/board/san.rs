//! Strict SAN resolution: the legal move a SAN names, as shakmaty's
//! [`San::to_move`] finds it, without building the list of every legal move.
//! `lenient` resolves through it first; tests hold it to shakmaty on every
//! move of the fixtures (and of the shared corpora under `.ci/run`) and on
//! every way of writing a move in sampled positions.

use shakmaty::{
    Bitboard, Chess, Move, Position, Rank, Role, attacks,
    san::{San, SanError},
};

/// The legal move `san` names in `pos`, as [`San::to_move`] finds it.
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
        if !between.more_than_one()
            && (between & from).any()
            && let Some(pinned) = between.first()
            && !attacks::aligned(pinned, to, king)
        {
            from.discard(pinned);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{board::replay::fen, read::lexer::Lexed};
    use shakmaty::fen::Fen;

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
        let mut tags = crate::read::tags::Tags::default();
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
}
