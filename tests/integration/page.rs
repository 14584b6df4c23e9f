//! `--html`: the audit page of a small tournament file (games of the FIDE
//! Women's World Rapid 2024 broadcast), with two more fixtures beside it
//! for errors, boards and the changes `--fix` made. The page is compared
//! with `fixtures/page/tournament.html` (the run's day and the version
//! masked; `BLESS=1 cargo test --test integration page::` rewrites it, and it opens in a
//! browser for review), parsed as XML, and checked to name every code the
//! findings report has and to load nothing from elsewhere.

use crate::util::*;
use std::{fs, path::Path};

const INPUTS: [&str; 3] = [
    "page/tournament.pgn",
    "structure/round-checks.pgn",
    "results/contradicts-checkmate-and-stalemate.pgn",
];

/// The page parsed as XML (XHTML): every element closed.
fn parse(page: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(page, options).unwrap()
}

/// The page with the facts that change from run to run masked.
fn masked(page: &str) -> String {
    let mut out = page.to_owned();
    for th in ["<th>Run on</th><td>", "<th>pgn-arbiter</th><td>"] {
        if let Some(at) = out.find(th) {
            let start = at + th.len();
            let end = start + out[start..].find("</td>").unwrap();
            out.replace_range(start..end, "(masked)");
        }
    }
    out
}

#[test]
fn the_audit_page_of_a_tournament() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let page_path = tmp.path().join("audit.html");
    let out = bin()
        .current_dir(&fixtures)
        .args(["-q", "--html"])
        .arg(&page_path)
        .arg("--fix")
        .arg(tmp.path().join("fixed"))
        .args(INPUTS)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = fs::read_to_string(&page_path).unwrap();

    // Well-formed: it parses as XML (XHTML), so every element is closed.
    let doc = parse(&page);
    let names: Vec<&str> = doc.descendants().map(|n| n.tag_name().name()).collect();
    assert!(!names.contains(&"script") && !names.contains(&"link") && !names.contains(&"img"));
    for node in doc.descendants() {
        for attr in node.attributes() {
            assert!(
                !matches!(attr.name(), "src" | "href"),
                "the page loads {}",
                attr.value()
            );
        }
    }
    assert!(names.contains(&"svg"), "no board drawn");

    // Every code of the findings report, every event, and the changes.
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let mut codes = std::collections::BTreeSet::new();
    for row in reader.records() {
        codes.insert(row.unwrap()[12].to_owned());
    }
    assert!(codes.len() >= 5, "{codes:?}");
    for code in &codes {
        assert!(
            page.contains(&format!("<code>{code}</code>")),
            "{code} not on the page"
        );
    }
    assert!(page.contains("FIDE Women’s World Rapid Championships 2024"));
    assert!(page.contains("Changed in the corrected copy"));
    // Errors come first.
    let first_error = page.find("sev-error").unwrap();
    let first_other = page.find("sev-warning").or(page.find("sev-info")).unwrap();
    assert!(first_error < first_other);

    let expected = fixtures.join("page/tournament.html");
    let page = masked(&page).replace(&fixtures.display().to_string(), "fixtures");
    if std::env::var_os("BLESS").is_some() {
        fs::write(&expected, &page).unwrap();
        return;
    }
    let want = fs::read_to_string(&expected).unwrap();
    assert!(
        want == page,
        "{} differs from the page:\n{page}",
        expected.display()
    );
}

