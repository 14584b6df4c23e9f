#!/usr/bin/env python3
"""Audits PGN archives on a Dask cluster: one machine's cores or many.

    python3 scale/audit.py [--workers N | --scheduler ADDRESS]
        [--shard-size SIZE] [--retries N] [--format csv|parquet] --out DIR INPUT...

Each INPUT (a file) is cut into shards: ranges of frames of a zstd file (as
`pgn-arbiter frames` lists them), byte ranges of a plain file, or the whole
file for other compressed files and small ones; a zstd file is listed
once, here, and each shard handed the bytes its frames take
(`--frame-bytes`). Each shard but an input's last has its lines counted
(`--count-lines`, about the cost of decompressing it), and is audited as
soon as the lines before it are known (`--line-offset`, `--no-header`,
`--no-duplicates`) on the cluster, with retries, its games numbered from 1,
then numbered on from the games before it by another task as soon as the
shards before it are audited. Each shard's reports are part files under
DIR/parts/, put in place whole by pgn-arbiter itself, and DIR/manifest.jsonl
records each shard done, a line each; a second run with the same inputs and DIR resumes
from it. The parts are then joined into DIR/findings.csv, DIR/games.csv and
DIR/summary.json, which are what one run of

    pgn-arbiter --no-duplicates --findings findings.csv --games games.csv INPUT...

writes, byte for byte for the reports; the join checks that each shard's
games report has one row for every game it audited. A shard that fails for good (pgn-arbiter's exit
status 2: an unreadable or corrupt input) is not retried: it is named in the
summary, which then says the run is not complete, the other shards are
joined, and the exit status is 2. Exit status 1: findings at or above
error; 0: none.

With --format parquet the reports are the directories DIR/findings/ and
DIR/games/, one numbered Parquet part a shard in order (a dataset), with
the rows and types of one run's `--output-format parquet` reports.

The tool is the binary at $PGN_ARBITER, else target/release/pgn-arbiter
beside this script's directory, which every worker must find at that path;
or, with --wheel FILE, the Python package in that wheel, which each worker
installs with pip into its own environment when it joins (and the driver
then asks a worker for the frame lists and the reports' headers too). The
summary says which tool ran, and its version. Copies of games and the round
checks are left out (`--no-duplicates`): each shard sees only its own games.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import shutil
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
PLAIN, ZSTD, WHOLE = "plain", "zstd", "whole"


class Trouble(Exception):
    """What ends the driver with exit status 2, as pgn-arbiter's trouble:
    a bad input, a missing binary or wheel, a corrupt manifest, reports that
    do not add up."""


def binary():
    return os.environ.get("PGN_ARBITER") or os.path.join(HERE, "..", "target", "release", "pgn-arbiter")


def installed():
    """The pgn-arbiter command that the wheel put in this (worker's)
    environment."""
    return os.path.join(sysconfig.get_path("scripts"), "pgn-arbiter")


def wheel_plugin(filename, data):
    """A Dask worker plugin that installs the pgn-arbiter wheel it carries
    (`data`, named `filename`) into each worker's Python environment with
    pip when the worker joins, once per environment: workers sharing one
    wait for each other, and a wheel already installed there is not
    installed again."""
    from distributed import WorkerPlugin

    class InstallWheel(WorkerPlugin):
        name = "pgn-arbiter-wheel"

        def __init__(self):
            self.digest = hashlib.sha256(data).hexdigest()

        def setup(self, worker):
            import fcntl

            marker = os.path.join(sys.prefix, f".pgn-arbiter-wheel-{self.digest[:16]}")
            with open(os.path.join(sys.prefix, ".pgn-arbiter-wheel.lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if os.path.exists(marker) and os.access(installed(), os.X_OK):
                    return
                with tempfile.TemporaryDirectory() as tmp:
                    wheel = os.path.join(tmp, filename)
                    with open(wheel, "wb") as f:
                        f.write(data)
                    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                                    "--disable-pip-version-check", "--no-deps", "--force-reinstall", wheel],
                                   check=True)
                open(marker, "w").close()

    return InstallWheel()


def frames_of(arbiter, path):
    """`pgn-arbiter frames PATH`: (exit status, output, errors)."""
    listed = subprocess.run([arbiter or installed(), "frames", path], capture_output=True, text=True)
    return listed.returncode, listed.stdout, listed.stderr


def version_of(arbiter):
    return subprocess.run([arbiter or installed(), "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def size_arg(text):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    text = text.strip().lower().rstrip("b")
    factor = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    return int(float(number) * factor)


def kind_of(path):
    with open(path, "rb") as f:
        head = f.read(6)
    if head.startswith(ZSTD_MAGIC) or (len(head) >= 4 and head[1:4] == b"\x2a\x4d\x18" and 0x50 <= head[0] <= 0x5F):
        return ZSTD
    if head.startswith(b"\x1f\x8b") or head.startswith(b"BZh") or head.startswith(b"\xfd7zXZ"):
        return WHOLE
    return PLAIN


def plan(inputs, shard_size, frames):
    """The shards of every input, in order: (input, shard options, the
    input's place among the inputs, as a file may be given twice); what of
    them cannot be read: the byte range of a zstd file from its damage (a
    file cut short, a damaged frame) to its end, with why; and each input's
    identity (`identity`). The frames before the damage are still shards,
    each handed the bytes its frames take (`--frame-bytes`), so that no
    shard lists the file again. The inputs are files (as `drive` has
    checked). `frames(path)` is `frames_of` run where the tool is."""
    shards, lost, identities = [], [], {}
    for n, path in enumerate(inputs):
        size = os.path.getsize(path)
        kind = kind_of(path)
        listed = None
        if kind == ZSTD:
            status, listed, errors = frames(path)
            rows = [[int(cell or -1) for cell in line.split(",")] for line in listed.splitlines()[1:]]
            if status != 0:
                readable = rows[-1][1] + rows[-1][2] if rows else 0
                lost.append({"input": path, "bytes": [readable, size], "frames_before": len(rows),
                             "problem": errors.strip().removeprefix("pgn-arbiter: ")})
            first, acc = 0, 0
            for i, (_, _, packed, content) in enumerate(rows):
                # Decompressed size when the frame says it, else about four
                # times the compressed size (PGN compresses so).
                acc += content if content >= 0 else 4 * packed
                if acc >= shard_size or i == len(rows) - 1:
                    start, end = rows[first][1], rows[i][1] + rows[i][2]
                    shards.append((path, ["--zstd-frames", f"{first}..{i}", "--frame-bytes", f"{start}..{end}"], n))
                    first, acc = i + 1, 0
        elif kind == PLAIN and size > shard_size:
            starts = list(range(0, size, shard_size))
            for a in starts:
                shards.append((path, ["--bytes", f"{a}..{min(a + shard_size, size)}"], n))
        else:
            shards.append((path, [], n))
        identities[path] = identity(path, listed)
    return shards, lost, identities


def identity(path, listed):
    """What a file holds, as cheaply as it can be told: for a zstd file,
    the checksum of its frame list (offsets, sizes and decompressed sizes of
    every frame); for others, of their first and last MiB. With the file's
    size and time of last change, a file edited since a run is told apart."""
    digest = hashlib.sha256()
    if listed is not None:
        digest.update(listed.encode())
    else:
        with open(path, "rb") as f:
            digest.update(f.read(1 << 20))
            size = f.seek(0, os.SEEK_END)
            f.seek(max(size - (1 << 20), 0))
            digest.update(f.read())
    return digest.hexdigest()[:16]


def shard_id(path, content, options, again, audit_options, version):
    """A shard's key in the manifest: the file (path, size, time of last
    change, `identity`), the shard, how many times the file was given
    before, the options of the audit and the tool's version, so that a run
    over a changed file, with other options or with another build redoes
    it."""
    st = os.stat(path)
    key = json.dumps([os.path.abspath(path), st.st_size, st.st_mtime_ns, content, options, again, audit_options,
                      version])
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def trouble(done, path, cwd, parts=None):
    """A shard's exit status 2: bad data (recorded, not tried again), or,
    when the worker cannot see the input or write the parts (a path not
    mounted there, a directory not writable), the worker's environment:
    marked transient, so that a rerun tries the shard again."""
    result = {"failed": done.stderr.strip() or "exit status 2"}
    unseen = not os.path.isfile(os.path.join(cwd, path))
    unwritable = parts is not None and not (os.path.isdir(parts) and os.access(parts, os.W_OK))
    if unseen or unwritable:
        result["transient"] = True
    return result


def count_lines(arbiter, path, options, cwd):
    """The lines of a shard (`--count-lines`): where the next one's line
    numbers begin. Its games are not counted: shards number their games
    from 1, and the join adds the games of the shards before."""
    done = run_tool([arbiter or installed(), "--count-lines", *options, path], path, options, cwd)
    return done if isinstance(done, dict) else json.loads(done.stdout)


def run_tool(command, path, options, cwd, parts=None):
    """Runs pgn-arbiter on a shard: the finished process, or, for exit
    status 2, what `trouble` makes of it. Any other failure raises, and the
    cluster retries the task."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode == 2:
        return trouble(done, path, cwd, parts)
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    return done


def audit_shard(arbiter, path, options, lines_before, parts, ident, extra, cwd, form="csv"):
    """Audits one shard into its part files, its games numbered from 1 and
    its lines from `lines_before` + 1. Exit status 2 is a result (the input
    is bad: retrying will not help); any other failure raises, and the
    cluster retries the shard. `form`: the reports' form, csv or
    parquet."""
    findings = os.path.join(parts, f"{ident}.findings.{form}")
    games = os.path.join(parts, f"{ident}.games.{form}")
    summary = os.path.join(parts, f"{ident}.summary.json")
    command = [
        arbiter or installed(), "-q", "-j", "1", "--isolated", "--output-format", form,
        "--fail-on", "never", "--no-duplicates", "--no-header", "--line-offset", str(lines_before),
        "--findings", findings, "--games", games, "--summary", summary,
        *extra, *options, path,
    ]
    done = run_tool(command, path, options, cwd, parts)
    if isinstance(done, dict):
        return done
    with open(summary, encoding="utf-8") as f:
        games_audited = json.load(f)["total"]["games"]
    return {"findings": findings, "games": games, "summary": summary, "games_audited": games_audited}


def first_cell(row):
    """The bytes of a CSV row's first cell, quotes included."""
    if not row.startswith(b'"'):
        return row[:row.index(b",")]
    at = 1
    while True:
        at = row.index(b'"', at)
        if row[at + 1:at + 2] != b'"':
            return row[:at + 1]
        at += 2


def copy_part(part, out, delta):
    """Writes a shard's CSV report to `out`, each row's `game` (the second
    cell) raised by `delta`; the number of rows. A row is a line: cells
    made safe for a spreadsheet hold no line break. Game 0 (no game) stays."""
    rows = 0
    with open(part, "rb") as f:
        prefix, batch = b"\0", []
        for row in f:
            if not row.startswith(prefix):
                prefix = first_cell(row) + b","
            game, rest = row[len(prefix):].split(b",", 1)
            if game and game != b"0":
                game = b"%d" % (int(game) + delta)
            batch.append(b"%s%s,%s" % (prefix, game, rest))
            if len(batch) == 4096:
                out.write(b"".join(batch))
                rows += len(batch)
                batch.clear()
        out.write(b"".join(batch))
        return rows + len(batch)


def number_shard(source, games_before, parts, ident, form="csv"):
    """Numbers a shard's games on from `games_before` (the games of the
    shards before it in its input): its reports as audited (`source`
    numbered from `source["games_before"]`) are copied into
    `{ident}.{games_before}.findings.{form}` and `.games.{form}`, each
    `game` raised by the difference, or kept as they are when there is none.
    Returns the files and the games report's rows (a row a game, checked by
    the join)."""
    delta = games_before - source["games_before"]
    result = {"games_before": games_before}
    for key in ("findings", "games"):
        target = os.path.join(parts, f"{ident}.{games_before}.{key}.{form}") if delta else source[key]
        if form == "parquet":
            rows = renumber_parquet(source[key], target, delta)
        elif delta:
            with open(target + ".partial", "wb") as out:
                rows = copy_part(source[key], out, delta)
                out.flush()
                os.fsync(out.fileno())
            os.replace(target + ".partial", target)
        else:
            with open(target, "rb") as f:
                rows = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
        result[key] = target
        if key == "games":
            result["rows"] = rows
    return result


def renumber_parquet(source, target, delta):
    """`number_shard` for a Parquet part (with pyarrow, a row group at a
    time): `game` raised by `delta`, 0 (no game) kept; the rows."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    part = pq.ParquetFile(source)
    if not delta:
        return part.metadata.num_rows
    rows = 0
    at = part.schema_arrow.get_field_index("game")
    step = pa.scalar(abs(delta), pa.uint64())
    with pq.ParquetWriter(target + ".partial", part.schema_arrow, compression="zstd") as out:
        for group in range(part.num_row_groups):
            table = part.read_row_group(group)
            game = table.column(at)
            moved = pc.add(game, step) if delta > 0 else pc.subtract(game, step)
            table = table.set_column(at, part.schema_arrow.field(at), pc.if_else(pc.equal(game, 0), game, moved))
            out.write_table(table)
            rows += table.num_rows
    os.replace(target + ".partial", target)
    return rows


def pyarrow_missing():
    """Why pyarrow cannot be imported here, or None when it can."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError as err:
        return str(err) or "no pyarrow"
    return None


def append_file(path, out):
    """Appends the file at `path` to the open file `out`, in the kernel
    where it can (copy_file_range), else through a buffer."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        copied = 0
        try:
            while copied < size:
                n = os.copy_file_range(f.fileno(), out.fileno(), size - copied)
                if n == 0:
                    break
                copied += n
        except (AttributeError, OSError):
            pass
        if copied < size:
            f.seek(copied)
            out.seek(0, os.SEEK_END)
            for chunk in iter(lambda: f.read(1 << 20), b""):
                out.write(chunk)


class Manifest:
    """What is done, shard by shard: `manifest.jsonl` in --out, one line
    appended (and made durable) per shard counted or audited, so that the
    work per shard stays the same however many there are. Read back, a
    later line for a shard replaces what an earlier one said; a last line
    cut short by a crash is ignored."""

    def __init__(self, path):
        self.path = path
        self.shards = {}
        if os.path.exists(path):
            self._load()
        self.file = open(path, "a", encoding="utf-8")

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (OSError, UnicodeDecodeError) as err:
            raise Trouble(f"{self.path} cannot be read ({err}): remove it to start again")
        for number, line in enumerate(lines, 1):
            if not line:
                continue
            try:
                entry = json.loads(line)
                ident = entry.pop("shard")
                if not isinstance(ident, str) or not isinstance(entry, dict):
                    raise ValueError("no shard")
            except (ValueError, KeyError, AttributeError) as err:
                if number == len(lines):
                    break  # cut short by a crash while it was written
                raise Trouble(f"{self.path}:{number}: not a line of this driver's manifest ({err}): "
                              "remove it to start again")
            self.shards.setdefault(ident, {}).update(entry)

    def record(self, ident, key, value):
        self.shards.setdefault(ident, {})[key] = value
        self.file.write(json.dumps({"shard": ident, key: value}) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self):
        self.file.close()


def write_atomic(path, data):
    directory = os.path.dirname(path) or "."
    fd, temp = tempfile.mkstemp(dir=directory, prefix=".", suffix=".partial")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


def headers(arbiter):
    """The reports' header rows, as pgn-arbiter writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        findings, games = os.path.join(tmp, "f.csv"), os.path.join(tmp, "g.csv")
        subprocess.run(
            [arbiter or installed(), "-q", "--isolated", "--output-format", "csv", "--fail-on", "never",
             "--findings", findings, "--games", games, "-"],
            input=b'[Event "?"]\n\n*\n', check=True,
        )
        with open(findings, encoding="utf-8") as f, open(games, encoding="utf-8") as g:
            return f.readline(), g.readline()


def positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
        return value
    return parse


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive(int), default=os.cpu_count(),
                       help="local worker processes (default: all cores)")
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--shard-size", type=positive(size_arg), default=size_arg("256M"),
                        help="about this much PGN per shard (default 256M; k, M, G)")
    parser.add_argument("--retries", type=int, default=3, help="retries of a shard that fails other than by a bad input")
    parser.add_argument("--wheel", help="a pgn-arbiter wheel (scripts/build_wheels.sh) that each worker installs "
                                        "with pip, instead of the binary at $PGN_ARBITER")
    parser.add_argument("--out", required=True, help="the directory for the reports, parts and manifest")
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv",
                        help="the reports' form: csv (findings.csv, games.csv) or parquet (the directories "
                             "findings/ and games/, a Parquet file a shard, in order; needs pyarrow on the "
                             "workers)")
    forwarded = parser.add_argument_group("pgn-arbiter's options, passed on to every shard")
    for flag in ("--rules", "--select", "--ignore", "--baseline", "--winnability"):
        forwarded.add_argument(flag)
    for flag in ("--strict-tags", "--no-variations"):
        forwarded.add_argument(flag, action="store_true")
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    args = parser.parse_args(argv)
    # pgn-arbiter runs where the driver was started (so that relative
    # inputs keep their names in the reports), writing into --out wherever
    # that is.
    args.cwd = os.getcwd()
    args.out = os.path.abspath(args.out)
    args.extra = []
    for name in ("rules", "select", "ignore", "baseline", "winnability"):
        value = getattr(args, name)
        if value is not None:
            args.extra += [f"--{name}", value]
    args.extra += [flag for flag in ("--strict-tags", "--no-variations") if getattr(args, flag[2:].replace("-", "_"))]
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        return drive(args)
    except Trouble as err:
        print(f"audit.py: {err}", file=sys.stderr)
        return 2


