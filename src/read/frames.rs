//! The frames of a zstd file, found without decompressing it: each frame's
//! header and block headers are read and its blocks skipped (RFC 8878,
//! section 3.1). Archives written by pzstd (the lichess database) are a
//! run of independent frames of about 32 MiB, each after a skippable
//! frame; a frame range is a shard that can be audited on its own
//! (`--zstd-frames`).

use std::io::{self, Read, Seek, SeekFrom};

/// The magic number of a zstd frame.
const ZSTD_MAGIC: u32 = 0xFD2F_B528;

/// Skippable frames have magic numbers `0x184D2A50` to `0x184D2A5F`.
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// One zstd frame (skippable frames are not listed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// Its byte offset in the file.
    pub offset: u64,
    /// Its compressed size in bytes.
    pub size: u64,
    /// Its decompressed size, when its header says it (pzstd's do).
    pub content_size: Option<u64>,
}

fn read_array<const N: usize>(r: &mut impl Read) -> io::Result<[u8; N]> {
    let mut buf = [0u8; N];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

fn corrupt(offset: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("not a zstd file, or a corrupt one: {what} at byte {offset}"),
    )
}

/// Lists the data frames of a zstd stream, in order. Reads headers only,
/// seeking over the rest: where a frame follows a skippable frame of four
/// bytes that gives its compressed size (as pzstd writes them), the frame's
/// header and the four bytes after its end, confirmed to start the next
/// frame or to be the file's end; elsewhere, or where that size proves
/// wrong, its block headers (three bytes per block of at most 128 KiB).
#[cfg(test)]
pub fn list(file: &mut (impl Read + Seek)) -> io::Result<Vec<Frame>> {
    let mut frames = Vec::new();
    list_into(file, &mut frames).map(|()| frames)
}

/// The frames of a file that may be cut short or damaged: the frames
/// before the damage, and what the damage is, if any.
pub fn list_readable(file: &mut (impl Read + Seek)) -> (Vec<Frame>, Option<io::Error>) {
    let mut frames = Vec::new();
    let damage = list_into(file, &mut frames).err();
    (frames, damage)
}

/// Lists the frames into `frames`, up to the end or the first damage.
fn list_into(file: &mut (impl Read + Seek), frames: &mut Vec<Frame>) -> io::Result<()> {
    let end = file.seek(SeekFrom::End(0))?;
    let mut pos = file.seek(SeekFrom::Start(0))?;
    // The size the skippable frame just read gives the next frame.
    let mut hint: Option<u64> = None;
    while pos < end {
        let magic = u32::from_le_bytes(read_array(file).map_err(|_| corrupt(pos, "a cut frame"))?);
        if magic & SKIPPABLE_MASK == SKIPPABLE_MAGIC {
            let size =
                u32::from_le_bytes(read_array(file).map_err(|_| corrupt(pos, "a cut frame"))?);
            hint = None;
            if size == 4 {
                hint = read_array::<4>(file)
                    .ok()
                    .map(|b| u64::from(u32::from_le_bytes(b)));
                pos = file.stream_position()?;
            } else {
                pos = file.seek(SeekFrom::Current(i64::from(size)))?;
            }
            continue;
        }
        if magic != ZSTD_MAGIC {
            return Err(corrupt(pos, "no frame magic number"));
        }
        let start = pos;
        let (decompressed, checksum) = header(file).map_err(|_| corrupt(start, "a cut frame"))?;
        let after_header = file.stream_position()?;
        let told = hint.take().map(|size| start.saturating_add(size));
        pos = match told {
            Some(at) if at > after_header && starts_a_frame(file, at, end)? => {
                file.seek(SeekFrom::Start(at))?
            }
            _ => {
                file.seek(SeekFrom::Start(after_header))?;
                walk_blocks(file, start)?;
                if checksum {
                    file.seek(SeekFrom::Current(4))?;
                }
                file.stream_position()?
            }
        };
        if pos > end {
            return Err(corrupt(start, "a cut frame"));
        }
        frames.push(Frame {
            offset: start,
            size: pos - start,
            content_size: decompressed,
        });
    }
    Ok(())
}

/// Checks that bytes `start..end` of the file can be a run of whole frames
/// (as `list` gives them): a zstd frame begins at `start`, and `end` is the
/// file's end or where a frame begins. A span from an older listing of a
/// file since changed mostly fails this; the decoder finds the rest.
pub fn check_span(file: &mut (impl Read + Seek), start: u64, end: u64) -> io::Result<()> {
    let file_end = file.seek(SeekFrom::End(0))?;
    let fits = start < end
        && end <= file_end
        && file_end - start >= 4
        && {
            file.seek(SeekFrom::Start(start))?;
            u32::from_le_bytes(read_array(file)?) == ZSTD_MAGIC
        }
        && starts_a_frame(file, end, file_end)?;
    if fits {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not whole frames of this {file_end}-byte file (changed since it was listed?)"),
        ))
    }
}