#[test]
fn the_page_shows_the_games_against_the_tournament_report_file() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let page_path = tmp.path().join("t.html");
    let out = bin()
        .current_dir(&fixtures)
        .args(["-q", "--html"])
        .arg(&page_path)
        .args([
            "--trf",
            "tournament/game-missing.trf",
            "tournament/result-mismatch.pgn",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = fs::read_to_string(&page_path).unwrap();
    let doc = parse(&page);
    // One cell per player and round: seven players, two rounds.
    let cells: Vec<_> = doc
        .descendants()
        .filter(|n| {
            n.attribute("class").is_some_and(|c| c.starts_with("cell "))
                && n.tag_name().name() == "td"
        })
        .collect();
    assert_eq!(cells.len(), 14);
    let agrees = cells
        .iter()
        .filter(|n| n.attribute("class") == Some("cell agrees"))
        .count();
    assert_eq!(agrees, 8, "four games, two cells each");
    assert!(page.contains("Against the tournament report file"));
}

/// Players' names written several ways, and a name under two IDs, are
/// listed by event, for the officer to decide: the real games of
/// `structure/player-name-variant.pgn`, then those of
/// `structure/player-id-conflict.pgn` (the same event's).
#[test]
fn the_page_lists_names_written_several_ways_by_event() {
    let tmp = tempfile::tempdir().unwrap();
    let page_path = tmp.path().join("names.html");
    let out = bin()
        .args(["-q", "--fail-on", "never", "--html"])
        .arg(&page_path)
        .arg(fixtures().join("structure/player-name-variant.pgn"))
        .arg(fixtures().join("structure/player-id-conflict.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = fs::read_to_string(&page_path).unwrap();
    let doc = parse(&page);
    let section = doc
        .descendants()
        .find(|n| n.has_tag_name("h2") && n.text() == Some("Players' names to decide"))
        .and_then(|h| h.parent())
        .expect("a section of names");
    let events: Vec<&str> = section
        .descendants()
        .filter(|n| n.has_tag_name("h3"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        events,
        [
            "5th Kolkata Open",
            "Bled",
            "FIDE Women’s World Rapid Championships 2024"
        ]
    );
    let items: Vec<String> = section
        .descendants()
        .filter(|n| n.has_tag_name("li"))
        .map(|n| n.text().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(items.len(), 4, "{items:?}");
    assert!(
        items[0].starts_with("Game 2 (")
            && items[0].contains("'Kulkarni,Vikramaditya' here and 'Kamble,V'"),
        "{items:?}"
    );
    assert!(
        items[1].contains("'Petrosian, Tigran V' here is written 'Petrosian, Tigran V.'"),
        "{items:?}"
    );
    assert!(
        items[2].contains("'Muzychuk, Anna' here and 'Muzychuk,A'"),
        "{items:?}"
    );
    assert!(
        items[3].starts_with("Game 2 (")
            && items[3].contains(
                "has FIDE ID 14113130 here (rated 2408) and FIDE ID 14111330 in game 4 of"
            ),
        "{items:?}"
    );
}

/// A row of a clock table: the move, White's clock and Black's, and
/// whether the row is marked.
type ClockRow = (String, String, String, bool);

/// The rows of each clock table of a page, and its caption.
fn clock_tables(page: &str) -> Vec<(Vec<ClockRow>, String)> {
    let doc = parse(page);
    doc.descendants()
        .filter(|n| n.has_tag_name("table") && n.attribute("class") == Some("clocks"))
        .map(|table| {
            let rows = table
                .descendants()
                .filter(|n| {
                    n.has_tag_name("tr") && n.parent().is_some_and(|p| p.has_tag_name("tbody"))
                })
                .map(|tr| {
                    let cells: Vec<String> = tr
                        .children()
                        .filter(|n| n.has_tag_name("td"))
                        .map(|td| td.text().unwrap_or_default().to_owned())
                        .collect();
                    (
                        cells[0].clone(),
                        cells[1].clone(),
                        cells[2].clone(),
                        tr.attribute("class") == Some("marked"),
                    )
                })
                .collect();
            let caption = table
                .next_sibling_element()
                .and_then(|n| n.text())
                .unwrap_or_default()
                .to_owned();
            (rows, caption)
        })
        .collect()
}

fn row(mv: &str, white: &str, black: &str, marked: bool) -> ClockRow {
    (mv.to_owned(), white.to_owned(), black.to_owned(), marked)
}

/// A clock finding's card shows the clocks beside the moves it concerns,
/// as the records have them: a small rise between White's first two moves of a
/// broadcast game (`{[%clk 0:15:10]}`, `{[%clk 0:15:19]}`,
/// `{[%clk 0:15:24]}`), and a FICS game's last clocks worked out from
/// `[%emt]`.
#[test]
fn the_page_shows_the_clocks_beside_the_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let page_path = tmp.path().join("clocks.html");
    let out = bin()
        .args(["-q", "--fail-on", "never", "--html"])
        .arg(&page_path)
        .arg(fixtures().join("clocks/clock-drift.pgn"))
        .arg(fixtures().join("clocks/elapsed.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = fs::read_to_string(&page_path).unwrap();
    let tables = clock_tables(&page);
    assert_eq!(tables.len(), 2, "{tables:?}");
    // Errors first: the forfeit, then the rise.
    let (rises, caption) = &tables[1];
    assert_eq!(
        rises,
        &[
            row("1.d4", "0:15:10", "", true),
            row("1...Nf6", "", "0:15:19", false),
            row("2.c4", "0:15:24", "", true),
        ]
    );
    assert_eq!(caption, "clock-drift: each clock after its player's move");
    // 10...Nxf4 is Black's last move: 3 min (180+0) less the times its
    // ten moves took, each in tenths: 0.0, 2.4, 1.7, 0.7, 0.8, 0.8, 0.4,
    // 1.0, 0.8 and 2.0 s.
    let (forfeit, caption) = &tables[0];
    assert_eq!(forfeit.len(), 2, "{forfeit:?}");
    assert_eq!(forfeit[1], row("10...Nxf4", "", "0:02:49.4", true));
    assert!(
        caption.ends_with("worked out from the times taken ([%emt])"),
        "{caption}"
    );
}
