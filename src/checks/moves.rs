//! Moves: the first move that cannot be played (illegal or ambiguous,
//! FIDE 2023 3.10.1, PGN 8.2.3.4), tokens that are no movetext at all
//! (PGN 8.2), text after the termination marker and unclosed comments
//! (PGN 8.2.6, 5), and wrong check or mate suffixes (PGN 8.2.3.5).

use shakmaty::{
    Chess, Color, Position,
    san::{San, SanPlus, Suffix},
};

use crate::{
    board::lenient,
    board::replay::{self, Failure, Replay},
    board::variations::{self, Problem},
    finding::{Finding, Kind, MoveRef},
    read::game::RawGame,
    read::lexer::{Oddity, SanToken, StopKind},
    read::listed::MAX_LISTED,
};

fn move_ref(game: &RawGame<'_>, before: &Chess, index: usize, start: usize, end: usize) -> MoveRef {
    MoveRef {
        ply: u32::try_from(index + 1).unwrap_or(u32::MAX),
        number: replay::move_number(before),
        san: game.text(start, end),
    }
}

fn token_ref(game: &RawGame<'_>, before: &Chess, index: usize, token: &SanToken) -> MoveRef {
    move_ref(game, before, index, token.start, token.end)
}

/// Findings from the replay: the move it stopped at, and wrong suffixes.
pub fn check_replay(game: &RawGame<'_>, replayed: &Replay, findings: &mut Vec<Finding>) {
    let sans = &game.lexed.sans;
    for issue in replayed.suffix_issues.listed() {
        let Some(token) = sans.get(issue.index) else {
            continue;
        };
        let text = game.text(token.start, token.end);
        let message = match (token.san.suffix, issue.board) {
            (Some(Suffix::Checkmate), Some(Suffix::Check)) => {
                format!("'{text}' is marked as mate (#) but only gives check.")
            }
            (Some(Suffix::Checkmate), _) => {
                format!("'{text}' is marked as mate (#) but gives no check.")
            }
            (_, Some(Suffix::Checkmate)) => {
                format!("'{text}' checkmates, so it should be written with '#'.")
            }
            _ => format!("'{text}' is marked as check (+) but gives no check."),
        };
        findings.push(
            Finding::new(Kind::WrongCheckSuffix, token.line, message)
                .at_move(token_ref(game, &issue.before, issue.index, token))
                .with_fen(replay::fen(&issue.before)),
        );
    }
    for reading in replayed.readings.listed() {
        let Some(token) = sans.get(reading.index) else {
            continue;
        };
        let text = game.text(token.start, token.end);
        let standard = SanPlus::from_move(reading.before.clone(), reading.played);
        findings.push(
            Finding::new(
                Kind::NonStandardSan,
                token.line,
                format!("'{text}' is read as {standard}: {}.", reading.form.rule()),
            )
            .at_move(token_ref(game, &reading.before, reading.index, token))
            .with_fen(replay::fen(&reading.before)),
        );
    }
    for &index in replayed.false_ep_marks.listed() {
        let Some(token) = sans.get(index) else {
            continue;
        };
        findings.push(Finding::new(
            Kind::NonStandardMovetext,
            token.line,
            format!(
                "'e.p.' follows '{}', which takes no pawn en passant; the mark is ignored.",
                game.text(token.start, token.end)
            ),
        ));
    }
    let unlisted = |kind,
                    count: Option<(usize, usize)>,
                    what: &str,
                    findings: &mut Vec<Finding>| {
        let Some((more, token)) = count.and_then(|(more, index)| Some((more, sans.get(index)?)))
        else {
            return;
        };
        findings.push(Finding::new(
            kind,
            token.line,
            format!(
                "{more} more moves of this game, from '{}' on, {what}; only the first {MAX_LISTED} are listed.",
                game.text(token.start, token.end)
            ),
        ));
    };
    unlisted(
        Kind::NonStandardSan,
        replayed.readings.unlisted().map(|(n, r)| (n, r.index)),
        "are not written in standard SAN",
        findings,
    );
    unlisted(
        Kind::NonStandardMovetext,
        replayed.false_ep_marks.unlisted().map(|(n, &i)| (n, i)),
        "are marked 'e.p.' though they take no pawn en passant",
        findings,
    );
    unlisted(
        Kind::WrongCheckSuffix,
        replayed.suffix_issues.unlisted().map(|(n, i)| (n, i.index)),
        "have a wrong '+' or '#'",
        findings,
    );
    stopped_at(game, replayed, findings);
}

