//! The settings file an archive's repository checks in, as ruff's and
//! rustfmt's are: `pgn-arbiter.toml` (or `.pgn-arbiter.toml`, or a
//! `[tool.pgn-arbiter]` table in `pyproject.toml`), found from the working
//! directory upward, or named by `--config`. Its keys are the flags' names
//! (`select`, `ignore`, `fail-on`, `rules`, `winnability`, `strict-tags`,
//! `output-format`) and `per-file-ignores`, a table of globs (relative to
//! the file's directory) to the codes left out of the inputs they match. A
//! flag on the command line replaces the file's value. A key the file may
//! not have is an error that names the nearest one.

use std::{
    fs,
    path::{Component, Path, PathBuf},
};

use clap::ValueEnum;

use crate::{
    cli::{FailOn, Rules, WinnabilitySearch},
    report::format::Format,
};

/// The names a settings file may have, in the order they are looked for
/// in each directory.
pub const NAMES: [&str; 3] = ["pgn-arbiter.toml", ".pgn-arbiter.toml", "pyproject.toml"];

/// The keys a settings file may have.
const KEYS: [&str; 8] = [
    "select",
    "ignore",
    "fail-on",
    "rules",
    "winnability",
    "strict-tags",
    "output-format",
    "per-file-ignores",
];

/// What a settings file sets; `None` where it says nothing.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The file.
    pub path: PathBuf,
    /// `select`, as a comma-separated list.
    pub select: Option<String>,
    /// `ignore`, as a comma-separated list.
    pub ignore: Option<String>,
    /// `fail-on`.
    pub fail_on: Option<FailOn>,
    /// `rules`.
    pub rules: Option<Rules>,
    /// `winnability`.
    pub winnability: Option<WinnabilitySearch>,
    /// `strict-tags`.
    pub strict_tags: Option<bool>,
    /// `output-format`.
    pub output_format: Option<Format>,
    /// `per-file-ignores`: each glob, in the file's order, with its list.
    pub per_file_ignores: Vec<(String, String)>,
}

/// The settings file for a run started in `dir`: the first of [`NAMES`]
/// in it or a directory above (a `pyproject.toml` only when it has a
/// `[tool.pgn-arbiter]` table).
pub fn find(dir: &Path) -> Option<PathBuf> {
    for dir in dir.ancestors() {
        for name in NAMES {
            let path = dir.join(name);
            if !path.is_file() {
                continue;
            }
            if name != "pyproject.toml" {
                return Some(path);
            }
            let has_table = read_bounded(&path)
                .ok()
                .and_then(|text| text.parse::<toml::Table>().ok())
                .is_some_and(|t| tool_table(&t).is_some());
            if has_table {
                return Some(path);
            }
        }
    }
    None
}

/// The most globs `per-file-ignores` may hold, and the longest each may
/// be: a glob is made into a pattern matcher whose size grows with it.
pub const MAX_GLOBS: usize = 1000;
/// See [`MAX_GLOBS`].
pub const MAX_GLOB: usize = 1024;

