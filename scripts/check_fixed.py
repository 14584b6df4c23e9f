#!/usr/bin/env python3
"""Reads corrected copies (`--fix`) with python-chess beside their inputs.

    check_fixed.py INPUTS COPIES COPIES_GAMES_CSV

INPUTS and COPIES are a file each, or directories with the same layout
(an input's compression suffix is gone in its copy). COPIES_GAMES_CSV is
the games report of an audit of COPIES. For each copy, python-chess must
read it with no more errors than the input, and as many games as the input
or, where python-chess and pgn-arbiter read the input differently (a
header-only game, a tag line that runs into movetext), as many as
pgn-arbiter reads in the copy. Exits 1 and names each copy that fails.
"""

import bz2
import collections
import csv
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


def python_chess(data):
    """Games and errors, as python-chess reads text with universal newlines."""
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None)
    games = errors = 0
    while True:
        try:
            game = chess.pgn.read_game(text)
        except Exception as crash:  # python-chess 1.11 crashes on some input
            return games, errors, f"{type(crash).__name__}: {crash}"
        if game is None:
            return games, errors, None
        games += 1
        errors += len(game.errors)


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
    inputs, copies, games_csv = sys.argv[1:4]
    ours = collections.Counter(row["file"] for row in csv.DictReader(open(games_csv, encoding="utf-8")))
    failed = checked = 0
    for path, copy in pairs(inputs, copies):
        data, fixed = read(path), read(copy)
        if data == fixed:
            continue
        checked += 1
        before, after = python_chess(data), python_chess(fixed)
        arbiter = ours.get(copy, 0)
        good_count = after[0] in (before[0], arbiter)
        # A crash ends the reading: the same crash on both is no failure.
        crashed = after[2] is not None and after[2] != before[2]
        if crashed or after[1] > before[1] or not good_count:
            failed += 1
            print(f"{copy}: python-chess reads {after} (games, errors, crash), the input {before}; pgn-arbiter reads {arbiter} games")
    print(f"{checked} changed copies read by python-chess {chess.__version__}, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
