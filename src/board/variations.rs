//! Variations (recursive annotation variations, PGN 8.2.5): each is
//! replayed from its branch point, nested ones too, so that analysis with
//! moves that cannot be played does not pass unseen.
//!
//! A variation stands after a move and replaces it: its first move is
//! played in the position before that move. A variation inside a variation
//! replaces the move of the enclosing line that it follows. The lexer skips
//! variations as pgn-reader does and notes where they are
//! ([`read::lexer::Variations`]); `walk` reads those bytes again, following the
//! mainline to each branch point.
//!
//! Inside a variation a token is read as in the mainline: SAN, else a plain
//! reading ([`read::notation::read_token`]), and a move is resolved by
//! [`lenient::resolve`]. Non-standard forms are accepted there without a
//! finding (analysis is not the record), and `--` is a null move, as
//! annotators write one to show a threat. A line stops being checked at its
//! first move that cannot be played or read; variations of the move that
//! failed are still checked (they branch from before it). Memory is bounded:
//! one position pair per level of nesting, at most `MAX_DEPTH` levels.
//!
//! [`read::lexer::Variations`]: crate::read::lexer::Variations
//! [`read::notation::read_token`]: crate::read::notation::read_token

use shakmaty::{
    Chess, Color, EnPassantMode, FromSetup, Position,
    san::{San, SanError, SanPlus},
};

use crate::{
    board::lenient,
    read::lexer::{SanToken, Variations, en_passant_mark, is_token_end},
    read::listed::Listed,
};

/// Variations nested deeper than this are not checked (and say so).
pub const MAX_DEPTH: usize = 64;

/// What is wrong in a variation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// The move names no legal move.
    Illegal,
    /// The move fits more than one legal move.
    Ambiguous,
    /// The token is no move, move number, comment, NAG or result.
    Malformed,
    /// A `(` with no move before it in its line: it replaces nothing, and
    /// its moves are not checked.
    NoMoveBefore,
    /// Nested deeper than `MAX_DEPTH`: not checked.
    TooDeep,
    /// A variation that holds no move (`( )`, `( {comment} )`), where PGN
    /// 8.2.5 has a sequence of movetext with one or more moves. The range
    /// is its `(`.
    Empty,
}

/// One problem in a variation.
#[derive(Debug, Clone)]
pub struct Issue {
    /// What is wrong.
    pub problem: Problem,
    /// 1-based line.
    pub line: u64,
    /// Byte range of the token (or the `(`) within the game's bytes.
    pub start: usize,
    /// End of the range (exclusive).
    pub end: usize,
    /// The ply the move would have in the game, counted from its start.
    pub ply: usize,
    /// The position the move was tried in, when known.
    pub before: Option<Chess>,
    /// The move as read, for a move that could not be played.
    pub san: Option<San>,
    /// How deep the variation is: 1 for a variation of the mainline.
    pub depth: usize,
}

/// One line being read: a variation, or the mainline at the top.
#[derive(Debug, Default)]
struct Line {
    /// Where the next move of the line is played; `None` once a move could
    /// not be played, or when the branch point is unknown.
    now: Option<Chess>,
    /// The position before the line's last move, where a variation of that
    /// move starts; `None` when unknown.
    before_last: Option<Chess>,
    /// Moves read in the line so far.
    moves: usize,
    /// The ply of the line's next move.
    ply: usize,
    /// Whether the line holds anything but comments, NAGs and move
    /// numbers (a move, another token, a variation), or was reported
    /// already: else it is empty.
    filled: bool,
    /// Where its `(` is: byte offset and line.
    open: (usize, u64),
}

impl Line {
    /// Plays one move token; returns the problem if it cannot be played
    /// (the position it was tried in is then `before_last`).
    fn play(&mut self, san: San) -> Option<Problem> {
        self.moves += 1;
        self.filled = true;
        self.ply += 1;
        let Some(pos) = self.now.take() else {
            self.before_last = None;
            return None;
        };
        let next = if san == San::Null {
            null_move(&pos).ok_or(SanError::IllegalSan)
        } else {
            lenient::resolve(san, &pos).map(|(m, _)| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                next
            })
        };
        self.before_last = Some(pos);
        match next {
            Ok(next) => {
                self.now = Some(next);
                None
            }
            Err(SanError::IllegalSan) => Some(Problem::Illegal),
            Err(SanError::AmbiguousSan) => Some(Problem::Ambiguous),
        }
    }
}

