"""The Python module against the command line built by cargo: the same
findings, row for row, on every fixture; the same games rows, summary and
messages; streaming in bounded memory; the installed `pgn-arbiter` command.

    PGN_ARBITER=target/debug/pgn-arbiter python -m pytest python/tests

with the wheel installed (scripts/test_wheel.sh builds it, installs it in a
fresh venv and runs these).
"""

import csv
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import warnings

import chess.pgn
import pandas
import pytest

import pgn_arbiter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "fixtures")
ARBITER = os.path.abspath(os.environ.get("PGN_ARBITER", os.path.join(ROOT, "target", "debug", "pgn-arbiter")))
INPUTS = sorted(
    os.path.relpath(p, FIXTURES)
    for p in glob.glob(os.path.join(FIXTURES, "**", "*.pgn*"), recursive=True)
    if os.path.isfile(p) and not p.endswith(".fixed")
)


def cli(*args, cwd=FIXTURES):
    """The cargo-built command line's findings (JSON lines), exit status
    and standard error."""
    done = subprocess.run(
        [ARBITER, "--isolated", "-q", "--output-format", "json-lines", *args],
        cwd=cwd,
        capture_output=True,
    )
    rows = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return rows, done.returncode, done.stderr.decode()


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    monkeypatch.chdir(FIXTURES)


def test_there_are_fixtures_of_every_compression():
    assert len(INPUTS) >= 80
    assert any(p.endswith(".gz") for p in INPUTS) and any(p.endswith(".zst") for p in INPUTS)


@pytest.mark.parametrize("path", INPUTS)
def test_the_same_findings_as_the_command_line(path):
    expected, status, _ = cli(path)
    run = pgn_arbiter.audit(path)
    try:
        got = list(run)
    except pgn_arbiter.AuditError:
        assert status == 2
        return
    assert got == expected
    assert run.status == status


def test_every_fixture_at_once_with_options():
    """All fixtures in one run (copies across files, rounds), with a
    selection, another rule edition and one thread."""
    expected, status, _ = cli("--ignore", "info,missing-tag", "--rules", "fide-1994", "-j", "1", *INPUTS)
    run = pgn_arbiter.audit(INPUTS, ignore=["info", "missing-tag"], rules="fide-1994", jobs=1)
    assert list(run) == expected
    assert len(expected) > 300
    assert run.status == status == 1


def test_text_is_audited_as_a_file_is(tmp_path):
    text = open(os.path.join(FIXTURES, "sample.pgn"), encoding="utf-8").read()
    as_file, _, _ = cli("sample.pgn")
    as_text = list(pgn_arbiter.audit(text, name="sample.pgn"))
    assert as_text == as_file
    assert list(pgn_arbiter.audit(text.encode(), name="sample.pgn")) == as_file


def test_games_rows_are_the_games_report():
    done = subprocess.run(
        [ARBITER, "--isolated", "-q", "--raw-csv", "--findings", "/dev/null", "--games", "-", "sample.pgn"],
        cwd=FIXTURES,
        capture_output=True,
    )
    expected = list(csv.DictReader(io.StringIO(done.stdout.decode())))
    got = list(pgn_arbiter.audit_games("sample.pgn"))
    assert len(got) == 12
    counts = ("game", "line", "plies", "errors", "warnings", "infos")
    for row, written in zip(got, expected):
        assert {c: str(v) if c in counts else v for c, v in row.items()} == written
        assert all(type(row[c]) is int for c in counts), row
    # As a pandas user gets them: the counts are integer columns.
    frame = pandas.DataFrame(got)
    assert all(str(frame[c].dtype) == "int64" for c in counts), frame.dtypes
    assert frame.errors.sum() == sum(int(r["errors"]) for r in expected) > 0


def test_status_and_summary_are_the_command_line_s(tmp_path):
    summary = tmp_path / "summary.json"
    _, status, _ = cli("--summary", str(summary), "sample.pgn")
    run = pgn_arbiter.audit("sample.pgn")
    assert run.status is None and run.summary is None
    list(run)
    assert run.status == status == 1
    expected = json.loads(summary.read_text())
    for volatile in ("elapsed_seconds", "games_per_second", "options"):
        expected.pop(volatile)
        run.summary.pop(volatile)
    assert run.summary == expected


def test_a_python_chess_game_is_audited_as_its_pgn():
    with open(os.path.join(FIXTURES, "sample.pgn"), encoding="utf-8") as f:
        games = [g for g in iter(lambda: chess.pgn.read_game(f), None)]
    assert len(games) == 12
    found = 0
    for game in games:
        if game.errors:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = pgn_arbiter.audit_game(game)
        assert got == list(pgn_arbiter.audit(str(game) + "\n", name="<game>"))
        found += len(got)
    assert found > 0


