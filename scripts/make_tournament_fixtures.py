#!/usr/bin/env python3
"""Writes fixtures/tournament/: four games of the FIDE Women's World Rapid
2024 broadcast (fixtures/page/tournament.pgn, boards 1 and 2 of rounds 1
and 2 of its first source), the TRF scripts/pgn_to_trf.py builds from
them, and one mutated copy per finding of `--trf`, each with its .args.

    python3 scripts/make_tournament_fixtures.py
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pgn_to_trf  # noqa: E402

ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "fixtures", "tournament")


def games():
    data = open(os.path.join(ROOT, "fixtures", "page", "tournament.pgn"), "rb").read()
    starts = [m.start() for m in re.finditer(rb"^\[Event ", data, re.M)] + [len(data)]
    parts = [data[a:b] for a, b in zip(starts, starts[1:])]
    site = b'[Site "New York, United States"]'
    keep = [g for g in parts if site in g and re.search(rb'^\[Round "[12]\.[12]"\]', g, re.M)]
    assert len(keep) == 4, len(keep)
    return keep


def field(line, a, b):
    return line[a - 1:b]


def put(line, a, text):
    line = line.ljust(a - 1 + len(text))
    return line[:a - 1] + text + line[a - 1 + len(text):]


def repoint(line):
    """Points (81-84) from the round codes."""
    halves = 0
    at = 92
    while at <= len(line):
        halves += {"1": 2, "=": 1, "+": 2, "W": 2, "D": 1, "F": 2, "U": 2, "H": 1}.get(field(line, at + 7, at + 7), 0)
        at += 10
    return put(line, 81, f"{halves // 2}.{5 if halves % 2 else 0}".rjust(4))


def mutate(trf, rank, round_, opponent=None, colour=None, code=None, rating=None):
    """Changes player `rank`'s round (1-based) and rating."""
    lines = trf.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001") and field(line, 5, 8).strip() == str(rank):
            at = 92 + 10 * (round_ - 1)
            if opponent is not None:
                line = put(line, at, f"{opponent:>4}")
            if colour is not None:
                line = put(line, at + 5, colour)
            if code is not None:
                line = put(line, at + 7, code)
            if rating is not None:
                line = put(line, 49, f"{rating:>4}")
            lines[i] = repoint(line).rstrip()
    return "\n".join(lines) + "\n"


def pairing(trf, round_):
    """The first pairing of a round: (rank, opponent, colour, code)."""
    for line in trf.splitlines():
        if line.startswith("001"):
            at = 92 + 10 * (round_ - 1)
            opp = field(line, at, at + 3).strip()
            if opp and int(opp):
                return int(field(line, 5, 8)), int(opp), field(line, at + 5, at + 5), field(line, at + 7, at + 7)
    raise SystemExit("no pairing")


def write(case, pgn, trf):
    with open(os.path.join(OUT, case + ".pgn"), "wb") as f:
        f.write(pgn)
    with open(os.path.join(OUT, case + ".trf"), "w", encoding="utf-8") as f:
        f.write(trf)
    with open(os.path.join(OUT, case + ".args"), "w", encoding="utf-8") as f:
        f.write(f"--trf\ntournament/{case}.trf\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    four = games()
    pgn = b"".join(four)
    trf = pgn_to_trf.convert(pgn.decode("utf-8"))
    write("agrees", pgn, trf)
    a, b, colour, code = pairing(trf, 1)
    flip = {"1": "0", "0": "1", "=": "1"}
    back = {"1": "0", "0": "1"}
    result = mutate(mutate(trf, a, 1, code=flip[code]), b, 1, code=back[flip[code]])
    write("result-mismatch", pgn, result)
    other = {"w": "b", "b": "w"}
    swapped = mutate(mutate(trf, a, 1, colour=other[colour]), b, 1, colour=colour)
    write("colour-mismatch", pgn, swapped)
    write("game-missing", b"".join(four[1:]), trf)
    moved = four[0].replace(b'[Round "1.1"]', b'[Round "2.3"]')
    write("not-in-trf", moved + b"".join(four[1:]), trf)
    write("player-mismatch", pgn, mutate(trf, a, 1, rating=1999))
    forfeit = mutate(mutate(trf, a, 1, code="+"), b, 1, code="-")
    write("forfeit-without-game", b"".join(four[1:]), forfeit)
    # An unreadable rank on a's line, and b paired in round 2 with a, who
    # does not show it.
    broken = mutate(trf, b, 2, opponent=a, colour="w", code="1")
    broken = broken.replace(f"001 {a:>4}", "001 ab12", 1)
    write("broken-trf", pgn, broken)


if __name__ == "__main__":
    main()