/// The position after a null move (`--`): the other side to move, no en
/// passant; `None` when the side to move is in check.
fn null_move(pos: &Chess) -> Option<Chess> {
    if pos.is_check() {
        return None;
    }
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.ep_square = None;
    if setup.turn == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.turn = !setup.turn;
    let mode = pos.castles().mode();
    Chess::from_setup(setup, mode).ok()
}

/// Follows the mainline to a branch point: the position before its move
/// `index` (0-based), when every move before it could be played.
struct Mainline<'a> {
    moves: &'a [SanToken],
    /// The position before move `next`, `None` once a move failed.
    now: Option<Chess>,
    next: usize,
}

impl Mainline<'_> {
    /// The position before the last mainline move that starts before byte
    /// `at`, and that move's index; `None` for the index when no move does.
    fn branch(&mut self, at: usize) -> (Option<usize>, Option<Chess>) {
        let count = self.moves.partition_point(|m| m.start < at);
        let Some(index) = count.checked_sub(1) else {
            return (None, None);
        };
        while self.next < index {
            if let Some(pos) = &mut self.now {
                match lenient::resolve(self.moves[self.next].san.san, pos) {
                    Ok((m, _)) => pos.play_unchecked(m),
                    Err(_) => self.now = None,
                }
            }
            self.next += 1;
        }
        (Some(index), self.now.clone())
    }
}

/// Where a walk through the variations is.
struct Walk<'a> {
    issues: Listed<Issue>,
    main: Mainline<'a>,
    /// `lines[0]` is a variation of the mainline; deeper ones follow.
    lines: Vec<Line>,
    /// Levels of `(` beyond `MAX_DEPTH` being skipped.
    skipping: usize,
}

impl Walk<'_> {
    /// A `(` just before `i`, on `line`: a variation opens.
    fn open(&mut self, i: usize, line: u64) {
        if self.skipping > 0 || self.lines.len() == MAX_DEPTH {
            if self.skipping == 0 {
                self.issues.push(Issue {
                    problem: Problem::TooDeep,
                    line,
                    start: i - 1,
                    end: i,
                    ply: 0,
                    before: None,
                    san: None,
                    depth: MAX_DEPTH + 1,
                });
            }
            self.skipping += 1;
            return;
        }
        if let Some(parent) = self.lines.last_mut() {
            parent.filled = true;
        }
        let (replaced, from) = match self.lines.last() {
            None => {
                let (index, from) = self.main.branch(i - 1);
                (index.map(|index| index + 1), from)
            }
            Some(parent) => (
                (parent.moves > 0).then_some(parent.ply),
                parent.before_last.clone(),
            ),
        };
        let Some(ply) = replaced else {
            self.issues.push(Issue {
                problem: Problem::NoMoveBefore,
                line,
                start: i - 1,
                end: i,
                ply: 0,
                before: None,
                san: None,
                depth: self.lines.len() + 1,
            });
            self.lines.push(Line {
                filled: true,
                ..Line::default()
            });
            return;
        };
        self.lines.push(Line {
            now: from,
            before_last: None,
            moves: 0,
            ply: ply - 1,
            filled: false,
            open: (i - 1, line),
        });
    }

    /// A `)`: the variation closes.
    fn close(&mut self) {
        if self.skipping > 0 {
            self.skipping -= 1;
        } else if let Some(closed) = self.lines.pop()
            && !closed.filled
        {
            let (start, line) = closed.open;
            self.issues.push(Issue {
                problem: Problem::Empty,
                line,
                start,
                end: start + 1,
                ply: closed.ply + 1,
                before: None,
                san: None,
                depth: self.lines.len() + 1,
            });
        }
    }

    /// The token at `i` of `bytes` (up to `end`), on `line`: played in the
    /// variation it is in, if it is a move. Returns where to go on.
    fn token(&mut self, bytes: &[u8], i: usize, end: usize, line: u64) -> usize {
        let token_end = token_end(bytes, i, end);
        let depth = self.lines.len();
        // At the top: the mainline, read by the lexer already.
        let Some(current) = self.lines.last_mut() else {
            return i + 1;
        };
        let token = &bytes[i..token_end];
        let san = match SanPlus::from_ascii_prefix(&bytes[i..end]) {
            Ok((san, n)) if i + n == token_end => Some(san),
            _ => crate::read::notation::read_token(token).map(|(san, _)| san),
        };
        let problem = match san {
            Some(san) => current.play(san.san).and_then(|problem| {
                let before = current.before_last.clone()?;
                Some((problem, before, current.ply, Some(san.san)))
            }),
            None if is_number_or_result(token) || en_passant_mark(&bytes[i..end]).is_some() => None,
            None => {
                // A line with a token that is not a move may be
                // missing one: it is not followed further.
                current.filled = true;
                let known = current.now.take();
                current.before_last = None;
                known.map(|pos| (Problem::Malformed, pos, current.ply + 1, None))
            }
        };
        if let Some((problem, before, ply, san)) = problem {
            self.issues.push(Issue {
                problem,
                line,
                start: i,
                end: token_end,
                ply,
                before: Some(before),
                san,
                depth,
            });
        }
        token_end.max(i + 1)
    }
}