def test_a_python_chess_game_that_lost_what_was_written_is_not_audited_as_if_whole():
    """python-chess stops at an illegal move (game 12 of the sample) and
    fills in a missing roster tag: the Game is refused, or warned of, and
    its text gives both findings."""
    with open(os.path.join(FIXTURES, "sample.pgn"), encoding="utf-8") as f:
        games = [g for g in iter(lambda: chess.pgn.read_game(f), None)]
    last = games[11]
    assert last.errors
    with pytest.raises(pgn_arbiter.UsageError, match="pass the game's PGN text"):
        pgn_arbiter.audit_game(last)
    # Round is missing from game 12; python-chess wrote '?' for it.
    last.errors.clear()
    with pytest.warns(UserWarning, match="Round hold what python-chess writes for a tag the PGN lacks"):
        pgn_arbiter.audit_game(last)
    text = open(os.path.join(FIXTURES, "sample.pgn"), encoding="utf-8").read()
    twelfth = [g for g in re.split(r'(?m)^(?=\[Event ")', text) if g.strip()][11]
    codes = sorted(f["code"] for f in pgn_arbiter.audit_game(twelfth))
    assert codes == ["illegal-move", "missing-tag"]


def test_usage_errors_carry_the_command_line_s_message():
    _, status, err = cli("--select", "bogus-code", "sample.pgn")
    assert status == 2
    with pytest.raises(pgn_arbiter.UsageError) as raised:
        pgn_arbiter.audit("sample.pgn", select=["bogus-code"])
    assert str(raised.value) in err and "did you mean" in str(raised.value)
    with pytest.raises(ValueError, match="fide-1800"):
        pgn_arbiter.audit("sample.pgn", rules="fide-1800")


def test_an_unreadable_input_raises_after_the_others_findings():
    expected, status, err = cli("sample.pgn", "missing.pgn")
    assert status == 2
    run = pgn_arbiter.audit(["sample.pgn", "missing.pgn"])
    got = []
    with pytest.raises(pgn_arbiter.AuditError) as raised:
        for row in run:
            got.append(row)
    assert got == expected and len(got) == 14
    assert run.status == 2
    assert f"pgn-arbiter: {raised.value}" in err


def test_stopping_early_ends_the_run(tmp_path):
    """Closing a run stops the audit where it is, also when it has nothing
    to report (no row to fail to write), far sooner than it would end."""
    big = tmp_path / "clean.pgn"
    big.write_bytes(CLEAN * 600_000)
    started = time.monotonic()
    assert list(pgn_arbiter.audit(str(big), duplicates=False)) == []
    whole = time.monotonic() - started
    run = pgn_arbiter.audit(str(big), duplicates=False)
    started = time.monotonic()
    run.close()
    stopped = time.monotonic() - started
    # Closed before its end: part of the input was read, which is no
    # clean run.
    assert run.status == 2 and run.summary["complete"] is False
    assert stopped < whole / 4, (stopped, whole)
    # Leaving the loop early stops it too.
    sample = open(os.path.join(FIXTURES, "sample.pgn"), "rb").read()
    run = pgn_arbiter.audit(sample * 2000, name="many.pgn")
    for row in run:
        break
    del row
    run.close()
    assert run.status == 2 and run.summary["complete"] is False
    # Closed inside the loop: the rows already read come, then the loop
    # ends without an error.
    run = pgn_arbiter.audit(sample * 200, name="many.pgn")
    for n, row in enumerate(run):
        if n == 1:
            run.close()
    assert run.status == 2 and run.summary["complete"] is False
    # Read to its end, then closed: the run's own status.
    with pgn_arbiter.audit(sample, name="sample.pgn") as run:
        list(run)
    assert run.status == 1 and run.summary["complete"] is True


CLEAN = b"""[Event "Club"]
[Site "Here"]
[Date "2026.12.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

"""


def test_other_python_threads_run_while_it_audits(tmp_path):
    """The audit waits for its rows without the GIL: while it reads games
    with nothing to report, a thread that ticks every millisecond keeps
    ticking (holding the GIL in the wait, it would not tick at all)."""
    big = tmp_path / "clean.pgn"
    big.write_bytes(CLEAN * 300_000)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    started = time.monotonic()
    try:
        count = sum(1 for _ in pgn_arbiter.audit(str(big), duplicates=False))
    finally:
        elapsed = time.monotonic() - started
        stop.set()
        ticker.join()
    assert count == 0
    assert elapsed > 0.1
    # At least a third of the ticks it would make alone.
    assert len(ticks) >= elapsed / 0.001 / 3, (len(ticks), elapsed)


# The peak is read from VmHWM, this program's own: getrusage's maxrss keeps
# the peak of the process it was forked from (pytest) across exec.
STREAM = """
import re, sys, pgn_arbiter
n = sum(1 for _ in pgn_arbiter.audit(sys.argv[1], duplicates=False))
print(n, re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
"""


