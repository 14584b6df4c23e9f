#!/usr/bin/env python3
"""Audits PGN archives on a Dask cluster: one machine's cores or many.

    python3 scale/audit.py [--workers N | --scheduler ADDRESS]
        [--shard-size SIZE] [--retries N] [--format csv|parquet]
        [--no-duplicates] [--memory-limit SIZE] --out DIR INPUT...

Each INPUT (a file) is cut into shards: ranges of frames of a zstd file (as
`pgn-arbiter frames` lists them), byte ranges of a plain file, or the whole
file for other compressed files and small ones; a zstd file is listed
once, here, and each shard handed the bytes its frames take
(`--frame-bytes`). Each shard but an input's last has its lines counted
(`--count-lines`, about the cost of decompressing it), and is audited as
soon as the lines before it are known (`--line-offset`) on the cluster,
with retries, its games' results kept (`--keep-results`). Once every shard
is audited, one task gives all their games, in run order, to the run-wide
checks (`pgn-arbiter across`: copies of games, players and boards twice
in a round), and each shard's reports are then rendered on the cluster
(`--render`, `--across`), its games numbered on from the shards before it.
Each shard's files are under DIR/parts/, put in place whole by pgn-arbiter
itself, and DIR/manifest.jsonl records each step done, a line each, with
the size and SHA-256 of every file the step made; a second run with the
same inputs and DIR resumes from it, taking a step as done only while its
files are as recorded (else it is done again), and refusing (exit 2) a
manifest that names any file outside DIR/parts/. Every pgn-arbiter runs in
a session of its own and dies with the worker that started it (Linux:
PR_SET_PDEATHSIG), or, when the task waiting for it stops, with its process
group. The parts are then joined into DIR/findings.csv, DIR/games.csv and
DIR/summary.json, which are what one run of

    pgn-arbiter --findings findings.csv --games games.csv INPUT...

writes, byte for byte for the reports (with --no-duplicates, of one run
with --no-duplicates); the join checks each part against its size and
SHA-256 as it reads it, and that each shard's games report has one row
for every game it audited. It first removes the summary and reports of an
earlier run, writes each report beside its place and renames it in, and
the summary last: a join that stops (exit 2, as does a report that cannot
be written) leaves no summary. What the driver writes gets the mode of
any new file (0666 less the umask). No file the run reads (an input, the
--baseline) may be one that it writes, by path, through symlinks, or as
the same device and inode: such a run is refused (exit 2) before
anything is written. A shard that fails for good
(pgn-arbiter's exit status 2: an unreadable or corrupt input) is not
retried: it is named in the summary, which then says the run is not
complete, the games it read before the damage and the other shards are
joined (the run-wide checks see those games only), and the exit status
is 2. Exit status 1: findings at or above
error; 0: none.

With --format parquet the reports are the directories DIR/findings/ and
DIR/games/, one Parquet part a shard in order (a dataset), with the rows
and types of one run's `--output-format parquet` reports.

The tool is the binary at $PGN_ARBITER, else target/release/pgn-arbiter
beside this script's directory, which every worker must find at that path;
or, with --wheel FILE, the Python package in that wheel, which each worker
installs with pip into its own environment when it joins (and the driver
then asks a worker for the frame lists and the reports' headers too). The
summary says which tool ran, and its version.
"""

import argparse
import contextlib
import ctypes
import hashlib
import json
import os
import signal
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