def drive(args):
    from dask.distributed import Client, LocalCluster

    if args.wheel:
        # None: the command the wheel installed, found on each worker.
        arbiter = None
        try:
            with open(args.wheel, "rb") as f:
                wheel = wheel_plugin(os.path.basename(args.wheel), f.read())
        except OSError as err:
            raise Trouble(f"--wheel {args.wheel}: {err.strerror}")
    else:
        arbiter = os.path.abspath(binary())
        if not os.access(arbiter, os.X_OK):
            raise Trouble(f"no pgn-arbiter at {arbiter}: build it (cargo build --release), set PGN_ARBITER or give --wheel")
    ours = {os.path.join(args.out, name) for name in ("findings.csv", "games.csv", "summary.json", "manifest.jsonl")}
    reports = [os.path.realpath(os.path.join(args.out, d)) + "/" for d in ("parts", "findings", "games")]
    for path in args.inputs:
        if not os.path.isfile(path):
            raise Trouble(f"{path}: not a file (give files; directories are not expanded)")
        real = os.path.realpath(path)
        if real in {os.path.realpath(o) for o in ours} or any(real.startswith(d) for d in reports):
            raise Trouble(f"{path} is an input, and --out {args.out} would write over it: give --out another directory")
    extra = args.extra
    parts = os.path.join(args.out, "parts")
    os.makedirs(parts, exist_ok=True)
    manifest = Manifest(os.path.join(args.out, "manifest.jsonl"))

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                     dashboard_address=None))
    try:
        if args.wheel:
            client.register_plugin(wheel)
        if args.format == "parquet":
            lacking = {worker: why for worker, why in client.run(pyarrow_missing).items() if why}
            if lacking:
                worker, why = sorted(lacking.items())[0]
                raise Trouble(f"--format parquet needs pyarrow on every worker, and {len(lacking)} lack it "
                              f"({worker}: {why}): pip install -r scale/requirements.txt there")

        def where_the_tool_is(fn, *fn_args):
            if arbiter:
                return fn(arbiter, *fn_args)
            return client.submit(fn, None, *fn_args, pure=False).result()

        started = time.monotonic()
        shards, lost, identities = plan(args.inputs, args.shard_size,
                                        lambda path: where_the_tool_is(frames_of, os.path.abspath(path)))
        tool = {"version": where_the_tool_is(version_of)}
        ids = [shard_id(path, identities[path], options, args.inputs[:n].count(path), [*extra, args.format],
                        tool["version"]) for path, options, n in shards]
        tool.update({"wheel": os.path.basename(args.wheel), "sha256": wheel.digest} if args.wheel
                    else {"path": arbiter})
        report_headers = where_the_tool_is(headers) if args.format == "csv" else None
        planned = time.monotonic()
        pipeline = Pipeline(client, arbiter, args, shards, ids, manifest, parts)
        pipeline.run()
        lines_before = pipeline.lines_before
        seconds = {"plan": planned - started, "shards": time.monotonic() - planned}
    finally:
        client.close()
        manifest.close()

    return join(args, tool, report_headers, shards, lost, ids, lines_before, manifest, seconds)


