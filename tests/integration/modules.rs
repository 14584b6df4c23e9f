//! The shape of `src/`: no module imports, directly or through others, a
//! module that imports it. Reads every source file, finds the modules each
//! one names (`use crate::…`, `crate::…` paths, `super::…`, and a parent
//! naming its child modules), and looks for a cycle. Test modules
//! (`#[cfg(test)]` to the end of a file) are left out.
//!
//! `cargo test --test integration modules::` runs it; CONTRIBUTING.md says so.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

/// Every module of `src/` by path (`read::lexer`), with its code.
fn modules() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let name = parts.join("::");
            // A test module in a file of its own (`pipeline/tests.rs`) is
            // left out, as one inside a file is.
            if name == "lib" || name == "main" || name.ends_with("::tests") {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(at) => text[..at].to_owned(),
                None => text,
            };
            // Comments name modules too; they are no imports.
            let code: String = code
                .lines()
                .map(|l| match l.find("//") {
                    Some(at) => &l[..at],
                    None => l,
                })
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(name, code);
        }
    }
    out
}

/// The full paths a `use` tree names: `a::{b, c::{d}}` is `a::b`, `a::c::d`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            for item in tree.split(',') {
                let item = item.trim();
                if !item.is_empty() {
                    out.push(format!("{prefix}{item}"));
                }
            }
        }
        Some(open) => {
            let head = &tree[..open];
            // The matching close, and what follows it.
            let mut depth = 0;
            let mut close = open;
            for (i, c) in tree[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = open + i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            // Items before the group at this level: `a, b::{…}`.
            let (before, group_head) = match head.rfind(',') {
                Some(comma) => (&head[..comma], &head[comma + 1..]),
                None => ("", head),
            };
            expand(prefix, before, out);
            let inner = &tree[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            let group_prefix = format!("{prefix}{}", group_head.trim());
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&group_prefix, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&group_prefix, &inner[start..], out);
            let rest = tree[close + 1..].trim_start_matches([',', ' ', '\n']);
            expand(prefix, rest, out);
        }
    }
}

/// The modules `name` (with `code`) refers to, among `all`.
fn refers_to(name: &str, code: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let parent = name.rsplit_once("::").map_or("", |(p, _)| p);
    let mut paths = Vec::new();
    // `use` statements, grouped or not.
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        // A word of its own: not the end of `Crazyhouse `.
        if rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            rest = &rest[at + 4..];
            continue;
        }
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        expand("", &after[..end], &mut paths);
        rest = &after[end..];
    }
    // Paths in code: `crate::a::b`, `super::x`.
    for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')) {
        // `crate::{` and `super::{` open groups, read above.
        if (word.starts_with("crate::") || word.starts_with("super::")) && !word.ends_with("::") {
            paths.push(word.to_owned());
        }
        // A parent names its children by their bare names.
        if let Some((first, _)) = word.split_once("::") {
            let child = format!("{name}::{first}");
            if all.contains_key(&child) {
                paths.push(format!("self::{first}"));
            }
        }
    }
    let mut out = BTreeSet::new();
    for path in paths {
        let path = path.replace(' ', "");
        let full = if let Some(p) = path.strip_prefix("crate::") {
            p.to_owned()
        } else if let Some(p) = path.strip_prefix("super::") {
            if parent.is_empty() {
                p.to_owned()
            } else {
                format!("{parent}::{p}")
            }
        } else if let Some(p) = path.strip_prefix("self::") {
            format!("{name}::{p}")
        } else {
            continue;
        };
        // The longest prefix that is a module.
        let parts: Vec<&str> = full.split("::").collect();
        for n in (1..=parts.len()).rev() {
            let candidate = parts[..n].join("::");
            if all.contains_key(&candidate) {
                if candidate != name {
                    out.insert(candidate);
                }
                break;
            }
        }
    }
    out
}

#[test]
fn expand_reads_grouped_uses() {
    let mut out = Vec::new();
    expand("", "crate::{a::{b, c::D}, e, f::g}", &mut out);
    assert_eq!(
        out,
        ["crate::a::b", "crate::a::c::D", "crate::e", "crate::f::g"]
    );
}

