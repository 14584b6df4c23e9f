//! Strict SAN resolution: the legal move a SAN names, as shakmaty's
//! [`San::to_move`] finds it, without building the list of every legal move;
//! and whether a position has a legal move at all, found the same way.
//! `lenient` resolves through `to_move` first; tests hold both to shakmaty on
//! every move of the fixtures (and of the shared corpora under `.ci/run`),
//! and `to_move` on every way of writing a move in sampled positions.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square, attacks,
    san::{San, SanError},
};

/// The legal move `san` names in `pos`, as [`San::to_move`] finds it.
///
/// The candidates for a move to a square are the pieces of that kind that
/// reach it (a pawn: by its capture or its one or two steps forward; the
/// king: to a square no enemy piece attacks once the king has left its
/// own), less those pinned off the line to their king; in check, a piece
/// other than the king must take the one checking piece or step between
/// it and the king, and in double check only the king moves. These are the
/// tests shakmaty makes, without building its list of every candidate move,
/// which is returned by value and costs more to copy than the tests.
/// Castling tests the squares shakmaty's castling moves test (`castle`);
/// en passant is left to shakmaty. A test holds the two to the same
/// answer on every move of the corpora, and on every way of writing a
/// move in sampled positions and in every position in check.
pub fn to_move(san: San, pos: &Chess) -> Result<Move, SanError> {
    to_move_inlined(san, pos).map(|(m, _)| m)
}

/// [`to_move`], inlined into the replay's loop (`lenient::resolve`), where
/// the call's frame cost about 30 of a move's thousand instructions; with
/// the pieces that reach the move's square whatever from-file or rank it
/// is written with, pins not looked at (`None` where the move is left to
/// shakmaty): [`unpinned`] tells which of them can make it, without
/// finding them again.
#[inline(always)]
pub fn to_move_inlined(san: San, pos: &Chess) -> Result<(Move, Option<Bitboard>), SanError> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return match san {
            San::Castle(side) => castle(pos, side),
            _ => san.to_move(pos),
        }
        .map(|m| (m, None));
    };
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return san.to_move(pos).map(|m| (m, None));
    };
    if role == Role::Pawn && capture && !occupied.contains(to) {
        return san.to_move(pos).map(|m| (m, None));
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
    let reaching = movers(pos, role, capture, to, king);
    let mut from = reaching;
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    if from.is_empty() {
        return Err(SanError::IllegalSan);
    }
    unpin(board, turn, king, to, &mut from);
    let mut legal = from.into_iter();
    match (legal.next(), legal.next()) {
        (Some(from), None) => Ok((
            Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            },
            Some(reaching),
        )),
        (None, _) => Err(SanError::IllegalSan),
        (Some(_), Some(_)) => Err(SanError::AmbiguousSan),
    }
}

/// The squares of the pieces that can legally make the move `san` names,
/// whatever from-file or rank it is written with: for a `san` that
/// [`to_move`] resolves (its square, capture mark and promotion are
/// right), to tell which from-file or rank it needs. `None` for castling
/// and where [`to_move`] leaves the move to shakmaty.
#[cfg(test)]
pub fn legal_froms(san: San, pos: &Chess) -> Option<Bitboard> {
    let San::Normal {
        role, capture, to, ..
    } = san
    else {
        return None;
    };
    let board = pos.board();
    let turn = pos.turn();
    let king = board.king_of(turn)?;
    if role == Role::Pawn && capture && !board.occupied().contains(to) {
        return None;
    }
    Some(unpinned(pos, to, movers(pos, role, capture, to, king)))
}

/// The pieces of `reaching` (of the side to move, with a king) that can
/// move to `to` as far as pins say.
pub fn unpinned(pos: &Chess, to: Square, reaching: Bitboard) -> Bitboard {
    let board = pos.board();
    let turn = pos.turn();
    let mut from = reaching;
    if let Some(king) = board.king_of(turn) {
        unpin(board, turn, king, to, &mut from);
    }
    from
}

/// The pieces of kind `role` that reach `to` ([`reach`]) and may go there
/// as far as a check on their king says: in check, a piece other than the
/// king must take the one checking piece or step between it and the king.
/// Pins are not looked at.
#[inline(always)]
fn movers(pos: &Chess, role: Role, capture: bool, to: Square, king: Square) -> Bitboard {
    let board = pos.board();
    let from = reach(pos, role, capture, to, king);
    // The checkers are looked for only when some piece reaches the square.
    if role != Role::King && from.any() {
        let checkers = attackers(board, king, !pos.turn(), board.occupied());
        if checkers.any() {
            let answers = match checkers.single_square() {
                Some(checker) => attacks::between(king, checker).with(checker),
                None => Bitboard::EMPTY,
            };
            if !answers.contains(to) {
                return Bitboard::EMPTY;
            }
        }
    }
    from
}

