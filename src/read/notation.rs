//! Move notation as text, before any board: the ways a token departs from
//! standard SAN ([`Form`]) and the tokens that are no SAN but plainly mean
//! one (`read_token`). Which legal move a reading names is the board's
//! business ([`board::lenient`](crate::board::lenient)).

use shakmaty::san::SanPlus;

/// Why a move is not in standard form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A capture written without `x`.
    CaptureWithoutMark,
    /// `x` written for a move that takes nothing.
    MarkWithoutCapture,
    /// Long algebraic or UCI: the from-square and the to-square.
    Squares,
    /// Castling written with zeros or small letters: `0-0`, `o-o`.
    Castling,
    /// A promotion without `=`, or with a small letter: `e8Q`, `e8=q`.
    Promotion,
    /// Mate marked `++`.
    DoublePlus,
    /// A from-file, rank or square that is not needed, or not the one PGN
    /// prefers: `Ngf3` where `Nf3` is unique.
    Disambiguation,
}

impl Form {
    /// What PGN writes instead, for messages.
    pub fn rule(self) -> &'static str {
        match self {
            Form::CaptureWithoutMark => "PGN writes a capture with 'x'",
            Form::MarkWithoutCapture => "PGN writes 'x' only for a capture",
            Form::Squares => {
                "PGN writes the piece letter and the target square, with the from-file or rank only when two pieces could go there"
            }
            Form::Castling => "PGN writes castling with the capital letter O",
            Form::Promotion => "PGN writes a promotion with '=' and a capital letter",
            Form::DoublePlus => "PGN marks mate with '#'",
            Form::Disambiguation => {
                "PGN names the from-file, else the rank, else the square, only when two pieces could go there"
            }
        }
    }
}

/// A token that is no SAN but plainly means one: castling with small
/// letters (`o-o`), long algebraic with a hyphen (`Ng1-f3`, `e2-e4`), a
/// promotion without `=` or with a small letter (`e8Q`, `e7e8q`), mate
/// marked `++`. Returns the SAN and the first way it departs from the
/// standard; `None` when it is no such thing (the token is malformed).
pub fn read_token(token: &[u8]) -> Option<(SanPlus, Form)> {
    if token.len() > 16 || !token.is_ascii() {
        return None;
    }
    let mut form = None;
    let mut text = token.to_vec();
    if text.ends_with(b"++") {
        text.truncate(text.len() - 2);
        text.push(b'#');
        form.get_or_insert(Form::DoublePlus);
    }
    let body_end = text
        .iter()
        .rposition(|b| !matches!(b, b'+' | b'#'))
        .map_or(0, |i| i + 1);
    let (body, suffix) = text.split_at(body_end);
    let mut body = body.to_vec();
    let suffix = suffix.to_vec();
    if matches!(&body[..], b"o-o" | b"o-o-o" | b"0-0" | b"0-0-0") {
        body = body
            .iter()
            .map(|&b| if b == b'-' { b } else { b'O' })
            .collect();
        form = Some(form.unwrap_or(Form::Castling));
    } else {
        // Long algebraic: a hyphen between the two squares.
        if let Some(at) = body.iter().position(|&b| b == b'-')
            && at >= 2
            && body[at - 1].is_ascii_digit()
        {
            body.remove(at);
            form.get_or_insert(Form::Squares);
        }
        // A promotion piece after the last rank, without `=` or in small
        // letters.
        let n = body.len();
        if n >= 3 && matches!(body[n - 2], b'1' | b'8') && b"qrbnQRBN".contains(&body[n - 1]) {
            let piece = body[n - 1].to_ascii_uppercase();
            body.truncate(n - 1);
            body.extend([b'=', piece]);
            form.get_or_insert(Form::Promotion);
        } else if n >= 4 && body[n - 2] == b'=' && b"qrbn".contains(&body[n - 1]) {
            body[n - 1] = body[n - 1].to_ascii_uppercase();
            form.get_or_insert(Form::Promotion);
        }
    }
    let form = form?;
    body.extend(suffix);
    SanPlus::from_ascii(&body).ok().map(|san| (san, form))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_a_plain_reading() {
        for (token, want) in [
            ("o-o", Some(("O-O", Form::Castling))),
            ("o-o-o+", Some(("O-O-O+", Form::Castling))),
            ("0-0-0", Some(("O-O-O", Form::Castling))),
            ("Qh4++", Some(("Qh4#", Form::DoublePlus))),
            ("Ng1-f3", Some(("Ng1f3", Form::Squares))),
            ("e2-e4", Some(("e2e4", Form::Squares))),
            ("Ng1xf3", None),
            ("e8Q", Some(("e8=Q", Form::Promotion))),
            ("e8q+", Some(("e8=Q+", Form::Promotion))),
            ("exd1=n", Some(("exd1=N", Form::Promotion))),
            ("e7e8q", Some(("e7e8=Q", Form::Promotion))),
            ("e7-e8Q#", Some(("e7e8=Q#", Form::Squares))),
            ("e5Q", None),
            ("Qxe9", None),
            ("xyz", None),
            ("e4", None),
        ] {
            let got = read_token(token.as_bytes()).map(|(san, form)| (san.to_string(), form));
            assert_eq!(got, want.map(|(s, f)| (s.to_owned(), f)), "{token}");
        }
    }
}
