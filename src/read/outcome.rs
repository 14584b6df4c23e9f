//! The four results PGN writes, in the Result tag (8.1.1.7) and as the
//! termination marker (8.2.6): one table of their texts, read into and
//! written from shakmaty's [`Outcome`]. Every stage that reads or writes a
//! result as text goes through here (the lexer reads markers byte by byte,
//! as pgn-reader's tokenizer does).

use shakmaty::Outcome;

/// The results PGN allows: White wins, Black wins, a draw, and unknown.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The result `value` is, if it is exactly one of the four.
pub fn parse(value: &[u8]) -> Option<Outcome> {
    Outcome::from_ascii(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_result_reads_back_as_written() {
        for text in RESULTS {
            let outcome = parse(text.as_bytes()).unwrap();
            assert_eq!(outcome.as_str(), text);
            // As shakmaty reads and writes it.
            assert_eq!(text.parse::<Outcome>().ok(), Some(outcome));
            assert_eq!(outcome.to_string(), text);
        }
        for other in ["", "1-0 ", "½-½", "1/2", "0-0"] {
            assert_eq!(parse(other.as_bytes()), None, "{other:?}");
        }
    }
}
