#!/usr/bin/env bash
# Where one thread's instructions go: callgrind over the first 8 MB of the
# corpus (cut at a game start), for pgn-arbiter `-j 1` and for the hashed
# bare replay (`examples/bare_replay --hash`), grouped by stage from the
# call tree. Instructions are deterministic, so one run each is enough;
# bench/ratio.sh says what they come to in time. Writes bench/PROFILE.md.
# Installs valgrind if it is missing.
#
#   bench/profile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
need_apt valgrind valgrind

# pgn-arbiter with line tables (the same code, and where each instruction's
# source line is), so that code inlined into the replay's loop is told
# apart by the file it comes from.
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
  cargo build --release --locked --bin pgn-arbiter --target-dir target/profile-lines
cargo build --release --locked --example bare_replay
arbiter=$PWD/target/profile-lines/release/pgn-arbiter
bare=$PWD/target/release/examples/bare_replay
make_corpus
slice=$work/profile-slice.pgn
python3 - "$corpus" "$slice" <<'PY'
import sys
data = open(sys.argv[1], "rb").read(8_000_000)
cut = data.rfind(b"\n\n[Event ")
open(sys.argv[2], "wb").write(data[: cut + 1])
PY

valgrind --tool=callgrind --callgrind-out-file="$work/profile-arbiter.out" \
  "$arbiter" -q -j 1 --fail-on never --findings /dev/null "$slice" 2>/dev/null
valgrind --tool=callgrind --callgrind-out-file="$work/profile-bare.out" \
  "$bare" --hash "$slice" >/dev/null 2>&1
for who in arbiter bare; do
  callgrind_annotate --threshold=100 --tree=calling --inclusive=yes "$work/profile-$who.out" > "$work/profile-$who.tree" 2>/dev/null
  callgrind_annotate --threshold=100 "$work/profile-$who.out" > "$work/profile-$who.self" 2>/dev/null
done

python3 - "$work" "$(stat -c %s "$slice")" "$(git rev-parse --short HEAD)" > bench/PROFILE.md <<'PY'
import os, platform, re, sys
work, size, commit = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# An entry: cost, `*` (a function) or `>` (a call it makes), source file
# (with line tables; `???` without), function, call count, binary. With line
# tables a function comes once for each source file of its lines (code
# inlined into it among them): the cost of those lines and of the calls
# they make. Its entry for the file it is written in is the largest, and
# holds all the others.
LINE = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+([*>])\s+(?:(\S*?):)?(.*?)(?: \([\d,]+x\))?(?: \[.*\])?\s*$")

def tree(who):
    """(caller, callee) -> inclusive instructions, each function's total,
    and (source file, function) -> the inclusive cost of its lines there."""
    edges, total, by_file, caller = {}, {}, {}, None
    for line in open(f"{work}/profile-{who}.tree"):
        m = LINE.match(line)
        if not m:
            continue
        n, kind, file, name = int(m.group(1).replace(",", "")), m.group(2), m.group(3) or "", m.group(4)
        if kind == "*":
            caller = name
            total[name] = max(total.get(name, 0), n)
            by_file[(file, name)] = by_file.get((file, name), 0) + n
        elif caller:
            edges[(caller, name)] = edges.get((caller, name), 0) + n
    return edges, total, by_file

def inlined(by_file, function, files):
    """The cost of `function`'s lines from source files ending in one of
    `files` (code inlined into it), the calls those lines make included."""
    return sum(n for (file, name), n in by_file.items()
               if name.endswith(function) and any(file.endswith(f) for f in files))

def selfs(who):
    out = {}
    for line in open(f"{work}/profile-{who}.self"):
        m = re.match(r"^\s*([\d,]+) \([ \d.]+%\)\s+(?:\S*?:)?(.*?)(?: \[.*\])?\s*$", line)
        if m:
            out[m.group(2)] = out.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return out

def edge(edges, caller, callee):
    return sum(n for (a, b), n in edges.items() if a.endswith(caller) and b.endswith(callee))

def total(totals, name):
    return sum(n for f, n in totals.items() if f.endswith(name))

def self_of(s, *names):
    return sum(n for f, n in s.items() if any(x in f for x in names))