class Pipeline:
    """Counts the lines of every shard but the last of its input, audits
    each shard as soon as the lines before it are known, and numbers each
    audited shard's games (on the cluster too) as soon as the games before
    it are known: no step waits for a pass over every shard. Resumes from
    the manifest: a shard's `lines`, `audit` and `numbered` records."""

    def __init__(self, client, arbiter, args, shards, ids, manifest, parts):
        self.client, self.arbiter, self.args = client, arbiter, args
        self.shards, self.ids, self.manifest, self.parts = shards, ids, manifest, parts
        # Each input's shards, in order.
        self.by_input = {}
        for index, (_, _, n) in enumerate(shards):
            self.by_input.setdefault(n, []).append(index)
        self.lines = {}  # index -> its lines, or None when they could not be counted
        self.lines_before = {}
        self.games_before = {}
        self.audited = {}  # index -> the audit's record, once there is one
        self.fresh = set()  # the shards audited by this run
        self.next_audit = dict.fromkeys(self.by_input, 0)
        self.next_number = dict.fromkeys(self.by_input, 0)
        self.audits = self.finished = 0
        self.what = {}
        from dask.distributed import as_completed
        self.running = as_completed()

    def record(self, index, key):
        return self.manifest.shards.get(self.ids[index], {}).get(key)

    def submit(self, kind, index, fn, *fn_args, **options):
        future = self.client.submit(fn, *fn_args, key=f"{kind}-{self.ids[index]}", retries=self.args.retries,
                                    pure=False, **options)
        self.what[future] = (kind, index)
        self.running.add(future)

    def run(self):
        for indices in self.by_input.values():
            for index in indices[:-1]:
                known = self.record(index, "lines")
                if known and "failed" not in known:
                    self.lines[index] = known["lines"]
                    continue
                path, options, _ = self.shards[index]
                # Counting is short, and the audits of later shards wait for it.
                self.submit("lines", index, count_lines, self.arbiter, path, options, self.args.cwd, priority=10)
        self.submit_audits()
        self.submit_numbering()
        for future in self.running:
            kind, index = self.what.pop(future)
            try:
                result = future.result()
            except Exception as err:  # retries spent: tried again on a rerun
                result = {"failed": f"gave up after {self.args.retries} retries: {err}", "transient": True}
            if kind == "lines":
                self.lines[index] = None if "failed" in result else result["lines"]
                self.manifest.record(self.ids[index], "lines", result)
                self.submit_audits()
            elif kind == "audit":
                if "failed" not in result:
                    result["lines_before"] = self.lines_before[index]
                self.manifest.record(self.ids[index], "audit", result)
                self.audited[index] = result
                self.fresh.add(index)
                self.finished += 1
                if sys.stderr.isatty():
                    print(f"\raudit.py: {self.finished} of {self.audits} shards audited", end="", file=sys.stderr)
                self.submit_numbering()
            else:
                if "failed" in result:
                    raise Trouble(f"{self.shards[index][0]}: numbering the games of a shard failed: "
                                  f"{result['failed']}")
                older = [self.record(index, "numbered") or {}, self.audited[index]]
                self.manifest.record(self.ids[index], "numbered", result)
                # The files it was numbered from are no longer needed.
                for old in older:
                    for key in ("findings", "games"):
                        if old.get(key) not in (None, result[key]) and os.path.exists(old[key]):
                            os.remove(old[key])
        if self.finished and sys.stderr.isatty():
            print(file=sys.stderr)

    def submit_audits(self):
        """Submits each input's audits whose lines before are known."""
        for n, indices in self.by_input.items():
            while self.next_audit[n] < len(indices):
                k = self.next_audit[n]
                index = indices[k]
                if k > 0 and indices[k - 1] not in self.lines:
                    break
                previous = indices[k - 1] if k > 0 else None
                before = self.lines_before[previous] + (self.lines[previous] or 0) if k > 0 else 0
                self.lines_before[index] = before
                self.next_audit[n] += 1
                done = self.record(index, "audit")
                numbered = self.record(index, "numbered") or done
                if done and "failed" in done and not done.get("transient"):
                    self.audited[index] = done
                    continue
                if done and "failed" not in done and done.get("lines_before") == before \
                        and all(os.path.exists(numbered[key]) for key in ("findings", "games")) \
                        and os.path.exists(done["summary"]):
                    self.audited[index] = done
                    continue
                path, options, _ = self.shards[index]
                self.submit("audit", index, audit_shard, self.arbiter, path, options, before, self.parts,
                            self.ids[index], self.args.extra, self.args.cwd, self.args.format)
                self.audits += 1

    def submit_numbering(self):
        """Submits the numbering of each input's audited shards whose games
        before are known (every earlier shard of the input audited, or
        failed: it then adds none)."""
        for n, indices in self.by_input.items():
            while self.next_number[n] < len(indices):
                k = self.next_number[n]
                index = indices[k]
                if index not in self.audited:
                    break
                previous = indices[k - 1] if k > 0 else None
                before = 0 if previous is None else self.games_before[previous] + \
                    self.audited[previous].get("games_audited", 0)
                self.games_before[index] = before
                self.next_number[n] += 1
                audit = self.audited[index]
                if "failed" in audit:
                    continue
                numbered = self.record(index, "numbered")
                if index in self.fresh or not numbered:
                    source = {**audit, "games_before": 0}
                elif numbered["games_before"] == before:
                    continue
                else:
                    source = numbered
                self.submit("numbered", index, number_shard, source, before, self.parts, self.ids[index],
                            self.args.format)


