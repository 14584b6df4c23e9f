//! Clocks: each player's time left after a move, as broadcast and online
//! PGN records it (`{[%clk 1:23:45]}`), against the TimeControl tag (PGN
//! 9.6.1, or as people write it) and the result.
//!
//! - `clock-rises`: a clock higher than the same player's reading after
//!   the previous move by more than the control adds (the increment, and
//!   a new period's time after its last move). A clock runs only down
//!   between moves: a rise is a relay or board glitch, or moves out of
//!   order.
//! - `clock-forfeit-contradicted`: the game is scored as lost on time, but
//!   the loser made the last move and the clock after it shows time left.
//!   A clock stops when its player has moved: the loser's could not run
//!   out with the opponent to move.
//! - `played-past-flag`: a clock at zero after a move, under a control
//!   that adds time a move (a move made in time leaves at least the
//!   increment), and the same player moved again with no loss on time
//!   recorded. A flag counts once it is noticed, so this is for the
//!   arbiter to know.
//!
//! Readings are in whole seconds, cut down, and a relay reads the clock a
//! moment after the move: a rise is reported only when it is over a
//! second more than the control allows. Without an increment a reading of
//! `0:00:00` may be a fraction of a second left, so it is not a flag.
//!
//! A game with no clock reading but the time each move took (`[%emt]`, as
//! FICS writes it) has its clocks worked out from the control
//! ([`from_elapsed`]), trusted to `DERIVED_SLACK`: the last two findings
//! come of them (a clock worked out so cannot rise).

use shakmaty::{Color, KnownOutcome, Position};

use super::{ending::HowEnded, time_control::Period};
use crate::{
    board::replay::{self, side},
    finding::{ClockRow, ClockStrip, Finding, Kind, MoveRef},
    read::{comments::Clock, game::RawGame},
};

/// What a rise may exceed the control by, in tenths: readings in whole
/// seconds, cut down.
const SLACK: u32 = 10;

/// What a clock worked out from the times taken (`[%emt]`) may be off by,
/// in tenths: each time is rounded, and servers leave the lag out of them.
const DERIVED_SLACK: u32 = 50;

/// How a game ended, as far as the clock checks need it.
pub struct End {
    /// How the record says it ended.
    pub how: HowEnded,
    /// The recorded result.
    pub result: Option<KnownOutcome>,
    /// The side to move in the final position, when the moves were
    /// replayed to their end.
    pub turn: Option<Color>,
}

/// Checks the clock readings of a game that starts in `start`: those
/// recorded, else those its moves' times (`[%emt]`) leave of the control.
pub fn check(game: &RawGame<'_>, start: &impl Position, end: &End, findings: &mut Vec<Finding>) {
    let lexed = game.lexed;
    if lexed.comments.clocks.is_empty() && lexed.comments.elapsed.is_empty() {
        return;
    }
    let moves = Moves::from(start);
    let periods = super::time_control::of_game(game);
    if !lexed.comments.clocks.is_empty() {
        let readings = Readings {
            clocks: &lexed.comments.clocks,
            derived: false,
        };
        if let Some(periods) = periods {
            // lichess's arena lets a player give up half the time and the
            // increment ("berserk"); no other source does, nor the games
            // lichess relays from over the board (its broadcasts).
            let lichess = game.tags.get("Site").is_some_and(|site| {
                let site = site.to_ascii_lowercase();
                let has = |part: &[u8]| memchr::memmem::find(&site, part).is_some();
                has(b"lichess.org") && !has(b"/broadcast")
            });
            let berserk_from = if lichess {
                &lexed.comments.clocks[..]
            } else {
                &[]
            };
            let control = Control::new(periods, &moves, start, berserk_from);
            rises(game, &moves, &control, &readings, findings);
            past_flag(game, &moves, &control, &readings, end, findings);
        }
        forfeit(game, &moves, &readings, end, findings);
    } else if let Some(periods) = periods {
        // No berserk is seen in times taken: each side has the control.
        let control = Control::new(periods, &moves, start, &[]);
        let clocks = from_elapsed(&lexed.comments.elapsed, &moves, &control);
        let readings = Readings {
            clocks: &clocks,
            derived: true,
        };
        past_flag(game, &moves, &control, &readings, end, findings);
        forfeit(game, &moves, &readings, end, findings);
    }
}

