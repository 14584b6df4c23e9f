//! Whether a side can still checkmate in a position by any series of legal
//! moves (FIDE 2023 6.9, 5.2.2): a lone king never can; otherwise CHA-Solver
//! (`chasolver`, the reference implementation of the Chess Unwinnability
//! Analyzer), which finds a helpmate line as a witness or proves none exists.

use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, Role};

/// How hard to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Search {
    /// chasolver's quick, sound but incomplete check.
    #[default]
    Fast,
    /// chasolver's complete analysis (helpmate search and static proofs).
    Full,
    /// The complete analysis, asked for every game lost on time.
    All,
}

/// The three honest answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Winnability {
    /// A helpmate exists (the line, in the `chess` crate's notation, is the
    /// witness).
    Winnable(usize),
    /// No series of legal moves lets the side mate.
    Unwinnable,
    /// Not decided: the quick check was inconclusive, the search gave up, or
    /// the position cannot be handed to chasolver exactly.
    Undetermined,
}

/// Whether `side` can still mate in `pos`.
pub fn winnability(pos: &Chess, side: Color, search: Search) -> Winnability {
    // A lone king never mates. (shakmaty's per-side material test is not
    // used: it calls two same-coloured bishops insufficient even where the
    // other side's rooks can block their own king.)
    if bare_king(pos, side) {
        return Winnability::Unwinnable;
    }
    // chasolver's board (the `chess` crate) knows standard castling only.
    if pos.castles().mode() == CastlingMode::Chess960 && pos.castles().castling_rights().any() {
        return Winnability::Undetermined;
    }
    let Some(board) = chess_board(pos) else {
        return Winnability::Undetermined;
    };
    let color = chess_color(side);
    if chasolver::is_unwinnable_fast(&board, color) {
        return Winnability::Unwinnable;
    }
    if search == Search::Fast {
        return Winnability::Undetermined;
    }
    match chasolver::winnability(&board, color) {
        Some(chasolver::Winnability::Winnable { helpmate }) => {
            Winnability::Winnable(helpmate.len())
        }
        Some(chasolver::Winnability::Unwinnable) => Winnability::Unwinnable,
        None => Winnability::Undetermined,
    }
}

/// A side in the `chess` crate's terms.
fn chess_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

/// `pos` as the `chess` crate's board: what its FEN (standard castling, en
/// passant only where a capture is legal) would parse to, built without
/// the text. `None` where that board would be refused.
fn chess_board(pos: &Chess) -> Option<chess::Board> {
    let mut builder = chess::BoardBuilder::new();
    let board = pos.board();
    for square in board.occupied() {
        let piece = board.piece_at(square)?;
        let role = match piece.role {
            Role::Pawn => chess::Piece::Pawn,
            Role::Knight => chess::Piece::Knight,
            Role::Bishop => chess::Piece::Bishop,
            Role::Rook => chess::Piece::Rook,
            Role::Queen => chess::Piece::Queen,
            Role::King => chess::Piece::King,
        };
        let at = chess::Square::make_square(
            chess::Rank::from_index(usize::from(square.rank())),
            chess::File::from_index(usize::from(square.file())),
        );
        builder.piece(at, role, chess_color(piece.color));
    }
    builder.side_to_move(chess_color(pos.turn()));
    for color in [Color::White, Color::Black] {
        let rights = match (
            pos.castles().has(color, CastlingSide::KingSide),
            pos.castles().has(color, CastlingSide::QueenSide),
        ) {
            (true, true) => chess::CastleRights::Both,
            (true, false) => chess::CastleRights::KingSide,
            (false, true) => chess::CastleRights::QueenSide,
            (false, false) => chess::CastleRights::NoRights,
        };
        builder.castle_rights(chess_color(color), rights);
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        builder.en_passant(Some(chess::File::from_index(usize::from(ep.file()))));
    }
    chess::Board::try_from(&builder).ok()
}

/// Whether `side` has no queen and no rook.
pub fn only_minor_pieces_and_pawns(pos: &Chess, side: Color) -> bool {
    let board = pos.board();
    (board.by_color(side) & board.rooks_and_queens()).is_empty()
}