def die_with_parent():
    """A `preexec_fn` that asks Linux to kill the child with SIGKILL when
    the thread that started it ends (prctl PR_SET_PDEATHSIG), as it does
    when its process dies: a worker killed, or lost with its machine, then
    leaves no pgn-arbiter running on, writing a part that the retry of its
    shard writes too. The thread waits for the child (`run_child`), so it
    does not end first. None where prctl cannot be had (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def preexec():
        prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before it was asked
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


def run_child(command, cwd=None, input=None):
    """Runs pgn-arbiter as subprocess.run(command, capture_output=True,
    text=True) does, in a session (and process group) of its own and made
    to die with its parent (`die_with_parent`); when the task running it
    is stopped (an exception, KeyboardInterrupt) the process group is
    killed before the exception goes on."""
    child = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE if input is not None else None,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=die_with_parent())
    try:
        stdout, stderr = child.communicate(input)
    except BaseException:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
        raise
    return subprocess.CompletedProcess(command, child.returncode, stdout, stderr)


def frames_of(arbiter, path):
    """`pgn-arbiter frames PATH`: (exit status, output, errors)."""
    listed = run_child([arbiter or installed(), "frames", path])
    return listed.returncode, listed.stdout, listed.stderr


def version_of(arbiter):
    done = run_child([arbiter or installed(), "--version"])
    if done.returncode != 0:
        raise RuntimeError(f"pgn-arbiter --version: exit status {done.returncode}: {done.stderr.strip()}")
    return done.stdout.strip()


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
    done = run_child(command, cwd=cwd)
    if done.returncode == 2:
        return trouble(done, path, cwd, parts)
    if done.returncode != 0:
        raise RuntimeError(f"{path} {options}: exit status {done.returncode}: {done.stderr.strip()}")
    return done


def audit_shard(arbiter, path, options, lines_before, parts, ident, extra, cwd):
    """Audits one shard, keeping its games' results (`--keep-results`) in
    `ident.results`, its lines numbered from `lines_before` + 1. Exit
    status 2 is a result (the input is bad: retrying will not help); any
    other failure raises, and the cluster retries the shard. A shard whose
    data is damaged part of the way keeps the games read before the damage
    (`ident.results.partial`): the result names them as `partial`."""
    results = os.path.join(parts, f"{ident}.results")
    summary = os.path.join(parts, f"{ident}.summary.json")
    # What an earlier attempt left is made again: pgn-arbiter replaces only
    # a file that begins as a results file does, and a part that no longer
    # matches its manifest line may have been cut short.
    for old in (summary, results, results + ".partial"):
        if os.path.exists(old):
            os.remove(old)
    command = [
        arbiter or installed(), "-q", "-j", "1", "--isolated", "--fail-on", "never",
        "--line-offset", str(lines_before), "--keep-results", results, "--summary", summary,
        *extra, *options, path,
    ]
    done = run_tool(command, path, options, cwd, parts)
    if isinstance(done, dict):
        partial = results + ".partial"
        if not done.get("transient") and os.path.exists(partial) and os.path.exists(summary):
            with open(summary, encoding="utf-8") as f:
                read = json.load(f)["total"]["games"]
            done["partial"] = {"results": partial, "games_audited": read,
                               "sums": {"results": file_sum(partial)}}
        return done
    with open(summary, encoding="utf-8") as f:
        games_audited = json.load(f)["total"]["games"]
    return {"results": results, "summary": summary, "games_audited": games_audited,
            "sums": {"results": file_sum(results), "summary": file_sum(summary)}}


def usable(audit):
    """What of an audit can be rendered: the whole shard, the games read
    before its damage, or nothing."""
    return audit.get("partial") if "failed" in audit else audit


def across_shards(arbiter, shards, list_path, memory_limit, cwd):
    """`pgn-arbiter across` over the audited shards, in run order: each
    shard's run-wide findings (copies, rounds) to its `across` file, whose
    size and SHA-256 are returned (`sums`, by file). Any failure raises:
    the cluster retries it."""
    write_atomic(list_path, "".join(json.dumps(shard) + "\n" for shard in shards))
    command = [arbiter or installed(), "across", "--memory-limit", memory_limit, list_path]
    started = time.monotonic()
    done = run_child(command, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"pgn-arbiter across: exit status {done.returncode}: {done.stderr.strip()}")
    seconds = time.monotonic() - started
    sums = {shard["across"]: file_sum(shard["across"]) for shard in shards}
    return {**json.loads(done.stdout), "seconds": seconds, "sums": sums}


def render_shard(arbiter, audit, across, games_before, parts, ident, extra, cwd, form="csv"):
    """Writes a shard's reports from its kept results (`--render`), its
    games numbered on from `games_before` and each with its run-wide
    findings (`--across`, when copies and rounds are looked for), into
    `ident.GAMES_BEFORE.{findings,games}.{form}`. Returns the files, their
    sizes and SHA-256 (`sums`) and the games report's rows (a row a game,
    checked by the join)."""
    base = os.path.join(parts, f"{ident}.{games_before}")
    files = {key: f"{base}.{key}.{form}" for key in ("findings", "games")}
    summary = f"{base}.summary.json"
    command = [
        arbiter or installed(), "-q", "--isolated", "--output-format", form, "--fail-on", "never", "--no-header",
        "--render", audit["results"], *(["--across", across] if across else []),
        "--game-offset", str(games_before), "--findings", files["findings"], "--games", files["games"],
        "--summary", summary, *extra,
    ]
    done = run_child(command, cwd=cwd)
    # The results of a shard read only in part (`NAME.partial`) render as
    # their audit ended: exit status 2, the reports kept as NAME.partial.
    # They are the games before the damage, which the join reports while
    # the summary names the shard as failed.
    cut = audit["results"].endswith(".partial") and done.returncode == 2
    if done.returncode not in (0, 1) and not cut:
        raise RuntimeError(f"{audit['results']}: rendering: exit status {done.returncode}: {done.stderr.strip()}")
    if cut:
        for path in files.values():
            if not os.path.exists(path + ".partial"):
                raise RuntimeError(f"{audit['results']}: rendering: exit status 2: {done.stderr.strip()}")
            os.replace(path + ".partial", path)
    with open(summary, encoding="utf-8") as f:
        rendered = json.load(f)["total"]["games"]
    sums = {"findings": file_sum(files["findings"]), "summary": file_sum(summary)}
    with open(files["games"], "rb") as f:
        sums["games"], lines = sum_of(f)
    rows = lines if form == "csv" else rendered
    return {**files, "summary": summary, "games_before": games_before, "across": across, "rows": rows,
            "sums": sums}


def sum_of(f):
    """The size and SHA-256 of what is left to read of the open (binary)
    file `f`, read a MiB at a time, and the lines (newlines) in it."""
    digest, size, lines = hashlib.sha256(), 0, 0
    for chunk in iter(lambda: f.read(1 << 20), b""):
        digest.update(chunk)
        size += len(chunk)
        lines += chunk.count(b"\n")
    return {"size": size, "sha256": digest.hexdigest()}, lines


def file_sum(path):
    """The size and SHA-256 of the file at `path`, as the manifest records
    them for each part when the step that made it is done."""
    with open(path, "rb") as f:
        return sum_of(f)[0]


def differs(f, want):
    """What differs between the open (binary) file `f` and the size and
    SHA-256 the manifest recorded for it (`want`): None when nothing does.
    The size is compared first (no reading); `f` is left at its start."""
    want = want if isinstance(want, dict) else {}
    size = os.fstat(f.fileno()).st_size
    if size != want.get("size"):
        return f"{size} bytes, where the manifest recorded {want.get('size')}"
    f.seek(0)
    found = sum_of(f)[0]["sha256"]
    f.seek(0)
    if found != want.get("sha256"):
        return f"SHA-256 {found}, where the manifest recorded {want.get('sha256')}"
    return None


def changed(record, keys):
    """Whether the part files that `keys` of a manifest record name have
    changed since the step that made them was recorded: what differs (the
    first file that does), or None when each is there with the size and
    SHA-256 recorded for it in the record's `sums`. A file that is gone,
    or has no sums recorded (a manifest of an older driver), differs: the
    step is done again."""
    sums = record.get("sums") if isinstance(record.get("sums"), dict) else {}
    for key in keys:
        path = record.get(key)
        if not isinstance(sums.get(key), dict):
            return f"{path}: no size and SHA-256 recorded"
        try:
            with open(path, "rb") as f:
                problem = differs(f, sums[key])
        except (OSError, TypeError, ValueError) as err:
            return f"{path}: {getattr(err, 'strerror', None) or err}"
        if problem:
            return f"{path}: {problem}"
    return None


def checked(path, want):
    """The part at `path`, opened for the join to read, once it is checked
    to be the size and SHA-256 the manifest recorded (`want`); else
    Trouble, naming it and what differs."""
    try:
        f = open(path, "rb")
    except OSError as err:
        raise Trouble(f"{path}: {err.strerror}: the join cannot read it; run again to make it again")
    problem = differs(f, want)
    if problem:
        f.close()
        raise Trouble(f"{path}: {problem}: it changed after it was made; run again to make it again")
    return f


def append_file(f, out):
    """Appends the open file `f`, from its start, to the open file `out`,
    in the kernel where it can (copy_file_range), else through a buffer."""
    size = os.fstat(f.fileno()).st_size
    copied = 0
    try:
        while copied < size:
            n = os.copy_file_range(f.fileno(), out.fileno(), size - copied, copied)
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


def in_parts(path, parts):
    """Whether `path` names a file in the directory `parts` itself (given
    with its symlinks resolved, `os.path.realpath`), every symlink on the
    way to it resolved: the only place where the driver and the shards it
    runs write their files."""
    return isinstance(path, str) and os.path.dirname(os.path.realpath(path)) == parts


class Manifest:
    """What is done, shard by shard: `manifest.jsonl` in --out, one line
    appended (and made durable) per shard counted or audited, so that the
    work per shard stays the same however many there are. Read back, a
    later line for a shard replaces what an earlier one said; a last line
    cut short by a crash (a line is written with its newline at once, so
    one without it was cut) is ignored, and cut off the file, so that the
    lines appended after it start lines of their own. Every file a line
    names must be in `parts` (`in_parts`)."""

    # The fields of each step's record that name files.
    FILES = {"audit": ("results", "summary"), "across": ("file",),
             "rendered": ("findings", "games", "summary", "across")}

    def __init__(self, path, parts):
        self.path, self.parts, self.real_parts = path, parts, os.path.realpath(parts)
        self.shards = {}
        if os.path.exists(path):
            self._load()
        with writing(path):
            self.file = open(path, "a", encoding="utf-8")

    def _load(self):
        try:
            with open(self.path, "rb") as f:
                data = f.read()
            cut = data.rpartition(b"\n")[2]
            whole = data[:len(data) - len(cut)]
            lines = whole.decode("utf-8").split("\n")
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
                raise Trouble(f"{self.path}:{number}: not a line of this driver's manifest ({err}): "
                              "remove it to start again")
            self._check_files(number, entry)
            self.shards.setdefault(ident, {}).update(entry)
        if cut:
            with writing(self.path):
                os.truncate(self.path, len(whole))

    def _check_files(self, number, entry):
        """Refuses (Trouble, naming the line) a line that names a file
        outside the parts directory, or through a symlink that leads out
        of it. Such a line was not written by this driver, which names only
        files it made there: it was edited, and a path taken from it would
        be read as a part and joined into the reports, or removed when its
        step is done again. Refusing is safer than taking the step as not
        done, which would act on the rest of an edited manifest as if it
        could be trusted; nothing is read, written or removed before it."""
        for step, fields in self.FILES.items():
            record = entry.get(step)
            if record is None:
                continue
            if not isinstance(record, dict):
                raise Trouble(f"{self.path}:{number}: not a line of this driver's manifest ({step} is not a "
                              "record): remove it to start again")
            named = [(field, record.get(field)) for field in fields]
            if isinstance(record.get("partial"), dict):
                named.append(("partial results", record["partial"].get("results")))
            for field, path in named:
                if path is not None and not in_parts(path, self.real_parts):
                    raise Trouble(f"{self.path}:{number}: its {step} {field} {path!r} is not a file in "
                                  f"{self.parts}, where the driver writes every part: the manifest was edited; "
                                  "remove it to start again")

    def record(self, ident, key, value):
        self.shards.setdefault(ident, {})[key] = value
        with writing(self.path):
            self.file.write(json.dumps({"shard": ident, key: value}) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self):
        self.file.close()


def umask():
    """The process's umask, read where Linux shows it (so that no thread
    sees it changed), else set and set back."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path, data):
    """Writes `data` (text) to `path` whole: into a temporary file beside
    it, made durable, then renamed over it. The file gets the mode any new
    file gets (0666 less the umask), not the temporary file's 0600."""
    directory = os.path.dirname(path) or "."
    fd, temp = tempfile.mkstemp(dir=directory, prefix=".", suffix=".partial")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), 0o666 & ~umask())
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.remove(temp)
        raise


