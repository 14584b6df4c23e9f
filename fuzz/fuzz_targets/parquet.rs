//! Arbitrary rows through the Parquet report writer (`--output-format
//! parquet`): cut from the input into text cells (any length, any bytes as
//! UTF-8 makes them) and numbers, written in row groups bounded by bytes,
//! and read back the same, row for row.

#![no_main]

use std::sync::Arc;

use arrow_schema::DataType;
use libfuzzer_sys::fuzz_target;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pgn_arbiter::report::parquet::{ParquetRows, fields};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Row {
    text: String,
    n: u64,
    ply: Option<u32>,
}

/// A writer whose bytes the target reads back.
#[derive(Clone, Default)]
struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    // Rows: each piece between 0xFF bytes, its first byte a repeat count
    // (so that a few bytes can make a long cell).
    let rows: Vec<Row> = data
        .split(|&b| b == 0xFF)
        .enumerate()
        .map(|(i, piece)| {
            let (repeat, text) = piece.split_first().map_or((0, &[][..]), |(r, t)| (*r, t));
            let text = String::from_utf8_lossy(text).repeat(usize::from(repeat) * 64 + 1);
            Row {
                n: i as u64,
                ply: (repeat % 2 == 0).then_some(u32::from(repeat)),
                text,
            }
        })
        .collect();
    let columns = fields(
        &["text", "n", "ply"],
        &[("n", DataType::UInt64, false), ("ply", DataType::UInt32, true)],
    );
    let out = Shared::default();
    let mut writer = ParquetRows::new(Box::new(out.clone()), &columns).expect("a writer");
    for row in &rows {
        writer.push(row).expect("a row is written");
    }
    writer.finish().expect("the file is finished");
    let bytes = bytes::Bytes::from(out.0.lock().expect("not poisoned").clone());
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).expect("the file reads");
    let mut back = Vec::new();
    for batch in reader.build().expect("batches") {
        let batch = batch.expect("a batch");
        back.extend(serde_arrow::from_record_batch::<Vec<Row>>(&batch).expect("rows"));
    }
    assert_eq!(back, rows);
});
