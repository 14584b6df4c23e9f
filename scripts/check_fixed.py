#!/usr/bin/env python3
"""Reads corrected copies (`--fix`) with python-chess beside their inputs,
game by game.

    check_fixed.py INPUTS COPIES

INPUTS and COPIES are a file each, or directories with the same layout
(an input's compression suffix is gone in its copy). python-chess, a
second reader, reads each input and its copy; they must hold the same
number of games and, game by game, the same players and the same moves,
with no more reading errors. A copy may differ only where it says so in a
`{pgn-arbiter: ...}` comment: moves after an automatic end removed (the
copy's moves are then the first of the input's), a result the board or
the Laws decide, a tag added where the input had none. Exits 1 and names
each game that fails.
"""

import bz2
import gzip
import io
import logging
import lzma
import os
import subprocess
import sys

import chess.pgn

SUFFIXES = ("", ".gz", ".bz2", ".zst", ".xz")


def read(path):
    data = open(path, "rb").read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    elif path.endswith(".bz2"):
        data = bz2.decompress(data)
    elif path.endswith(".xz"):
        data = lzma.decompress(data)
    elif path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout
    return data


MARK = "pgn-arbiter:"


def python_chess(data):
    """Games, errors and a crash, as python-chess reads text with universal
    newlines; each game as (white, black, moves, result, its text, whether
    python-chess met an error in it)."""
    text = io.StringIO(data.decode("utf-8", errors="replace"), newline=None)
    games, errors = [], 0
    while True:
        start = text.tell()
        try:
            game = chess.pgn.read_game(text)
        except Exception as crash:  # python-chess 1.11 crashes on some input
            return games, errors, f"{type(crash).__name__}: {crash}"
        if game is None:
            return games, errors, None
        errors += len(game.errors)
        mistaken = bool(game.errors)
        # The game's text, where --fix writes its comments.
        end = text.tell()
        text.seek(start)
        comments = text.read(end - start)
        moves = [move.uci() for move in game.mainline_moves()]
        games.append(
            (
                unescape(game.headers.get("White", "?")),
                unescape(game.headers.get("Black", "?")),
                moves,
                game.headers.get("Result", "*"),
                comments,
                mistaken,
            )
        )


def unescape(value):
    """A tag value as PGN 8.1 defines it: `\\"` is a quote and `\\\\` a
    backslash (python-chess 1.11 keeps the escapes)."""
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            char = next(chars, "")
        out.append(char)
    return "".join(out)


def differences(before, after):
    """What differs between a game of the input and of its copy that the
    copy does not explain."""
    white, black, moves, result, _, mistaken = before
    white2, black2, moves2, result2, comments, _ = after
    explained = MARK in comments
    wrong = []
    if (white, black) != (white2, black2):
        wrong.append(f"players {white!r}-{black!r} became {white2!r}-{black2!r}")
    # Moves removed after an automatic end; or, where python-chess stopped
    # at a move the input writes in non-standard notation, more moves read
    # from the copy, which writes them in SAN.
    removed = moves[: len(moves2)] == moves2
    completed = mistaken and moves2[: len(moves)] == moves
    if moves2 != moves and not (explained and (removed or completed)):
        wrong.append(f"{len(moves)} moves became {len(moves2)}")
    if result2 != result and not explained:
        wrong.append(f"result {result} became {result2} with no comment")
    return wrong


def header_only_breaks(data):
    """How many tag sections follow a tag section after a blank line."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    breaks, last, blank = 0, b"", False
    for line in lines:
        line = line.strip()
        if not line:
            blank = True
            continue
        if line.startswith(b"[") and blank and last.startswith(b"[") and last.endswith(b"]"):
            breaks += 1
        last, blank = line, False
    return breaks


def pairs(inputs, copies):
    if os.path.isfile(copies):
        yield inputs, copies
        return
    for root, _, files in os.walk(copies):
        for name in sorted(files):
            copy = os.path.join(root, name)
            rel = os.path.relpath(copy, copies)
            for suffix in SUFFIXES:
                path = os.path.join(inputs, rel + suffix)
                if os.path.exists(path):
                    yield path, copy
                    break


def main():
    # python-chess logs each error it meets; the counts are what matter here.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    inputs, copies = sys.argv[1:3]
    failed = checked = games = 0
    for path, copy in pairs(inputs, copies):
        data, fixed = read(path), read(copy)
        if data == fixed:
            continue
        checked += 1
        before, after = python_chess(data), python_chess(fixed)
        problems = []
        # A crash ends the reading: the same crash on both is no failure.
        if after[2] is not None and after[2] != before[2]:
            problems.append(f"python-chess crashes on the copy: {after[2]}")
        if after[1] > before[1]:
            problems.append(f"{after[1]} reading errors in the copy, {before[1]} in the input")
        runs = header_only_breaks(data)
        if len(after[0]) != len(before[0]):
            if len(after[0]) != len(before[0]) + runs:
                problems.append(f"{len(after[0])} games in the copy, {len(before[0])} in the input")
            # python-chess reads a run of header-only games as one game (a
            # blank line, then tags: more tags); the copy ends each with a
            # marker, so python-chess reads them apart. Counted, not paired.
            if not problems:
                print(f"{copy}: {runs} header-only games read apart in the copy only; games counted, not paired")
            failed += bool(problems)
            for problem in problems[:10]:
                print(f"{copy}: {problem}")
            continue
        for number, (a, b) in enumerate(zip(before[0], after[0]), 1):
            games += 1
            problems.extend(f"game {number}: {wrong}" for wrong in differences(a, b))
        if problems:
            failed += 1
            for problem in problems[:10]:
                print(f"{copy}: {problem}")
    print(f"{checked} changed copies ({games} games) read by python-chess {chess.__version__}, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