/// The move the replay stopped at: illegal or ambiguous.
fn stopped_at(game: &RawGame<'_>, replayed: &Replay, findings: &mut Vec<Finding>) {
    let sans = &game.lexed.sans;
    let Some(stopped) = &replayed.stopped else {
        return;
    };
    let Some(token) = sans.get(stopped.index) else {
        return;
    };
    let pos = &replayed.end;
    let text = game.text(token.start, token.end);
    let mover = replay::side(pos.turn());
    let (kind, message) = match stopped.failure {
        Failure::Ambiguous => {
            let options = ambiguous_options(pos, token.san.san);
            (
                Kind::AmbiguousMove,
                format!(
                    "'{text}' fits more than one legal move for {mover} ({}); the game is not replayed past it.",
                    options.join(", ")
                ),
            )
        }
        Failure::Illegal => {
            let why = match token.san.san {
                San::Null => "a null move is not a move in chess".to_owned(),
                San::Put { .. } => "a piece drop is not a move in chess".to_owned(),
                San::Normal {
                    file: Some(file),
                    rank: Some(rank),
                    to,
                    ..
                } => format!(
                    "it names a move from {} to {to}, which is not a legal move for {mover} in this position",
                    shakmaty::Square::from_coords(file, rank)
                ),
                _ => format!("it is not a legal move for {mover} in this position"),
            };
            (
                Kind::IllegalMove,
                format!("'{text}' cannot be played: {why}; the game is not replayed past it."),
            )
        }
    };
    findings.push(
        Finding::new(kind, token.line, message)
            .at_move(token_ref(game, pos, stopped.index, token))
            .with_fen(replay::fen(pos)),
    );
}

/// The legal moves an ambiguous move could mean, as SAN: those it fits, or
/// those its plain reading fits when that is the one that fits twice.
fn ambiguous_options(pos: &Chess, san: San) -> Vec<String> {
    let options = replay::candidates(pos, &SanPlus { san, suffix: None });
    match lenient::flip_capture(san) {
        Some((flipped, _)) if options.is_empty() => replay::candidates(
            pos,
            &SanPlus {
                san: flipped,
                suffix: None,
            },
        ),
        _ => options,
    }
}

/// Move numbers that are not the number of the move they stand before
/// (PGN 8.2.2.1 allows them to be left out or repeated, never wrong): the
/// first is reported, with a count of the rest. The moves are read in
/// order all the same.
pub fn check_numbers(game: &RawGame<'_>, start: &Chess, findings: &mut Vec<Finding>) {
    let first_black = usize::from(start.turn() == Color::Black);
    let fullmoves = start.fullmoves().get() as usize;
    let mut wrong = game.lexed.numbers.iter().filter(|&&(index, number, _)| {
        index < game.lexed.sans.len() && number as usize != fullmoves + (index + first_black) / 2
    });
    let Some(&(index, number, line)) = wrong.next() else {
        return;
    };
    let more = wrong.count();
    let expected = fullmoves + (index + first_black) / 2;
    let token = &game.lexed.sans[index];
    let mut message = format!(
        "Move number {number} stands before '{}', which is move {expected}; PGN move numbers must be right where they are written. The moves are read in order all the same.",
        game.text(token.start, token.end)
    );
    match more {
        0 => {}
        1 => message.push_str(" One more move number of this game is wrong."),
        _ => message.push_str(&format!(
            " {more} more move numbers of this game are wrong."
        )),
    }
    findings.push(Finding::new(Kind::MoveNumber, line, message));
}