def test_a_100_mb_input_streams_in_bounded_memory(tmp_path):
    big = tmp_path / "big.pgn"
    sample = open(os.path.join(FIXTURES, "sample.pgn"), "rb").read()
    copies = 100_000_000 // len(sample) + 1
    with open(big, "wb") as f:
        for _ in range(copies):
            f.write(sample)
    assert big.stat().st_size >= 100_000_000
    done = subprocess.run([sys.executable, "-c", STREAM, str(big)], capture_output=True, check=True)
    count, peak_kib = map(int, done.stdout.split())
    expected = subprocess.run(
        [ARBITER, "--isolated", "-q", "--no-duplicates", "--output-format", "json-lines", str(big)],
        capture_output=True,
    ).stdout.count(b"\n")
    assert count == expected == copies * 14
    # The Python interpreter, the module and the run: far below the input.
    assert peak_kib < 100 * 1024, f"peak {peak_kib} KiB"


def test_the_installed_command_is_the_command_line(tmp_path):
    command = shutil.which("pgn-arbiter", path=os.path.dirname(sys.executable))
    assert command, "the package installs pgn-arbiter beside its python"
    ours = subprocess.run([command, "sample.pgn"], cwd=FIXTURES, capture_output=True)
    cargo = subprocess.run([ARBITER, "sample.pgn"], cwd=FIXTURES, capture_output=True)
    assert ours.returncode == cargo.returncode == 1
    assert ours.stdout == cargo.stdout and len(ours.stdout) > 1000
    version = subprocess.run([command, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout == subprocess.run([ARBITER, "--version"], capture_output=True, text=True).stdout


def test_the_version_is_the_crate_s():
    cargo = open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8").read()
    version = re.search(r'\[workspace\.package\]\s*version = "([^"]+)"', cargo).group(1)
    assert pgn_arbiter.__version__ == version


def test_the_readme_s_notebook_example(monkeypatch, capsys):
    """The README's Python block runs, and counts the findings by code as
    the command line does."""
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) == 2
    monkeypatch.chdir(ROOT)
    exec(compile(blocks[0], "README.md", "exec"), {})
    printed = capsys.readouterr().out
    expected, _, _ = cli("sample.pgn")
    for code in {row["code"] for row in expected}:
        count = sum(row["code"] == code for row in expected)
        assert re.search(rf"{re.escape(code)}\s+{count}\b", printed), (code, count, printed)


def test_the_readme_s_duckdb_example(tmp_path, monkeypatch, capsys):
    """The README's Parquet command, run by the wheel's command, and its
    DuckDB block, which counts the findings by code as the cargo-built
    command line's CSV has them."""
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    [command] = re.findall(r"```sh\n(pgn-arbiter --output-format parquet .*?)\n```", readme, re.S)
    script = shutil.which("pgn-arbiter", path=os.path.dirname(sys.executable))
    args = command.split()[1:]
    args[-1] = os.path.join(ROOT, args[-1])
    done = subprocess.run([script, "--isolated", *args], cwd=tmp_path, capture_output=True)
    assert done.returncode == 1, done.stderr
    monkeypatch.chdir(tmp_path)
    exec(compile(re.findall(r"```python\n(.*?)```", readme, re.S)[1], "README.md", "exec"), {})
    printed = capsys.readouterr().out
    expected, _, _ = cli(os.path.join(ROOT, "fixtures"))
    for code in {row["code"] for row in expected}:
        count = sum(row["code"] == code for row in expected)
        assert re.search(rf"^ *{count} {re.escape(code)}$", printed, re.M), (code, count, printed)


def test_parquet_reports_read_by_duckdb_are_the_csv_reports(tmp_path):
    """DuckDB reads the Parquet reports the wheel's command writes as the
    rows, typed, of the CSV reports the cargo-built one writes with
    --raw-csv (text as the input has it), Python's csv module reading
    those."""
    import duckdb

    script = shutil.which("pgn-arbiter", path=os.path.dirname(sys.executable))
    fixtures = os.path.join(ROOT, "fixtures")
    common = ["--isolated", "-q", "--fail-on", "never"]
    subprocess.run([script, *common, "--output-format", "parquet", "--findings", "f.parquet",
                    "--games", "g.parquet", fixtures], cwd=tmp_path, check=True)
    subprocess.run([ARBITER, *common, "--raw-csv", "--findings", "f.csv", "--games", "g.csv", fixtures],
                   cwd=tmp_path, check=True)
    for name, numbers in (("f", {"game", "line", "ply"}),
                          ("g", {"game", "line", "plies", "errors", "warnings", "infos"})):
        with open(tmp_path / f"{name}.csv", encoding="utf-8", newline="") as f:
            header, *want = list(csv.reader(f))
        table = duckdb.sql(f"SELECT * FROM '{tmp_path / name}.parquet'")
        assert table.columns == header
        for column, kind in zip(table.columns, table.types):
            assert str(kind) == ("UBIGINT" if column in numbers and column != "ply" else
                                 "UINTEGER" if column == "ply" else "VARCHAR"), (column, kind)
        got = [["" if cell is None else str(cell) for cell in row] for row in table.fetchall()]
        assert len(want) > 250
        assert got == want