def program(who):
    for line in open(f"{work}/profile-{who}.self"):
        m = re.match(r"^\s*([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", line)
        if m:
            return int(m.group(1).replace(",", ""))

a_edges, a_tot, a_files = tree("arbiter")
a_self = selfs("arbiter")
A = program("arbiter")
stream = total(a_tot, "read::blocks::read_sized")
# At -j 1 the worker is called through `Pieces` (cut and piece).
# The reading of one input (`read_sized`, its `Stream` and the methods of
# it that are not inlined) calls the worker through `Pieces`.
readers = ("read::blocks::read_sized", "read::blocks::Stream::read", "read::blocks::Stream::hand_on",
           "read::blocks::Stream::too_large")
worker = sum(edge(a_edges, reader, callee) for reader in readers
             for callee in ("run::pipeline::run::{{closure}}", "Pieces>::cut", "Pieces>::piece"))
audit = total(a_tot, "checks::audit")
# SAN resolution is inlined into the replay's loop: the lines of
# `lenient.rs` and `san.rs` there, and shakmaty's helpers inlined with them
# (squares, bitboards, attacks; `position.rs` aside, which the replay uses
# too), plus any call left.
SHAKMATY_HELPERS = tuple(f"shakmaty-0.30.1/src/{f}.rs" for f in
                         ("square", "bitboard", "board", "m", "color", "attacks", "role", "magics", "types"))
resolve = edge(a_edges, "checks::audit", "board::lenient::resolve") \
    + inlined(a_files, "checks::audit", ("src/board/lenient.rs", "src/board/san.rs") + SHAKMATY_HELPERS)
play = edge(a_edges, "checks::audit", "Position>::play_unchecked") \
    + edge(a_edges, "checks::audit", "shakmaty::position::do_move")
history = edge(a_edges, "checks::audit", "History::examine") + edge(a_edges, "checks::audit", "History::new_stretch")
winnable = edge(a_edges, "checks::audit", "board::winnable::winnability")
# The worker's scans: every scan but a cutting one, made by the reader.
cutting = sum(edge(a_edges, reader, "read::lexer::Lexed::scan") for reader in readers) \
    + edge(a_edges, "read::lexer::last_game_start", "read::lexer::Lexed::scan")
scan = total(a_tot, "read::lexer::Lexed::scan") - cutting
# Called from the lexer (the tree lists no total for a small leaf).
read_san = sum(n for (a, b), n in a_edges.items()
               if "read::lexer" in a and b.endswith("shakmaty::san::Reader::read_san"))
writer = total(a_tot, "run::run::{{closure}}")
fill_tags = total(a_tot, "report::GameResult::fill_tags")
# The fingerprint is inlined into the worker (a batch of games, or a
# piece's games one by one); it folds the players' names.
fingerprint = total(a_tot, "read::game::RawGame::fingerprint") + sum(
    inlined(a_files, w, ("src/read/game.rs",)) + edge(a_edges, w, "read::game::folded_name_hash")
    for w in ("pipeline::Worker::check_batch", "pipeline::Worker::check"))
arbiter_rows = [
    ("reading: filling chunks, counting lines, cutting blocks where the reader does", stream - worker + cutting),
    ("lexing: tags, tokens, move numbers, comments, the common forms of SAN", scan - read_san),
    ("SAN parsing (shakmaty's `read_san`, for the forms the lexer hands it)", read_san),
    ("SAN resolution (`lenient::resolve`, `board::san::to_move`, inlined into the replay)", resolve),
    ("make move (`play_unchecked`, shakmaty's `do_move`)", play),
    ("hashing and history (`History::examine`, `new_stretch`)", history),
    ("winnability (CHA-Solver, games won on time)", winnable),
    ("the other checks (tags, header, result, ending, suffixes, verdict)", audit - resolve - play - history - winnable),
    ("tag columns of each game (`fill_tags`)", fill_tags),
    ("fingerprints (`RawGame::fingerprint`, the players' names folded)", fingerprint),
    ("the writer: run-wide checks, CSV, summary", writer),
    ("the rest of the worker (result parts, sorting)", worker - cutting - scan - audit - writer - fill_tags - fingerprint),
    ("outside the read loop (start, arguments, exit)", A - stream),
]
b_edges, b_tot, _ = tree("bare")
b_self = selfs("bare")
B = program("bare")
key = total(b_tot, "bare_replay::Replay::key")
b_san = total(b_tot, "SanPlus::from_ascii_prefix")
b_resolve = self_of(b_self, "san_candidates", "San::to_move", "gen_", "legal_moves", "attacks")
b_visit = total(b_tot, "Visitor>::san")
bare_rows = [
    ("reading and tokenising (pgn-reader, its buffer copies)", B - b_visit - b_san),
    ("SAN parsing (`SanPlus::from_ascii_prefix`)", b_san),
    ("SAN resolution and make move (`San::to_move`, `play_unchecked`)", b_visit - key),
    ("Zobrist key of every position (`zobrist_hash`)", key),
]
alloc_a = self_of(a_self, "malloc", "free", "realloc", "__rust_alloc", "__rust_dealloc", "__rust_realloc", "_int_")
alloc_b = self_of(b_self, "malloc", "free", "realloc", "__rust_alloc", "__rust_dealloc", "__rust_realloc", "_int_")