/// Clock readings, and whether they were worked out from the moves'
/// times rather than recorded.
struct Readings<'a> {
    clocks: &'a [Clock],
    derived: bool,
}

impl Readings<'_> {
    /// What a reading may be off by, in tenths.
    fn slack(&self) -> u32 {
        if self.derived { DERIVED_SLACK } else { SLACK }
    }

    /// The moves of `plies` with their movers' clocks after them, for the
    /// page; the readings of the plies in `marked` are what the finding is
    /// about.
    fn strip(
        &self,
        game: &RawGame<'_>,
        moves: &Moves,
        plies: impl IntoIterator<Item = usize>,
        marked: &[usize],
    ) -> ClockStrip {
        let rows = plies
            .into_iter()
            .map(|ply| {
                let at = self.clocks.partition_point(|c| c.ply < ply);
                let clock = self.clocks.get(at).filter(|c| c.ply == ply);
                ClockRow {
                    mv: moves.label(game, ply),
                    white: moves.mover(ply) == Color::White,
                    clock: clock
                        .map(|c| shown(u64::from(c.tenths)))
                        .unwrap_or_default(),
                    marked: marked.contains(&ply),
                }
            })
            .collect();
        ClockStrip {
            rows,
            derived: self.derived,
        }
    }

    /// How a reading was come by, for a message: nothing for a recorded
    /// one.
    fn source(&self) -> &'static str {
        if self.derived {
            " (worked out from the time control and the time each move took, as [%emt] records it)"
        } else {
            ""
        }
    }
}

/// The clocks that the times taken (`elapsed`, `[%emt]`) leave: each
/// side's starts at the first period's time, loses each move's time and
/// gains what the control adds after it (a reading below zero is zero).
/// A side's clock is worked out only while every move of its has a time.
fn from_elapsed(elapsed: &[Clock], moves: &Moves, control: &Control) -> Vec<Clock> {
    let base = i64::try_from(tenths(control.periods[0].base)).unwrap_or(i64::MAX);
    let mut left = [base; 2];
    // The ply each side's next move is, while its times are whole.
    let mut next = [0usize; 2];
    next[moves.first as usize] = 1;
    next[!moves.first as usize] = 2;
    let mut out = Vec::with_capacity(elapsed.len());
    for reading in elapsed {
        let mover = moves.mover(reading.ply);
        let side = mover as usize;
        if next[side] != reading.ply {
            // A move of this side without a time: its clock is not known
            // from here on.
            next[side] = usize::MAX;
            continue;
        }
        next[side] += 2;
        let added = i64::try_from(control.added(mover, moves.number(reading.ply))).unwrap_or(0);
        left[side] = left[side]
            .saturating_sub(i64::from(reading.tenths))
            .saturating_add(added);
        // Zero only where the time is plainly out, past what the times
        // taken may be off by.
        let shown = if left[side] <= -i64::from(DERIVED_SLACK) {
            0
        } else {
            left[side].max(1)
        };
        out.push(Clock {
            ply: reading.ply,
            tenths: u32::try_from(shown).unwrap_or(u32::MAX),
            line: reading.line,
        });
    }
    out
}

/// The time control of a game, as each side had it.
struct Control {
    periods: Vec<Period>,
    /// What every move gets, when the control has one period for the
    /// whole game (`180+2`).
    flat: Option<u64>,
    /// Sides that gave up their increment for half their time (lichess's
    /// arena "berserk"): the first reading is at most half the time. Only
    /// the readings of a lichess game are looked at for it.
    berserk: [bool; 2],
}