/// Castling on `side`, as shakmaty's `castling_moves` finds it: a rook
/// that still holds the right on that side, nothing on the squares the
/// king and the rook cross or reach, and no square the king stands on,
/// passes or reaches attacked (the last with the king and the rook gone
/// from theirs). shakmaty builds a list of moves to return one; this
/// tests the same squares with `attackers`.
#[inline(never)]
fn castle(pos: &Chess, side: CastlingSide) -> Result<Move, SanError> {
    let board = pos.board();
    let turn = pos.turn();
    let castles = pos.castles();
    let Some(king) = board.king_of(turn) else {
        return San::Castle(side).to_move(pos);
    };
    let Some(rook) = castles.rook(turn, side) else {
        return Err(SanError::IllegalSan);
    };
    let occupied = board.occupied();
    if (castles.path(turn, side) & occupied).any() {
        return Err(SanError::IllegalSan);
    }
    let king_to = side.king_to(turn);
    let after = occupied ^ king ^ rook ^ side.rook_to(turn);
    if attackers(board, king_to, !turn, after).any() {
        return Err(SanError::IllegalSan);
    }
    let without_king = occupied ^ king;
    if attacks::between(king, king_to)
        .with(king)
        .into_iter()
        .any(|sq| attackers(board, sq, !turn, without_king).any())
    {
        return Err(SanError::IllegalSan);
    }
    Ok(Move::Castle { king, rook })
}

/// The pieces of kind `role` of the side to move that reach `to`, the
/// king being on `king`: a pawn by its capture or its steps forward, the
/// king only to a square no enemy piece attacks once it has left its own.
#[inline(always)]
fn reach(pos: &Chess, role: Role, capture: bool, to: Square, king: Square) -> Bitboard {
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    let ours = board.by_piece(role.of(turn));
    match role {
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
        // A slider checking the king also attacks the squares behind it.
        Role::King if attackers(board, to, !turn, occupied.without(king)).any() => Bitboard::EMPTY,
        Role::Knight => attacks::knight_attacks(to) & ours,
        Role::Bishop => sliders_reaching(to, occupied, Bitboard::EMPTY, ours),
        Role::Rook => sliders_reaching(to, occupied, ours, Bitboard::EMPTY),
        Role::Queen => sliders_reaching(to, occupied, ours, ours),
        Role::King => attacks::king_attacks(to) & ours,
    }
}

/// The squares a rook reaches from each square of an empty board.
static STRAIGHT: [Bitboard; 64] = lines(false);

/// The squares a bishop reaches from each square of an empty board.
static DIAGONAL: [Bitboard; 64] = lines(true);

/// For each square, the others on its rank and file, or on its diagonals.
const fn lines(diagonal: bool) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut from = 0;
    while from < 64 {
        let (file, rank) = (from as i32 % 8, from as i32 / 8);
        let mut to = 0;
        while to < 64 {
            let (df, dr) = (to as i32 % 8 - file, to as i32 / 8 - rank);
            let on_line = if diagonal {
                df == dr || df == -dr
            } else {
                df == 0 || dr == 0
            };
            if to != from && on_line {
                table[from].0 |= 1 << to;
            }
            to += 1;
        }
        from += 1;
    }
    table
}

/// The pieces among `straight` (moving as a rook) and `diagonal` (as a
/// bishop) that reach `to` with `occupied` squares in the way: what
/// `rook_attacks(to, occupied) & straight | bishop_attacks(to, occupied) &
/// diagonal` says. Each piece on a line with `to` is tested for an empty
/// way between instead: shakmaty's attacks come from a table of 700 KB,
/// and a lookup in it, at a different place for every arrangement of the
/// pieces, misses the processor's caches: such lookups held about a tenth
/// of one thread's time (sampled by `perf`), where the few pieces on a
/// line and the squares between two (a table of 32 KB) are at hand.
#[inline(always)]
fn sliders_reaching(
    to: Square,
    occupied: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
) -> Bitboard {
    let mut reaching = Bitboard::EMPTY;
    for from in (STRAIGHT[to.to_usize()] & straight) | (DIAGONAL[to.to_usize()] & diagonal) {
        if (attacks::between(from, to) & occupied).is_empty() {
            reaching.add(from);
        }
    }
    reaching
}

/// The pieces of `attacker` that attack `sq` with `occupied` squares in the
/// way, as `Board::attacks_to` finds them (by `sliders_reaching` for rooks,
/// bishops and queens).
#[inline(always)]
fn attackers(board: &Board, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
    let theirs = board.by_color(attacker);
    sliders_reaching(
        sq,
        occupied,
        board.rooks_and_queens() & theirs,
        board.bishops_and_queens() & theirs,
    ) | (theirs
        & ((attacks::knight_attacks(sq) & board.knights())
            | (attacks::king_attacks(sq) & board.kings())
            | (attacks::pawn_attacks(!attacker, sq) & board.pawns())))
}