class CsvReports:
    """The joined reports as CSV: `findings.csv` and `games.csv`, each
    under its header, the numbered parts appended whole."""

    def __init__(self, tmp, headers):
        self.paths = [os.path.join(tmp, "findings.csv"), os.path.join(tmp, "games.csv")]
        self.files = [open(path, "wb") for path in self.paths]
        for f, header in zip(self.files, headers):
            f.write(header.encode())

    def add(self, numbered):
        for f, key in zip(self.files, ("findings", "games")):
            f.flush()
            append_file(numbered[key], f)

    def put_in_place(self, out):
        for f, path in zip(self.files, self.paths):
            f.close()
            os.replace(path, os.path.join(out, os.path.basename(path)))


class ParquetReports:
    """The joined reports as Parquet: the directories `findings/` and
    `games/`, holding each audited shard's numbered part in order
    (`part-000001.parquet`, ...), as Spark, DuckDB and pyarrow read a
    dataset: `SELECT * FROM 'games/*.parquet'`."""

    def __init__(self, tmp, headers):
        self.dirs = [os.path.join(tmp, "findings"), os.path.join(tmp, "games")]
        for d in self.dirs:
            os.mkdir(d)
        self.parts = 0

    def add(self, numbered):
        self.parts += 1
        for d, key in zip(self.dirs, ("findings", "games")):
            target = os.path.join(d, f"part-{self.parts:06d}.parquet")
            try:
                os.link(numbered[key], target)
            except OSError:
                shutil.copyfile(numbered[key], target)

    def put_in_place(self, out):
        for d in self.dirs:
            final = os.path.join(out, os.path.basename(d))
            old = final + ".old"
            if os.path.isdir(final):
                os.replace(final, old)
            os.replace(d, final)
            shutil.rmtree(old, ignore_errors=True)


