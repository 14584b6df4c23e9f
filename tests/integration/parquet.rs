//! `--output-format parquet`: both reports as Parquet files hold the rows
//! of the CSV reports written with `--raw-csv` (text as the input has it),
//! cell for cell, with numbers typed as numbers; and a Parquet report is
//! refused where it cannot be a file.

use crate::util::*;
use arrow_array::{Array, ArrayRef, StringArray, UInt32Array, UInt64Array};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::{fs::File, path::Path};

/// A column's cells as the CSV writes them.
fn cells(column: &ArrayRef) -> Vec<String> {
    let any = column.as_any();
    let shown = |i: usize, value: &dyn Fn(usize) -> String| {
        if column.is_null(i) {
            String::new()
        } else {
            value(i)
        }
    };
    (0..column.len())
        .map(|i| {
            if let Some(a) = any.downcast_ref::<StringArray>() {
                shown(i, &|i| a.value(i).to_owned())
            } else if let Some(a) = any.downcast_ref::<UInt64Array>() {
                shown(i, &|i| a.value(i).to_string())
            } else if let Some(a) = any.downcast_ref::<UInt32Array>() {
                shown(i, &|i| a.value(i).to_string())
            } else {
                panic!("a column of {}", column.data_type())
            }
        })
        .collect()
}

/// The rows of a Parquet file, each cell as the CSV writes it (a number in
/// decimal, no value as an empty cell), and each column's name and type.
fn parquet_rows(path: &Path) -> (Vec<(String, DataType)>, Vec<Vec<String>>) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let columns = reader
        .schema()
        .fields()
        .iter()
        .map(|f| (f.name().clone(), f.data_type().clone()))
        .collect();
    let mut rows = Vec::new();
    for batch in reader.build().unwrap() {
        let batch = batch.unwrap();
        let cells: Vec<Vec<String>> = batch.columns().iter().map(cells).collect();
        for i in 0..batch.num_rows() {
            rows.push(cells.iter().map(|c| c[i].clone()).collect());
        }
    }
    (columns, rows)
}

fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect();
    (header, rows)
}

#[test]
fn parquet_reports_hold_the_csv_reports_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let out = |name: &str| tmp.path().join(name);
    let run = |args: &[&str], findings: &Path, games: &Path| {
        let done = bin()
            .args(["-q", "--fail-on", "never"])
            .args(args)
            .arg("--findings")
            .arg(findings)
            .arg("--games")
            .arg(games)
            .arg(fixtures())
            .output()
            .unwrap();
        assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    };
    run(&["--raw-csv"], &out("f.csv"), &out("g.csv"));
    run(
        &["--output-format", "parquet"],
        &out("f.parquet"),
        &out("g.parquet"),
    );
    for (csv, parquet, numbers) in [
        ("f.csv", "f.parquet", &["game", "line", "ply"][..]),
        (
            "g.csv",
            "g.parquet",
            &["game", "line", "plies", "errors", "warnings", "infos"][..],
        ),
    ] {
        let (header, want) = csv_rows(&out(csv));
        let (columns, got) = parquet_rows(&out(parquet));
        let names: Vec<&String> = columns.iter().map(|(n, _)| n).collect();
        assert_eq!(names, header.iter().collect::<Vec<_>>(), "{parquet}");
        for (name, kind) in &columns {
            let number = numbers.contains(&name.as_str());
            assert_eq!(
                matches!(kind, DataType::UInt64 | DataType::UInt32),
                number,
                "{parquet}: {name} is {kind}"
            );
            assert!(number || *kind == DataType::Utf8, "{name} is {kind}");
        }
        assert!(want.len() > 250, "{csv}: {} rows", want.len());
        assert_eq!(got.len(), want.len(), "{parquet}: rows");
        for (i, (got, want)) in got.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "{parquet}: row {}", i + 1);
        }
    }
}

#[test]
fn parquet_reports_are_files() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        vec!["--output-format", "parquet"],
        vec!["--output-format", "parquet", "--findings", "-"],
        vec![
            "--output-format",
            "parquet",
            "--findings",
            "f.parquet",
            "--games",
            "-",
        ],
    ] {
        let done = run_in(
            tmp.path(),
            &[
                &args[..],
                &[fixtures().join("sample.pgn").to_str().unwrap()],
            ]
            .concat(),
        );
        assert_eq!(done.status.code(), Some(2), "{args:?}");
        let err = text(&done.stderr);
        assert!(err.contains("parquet writes files"), "{args:?}: {err}");
        assert!(!tmp.path().join("f.parquet").exists());
    }
}
