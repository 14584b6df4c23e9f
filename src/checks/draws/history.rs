//! The positions of one game as it is replayed, for the draw rules: how often
//! each position has occurred (FIDE 2023 9.2.3: same player to move, same
//! pieces on the same squares, same castling rights, an en passant capture
//! only when it is legal), the halfmove clock, the first point where a draw
//! could have been claimed (9.2, 9.3; 1994 10.10, 10.12), and the first
//! automatic end (fivefold 9.6.1, 75 moves 9.6.2, dead position 5.2.2).
//!
//! A Zobrist hash finds candidate repetitions; a repetition counts only when
//! the positions are equal in full, so a hash collision never reports one.
//! Only positions since the last capture or pawn move are compared (no
//! earlier position can recur), and a claim "by intention" (the player
//! writes down the move that repeats) generates moves only when some
//! position has already occurred twice, so long games stay linear.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square,
    san::San,
    zobrist::{Zobrist64, ZobristValue},
};

use crate::{board::replay, board::rules::Edition};

/// What makes two positions the same (FIDE 2023 9.2.3).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep: Option<Square>,
}

impl Key {
    fn of(pos: &Chess) -> Key {
        Key {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: pos.castles().castling_rights(),
            ep: pos.ep_square(EnPassantMode::Legal),
        }
    }
}

/// How a move changes a Zobrist hash of the pieces on the board: every piece
/// it lifts or puts down. The hash only finds candidates: the side to move
/// is the same for positions an even number of plies apart, and castling
/// and en passant rights are compared in full (`Key`).
fn board_delta(turn: Color, m: Move) -> u64 {
    let z = |square: Square, role: Role, color: Color| {
        Zobrist64::zobrist_for_piece(square, role.of(color)).0
    };
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut h = z(from, role, turn) ^ z(to, promotion.unwrap_or(role), turn);
            if let Some(captured) = capture {
                h ^= z(to, captured, !turn);
            }
            h
        }
        Move::EnPassant { from, to } => {
            z(from, Role::Pawn, turn)
                ^ z(to, Role::Pawn, turn)
                ^ z(
                    Square::from_coords(to.file(), from.rank()),
                    Role::Pawn,
                    !turn,
                )
        }
        Move::Castle { king, rook } => {
            let side = if rook < king {
                CastlingSide::QueenSide
            } else {
                CastlingSide::KingSide
            };
            z(king, Role::King, turn)
                ^ z(rook, Role::Rook, turn)
                ^ z(side.king_to(turn), Role::King, turn)
                ^ z(side.rook_to(turn), Role::Rook, turn)
        }
        Move::Put { role, to } => z(to, role, turn),
    }
}

/// The two ways a claim can be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimKind {
    /// The position (or the fiftieth move) has just been completed: the
    /// player to move claims.
    Just,
    /// The player to move could write down this move (SAN), which completes
    /// it, and claim before playing it.
    About(String),
}

/// A point where the player to move could have claimed a draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The position index (0 the start, n after the n-th ply) where the
    /// claimant is to move.
    pub index: usize,
    /// Which kind of claim.
    pub kind: ClaimKind,
    /// Position indices where the repeated position occurred before
    /// (threefold only).
    pub earlier: Vec<usize>,
    /// The claimant.
    pub claimant: Color,
    /// The fullmove number at the claim.
    pub fullmoves: u32,
    /// The position at the claim (its FEN is written only for a finding).
    pub position: Chess,
}

/// Why a game ended by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndKind {
    /// The same position for the fifth time (FIDE 2023 9.6.1).
    Fivefold,
    /// 75 moves of each player without capture or pawn move (9.6.2).
    SeventyFive,
    /// Neither side can mate (5.2.2, 2000 1.3, 1994 10.4).
    DeadPosition,
}

/// The first automatic end of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    /// Position index where the game ended.
    pub index: usize,
    /// Why.
    pub kind: EndKind,
    /// Earlier occurrences (fivefold only).
    pub earlier: Vec<usize>,
    /// The position (its FEN is written only for a finding).
    pub position: Chess,
    /// The side to move there.
    pub turn: Color,
    /// The fullmove number there.
    pub fullmoves: u32,
}

