//! The findings report's forms (`--output-format`): each against a golden
//! file of `fixtures/formats/`, and each read back by a reader of its own
//! kind (JSON, the SARIF schema, an XML parser) to the same findings as the
//! CSV report.

use std::{collections::BTreeMap, fs, path::PathBuf, process::Command};

use crate::util::{fixtures, run_in, text};

/// The forms and their golden files' extensions.
const FORMS: [(&str, &str); 5] = [
    ("concise", "concise"),
    ("json-lines", "jsonl"),
    ("github", "github"),
    ("sarif", "sarif"),
    ("junit", "junit.xml"),
];

/// The report of `fixtures/formats/formats.pgn` in `form`, run from
/// `fixtures/` as the golden fixtures are.
fn report(form: &str) -> String {
    let out = run_in(
        &fixtures(),
        &["-q", "--output-format", form, "formats/formats.pgn"],
    );
    assert_eq!(out.status.code(), Some(1), "{form}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The CSV report's rows, cells as the input has them (`--raw-csv`), by
/// column name.
fn csv_rows() -> Vec<BTreeMap<String, String>> {
    let out = run_in(&fixtures(), &["-q", "--raw-csv", "formats/formats.pgn"]);
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_owned(), v.to_owned()))
                .collect()
        })
        .collect()
}

#[test]
fn every_form_matches_its_golden_file() {
    let mut failures = Vec::new();
    for (form, ext) in FORMS {
        let path = fixtures().join(format!("formats/formats.{ext}"));
        // The tool's version (SARIF names it) stands as its name in the
        // golden files, which then hold from one version to the next.
        let version = format!("\"{}\"", env!("CARGO_PKG_VERSION"));
        let actual = report(form).replace(&version, "\"CARGO_PKG_VERSION\"");
        if std::env::var_os("BLESS").is_some() {
            fs::write(&path, &actual).unwrap();
            continue;
        }
        match fs::read_to_string(&path) {
            Ok(want) if want == actual => {}
            Ok(want) => failures.push(format!(
                "{} differs:\n--- expected\n{want}\n--- actual\n{actual}",
                path.display()
            )),
            Err(_) => failures.push(format!("{} is missing (BLESS=1)", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_lines_hold_the_csv_columns() {
    let rows = csv_rows();
    let lines = report("json-lines");
    let objects: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), rows.len());
    assert!(rows.len() >= 4, "the fixture has findings of each severity");
    for (object, row) in objects.iter().zip(&rows) {
        for (column, value) in row {
            let got = match &object[column] {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Null => String::new(),
                other => panic!("{column}: {other}"),
            };
            assert_eq!(&got, value, "{column}");
        }
    }
}

#[test]
fn lines_for_a_terminal_or_a_log_stay_one_a_finding_and_run_nothing() {
    let rows = csv_rows();
    for form in ["concise", "github"] {
        let out = report(form);
        assert_eq!(out.lines().count(), rows.len(), "{form}");
        assert!(
            !out.chars().any(|c| c.is_control() && c != '\n'),
            "{form}: {out:?}"
        );
        for (line, row) in out.lines().zip(&rows) {
            assert!(line.contains(&row["code"]), "{form}: {line}");
        }
    }
    let concise = report("concise");
    let first = &rows[0];
    // `file:line:column:`, as editors read it, then the code, the
    // severity and the game.
    assert!(concise.starts_with(&format!(
        "{}:{}:1: {} [{}] game {}: ",
        first["file"], first["line"], first["code"], first["severity"], first["game"]
    )));
    // GitHub's escapes in properties and messages.
    let github = report("github");
    assert!(github.starts_with(
        "::error file=formats/formats.pgn,line=7,title=result-contradicts-checkmate::game 1: "
    ));
    assert!(github.contains("::notice ") || !rows.iter().any(|r| r["severity"] == "info"));
}

/// The SARIF 2.1.0 schema, as the `serde-sarif` crate (a test dependency,
/// at the version `Cargo.lock` holds) ships it in cargo's registry.
fn sarif_schema() -> serde_json::Value {
    let lock = fs::read_to_string(crate::util::root().join("Cargo.lock")).unwrap();
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"serde-sarif\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_owned())
        .expect("serde-sarif in Cargo.lock");
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    let sources = home.join("registry/src");
    let schema = fs::read_dir(&sources)
        .unwrap()
        .map(|d| {
            d.unwrap()
                .path()
                .join(format!("serde-sarif-{version}/src/schema.json"))
        })
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("serde-sarif {version} not in {}", sources.display()));
    serde_json::from_str(&fs::read_to_string(schema).unwrap()).unwrap()
}

/// Replaces every `pattern` of `schema` that is `bad` by `good`; how many.
fn fix_patterns(schema: &mut serde_json::Value, bad: &str, good: &str) -> usize {
    match schema {
        serde_json::Value::Object(map) => map
            .iter_mut()
            .map(|(key, value)| {
                if key == "pattern" && value == bad {
                    *value = good.into();
                    1
                } else {
                    fix_patterns(value, bad, good)
                }
            })
            .sum(),
        serde_json::Value::Array(items) => {
            items.iter_mut().map(|v| fix_patterns(v, bad, good)).sum()
        }
        _ => 0,
    }
}

#[test]
fn sarif_is_valid_against_its_schema_and_holds_every_finding() {
    let log: serde_json::Value = serde_json::from_str(&report("sarif")).unwrap();
    let mut schema = sarif_schema();
    // The published schema's language pattern is no valid regular
    // expression (a stray `]`; the log sets no language): written as
    // meant, so that the schema passes the meta-schema's `regex` format.
    let fixed = fix_patterns(
        &mut schema,
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    assert!(fixed > 0);
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // Read as a typed SARIF log too.
    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(log.clone()).unwrap();
    assert_eq!(typed.runs.len(), 1);
    let rows = csv_rows();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), rows.len());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for (result, row) in results.iter().zip(&rows) {
        assert_eq!(result["ruleId"], row["code"].as_str());
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], row["code"].as_str());
        let level = match row["severity"].as_str() {
            "info" => "note",
            other => other,
        };
        assert_eq!(result["level"], level);
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["startLine"].to_string(), row["line"]);
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .ends_with(&row["message"])
        );
    }
    // A log that breaks the schema is caught: the check can fail.
    let mut broken = log;
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn junit_has_a_test_case_per_game_with_findings() {
    let rows = csv_rows();
    let xml = report("junit");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let mut games: Vec<&str> = rows.iter().map(|r| r["game"].as_str()).collect();
    games.dedup();
    assert_eq!(cases.len(), games.len());
    for (case, game) in cases.iter().zip(&games) {
        let name = case.attribute("name").unwrap();
        assert!(name.starts_with(&format!("game {game}: ")), "{name}");
        // Failed exactly when the game has an error (the default --fail-on).
        let failed = rows
            .iter()
            .any(|r| r["game"] == *game && r["severity"] == "error");
        let failure = case.children().find(|n| n.has_tag_name("failure"));
        assert_eq!(failure.is_some(), failed, "{name}");
        // Every finding of the game is in its text.
        let body = case
            .children()
            .find(|n| n.is_element())
            .and_then(|n| n.text())
            .unwrap();
        for r in rows.iter().filter(|r| r["game"] == *game) {
            // Characters XML cannot hold are U+FFFD.
            let message: String = r["message"]
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect();
            assert!(body.contains(&message), "{message}");
        }
    }
    // Names as the input has them, read back through the escapes.
    assert!(
        cases[0]
            .attribute("name")
            .unwrap()
            .contains("O'Brien, \"Sean\" <&>")
    );
}