#[test]
fn no_module_imports_a_module_that_imports_it() {
    let all = modules();
    assert!(all.contains_key("read::lexer"), "{:?}", all.keys());
    let graph: BTreeMap<&str, BTreeSet<String>> = all
        .iter()
        .map(|(name, code)| (name.as_str(), refers_to(name, code, &all)))
        .collect();
    // It does see what a module uses.
    assert!(
        graph["checks"].contains("checks::wins"),
        "{:?}",
        graph["checks"]
    );
    assert!(graph["board::replay"].contains("board::lenient"));
    let mut cycles = Vec::new();
    for &start in graph.keys() {
        // A path back to `start`?
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> =
            vec![(start.to_owned(), vec![start.to_owned()])];
        while let Some((at, path)) = stack.pop() {
            for next in graph.get(at.as_str()).into_iter().flatten() {
                if next == start {
                    let mut cycle = path.clone();
                    cycle.push(start.to_owned());
                    cycles.push(cycle.join(" -> "));
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    cycles.sort();
    cycles.dedup();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// The stages of `src/`, in the order a game meets them: a module may
/// import its own stage and earlier ones, never a later one.
const STAGES: [&str; 10] = [
    "read", "board", "finding", "checks", "fix", "report", "output", "cli", "config", "run",
];

/// Every top-level module is a stage, and no module imports a later stage
/// (a test module may: it is left out).
#[test]
fn stages_depend_forward_only() {
    let all = modules();
    let stage = |name: &str| {
        let top = name.split("::").next().unwrap();
        STAGES
            .iter()
            .position(|s| *s == top)
            .unwrap_or_else(|| panic!("{top} is in no stage of STAGES"))
    };
    let mut backward = Vec::new();
    for (name, code) in &all {
        // Test helpers are compiled into tests only.
        if name == "testing" {
            continue;
        }
        for used in refers_to(name, code, &all) {
            if stage(&used) > stage(name) {
                backward.push(format!("{name} imports {used}"));
            }
        }
    }
    assert!(
        backward.is_empty(),
        "later stages imported:\n{}",
        backward.join("\n")
    );
    // It does see an import across stages.
    assert!(refers_to("run::pipeline", &all["run::pipeline"], &all).contains("read::blocks"));
}

/// `lib.rs` names the one file that decides each finding code: every code
/// is named once, and the file names the kind (outside its tests).
#[test]
fn lib_names_the_file_that_decides_each_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let at = lib.find("Where each finding is decided").unwrap();
    let start = lib[..at].rfind('\n').map_or(0, |n| n + 1);
    // The heading, a blank line, then the list up to the next blank line.
    let section: String = lib[start..]
        .lines()
        .enumerate()
        .take_while(|&(i, l)| l.starts_with("//!") && (i < 2 || l.trim_end() != "//!"))
        .map(|(_, l)| l)
        .map(|l| l.trim_start_matches("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut named: BTreeMap<String, String> = BTreeMap::new();
    for item in section.split("- `src/").skip(1) {
        let (file, codes) = item.split_once('`').unwrap();
        for code in codes.split('`').skip(1).step_by(2) {
            let old = named.insert(code.to_owned(), format!("src/{file}"));
            assert!(old.is_none(), "{code} is named twice");
        }
    }
    for kind in pgn_arbiter::finding::Kind::ALL {
        let file = named
            .remove(kind.code())
            .unwrap_or_else(|| panic!("lib.rs names no file for {}", kind.code()));
        let text = fs::read_to_string(root.join(&file)).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        assert!(
            code.contains(&format!("Kind::{kind:?}")),
            "{file} does not decide {}",
            kind.code()
        );
    }
    assert!(named.is_empty(), "not codes: {named:?}");
}

/// Every finding is made under `src/checks/`: no other module calls
/// `Finding::new` (outside its tests), and `lib.rs` names only files there.
/// `finding.rs` defines it.
#[test]
fn findings_are_decided_under_checks_only() {
    let mut outside = Vec::new();
    for (name, code) in modules() {
        if name.starts_with("checks") || name == "finding" {
            continue;
        }
        if code.contains("Finding::new(") || code.contains("Finding {") {
            outside.push(name);
        }
    }
    assert!(
        outside.is_empty(),
        "findings made outside checks/: {outside:?}"
    );
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let at = lib.find("Where each finding is decided").unwrap();
    for item in lib[at..].split("- `src/").skip(1) {
        let file = item.split('`').next().unwrap();
        assert!(file.starts_with("checks/"), "lib.rs names src/{file}");
    }
}

/// The lexer says where comments are, not what they hold: the commands
/// servers write in them and the comments that leave findings out are
/// read in `read::comments`, and nowhere else.
#[test]
fn only_read_comments_knows_what_a_comment_holds() {
    let all = modules();
    for (name, code) in &all {
        for syntax in ["%clk", "%emt", "pgn-arbiter:"] {
            let allowed = name == "read::comments" || !name.starts_with("read");
            assert!(allowed || !code.contains(syntax), "{name} reads {syntax}");
        }
    }
    assert!(all["read::comments"].contains("%clk"));
}

/// No file of `src/` is over 900 lines, its tests included: a file that
/// grows past that is a module of several jobs, to be made a folder of one
/// job a file (as `read/lexer/` and `run/pipeline/` are).
#[test]
fn no_file_is_over_900_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut long = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = fs::read_to_string(&path).unwrap().lines().count();
                if lines > 900 {
                    long.push(format!("{}: {lines} lines", path.display()));
                }
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}