/// The history of one game. Reused from game to game.
///
/// A position can only recur within a stretch of plies without a capture or
/// pawn move, and only after four of them; most stretches are shorter. So
/// the replay hands over each position cheaply (a stretch starts when the
/// halfmove clock is zero, else the move is kept), and a stretch is examined
/// when it closes, only if it is long enough for a repetition or for the
/// halfmove clock to reach 99. The examination hashes the stretch's positions
/// from its moves; a hash only finds candidates, and exact keys are built (by
/// replaying the stretch from its first position) the first time a hash
/// matches. Positions are replayed only where a rule may apply. Every
/// stretch is replayed at most twice, so the work stays linear in the length
/// of the game.
#[derive(Debug, Default)]
pub struct History {
    edition: Edition,
    /// Index of the first position of the current stretch (since the last
    /// capture or pawn move, or the start).
    base: usize,
    /// The position at `base`.
    base_pos: Chess,
    /// The moves played since `base`: `moves[k]` reaches position
    /// `base + k + 1`.
    moves: Vec<Move>,
    /// Of the stretch as examined so far: a hash of each position's pieces
    /// relative to the first (`hashes[k]` for position `base + k`) ...
    hashes: Vec<u64>,
    /// ... and how many times it has occurred up to it.
    counts: Vec<u8>,
    /// Keys of the stretch's positions from `base`, once built.
    keys: Vec<Key>,
    built: bool,
    /// Whether `hashes`, `counts` and `keys` are the current stretch's.
    examined: bool,
    /// A position of the stretch, replayed forward for the rules that need
    /// the board, and its index in the stretch ([`usize::MAX`]: none yet).
    cursor: Chess,
    cursor_index: usize,
    /// Positions replayed for the keys and the cursor so far: the work,
    /// which a test holds linear in the length of the game.
    replayed: usize,
    /// How many positions of the stretch, by parity of their index, have
    /// occurred at least twice: a claim by intention needs one.
    twice: [usize; 2],
    /// The first point where threefold repetition could be claimed.
    pub threefold: Option<Claim>,
    /// The first point where the 50-move rule could be claimed.
    pub fifty: Option<Claim>,
    /// The first automatic end.
    pub end: Option<End>,
}

impl History {
    /// The rules the next games are judged by.
    pub fn under(&mut self, edition: Edition) {
        self.edition = edition;
    }

    /// Starts a game at `start`.
    pub fn start(&mut self, start: &Chess) {
        self.replayed = 0;
        self.threefold = None;
        self.fifty = None;
        self.end = None;
        self.new_stretch(start, 0);
    }

    /// Records the position `pos` reached by `m`.
    #[inline]
    pub fn push(&mut self, pos: &Chess, m: Move) {
        if self.end.is_some() {
            return;
        }
        if pos.halfmoves() == 0 {
            let index = self.base + self.moves.len() + 1;
            if self.worth_examining() {
                self.examine();
            }
            if self.end.is_none() {
                self.new_stretch(pos, index);
            }
        } else {
            self.moves.push(m);
        }
    }

    /// Examines the last stretch: call once all moves are pushed.
    pub fn finish(&mut self) {
        if self.end.is_none() && self.worth_examining() {
            self.examine();
        }
    }

    /// How often the position at `index` had occurred by then, for the
    /// positions of the last stretch (0 for earlier ones).
    pub fn count_at(&self, index: usize) -> u8 {
        match index.checked_sub(self.base) {
            Some(k) if self.examined && k < self.counts.len() => self.counts[k],
            Some(k) if k <= self.moves.len() => 1,
            _ => 0,
        }
    }

    /// Whether positions still matter (the game has not ended by itself).
    pub fn open(&self) -> bool {
        self.end.is_none()
    }
}

impl replay::Observer for History {
    fn start(&mut self, start: &Chess) {
        History::start(self, start);
    }

    fn open(&self) -> bool {
        History::open(self)
    }

    #[inline]
    fn ply(&mut self, after: &Chess, m: Move) {
        self.push(after, m);
    }

    fn finish(&mut self) {
        History::finish(self);
    }
}