def headers(arbiter):
    """The reports' header rows, as pgn-arbiter writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        findings, games = os.path.join(tmp, "f.csv"), os.path.join(tmp, "g.csv")
        done = run_child(
            [arbiter or installed(), "-q", "--isolated", "--output-format", "csv", "--fail-on", "never",
             "--findings", findings, "--games", games, "-"],
            input='[Event "?"]\n\n*\n',
        )
        if done.returncode != 0:
            raise RuntimeError(f"pgn-arbiter (the reports' headers): exit status {done.returncode}: "
                               f"{done.stderr.strip()}")
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
                             "findings/ and games/, a Parquet file a shard, in order)")
    parser.add_argument("--no-duplicates", action="store_true",
                        help="as pgn-arbiter's: no copies of games and no round checks (by default they see "
                             "every shard's games, as one run does)")
    parser.add_argument("--memory-limit", default="1G",
                        help="as pgn-arbiter's, for the one task that looks across the shards (default 1G)")
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
    if args.no_duplicates:
        args.extra.append("--no-duplicates")
    # What an audit's results depend on (the rest acts when rendering).
    reporting = {"--select", "--ignore", "--baseline"}
    args.judging = [a for i, a in enumerate(args.extra)
                    if a not in reporting and (i == 0 or args.extra[i - 1] not in reporting)]
    # What a rendering takes: not the options that judge games, which act
    # when the results are kept (pgn-arbiter refuses them with --render).
    judging_only = {"--strict-tags", "--no-variations", "--winnability"}
    args.render_options = [a for i, a in enumerate(args.extra)
                           if a not in judging_only and (i == 0 or args.extra[i - 1] != "--winnability")]
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        return drive(args)
    except Trouble as err:
        print(f"audit.py: {err}", file=sys.stderr)
        return 2


# What the driver writes in --out: these files (the manifest is appended
# to in place), and any file in these directories.
OUT_FILES = ("findings.csv", "games.csv", "summary.json", "manifest.jsonl")
OUT_DIRS = ("parts", "findings", "games")


def spare_the_inputs(args):
    """Refuses (Trouble) a run that would write over a file it reads (an
    input, or the --baseline that its renderings read): an --out that is
    such a file or lies under one, or such a file that is one of the files
    the driver writes in --out or lies in one of the directories it fills
    there, whether by its path, through symlinks (`realpath`), or as
    another name of the same file (a hard link, a bind mount: the same
    device and inode). Nothing is written before this check: refused, a
    run leaves --out as it was."""
    out = os.path.realpath(args.out)
    files = [os.path.join(out, name) for name in OUT_FILES]
    dirs = [os.path.join(out, name) for name in OUT_DIRS]
    written = set()
    for path in [out, *files, *(os.path.join(top, name) for d in dirs for top, _, names in os.walk(d)
                                for name in names)]:
        try:
            st = os.stat(path)
        except OSError:
            continue
        written.add((st.st_dev, st.st_ino))
    read = [(path, f"{path} is an input") for path in args.inputs]
    if args.baseline:
        read.append((args.baseline, f"--baseline {args.baseline} is read by the run"))
    for path, what in read:
        real, st = os.path.realpath(path), os.stat(path)
        if real == out or out.startswith(real + os.sep) or real in files \
                or any(real.startswith(d + os.sep) for d in dirs) or (st.st_dev, st.st_ino) in written:
            raise Trouble(f"{what}, and --out {args.out} would write over it: give --out another directory")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise Trouble(f"--out {args.out}: not a directory")


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
    for path in args.inputs:
        if not os.path.isfile(path):
            raise Trouble(f"{path}: not a file (give files; directories are not expanded)")
    if args.baseline and not os.path.isfile(args.baseline):
        raise Trouble(f"--baseline {args.baseline}: not a file")
    spare_the_inputs(args)
    # What a shard's reports are rendered with: the options of the reports,
    # and what the baseline holds (it may change under the same name).
    args.rendering = [*args.extra, args.format, *([file_sum(args.baseline)] if args.baseline else [])]
    parts = os.path.join(args.out, "parts")
    try:
        os.makedirs(parts, exist_ok=True)
    except OSError as err:
        raise Trouble(f"--out {args.out}: {parts} cannot be made: {err.strerror}")
    manifest = Manifest(os.path.join(args.out, "manifest.jsonl"), parts)

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

        started = time.monotonic()
        shards, lost, identities = plan(args.inputs, args.shard_size,
                                        lambda path: where_the_tool_is(frames_of, os.path.abspath(path)))
        tool = {"version": where_the_tool_is(version_of)}
        ids = [shard_id(path, identities[path], options, args.inputs[:n].count(path), args.judging,
                        tool["version"]) for path, options, n in shards]
        tool.update({"wheel": os.path.basename(args.wheel), "sha256": wheel.digest} if args.wheel
                    else {"path": arbiter})
        report_headers = where_the_tool_is(headers) if args.format == "csv" else None
        planned = time.monotonic()
        pipeline = Pipeline(client, arbiter, args, shards, ids, manifest, parts)
        pipeline.run()
        lines_before = pipeline.lines_before
        seconds = {"plan": planned - started, "shards": time.monotonic() - planned,
                   "across": pipeline.across_seconds}
    finally:
        client.close()
        manifest.close()

    return join(args, tool, report_headers, shards, lost, ids, lines_before, manifest, seconds)


class Pipeline:
    """Counts the lines of every shard but the last of its input, audits
    each shard (keeping its results) as soon as the lines before it are
    known: no audit waits for a pass over every shard. Once every shard is
    audited, one task gives their games to the run-wide checks
    (`pgn-arbiter across`, unless --no-duplicates), and then each shard's
    reports are rendered on the cluster, its games numbered on from the
    shards before it. Resumes from the manifest: a shard's `lines`,
    `audit`, `across` and `rendered` records."""

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
        self.across = {}  # index -> its across file (None with --no-duplicates)
        self.across_seconds = 0.0  # the wall time of the look across the shards
        self.next_audit = dict.fromkeys(self.by_input, 0)
        self.audits = self.finished = 0
        self.what = {}
        from dask.distributed import as_completed
        self.running = as_completed()

    def record(self, index, key):
        return self.manifest.shards.get(self.ids[index], {}).get(key)

    def submit(self, kind, index, fn, *fn_args, **options):
        key = f"{kind}-{self.ids[index]}" if index is not None else f"{kind}-{time.monotonic_ns()}"
        future = self.client.submit(fn, *fn_args, key=key, retries=self.args.retries, pure=False, **options)
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
        self.after_audits()
        for future in self.running:
            kind, index = self.what.pop(future)
            try:
                result = future.result()
            except Exception as err:  # retries spent: tried again on a rerun
                if kind == "across":
                    raise Trouble(f"looking across the shards failed: {err}")
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
                self.finished += 1
                if sys.stderr.isatty():
                    print(f"\raudit.py: {self.finished} of {self.audits} shards audited", end="", file=sys.stderr)
                self.after_audits()
            elif kind == "across":
                key, files = self.across_key, self.across_files
                for i, path in files.items():
                    self.manifest.record(self.ids[i], "across",
                                         {"key": key, "file": path, "sums": {"file": result["sums"][path]}})
                self.across = dict(files)
                self.across_seconds = result["seconds"]
                self.submit_renders()
            else:
                if "failed" in result:
                    raise Trouble(f"{self.shards[index][0]}: rendering the reports of a shard failed: "
                                  f"{result['failed']}")
                older = self.record(index, "rendered") or {}
                result["options"] = self.args.rendering
                self.manifest.record(self.ids[index], "rendered", result)
                # The reports it replaces are no longer needed.
                for key in ("findings", "games", "summary"):
                    if older.get(key) not in (None, result[key]) and os.path.exists(older[key]):
                        os.remove(older[key])
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
                # A record is trusted only while the parts it names are as
                # they were made (`changed`): else the shard is audited again.
                done = self.record(index, "audit")
                if done and "failed" in done and not done.get("transient") \
                        and not (done.get("partial") and changed(done["partial"], ("results",))):
                    self.audited[index] = done
                    continue
                if done and "failed" not in done and done.get("lines_before") == before \
                        and not changed(done, ("results", "summary")):
                    self.audited[index] = done
                    continue
                path, options, _ = self.shards[index]
                self.submit("audit", index, audit_shard, self.arbiter, path, options, before, self.parts,
                            self.ids[index], self.args.judging, self.args.cwd)
                self.audits += 1

    def after_audits(self):
        """Once every shard is audited: the games before each (every earlier
        audited shard of its input's; a failed one adds none), then the look
        across the shards, unless the manifest has it for these shards and
        numbers, and then the renderings."""
        if len(self.audited) < len(self.shards):
            return
        shards = []
        for n, indices in self.by_input.items():
            before = 0
            for index in indices:
                self.games_before[index] = before
                audit = usable(self.audited[index])
                if audit:
                    shards.append(index)
                    before += audit["games_audited"]
        if self.args.no_duplicates:
            self.across = dict.fromkeys(shards)
            self.submit_renders()
            return
        listed = [(self.ids[i], self.games_before[i]) for i in sorted(shards)]
        self.across_key = hashlib.sha256(json.dumps([listed, self.args.memory_limit]).encode()).hexdigest()[:16]
        self.across_files = {i: os.path.join(self.parts, f"{self.ids[i]}.{self.across_key}.across")
                             for i in shards}
        known = [self.record(i, "across") or {} for i in shards]
        if all(k.get("key") == self.across_key and not changed(k, ("file",)) for k in known):
            self.across = dict(self.across_files)
            self.submit_renders()
            return
        listing = [{"results": usable(self.audited[i])["results"], "games_before": self.games_before[i],
                    "across": self.across_files[i]} for i in sorted(shards)]
        list_path = os.path.join(self.parts, f"across-{self.across_key}.jsonl")
        self.submit("across", None, across_shards, self.arbiter, listing, list_path, self.args.memory_limit,
                    self.args.cwd)

    def submit_renders(self):
        """Renders each audited shard's reports, unless the manifest has
        them for the same games before and run-wide findings."""
        for index, across in self.across.items():
            before = self.games_before[index]
            done = self.record(index, "rendered")
            if done and done.get("games_before") == before and done.get("across") == across \
                    and done.get("options") == self.args.rendering \
                    and not changed(done, ("findings", "games", "summary")):
                continue
            self.submit("rendered", index, render_shard, self.arbiter, usable(self.audited[index]), across, before,
                        self.parts, self.ids[index], self.args.render_options, self.args.cwd,
                        self.args.format)


@contextlib.contextmanager
def writing(path):
    """Turns a failure to write `path` (a full disk, a file too large, a
    directory in its place) into Trouble naming it: exit 2."""
    try:
        yield
    except OSError as err:
        raise Trouble(f"{path}: cannot be written: {err.strerror or err}")


class CsvReports:
    """The joined reports as CSV: `findings.csv` and `games.csv` in --out,
    each under its header, the numbered parts appended whole. Each is
    written into a temporary file beside it, made durable and renamed into
    place (`put_in_place`), or removed (`discard`): a report is there
    whole or not at all."""

    def __init__(self, out, headers):
        self.paths = [os.path.join(out, "findings.csv"), os.path.join(out, "games.csv")]
        self.temps, self.files = [], []
        try:
            for path, header in zip(self.paths, headers):
                with writing(path):
                    fd, temp = tempfile.mkstemp(dir=out, prefix=f".{os.path.basename(path)}.", suffix=".partial")
                    self.temps.append(temp)
                    self.files.append(os.fdopen(fd, "wb"))
                    os.fchmod(fd, 0o666 & ~umask())
                    self.files[-1].write(header.encode())
        except BaseException:
            self.discard()
            raise

    def add(self, numbered):
        for f, path, key in zip(self.files, self.paths, ("findings", "games")):
            with checked(numbered[key], numbered["sums"].get(key)) as part, writing(path):
                f.flush()
                append_file(part, f)

    def put_in_place(self):
        for f, temp, path in zip(self.files, self.temps, self.paths):
            with writing(path):
                f.flush()
                os.fsync(f.fileno())
                f.close()
                os.replace(temp, path)

    def discard(self):
        for f, temp in zip(self.files, self.temps):
            try:
                f.close()
            except OSError:
                pass  # what could not be written is thrown away
            if os.path.exists(temp):
                os.remove(temp)


class ParquetReports:
    """The joined reports as Parquet: the directories `findings/` and
    `games/` in --out, holding each audited shard's numbered part in order
    (`part-000001.parquet`, ...), as Spark, DuckDB and pyarrow read a
    dataset: `SELECT * FROM 'games/*.parquet'`. Each is filled as a
    temporary directory beside it and renamed into place
    (`put_in_place`), or removed (`discard`)."""

    def __init__(self, out, headers):
        self.paths = [os.path.join(out, "findings"), os.path.join(out, "games")]
        self.dirs = []
        try:
            for path in self.paths:
                with writing(path):
                    self.dirs.append(tempfile.mkdtemp(dir=out, prefix=f".{os.path.basename(path)}.",
                                                      suffix=".partial"))
                    os.chmod(self.dirs[-1], 0o777 & ~umask())
        except BaseException:
            self.discard()
            raise
        self.parts = 0

    def add(self, numbered):
        """Links (else copies) the shard's parts into place, and checks
        what is in place against the manifest's sums: a part linked is the
        same file as the one in parts/."""
        self.parts += 1
        for d, path, key in zip(self.dirs, self.paths, ("findings", "games")):
            target = os.path.join(d, f"part-{self.parts:06d}.parquet")
            with writing(path):
                try:
                    os.link(numbered[key], target)
                except OSError:
                    shutil.copyfile(numbered[key], target)
            with open(target, "rb") as f:
                problem = differs(f, numbered["sums"].get(key))
            if problem:
                raise Trouble(f"{numbered[key]}: {problem}: it changed after it was made; run again to make it "
                              "again")

    def put_in_place(self):
        # The earlier run's directories are gone (`clear_reports`).
        for d, path in zip(self.dirs, self.paths):
            with writing(path):
                os.replace(d, path)

    def discard(self):
        for d in self.dirs:
            shutil.rmtree(d, ignore_errors=True)


def clear_reports(out):
    """Removes what an earlier run joined into `out`, before the join
    starts: its summary first, then its reports of either form, so that a
    join that stops leaves nothing that could be taken for this run's
    reports, least of all a summary that says `complete`. (No input is
    among them: `spare_the_inputs`.) What cannot be removed (a directory
    where a report file goes) is Trouble."""
    for name in ("summary.json", "findings.csv", "games.csv", "findings", "games"):
        path = os.path.join(out, name)
        try:
            if name in OUT_DIRS and os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            elif os.path.lexists(path):
                os.remove(path)
        except OSError as err:
            raise Trouble(f"{path}: an earlier run's, and it cannot be removed: {err.strerror}")


def join(args, tool, report_headers, shards, lost, ids, lines_before, manifest, seconds):
    """Joins the parts, numbered, in shard order into the run's reports and
    summary, checking that each shard's games report has a row for each game
    it audited. `seconds`: the wall time of the driver's steps so far
    (planning: listing the files; the shards), to which the join's is
    added."""
    joining = time.monotonic()
    clear_reports(args.out)
    failed = []
    totals = {"games": 0, "plies": 0, "findings": 0, "by_severity": {}, "by_code": {}}
    files = {}
    games_before = {}
    parts = os.path.join(args.out, "parts")
    real_parts = os.path.realpath(parts)
    reports = (ParquetReports if args.format == "parquet" else CsvReports)(args.out, report_headers)
    try:
        for index, (ident, (path, options, n)) in enumerate(zip(ids, shards)):
            record = manifest.shards.get(ident, {})
            audit = record.get("audit", {"failed": "not audited"})
            before = games_before.get(n, 0)
            if "failed" in audit:
                # Where the gap is: the games and lines of the input
                # reported before it (with the games of the shard read
                # before its damage, `games_read`, which are reported).
                # Later games of the input are numbered as if the rest of
                # the shard held none (its games could not be counted), so
                # their game numbers are short by what it held; their line
                # numbers too when its lines could not be counted either.
                read = (audit.get("partial") or {}).get("games_audited", 0)
                failed.append({"input": path, "shard": options, "problem": audit["failed"],
                               "transient": bool(audit.get("transient")), "games_read": read,
                               "after_game": before + read, "after_line": lines_before.get(index, 0)})
                if not read:
                    continue
                audit = audit["partial"]
            rendered = record.get("rendered")
            if not rendered or rendered["games_before"] != before:
                raise Trouble(f"{path} {' '.join(options)}: its games are not numbered from {before + 1}")
            # Every game counted exactly once: the games report has one
            # row each.
            if rendered["rows"] != audit["games_audited"]:
                raise Trouble(f"{path} {' '.join(options)}: {rendered['rows']} rows in its games report for "
                              f"{audit['games_audited']} games audited")
            # Each part is checked against the size and SHA-256 recorded
            # when it was made as it is read: one changed since (after
            # the rerun's check of its record) stops the join, as does one
            # that has become a symlink out of the parts directory.
            rendered.setdefault("sums", {})
            for key in ("findings", "games", "summary"):
                if not in_parts(rendered[key], real_parts):
                    raise Trouble(f"{rendered[key]}: not a file in {parts}: the join reads only parts")
            reports.add(rendered)
            games_before[n] = before + rendered["rows"]
            with checked(rendered["summary"], rendered["sums"].get("summary")) as f:
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
            "options": {"no_duplicates": args.no_duplicates, "rules": args.rules, "shard_size": args.shard_size,
                        "forwarded": args.extra, "format": args.format},
            "tool": tool,
            "seconds": {**{step: round(t, 3) for step, t in seconds.items()},
                        "join": round(time.monotonic() - joining, 3)},
        }
        reports.put_in_place()
    except BaseException:
        reports.discard()
        raise
    # Last, once the reports are in place: a summary says they are whole.
    with writing(os.path.join(args.out, "summary.json")):
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
