//! The reports as Parquet files (`--output-format parquet`): the CSV
//! reports' rows, the same columns in the same order, numbers stored as
//! numbers and text as it is in the input (no spreadsheet cell rules: a
//! Parquet file is read by a program, not opened as a sheet),
//! zstd-compressed. Rows are gathered into Arrow columns by serde, the way
//! the CSV writer serialises them, and handed to the Parquet writer every
//! `BATCH` rows or `BATCH_BYTES` bytes of values, whichever comes
//! first; a row group is written out once the writer holds
//! `GROUP_BYTES` of it, or [`ROW_GROUP`] rows. So memory stays bounded by
//! bytes, as the CSV writer's is, however many rows there are and however
//! long their values (a game's 4 MiB of tags repeated on each of its
//! findings).

use std::{
    io::{self, Write},
    sync::Arc,
};

use arrow_schema::{DataType, Field, FieldRef};
use parquet::{
    arrow::ArrowWriter,
    basic::{Compression, ZstdLevel},
    file::properties::WriterProperties,
};
use serde::Serialize;

/// Rows gathered before they are handed to the Parquet writer.
const BATCH: usize = 8192;

/// Bytes of values gathered before they are handed to the Parquet writer.
const BATCH_BYTES: usize = 1 << 20;

/// Rows a row group holds at most: about 10 MiB of ordinary reports.
pub const ROW_GROUP: usize = 65_536;

/// The memory the Parquet writer may hold of a row group before it is
/// written out.
const GROUP_BYTES: usize = 4 << 20;

/// A row this large ends its row group: the writer keeps, for each page
/// until its row group is written, a buffer as large as the page was
/// before compression.
const LARGE_ROW: usize = 256 << 10;

/// The columns of a report: `header`'s names, text unless `numbers` gives
/// a number type (nullable: a cell the CSV leaves empty, as `ply` of a
/// finding of a whole game).
pub fn fields(header: &[&str], numbers: &[(&str, DataType, bool)]) -> Vec<FieldRef> {
    header
        .iter()
        .map(|&name| {
            let (kind, nullable) = numbers
                .iter()
                .find(|(n, ..)| *n == name)
                .map_or((DataType::Utf8, false), |(_, kind, nullable)| {
                    (kind.clone(), *nullable)
                });
            Arc::new(Field::new(name, kind, nullable))
        })
        .collect()
}

/// A report being written as Parquet.
pub struct ParquetRows {
    writer: Option<ArrowWriter<Box<dyn Write + Send>>>,
    builder: serde_arrow::ArrayBuilder,
    /// Rows gathered, and the bytes of their values, about.
    pending: usize,
    pending_bytes: usize,
    /// Whether a row gathered is a [`LARGE_ROW`].
    large: bool,
}

fn other(err: impl std::error::Error + Send + Sync + 'static) -> io::Error {
    io::Error::other(err)
}

impl ParquetRows {
    /// Starts a Parquet file of rows with these columns on `out`.
    pub fn new(out: Box<dyn Write + Send>, fields: &[FieldRef]) -> io::Result<ParquetRows> {
        let builder = serde_arrow::ArrayBuilder::from_arrow(fields).map_err(other)?;
        let schema = Arc::new(arrow_schema::Schema::new(fields.to_vec()));
        let mut properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_created_by(format!("pgn-arbiter {}", env!("CARGO_PKG_VERSION")))
            // Statistics of whole column chunks, no page index: the
            // footer, held until the file ends, grows with the row groups
            // (about 10 KB each) and not with the pages.
            .set_statistics_enabled(parquet::file::properties::EnabledStatistics::Chunk)
            .set_offset_index_disabled(true)
            // Plain pages of 64 KiB, zstd-compressed: each column holds
            // one page while it fills, not a dictionary and its index.
            // Smaller files and faster writes than dictionaries on the
            // corpora and on floods of tiny games (bench/RESULTS.md).
            .set_dictionary_enabled(false)
            .set_data_page_size_limit(64 << 10);
        // Text columns keep no minimum and maximum: each would be a copy
        // of a whole value (a tag of megabytes) before it is cut to 64
        // bytes, and no query of a report's text asks for a range.
        for field in fields.iter().filter(|f| *f.data_type() == DataType::Utf8) {
            properties = properties.set_column_statistics_enabled(
                parquet::schema::types::ColumnPath::from(field.name().as_str()),
                parquet::file::properties::EnabledStatistics::None,
            );
        }
        let properties = properties.build();
        let writer = ArrowWriter::try_new(out, schema, Some(properties)).map_err(other)?;
        Ok(ParquetRows {
            writer: Some(writer),
            builder,
            pending: 0,
            pending_bytes: 0,
            large: false,
        })
    }