impl History {
    /// Starts a stretch at `pos`, position `index`. Its first position is
    /// judged here: it can only repeat nothing, but it may be dead (material
    /// changes only at a capture or promotion, where stretches start), or a
    /// FEN start may have a long halfmove clock.
    #[inline(never)]
    fn new_stretch(&mut self, pos: &Chess, index: usize) {
        self.base = index;
        self.base_pos = pos.clone();
        self.moves.clear();
        self.examined = false;
        if self.edition.may_be_dead(pos) || pos.halfmoves() >= 99 {
            self.judge(pos, index, 1);
        }
    }

    /// Whether a repetition or the 50-move rule can occur in the current
    /// stretch: four plies at least, or a halfmove clock reaching 99.
    #[inline]
    fn worth_examining(&self) -> bool {
        let n = self.moves.len();
        n >= 4 || self.base_pos.halfmoves() as usize + n >= 99
    }

    /// Hashes and counts the positions of the current stretch after its
    /// first, and judges those where a claim or an end may apply.
    #[inline(never)]
    fn examine(&mut self) {
        let n = self.moves.len();
        let clock = self.base_pos.halfmoves() as usize;
        self.hashes.clear();
        self.hashes.push(0);
        self.counts.clear();
        self.counts.push(1);
        self.keys.clear();
        self.built = false;
        self.twice = [0, 0];
        self.examined = true;
        self.cursor_index = usize::MAX;
        let mut mover = self.base_pos.turn();
        let mut h = 0;
        for k in 0..n {
            h ^= board_delta(mover, self.moves[k]);
            mover = !mover;
            let local = k + 1;
            // A position needs at least four reversible plies to recur. Scan
            // the hashes of the same player's positions, most recent first.
            let mut count = 1;
            if local >= 4 {
                let mut q = local;
                while q >= 2 {
                    q -= 2;
                    if self.hashes[q] == h {
                        count = self.repeats(local, q);
                        break;
                    }
                }
            }
            if self.built && self.keys.len() == local {
                let key = Key::of(self.position_mut(local));
                self.keys.push(key);
            }
            if count >= 2 {
                self.twice[local % 2] += 1;
            }
            self.hashes.push(h);
            self.counts.push(count);
            // Most positions can end nothing and open no claim: no
            // repetition, a short halfmove clock, and no position of the
            // other player's that occurred twice.
            let may_repeat =
                self.threefold.is_none() && local + 1 >= 4 && self.twice[(local + 1) % 2] > 0;
            if count >= 3 || may_repeat || clock + local >= 99 {
                let pos = std::mem::take(self.position_mut(local));
                self.judge(&pos, self.base + local, count);
                self.cursor = pos;
                if self.end.is_some() {
                    return;
                }
            }
        }
    }

    /// The position `base + local` of the current stretch, replayed forward
    /// from the last one asked for.
    fn position_mut(&mut self, local: usize) -> &mut Chess {
        if self.cursor_index > local {
            self.cursor = self.base_pos.clone();
            self.cursor_index = 0;
        }
        for &m in &self.moves[self.cursor_index..local] {
            self.cursor.play_unchecked(m);
        }
        self.replayed += local - self.cursor_index;
        self.cursor_index = local;
        &mut self.cursor
    }

    /// How often the position `base + local` has occurred, now that its
    /// hash matches the one at `q` (and perhaps earlier ones): the hash only
    /// finds candidates, the keys decide. Pushes the position's key.
    #[cold]
    #[inline(never)]
    fn repeats(&mut self, local: usize, mut q: usize) -> u8 {
        self.build(local);
        let key = Key::of(self.position_mut(local));
        let h = self.hashes[q];
        let mut count = 1;
        loop {
            if self.hashes[q] == h && self.keys.get(q) == Some(&key) {
                count = self.counts[q].saturating_add(1);
                break;
            }
            if q < 2 {
                break;
            }
            q -= 2;
        }
        self.keys.push(key);
        count
    }

    /// Builds the keys of the stretch's positions before `base + local`.
    #[cold]
    fn build(&mut self, local: usize) {
        if self.built {
            return;
        }
        self.keys.clear();
        let mut p = self.base_pos.clone();
        self.keys.push(Key::of(&p));
        for &m in &self.moves[..local - 1] {
            p.play_unchecked(m);
            self.keys.push(Key::of(&p));
        }
        self.replayed += local - 1;
        self.built = true;
    }