impl Control {
    fn new(
        periods: Vec<Period>,
        moves: &Moves,
        start: &impl Position,
        clocks: &[Clock],
    ) -> Control {
        let mut berserk = [false; 2];
        let from_start = start.fullmoves().get() == 1
            && start.turn() == Color::White
            && start.board().occupied().count() == 32;
        let half = tenths(periods[0].base) / 2;
        if from_start {
            for clock in clocks.iter().take_while(|c| c.ply <= 2) {
                berserk[moves.mover(clock.ply) as usize] =
                    half > 0 && u64::from(clock.tenths) <= half + u64::from(SLACK);
            }
        }
        let flat = match periods[..] {
            [
                Period {
                    moves: None,
                    increment,
                    ..
                },
            ] => Some(tenths(increment)),
            _ => None,
        };
        Control {
            periods,
            flat,
            berserk,
        }
    }

    /// What the control gives `side` for its move numbered `number` (see
    /// [`added`]); nothing for a side that went berserk.
    fn added(&self, side: Color, number: u32) -> u64 {
        if self.berserk[side as usize] {
            0
        } else {
            self.flat.unwrap_or_else(|| added(&self.periods, number))
        }
    }
}

/// Seconds in tenths.
fn tenths(seconds: f64) -> u64 {
    (seconds * 10.0).round().clamp(0.0, 1e12) as u64
}

/// Who made each ply of a game, and in which move.
struct Moves {
    first: Color,
    fullmoves: u32,
}

impl Moves {
    fn from(start: &impl Position) -> Moves {
        Moves {
            first: start.turn(),
            fullmoves: start.fullmoves().get(),
        }
    }

    /// The side that made 1-based `ply`.
    fn mover(&self, ply: usize) -> Color {
        if ply % 2 == 1 {
            self.first
        } else {
            !self.first
        }
    }

    /// The move number of 1-based `ply`.
    fn number(&self, ply: usize) -> u32 {
        let before = u32::try_from(ply.saturating_sub(1)).unwrap_or(u32::MAX);
        let shift = u32::from(self.first == Color::Black);
        self.fullmoves
            .saturating_add(before.saturating_add(shift) / 2)
    }

    /// The move of 1-based `ply`, as recorded: `23...Nf6`.
    fn label(&self, game: &RawGame<'_>, ply: usize) -> String {
        let mv = self.reference(game, ply);
        format!("{}{}", mv.number, mv.san)
    }

    fn reference(&self, game: &RawGame<'_>, ply: usize) -> MoveRef {
        let san = ply
            .checked_sub(1)
            .and_then(|i| game.lexed.sans.get(i))
            .map(|t| game.text(t.start, t.end))
            .unwrap_or_default();
        MoveRef {
            ply: u32::try_from(ply).unwrap_or(u32::MAX),
            number: replay::number_label(self.mover(ply), self.number(ply)),
            san,
        }
    }
}

/// What the control gives for the move numbered `number`: the time added
/// for it (in tenths), and the next period's time if it is that period's
/// last move. A last period with a move count repeats.
fn added(periods: &[Period], number: u32) -> u64 {
    let mut from = 0u32;
    for (index, period) in periods.iter().enumerate() {
        let Some(count) = period.moves else {
            return tenths(period.increment);
        };
        let last = from.saturating_add(count);
        if number <= last {
            let bonus = match (number == last, periods.get(index + 1)) {
                (false, _) => 0,
                (true, Some(next)) => tenths(next.base),
                // The last period starts again.
                (true, None) => tenths(period.base),
            };
            return tenths(period.increment) + bonus;
        }
        from = last;
    }
    // Past the periods listed, the last (which has a move count) repeats:
    // counted, not walked, however large the move number.
    let period = periods[periods.len() - 1];
    let count = period.moves.unwrap_or(1).max(1);
    let bonus = if (number - from).is_multiple_of(count) {
        tenths(period.base)
    } else {
        0
    };
    tenths(period.increment) + bonus
}