/// Takes out of `from` a piece that alone stands between its king (on
/// `king`) and an enemy slider, unless it moves to `to` along that line.
#[inline(always)]
fn unpin(board: &Board, turn: Color, king: Square, to: Square, from: &mut Bitboard) {
    let occupied = board.occupied();
    let (straight, diagonal) = (STRAIGHT[king.to_usize()], DIAGONAL[king.to_usize()]);
    let snipers = if ((straight | diagonal) & *from).any() {
        ((straight & board.rooks_and_queens()) | (diagonal & board.bishops_and_queens()))
            & board.by_color(!turn)
    } else {
        Bitboard::EMPTY
    };
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one()
            && (between & *from).any()
            && let Some(pinned) = between.first()
            && !attacks::aligned(pinned, to, king)
        {
            from.discard(pinned);
        }
    }
}

/// Whether the side to move is in check, as `pos.is_check()` says.
pub fn is_check(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    board
        .king_of(turn)
        .is_some_and(|king| attackers(board, king, !turn, board.occupied()).any())
}

/// Whether the side to move has a legal move, as `!legal_moves().is_empty()`
/// says: a king step to a square no enemy piece attacks once the king has
/// left its own is one, found without listing every move; else the list
/// decides.
pub fn has_legal_move(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    if let Some(king) = board.king_of(turn) {
        let occupied = board.occupied().without(king);
        let steps = attacks::king_attacks(king) & !board.by_color(turn);
        if steps
            .into_iter()
            .any(|to| attackers(board, to, !turn, occupied).is_empty())
        {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{board::replay::fen, read::lexer::Lexed};
    use shakmaty::fen::Fen;

    /// Every SAN a move could be written as in `pos`, legal or not: both
    /// castlings, and each piece kind and target square, with and without
    /// `x`, bare or with the file, rank or square of each piece of its kind,
    /// with and without a promotion. Each must resolve as shakmaty resolves
    /// it. Returns how many were tried.
    fn probe(pos: &Chess) -> usize {
        let mut tried = 0;
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let san = San::Castle(side);
            assert_eq!(to_move(san, pos), san.to_move(pos), "{} {san}", fen(pos));
            tried += 1;
        }
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
                            let resolved = to_move(san, pos);
                            assert_eq!(resolved, san.to_move(pos), "{} {san}", fen(pos));
                            // The pieces the move hands on, unpinned, are
                            // those that can make it, however written.
                            if let Ok((_, reaching)) = to_move_inlined(san, pos) {
                                assert_eq!(
                                    reaching.map(|r| unpinned(pos, to, r)),
                                    legal_froms(san, pos),
                                    "{} {san}",
                                    fen(pos)
                                );
                            }
                            if role != Role::Pawn
                                && let Ok(m) = resolved
                            {
                                assert_standard_form_told(pos, san, m);
                            }
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
            // In check by a queen beside the king: take it (the king or
            // the rook), or step away, not along the queen's lines.
            "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1",
            // In check by a rook from afar: block it (the knight, the
            // bishop, a pawn's two steps), take it, or step off the file;
            // not back along it. The knight on e2 is pinned by the bishop.
            "4r1k1/8/8/8/8/1N3B2/P3N3/4K3 w - - 0 1",
            // In check by a knight: only taking it or a king move answer.
            "4k3/8/8/8/8/3n4/1B6/R3K2R w KQ - 0 1",
            // In double check (rook and bishop): only the king moves.
            "4r1k1/8/8/8/8/2b5/8/R3K1NR w K - 0 1",
            // In check by a pawn that has just stepped two squares: taken
            // en passant (shakmaty decides) or by the king.
            "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2",
            // A promotion that blocks a check.
            "r3k3/1P6/8/8/8/8/8/K7 w - - 0 1",
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
            assert!(has_legal_move(pos));
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

    #[test]
    fn castling_agrees_with_shakmaty() {
        let positions = [
            // Both ways open.
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2),
            // A bishop attacks f1, which the king passes: only O-O-O.
            ("r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1", 1),
            // A knight on b1, on the queen side's way (not the king's).
            ("r3k2r/8/8/8/8/8/8/Rn2K2R w KQkq - 0 1", 1),
            // In check: neither.
            ("r3k2r/8/8/8/8/8/8/R3K2r w Qkq - 0 1", 0),
            // g1, where the king goes, is attacked down the g-file.
            ("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", 1),
            // Black, with only the queen side's right.
            ("r3k2r/8/8/8/8/8/8/R3K2R b Qq - 0 1", 1),
            // Chess960: king on b1, rooks on a1 and g1, both ways open.
            ("r4k1r/8/8/8/8/8/8/RK4R1 w AGah - 0 1", 2),
            // Chess960: the king on f1 would go to g1, where its own rook
            // stands and which the rook on g8 attacks once that rook has
            // left: only O-O-O.
            ("k5r1/8/8/8/8/8/8/4RKR1 w EG - 0 1", 1),
        ];
        for (fen, castlings) in positions {
            let setup = fen.parse::<Fen>().unwrap();
            let mode = shakmaty::CastlingMode::detect(setup.as_setup());
            let pos: Chess = setup.into_position(mode).unwrap();
            let mut legal = 0;
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                let san = San::Castle(side);
                assert_eq!(to_move(san, &pos), san.to_move(&pos), "{fen} {san}");
                legal += usize::from(to_move(san, &pos).is_ok());
            }
            assert_eq!(legal, castlings, "{fen}");
        }
    }

    #[test]
    fn sliders_reaching_agrees_with_shakmatys_attacks() {
        // Pseudo-random boards (xorshift), sparse and dense, and sliders
        // among their pieces.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2_000 {
            let occupied = Bitboard(next() & next() | next() & next() & next());
            let straight = occupied & Bitboard(next());
            let diagonal = occupied & Bitboard(next());
            for to in Square::ALL {
                assert_eq!(
                    sliders_reaching(to, occupied, straight, diagonal),
                    (attacks::rook_attacks(to, occupied) & straight)
                        | (attacks::bishop_attacks(to, occupied) & diagonal),
                    "{to} {occupied:?}"
                );
            }
        }
        for sq in Square::ALL {
            assert_eq!(
                STRAIGHT[sq.to_usize()],
                attacks::rook_attacks(sq, Bitboard::EMPTY)
            );
            assert_eq!(
                DIAGONAL[sq.to_usize()],
                attacks::bishop_attacks(sq, Bitboard::EMPTY)
            );
        }
    }

    #[test]
    fn has_legal_move_agrees_with_shakmaty_where_the_king_cannot_step() {
        for (fen, any) in [
            // Mate: the king's squares are covered or its own.
            ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", false),
            // Stalemate.
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false),
            // The king is walled in by its own pawns, but they move.
            ("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", true),
            // Back-rank mate: h8 is attacked through the king by the
            // checking rook.
            ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", false),
            // The same with a knight that can block.
            ("R5k1/5ppp/4n3/8/8/8/8/6K1 b - - 0 1", true),
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            assert_eq!(!pos.legal_moves().is_empty(), any, "{fen}");
            assert_eq!(has_legal_move(&pos), any, "{fen}");
        }
    }

    /// Moves resolved and SANs probed, every move of every game below
    /// `root` held to shakmaty's answer; every `probe_every`th position
    /// probed, and every `check_every`th position in check.
    fn to_move_agrees_below(
        root: &std::path::Path,
        probe_every: usize,
        check_every: usize,
    ) -> (usize, usize) {
        let (mut moves, mut tried, mut checks) = (0usize, 0usize, 0usize);
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
                    assert_eq!(
                        has_legal_move(&pos),
                        !pos.legal_moves().is_empty(),
                        "{}",
                        fen(&pos)
                    );
                    let in_check = pos.is_check();
                    assert_eq!(is_check(&pos), in_check, "{}", fen(&pos));
                    checks += usize::from(in_check);
                    if moves % probe_every == 0 || (in_check && checks % check_every == 0) {
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

    /// `lenient::resolve` says a piece's move `san`, which names `m`, is
    /// written in a form other than the standard one exactly where its
    /// from-file and rank are not those of shakmaty's SAN of `m`.
    fn assert_standard_form_told(pos: &Chess, san: San, m: Move) {
        let (
            San::Normal { file, rank, .. },
            San::Normal {
                file: f, rank: r, ..
            },
        ) = (san, San::from_move(pos, m))
        else {
            panic!("{} {san}: not a piece's move", fen(pos));
        };
        let form = ((file, rank) != (f, r)).then_some(crate::read::notation::Form::Disambiguation);
        assert_eq!(
            crate::board::lenient::resolve(san, pos),
            Ok((m, form)),
            "{} {san}",
            fen(pos)
        );
    }

    #[test]
    fn to_move_agrees_with_shakmaty_on_the_fixtures() {
        let (moves, tried) = to_move_agrees_below(&crate::testing::fixtures(), 50, 1);
        assert!(moves > 5_000, "only {moves} moves");
        assert!(tried > 50_000, "only {tried} probes");
    }

    #[test]
    #[ignore = "reads ../shared/corpora; .ci/run runs it"]
    fn to_move_agrees_with_shakmaty_on_the_shared_corpora() {
        let (moves, tried) = to_move_agrees_below(&crate::testing::corpora(), 2000, 40);
        assert!(moves > 1_000_000, "only {moves} moves");
        assert!(tried > 1_000_000, "only {tried} probes");
    }
}