/// A settings file larger than this is refused before it is read on: a
/// settings file is a few lines, a `pyproject.toml` a few KiB.
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// A settings file's text, read no further than [`MAX_SETTINGS_BYTES`].
fn read_bounded(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_SETTINGS_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(format!(
            "larger than {} MiB, so it is no settings file",
            MAX_SETTINGS_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text: {e}"))
}

/// `[tool.pgn-arbiter]` of a `pyproject.toml`.
fn tool_table(table: &toml::Table) -> Option<&toml::Table> {
    table
        .get("tool")?
        .as_table()?
        .get("pgn-arbiter")?
        .as_table()
}

/// Reads a settings file; the error names the file and the key.
pub fn load(path: &Path) -> Result<Settings, String> {
    let name = path.display();
    let text = read_bounded(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("{name}: {}", e.message()))?;
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let table = if is_pyproject {
        tool_table(&table).ok_or_else(|| format!("{name} has no [tool.pgn-arbiter] table"))?
    } else {
        &table
    };
    let mut settings = Settings {
        path: path.to_owned(),
        ..Settings::default()
    };
    for (key, value) in table {
        let wrong = |want: &str| format!("{name}: {key} must be {want}");
        match key.as_str() {
            "select" => {
                settings.select = Some(list(value).ok_or_else(|| wrong("a list of codes"))?)
            }
            "ignore" => {
                settings.ignore = Some(list(value).ok_or_else(|| wrong("a list of codes"))?)
            }
            "fail-on" => settings.fail_on = Some(choice(value, &wrong)?),
            "rules" => settings.rules = Some(choice(value, &wrong)?),
            "winnability" => settings.winnability = Some(choice(value, &wrong)?),
            "output-format" => settings.output_format = Some(choice(value, &wrong)?),
            "strict-tags" => {
                settings.strict_tags = Some(value.as_bool().ok_or_else(|| wrong("true or false"))?);
            }
            "per-file-ignores" => {
                let globs = value
                    .as_table()
                    .ok_or_else(|| wrong("a table of globs to lists of codes"))?;
                if globs.len() > MAX_GLOBS {
                    return Err(format!(
                        "{name}: per-file-ignores has {} globs, more than the {MAX_GLOBS} a settings file may have",
                        globs.len()
                    ));
                }
                for (glob, codes) in globs {
                    if glob.len() > MAX_GLOB {
                        return Err(format!(
                            "{name}: per-file-ignores: a glob of {} bytes, longer than the {MAX_GLOB} a glob may be",
                            glob.len()
                        ));
                    }
                    let codes = list(codes).ok_or_else(|| {
                        format!("{name}: per-file-ignores.\"{glob}\" must be a list of codes")
                    })?;
                    settings.per_file_ignores.push((glob.clone(), codes));
                }
            }
            other => {
                let nearest = KEYS
                    .iter()
                    .min_by_key(|k| strsim::levenshtein(k, other))
                    .unwrap_or(&KEYS[0]);
                return Err(format!(
                    "{name}: unknown key '{other}'; did you mean '{nearest}'? (keys: {})",
                    KEYS.join(", ")
                ));
            }
        }
    }
    Ok(settings)
}

/// A list of codes: a string (comma-separated) or an array of strings, as
/// one comma-separated string.
fn list(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(",")),
        _ => None,
    }
}

/// One of a flag's values, by the name the command line takes.
fn choice<T: ValueEnum>(value: &toml::Value, wrong: &dyn Fn(&str) -> String) -> Result<T, String> {
    let names: Vec<String> = T::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|v| v.get_name().to_owned())
        .collect();
    value
        .as_str()
        .and_then(|s| T::from_str(s, false).ok())
        .ok_or_else(|| wrong(&format!("one of {}", names.join(", "))))
}