/// `h:mm:ss`, with tenths when there are any.
fn shown(tenths: u64) -> String {
    let seconds = tenths / 10;
    let text = format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    match tenths % 10 {
        0 => text,
        t => format!("{text}.{t}"),
    }
}

/// A span of time in words: `45 s`, `1 min 5 s`.
fn span(tenths: u64) -> String {
    let seconds = tenths / 10;
    let fraction = match tenths % 10 {
        0 => String::new(),
        t => format!(".{t}"),
    };
    match (seconds / 60, seconds % 60) {
        (0, s) => format!("{s}{fraction} s"),
        (m, 0) if fraction.is_empty() => format!("{m} min"),
        (m, s) => format!("{m} min {s}{fraction} s"),
    }
}

/// A rise of this much over what the control adds, in tenths, is time put
/// on a clock by hand (an arbiter's two minutes after an illegal move,
/// FIDE 2023 7.5.5; a clock set again). Less is the timing of a relay over
/// the board, or time a player gave online.
const BY_HAND: u64 = 600;

/// A reading higher than the player's previous one by more than the
/// control adds: the first by a minute or more (`clock-rises`), else the
/// first (`clock-drift`), and how many more there are.
fn rises(
    game: &RawGame<'_>,
    moves: &Moves,
    control: &Control,
    readings: &Readings<'_>,
    findings: &mut Vec<Finding>,
) {
    let mut last: [Option<&Clock>; 2] = [None, None];
    // The first rise by hand, and the first rise.
    let mut by_hand = None;
    let mut first_rise = None;
    let mut count = 0u32;
    for clock in readings.clocks {
        let mover = moves.mover(clock.ply);
        let slot = &mut last[mover as usize];
        let Some(previous) = slot.replace(clock) else {
            continue;
        };
        let before = u64::from(previous.tenths);
        // Each of the player's moves since the last reading adds what the
        // control gives it (a move without a reading in between too).
        let allowed = (previous.ply + 2..=clock.ply)
            .step_by(2)
            .map(|ply| control.added(mover, moves.number(ply)))
            .sum();
        let now = u64::from(clock.tenths);
        if now > before + allowed + u64::from(SLACK) {
            count += 1;
            let rise = Some((clock, previous, allowed));
            if by_hand.is_none() && now >= before + allowed + BY_HAND {
                by_hand = rise;
            }
            first_rise = first_rise.or(rise);
        }
    }
    let (kind, (clock, previous, allowed)) = match (by_hand, first_rise) {
        (Some(rise), _) => (Kind::ClockRises, rise),
        (None, Some(rise)) => (Kind::ClockDrift, rise),
        (None, None) => return,
    };
    let who = side(moves.mover(clock.ply));
    let (before, now) = (u64::from(previous.tenths), u64::from(clock.tenths));
    let others = match count - 1 {
        0 => String::new(),
        1 => " One more reading of this game rises too.".to_owned(),
        n => format!(" {n} more readings of this game rise too."),
    };
    let moves_since = match (clock.ply - previous.ply) / 2 {
        1 => "that move".to_owned(),
        n => format!("those {n} moves"),
    };
    let why = if kind == Kind::ClockRises {
        "A clock runs only down between a player's moves, and a minute or more over what the control adds is time put on by hand: an arbiter gives a player two minutes when the opponent completes an illegal move (FIDE 2023 7.5.5), which the record does not show, or the clock was set again; else the moves are out of order."
    } else {
        "A clock runs only down between a player's moves; less than a minute over what the control adds is the timing of a relay over the board (it reads a clock a moment after the move) or, online, time the opponent gave."
    };
    let message = format!(
        "{who}'s clock rises from {} after {} to {} after {}: {} more, where the time control adds at most {} for {moves_since}. {why}{others}",
        shown(before),
        moves.label(game, previous.ply),
        shown(now),
        moves.label(game, clock.ply),
        span(now - before),
        span(allowed),
    );
    // The two readings, and the moves between them when they are few.
    let plies: Vec<usize> = if clock.ply.saturating_sub(previous.ply) <= 4 {
        (previous.ply..=clock.ply).collect()
    } else {
        vec![previous.ply, clock.ply - 1, clock.ply]
    };
    let strip = readings.strip(game, moves, plies, &[previous.ply, clock.ply]);
    findings.push(
        Finding::new(kind, clock.line, message)
            .at_move(moves.reference(game, clock.ply))
            .with_clocks(strip),
    );
}

