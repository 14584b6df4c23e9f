#!/usr/bin/env python3
"""Audits PGN archives on a Dask cluster: one machine's cores or many.

    python3 scale/audit.py [--workers N | --scheduler ADDRESS]
        [--shard-size SIZE] [--retries N] --out DIR INPUT...

Each INPUT (a file) is cut into shards: ranges of frames of a zstd file (as
`pgn-arbiter frames` lists them), byte ranges of a plain file, or the whole
file for other compressed files and small ones. Every shard is counted
(`--count`), then audited with the games and lines before it
(`--game-offset`, `--line-offset`, `--no-header`, `--no-duplicates`) on the
cluster, with retries. Each shard's reports are part files under
DIR/parts/, put in place whole by pgn-arbiter itself, and DIR/manifest.jsonl
records each shard done, a line each; a second run with the same inputs and DIR resumes
from it. The parts are then joined into DIR/findings.csv, DIR/games.csv and
DIR/summary.json, which are what one run of

    pgn-arbiter --no-duplicates --findings findings.csv --games games.csv INPUT...

writes, byte for byte for the reports. The join checks that every game was
counted exactly once. A shard that fails for good (pgn-arbiter's exit
status 2: an unreadable or corrupt input) is not retried: it is named in the
summary, which then says the run is not complete, the other shards are
joined, and the exit status is 2. Exit status 1: findings at or above
error; 0: none.

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
import tempfile

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
    """The shards of every input, in order: (input, shard options), and
    what of them cannot be read: the byte range of a zstd file from its
    damage (a file cut short, a damaged frame) to its end, with why. The
    frames before the damage are still shards. The inputs are files (as
    `drive` has checked). `frames(path)` is
    `frames_of` run where the tool is."""
    shards, lost = [], []
    for path in inputs:
        size = os.path.getsize(path)
        kind = kind_of(path)
        if kind == ZSTD:
            status, listed, errors = frames(path)
            rows = [line.split(",") for line in listed.splitlines()[1:]]
            if status != 0:
                readable = int(rows[-1][1]) + int(rows[-1][2]) if rows else 0
                lost.append({"input": path, "bytes": [readable, size], "frames_before": len(rows),
                             "problem": errors.strip().removeprefix("pgn-arbiter: ")})
            first, acc = 0, 0
            for i, row in enumerate(rows):
                # Decompressed size when the frame says it, else about four
                # times the compressed size (PGN compresses so).
                acc += int(row[3]) if row[3] else 4 * int(row[2])
                if acc >= shard_size or i == len(rows) - 1:
                    shards.append((path, ["--zstd-frames", f"{first}..{i}"]))
                    first, acc = i + 1, 0
        elif kind == PLAIN and size > shard_size:
            starts = list(range(0, size, shard_size))
            for a in starts:
                shards.append((path, ["--bytes", f"{a}..{min(a + shard_size, size)}"]))
        else:
            shards.append((path, []))
    return shards, lost


def shard_id(path, options, audit_options, version):
    """A shard's key in the manifest: the file (path, size, time of last
    change), the shard, the options of the audit and the tool's version, so
    that a run with other options or another build redoes it."""
    st = os.stat(path)
    key = json.dumps([os.path.abspath(path), st.st_size, st.st_mtime_ns, options, audit_options, version])
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


def count_shard(arbiter, path, options, cwd):
    done = subprocess.run([arbiter or installed(), "--count", *options, path], capture_output=True, text=True,
                          cwd=cwd)
    if done.returncode == 2:
        return trouble(done, path, cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def audit_shard(arbiter, path, options, offsets, parts, ident, extra, cwd):
    """Audits one shard into its part files. Exit status 2 is a result (the
    input is bad: retrying will not help); any other failure raises, and
    the cluster retries the shard."""
    games_before, lines_before = offsets
    findings = os.path.join(parts, f"{ident}.findings.csv")
    games = os.path.join(parts, f"{ident}.games.csv")
    summary = os.path.join(parts, f"{ident}.summary.json")
    command = [
        arbiter or installed(), "-q", "-j", "1", "--isolated", "--output-format", "csv",
        "--fail-on", "never", "--no-duplicates", "--no-header",
        "--game-offset", str(games_before), "--line-offset", str(lines_before),
        "--findings", findings, "--games", games, "--summary", summary,
        *extra, *options, path,
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode == 2:
        return trouble(done, path, cwd, parts)
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    with open(summary, encoding="utf-8") as f:
        games_audited = json.load(f)["total"]["games"]
    return {"findings": findings, "games": games, "summary": summary, "games_audited": games_audited}


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
    from dask.distributed import Client, LocalCluster, as_completed

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
    for path in args.inputs:
        if not os.path.isfile(path):
            raise Trouble(f"{path}: not a file (give files; directories are not expanded)")
        real = os.path.realpath(path)
        if real in {os.path.realpath(o) for o in ours} or real.startswith(os.path.realpath(args.out) + "/parts/"):
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

        def where_the_tool_is(fn, *fn_args):
            if arbiter:
                return fn(arbiter, *fn_args)
            return client.submit(fn, None, *fn_args, pure=False).result()

        shards, lost = plan(args.inputs, args.shard_size,
                            lambda path: where_the_tool_is(frames_of, os.path.abspath(path)))
        tool = {"version": where_the_tool_is(version_of)}
        ids = [shard_id(path, options, extra, tool["version"]) for path, options in shards]
        tool.update({"wheel": os.path.basename(args.wheel), "sha256": wheel.digest} if args.wheel
                    else {"path": arbiter})
        report_headers = where_the_tool_is(headers)
        # The counts: games and lines per shard, for the offsets.
        counts = {}
        pending = []
        for ident, (path, options) in zip(ids, shards):
            known = manifest.shards.get(ident, {}).get("count")
            if known:
                counts[ident] = known
            else:
                future = client.submit(count_shard, arbiter, path, options, args.cwd, key=f"count-{ident}",
                                       retries=args.retries, pure=False)
                pending.append((ident, future))
        for ident, future in pending:
            try:
                counts[ident] = future.result()
            except Exception as err:  # retries spent
                counts[ident] = {"failed": f"gave up counting after {args.retries} retries: {err}", "transient": True}
                continue
            if "failed" not in counts[ident]:
                manifest.record(ident, "count", counts[ident])

        offsets, before = {}, {}
        for ident, (path, _) in zip(ids, shards):
            games, lines = before.get(path, (0, 0))
            offsets[ident] = (games, lines)
            c = counts[ident]
            if "failed" not in c:
                before[path] = (games + c["games"], lines + c["lines"])

        # The audit, shard by shard, resuming from the manifest.
        futures = {}
        for ident, (path, options) in zip(ids, shards):
            done = manifest.shards.get(ident, {}).get("audit")
            if done and "failed" in done and not done.get("transient"):
                continue
            if done and "failed" not in done and all(os.path.exists(done[k]) for k in ("findings", "games", "summary")):
                continue
            if "failed" in counts[ident]:
                manifest.record(ident, "audit", counts[ident])
                continue
            future = client.submit(audit_shard, arbiter, path, options, offsets[ident], parts, ident, extra, args.cwd,
                                   key=f"audit-{ident}", retries=args.retries, pure=False)
            futures[future] = ident
        finished = 0
        for future in as_completed(futures):
            ident = futures[future]
            try:
                result = future.result()
            except Exception as err:  # retries spent: tried again on a rerun
                result = {"failed": f"gave up after {args.retries} retries: {err}", "transient": True}
            manifest.record(ident, "audit", result)
            finished += 1
            if sys.stderr.isatty():
                print(f"\raudit.py: {finished} of {len(futures)} shards audited", end="", file=sys.stderr)
        if finished and sys.stderr.isatty():
            print(file=sys.stderr)
    finally:
        client.close()
        manifest.close()

    return join(args, tool, report_headers, shards, lost, ids, counts, offsets, manifest)


def join(args, tool, report_headers, shards, lost, ids, counts, offsets, manifest):
    """Joins the parts in shard order into the run's reports and summary."""
    findings_header, games_header = report_headers
    failed = []
    totals = {"games": 0, "plies": 0, "findings": 0, "by_severity": {}, "by_code": {}}
    files = {}
    with tempfile.TemporaryDirectory(dir=args.out) as tmp:
        findings_tmp, games_tmp = os.path.join(tmp, "findings.csv"), os.path.join(tmp, "games.csv")
        with open(findings_tmp, "w", encoding="utf-8", newline="") as fo, \
             open(games_tmp, "w", encoding="utf-8", newline="") as go:
            fo.write(findings_header)
            go.write(games_header)
            for ident, (path, options) in zip(ids, shards):
                audit = manifest.shards.get(ident, {}).get("audit", {"failed": "not audited"})
                if "failed" in audit:
                    # Where the gap is: the games and lines of the input
                    # reported before it. Later games of the input are
                    # numbered as if the shard held none (its games could
                    # not be counted), so game and line numbers after it
                    # are short by what it held.
                    games_before, lines_before = offsets[ident]
                    failed.append({"input": path, "shard": options, "problem": audit["failed"],
                                   "transient": bool(audit.get("transient")),
                                   "after_game": games_before, "after_line": lines_before})
                    continue
                expected = counts[ident]["games"]
                if audit["games_audited"] != expected:
                    raise Trouble(f"{path} {options}: {audit['games_audited']} games audited, {expected} counted")
                for part, out in ((audit["findings"], fo), (audit["games"], go)):
                    with open(part, encoding="utf-8", newline="") as f:
                        for chunk in iter(lambda: f.read(1 << 20), ""):
                            out.write(chunk)
                with open(audit["summary"], encoding="utf-8") as f:
                    total = json.load(f)["total"]
                for key in ("games", "plies", "findings"):
                    totals[key] += total[key]
                for key in ("by_severity", "by_code"):
                    for name, n in total[key].items():
                        totals[key][name] = totals[key].get(name, 0) + n
                files.setdefault(path, {"name": path, "games": 0, "findings": 0, "shards": 0})
                files[path]["games"] += total["games"]
                files[path]["findings"] += total["findings"]
                files[path]["shards"] += 1
        # Every game counted exactly once: the games report has one row each.
        with open(games_tmp, encoding="utf-8") as f:
            rows = sum(1 for _ in f) - 1
        if rows != totals["games"]:
            raise Trouble(f"the games report has {rows} rows for {totals['games']} games")
        summary = {
            "complete": not failed and not lost,
            "inputs": list(files.values()),
            "shards": len(shards),
            "failed_shards": failed,
            "lost": lost,
            "total": {**totals, "files": len(args.inputs), "by_code": dict(sorted(totals["by_code"].items()))},
            "options": {"no_duplicates": True, "rules": args.rules, "shard_size": args.shard_size,
                        "forwarded": args.extra},
            "tool": tool,
        }
        os.replace(findings_tmp, os.path.join(args.out, "findings.csv"))
        os.replace(games_tmp, os.path.join(args.out, "games.csv"))
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