/// Each JUnit test suite counts its test cases and their failures, also
/// for an input whose cases outgrow the memory a suite holds (they go to a
/// temporary file until its counts are known).
#[test]
fn junit_suites_count_their_cases_and_failures() {
    let tmp = tempfile::tempdir().unwrap();
    // 6,000 games, each lacking Site: a warning; every third also an
    // error (a result the checkmate contradicts).
    let many: String = (0..6000)
        .map(|i| {
            let result = if i % 3 == 0 { "0-1" } else { "1-0" };
            format!(
                "[Event \"E\"]\n[Date \"2024.01.01\"]\n[Round \"{i}\"]\n[White \"A\"]\n\
                 [Black \"B\"]\n[Result \"{result}\"]\n\n\
                 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {result}\n\n"
            )
        })
        .collect();
    fs::write(tmp.path().join("many.pgn"), many).unwrap();
    fs::copy(
        fixtures().join("formats/formats.pgn"),
        tmp.path().join("f.pgn"),
    )
    .unwrap();
    let args = ["-q", "--output-format", "junit", "many.pgn", "f.pgn"];
    let out = run_in(tmp.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let xml = text(&out.stdout);
    assert!(xml.len() > 2 << 20, "the first suite outgrows 1 MiB");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    let counts: Vec<(&str, usize, usize, &str, &str)> = suites
        .iter()
        .map(|suite| {
            let cases = suite.children().filter(|n| n.has_tag_name("testcase"));
            let failed = cases
                .clone()
                .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
                .count();
            let name = suite.attribute("name").unwrap();
            let (tests, failures) = (suite.attribute("tests"), suite.attribute("failures"));
            (
                name,
                cases.count(),
                failed,
                tests.unwrap(),
                failures.unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("many.pgn", 6000, 2000, "6000", "2000"),
            ("f.pgn", 2, 1, "2", "1")
        ]
    );
}

#[test]
fn a_terminal_gets_the_concise_form_by_default() {
    // `script` gives the run a terminal for its standard output.
    let cmd = format!(
        "{} -q formats/formats.pgn",
        env!("CARGO_BIN_EXE_pgn-arbiter")
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(fixtures())
        .output()
        .unwrap();
    let shown = text(&out.stdout).replace("\r\n", "\n");
    assert_eq!(shown, report("concise"));
    // Not a terminal: CSV, as before.
    let piped = run_in(&fixtures(), &["-q", "formats/formats.pgn"]);
    assert!(text(&piped.stdout).starts_with("file,game,line,"));
}