/// `played-past-flag`: the first reading of zero under an increment after
/// which the same player moved again, unless that player is recorded as
/// losing on time.
fn past_flag(
    game: &RawGame<'_>,
    moves: &Moves,
    control: &Control,
    readings: &Readings<'_>,
    end: &End,
    findings: &mut Vec<Finding>,
) {
    let plies = game.lexed.sans.len();
    let lost_on_time = |color: Color| {
        end.how == HowEnded::TimeForfeit
            && end.result == Some(KnownOutcome::Decisive { winner: !color })
    };
    let Some(clock) = readings.clocks.iter().find(|clock| {
        let mover = moves.mover(clock.ply);
        clock.tenths == 0
            && clock.ply + 2 <= plies
            && !lost_on_time(mover)
            && control.added(mover, moves.number(clock.ply)) >= 10
    }) else {
        return;
    };
    let who = side(moves.mover(clock.ply));
    let message = format!(
        "{who}'s clock shows 0:00:00 after {}{}, though the time control adds time for each move made in time: {who}'s time had run out. {who} moved again, {}, and the game was not scored as lost on time: no flag fall was noticed or claimed.",
        moves.label(game, clock.ply),
        readings.source(),
        moves.label(game, clock.ply + 2),
    );
    let strip = readings.strip(game, moves, clock.ply..=clock.ply + 2, &[clock.ply]);
    findings.push(
        Finding::new(Kind::PlayedPastFlag, clock.line, message)
            .at_move(moves.reference(game, clock.ply))
            .with_clocks(strip),
    );
}

