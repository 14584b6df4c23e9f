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
DIR/parts/, put in place whole by pgn-arbiter itself, and DIR/manifest.json
records each shard done; a second run with the same inputs and DIR resumes
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
    """The shards of every input, in order: (input, shard options).
    `frames(path)` is `frames_of` run where the tool is."""
    shards = []
    for path in inputs:
        if not os.path.isfile(path):
            raise SystemExit(f"audit.py: {path}: not a file (give files; directories are not expanded)")
        size = os.path.getsize(path)
        kind = kind_of(path)
        if kind == ZSTD:
            status, listed, errors = frames(path)
            if status != 0:
                raise SystemExit(f"audit.py: {path}: {errors.strip()}")
            rows = [line.split(",") for line in listed.splitlines()[1:]]
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
    return shards


def shard_id(path, options):
    st = os.stat(path)
    key = json.dumps([os.path.abspath(path), st.st_size, st.st_mtime_ns, options])
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def count_shard(arbiter, path, options):
    done = subprocess.run([arbiter or installed(), "--count", *options, path], capture_output=True, text=True)
    if done.returncode == 2:
        return {"failed": done.stderr.strip() or "exit status 2"}
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def audit_shard(arbiter, path, options, offsets, parts, ident, extra):
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
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode == 2:
        return {"failed": done.stderr.strip() or "exit status 2"}
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    with open(summary, encoding="utf-8") as f:
        games_audited = json.load(f)["total"]["games"]
    return {"findings": findings, "games": games, "summary": summary, "games_audited": games_audited}


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=os.cpu_count(), help="local worker processes (default: all cores)")
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--shard-size", type=size_arg, default=size_arg("256M"),
                        help="about this much PGN per shard (default 256M; k, M, G)")
    parser.add_argument("--retries", type=int, default=3, help="retries of a shard that fails other than by a bad input")
    parser.add_argument("--rules", help="passed on as --rules")
    parser.add_argument("--wheel", help="a pgn-arbiter wheel (scripts/build_wheels.sh) that each worker installs "
                                        "with pip, instead of the binary at $PGN_ARBITER")
    parser.add_argument("--out", required=True, help="the directory for the reports, parts and manifest")
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster, as_completed

    if args.wheel:
        # None: the command the wheel installed, found on each worker.
        arbiter = None
        with open(args.wheel, "rb") as f:
            wheel = wheel_plugin(os.path.basename(args.wheel), f.read())
    else:
        arbiter = os.path.abspath(binary())
        if not os.access(arbiter, os.X_OK):
            raise SystemExit(f"audit.py: no pgn-arbiter at {arbiter}: build it (cargo build --release), "
                             "set PGN_ARBITER or give --wheel")
    extra = ["--rules", args.rules] if args.rules else []
    parts = os.path.join(args.out, "parts")
    os.makedirs(parts, exist_ok=True)
    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
    manifest.setdefault("shards", {})

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

        shards = plan(args.inputs, args.shard_size, lambda path: where_the_tool_is(frames_of, path))
        ids = [shard_id(path, options) for path, options in shards]
        tool = {"version": where_the_tool_is(version_of)}
        tool.update({"wheel": os.path.basename(args.wheel), "sha256": wheel.digest} if args.wheel
                    else {"path": arbiter})
        report_headers = where_the_tool_is(headers)
        # The counts: games and lines per shard, for the offsets.
        counts = {}
        pending = []
        for ident, (path, options) in zip(ids, shards):
            known = manifest["shards"].get(ident, {}).get("count")
            if known:
                counts[ident] = known
            else:
                future = client.submit(count_shard, arbiter, path, options, key=f"count-{ident}",
                                       retries=args.retries, pure=False)
                pending.append((ident, future))
        for ident, future in pending:
            try:
                counts[ident] = future.result()
            except Exception as err:  # retries spent
                counts[ident] = {"failed": f"gave up counting after {args.retries} retries: {err}"}
                continue
            if "failed" not in counts[ident]:
                manifest["shards"].setdefault(ident, {})["count"] = counts[ident]
        write_atomic(manifest_path, json.dumps(manifest, indent=1))

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
            entry = manifest["shards"].setdefault(ident, {})
            done = entry.get("audit")
            if done and "failed" in done and not done.get("transient"):
                continue
            if done and "failed" not in done and all(os.path.exists(done[k]) for k in ("findings", "games", "summary")):
                continue
            if "failed" in counts[ident]:
                entry["audit"] = {"failed": counts[ident]["failed"]}
                continue
            future = client.submit(audit_shard, arbiter, path, options, offsets[ident], parts, ident, extra,
                                   key=f"audit-{ident}", retries=args.retries, pure=False)
            futures[future] = ident
        for future in as_completed(futures):
            ident = futures[future]
            try:
                result = future.result()
            except Exception as err:  # retries spent: tried again on a rerun
                result = {"failed": f"gave up after {args.retries} retries: {err}", "transient": True}
            manifest["shards"][ident]["audit"] = result
            write_atomic(manifest_path, json.dumps(manifest, indent=1))
        write_atomic(manifest_path, json.dumps(manifest, indent=1))
    finally:
        client.close()

    return join(args, tool, report_headers, shards, ids, counts, manifest)


def join(args, tool, report_headers, shards, ids, counts, manifest):
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
                audit = manifest["shards"][ident].get("audit", {"failed": "not audited"})
                if "failed" in audit:
                    failed.append({"input": path, "shard": options, "problem": audit["failed"]})
                    continue
                expected = counts[ident]["games"]
                if audit["games_audited"] != expected:
                    raise SystemExit(
                        f"audit.py: {path} {options}: {audit['games_audited']} games audited, {expected} counted")
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
            raise SystemExit(f"audit.py: the games report has {rows} rows for {totals['games']} games")
        summary = {
            "complete": not failed,
            "inputs": list(files.values()),
            "shards": len(shards),
            "failed_shards": failed,
            "total": {**totals, "files": len(args.inputs), "by_code": dict(sorted(totals["by_code"].items()))},
            "options": {"no_duplicates": True, "rules": args.rules, "shard_size": args.shard_size},
            "tool": tool,
        }
        os.replace(findings_tmp, os.path.join(args.out, "findings.csv"))
        os.replace(games_tmp, os.path.join(args.out, "games.csv"))
    write_atomic(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=2) + "\n")
    for shard in failed:
        print(f"audit.py: {shard['input']} {' '.join(shard['shard'])}: {shard['problem']}", file=sys.stderr)
    if failed:
        return 2
    return 1 if totals["by_severity"].get("error", 0) else 0


if __name__ == "__main__":
    sys.exit(main())
