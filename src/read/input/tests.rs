//! The tests of `input`.

use super::*;

fn normalised(data: &[u8], chunk: usize) -> Vec<u8> {
    // A reader that hands out `chunk` bytes at a time, to cut every
    // pattern at every place.
    struct Slow<'a>(&'a [u8], usize);
    impl Read for Slow<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut out = Vec::new();
    Normalize::new(Slow(data, chunk))
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn carriage_returns_end_lines_and_byte_order_marks_at_line_starts_go() {
    let cases: &[(&[u8], &[u8])] = &[
        (b"a\rb\r\rc\r", b"a\nb\n\nc\n"),
        (b"a\r\nb\r\n", b"a\r\nb\r\n"),
        (
            b"\xef\xbb\xbf[A]\n\xef\xbb\xbf[B]\r\xef\xbb\xbf[C]",
            b"[A]\n[B]\n[C]",
        ),
        (b"x\xef\xbb\xbf\n\xef\xbb", b"x\xef\xbb\xbf\n\xef\xbb"),
        (b"M\xc3\xbcller \xef\xbc\x81", b"M\xc3\xbcller \xef\xbc\x81"),
        (b"", b""),
        (b"\r", b"\n"),
    ];
    for (input, want) in cases {
        for chunk in 1..=input.len().max(1) {
            assert_eq!(normalised(input, chunk), *want, "{input:?} by {chunk}");
        }
    }
    let big: Vec<u8> = b"[Event \"x\"]\r\r1. e4 *\r\r".repeat(20_000);
    let out = normalised(&big, 70_001);
    assert_eq!(
        out,
        big.iter()
            .map(|&b| if b == b'\r' { b'\n' } else { b })
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_xz_file_that_needs_gigabytes_is_refused() {
    // `1. e4 *` compressed with a 1.5 GiB dictionary (Python's lzma).
    let xz = [
        0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46, 0x02, 0x00, 0x21,
        0x01, 0x25, 0x00, 0x00, 0x00, 0x3b, 0x78, 0x7b, 0x41, 0x01, 0x00, 0x07, 0x31, 0x2e, 0x20,
        0x65, 0x34, 0x20, 0x2a, 0x0a, 0x00, 0x33, 0xaa, 0xd4, 0xce, 0x56, 0xa7, 0xfd, 0x50, 0x00,
        0x01, 0x20, 0x08, 0xbb, 0x19, 0xd9, 0xbb, 0x1f, 0xb6, 0xf3, 0x7d, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x04, 0x59, 0x5a,
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn.xz");
    fs::write(&path, xz).unwrap();
    let err = open(&Source::File(path), Arc::default()).err().unwrap();
    assert!(err.to_string().contains("needs more than 128 MiB"), "{err}");
}

#[test]
fn reads_utf16_with_a_byte_order_mark() {
    let text = "[White \"Müller\"]\n\n1. e4 *\n";
    let mut le = vec![0xff, 0xfe];
    le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(read_back(&le).0, text);
    let mut be = vec![0xfe, 0xff];
    be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    assert_eq!(read_back(&be).0, text);
    let bare: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert_eq!(read_back(&bare).0, text);
    let bare: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    assert_eq!(read_back(&bare).0, text);
    // A `[` then NUL characters is no UTF-16 tag: read as it is.
    assert_eq!(read_back(b"[\0\0\0x").0, "[\0\0\0x");
}

#[test]
fn detects_magic_bytes() {
    assert_eq!(Compression::detect(b"[Event"), Compression::None);
    assert_eq!(Compression::detect(&[0x1f, 0x8b, 8]), Compression::Gzip);
    assert_eq!(Compression::detect(b"BZh91AY"), Compression::Bzip2);
    assert_eq!(
        Compression::detect(&[0x28, 0xb5, 0x2f, 0xfd, 0]),
        Compression::Zstd
    );
    assert_eq!(
        Compression::detect(&[0x50, 0x2a, 0x4d, 0x18, 4, 0]),
        Compression::Zstd
    );
    assert_eq!(
        Compression::detect(&[0x5f, 0x2a, 0x4d, 0x18]),
        Compression::Zstd
    );
    assert_eq!(
        Compression::detect(&[0xfd, b'7', b'z', b'X', b'Z', 0]),
        Compression::Xz
    );
    assert_eq!(Compression::detect(b""), Compression::None);
}

#[test]
fn pgn_names() {
    assert!(is_pgn_name(Path::new("a/b.pgn")));
    assert!(is_pgn_name(Path::new("b.PGN")));
    assert!(is_pgn_name(Path::new("lichess.pgn.zst")));
    assert!(!is_pgn_name(Path::new("notes.txt")));
    assert!(!is_pgn_name(Path::new("pgn")));
    assert!(!is_pgn_name(Path::new("b.pgnx")));
    assert!(is_pgn_name(Path::new("b.pgn.gz")));
    assert!(is_pgn_name(Path::new("b.PGN.XZ")));
    assert!(!is_pgn_name(Path::new("b.pgn.sha256")));
    assert!(!is_pgn_name(Path::new("b.pgn.bak")));
    assert!(!is_pgn_name(Path::new(".pgn")));
}

#[cfg(unix)]
#[test]
fn a_walk_reads_each_file_once_and_skips_loops_and_fifos() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir(root.join("sub")).unwrap();
    fs::write(root.join("a.pgn"), "1. e4 *\n").unwrap();
    fs::write(root.join("sub/b.pgn.zst"), "").unwrap();
    fs::write(root.join("a.pgn.sha256"), "").unwrap();
    std::os::unix::fs::symlink(".", root.join("sub/self")).unwrap();
    std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("a.pgn", root.join("c.pgn")).unwrap();
    let fifo = root.join("pipe.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (inputs, notes) = expand(&[root.to_path_buf()], true);
    let names: Vec<String> = inputs
        .iter()
        .map(|i| {
            i.name
                .strip_prefix(&*root.to_string_lossy())
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(names, ["/a.pgn", "/sub/b.pgn.zst"]);
    let notes = notes.join("\n");
    assert!(notes.contains("c.pgn: skipped, the same file"), "{notes}");
    assert!(
        notes.contains("pipe.pgn: skipped, not a regular file"),
        "{notes}"
    );
    assert!(notes.contains("already searched"), "{notes}");
    // Named on the command line, a FIFO is read as given.
    let (inputs, _) = expand(std::slice::from_ref(&fifo), false);
    assert_eq!(inputs[0].source, Source::File(fifo));
    // Entered through a loop, the walk still ends, each file once.
    let (inputs, _) = expand(&[root.join("sub/self/self")], true);
    assert_eq!(inputs.len(), 2);
    // Without --follow, links to directories are not searched.
    let (inputs, notes) = expand(&[root.to_path_buf()], false);
    assert_eq!(inputs.len(), 2);
    let notes = notes.join("\n");
    assert!(
        notes.contains("sub/self: skipped, a symbolic link to a directory"),
        "{notes}"
    );
    assert!(
        notes.contains("sub/up: skipped, a symbolic link"),
        "{notes}"
    );
    // Named on the command line, a link is searched; the links in it
    // are not.
    let (inputs, _) = expand(&[root.join("sub/self/self")], false);
    assert_eq!(inputs.len(), 1);
    // A directory without PGN says so.
    let empty = tempfile::tempdir().unwrap();
    let (inputs, notes) = expand(&[empty.path().to_path_buf()], false);
    assert!(inputs.is_empty());
    assert!(notes[0].contains("no PGN file"), "{notes:?}");
}

fn read_back(data: &[u8]) -> (String, Compression) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn");
    fs::write(&path, data).unwrap();
    let mut opened = open(&Source::File(path), Arc::default()).unwrap();
    let mut out = String::new();
    opened.reader.read_to_string(&mut out).unwrap();
    (out, opened.compression)
}

#[test]
fn reads_bzip2_and_xz_and_multi_member_gzip() {
    use std::io::Write;
    let pgn = b"1. e4 e5 *\n";
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    bz.write_all(pgn).unwrap();
    assert_eq!(
        read_back(&bz.finish().unwrap()),
        ("1. e4 e5 *\n".into(), Compression::Bzip2)
    );
    let mut xz = xz2::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(pgn).unwrap();
    assert_eq!(
        read_back(&xz.finish().unwrap()),
        ("1. e4 e5 *\n".into(), Compression::Xz)
    );
    let member = |text: &[u8]| {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        gz.finish().unwrap()
    };
    let mut two = member(b"1. e4 *\n\n");
    two.extend(member(b"1. d4 *\n"));
    assert_eq!(
        read_back(&two),
        ("1. e4 *\n\n1. d4 *\n".into(), Compression::Gzip)
    );
}

#[test]
fn reads_zstd_with_skippable_frame() {
    let mut data = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
    data.extend(zstd::encode_all(&b"1. e4 *\n"[..], 3).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pgn.zst");
    fs::write(&path, &data).unwrap();
    let count = Arc::new(AtomicU64::new(0));
    let mut opened = open(&Source::File(path), count.clone()).unwrap();
    let mut out = String::new();
    opened.reader.read_to_string(&mut out).unwrap();
    assert_eq!(out, "1. e4 *\n");
    assert_eq!(opened.compression, Compression::Zstd);
    assert_eq!(count.load(Ordering::Relaxed), data.len() as u64);
}
