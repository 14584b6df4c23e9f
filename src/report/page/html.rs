//! The audit page's pieces of HTML that know nothing of a run: a board
//! drawn from its FEN, text escaped and capped, and the page's style.

use std::fmt::Write as _;

use crate::report::cell::CELL_MAX;

/// A board diagram of a FEN's placement, as inline SVG (white at the
/// bottom), with file and rank letters.
pub fn board_svg(fen: &str) -> String {
    const SQ: usize = 26;
    let placement = fen.split(' ').next().unwrap_or_default();
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {w} {w}\" width=\"{w}\" height=\"{w}\" role=\"img\"><title>{}</title>",
        esc(fen),
        w = SQ * 8 + 14
    );
    for rank in 0..8 {
        for file in 0..8 {
            let light = (rank + file) % 2 == 0;
            let _ = write!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{}\"/>",
                14 + file * SQ,
                rank * SQ,
                if light { "#f0d9b5" } else { "#b58863" }
            );
        }
    }
    for (rank, row) in placement.split('/').take(8).enumerate() {
        let mut file = 0;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as usize;
                continue;
            }
            if file >= 8 {
                break;
            }
            if let Some(glyph) = glyph(c) {
                let _ = write!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" class=\"piece\">{glyph}</text>",
                    14 + file * SQ + SQ / 2,
                    rank * SQ + SQ - 5
                );
            }
            file += 1;
        }
    }
    for i in 0..8 {
        let _ = write!(
            svg,
            "<text x=\"5\" y=\"{}\" class=\"coord\">{}</text><text x=\"{}\" y=\"{}\" class=\"coord\">{}</text>",
            i * SQ + SQ / 2 + 4,
            8 - i,
            14 + i * SQ + SQ / 2,
            SQ * 8 + 11,
            (b'a' + i as u8) as char
        );
    }
    svg.push_str("</svg>");
    svg
}

pub(super) fn glyph(piece: char) -> Option<char> {
    Some(match piece {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        _ => return None,
    })
}

/// A value from the input cut as a report's cell is (`CELL_MAX`
/// characters, saying so), so that the page stays small whatever the tags
/// hold: a few KiB per game shown.
pub(super) fn capped(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= CELL_MAX {
        return std::borrow::Cow::Borrowed(text);
    }
    let count = text.chars().count();
    if count <= CELL_MAX {
        return std::borrow::Cow::Borrowed(text);
    }
    let note = format!("… (cut from {count} characters)");
    let keep = CELL_MAX.saturating_sub(note.chars().count());
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(&note);
    std::borrow::Cow::Owned(out)
}

/// Text of the input (a tag, a message quoting one) in its own bidi
/// isolate, escaped: right-to-left text cannot reorder what stands beside
/// it on the page.
pub(super) fn iso(text: &str) -> String {
    format!("<bdi>{}</bdi>", esc(text))
}

/// Whether `c` changes the direction of the text after it (embeddings,
/// overrides and isolates, and their ends): a tag holding one could make a
/// line of the page read otherwise than it is written.
pub(super) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Text made safe in HTML and XML: markup characters escaped, control
/// characters (which XML does not allow) and the characters that change
/// the direction of text replaced.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(' '),
            c if c.is_control() || is_bidi_control(c) || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                out.push('\u{fffd}')
            }
            c => out.push(c),
        }
    }
    out
}

/// The page's style sheet (`page.css`).
pub(super) const STYLE: &str = concat!("\n", include_str!("page.css"));