/// Replays every variation of a mainline that starts at `start`, with the
/// mainline's moves `mainline` (as the lexer read them). `bytes` are the
/// game's; `at` is where its variations are.
pub fn walk(bytes: &[u8], at: Variations, start: &Chess, mainline: &[SanToken]) -> Listed<Issue> {
    let mut walk = Walk {
        issues: Listed::default(),
        main: Mainline {
            moves: mainline,
            now: Some(start.clone()),
            next: 0,
        },
        lines: Vec::new(),
        skipping: 0,
    };
    let end = at.end.min(bytes.len());
    let mut i = at.start;
    let mut line = at.line;
    while i < end {
        let b = bytes[i];
        match b {
            b'\n' => {
                line += 1;
                i += 1;
                if bytes.get(i) == Some(&b'%') {
                    i = next_newline(bytes, i, end);
                }
            }
            b'{' => {
                let close = memchr::memchr(b'}', &bytes[i..end]).map_or(end, |n| i + n + 1);
                line += memchr::memchr_iter(b'\n', &bytes[i..close]).count() as u64;
                i = close;
            }
            b';' => i = next_newline(bytes, i, end),
            b'(' => {
                i += 1;
                walk.open(i, line);
            }
            b')' => {
                i += 1;
                walk.close();
            }
            _ if walk.skipping > 0 => i += 1,
            b' ' | b'\t' | b'\r' | b'.' | b'*' | b'!' | b'?' => i += 1,
            b'$' => i = token_end(bytes, i + 1, end),
            _ => i = walk.token(bytes, i, end, line),
        }
    }
    walk.issues
}

/// The offset of the next `\n` from `i` (not past it), or `end`.
fn next_newline(bytes: &[u8], i: usize, end: usize) -> usize {
    memchr::memchr(b'\n', &bytes[i..end]).map_or(end, |n| i + n)
}

/// The end of the token starting at `i`, as pgn-reader ends tokens.
fn token_end(bytes: &[u8], i: usize, end: usize) -> usize {
    bytes[i..end]
        .iter()
        .position(|&b| is_token_end(b))
        .map_or(end, |n| i + n)
}

