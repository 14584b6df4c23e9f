"""pgn-arbiter from Python: audit PGN files or text, and read the findings
as they are found.

    import pgn_arbiter

    for finding in pgn_arbiter.audit("games.pgn", ignore=["info"]):
        print(finding["game"], finding["code"], finding["message"])

The audit is the command line's own, run in a thread of its own while
Python reads: the same checks, the same findings row for row, the same
messages. Findings are dicts with the columns of the command line's
findings report (``file``, ``game``, ``line``, ``severity``, ``code``,
``rule``, ``message``, ...); docs/reports.md in the repository describes
each. Memory stays flat however large the input.

Unlike the command line, the functions read no settings file unless one is
named (``settings=``): what a script asks for does not depend on the
directory it runs in.
"""

from __future__ import annotations

import csv
import json
import os
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _native
from ._native import AuditError, UsageError

__all__ = ["Audit", "AuditError", "UsageError", "__version__", "audit", "audit_game", "audit_games"]

__version__: str = _native.version()

Source = Union[str, bytes, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


class Audit:
    """The rows of one audit, in the order the command line writes them:
    iterate over it (once). When the iteration has ended, ``status`` is the
    command line's exit status (0 clean, 1 findings at or above
    ``fail_on``, 2 trouble) and ``summary`` the command line's
    ``--summary`` as a dict. A run closed before its end (``close()``, a
    ``with`` block left early) read only part of its input: its status is
    2 and its summary's ``complete`` is false. An input that could not be
    read raises :class:`AuditError` at the end, after every row that was
    found.
    """

    def __init__(self, run: Any, games: bool) -> None:
        self._run = run
        self._games = games
        self.status: Optional[int] = None
        self.summary: Optional[Dict[str, Any]] = None

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self._rows()

    def __enter__(self) -> "Audit":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops the audit if it is still running (reading stops early) and
        waits for it; ``status`` and ``summary`` are then set."""
        self._run.close()
        self._ended()

    def _ended(self) -> None:
        self.status = self._run.status
        text = self._run.summary
        self.summary = json.loads(text) if text else None
        # Closed early: what it found is of part of the input, not clean.
        if self.summary is not None and self.summary.get("complete") is False:
            self.status = 2

    def _lines(self) -> Iterator[str]:
        while True:
            chunk = self._run.next_chunk()
            if chunk is None:
                break
            # Chunks end at line ends; a CSV row may still span lines.
            yield from chunk.decode("utf-8").splitlines(keepends=True)
        self._finish()

    def _rows(self) -> Iterator[Dict[str, Any]]:
        try:
            if self._games:
                reader = csv.reader(self._lines())
                header = next(reader, None)
                for row in reader:
                    yield {
                        column: (int(value) if value else None) if column in _INTEGERS else value
                        for column, value in zip(header or [], row)
                    }
            else:
                for line in self._lines():
                    yield json.loads(line)
        finally:
            self._run.close()

    def _finish(self) -> None:
        self._ended()
        # Trouble of the run's own, not a close() while iterating.
        if self._run.status != 2:
            return
        problems = [
            f"{i['name']}: {i['problem']}"
            for i in (self.summary or {}).get("inputs", [])
            if i.get("problem")
        ]
        raise AuditError(
            "\n".join(problems) or "the audit could not finish (the messages are on standard error)"
        )


def audit(
    source: Source,
    *,
    select: Optional[Sequence[str]] = None,
    ignore: Optional[Sequence[str]] = None,
    fail_on: Optional[str] = None,
    rules: Optional[str] = None,
    winnability: Optional[str] = None,
    strict_tags: bool = False,
    duplicates: bool = True,
    variations: bool = True,
    baseline: Optional[Union[str, "os.PathLike[str]"]] = None,
    trf: Optional[Union[str, "os.PathLike[str]"]] = None,
    memory_limit: Optional[str] = None,
    jobs: Optional[int] = None,
    settings: Optional[Union[str, "os.PathLike[str]"]] = None,
    name: str = "<text>",
) -> Audit:
    """Audits ``source`` and returns its findings as they are found.

    ``source`` is PGN text (``bytes``, or a ``str`` with a line break in it,
    reported under ``name``), or a path, or several (files, directories,
    compressed files: whatever the command line reads). The options are
    the command line's flags: ``select``, ``ignore`` (codes, severities or
    categories), ``fail_on``, ``rules`` (``"fide-2023"``, ``"fide-1994"``,
    ...), ``winnability``, ``strict_tags``, ``duplicates`` and
    ``variations`` (``False`` is ``--no-duplicates``, ``--no-variations``),
    ``baseline``, ``trf``, ``memory_limit``, ``jobs``, and ``settings``
    (a settings file; none is read otherwise).

    Options the command line would refuse raise :class:`UsageError` with
    its message, before anything runs.
    """
    args = _arguments(
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        rules=rules,
        winnability=winnability,
        strict_tags=strict_tags,
        duplicates=duplicates,
        variations=variations,
        baseline=baseline,
        trf=trf,
        memory_limit=memory_limit,
        jobs=jobs,
        settings=settings,
    )
    return _start(source, args + ["--output-format", "json-lines"], "findings", name)


def audit_games(source: Source, **options: Any) -> Audit:
    """Audits ``source`` as :func:`audit` does (with the same options) and
    returns one row a game instead of the findings: the columns of the
    command line's games report (``--games``), the counts as integers
    (``game``, ``line``, ``plies``, and ``errors``, ``warnings`` and
    ``infos``, which count the game's findings), the text as written
    there."""
    name = options.pop("name", "<text>")
    return _start(source, _arguments(**options) + ["--raw-csv"], "games", name)


def audit_game(game: Any, **options: Any) -> List[Dict[str, Any]]:
    """The findings of one game: PGN text, or a ``chess.pgn.Game`` of
    python-chess (written out as PGN with its comments and variations).
    Takes the options of :func:`audit`; the game is reported under
    ``name`` (``"<game>"``).

    A ``chess.pgn.Game`` is the game as python-chess read it: one with
    ``errors`` (python-chess stopped at an illegal move, leaving out the
    rest) raises :class:`UsageError`, and one whose Seven Tag Roster holds
    python-chess's default for a tag (which it writes for a missing one)
    warns; pass the game's PGN text to have those reported."""
    if not isinstance(game, (str, bytes)):
        _as_python_chess_read_it(game)
        game = str(game)
    text = game if isinstance(game, bytes) else game.encode("utf-8")
    options.setdefault("name", "<game>")
    with audit(text, **options) as run:
        return list(run)


# The games report's columns that are counts.
_INTEGERS = frozenset({"game", "line", "plies", "errors", "warnings", "infos"})

# What python-chess writes for a Seven Tag Roster tag the PGN lacks.
_FILLED_IN = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def _as_python_chess_read_it(game: Any) -> None:
    errors = getattr(game, "errors", None)
    if errors:
        raise UsageError(
            f"python-chess could not read this game as written ({errors[0]}), so its chess.pgn.Game "
            "lacks what follows: pass the game's PGN text to audit_game instead"
        )
    headers = getattr(game, "headers", {})
    filled = [tag for tag, value in _FILLED_IN.items() if headers.get(tag) == value]
    if filled:
        warnings.warn(
            f"{', '.join(filled)} hold what python-chess writes for a tag the PGN lacks, so such a "
            "tag cannot be reported (missing-tag): pass the game's PGN text to audit_game for that",
            stacklevel=3,
        )


def _start(source: Source, args: List[str], stream: str, name: str) -> Audit:
    if isinstance(source, bytes) or (isinstance(source, str) and ("\n" in source or "\r" in source)):
        text = source if isinstance(source, bytes) else source.encode("utf-8")
        return Audit(_native.start(args, stream, text, name), stream == "games")
    if isinstance(source, (str, os.PathLike)):
        paths = [source]
    else:
        paths = list(source)
    if not paths:
        raise UsageError("no input: give a path, several, or PGN text")
    # After `--`, a path that starts with `-` is still a path.
    args = args + ["--"] + [os.fspath(p) for p in paths]
    return Audit(_native.start(args, stream, None, None), stream == "games")


# Each option of the functions: the flag it becomes, and how its value is
# written (a list joined by commas, a path, a number or word; a boolean
# adds the flag when it differs from its default).
_LISTS = {"select": "--select", "ignore": "--ignore"}
_VALUES = {"fail_on": "--fail-on", "rules": "--rules", "winnability": "--winnability",
           "memory_limit": "--memory-limit", "jobs": "--jobs", "baseline": "--baseline", "trf": "--trf"}
_SWITCHES = {"strict_tags": ("--strict-tags", False), "duplicates": ("--no-duplicates", True),
             "variations": ("--no-variations", True)}


def _arguments(**options: Any) -> List[str]:
    """The command line's flags for the options of :func:`audit`."""
    args: List[str] = []
    settings = options.pop("settings", None)
    for name, value in options.items():
        if name in _LISTS:
            if value is not None:
                items = [value] if isinstance(value, str) else list(value)
                args += [_LISTS[name], ",".join(items)]
        elif name in _VALUES:
            if value is not None:
                args += [_VALUES[name], os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
        elif name in _SWITCHES:
            flag, default = _SWITCHES[name]
            if bool(value) != default:
                args.append(flag)
        else:
            raise TypeError(f"unexpected option {name!r}")
    args += ["--isolated"] if settings is None else ["--config", os.fspath(settings)]
    return args