    /// The earlier indices where the position at `index` occurred (its key
    /// is built: it repeats).
    fn earlier(&self, index: usize) -> Vec<usize> {
        let local = index - self.base;
        let (Some(&h), Some(key)) = (self.hashes.get(local), self.keys.get(local)) else {
            return Vec::new();
        };
        let mut out: Vec<usize> = (0..local)
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&q| self.hashes[q] == h && self.keys.get(q) == Some(key))
            .map(|q| self.base + q)
            .collect();
        out.reverse();
        out
    }

    #[cold]
    #[inline(never)]
    fn judge(&mut self, pos: &Chess, index: usize, count: u8) {
        let edition = self.edition;
        let halfmoves = pos.halfmoves();
        // Automatic ends: the game is over at this position.
        let end = if edition.automatic_draws() && count >= 5 {
            Some(EndKind::Fivefold)
        } else if edition.automatic_draws() && halfmoves >= 150 && !pos.is_checkmate() {
            // FIDE 2023 9.6.2: unless the last move mated.
            Some(EndKind::SeventyFive)
        } else if edition.is_dead(pos) {
            Some(EndKind::DeadPosition)
        } else {
            None
        };
        if let Some(kind) = end {
            let earlier = if kind == EndKind::Fivefold {
                self.earlier(index)
            } else {
                Vec::new()
            };
            self.end = Some(End {
                index,
                kind,
                earlier,
                position: pos.clone(),
                turn: pos.turn(),
                fullmoves: pos.fullmoves().get(),
            });
            return;
        }

        if self.threefold.is_none() {
            if count >= 3 {
                self.threefold = Some(Claim {
                    index,
                    kind: ClaimKind::Just,
                    earlier: self.earlier(index),
                    claimant: pos.turn(),
                    fullmoves: pos.fullmoves().get(),
                    position: pos.clone(),
                });
            } else if let Some((m, earlier)) = self.repeating_move(pos, index) {
                self.threefold = Some(Claim {
                    index,
                    kind: ClaimKind::About(San::from_move(pos, m).to_string()),
                    earlier,
                    claimant: pos.turn(),
                    fullmoves: pos.fullmoves().get(),
                    position: pos.clone(),
                });
            }
        }

        if self.fifty.is_none() {
            let kind = if halfmoves >= 100 {
                Some(ClaimKind::Just)
            } else if halfmoves == 99 && edition.fifty_by_intention() {
                // A move that is neither a capture nor a pawn move completes
                // the fifty moves.
                pos.legal_moves()
                    .iter()
                    .find(|m| m.role() != Role::Pawn && !m.is_capture())
                    .map(|m| ClaimKind::About(San::from_move(pos, *m).to_string()))
            } else {
                None
            };
            if let Some(kind) = kind {
                self.fifty = Some(Claim {
                    index,
                    kind,
                    earlier: Vec::new(),
                    claimant: pos.turn(),
                    fullmoves: pos.fullmoves().get(),
                    position: pos.clone(),
                });
            }
        }
    }

    /// A legal move from `pos` (at `index`) that makes a position occur for
    /// the third time, with that position's earlier occurrences.
    fn repeating_move(&mut self, pos: &Chess, index: usize) -> Option<(Move, Vec<usize>)> {
        // After a quiet move the stretch grows by one: four plies needed,
        // and a position of the other player's that occurred twice.
        let local = index - self.base;
        if local + 1 < 4 || self.twice[(local + 1) % 2] == 0 {
            return None;
        }
        self.build(local + 1);
        let board = pos.board();
        let ours = board.by_color(pos.turn());
        // Each position of the other player's that occurred twice: is it one
        // quiet move away? A capture, a pawn move or castling changes what
        // can never change back, so only a piece moving to an empty square
        // can repeat a position: exactly two squares change.
        for q in (0..local).rev().step_by(2) {
            if self.counts[q] < 2 {
                continue;
            }
            let Some(key) = self.keys.get(q) else {
                continue;
            };
            let changed = board.occupied() ^ key.board.occupied();
            if changed.count() != 2 {
                continue;
            }
            let (Some(from), Some(to)) = (
                (changed & ours).first(),
                (changed & !board.occupied()).first(),
            ) else {
                continue;
            };
            let Some(piece) = board.piece_at(from) else {
                continue;
            };
            if piece.role == Role::Pawn || key.board.piece_at(to) != Some(piece) {
                continue;
            }
            let m = Move::Normal {
                role: piece.role,
                from,
                capture: None,
                to,
                promotion: None,
            };
            if !pos.is_legal(m) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            if Key::of(&after) != *key {
                continue;
            }
            let h = self.hashes[q];
            let mut earlier: Vec<usize> = (0..local)
                .rev()
                .step_by(2)
                .filter(|&p| self.hashes[p] == h && self.keys.get(p) == Some(key))
                .map(|p| self.base + p)
                .collect();
            earlier.reverse();
            return Some((m, earlier));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::replay;
    use shakmaty::{
        CastlingMode,
        fen::Fen,
        zobrist::{Zobrist64, ZobristValue},
    };

    fn run(fen: Option<&str>, movetext: &str, edition: Edition) -> History {
        let start: Chess = match fen {
            Some(fen) => {
                let fen: Fen = fen.parse().unwrap();
                let mode = CastlingMode::detect(fen.as_setup());
                fen.into_position(mode).unwrap()
            }
            None => Chess::default(),
        };
        let lexed = crate::testing::game(movetext).lexed;
        let mut history = History::default();
        history.under(edition);
        let replayed = replay::replay(&start, &lexed.sans, &mut history, false);
        assert!(replayed.stopped.is_none(), "{movetext}");
        history
    }

    fn threefold(history: &History) -> (usize, ClaimKind, Vec<usize>) {
        let c = history.threefold.clone().expect("a threefold claim");
        (c.index, c.kind, c.earlier)
    }

    /// The hash of a board from scratch.
    fn board_hash(board: &Board) -> u64 {
        let mut h = 0;
        for (square, piece) in board {
            h ^= Zobrist64::zobrist_for_piece(square, piece).0;
        }
        h
    }

    #[test]
    fn a_move_changes_the_hash_as_it_changes_the_board() {
        // Castling both ways, en passant, a promotion with capture, a
        // Chess960 castle where the king does not move.
        let games = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Be6 5. gxh8=Q Qd7 6. Nf3 O-O-O \
                 7. Be2 Kb8 8. O-O a5",
            ),
            (
                "nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w KQkq - 0 1",
                "1. Ng3 Ng6 2. O-O O-O",
            ),
        ];
        for (fen, movetext) in games {
            let fen: Fen = fen.parse().unwrap();
            let mut pos: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
            let lexed = crate::testing::game(movetext).lexed;
            assert!(!lexed.sans.is_empty());
            for (i, token) in lexed.sans.iter().enumerate() {
                let m = token.san.san.to_move(&pos).unwrap();
                let before = board_hash(pos.board());
                let delta = board_delta(pos.turn(), m);
                pos.play_unchecked(m);
                assert_eq!(
                    before ^ delta,
                    board_hash(pos.board()),
                    "{movetext} ply {i}"
                );
            }
        }
    }

    #[test]
    fn claim_by_intention_comes_before_the_third_occurrence() {
        let h = run(
            None,
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3",
            Edition::Fide2023,
        );
        // After 4. Ng1 Black can write down Ng8, repeating the start a third time.
        assert_eq!(
            threefold(&h),
            (7, ClaimKind::About("Ng8".into()), vec![0, 4])
        );
        assert_eq!(h.threefold.unwrap().claimant, Color::Black);
    }

    #[test]
    fn en_passant_that_is_illegal_does_not_make_positions_differ() {
        // After 1. e4, dxe3 e.p. would expose the black king on h4 to the
        // rook on a4: the right is not real, so the position after 1. e4 is
        // the same as after 3. Ke1.
        let h = run(
            Some("8/8/8/8/R2p3k/8/4P3/4K3 w - - 0 1"),
            "1. e4 Kh5 2. Kf1 Kh4 3. Ke1 Kh5 4. Kf1 Kh4 5. Ke1",
            Edition::Fide2023,
        );
        assert_eq!(
            threefold(&h),
            (8, ClaimKind::About("Ke1".into()), vec![1, 5])
        );
    }

    #[test]
    fn en_passant_that_is_legal_makes_positions_differ() {
        let h = run(
            Some("8/8/8/8/3p3k/8/4P3/R3K3 w - - 0 1"),
            "1. e4 Kh5 2. Kf1 Kh4 3. Ke1 Kh5 4. Kf1 Kh4 5. Ke1 Kh5 6. Kf1 Kh4 7. Ke1",
            Edition::Fide2023,
        );
        // Here dxe3 e.p. is legal after 1. e4, so 5. Ke1 would not repeat
        // that position: the first claim is Black's, a ply later.
        assert_eq!(
            threefold(&h),
            (9, ClaimKind::About("Kh5".into()), vec![2, 6])
        );
    }

    #[test]
    fn lost_castling_rights_make_positions_differ() {
        let h = run(
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            "1. Rh2 Kd8 2. Rh1 Ke8 3. Rh2 Kd8 4. Rh1 Ke8 5. Rh2 Kd8 6. Rh1 Ke8",
            Edition::Fide2023,
        );
        // The start had the right to castle, so 4... Ke8 does not repeat it
        // (compare the test below, without that right): the first claim is
        // White's, a ply later.
        assert_eq!(
            threefold(&h),
            (8, ClaimKind::About("Rh2".into()), vec![1, 5])
        );
    }

    #[test]
    fn the_starting_position_of_a_fen_counts() {
        let h = run(
            Some("4k3/8/8/8/8/8/8/4K2R w - - 0 1"),
            "1. Rh2 Kd8 2. Rh1 Ke8 3. Rh2 Kd8 4. Rh1",
            Edition::Fide2023,
        );
        assert_eq!(
            threefold(&h),
            (7, ClaimKind::About("Ke8".into()), vec![0, 4])
        );
    }

    #[test]
    fn fifty_moves_by_intention_and_by_completion() {
        let fen = Some("4k3/8/8/8/8/8/8/4K2R w - - 98 80");
        let h = run(fen, "80. Rh2 Kd8 81. Rh1", Edition::Fide2023);
        let claim = h.fifty.unwrap();
        assert_eq!((claim.index, claim.claimant), (1, Color::Black));
        assert!(matches!(claim.kind, ClaimKind::About(_)));
        // 1994 10.12 knows only the completed fifty moves.
        let h = run(fen, "80. Rh2 Kd8 81. Rh1", Edition::Fide1994);
        let claim = h.fifty.unwrap();
        assert_eq!((claim.index, claim.kind), (2, ClaimKind::Just));
    }

    #[test]
    fn seventy_five_moves_end_the_game_unless_the_last_move_mates() {
        let h = run(
            Some("7k/8/6K1/8/8/8/8/R7 w - - 149 120"),
            "120. Ra8#",
            Edition::Fide2023,
        );
        assert_eq!(h.end, None);
        let h = run(
            Some("7k/8/6K1/8/8/8/8/R7 w - - 149 120"),
            "120. Ra7",
            Edition::Fide2023,
        );
        assert_eq!(h.end.unwrap().kind, EndKind::SeventyFive);
        let h = run(
            Some("7k/8/6K1/8/8/8/8/R7 w - - 149 120"),
            "120. Ra7",
            Edition::Fide2000,
        );
        assert_eq!(h.end, None);
    }

    #[test]
    fn fivefold_ends_the_game_only_under_the_2023_laws() {
        let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                       7. Nf3 Nf6 8. Ng1 Ng8 9. e4";
        let h = run(None, shuffle, Edition::Fide2023);
        let end = h.end.unwrap();
        assert_eq!((end.index, end.kind), (16, EndKind::Fivefold));
        assert_eq!(end.earlier, vec![0, 4, 8, 12]);
        assert_eq!(run(None, shuffle, Edition::Fide2000).end, None);
    }

    #[test]
    fn long_shuffles_stay_linear() {
        // 2,000 plies of knight moves without automatic draws (1994 rules):
        // every stretch is rebuilt at most once.
        let mut text = String::new();
        for n in 0..500 {
            text.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * n + 1, 2 * n + 2));
        }
        let h = run(None, &text, Edition::Fide1994);
        assert_eq!(h.count_at(2000), 255, "counts saturate");
        // The work, not the time: each of the 2,000 positions is replayed
        // at most twice (once for the keys, once for the cursor).
        assert!(h.replayed <= 2 * 2000, "{} positions replayed", h.replayed);
        assert!(h.replayed >= 2000, "{} positions replayed", h.replayed);
    }
}