/// Reads a frame header after its magic number: the decompressed size, if
/// it says it, and whether a checksum follows the blocks.
fn header(file: &mut (impl Read + Seek)) -> io::Result<(Option<u64>, bool)> {
    let [descriptor] = read_array(file)?;
    let content_size_flag = descriptor >> 6;
    let single_segment = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let dictionary: i64 = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
    let window: i64 = if single_segment { 0 } else { 1 };
    let content_size: i64 = match content_size_flag {
        0 if single_segment => 1,
        0 => 0,
        1 => 2,
        2 => 4,
        _ => 8,
    };
    file.seek(SeekFrom::Current(window + dictionary))?;
    let mut field = [0u8; 8];
    file.read_exact(&mut field[..content_size as usize])?;
    let mut decompressed = u64::from_le_bytes(field);
    if content_size == 2 {
        // The two-byte field is stored less 256.
        decompressed += 256;
    }
    Ok(((content_size > 0).then_some(decompressed), checksum))
}

/// Seeks over a frame's blocks, reading each block's header.
fn walk_blocks(file: &mut (impl Read + Seek), start: u64) -> io::Result<()> {
    loop {
        let header = read_array::<3>(file).map_err(|_| corrupt(start, "a cut frame"))?;
        let header = u32::from(header[0]) | u32::from(header[1]) << 8 | u32::from(header[2]) << 16;
        let last = header & 1 != 0;
        let size = header >> 3;
        let skip = match (header >> 1) & 3 {
            0 | 2 => size,
            1 => 1,
            _ => return Err(corrupt(start, "a reserved block type")),
        };
        file.seek(SeekFrom::Current(i64::from(skip)))?;
        if last {
            return Ok(());
        }
    }
}