/// `clock-forfeit-contradicted`: a loss on time whose loser made the last
/// move with time left on the clock after it.
fn forfeit(
    game: &RawGame<'_>,
    moves: &Moves,
    readings: &Readings<'_>,
    end: &End,
    findings: &mut Vec<Finding>,
) {
    let (HowEnded::TimeForfeit, Some(KnownOutcome::Decisive { winner }), Some(turn)) =
        (end.how, end.result, end.turn)
    else {
        return;
    };
    let loser = !winner;
    let plies = game.lexed.sans.len();
    let Some(clock) = readings.clocks.last().filter(|clock| clock.ply == plies) else {
        return;
    };
    if turn != winner || moves.mover(clock.ply) != loser || clock.tenths < readings.slack() {
        return;
    }
    let message = format!(
        "The game is scored as lost on time by {}, but {} made the last move, {}, and the clock after it shows {}{}: that clock had stopped with time left, and {} was to move. The result may name the wrong side, or the record may lack the last move.",
        side(loser),
        side(loser),
        moves.label(game, clock.ply),
        shown(u64::from(clock.tenths)),
        readings.source(),
        side(winner),
    );
    let strip = readings.strip(game, moves, clock.ply.max(2) - 1..=clock.ply, &[clock.ply]);
    findings.push(
        Finding::new(Kind::ClockForfeitContradicted, clock.line, message)
            .at_move(moves.reference(game, clock.ply))
            .with_clocks(strip),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::time_control::periods;

    #[test]
    fn the_control_adds_its_increment_and_each_new_period() {
        let classical = periods("40/5400+30:1800+30").unwrap();
        assert_eq!(added(&classical, 1), 300);
        assert_eq!(added(&classical, 39), 300);
        // After move 40 the second period's 30 minutes come.
        assert_eq!(added(&classical, 40), 300 + 18_000);
        assert_eq!(added(&classical, 41), 300);
        // A last period with a move count repeats.
        let repeating = periods("40/7200").unwrap();
        assert_eq!(added(&repeating, 40), 72_000);
        assert_eq!(added(&repeating, 80), 72_000);
        assert_eq!(added(&repeating, 79), 0);
        // However large the move number: counted, not walked.
        assert_eq!(added(&periods("1/60").unwrap(), u32::MAX), 600);
        assert_eq!(added(&periods("40/60:2/10").unwrap(), 44), 100);
        assert_eq!(added(&periods("40/60:2/10").unwrap(), 45), 0);
        assert_eq!(added(&periods("180+2").unwrap(), 7), 20);
        assert_eq!(added(&periods("15 min. + 10 s. per move").unwrap(), 7), 100);
        assert_eq!(periods("-"), None);
        assert_eq!(periods("?"), None);
    }

    #[test]
    fn times_read_as_clocks_and_spans() {
        assert_eq!(shown(37_230), "1:02:03");
        assert_eq!(shown(37_234), "1:02:03.4");
        assert_eq!(span(450), "45 s");
        assert_eq!(span(650), "1 min 5 s");
        assert_eq!(span(18_000), "30 min");
    }

    #[test]
    fn moves_are_numbered_from_the_start() {
        let white = Moves {
            first: Color::White,
            fullmoves: 1,
        };
        assert_eq!((white.mover(1), white.number(1)), (Color::White, 1));
        assert_eq!((white.mover(2), white.number(2)), (Color::Black, 1));
        assert_eq!((white.mover(3), white.number(3)), (Color::White, 2));
        let black = Moves {
            first: Color::Black,
            fullmoves: 30,
        };
        assert_eq!((black.mover(1), black.number(1)), (Color::Black, 30));
        assert_eq!((black.mover(2), black.number(2)), (Color::White, 31));
        assert_eq!((black.mover(3), black.number(3)), (Color::Black, 31));
    }

    /// Every finding of a one-game PGN, judged by the defaults.
    fn audited(pgn: &str) -> Vec<Finding> {
        let game = crate::testing::game(pgn);
        let mut findings = Vec::new();
        crate::checks::audit(
            &game.raw(),
            crate::checks::Judging::default(),
            &mut crate::checks::draws::history::History::default(),
            &mut findings,
        );
        findings
    }

    /// A rise over two moves, one without a reading, is held to two
    /// increments, and the message says so.
    #[test]
    fn a_rise_over_moves_without_a_reading_is_held_to_their_increments() {
        let pgn = "[TimeControl \"180+5\"]\n\n1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} \
                   2. Nf3 Nc6 {[%clk 0:03:00]} 3. Bc4 {[%clk 0:03:30]} *";
        let findings = audited(pgn);
        let rise = findings
            .iter()
            .find(|f| f.kind == Kind::ClockDrift)
            .unwrap();
        assert!(
            rise.message
                .contains("30 s more, where the time control adds at most 10 s for those 2 moves"),
            "{}",
            rise.message
        );
    }

    /// The clock findings of a one-game PGN.
    fn clock_findings(pgn: &str) -> Vec<Kind> {
        let judging = crate::checks::Judging {
            edition: crate::board::rules::Edition::Fide2023,
            search: crate::board::winnable::Search::Fast,
            skip_variations: false,
            header: crate::checks::header::HeaderRules::default(),
            duplicates: false,
            corrections: false,
        };
        let game = crate::testing::game(pgn);
        let game = game.raw();
        let mut findings = Vec::new();
        crate::checks::audit(
            &game,
            judging,
            &mut crate::checks::draws::history::History::default(),
            &mut findings,
        );
        findings
            .iter()
            .map(|f| f.kind)
            .filter(|k| {
                matches!(
                    k,
                    Kind::ClockRises
                        | Kind::ClockDrift
                        | Kind::ClockForfeitContradicted
                        | Kind::PlayedPastFlag
                )
            })
            .collect()
    }

    #[test]
    fn what_the_control_allows_is_no_finding() {
        for pgn in [
            // The increment, and a second of rounding.
            "[TimeControl \"180+2\"]\n\n1. e4 {[%clk 0:03:01]} e5 {[%clk 0:03:02]} \
             2. Nf3 {[%clk 0:03:04]} *",
            // The second period's time after move 2.
            "[TimeControl \"2/60:600\"]\n\n1. e4 {[%clk 0:00:50]} e5 {[%clk 0:00:50]} \
             2. Nf3 {[%clk 0:10:40]} *",
            // No control: nothing to hold a rise against.
            "1. e4 {[%clk 0:03:01]} e5 2. Nf3 {[%clk 0:09:00]} *",
            // Without an increment, 0:00:00 may be under a second left.
            "[TimeControl \"60+0\"]\n\n1. e4 {[%clk 0:00:00]} e5 2. Nf3 *",
            // A side that went berserk on lichess (half its time) has no
            // increment.
            "[Site \"https://Lichess.org/abcdefgh\"]\n[TimeControl \"180+1\"]\n\n1. e4 {[%clk 0:03:00]} e5 {[%clk 0:01:30]} \
             2. Nf3 {[%clk 0:03:00]} Nc6 {[%clk 0:00:00]} 3. Bc4 {[%clk 0:03:00]} Nf6 *",
            // A loss on time by the side to move, whatever its clock said.
            "[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n\
             1. e4 {[%clk 0:00:59]} e5 {[%clk 0:00:50]} 2. Nf3 {[%clk 0:00:58]} 1-0",
            // The loser moved last with the clock at zero: the flag fell.
            "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n\
             1. e4 {[%clk 0:00:00]} 0-1",
            // Two moves since Black's last reading: two increments.
            "[TimeControl \"180+5\"]\n\n1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:55]} \
             2. Nf3 {[%clk 0:03:00]} Nc6 3. Bc4 {[%clk 0:03:00]} Nf6 {[%clk 0:03:04]} *",
            // A late arrival over the board keeps the increment, relayed
            // by lichess too.
            "[Site \"https://lichess.org/broadcast/x/round-1/abcd\"]\n[TimeControl \"5400+30\"]\n\n\
             1. e4 {[%clk 1:30:30]} e5 {[%clk 0:40:00]} 2. Nf3 {[%clk 1:30:50]} \
             Nc6 {[%clk 0:40:20]} *",
            // A late arrival over the board keeps the increment.
            "[Site \"Wijk aan Zee NED\"]\n[TimeControl \"5400+30\"]\n\n\
             1. e4 {[%clk 1:30:30]} e5 {[%clk 0:40:00]} 2. Nf3 {[%clk 1:30:50]} \
             Nc6 {[%clk 0:40:20]} *",
            // A daily game: each move has its own days (chess.com 1/432000).
            "[Site \"Chess.com\"]\n[TimeControl \"1/432000\"]\n\n\
             1. e4 {[%clk 119:59:50]} e5 {[%clk 40:00:00]} 2. Nf3 {[%clk 100:00:00]} \
             Nc6 {[%clk 110:00:00]} *",
            // A reading after the end is not read.
            "[TimeControl \"180+2\"]\n\n1. e4 {[%clk 0:03:01]} * {[%clk 0:09:00]}",
        ] {
            assert_eq!(clock_findings(pgn), [], "{pgn}");
        }
    }

    /// A rise of a minute or more over the control is time put on by hand
    /// (`clock-rises`, said of the first such rise whatever came before);
    /// less is a relay's timing or a gift (`clock-drift`); one finding a
    /// game.
    #[test]
    fn a_rise_by_hand_is_told_from_a_relays_timing() {
        let game = |black: [&str; 3]| {
            format!(
                "[TimeControl \"900+10\"]\n\n1. e4 {{[%clk 0:15:00]}} e5 {{[%clk {}]}} \
                 2. Nf3 {{[%clk 0:15:00]}} Nc6 {{[%clk {}]}} 3. Bc4 {{[%clk 0:15:00]}} Nf6 {{[%clk {}]}} *",
                black[0], black[1], black[2]
            )
        };
        // 4 s over the increment: a relay reading late.
        let drift = game(["0:10:00", "0:10:14", "0:10:14"]);
        assert_eq!(clock_findings(&drift), [Kind::ClockDrift]);
        // 59 s over is still no hand's work; 60 s over is.
        let under = game(["0:10:00", "0:11:09", "0:11:09"]);
        assert_eq!(clock_findings(&under), [Kind::ClockDrift]);
        let by_hand = game(["0:10:00", "0:11:10", "0:11:10"]);
        assert_eq!(clock_findings(&by_hand), [Kind::ClockRises]);
        // Two minutes after a small rise: the two minutes are reported,
        // with the other rise counted.
        let findings = audited(&game(["0:10:00", "0:10:14", "0:12:24"]));
        let rises: Vec<_> = findings
            .iter()
            .filter(|f| matches!(f.kind, Kind::ClockRises | Kind::ClockDrift))
            .collect();
        assert_eq!(rises.len(), 1);
        assert_eq!(rises[0].kind, Kind::ClockRises);
        let message = &rises[0].message;
        assert!(
            message.contains("from 0:10:14 after 2...Nc6 to 0:12:24 after 3...Nf6"),
            "{message}"
        );
        assert!(message.contains("FIDE 2023 7.5.5"), "{message}");
        assert!(
            message.contains("One more reading of this game rises too."),
            "{message}"
        );
    }

    /// Without a clock, the times taken (`[%emt]`, written as FICS writes
    /// them and as `h:mm:ss`) under the control tell the time left.
    #[test]
    fn clocks_are_worked_out_from_the_times_taken() {
        // White takes 100 s and 70.5 s of 180: 9.5 s left after 2.Nf3.
        let pgn = "[Result \"0-1\"]\n[TimeControl \"180+0\"]\n[Termination \"Time forfeit\"]\n\n\
                   1. e4 {[%emt 100.0]} e5 {[%emt 1.337]} 2. Nf3 {[%emt 0:01:10.46]} 0-1";
        assert_eq!(clock_findings(pgn), [Kind::ClockForfeitContradicted]);
        // 5 s of doubt: the times taken leave out the lag.
        let close = pgn.replace("0:01:10.46", "0:01:15.2");
        assert_eq!(clock_findings(&close), []);
        // A move without a time: its side's clock is not known after it.
        let gap = pgn.replace("{[%emt 100.0]}", "");
        assert_eq!(clock_findings(&gap), []);
        // A recorded clock is read instead.
        let clocked = pgn.replace("{[%emt 0:01:10.46]}", "{[%emt 0:01:10.46] [%clk 0:00:00]}");
        assert_eq!(clock_findings(&clocked), []);
        // Under an increment, a time taken past what is left is a flag.
        let flag = "[Result \"1/2-1/2\"]\n[TimeControl \"60+1\"]\n\n\
                    1. e4 {[%emt 70]} e5 {[%emt 1]} 2. Nf3 {[%emt 1]} Nc6 1/2-1/2";
        assert_eq!(clock_findings(flag), [Kind::PlayedPastFlag]);
        // No control, no time to start from.
        let untimed = pgn.replace("[TimeControl \"180+0\"]\n", "");
        assert_eq!(clock_findings(&untimed), []);
    }

    #[test]
    fn a_played_flag_is_no_flag_once_the_loss_is_recorded() {
        let pgn = "[Result \"0-1\"]\n[TimeControl \"180+2\"]\n[Termination \"Time forfeit\"]\n\n\
                   1. e4 {[%clk 0:03:01]} e5 2. Nf3 {[%clk 0:00:00]} Nc6 3. Bc4 Nf6 0-1";
        assert_eq!(clock_findings(pgn), []);
        let drawn = pgn.replace("0-1", "1/2-1/2");
        assert_eq!(clock_findings(&drawn), [Kind::PlayedPastFlag]);
    }
}
