#!/usr/bin/env python3
"""Duplicate games: pgn-arbiter's `duplicate-game` against pgn-extract's -D,
on every file of the shared corpora, with each difference put in a class.

    bench/duplicates_vs_pgn_extract.py PGN_ARBITER CORPORA OUT.md

pgn-extract calls a game a duplicate of an earlier one when the two have
the same final position and the same sum of the hashes of every position
on the way, whatever their players, tags or comments; it leaves out a game
whose moves it cannot read. pgn-arbiter calls a game a duplicate when its
players (names folded), start and whole movetext are the same.

To know which game is which in both tools, each input is copied with a tag
`[ArbiterId "FILE#GAME"]` put before the line where pgn-arbiter's games
report says the game starts (the inputs themselves are not touched).
pgn-extract reads the copies in pgn-arbiter's order, writing the games it
keeps and the duplicates apart (`-d`, as -D finds them), each with its HashCode; a
duplicate's first is the kept game with its HashCode and start. python-chess
reads the copies too, and says what tells each duplicate found by one tool only
from its first: players (folded), start (FEN), mainline moves.
"""

import collections
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

import chess.pgn

csv.field_size_limit(1 << 30)


def text(raw):
    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1")


def fold(name):
    """A name as pgn-arbiter folds it, roughly: letters and digits in
    lower case, accents off, word order aside."""
    name = unicodedata.normalize("NFKD", name)
    name = "".join(c for c in name if not unicodedata.combining(c)).lower()
    return " ".join(sorted(re.findall(r"[a-z0-9]+", name)))


def loose(value):
    return re.sub(r"[^a-z0-9]", "", value.lower())


def arbiter(binary, corpora, work):
    findings = os.path.join(work, "findings.csv")
    games = os.path.join(work, "games.csv")
    subprocess.run(
        [binary, "-q", "--fail-on", "never", "--raw-csv", "--select", "duplicate-game",
         "--findings", findings, "--games", games, corpora],
        check=True,
    )
    rows = list(csv.DictReader(open(games, encoding="utf-8", newline="")))
    copies = {}
    for row in csv.DictReader(open(findings, encoding="utf-8", newline="")):
        m = re.search(r"as game (\d+) of (this file|.*?), which comes first", row["message"])
        first_file = row["file"] if m.group(2) == "this file" else m.group(2)
        copies[(row["file"], int(row["game"]))] = (first_file, int(m.group(1)))
    return rows, copies


def tagged_copies(rows, corpora, work):
    """Copies of the inputs with an ArbiterId tag before each game, in
    pgn-arbiter's order; their paths."""
    starts = collections.defaultdict(dict)
    for row in rows:
        starts[row["file"]][int(row["line"])] = row["game"]
    paths = []
    for n, (path, at) in enumerate(starts.items()):
        data = open(path, "rb").read()
        if path.endswith(".zst"):
            data = subprocess.run(["zstd", "-dc", path], stdout=subprocess.PIPE, check=True).stdout
        lines = data.split(b"\n")
        out = []
        for i, line in enumerate(lines, 1):
            if i in at:
                tag = f"{os.path.relpath(path, corpora)}#{at[i]}"
                out.append(b'[ArbiterId "' + tag.encode() + b'"]')
            out.append(line)
        copy = os.path.join(work, f"{n:04d}.pgn")
        open(copy, "wb").write(b"\n".join(out))
        paths.append(copy)
    return paths


def games_of(pgn_bytes):
    """(ArbiterId, HashCode, FEN) of each game pgn-extract wrote."""
    games, tags = [], {}
    for line in pgn_bytes.split(b"\n"):
        m = re.match(rb'\[(\w+) "(.*)"\]\s*$', line)
        if m:
            tags[m.group(1).decode()] = text(m.group(2))
        elif tags:
            if "ArbiterId" in tags:
                games.append((tags["ArbiterId"], tags.get("HashCode"), tags.get("FEN", "")))
            tags = {}
    return games


