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

pub(super) const STYLE: &str = "
body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 13px; color: #222; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 17px; border-bottom: 2px solid #444; padding-bottom: 3px; margin-top: 28px; }
h3 { font-size: 14px; margin: 0 0 4px 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { width: 130px; }
.error { color: #b00020; font-weight: bold; }
.warning { color: #8a5a00; }
.info { color: #235a97; }
.badge { display: inline-block; padding: 3px 10px; border-radius: 10px; border: 1px solid #999; margin-right: 6px; font-weight: bold; }
.badge.error { background: #fde7ea; } .badge.warning { background: #fff4dc; } .badge.info { background: #e6f0fb; }
article.game { border: 1px solid #bbb; border-left: 6px solid #888; padding: 8px 12px; margin: 12px 0; page-break-inside: avoid; break-inside: avoid; }
article.game.sev-error { border-left-color: #b00020; } article.game.sev-warning { border-left-color: #d49500; } article.game.sev-info { border-left-color: #235a97; }
article.game .result { font-weight: normal; color: #555; }
.where { color: #555; margin: 0 0 6px 0; }
ul.findings { margin: 4px 0; padding-left: 16px; } ul.findings li { margin: 2px 0; }
.also { color: #555; margin: 2px 0; }
.card-body { display: flex; gap: 12px; align-items: flex-start; }
.card-text { flex: 1; min-width: 0; }
.boards { display: flex; flex-wrap: wrap; gap: 8px; flex: none; max-width: 50%; }
figure { margin: 0; }
figcaption { font-size: 10px; color: #555; text-align: center; max-width: 170px; }
svg.board { width: 170px; height: 170px; }
table.clocks { margin: 0; font-size: 11px; } table.clocks td, table.clocks th { padding: 1px 5px; } table.clocks tr.marked td { font-weight: bold; background: #fff4dc; }
svg.board .piece { font-family: 'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols2', serif; font-size: 22px; text-anchor: middle; }
svg.board .coord { font-size: 9px; fill: #555; text-anchor: middle; }
ul.changes { margin: 2px 0 0 0; } .changes-title { margin: 6px 0 0 0; font-weight: bold; }
code { font-family: 'DejaVu Sans Mono', monospace; font-size: 12px; white-space: nowrap; }
.cell { white-space: nowrap; font-size: 11px; }
.cell.agrees { background: #e3f4e1; } .cell.differs { background: #fde7ea; color: #b00020; font-weight: bold; }
.cell.missing { background: #fff0cc; color: #8a5a00; font-weight: bold; } .cell.no-game { color: #777; }
span.cell { padding: 1px 6px; border: 1px solid #ccc; }
table.crosstable td, table.crosstable th { padding: 2px 4px; }
.sites, .sha { font-size: 11px; color: #555; } tr.codes td { font-size: 11px; color: #444; border-top: none; } .sha code { font-size: 10px; }
@media print { body { margin: 0; max-width: none; font-size: 10px; } h2 { page-break-after: avoid; } article.game { margin: 6px 0; padding: 4px 8px; } svg.board { width: 140px; height: 140px; } figcaption { max-width: 140px; } table.crosstable td, table.crosstable th { padding: 1px 3px; } .cell { font-size: 9px; } }
";
