//! Cells safe to open in a spreadsheet: never a formula, no control
//! characters, never longer than a spreadsheet keeps.

use std::borrow::Cow;

/// The longest cell written, in characters (unless `--raw-csv`):
/// spreadsheets keep 32,767 and Python's csv module refuses 131,072 by
/// default; nobody reads a longer tag value in a cell.
pub const CELL_MAX: usize = 1000;

/// Makes a cell of text taken from the input safe to open in a spreadsheet
/// (OWASP "CSV injection"): control characters other than tab become
/// U+FFFD, a cell longer than `CELL_MAX` characters is cut and says so, and
/// a cell that starts with `=`, `+`, `-`, `@` or a tab gets a leading `'`,
/// so that it is text, never a formula; only dashes (`-`, the PGN value for
/// "not applicable", and the null move `--`) compute nothing and stay as
/// they are. `raw` leaves every cell as it is.
pub fn cell(text: &str, raw: bool) -> Cow<'_, str> {
    let risky = |b: u8| matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r');
    let bytes = text.as_bytes();
    // Printable ASCII and tabs hold no control character: most cells are
    // told plain without decoding a character (every byte tested, without
    // stopping at the first that fails, which runs many bytes a step).
    let printable = |bytes: &[u8]| {
        bytes.iter().fold(true, |all, &b| {
            all & (b == b'\t' || b.wrapping_sub(b' ') < 95)
        })
    };
    let plain = text.len() <= CELL_MAX
        && (!bytes.first().copied().is_some_and(risky) || bytes.iter().all(|&b| b == b'-'))
        && (printable(bytes) || !text.chars().any(|c| c.is_control() && c != '\t'));
    if raw || plain {
        return Cow::Borrowed(text);
    }
    let clean: String = text
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    let count = clean.chars().count();
    let mut out = String::with_capacity(clean.len().min(4 * CELL_MAX) + 1);
    if clean.as_bytes().first().copied().is_some_and(risky) {
        out.push('\'');
    }
    if out.len() + count <= CELL_MAX {
        out.push_str(&clean);
    } else {
        let note = format!("… (cut from {count} characters)");
        let keep = CELL_MAX - out.len() - note.chars().count();
        out.extend(clean.chars().take(keep));
        out.push_str(&note);
    }
    Cow::Owned(out)
}
