//! The starting position: the Variant tag (standard chess and Chess960 are
//! replayed, FIDE 2023 Guidelines II for Chess960), and the SetUp and FEN
//! tags (PGN 9.7).

use shakmaty::{CastlingMode, Chess, FromSetup, Setup, fen::Fen};

use crate::{
    finding::{Finding, Kind},
    read::game::{RawGame, excerpt},
};

pub use crate::read::tags::{Variant, variant};

/// Why a game is not replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReplayed {
    /// Its variant has other rules (and other notation).
    Variant,
    /// One of lichess's variants: replayed by its own rules.
    Lichess(shakmaty::variant::Variant),
    /// Its starting position is unknown or illegal.
    Fen,
}

/// The position the game starts from, or why (with a finding) the game
/// cannot be replayed.
pub fn start(game: &RawGame<'_>, findings: &mut Vec<Finding>) -> Result<Chess, NotReplayed> {
    let mut chess960 = false;
    if let Some((index, value)) = game.tags.find("Variant") {
        match variant(value) {
            Variant::Standard => {}
            Variant::Chess960 => chess960 = true,
            Variant::Lichess(variant) => return Err(NotReplayed::Lichess(variant)),
            Variant::Other => {
                findings.push(Finding::new(
                    Kind::UnsupportedVariant,
                    game.tag_line(index),
                    format!(
                        "Variant '{}' is not replayed (standard chess, Chess960 and lichess's variants are), so its moves and result are not checked.",
                        excerpt(value, 40)
                    ),
                ));
                return Err(NotReplayed::Variant);
            }
        }
    }

    let Some((index, value)) = game.tags.find("FEN") else {
        if let Some((index, setup)) = game.tags.find("SetUp")
            && setup == b"1"
        {
            findings.push(Finding::new(
                Kind::InvalidFen,
                game.tag_line(index),
                "SetUp is \"1\" but the game has no FEN tag, so its starting position is unknown and it is not replayed.".to_owned(),
            ).citing(crate::board::rules::Source::Pgn("PGN 9.7.1")));
            return Err(NotReplayed::Fen);
        }
        if !chess960 {
            return Ok(Chess::new());
        }
        // The standard array is a legal start in both castling modes.
        return Chess::from_setup(Setup::default(), CastlingMode::Chess960)
            .map_err(|_| NotReplayed::Fen);
    };

    let line = game.tag_line(index);
    let shown = excerpt(value, 90);
    let fen = match Fen::from_ascii(value.trim_ascii()) {
        Ok(fen) => fen,
        Err(err) => {
            findings.push(Finding::new(
                Kind::InvalidFen,
                line,
                format!("FEN '{shown}' cannot be parsed ({err}), so the game is not replayed."),
            ));
            return Err(NotReplayed::Fen);
        }
    };
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::detect(fen.as_setup())
    };
    match fen.into_position::<Chess>(mode) {
        Ok(pos) => Ok(pos),
        Err(err) => {
            findings.push(Finding::new(
                Kind::InvalidFen,
                line,
                format!(
                    "FEN '{shown}' is not a legal position ({err}), so the game is not replayed."
                ),
            ));
            Err(NotReplayed::Fen)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    /// The standard start, built as a constant, is the position the
    /// standard array sets up.
    #[test]
    fn the_standard_start_is_the_standard_array() {
        let built = Chess::from_setup(Setup::default(), CastlingMode::Standard).unwrap();
        let start = Chess::new();
        assert_eq!(start.castles().mode(), built.castles().mode());
        assert_eq!(
            start.to_setup(shakmaty::EnPassantMode::Always),
            built.to_setup(shakmaty::EnPassantMode::Always)
        );
    }

    #[test]
    fn variant_spellings() {
        for v in ["Standard", "From Position", "", "chess"] {
            assert_eq!(variant(v.as_bytes()), Variant::Standard, "{v}");
        }
        for v in [
            "Chess960",
            "chess 960",
            "Fischerandom",
            "Fischer Random",
            "960",
            "FRC",
        ] {
            assert_eq!(variant(v.as_bytes()), Variant::Chess960, "{v}");
        }
        // lichess's variants, as lichess and others write them.
        for (v, lichess) in [
            ("Atomic", shakmaty::variant::Variant::Atomic),
            ("Crazyhouse", shakmaty::variant::Variant::Crazyhouse),
            ("Three-check", shakmaty::variant::Variant::ThreeCheck),
            ("3check", shakmaty::variant::Variant::ThreeCheck),
            (
                "King of the Hill",
                shakmaty::variant::Variant::KingOfTheHill,
            ),
            ("Racing Kings", shakmaty::variant::Variant::RacingKings),
            ("Antichess", shakmaty::variant::Variant::Antichess),
            ("Horde", shakmaty::variant::Variant::Horde),
        ] {
            assert_eq!(variant(v.as_bytes()), Variant::Lichess(lichess), "{v}");
        }
        for v in ["Seirawan", "Sittuyin", "Suicide", "Bughouse"] {
            assert_eq!(variant(v.as_bytes()), Variant::Other, "{v}");
        }
    }
}