/// A move number or a termination marker (also `½-½` and dashes other than
/// the hyphen): no move, and nothing wrong inside a variation.
fn is_number_or_result(token: &[u8]) -> bool {
    if token.iter().all(u8::is_ascii_digit) {
        return true;
    }
    let text = String::from_utf8_lossy(token).replace(['–', '—'], "-");
    text == "½-½"
        || matches!(
            crate::read::outcome::parse(text.as_bytes()),
            Some(shakmaty::Outcome::Known(_))
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The problems found in a movetext's variations: (problem, token, ply,
    /// depth).
    fn problems(movetext: &str) -> Vec<(Problem, String, usize, usize)> {
        let bytes = movetext.as_bytes();
        let lexed = crate::testing::game(bytes).lexed;
        let Some(at) = lexed.variations else {
            return Vec::new();
        };
        let start = Chess::default();
        walk(bytes, at, &start, &lexed.sans)
            .listed()
            .iter()
            .map(|issue| {
                (
                    issue.problem,
                    String::from_utf8_lossy(&bytes[issue.start..issue.end]).into_owned(),
                    issue.ply,
                    issue.depth,
                )
            })
            .collect()
    }

    #[test]
    fn sound_variations_have_no_problem() {
        assert!(problems("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3 {x} (2. c3)) 2. Nf3 *").is_empty());
        // A null move shows a threat; castling with zeros, a promotion
        // without '=' and a capture without 'x' are read as they mean.
        assert!(
            problems("1. e4 e5 (1... d5 2. ed5 --) 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O (4. 0-0) *")
                .is_empty()
        );
    }

    #[test]
    fn a_variation_with_no_move_is_empty() {
        assert_eq!(
            problems("1. e4 ( ) e5 *"),
            [(Problem::Empty, "(".to_owned(), 1, 1)]
        );
        // Comments, NAGs and move numbers are no move (PGN 8.2.5).
        assert_eq!(
            problems("1. e4 e5 ( {no} $1 1... ) 2. Nf3 (2. Nc3 ({x})) *"),
            [
                (Problem::Empty, "(".to_owned(), 2, 1),
                (Problem::Empty, "(".to_owned(), 3, 2),
            ]
        );
        // A token that is no move is reported as such, not as emptiness;
        // a variation that holds only another is reported once.
        assert_eq!(
            problems("1. e4 (zz) (()) *"),
            [
                (Problem::Malformed, "zz".to_owned(), 1, 1),
                (Problem::NoMoveBefore, "(".to_owned(), 0, 2),
            ]
        );
    }

    #[test]
    fn an_illegal_move_in_a_variation_is_found_where_it_is() {
        // 1... Ke7 is not legal in the position before 1... e5.
        assert_eq!(
            problems("1. e4 e5 (1... Ke7 2. d4) 2. Nf3 *"),
            [(Problem::Illegal, "Ke7".to_owned(), 2, 1)]
        );
        // Nested: (2. Nc3) replaces 2. Bb5, so 2... Nc3 would be wrong there.
        assert_eq!(
            problems("1. e4 e5 2. Nf3 (2. Bc4 Nf6 (2... Nc6 3. Nc3 Bb4) 3. Ke3) 2... Nc6 *"),
            [(Problem::Illegal, "Ke3".to_owned(), 5, 1)]
        );
        // The line stops at its first failure; a variation of the failed
        // move is still checked.
        assert_eq!(
            problems("1. e4 (1. Ke2 (1. d5) 1... Ke7) *"),
            [
                (Problem::Illegal, "Ke2".to_owned(), 1, 1),
                (Problem::Illegal, "d5".to_owned(), 1, 2),
            ]
        );
    }

    #[test]
    fn ambiguous_malformed_and_misplaced_variations() {
        assert_eq!(
            problems("1. Nf3 d5 2. d3 e5 (2... Nf6 3. Nd2) 3. Nbd2 *"),
            [(Problem::Ambiguous, "Nd2".to_owned(), 5, 1)]
        );
        assert_eq!(
            problems("1. e4 (1. d4 Zz9 2. c4) e5 *"),
            [(Problem::Malformed, "Zz9".to_owned(), 2, 1)]
        );
        assert_eq!(
            problems("(1. d4) 1. e4 e5 *"),
            [(Problem::NoMoveBefore, "(".to_owned(), 0, 1)]
        );
    }

    #[test]
    fn branches_after_a_failed_mainline_move_are_not_checked() {
        // The mainline stops at 2. Ke3; its own variation is checked, later
        // ones cannot be.
        assert_eq!(
            problems("1. e4 e5 2. Ke3 (2. Kf3) 2... Nc6 (2... Ke7) *"),
            [(Problem::Illegal, "Kf3".to_owned(), 3, 1)]
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!(
            "1. e4 {}1... e5{}",
            "(1. d4 ".repeat(MAX_DEPTH + 10),
            ")".repeat(MAX_DEPTH + 10)
        );
        // Each level replaces the 1. d4 of the one above: all legal, down
        // to the first level too deep, which is reported once and skipped
        // with everything inside it.
        assert_eq!(
            problems(&format!("{deep} *")),
            [(Problem::TooDeep, "(".to_owned(), 0, MAX_DEPTH + 1)]
        );
        // After it, reading goes on at the right depth.
        let after = format!("{deep} (1. Ke2) *");
        assert_eq!(problems(&after).last().map(|p| p.0), Some(Problem::Illegal));
    }
}