    /// Adds one row: a struct whose fields are the columns, in order.
    pub fn push(&mut self, row: &impl Serialize) -> io::Result<()> {
        // The row's values as postcard lays them out: their bytes, and a
        // few for each number and length.
        let bytes = postcard::experimental::serialized_size(row).map_err(other)?;
        self.builder.push(row).map_err(other)?;
        self.pending += 1;
        self.pending_bytes += bytes;
        self.large |= bytes >= LARGE_ROW;
        if self.pending == BATCH || self.pending_bytes >= BATCH_BYTES || self.large {
            self.write_pending()?;
        }
        Ok(())
    }

    fn write_pending(&mut self) -> io::Result<()> {
        if self.pending == 0 {
            return Ok(());
        }
        self.pending = 0;
        self.pending_bytes = 0;
        let large = std::mem::take(&mut self.large);
        let batch = self.builder.to_record_batch().map_err(other)?;
        let Some(writer) = &mut self.writer else {
            return Err(io::Error::other("the Parquet report is already closed"));
        };
        writer.write(&batch).map_err(other)?;
        if large || writer.memory_size() >= GROUP_BYTES {
            writer.flush().map_err(other)?;
        }
        Ok(())
    }

    /// Writes the rows gathered and the file's footer, and flushes it.
    /// Nothing can be added after.
    pub fn finish(&mut self) -> io::Result<()> {
        self.write_pending()?;
        if let Some(writer) = self.writer.take() {
            writer.into_inner().map_err(other)?.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    #[derive(Serialize)]
    struct Row<'a> {
        name: &'a str,
        n: u64,
        ply: Option<u32>,
    }

    /// A writer of `Row`s to `file`.
    fn writer(file: &tempfile::NamedTempFile) -> ParquetRows {
        let columns = fields(
            &["name", "n", "ply"],
            &[
                ("n", DataType::UInt64, false),
                ("ply", DataType::UInt32, true),
            ],
        );
        ParquetRows::new(Box::new(file.reopen().unwrap()), &columns).unwrap()
    }

    #[derive(serde::Deserialize)]
    struct Back {
        name: String,
        n: u64,
        ply: Option<u32>,
    }

    #[test]
    fn rows_come_back_as_written_in_bounded_row_groups() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut rows = writer(&file);
        let total = 2 * ROW_GROUP + 5;
        let names = ["a", "", "é, \"q\"\n"];
        for i in 0..total {
            rows.push(&Row {
                name: names[i % 3],
                n: i as u64,
                ply: (i % 2 == 0).then_some(i as u32),
            })
            .unwrap();
        }
        rows.finish().unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.reopen().unwrap()).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 3);
        let types: Vec<_> = reader
            .schema()
            .fields()
            .iter()
            .map(|f| (f.name().clone(), f.data_type().clone(), f.is_nullable()))
            .collect();
        assert_eq!(
            types,
            [
                ("name".to_owned(), DataType::Utf8, false),
                ("n".to_owned(), DataType::UInt64, false),
                ("ply".to_owned(), DataType::UInt32, true),
            ]
        );
        let mut seen = 0;
        for batch in reader.build().unwrap() {
            let back: Vec<Back> = serde_arrow::from_record_batch(&batch.unwrap()).unwrap();
            for row in back {
                assert_eq!(row.n, seen as u64);
                assert_eq!(row.name, names[seen % 3]);
                assert_eq!(row.ply, (seen % 2 == 0).then_some(seen as u32));
                seen += 1;
            }
        }
        assert_eq!(seen, total);
    }

    /// A row of a large value ends its row group, so the writer never
    /// holds more than one such row's pages; the rows come back whole.
    #[test]
    fn large_rows_end_their_row_groups() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut rows = writer(&file);
        let big = "x".repeat(LARGE_ROW);
        for i in 0..5u64 {
            let name = if i == 2 { "small" } else { big.as_str() };
            rows.push(&Row {
                name,
                n: i,
                ply: None,
            })
            .unwrap();
        }
        rows.finish().unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file.reopen().unwrap()).unwrap();
        // The small row goes with the large one after it.
        assert_eq!(reader.metadata().num_row_groups(), 4);
        let mut names = Vec::new();
        for batch in reader.build().unwrap() {
            let back: Vec<Back> = serde_arrow::from_record_batch(&batch.unwrap()).unwrap();
            names.extend(back.into_iter().map(|r| (r.n, r.name.len())));
        }
        assert_eq!(
            names,
            [
                (0, LARGE_ROW),
                (1, LARGE_ROW),
                (2, 5),
                (3, LARGE_ROW),
                (4, LARGE_ROW)
            ]
        );
    }
}
