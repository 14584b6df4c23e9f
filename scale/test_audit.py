"""Tests of scale/audit.py on a local Dask cluster of two workers.

    PGN_ARBITER=target/debug/pgn-arbiter python3 -m unittest scale/test_audit.py

(with scale/requirements-test.txt installed; .ci/run does both). The
inputs are every plain golden fixture joined (a plain file, cut by bytes)
and the same bytes as zstd frames cut at arbitrary bytes with a skippable
frame before each (cut by frames), with small shards. Checked: the joined
reports equal one run's, copies and rounds found across shards and inputs
(games numbered on from shard to shard, also after a file name the CSV
writer quotes); a worker killed in the middle of a shard is
replaced and the shard retried, with the same result; a shard of a corrupt
frame is named in the summary, its games before the damage reported, and
the others are joined; a run interrupted
and run again resumes from its manifest, and a file edited in place is
audited again; a zstd file is listed once and no pass counts games.

And what the driver must not trust or leave behind: parts changed since
they were made (emptied, a byte edited, cut short) are made again on a
rerun, and one changed as the join comes to read it stops the run naming
it; a manifest naming a file outside parts/, directly or through a
symlink, is refused and the file neither joined nor removed; a manifest
line cut short by a crash does not spoil the lines appended after it; an
--out that would write over an input or the --baseline (by path, symlink
or hard link) is refused before anything is written; a join that stops,
or a report that cannot be written, leaves no summary and no earlier
reports; reports and summary take the umask's mode; a baseline changed
since the last run is rendered with again; a worker killed in a shard
leaves no pgn-arbiter running, and a task that stops kills its child's
process group.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from importlib import util
from unittest import mock

import zstandard

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARBITER = os.path.abspath(os.environ.get("PGN_ARBITER", os.path.join(ROOT, "target", "release", "pgn-arbiter")))
# The wheel for the test of workers that install the tool by pip
# (scripts/build_wheels.sh builds it; .ci/run names it).
WHEEL = os.environ.get("PGN_ARBITER_WHEEL")


def frames(data, size, corrupt=None):
    """zstd frames of `size` bytes of `data`, a skippable frame before each;
    frame number `corrupt` has bytes of its middle overwritten."""
    out = bytearray()
    for i, start in enumerate(range(0, len(data), size)):
        out += (0x184D2A50).to_bytes(4, "little") + (4).to_bytes(4, "little") + b"pzst"
        frame = bytearray(zstandard.ZstdCompressor(level=3).compress(data[start:start + size]))
        if i == corrupt:
            middle = len(frame) // 2
            frame[middle:middle + 16] = b"\xff" * 16
        out += frame
    return bytes(out)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def alive(pid):
    """Whether the process `pid` runs (a zombie, dead and not yet reaped,
    does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def shards_in(out):
    """The manifest's shards, each as its lines say (whole lines only)."""
    shards = {}
    path = os.path.join(out, "manifest.jsonl")
    if os.path.exists(path):
        for line in read(path).decode().split("\n")[:-1]:
            entry = json.loads(line)
            shards.setdefault(entry.pop("shard"), {}).update(entry)
    return shards


class Driver(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        # Every fixture but the comment left open, which reads on through
        # the games after it to the next '}': a shard that begins among
        # those games reads them, one run does not (docs/scale.md).
        fixtures = sorted(
            f for f in glob.glob(os.path.join(ROOT, "fixtures", "**", "*.pgn"), recursive=True)
            if not f.endswith("unterminated-comment.pgn")
        )
        data = b"".join(read(f) + b"\n\n" for f in fixtures)
        cls.plain = os.path.join(cls.tmp.name, "archive.pgn")
        cls.zst = os.path.join(cls.tmp.name, "archive.pgn.zst")
        with open(cls.plain, "wb") as f:
            f.write(data)
        with open(cls.zst, "wb") as f:
            f.write(frames(data, 9_973))
        cls.inputs = [cls.plain, cls.zst]
        cls.one = cls.single_run(cls.inputs)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def single_run(cls, inputs, options=()):
        out = tempfile.mkdtemp(dir=cls.tmp.name)
        findings, games = os.path.join(out, "f.csv"), os.path.join(out, "g.csv")
        subprocess.run([ARBITER, "-q", "--fail-on", "never", *options, "--findings", findings,
                        "--games", games, *inputs], check=True)
        return read(findings), read(games)

    def drive(self, out, inputs=None, binary=ARBITER, retries=3, wait=True, extra=(), cwd=None, env=None,
              umask=-1, preexec_fn=None):
        env = dict(os.environ, PGN_ARBITER=binary, **(env or {}))
        command = [sys.executable, os.path.join(HERE, "audit.py"), "--workers", "2", "--shard-size", "24k",
                   "--retries", str(retries), *extra, "--out", out, *(inputs or self.inputs)]
        if not wait:
            return subprocess.Popen(command, env=env, start_new_session=True,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return subprocess.run(command, env=env, capture_output=True, text=True, cwd=cwd, umask=umask,
                              preexec_fn=preexec_fn)

    def joined(self, out):
        return read(os.path.join(out, "findings.csv")), read(os.path.join(out, "games.csv"))

    def wrapper(self, body):
        """A pgn-arbiter that runs `body` (shell) before an audit of a shard."""
        path = tempfile.mktemp(dir=self.tmp.name, suffix=".sh")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\ncase \"$*\" in *--keep-results*) {body} ;; esac\nexec {ARBITER} \"$@\"\n")
        os.chmod(path, 0o755)
        return path

    def test_joined_reports_equal_one_run(self):
        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.one)
        summary = load(os.path.join(out, "summary.json"))
        self.assertTrue(summary["complete"])
        self.assertGreater(summary["shards"], 8)
        self.assertEqual(summary["total"]["games"], self.one[1].count(b"\n") - 1)

    def test_copies_and_rounds_are_found_across_shards(self):
        """The zstd input holds the plain one's games: each is a copy of a
        game in another input and shard, as one run finds it; with
        --no-duplicates the joined reports are one such run's."""
        findings = self.one[0].decode()
        self.assertGreater(findings.count(f"{self.zst},"), 0)
        copies = [row for row in findings.splitlines() if row.startswith(f"{self.zst},") and ",duplicate-game," in row]
        self.assertGreater(len(copies), 100)
        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out, extra=["--no-duplicates"])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.single_run(self.inputs, ["--no-duplicates"]))
        self.assertTrue(load(os.path.join(out, "summary.json"))["options"]["no_duplicates"])

    def test_a_rerun_with_other_report_options_renders_again_only(self):
        """--select, --ignore and --baseline act when rendering: a rerun with
        them audits nothing again, and its reports are one run's."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "calls.log")
        logged = self.wrapper(f'echo "$*" >> {log}')
        done = self.drive(out, binary=logged)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        audited = len(read(log).decode().splitlines())
        options = ["--ignore", "duplicate-board,missing-tag"]
        done = self.drive(out, binary=logged, extra=options)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(len(read(log).decode().splitlines()), audited, "no audit again")
        self.assertEqual(self.joined(out), self.single_run(self.inputs, options))

    def test_workers_that_install_the_wheel_by_pip(self):
        """No binary at a path: each worker installs the wheel, and the
        joined reports are still one run's."""
        self.assertTrue(WHEEL and os.path.isfile(WHEEL), "set PGN_ARBITER_WHEEL to a built wheel")
        out = tempfile.mkdtemp(dir=self.tmp.name)
        nowhere = os.path.join(self.tmp.name, "no-such-pgn-arbiter")
        done = self.drive(out, binary=nowhere, extra=["--wheel", WHEEL])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.one)
        summary = load(os.path.join(out, "summary.json"))
        self.assertEqual(summary["tool"]["wheel"], os.path.basename(WHEEL))
        expected = subprocess.run([ARBITER, "--version"], capture_output=True, text=True, check=True)
        self.assertEqual(summary["tool"]["version"], expected.stdout.strip())

    def test_a_worker_killed_in_a_shard_is_retried(self):
        out = tempfile.mkdtemp(dir=self.tmp.name)
        mark = os.path.join(out, "killed")
        # The first audit of the third byte shard kills its worker.
        binary = self.wrapper(f'case "$*" in *"--bytes 49152.."*) [ -e {mark} ] || {{ touch {mark}; kill -9 $PPID; exit 1; }} ;; esac')
        done = self.drive(out, binary=binary)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertTrue(os.path.exists(mark), "no worker was killed")
        self.assertEqual(self.joined(out), self.one)

    def test_a_corrupt_shard_is_reported_and_the_rest_joined(self):
        data = read(self.plain)
        bad = os.path.join(self.tmp.name, "corrupt.pgn.zst")
        with open(bad, "wb") as f:
            f.write(frames(data, 9_973, corrupt=5))
        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out, inputs=[self.plain, bad])
        self.assertEqual(done.returncode, 2, done.stderr)
        summary = load(os.path.join(out, "summary.json"))
        self.assertFalse(summary["complete"])
        failed = summary["failed_shards"]
        self.assertTrue(failed and all(s["input"] == bad for s in failed), failed)
        self.assertIn("--zstd-frames", failed[0]["shard"])
        # The gap is placed: the input's games before it are numbered up to
        # after_game, and the first game after it takes the next number.
        gap = failed[0]["after_game"]
        self.assertGreater(gap, 0)
        bad_games = [g for g in self.joined(out)[1].decode().splitlines()[1:] if g.startswith(bad + ",")]
        numbers = [int(g.split(",")[1]) for g in bad_games]
        self.assertEqual(numbers[: gap], list(range(1, gap + 1)))
        self.assertEqual(numbers[gap], gap + 1)
        # The damaged shard's games before the damage are reported: up to
        # the last (which the damage may cut), they are the games of the
        # intact file at the same numbers and lines.
        self.assertGreater(failed[0]["games_read"], 1)
        whole = [g.split(",")[1:3] for g in self.single_run([self.zst])[1].decode().splitlines()[1:]]
        self.assertEqual([g.split(",")[1:3] for g in bad_games[: gap - 1]], whole[: gap - 1])
        # The plain file's shards are all there, as one run has them.
        findings, games = self.joined(out)
        plain_findings, plain_games = self.single_run([self.plain])
        self.assertTrue(games.startswith(plain_games))
        self.assertTrue(findings.startswith(plain_findings))
        self.assertGreater(games.count(bad.encode()), 0)

    def test_a_file_cut_short_is_audited_up_to_the_cut(self):
        """A zstd file cut in a frame (a partial download): its frames
        before the cut are audited, the bytes after named as lost, exit 2,
        and the other inputs audited whole."""
        data = read(self.zst)
        cut = os.path.join(self.tmp.name, "cut.pgn.zst")
        with open(cut, "wb") as f:
            f.write(data[: len(data) * 2 // 3])
        out = tempfile.mkdtemp(dir=self.tmp.name)
        # No copies: the other input's games are the cut one's.
        done = self.drive(out, inputs=[cut, self.plain], extra=["--no-duplicates"])
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("not audited", done.stderr)
        summary = load(os.path.join(out, "summary.json"))
        self.assertFalse(summary["complete"])
        [lost] = summary["lost"]
        self.assertEqual(lost["input"], cut)
        self.assertEqual(lost["bytes"][1], len(data) * 2 // 3)
        self.assertGreater(lost["frames_before"], 3)
        self.assertIn("a cut frame", lost["problem"])
        # Up to the cut, the games are those of the whole file; after it,
        # the other input's, all of them.
        findings, games = self.joined(out)
        whole_games = self.single_run([self.zst], ["--no-duplicates"])[1].decode().splitlines()[1:]
        cut_games = [g for g in games.decode().splitlines()[1:] if g.startswith(cut + ",")]
        self.assertGreater(len(cut_games), 10)
        # The last game read may be cut where the reading stopped: the
        # same game, at the same line.
        self.assertEqual([g.split(",", 1)[1] for g in cut_games[:-1]],
                         [g.split(",", 1)[1] for g in whole_games[: len(cut_games) - 1]])
        self.assertEqual(cut_games[-1].split(",")[1:3], whole_games[len(cut_games) - 1].split(",")[1:3])
        plain_findings, plain_games = self.single_run([self.plain], ["--no-duplicates"])
        self.assertTrue(games.endswith(plain_games.split(b"\n", 1)[1]))
        self.assertTrue(findings.endswith(plain_findings.split(b"\n", 1)[1]))

    def test_an_input_a_worker_cannot_see_is_tried_again_on_a_rerun(self):
        """Exit status 2 because the input is not there on the worker (not
        mounted, moved away) is the worker's trouble, not the data's: the
        shards are named as failed, and a rerun audits them."""
        plain = os.path.join(self.tmp.name, "seen-later.pgn")
        with open(plain, "wb") as f:
            f.write(read(self.plain))
        away = plain + ".away"
        out = tempfile.mkdtemp(dir=self.tmp.name)
        mark = os.path.join(out, "moved")
        # The first shard audit moves the input out of the workers' sight.
        binary = self.wrapper(f'[ -e {mark} ] || {{ touch {mark}; mv {plain} {away}; }}')
        done = self.drive(out, inputs=[plain], binary=binary)
        self.assertEqual(done.returncode, 2, done.stderr)
        summary = load(os.path.join(out, "summary.json"))
        self.assertTrue(summary["failed_shards"])
        self.assertTrue(all(s["transient"] for s in summary["failed_shards"]), summary["failed_shards"])
        os.rename(away, plain)  # mtime kept: the same shards
        done = self.drive(out, inputs=[plain])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.single_run([plain]))

    def test_an_interrupted_run_resumes_from_its_manifest(self):
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "audits.log")
        # Every audit is logged; the first run's audits of the zstd file hang
        # (in the process the worker started, which dies with the worker:
        # a child of it would be left to run on).
        slow = self.wrapper(f'echo "$*" >> {log}; case "$*" in *--zstd-frames*) exec sleep 60 ;; esac')
        running = self.drive(out, binary=slow, wait=False)
        deadline = time.time() + 120
        while time.time() < deadline:
            if sum("audit" in s for s in shards_in(out).values()) >= 3:
                break
            time.sleep(0.2)
        else:
            self.fail("no shard was audited in time")
        os.killpg(running.pid, signal.SIGKILL)
        running.wait()
        first = read(log).decode().splitlines()
        done_before = sum("audit" in s for s in shards_in(out).values())
        fast = self.wrapper(f'echo "$*" >> {log}')
        done = self.drive(out, binary=fast)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.one)
        # Shard audits (not the renderings, nor the run that reads the
        # reports' headers).
        second = [line for line in read(log).decode().splitlines()[len(first):] if "--keep-results" in line]
        total = len(shards_in(out))
        # Only what was not done is audited again.
        self.assertEqual(len(second), total - done_before, "\n".join(second))

    def test_a_rerun_with_other_options_audits_again(self):
        """The manifest is keyed on the options too: the same --out with
        other rules and a selection redoes every shard, and the joined
        reports are those of one run with those options."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        options = ["--rules", "fide-1994", "--ignore", "info,missing-tag", "--strict-tags"]
        done = self.drive(out, extra=options)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        one = self.single_run(self.inputs, options)
        self.assertNotEqual(one, self.one)
        self.assertEqual(self.joined(out), one)
        self.assertIn(b"FIDE 1994", one[0])
        summary = load(os.path.join(out, "summary.json"))
        self.assertEqual(summary["options"]["forwarded"], options)
        self.assertIn("shards audited", done.stderr)

    def test_a_file_changed_in_place_is_audited_again(self):
        """The manifest is keyed on what a file holds: an input edited with
        its size and time of last change kept is audited again, not taken
        from the parts of the first run."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        edited = os.path.join(out, "edited.pgn")
        data = bytearray(read(self.plain))
        with open(edited, "wb") as f:
            f.write(data)
        done = self.drive(out, inputs=[edited])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        before = self.joined(out)
        st = os.stat(edited)
        # A Result tag: its value is a column of the games report, whatever
        # the movetext around it.
        at = data.index(b'[Result "1-0"]', len(data) // 2)
        data[at:at + 14] = b'[Result "0-1"]'
        with open(edited, "r+b") as f:
            f.write(data)
        os.utime(edited, ns=(st.st_atime_ns, st.st_mtime_ns))
        self.assertEqual((os.stat(edited).st_size, os.stat(edited).st_mtime_ns), (st.st_size, st.st_mtime_ns))
        done = self.drive(out, inputs=[edited])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        one = self.single_run([edited])
        self.assertNotEqual(one, before)
        self.assertEqual(self.joined(out), one)

    def test_games_are_numbered_in_the_join_whatever_the_file_is_called(self):
        """The join finds each row's game number after the file's name, also
        a name the CSV writer quotes (a comma, a quote)."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        odd = os.path.join(out, 'the "odd", name.pgn')
        with open(odd, "wb") as f:
            f.write(read(self.plain))
        done = self.drive(out, inputs=[odd, self.plain])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        one = self.single_run([odd, self.plain])
        self.assertEqual(self.joined(out), one)
        self.assertTrue(b'the ""odd"", name.pgn",200,' in one[1], "the name is quoted")
        self.assertGreater(load(os.path.join(out, "summary.json"))["inputs"][0]["shards"], 10)

    def test_a_file_given_twice_is_audited_twice_as_one_run_does(self):
        out = tempfile.mkdtemp(dir=self.tmp.name)
        inputs = [self.plain, self.zst, self.plain]
        done = self.drive(out, inputs=inputs)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.single_run(inputs))
        self.assertEqual([i["name"] for i in load(os.path.join(out, "summary.json"))["inputs"]], inputs)

    def test_a_shard_that_gave_up_is_audited_on_a_rerun_and_the_later_ones_renumbered(self):
        """A shard in the middle of a file fails for good in the first run:
        the games after it are numbered short by its games, and the summary
        says where the gap is. A rerun audits that shard alone and numbers
        the later shards' games again without auditing them again."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "audits.log")
        broken = self.wrapper(f'echo "$*" >> {log}; case "$*" in *"--bytes 49152.."*) exit 1 ;; esac')
        done = self.drive(out, inputs=[self.plain], binary=broken, retries=0)
        self.assertEqual(done.returncode, 2, done.stderr)
        summary = load(os.path.join(out, "summary.json"))
        [gap] = summary["failed_shards"]
        self.assertEqual(gap["shard"], ["--bytes", "49152..73728"])
        self.assertTrue(gap["transient"])
        first = self.joined(out)
        one = self.single_run([self.plain])
        self.assertLess(len(first[1]), len(one[1]))
        # The game after the gap is numbered after_game + 1.
        rows = first[1].decode().splitlines()
        self.assertEqual(rows[gap["after_game"]].split(",")[1], str(gap["after_game"]))
        self.assertEqual(rows[gap["after_game"] + 1].split(",")[1], str(gap["after_game"] + 1))
        audited_before = len(read(log).decode().splitlines())
        fine = self.wrapper(f'echo "$*" >> {log}')
        done = self.drive(out, inputs=[self.plain], binary=fine)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), one)
        again = [line for line in read(log).decode().splitlines()[audited_before:] if "--keep-results" in line]
        self.assertEqual(len(again), 1, again)
        self.assertIn("--bytes 49152..73728", again[0])
        # Only the parts in use are left.
        shards = load(os.path.join(out, "summary.json"))["shards"]
        self.assertEqual(len(glob.glob(os.path.join(out, "parts", "*.csv"))), 2 * shards)

    def test_parquet_reports_hold_one_run_s_rows(self):
        """--format parquet: the directories findings/ and games/ hold a
        part a shard, in order; read as one dataset they are the rows of one
        run's Parquet reports, game numbers included, with its column types."""
        import pyarrow.parquet as pq

        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out, extra=["--format", "parquet"])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        one = tempfile.mkdtemp(dir=self.tmp.name)
        subprocess.run([ARBITER, "-q", "--fail-on", "never", "--output-format", "parquet",
                        "--findings", os.path.join(one, "f.parquet"), "--games", os.path.join(one, "g.parquet"),
                        *self.inputs], check=True)
        summary = load(os.path.join(out, "summary.json"))
        for name, single in (("findings", "f.parquet"), ("games", "g.parquet")):
            parts = sorted(glob.glob(os.path.join(out, name, "*.parquet")))
            self.assertEqual(len(parts), summary["shards"])
            want = pq.read_table(os.path.join(one, single))
            got = [pq.read_table(part) for part in parts]
            for table in got:
                self.assertEqual(table.schema.remove_metadata(), want.schema.remove_metadata())
            rows = [row for table in got for row in table.to_pylist()]
            self.assertGreater(len(rows), 250)
            self.assertEqual(rows, want.to_pylist(), name)
        self.assertFalse(os.path.exists(os.path.join(out, "games.csv")))
        # A rerun puts the same dataset in place of the first.
        done = self.drive(out, extra=["--format", "parquet"])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(len(glob.glob(os.path.join(out, "games", "*.parquet"))), summary["shards"])
        self.assertEqual(sorted(os.listdir(out)), ["findings", "games", "manifest.jsonl", "parts", "summary.json"])

    def test_shards_are_handed_their_frames_and_number_their_games(self):
        """The driver lists a zstd file once; each shard is handed the bytes
        of its frames, and no pass counts games: shards but the last of an
        input count their lines only, and the join numbers the games."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "calls.log")
        done = self.drive(out, binary=self.logged(log))
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.one)
        calls = read(log).decode().splitlines()
        self.assertEqual([c for c in calls if c.startswith("frames")], [f"frames {self.zst}"])
        audits = [c for c in calls if "--keep-results" in c]
        counts = [c for c in calls if "--count" in c]
        self.assertGreater(len(audits), 10)
        self.assertFalse([c for c in calls if "--count " in c])
        self.assertFalse([c for c in audits + counts if "--game-offset" in c])
        # One look across the shards, then a rendering a shard.
        self.assertEqual(len([c for c in calls if c.startswith("across ")]), 1)
        self.assertEqual(len([c for c in calls if "--render" in c]), len(audits))
        for call in audits + counts:
            self.assertEqual("--zstd-frames" in call, "--frame-bytes" in call, call)
        # Every shard but the last of each input has its lines counted.
        self.assertEqual(len(counts), len(audits) - len(self.inputs))
        self.assertTrue(all(c.startswith("--count-lines") for c in counts), counts)

    def test_relative_paths_are_read_from_where_the_driver_started(self):
        """Inputs and --out relative to the driver's directory: the reports
        name the inputs as given, as one run started there does."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        names = [os.path.basename(p) for p in self.inputs]
        done = self.drive(os.path.relpath(out, self.tmp.name), inputs=names, cwd=self.tmp.name)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        findings = os.path.join(out, "f.csv")
        subprocess.run([ARBITER, "-q", "--fail-on", "never", "--findings", findings,
                        "--games", os.path.join(out, "g.csv"), *names], check=True, cwd=self.tmp.name)
        self.assertEqual(self.joined(out), (read(findings), read(os.path.join(out, "g.csv"))))

    def test_what_cannot_run_exits_2_and_says_why(self):
        out = tempfile.mkdtemp(dir=self.tmp.name)
        missing = os.path.join(self.tmp.name, "missing.pgn")
        inside = os.path.join(out, "games.csv")
        with open(inside, "wb") as f:
            f.write(read(self.plain))
        cases = [
            (dict(extra=["--workers", "0"]), "--workers"),
            (dict(extra=["--shard-size", "-1"]), "--shard-size"),
            (dict(extra=["--shard-size", "0"]), "--shard-size"),
            (dict(inputs=[self.plain, missing]), "missing.pgn: not a file"),
            (dict(binary=missing), "no pgn-arbiter at"),
            (dict(extra=["--wheel", missing]), "--wheel"),
            (dict(inputs=[inside]), "would write over it"),
        ]
        for kwargs, said in cases:
            done = self.drive(tempfile.mkdtemp(dir=self.tmp.name) if "inputs" not in kwargs
                              or kwargs["inputs"] != [inside] else out, **kwargs)
            self.assertEqual(done.returncode, 2, (kwargs, done.stderr))
            self.assertIn(said, done.stderr, kwargs)
        self.assertEqual(read(inside), read(self.plain))
        # A manifest that is not one: exit 2, and nothing else is touched.
        with open(os.path.join(out, "manifest.jsonl"), "w") as f:
            f.write("{not json\n{}\n")
        done = self.drive(out)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("manifest.jsonl:1", done.stderr)


    def test_an_out_that_would_write_over_an_input_is_refused(self):
        """--out that is an input, or lies under one, or whose reports,
        manifest or parts would land on an input (by its path, through a
        symlink, or as another name of the same file): exit 2 with one line
        naming the input and --out, before anything is written."""
        base = tempfile.mkdtemp(dir=self.tmp.name)
        data = read(self.plain)

        def made(*names):
            path = os.path.join(base, *names)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            return path

        def tree():
            return sorted((d, n, os.lstat(os.path.join(d, n)).st_size, os.lstat(os.path.join(d, n)).st_mtime_ns)
                          for d, dirs, files in os.walk(base) for n in dirs + files)

        cases = []
        given = made("given.pgn")
        cases.append((given, [given]))  # --out is the input
        cases.append((os.path.join(given, "out"), [given]))  # --out under it
        # The manifest, appended to in place, is another name of the input.
        out = os.path.join(base, "linked")
        os.makedirs(out)
        os.link(given, os.path.join(out, "manifest.jsonl"))
        cases.append((out, [given]))
        # An input in the parts, given by a symlink from outside.
        inside = made("parts-out", "parts", "x.pgn")
        link = os.path.join(base, "link.pgn")
        os.symlink(inside, link)
        cases.append((os.path.join(base, "parts-out"), [self.plain, link]))
        # --out given through a symlinked directory; the input is its summary.
        summary = made("real-out", "summary.json")
        os.symlink(os.path.join(base, "real-out"), os.path.join(base, "out-link"))
        cases.append((os.path.join(base, "out-link"), [summary]))
        # A part that is another name of the input.
        os.makedirs(os.path.join(base, "hard-out", "parts"))
        os.link(given, os.path.join(base, "hard-out", "parts", "old.results"))
        cases.append((os.path.join(base, "hard-out"), [given]))
        for out, inputs in cases:
            before = tree()
            done = self.drive(out, inputs=inputs)
            self.assertEqual(done.returncode, 2, (out, inputs, done.stderr))
            self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
            self.assertIn("would write over it", done.stderr)
            self.assertIn(f"--out {os.path.abspath(out)}", done.stderr)
            self.assertTrue(any(i in done.stderr for i in inputs), done.stderr)
            self.assertEqual(tree(), before, (out, inputs))
            self.assertEqual(read(given), data)

    def test_reports_and_summary_are_made_as_any_new_file(self):
        """The reports and the summary take the mode a new file takes under
        the driver's umask (0640 under 027), not the 0600 of a temporary
        file; with --format parquet, so do the reports' directories."""
        for form in ("csv", "parquet"):
            out = tempfile.mkdtemp(dir=self.tmp.name)
            done = self.drive(out, extra=["--format", form], umask=0o027)
            self.assertIn(done.returncode, (0, 1), done.stderr)
            names = ["findings.csv", "games.csv"] if form == "csv" else ["findings", "games"]
            for name in names + ["summary.json", "manifest.jsonl"]:
                mode = os.stat(os.path.join(out, name)).st_mode & 0o777
                want = 0o750 if os.path.isdir(os.path.join(out, name)) else 0o640
                self.assertEqual(oct(mode), oct(want), (form, name))

    def logged(self, log):
        """A pgn-arbiter that logs each call to `log`."""
        path = tempfile.mktemp(dir=self.tmp.name, suffix=".sh")
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\necho "$*" >> {log}\nexec {ARBITER} "$@"\n')
        os.chmod(path, 0o755)
        return path

    @staticmethod
    def calls(log, start=0):
        """The shards audited and rendered in the calls logged from line
        `start` on: each by its id, the name of its parts."""
        lines = read(log).decode().splitlines()[start:]
        def ids(flag):
            return [os.path.basename(line.split(f"{flag} ", 1)[1].split(" ", 1)[0]).split(".")[0]
                    for line in lines if f"{flag} " in line]
        return ids("--keep-results"), ids("--render")

    def test_parts_changed_since_they_were_made_are_made_again(self):
        """Each part's size and SHA-256 are in the manifest: on a rerun a
        games report emptied, a findings report with a byte changed (same
        size) and a kept results file cut short are not taken as done, but
        rendered or audited again, and the joined reports are one run's."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "calls.log")
        done = self.drive(out, binary=self.logged(log))
        self.assertIn(done.returncode, (0, 1), done.stderr)
        shards = shards_in(out)
        with_findings = [s for s, r in shards.items() if os.path.getsize(r["rendered"]["findings"]) > 100]
        emptied, edited, cut = with_findings[:3]
        open(shards[emptied]["rendered"]["games"], "wb").close()
        with open(shards[edited]["rendered"]["findings"], "r+b") as f:
            f.seek(40)
            byte = f.read(1)
            f.seek(40)
            f.write(b"x" if byte != b"x" else b"y")
        with open(shards[cut]["audit"]["results"], "r+b") as f:
            f.truncate(10)
        start = len(read(log).decode().splitlines())
        done = self.drive(out, binary=self.logged(log))
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.one)
        self.assertTrue(load(os.path.join(out, "summary.json"))["complete"])
        audited, rendered = self.calls(log, start)
        self.assertEqual(audited, [cut])
        self.assertEqual(sorted(set(rendered) & {emptied, edited}), sorted({emptied, edited}), rendered)

    def test_a_part_changed_before_the_join_stops_it(self):
        """A part that changes after it was checked, as the join comes to
        read it: exit 2, naming the file and what differs."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        log = os.path.join(out, "calls.log")
        done = self.drive(out, binary=self.logged(log))
        self.assertIn(done.returncode, (0, 1), done.stderr)
        shards = shards_in(out)
        # The zstd file's last shard is the last whose rendering is
        # checked: it is rendered again (its games report is gone), after
        # the first shard's was checked and kept, and changes that one.
        audits = [line for line in read(log).decode().splitlines() if "--keep-results" in line]
        last = max((line for line in audits if "--zstd-frames" in line),
                   key=lambda line: int(line.split("--zstd-frames ", 1)[1].split("..", 1)[0]))
        last = os.path.basename(last.split("--keep-results ", 1)[1].split(" ", 1)[0]).split(".")[0]
        first = next(s for s, r in shards.items() if s != last and os.path.getsize(r["rendered"]["games"]) > 100)
        os.remove(shards[last]["rendered"]["games"])
        changed = shards[first]["rendered"]["games"]
        byte = "y" if read(changed)[20:21] == b"x" else "x"
        binary = tempfile.mktemp(dir=self.tmp.name, suffix=".sh")
        with open(binary, "w") as f:
            f.write(f'#!/bin/sh\ncase "$*" in *--render*) {ARBITER} "$@"; s=$?; '
                    f'printf {byte} | dd of={changed} bs=1 seek=20 conv=notrunc 2>/dev/null; exit $s ;; esac\n'
                    f'exec {ARBITER} "$@"\n')
        os.chmod(binary, 0o755)
        done = self.drive(out, binary=binary)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(changed, done.stderr)
        self.assertIn("SHA-256", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "summary.json")))

    def test_a_manifest_naming_a_file_outside_the_parts_is_refused(self):
        """A manifest line edited to name a file outside --out's parts/
        (with that file's size and SHA-256), directly or through a symlink
        in parts/: exit 2 naming the line; the file is neither joined nor
        removed."""
        import hashlib

        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out)
        self.assertIn(done.returncode, (0, 1), done.stderr)
        secret = os.path.join(self.tmp.name, "secret.txt")
        with open(secret, "wb") as f:
            f.write(b"not a report: a secret\n")
        sums = {"size": os.path.getsize(secret), "sha256": hashlib.sha256(read(secret)).hexdigest()}
        link = os.path.join(out, "parts", "evil.findings.csv")
        os.symlink(secret, link)
        manifest = os.path.join(out, "manifest.jsonl")
        kept = read(manifest)
        shard, record = next(iter(shards_in(out).items()))
        for path in (secret, link):
            rendered = dict(record["rendered"], findings=path,
                            sums=dict(record["rendered"]["sums"], findings=sums))
            with open(manifest, "wb") as f:
                f.write(kept + json.dumps({"shard": shard, "rendered": rendered}).encode() + b"\n")
            number = kept.count(b"\n") + 1
            done = self.drive(out)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn(f"manifest.jsonl:{number}", done.stderr)
            self.assertNotIn(b"a secret", read(os.path.join(out, "findings.csv")))
            self.assertEqual(read(secret), b"not a report: a secret\n")

    def test_a_join_that_stops_leaves_nothing_that_looks_whole(self):
        """A rerun whose join stops (exit 2: here each shard's games report
        is emptied as it is rendered, so the rows do not add up) leaves no
        summary and no reports of an earlier run, CSV or Parquet, that
        could be taken for this run's."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        for form in ("csv", "parquet"):
            done = self.drive(out, extra=["--format", form])
            self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertTrue(load(os.path.join(out, "summary.json"))["complete"])
        binary = tempfile.mktemp(dir=self.tmp.name, suffix=".sh")
        with open(binary, "w") as f:
            f.write(f'#!/bin/sh\n{ARBITER} "$@"; s=$?\ncase "$*" in *--render*) p=; for a in "$@"; do '
                    f'[ "$p" = --games ] && : > "$a"; p=$a; done ;; esac\nexit $s\n')
        os.chmod(binary, 0o755)
        done = self.drive(out, binary=binary, extra=["--ignore", "missing-tag"])
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("rows in its games report", done.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["manifest.jsonl", "parts"])

    def test_a_worker_killed_in_a_shard_leaves_no_pgn_arbiter_running(self):
        """The pgn-arbiter a worker started dies with the worker: one that
        hangs in a shard (here on a pipe that no one writes) when its
        worker is killed is not left running; the shard is retried
        elsewhere and the joined reports are one run's."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        mark, started = os.path.join(out, "killed"), os.path.join(out, "started")
        pipe = os.path.join(self.tmp.name, f"pipe-{os.getpid()}")
        if not os.path.exists(pipe):
            os.mkfifo(pipe)
        # The first audit of the third byte shard hangs, its pid and its
        # worker's written down.
        binary = self.wrapper(f'case "$*" in *"--bytes 49152.."*) [ -e {mark} ] || {{ touch {mark}; '
                              f'echo $$ $PPID > {started}.tmp; mv {started}.tmp {started}; '
                              f'exec {ARBITER} -q {pipe}; }} ;; esac')
        running = self.drive(out, binary=binary, wait=False)
        self.addCleanup(lambda: running.poll() is None and os.killpg(running.pid, signal.SIGKILL))
        deadline = time.time() + 120
        while not os.path.exists(started) and time.time() < deadline:
            time.sleep(0.1)
        child, worker = map(int, read(started).split())

        def leftover():
            if alive(child):
                os.kill(child, signal.SIGKILL)
        self.addCleanup(leftover)
        with open(f"/proc/{child}/cmdline", "rb") as f:
            self.assertIn(pipe.encode(), f.read())
        os.kill(worker, signal.SIGKILL)
        deadline = time.time() + 10
        while alive(child) and time.time() < deadline:
            time.sleep(0.1)
        self.assertFalse(alive(child), "the killed worker's pgn-arbiter is still running")
        self.assertIn(running.wait(timeout=300), (0, 1))
        self.assertEqual(self.joined(out), self.one)

    def test_a_report_that_cannot_be_written_stops_the_run_with_no_summary(self):
        """A joined report that cannot be written (here: larger than the
        driver may write a file, where every part fits) is exit 2 naming
        it, with no summary and no report or temporary file left; so is an
        earlier summary that cannot be removed."""
        import resource

        def small_files():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))

        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out, inputs=[self.plain], preexec_fn=small_files)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(os.path.join(out, "findings.csv"), done.stderr)
        self.assertIn("File too large", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["manifest.jsonl", "parts"])
        # A directory where the summary goes: the earlier summary cannot
        # be removed, nor this run's put in place.
        os.makedirs(os.path.join(out, "summary.json", "kept"))
        done = self.drive(out, inputs=[self.plain])
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(os.path.join(out, "summary.json"), done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["manifest.jsonl", "parts", "summary.json"])
        self.assertEqual(os.listdir(os.path.join(out, "summary.json")), ["kept"])

    def test_a_manifest_line_cut_short_is_dropped_before_lines_are_added(self):
        """A last line cut short (a crash while it was written) is ignored
        and cut off, so that the lines a rerun appends start lines of their
        own and a second rerun reads them."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(out, inputs=[self.plain])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        manifest = os.path.join(out, "manifest.jsonl")
        shard = next(iter(shards_in(out)))
        with open(manifest, "ab") as f:
            f.write(b'{"shard": "' + shard.encode() + b'", "rende')
        for options in (["--ignore", "missing-tag"], []):
            done = self.drive(out, inputs=[self.plain], extra=options)
            self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertEqual(self.joined(out), self.single_run([self.plain]))

    def test_a_baseline_changed_since_the_last_run_renders_again(self):
        """The renderings are keyed on what the --baseline holds, not only
        its name: a rerun after it changed renders every shard again, and
        its reports are a fresh run's with the changed baseline."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        baseline = os.path.join(self.tmp.name, "baseline.csv")
        rows = self.one[0].split(b"\n")
        with open(baseline, "wb") as f:
            f.write(b"\n".join(rows[:len(rows) // 2]) + b"\n")
        done = self.drive(out, extra=["--baseline", baseline])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        first = self.joined(out)
        with open(baseline, "wb") as f:
            f.write(b"\n".join(rows[:len(rows) // 4]) + b"\n")
        done = self.drive(out, extra=["--baseline", baseline])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        fresh = tempfile.mkdtemp(dir=self.tmp.name)
        done = self.drive(fresh, extra=["--baseline", baseline])
        self.assertIn(done.returncode, (0, 1), done.stderr)
        self.assertNotEqual(self.joined(fresh), first)
        self.assertEqual(self.joined(out), self.joined(fresh))

    def test_a_baseline_the_reports_would_replace_is_refused(self):
        """--baseline is read by the run too: one that is the findings
        report --out would write is refused as an input is."""
        out = tempfile.mkdtemp(dir=self.tmp.name)
        baseline = os.path.join(out, "findings.csv")
        with open(baseline, "wb") as f:
            f.write(self.one[0])
        done = self.drive(out, extra=["--baseline", baseline])
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("--baseline", done.stderr)
        self.assertIn("would write over it", done.stderr)
        self.assertEqual(os.listdir(out), ["findings.csv"])


class Children(unittest.TestCase):
    """The driver's own handling of the pgn-arbiter processes it starts."""

    def test_a_task_that_stops_kills_its_child_s_process_group(self):
        """A task stopped while its pgn-arbiter runs (an exception, here a
        KeyboardInterrupt in the wait) kills the child's whole process
        group, not the child alone, before the exception goes on."""
        spec = util.spec_from_file_location("audit", os.path.join(HERE, "audit.py"))
        audit = util.module_from_spec(spec)
        spec.loader.exec_module(audit)
        with tempfile.TemporaryDirectory() as tmp:
            pids = os.path.join(tmp, "pids")

            def stopped(child, *args, **kwargs):
                deadline = time.time() + 30
                while not os.path.exists(pids) and time.time() < deadline:
                    time.sleep(0.05)
                raise KeyboardInterrupt

            with mock.patch.object(subprocess.Popen, "communicate", stopped), self.assertRaises(KeyboardInterrupt):
                audit.run_child(["sh", "-c", f"sleep 60 & echo $$ $! > {pids}.tmp; mv {pids}.tmp {pids}; wait"])
            shell, sleeper = map(int, read(pids).split())
            deadline = time.time() + 10
            while (alive(shell) or alive(sleeper)) and time.time() < deadline:
                time.sleep(0.05)
            if alive(sleeper):
                os.kill(sleeper, signal.SIGKILL)
                self.fail("the child's own child is still running")
            self.assertFalse(alive(shell))

if __name__ == "__main__":
    unittest.main()