def join(args, tool, report_headers, shards, lost, ids, lines_before, manifest, seconds):
    """Joins the parts, numbered, in shard order into the run's reports and
    summary, checking that each shard's games report has a row for each game
    it audited. `seconds`: the wall time of the driver's steps so far
    (planning: listing the files; the shards), to which the join's is
    added."""
    joining = time.monotonic()
    failed = []
    totals = {"games": 0, "plies": 0, "findings": 0, "by_severity": {}, "by_code": {}}
    files = {}
    games_before = {}
    with tempfile.TemporaryDirectory(dir=args.out) as tmp:
        reports = (ParquetReports if args.format == "parquet" else CsvReports)(tmp, report_headers)
        for index, (ident, (path, options, n)) in enumerate(zip(ids, shards)):
            record = manifest.shards.get(ident, {})
            audit = record.get("audit", {"failed": "not audited"})
            before = games_before.get(n, 0)
            if "failed" in audit:
                # Where the gap is: the games and lines of the input
                # reported before it. Later games of the input are
                # numbered as if the shard held none (its games could
                # not be counted), so their game numbers are short by
                # what it held; their line numbers too when its lines
                # could not be counted either.
                failed.append({"input": path, "shard": options, "problem": audit["failed"],
                               "transient": bool(audit.get("transient")),
                               "after_game": before, "after_line": lines_before.get(index, 0)})
                continue
            numbered = record.get("numbered")
            if not numbered or numbered["games_before"] != before:
                raise Trouble(f"{path} {' '.join(options)}: its games are not numbered from {before + 1}")
            # Every game counted exactly once: the games report has one
            # row each.
            if numbered["rows"] != audit["games_audited"]:
                raise Trouble(f"{path} {' '.join(options)}: {numbered['rows']} rows in its games report for "
                              f"{audit['games_audited']} games audited")
            reports.add(numbered)
            games_before[n] = before + numbered["rows"]
            with open(audit["summary"], encoding="utf-8") as f:
                total = json.load(f)["total"]
            for key in ("games", "plies", "findings"):
                totals[key] += total[key]
            for key in ("by_severity", "by_code"):
                for name, count in total[key].items():
                    totals[key][name] = totals[key].get(name, 0) + count
            files.setdefault(n, {"name": path, "games": 0, "findings": 0, "shards": 0})
            files[n]["games"] += total["games"]
            files[n]["findings"] += total["findings"]
            files[n]["shards"] += 1
        summary = {
            "complete": not failed and not lost,
            "inputs": list(files.values()),
            "shards": len(shards),
            "failed_shards": failed,
            "lost": lost,
            "total": {**totals, "files": len(args.inputs), "by_code": dict(sorted(totals["by_code"].items()))},
            "options": {"no_duplicates": True, "rules": args.rules, "shard_size": args.shard_size,
                        "forwarded": args.extra, "format": args.format},
            "tool": tool,
            "seconds": {**{step: round(t, 3) for step, t in seconds.items()},
                        "join": round(time.monotonic() - joining, 3)},
        }
        reports.put_in_place(args.out)
    write_atomic(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=2) + "\n")
    for shard in failed:
        print(f"audit.py: {shard['input']} {' '.join(shard['shard'])}: {shard['problem']}", file=sys.stderr)
    severities = ", ".join(f"{n} {name}s" for name, n in sorted(totals["by_severity"].items()))
    print(f"audit.py: {len(shards) - len(failed)} of {len(shards)} shards audited; {totals['games']} games, "
          f"{totals['findings']} findings ({severities or 'none'}); reports in {args.out}", file=sys.stderr)
    for damage in lost:
        start, end = damage["bytes"]
        print(f"audit.py: {damage['input']}: bytes {start}..{end} not audited: {damage['problem']}", file=sys.stderr)
    if failed or lost:
        return 2
    return 1 if totals["by_severity"].get("error", 0) else 0


if __name__ == "__main__":
    sys.exit(main())