def pgn_extract_copies(copies, work):
    """{copy id: first id} as pgn-extract -D decides, over all copies."""
    kept, dups = os.path.join(work, "kept.pgn"), os.path.join(work, "dups.pgn")
    subprocess.run(
        ["pgn-extract", "-s", "--quiet", "--addhashcode", "-o" + kept, "-d" + dups, *copies],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    first = {}
    for gid, code, fen in games_of(open(kept, "rb").read()):
        first.setdefault((code, fen), gid)
    return {
        gid: (first.get((code, fen)), code)
        for gid, code, fen in games_of(open(dups, "rb").read())
    }


def read_games(copies, wanted):
    """python-chess's reading of the wanted games of the tagged copies:
    {ArbiterId: (players folded, FEN, moves, errors)}; headers first, the
    whole game only where wanted."""
    out = {}
    for path in copies:
        stream = io.StringIO(text(open(path, "rb").read()))
        while True:
            at = stream.tell()
            headers = chess.pgn.read_headers(stream)
            if headers is None:
                break
            gid = headers.get("ArbiterId")
            if gid not in wanted:
                continue
            end = stream.tell()
            stream.seek(at)
            try:
                game = chess.pgn.read_game(stream)
            except (IndexError, ValueError):
                game = None
            stream.seek(end)
            if game is not None:
                out[gid] = (
                    (fold(game.headers.get("White", "")), fold(game.headers.get("Black", ""))),
                    game.headers.get("FEN", ""),
                    [m.uci() for m in game.mainline_moves()],
                    bool(game.errors),
                )
    return out


def why(a, b):
    """What tells game a from game b (as `read_games` keeps them), in words."""
    if a is None or b is None:
        return "python-chess cannot line the games up"
    reasons = []
    if a[0] != b[0]:
        reasons.append("players")
    if a[1] != b[1]:
        reasons.append("start")
    if a[2] != b[2]:
        reasons.append("moves")
    if a[3] or b[3]:
        reasons.append("unreadable moves")
    return ", ".join(reasons) or "nothing python-chess sees"


def main():
    binary, corpora, out_md = sys.argv[1:4]
    corpora = os.path.abspath(corpora)
    with tempfile.TemporaryDirectory() as work:
        rows, arbiter_pairs = arbiter(binary, corpora, work)
        rel = lambda p: os.path.relpath(p, corpora)
        ids = lambda place: f"{rel(place[0])}#{place[1]}"
        arbiter_copies = {ids(c): ids(f) for c, f in arbiter_pairs.items()}
        copies = tagged_copies(rows, corpora, work)
        unnamed = {
            f"{rel(r['file'])}#{r['game']}" for r in rows
            if all(r[side].strip() in ("", "?", "-") for side in ("white", "black"))
        }
        extract = pgn_extract_copies(copies, work)
        extract_copies = {gid: first for gid, (first, _) in extract.items()}
        # A HashCode of 0 is the sum over no position: pgn-extract read no move.
        no_moves = {gid for gid, (_, code) in extract.items() if int(code or "0", 16) == 0}
        read = {gid for gid, _, _ in games_of(subprocess.run(
            ["pgn-extract", "-s", "--quiet", *copies],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)}
        wanted = set(arbiter_copies) | set(arbiter_copies.values())
        wanted |= set(extract_copies) | {f for f in extract_copies.values() if f}
        seen = read_games(copies, wanted)

    both = set(arbiter_copies) & set(extract_copies)
    classes = collections.Counter()
    examples = {}
    for side, mine, theirs in (
        ("pgn-extract only", extract_copies, arbiter_copies),
        ("pgn-arbiter only", arbiter_copies, extract_copies),
    ):
        for gid in sorted(set(mine) - set(theirs)):
            first = mine[gid]
            if side == "pgn-extract only" and gid in no_moves:
                reason = "pgn-extract reads no move in either (it stops at what it cannot read)"
            elif side == "pgn-extract only" and gid in unnamed:
                reason = "neither player named (pgn-arbiter compares only games with one)"
            elif first is None:
                reason = "pgn-extract's first not identified (no kept game with its HashCode and FEN)"
            elif side == "pgn-arbiter only" and gid not in read:
                reason = "pgn-extract cannot read its moves (leaves the game out)"
            elif side == "pgn-arbiter only" and first not in read:
                reason = "pgn-extract cannot read its first's moves"
            else:
                reason = why(seen.get(gid), seen.get(first))
                if reason == "players":
                    reason = players_class(seen[gid], seen[first])
            classes[(side, reason)] += 1
            if os.environ.get("SHOW") == reason:
                print(gid, first, file=sys.stderr)
            examples.setdefault((side, reason), (gid, first))
    differing = [
        (gid, first) for gid, first in arbiter_copies.items()
        if "moves" in why(seen.get(gid), seen.get(first))
    ]
    pairs_differ = len(differing)
    lines = [
        "# Duplicates against pgn-extract",
        "",
        "Written by `bench/duplicates_vs_pgn_extract.py` (see its head for the method);",
        "every figure comes from one run of it on every file of the shared corpora.",
        "",
        f"- Games: {len(rows)}; pgn-extract -D duplicates: {len(extract_copies)}; pgn-arbiter "
        f"`duplicate-game`: {len(arbiter_copies)}; both: {len(both)}.",
        f"- pgn-arbiter duplicates whose mainline differs from their first's as python-chess reads "
        f"it: {pairs_differ}{': ' if differing else ''}"
        + ", ".join(
            f"`{g}` and `{f}`"
            + (" (pgn-extract too reads the same moves in both: python-chess misreads one)"
               if extract_copies.get(g) == f else "")
            for g, f in differing
        ) + ".",
        "",
        "| who finds the duplicate | what tells it from its first | games | who is right, and why | example (duplicate, first) |",
        "|---|---|---:|---|---|",
    ]
    for (side, reason), n in sorted(classes.items(), key=lambda kv: (kv[0][0], -kv[1])):
        copy, first = examples[(side, reason)]
        right = WHO_IS_RIGHT.get(reason, "unexplained: look at the example")
        lines.append(f"| {side} | {reason} | {n} | {right} | `{copy}`, `{first}` |")
    lines.append("")
    open(out_md, "w").write("\n".join(lines))
    print("\n".join(lines))


# Each class, judged: who is right and why.
WHO_IS_RIGHT = {
    "players: other people": "pgn-arbiter: a record is a duplicate when it records the same game, "
    "and these name other players (Morphy-Loewenthal 1858 and von Heydebrand-von Jaenisch "
    "1842 with the same 49 plies). A long game with one move list under two pairs is a "
    "misattribution in one source, which an identity check (issue of player identity) may "
    "name; it is not a duplicate of one record.",
    "players: the same surnames, other first names or initials": "pgn-arbiter, conservatively: "
    "`Seirawan Yasser` and `Seirawan Yasser (USA)`, `Carlsen, M` and `Carlsen, Magnus` may be "
    "one player, but an initial is no proof (`Polgar, J` is Judit or Zsuzsa); folding keeps "
    "to case, accents, punctuation and word order.",
    "players: other people, 20 plies or fewer (an opening line)": "pgn-arbiter: short games, "
    "book lines and miniatures are played again by other people; pgn-extract ignores players.",
    "players: one side unnamed in one of them": "pgn-arbiter: `?` against a name is no evidence "
    "that the two records are one game.",
    "pgn-extract reads no move in either (it stops at what it cannot read)": "pgn-arbiter: "
    "pgn-extract keeps no move of these games (a HashCode of 0, the sum over no position) and "
    "then calls every such game a duplicate of the first such game; pgn-arbiter reads the moves "
    "they have (and does not compare a game with none).",
    "neither player named (pgn-arbiter compares only games with one)": "pgn-arbiter, by "
    "design: with no player named nothing but the moves tells two games apart, and opening "
    "books (`eco.pgn`) repeat lines on purpose.",
    "python-chess cannot line the games up": "unexplained: python-chess does not read one of "
    "the two as a game of its own.",
    "pgn-extract's first not identified (no kept game with its HashCode and FEN)": "not "
    "judged: pgn-extract's first has its HashCode under another FEN text, so the script "
    "cannot name it (a puzzle from a set position).",
    "players, moves": "pgn-arbiter: the players are written otherwise (Cyrillic names in "
    "brackets in one, Latin-1 accents in the other, scid's encoding tests).",
}


def players_class(a, b):
    """Only the players differ: how."""
    if any(not side for side in a[0] + b[0]):
        return "players: one side unnamed in one of them"
    surnames = lambda p: tuple(sorted(max(side.split(), key=len) for side in p))
    if surnames(a[0]) == surnames(b[0]):
        return "players: the same surnames, other first names or initials"
    if len(a[2]) <= 20:
        return "players: other people, 20 plies or fewer (an opening line)"
    return "players: other people"


if __name__ == "__main__":
    main()