/// Whether `at` is the file's end or the start of a frame (a zstd or a
/// skippable frame's magic number).
fn starts_a_frame(file: &mut (impl Read + Seek), at: u64, end: u64) -> io::Result<bool> {
    if at == end {
        return Ok(true);
    }
    if at > end || end - at < 4 {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(at))?;
    let magic = u32::from_le_bytes(read_array(file)?);
    Ok(magic == ZSTD_MAGIC || magic & SKIPPABLE_MASK == SKIPPABLE_MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames as pzstd writes them: a skippable frame before each.
    fn framed(parts: &[&[u8]]) -> (Vec<u8>, Vec<Frame>) {
        let mut out = Vec::new();
        let mut frames = Vec::new();
        for part in parts {
            out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
            out.extend_from_slice(&4u32.to_le_bytes());
            out.extend_from_slice(&[1, 2, 3, 4]);
            // One-shot compression writes the content size in the header.
            let frame = zstd::bulk::compress(part, 3).unwrap();
            frames.push(Frame {
                offset: out.len() as u64,
                size: frame.len() as u64,
                content_size: Some(part.len() as u64),
            });
            out.extend_from_slice(&frame);
        }
        (out, frames)
    }

    #[test]
    fn spans_are_checked_against_the_file() {
        let (bytes, frames) = framed(&[b"one", b"two", b"three"]);
        let mut file = io::Cursor::new(&bytes);
        let end = |f: &Frame| f.offset + f.size;
        for (a, b) in [(0, 0), (0, 2), (1, 1), (1, 2)] {
            let span = (frames[a].offset, end(&frames[b]));
            assert!(check_span(&mut file, span.0, span.1).is_ok(), "{a}..{b}");
        }
        let len = bytes.len() as u64;
        for (start, end) in [
            // Inside a frame, before its skippable frame, past the end,
            // empty.
            (frames[1].offset + 1, end(&frames[1])),
            (frames[0].offset, end(&frames[0]) - 1),
            (0, end(&frames[0])),
            (frames[2].offset, len + 1),
            (frames[1].offset, frames[1].offset),
            (len, len + 4),
        ] {
            assert!(check_span(&mut file, start, end).is_err(), "{start}..{end}");
        }
    }

    #[test]
    fn frames_are_found_without_decompressing() {
        let big: Vec<u8> = (0..400_000u32)
            .flat_map(|i| (i * 7919).to_le_bytes())
            .collect();
        let (bytes, want) = framed(&[b"[Event \"a\"]\n\n1. e4 *\n", &big, b"", &[b'x'; 300_000]]);
        let got = list(&mut io::Cursor::new(&bytes)).unwrap();
        assert_eq!(got, want);
        // Each frame decompresses on its own.
        let third = &bytes[got[3].offset as usize..(got[3].offset + got[3].size) as usize];
        assert_eq!(zstd::decode_all(third).unwrap(), vec![b'x'; 300_000]);
    }

    /// Frames with a skippable frame before each giving its compressed
    /// size, as pzstd writes them; `size` changes the size given.
    fn sized(parts: &[&[u8]], size: impl Fn(usize, u32) -> u32) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            // Streamed, so that a frame of many blocks has many.
            let frame = zstd::encode_all(*part, 1).unwrap();
            let told = size(i, u32::try_from(frame.len()).unwrap());
            out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
            out.extend_from_slice(&4u32.to_le_bytes());
            out.extend_from_slice(&told.to_le_bytes());
            out.extend_from_slice(&frame);
        }
        out
    }

    /// A reader that counts the reads made of it.
    struct Counted<'a>(io::Cursor<&'a [u8]>, usize);

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 += 1;
            self.0.read(buf)
        }
    }

    impl Seek for Counted<'_> {
        fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
            self.0.seek(to)
        }
    }

    #[test]
    fn sizes_that_pzstd_writes_spare_the_block_walk_and_wrong_ones_do_not_mislead() {
        let noise: Vec<u8> = (0..1_000_000u32)
            .flat_map(|i| (i.wrapping_mul(2_654_435_761)).to_le_bytes())
            .collect();
        let parts: [&[u8]; 4] = [&noise, b"1. e4 *\n", &noise, &noise[..1000]];
        let right = sized(&parts, |_, n| n);
        let walked = {
            // The same frames with no size given: the block walk.
            let no_sizes = sized(&parts, |_, _| 0);
            list(&mut io::Cursor::new(&no_sizes)).unwrap()
        };
        assert_eq!(walked.len(), 4);
        let mut counted = Counted(io::Cursor::new(&right), 0);
        let got = list(&mut counted).unwrap();
        let offsets: Vec<_> = got.iter().map(|f| (f.size, f.content_size)).collect();
        let want: Vec<_> = walked.iter().map(|f| (f.size, f.content_size)).collect();
        assert_eq!(offsets, want);
        // Magic, size, payload, magic, header, the next magic: a few reads
        // a frame, however many blocks it has (the first has dozens).
        assert!(counted.1 <= 4 * 8, "{} reads", counted.1);
        let no_sizes = sized(&parts, |_, _| 0);
        let mut walking = Counted(io::Cursor::new(&no_sizes), 0);
        list(&mut walking).unwrap();
        assert!(
            walking.1 >= 3 * counted.1,
            "{} against {}",
            walking.1,
            counted.1
        );
        // Sizes that are wrong (short, long, past the end, into the middle)
        // are found out, and the frames walked.
        for wrong in [
            |_, n: u32| n - 1,
            |_, n: u32| n + 1,
            |_, _| u32::MAX,
            |i, n: u32| {
                if i == 0 { n / 2 } else { n }
            },
        ] {
            let bytes = sized(&parts, wrong);
            let got = list(&mut io::Cursor::new(&bytes)).unwrap();
            let sizes: Vec<_> = got.iter().map(|f| (f.size, f.content_size)).collect();
            assert_eq!(sizes, want);
        }
    }

    #[test]
    fn a_streamed_frame_has_no_content_size() {
        let frame = zstd::encode_all(&b"1. e4 *\n"[..], 3).unwrap();
        let got = list(&mut io::Cursor::new(&frame)).unwrap();
        assert_eq!(got[0].content_size, None);
    }

    #[test]
    fn a_cut_or_foreign_file_is_an_error() {
        let (bytes, _) = framed(&[b"1. e4 *\n"]);
        assert!(list(&mut io::Cursor::new(&bytes[..bytes.len() - 2])).is_err());
        assert!(list(&mut io::Cursor::new(b"[Event \"x\"]\n")).is_err());
    }

    #[test]
    fn the_frames_before_damage_are_listed_with_the_damage() {
        let (bytes, want) = framed(&[b"1. e4 *\n", &[b'x'; 200_000], b"1. d4 *\n"]);
        // Cut inside the last frame; then its magic number overwritten.
        let cut = &bytes[..bytes.len() - 3];
        let (got, damage) = list_readable(&mut io::Cursor::new(cut));
        assert_eq!(got, want[..2]);
        let damage = damage.unwrap().to_string();
        assert!(
            damage.contains(&format!("at byte {}", want[2].offset)),
            "{damage}"
        );
        let mut broken = bytes.clone();
        broken[want[1].offset as usize] ^= 0xff;
        let (got, damage) = list_readable(&mut io::Cursor::new(&broken));
        assert_eq!(got, want[..1]);
        assert!(
            damage
                .unwrap()
                .to_string()
                .contains("no frame magic number")
        );
        let (got, damage) = list_readable(&mut io::Cursor::new(&bytes));
        assert_eq!(got, want);
        assert!(damage.is_none());
    }
}
