//! Records the commit the binary is built from, and its date, for
//! `--version` and the summary: `PGN_ARBITER_COMMIT` (12 hex digits) and
//! `PGN_ARBITER_COMMIT_DATE` (YYYY-MM-DD), both `unknown` outside a git
//! checkout (a crate downloaded from a registry).

use std::{path::Path, process::Command};

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let date = git(&["log", "-1", "--format=%cs", "HEAD"]);
    println!(
        "cargo:rustc-env=PGN_ARBITER_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".to_owned())
    );
    println!(
        "cargo:rustc-env=PGN_ARBITER_COMMIT_DATE={}",
        date.unwrap_or_else(|| "unknown".to_owned())
    );
    // Built again when the commit changes.
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        let git_dir = Path::new(&git_dir);
        for file in ["HEAD", "packed-refs"] {
            println!("cargo:rerun-if-changed={}", git_dir.join(file).display());
        }
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", git_dir.join(head).display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