/// Findings from the tokens: a malformed token or text after the result
/// (unless the replay stopped before it), and an unclosed comment.
pub fn check_tokens(game: &RawGame<'_>, replayed: Option<&Replay>, findings: &mut Vec<Finding>) {
    let lexed = game.lexed;
    if let Some(stop) = lexed.stop
        && replayed.is_none_or(|r| r.stopped.is_none())
    {
        let text = game.text(stop.start, stop.end);
        let index = lexed.sans.len();
        let (kind, message) = match stop.kind {
            StopKind::Malformed => (
                Kind::MalformedMove,
                format!(
                    "'{text}' is not a move, move number, comment, NAG, variation or result; the game is not replayed past it, since a move may be missing."
                ),
            ),
            StopKind::AfterResult => (
                Kind::TextAfterResult,
                format!(
                    "'{text}' follows the game termination marker; the marker must end the game (is a blank line missing between two games?). Nothing after the marker is checked."
                ),
            ),
        };
        let finding = Finding::new(kind, stop.line, message);
        findings.push(match replayed {
            Some(replayed) => finding
                .at_move(move_ref(game, &replayed.end, index, stop.start, stop.end))
                .with_fen(replay::fen(&replayed.end)),
            // Not replayed (unknown start): the ply and the token, no number.
            None => finding.at_move(MoveRef {
                ply: u32::try_from(index + 1).unwrap_or(u32::MAX),
                number: String::new(),
                san: game.text(stop.start, stop.end),
            }),
        });
    }
    for odd in lexed.odd.listed() {
        let text = game.text(odd.start, odd.end);
        let message = match odd.what {
            Oddity::NagOutOfRange => format!(
                "'{text}' is no NAG (they run from $0 to $255, PGN 8.2.4); it is ignored like one."
            ),
            Oddity::HalfSigns => format!(
                "'{text}' is read as the draw 1/2-1/2, the termination marker PGN writes (PGN 8.2.6)."
            ),
            Oddity::DashInMarker => format!(
                "'{text}' is read as the termination marker it means; PGN writes it with a hyphen (PGN 8.2.6)."
            ),
            Oddity::StrayParenthesis => {
                "A ')' closes no variation (PGN 8.2.5); it is ignored.".to_owned()
            }
            Oddity::UnclosedVariation => {
                "A variation opened with '(' is never closed (PGN 8.2.5), so the rest of the game was read as part of it.".to_owned()
            }
        };
        findings.push(Finding::new(Kind::NonStandardMovetext, odd.line, message));
    }
    if let Some((more, _)) = lexed.odd.unlisted() {
        findings.push(Finding::new(
            Kind::NonStandardMovetext,
            lexed.odd.listed().last().map_or(game.line, |o| o.line),
            format!(
                "{more} more tokens of this game after this line are not written as PGN writes them; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
    if let Some(line) = lexed.unterminated_comment {
        findings.push(Finding::new(
            Kind::UnterminatedComment,
            line,
            "A comment opened with '{' is never closed; the rest of the input was read as this comment."
                .to_owned(),
        ));
    }
}

/// The finding on a variation as a whole (not on one of its moves): one
/// that replaces no move, holds none, or is nested too deep to check.
fn whole_variation(problem: Problem) -> Option<(Kind, String)> {
    let (kind, message) = match problem {
        Problem::NoMoveBefore => (
            Kind::NonStandardMovetext,
            "A variation stands where no move precedes it, so it replaces no move (PGN 8.2.5); its moves are not checked.".to_owned(),
        ),
        Problem::Empty => (
            Kind::EmptyVariation,
            "A variation holds no move, where PGN 8.2.5 has one or more; its '(' and ')' may be left over from an edit.".to_owned(),
        ),
        Problem::TooDeep => (
            Kind::NonStandardMovetext,
            format!(
                "Variations are nested more than {} deep here; the deeper ones are not checked.",
                variations::MAX_DEPTH
            ),
        ),
        Problem::Illegal | Problem::Ambiguous | Problem::Malformed => return None,
    };
    Some((kind, message))
}

/// Findings in the variations: the first move of each line that cannot be
/// played or read, and variations that are not checked (PGN 8.2.5). Analysis
/// is not the game, so these are warnings of their own codes.
pub fn check_variations(
    game: &RawGame<'_>,
    issues: &crate::read::listed::Listed<variations::Issue>,
    findings: &mut Vec<Finding>,
) {
    for issue in issues.listed() {
        if let Some((kind, message)) = whole_variation(issue.problem) {
            findings.push(Finding::new(kind, issue.line, message));
            continue;
        }
        let text = game.text(issue.start, issue.end);
        let (kind, why) = match (issue.problem, &issue.before) {
            (Problem::Illegal, Some(pos)) => (
                Kind::IllegalMoveInVariation,
                format!(
                    "'{text}' cannot be played: it is not a legal move for {} in this position",
                    replay::side(pos.turn())
                ),
            ),
            (Problem::Ambiguous, Some(pos)) => {
                let options = issue
                    .san
                    .map_or_else(Vec::new, |san| ambiguous_options(pos, san));
                let options = if options.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", options.join(", "))
                };
                (
                    Kind::AmbiguousMoveInVariation,
                    format!(
                        "'{text}' fits more than one legal move for {}{options}",
                        replay::side(pos.turn())
                    ),
                )
            }
            (Problem::Malformed, _) => (
                Kind::MalformedMoveInVariation,
                format!("'{text}' is not a move, move number, comment, NAG or result"),
            ),
            // Said of the variation as a whole, above.
            (Problem::NoMoveBefore | Problem::Empty | Problem::TooDeep, _)
            | (Problem::Illegal | Problem::Ambiguous, None) => continue,
        };
        let depth = match issue.depth {
            1 => "a variation".to_owned(),
            n => format!("a variation nested {n} deep"),
        };
        let message = format!(
            "In {depth}, {why}; that line of play is not followed past it. The mainline is not affected."
        );
        let mut finding = Finding::new(kind, issue.line, message);
        if let Some(pos) = &issue.before {
            finding = finding
                .at_move(MoveRef {
                    ply: u32::try_from(issue.ply).unwrap_or(u32::MAX),
                    number: replay::move_number(pos),
                    san: text,
                })
                .with_fen(replay::fen(pos));
        }
        findings.push(finding);
    }
    if let Some((more, first)) = issues.unlisted() {
        let kind = match first.problem {
            Problem::Illegal => Kind::IllegalMoveInVariation,
            Problem::Ambiguous => Kind::AmbiguousMoveInVariation,
            Problem::Malformed => Kind::MalformedMoveInVariation,
            other => whole_variation(other).map_or(Kind::NonStandardMovetext, |(kind, _)| kind),
        };
        findings.push(Finding::new(
            kind,
            first.line,
            format!(
                "{more} more variation lines of this game, from this line on, have a move that cannot be played or read; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
}