def table(rows, whole):
    print("| stage | instructions (M) | share |")
    print("|---|---:|---:|")
    for label, n in rows:
        print(f"| {label} | {n / 1e6:,.1f} | {100 * n / whole:.1f}% |")
    print(f"| **all** | **{whole / 1e6:,.1f}** | 100% |")

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print("# Where one thread's instructions go\n")
print(f"Written by `bench/profile.sh` at {commit}; every figure comes from one run of it.\n")
print(f"- Machine: {os.cpu_count()} cores ({cpu}), {platform.platform()}")
print(f"- Input: the first {size / 1e6:.1f} MB of the corpus (every real file of `../shared/corpora` joined), cut at a game start.")
print("- Instructions by callgrind (`valgrind --tool=callgrind`), grouped by stage from the call tree:")
print("  a stage is the inclusive cost of its entry function where it is called, so inlined")
print("  helpers count with their caller; SAN resolution and the fingerprint, inlined into")
print("  their callers, are told apart by the source file of their lines (pgn-arbiter is")
print("  built with line tables for this). Allocation is spread over the stages; its own")
print("  total is given below each table.\n")
print(f"pgn-arbiter `-j 1 --findings /dev/null` against the hashed bare replay: **{A / B:.3f}x** the instructions.\n")
read_a = stream - worker + cutting + scan
core_a = resolve + play + history
print(f"- Reading (chunks, lexing, SAN parsing): {read_a / 1e6:,.0f} M against the bare replay's "
      f"{(B - b_visit) / 1e6:,.0f} M ({read_a / (B - b_visit):.2f}x).")
print(f"- Replaying (SAN resolution, make move, the positions' keys and history): {core_a / 1e6:,.0f} M "
      f"against {b_visit / 1e6:,.0f} M ({core_a / b_visit:.2f}x).")
print(f"- Work the bare replay does not do (checks, tag columns, fingerprints, the writer): "
      f"{(A - read_a - core_a) / 1e6:,.0f} M, {100 * (A - read_a - core_a) / A:.1f}% of pgn-arbiter's.\n")
print("## pgn-arbiter, one thread\n")
table(arbiter_rows, A)
print(f"\nAllocation (`malloc`, `free` and the allocator's own functions, spread over the rows): {alloc_a / 1e6:,.1f} M, {100 * alloc_a / A:.1f}%.\n")
print("## Hashed bare replay (`examples/bare_replay --hash`)\n")
table(bare_rows, B)
print(f"\nAllocation: {alloc_b / 1e6:,.1f} M, {100 * alloc_b / B:.1f}%.\n")
print("## Commands\n")
print("```")
print("CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \\")
print("  cargo build --release --locked --bin pgn-arbiter --target-dir target/profile-lines")
print("valgrind --tool=callgrind --callgrind-out-file=arbiter.out \\")
print("  target/profile-lines/release/pgn-arbiter -q -j 1 --fail-on never --findings /dev/null slice.pgn")
print("valgrind --tool=callgrind --callgrind-out-file=bare.out \\")
print("  target/release/examples/bare_replay --hash slice.pgn")
print("callgrind_annotate --tree=calling --inclusive=yes arbiter.out")
print("```")
PY
cat bench/PROFILE.md