/// A path with `.` and `..` taken out, made absolute from `cwd`, without
/// asking the file system (links are not followed).
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in cwd.join(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The globs of `per-file-ignores`, matched against an input's path
/// relative to the settings file's directory (or, for a glob without `/`,
/// against its file name too).
pub struct PerFile {
    base: PathBuf,
    globs: Vec<(globset::GlobMatcher, bool, String)>,
}

impl PerFile {
    /// The globs of `settings`; an error names the glob that is no glob.
    pub fn new(settings: &Settings, cwd: &Path) -> Result<PerFile, String> {
        let base = absolute(settings.path.parent().unwrap_or(Path::new(".")), cwd);
        let mut globs = Vec::new();
        for (glob, codes) in &settings.per_file_ignores {
            let matcher = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("{}: per-file-ignores: {e}", settings.path.display()))?
                .compile_matcher();
            globs.push((matcher, !glob.contains('/'), codes.clone()));
        }
        Ok(PerFile { base, globs })
    }

    /// The lists of codes whose globs match the file at `path` (as named on
    /// the command line or found below a directory).
    pub fn lists_for(&self, path: &Path, cwd: &Path) -> Vec<&str> {
        let full = absolute(path, cwd);
        let relative = full.strip_prefix(&self.base).unwrap_or(&full);
        let name = full.file_name().map(Path::new);
        self.globs
            .iter()
            .filter(|(m, bare, _)| {
                m.is_match(relative) || (*bare && name.is_some_and(|n| m.is_match(n)))
            })
            .map(|(_, _, codes)| codes.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    /// Issue 56: a settings file is bounded before it is read whole:
    /// `/dev/zero`, or a file of more than 1 MiB, is refused at once.
    #[test]
    fn a_settings_file_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let big = "# x\n".repeat(300_000);
        let err = load(&written(dir.path(), "pgn-arbiter.toml", &big)).unwrap_err();
        assert!(err.contains("larger than 1 MiB"), "{err}");
        #[cfg(unix)]
        {
            let err = load(Path::new("/dev/zero")).unwrap_err();
            assert!(err.contains("larger than 1 MiB"), "{err}");
        }
        // Globs are bounded in number and length: a glob of 200 KB made
        // the pattern matcher fail, and the run abort.
        let long = format!(
            "[per-file-ignores]\n\"{}\" = \"missing-tag\"\n",
            "*a".repeat(100_000)
        );
        let err = load(&written(dir.path(), "pgn-arbiter.toml", &long)).unwrap_err();
        assert!(err.contains("longer than the 1024 a glob may be"), "{err}");
        let many: String = (0..1001)
            .map(|i| format!("\"g{i}\" = \"missing-tag\"\n"))
            .collect();
        let err = load(&written(
            dir.path(),
            "pgn-arbiter.toml",
            &format!("[per-file-ignores]\n{many}"),
        ))
        .unwrap_err();
        assert!(err.contains("1001 globs"), "{err}");
        // A pyproject.toml that large is no settings file either.
        written(dir.path(), "pyproject.toml", &big);
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        fs::remove_file(dir.path().join("pgn-arbiter.toml")).unwrap();
        assert_eq!(find(&sub), None);
    }

    #[test]
    fn keys_are_read_and_unknown_ones_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(
            dir.path(),
            "pgn-arbiter.toml",
            "select = [\"error\", \"unclaimed-\"]\nfail-on = \"warning\"\nstrict-tags = true\n\
             [per-file-ignores]\n\"old/**\" = \"invalid-date,missing-tag\"\n",
        );
        let s = load(&path).unwrap();
        assert_eq!(s.select.as_deref(), Some("error,unclaimed-"));
        assert_eq!(s.fail_on, Some(FailOn::Warning));
        assert_eq!(s.strict_tags, Some(true));
        assert_eq!(s.per_file_ignores.len(), 1);
        let bad = written(dir.path(), "bad.toml", "fail_on = \"error\"\n");
        let err = load(&bad).unwrap_err();
        assert!(
            err.contains("unknown key 'fail_on'; did you mean 'fail-on'?"),
            "{err}"
        );
        let bad = written(dir.path(), "bad.toml", "rules = \"fide-2024\"\n");
        let err = load(&bad).unwrap_err();
        assert!(
            err.contains("rules must be one of fide-2023, fide-2000, fide-1994"),
            "{err}"
        );
    }

    #[test]
    fn found_upward_and_in_pyproject_only_with_its_table() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        fs::create_dir_all(&deep).unwrap();
        assert_eq!(find(&deep), None);
        written(&dir.path().join("a"), "pyproject.toml", "[tool.black]\n");
        assert_eq!(find(&deep), None);
        let py = written(
            &dir.path().join("a"),
            "pyproject.toml",
            "[tool.pgn-arbiter]\nrules = \"fide-2000\"\n",
        );
        assert_eq!(find(&deep), Some(py.clone()));
        assert_eq!(load(&py).unwrap().rules, Some(Rules::Fide2000));
        let own = written(&dir.path().join("a/b"), "pgn-arbiter.toml", "");
        assert_eq!(find(&deep), Some(own));
    }

    #[test]
    fn globs_match_paths_below_the_file_and_bare_names() {
        let settings = Settings {
            path: PathBuf::from("/repo/pgn-arbiter.toml"),
            per_file_ignores: vec![
                ("old/**".into(), "a".into()),
                ("*.pgn.gz".into(), "b".into()),
                ("x/*.pgn".into(), "c".into()),
            ],
            ..Settings::default()
        };
        let cwd = Path::new("/repo/x");
        let per_file = PerFile::new(&settings, cwd).unwrap();
        assert_eq!(
            per_file.lists_for(Path::new("../old/1990/a.pgn"), cwd),
            ["a"]
        );
        assert_eq!(per_file.lists_for(Path::new("deep/t.pgn.gz"), cwd), ["b"]);
        assert_eq!(per_file.lists_for(Path::new("t.pgn"), cwd), ["c"]);
        // `*` stays within a directory.
        assert!(per_file.lists_for(Path::new("deep/t.pgn"), cwd).is_empty());
    }
}