/// Whether `side` has nothing but its king.
pub fn bare_king(pos: &Chess, side: Color) -> bool {
    let board = pos.board();
    (board.by_color(side) & !board.kings()).is_empty()
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use shakmaty::fen::Fen;

    use super::*;

    /// The board handed to chasolver is the one its FEN parses to: for
    /// every position of CHA-Solver's published set that shakmaty accepts,
    /// and for every position of pseudo-random games (castling rights
    /// kept and lost, en passant captures legal and not).
    #[test]
    fn the_board_is_the_one_its_fen_parses_to() {
        let by_text = |pos: &Chess| {
            chess::Board::from_str(&Fen::from_position(pos, EnPassantMode::Legal).to_string()).ok()
        };
        let data = include_str!("../../fixtures/chasolver/positions.txt");
        let mut compared = 0;
        for line in data
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let fen = line.split_once(' ').map_or(line, |(_, fen)| fen);
            let Ok(pos) = fen.parse::<Fen>().map_err(|_| ()).and_then(|f| {
                f.into_position::<Chess>(CastlingMode::Standard)
                    .map_err(|_| ())
            }) else {
                continue;
            };
            assert_eq!(chess_board(&pos), by_text(&pos), "{fen}");
            compared += 1;
        }
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                assert_eq!(
                    chess_board(&pos),
                    by_text(&pos),
                    "{}",
                    crate::board::replay::fen(&pos)
                );
                compared += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(compared > 20_000, "{compared}");
    }

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        let mode = CastlingMode::detect(fen.as_setup());
        fen.into_position(mode).unwrap()
    }

    fn white(fen: &str) -> Winnability {
        winnability(&pos(fen), Color::White, Search::Full)
    }

    #[test]
    fn known_positions() {
        // A lone king never mates.
        assert_eq!(
            white("8/8/4k3/8/8/4K3/8/8 w - - 0 1"),
            Winnability::Unwinnable
        );
        // K+N v K: insufficient; K+N v K+P: the pawn can block its own king.
        assert_eq!(
            white("8/8/4k3/8/8/4KN2/8/8 w - - 0 1"),
            Winnability::Unwinnable
        );
        assert!(matches!(
            white("8/8/4k3/4p3/8/4KN2/8/8 w - - 0 1"),
            Winnability::Winnable(_)
        ));
        // Bishops on opposite colours can help each other; on the same colour
        // they cannot.
        assert!(matches!(
            white("5b2/8/4k3/8/8/4K3/8/1B6 w - - 0 1"),
            Winnability::Winnable(_)
        ));
        assert_eq!(
            white("5b2/8/4k3/8/8/4K3/8/2B5 w - - 0 1"),
            Winnability::Unwinnable
        );
        // A locked pawn wall with bishops: dead, though not by material
        // (chasolver's README position, from lichess.org/ijyj0mHa).
        let locked = pos("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1");
        assert!(!locked.is_insufficient_material());
        assert_eq!(
            winnability(&locked, Color::Black, Search::Full),
            Winnability::Unwinnable
        );
        assert!(matches!(
            winnability(&locked, Color::White, Search::Full),
            Winnability::Winnable(_)
        ));
        // Black's only legal move, Kh7, is answered by Rh1 mate.
        assert!(matches!(
            white("7k/5K2/8/8/8/8/8/R7 b - - 0 1"),
            Winnability::Winnable(_)
        ));
    }

    #[test]
    fn bare_kings() {
        assert!(bare_king(
            &pos("8/8/4k3/8/8/4KN2/8/8 w - - 0 1"),
            Color::Black
        ));
        assert!(!bare_king(
            &pos("8/8/4k3/8/8/4KN2/8/8 w - - 0 1"),
            Color::White
        ));
    }
}

#[cfg(test)]
mod chasolver_positions {
    use shakmaty::fen::Fen;

    use super::*;

    /// CHA-Solver's own published test positions (MIT, copied to
    /// `fixtures/chasolver/`): every one that shakmaty accepts as a legal
    /// position must get the published answer for both sides, through the
    /// same conversion the audit uses. The complete analysis of some
    /// 6,000 cases takes a while: they are shared among the cores.
    #[test]
    fn agree_with_the_published_answers() {
        let data = include_str!("../../fixtures/chasolver/positions.txt");
        let lines: Vec<&str> = data
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let (checked, rejected) = std::thread::scope(|scope| {
            let handles: Vec<_> = lines
                .chunks(lines.len().div_ceil(threads).max(1))
                .map(|chunk| scope.spawn(move || judge(chunk)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .fold((0, 0), |(c, r), (c2, r2)| (c + c2, r + r2))
        });
        // Recorded in docs/rules.md: how many were checked.
        assert_eq!((checked, rejected), (CHECKED, REJECTED));
    }

    /// Each position of `lines` against its published answer: how many
    /// were checked, and how many shakmaty rejects.
    fn judge(lines: &[&str]) -> (usize, usize) {
        let (mut checked, mut rejected) = (0, 0);
        for line in lines {
            let (expected, fen) = line.split_once(' ').expect("classification and FEN");
            let Ok(pos) = fen.parse::<Fen>().map_err(|_| ()).and_then(|f| {
                f.into_position::<Chess>(CastlingMode::Standard)
                    .map_err(|_| ())
            }) else {
                rejected += 1;
                continue;
            };
            for (side, can) in [
                (Color::White, expected.starts_with('W')),
                (Color::Black, expected.ends_with('B')),
            ] {
                let got = winnability(&pos, side, Search::Full);
                match (can, &got) {
                    (true, Winnability::Winnable(_)) | (false, Winnability::Unwinnable) => {}
                    _ => panic!("{fen} for {side:?}: expected {expected}, got {got:?}"),
                }
            }
            checked += 1;
        }
        (checked, rejected)
    }

    const CHECKED: usize = 3146;
    const REJECTED: usize = 268;
}
