#!/usr/bin/env python3
"""Builds a FIDE Tournament Report File (TRF16) from a tournament's PGN,
for tests of the tournament audit: the TRF a pairing program would have
written for the games the PGN records.

    pgn_to_trf.py GAMES.pgn > EVENT.trf

Players are told apart by FIDE ID (WhiteFideId, BlackFideId), else by
name; starting ranks go by rating, then name. A round is the number before
the dot of the Round tag (never the board number). A game recorded twice
(the same round and players) counts once. A player without a game in a
round gets `0000 - Z`. Points are 1, 1/2, 0; the rank is by points, then
starting rank. Reads tag pairs only; needs nothing beyond Python.
"""

import re
import sys

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def games(text):
    """The tag sections of a PGN, one dict each."""
    tags = {}
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            tags.setdefault(m.group(1), m.group(2))
        elif tags and line.strip() and not line.startswith("["):
            yield tags
            tags = {}
    if tags:
        yield tags


def convert(text):
    players = {}  # key -> dict
    pairings = {}  # (round, white key, black key) -> result
    event = site = date = ""
    for tags in games(text):
        event = event or tags.get("Event", "")
        site = site or tags.get("Site", "")
        date = date or tags.get("Date", "")
        round_ = tags.get("Round", "").split(".")[0]
        if not round_.isdigit():
            continue
        keys = []
        for side in ("White", "Black"):
            fide = tags.get(side + "FideId", "").strip()
            key = fide if fide.isdigit() and fide != "0" else "name:" + tags.get(side, "")
            players.setdefault(key, {
                "name": tags.get(side, ""),
                "fide": fide if fide.isdigit() else "",
                "elo": tags.get(side + "Elo", ""),
                "title": tags.get(side + "Title", ""),
            })
            keys.append(key)
        pairings.setdefault((int(round_), keys[0], keys[1]), tags.get("Result", "*"))
    rounds = max((r for r, _, _ in pairings), default=0)
    order = sorted(players, key=lambda k: (-int(players[k]["elo"] or 0), players[k]["name"]))
    rank = {key: i + 1 for i, key in enumerate(order)}
    table = {key: {} for key in players}
    codes = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}
    for (r, white, black), result in sorted(pairings.items()):
        w, b = codes.get(result, (" ", " "))
        table[white][r] = (rank[black], "w", w)
        table[black][r] = (rank[white], "b", b)
    halves = {key: sum({"1": 2, "=": 1}.get(c, 0) for _, _, c in table[key].values()) for key in players}
    standing = sorted(players, key=lambda k: (-halves[k], rank[k]))
    final = {key: i + 1 for i, key in enumerate(standing)}
    out = [f"012 {event}", f"022 {site}", f"042 {date}", f"062 {len(players)}", f"XXR {rounds}"]
    for key in order:
        p = players[key]
        points = f"{halves[key] // 2}.{5 if halves[key] % 2 else 0}"
        line = (f"001 {rank[key]:>4}  {p['title'][:3]:<3} {p['name'][:33]:<33} {p['elo'][:4]:>4} "
                f"{'':3} {p['fide'][:11]:>11} {'':10} {points:>4} {final[key]:>4}")
        for r in range(1, rounds + 1):
            opp, colour, code = table[key].get(r, (0, "-", "Z"))
            line += f"  {opp:>4} {colour} {code}"
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(convert(f.read()))
