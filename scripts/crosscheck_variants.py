"""Cross-checks pgn-arbiter's replay of lichess's variants against python-chess.

For every game of the shared corpora (`../shared/corpora`, or the directory
given) whose Variant tag names one of lichess's variants (Atomic,
Antichess, King of the Hill, Three-check, Crazyhouse, Racing Kings,
Horde), python-chess replays the mainline on its own board for that
variant (`chess.variant`): the first move it cannot play, and, when the
moves are read to their end, the outcome its board decides against the
recorded result; and lichess's own draws (the fifth occurrence of a
position; 50 moves of each side without capture or pawn move, but in
Crazyhouse), after which a move cannot be played; and the first position
that stands for the third time while the game is on, when a move was
played after it (lichess draws the game then on a claim). These are
compared with pgn-arbiter's `illegal-move` and `ambiguous-move` findings
that cite a variant's rules, its `unclaimed-threefold` findings (by ply)
and its `result-contradicts-variant-end` findings, game by game.

Games are matched by their number in each file; a file where the two
readers count a different number of games is said, not compared.

Usage: scripts/crosscheck_variants.py [CORPORA_DIR]   (installs python-chess
with pip if missing; builds pgn-arbiter with cargo). Prints a summary and
every disagreement; exits 1 if any disagreement is found.
"""
import csv
import io
import logging
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

try:
    import chess
    import chess.pgn
    import chess.variant
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "chess"])
    import chess
    import chess.pgn
    import chess.variant

# The variants both tools play, as chess.variant names their boards.
LICHESS = {
    "atomic",
    "antichess",
    "kingofthehill",
    "threecheck",
    "crazyhouse",
    "racingkings",
    "horde",
}


# python-chess logs every game it cannot read (Seirawan, ...): those are
# counted here, not printed.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def key(value):
    return "".join(c for c in value.lower() if c not in " -_\t")


def ended(board):
    """How python-chess's board ended the game, named as pgn-arbiter's games
    report names it, and the result it decides ('' and '' when open); None
    for an end pgn-arbiter does not apply to variants."""
    outcome = board.outcome()
    if outcome is None:
        return ("", "")
    t = chess.Termination
    names = {
        t.CHECKMATE: "checkmate",
        t.STALEMATE: "stalemate",
        t.INSUFFICIENT_MATERIAL: "dead-position",
        t.VARIANT_WIN: "variant-end",
        t.VARIANT_LOSS: "variant-end",
        t.VARIANT_DRAW: "variant-end",
    }
    name = names.get(outcome.termination)
    if name is None:
        return None
    if name == "variant-end" and board.uci_variant == "antichess" and board.occupied_co[board.turn]:
        name = "stalemate"
    return (name, outcome.result())


def over(board):
    """Whether the board ended the game by the variant's rules (lichess's
    own draws aside: python-chess's fivefold and 75-move ends)."""
    outcome = board.outcome()
    t = chess.Termination
    return outcome is not None and outcome.termination not in (t.FIVEFOLD_REPETITION, t.SEVENTYFIVE_MOVES)


def lichess_draw(board, variant):
    """The draw lichess makes itself after a move (scalachess
    `Variant.autoDraw`), named as pgn-arbiter's games report names the end,
    unless the board ended the game otherwise: the fifth occurrence of a
    position, or the halfmove clock at 100 (not in Crazyhouse). None when
    neither."""
    if over(board):
        return None
    if board.is_fivefold_repetition():
        return "fivefold"
    if variant != "crazyhouse" and board.halfmove_clock >= 100:
        return "variant-end"
    return None


def python_chess(path):
    """For each game of the file in order: None (not a lichess variant's
    game), or (variant, what python-chess expects: a set of (code, ply),
    and (plies, board_end, expected_result))."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    tags = {key(line[10:].split('"')[0]) for line in text.splitlines() if line.startswith('[Variant "')}
    if not tags & (LICHESS | {"3check", "koth"}):
        return []
    handle = io.StringIO(text)
    out = []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return out
        variant = key(game.headers.get("Variant", ""))
        variant = {"3check": "threecheck", "koth": "kingofthehill"}.get(variant, variant)
        if variant not in LICHESS:
            out.append(None)
            continue
        expected = set()
        board = game.board()
        plies = 0
        drawn = None
        third = None
        for move in game.mainline_moves():
            if drawn:
                break
            board.push(move)
            plies += 1
            drawn = lichess_draw(board, variant)
            if third is None and not drawn and board.is_repetition(3) and not over(board):
                third = plies
        if third is not None and plies > third:
            # Played on from a position's third occurrence, which lichess
            # draws on a claim.
            expected.add(("unclaimed-threefold", third))
        if drawn and plies < len(list(game.mainline_moves())):
            # A move after lichess's own draw: the game had ended.
            expected.add(("unplayable", plies + 1))
            end = (plies, "illegal-move", "")
        elif drawn:
            recorded = game.headers.get("Result", "*")
            end = (plies, drawn, "1/2-1/2")
            if recorded in ("1-0", "0-1", "*"):
                expected.add(("result-contradicts-variant-end", None))
        elif game.errors:
            # python-chess stops the mainline at the move it cannot play.
            expected.add(("unplayable", plies + 1))
            end = (plies, "illegal-move", "")
        else:
            outcome = board.outcome()
            recorded = game.headers.get("Result", "*")
            how = ended(board)
            if how is None:
                end = None
            else:
                end = (plies, *how)
                # `*` says the game goes on: it contradicts an end too.
                if outcome is not None and recorded in ("1-0", "0-1", "1/2-1/2", "*") and outcome.result() != recorded:
                    expected.add(("result-contradicts-variant-end", None))
        out.append((variant, expected, end))


def ours(corpora):
    """pgn-arbiter's findings rows (built first) and the number of games it
    reads in each file."""
    subprocess.check_call(["cargo", "build", "--release", "--quiet", "--bin", "pgn-arbiter"], cwd=ROOT)
    binary = os.path.join(ROOT, "target", "release", "pgn-arbiter")
    out = subprocess.run(
        [binary, "-q", "--fail-on", "never", "--no-duplicates", "--games", "/dev/stderr", corpora],
        capture_output=True, text=True, errors="replace", check=True,
    )
    findings = list(csv.DictReader(io.StringIO(out.stdout)))
    counts = {}
    ends = {}
    for row in csv.DictReader(io.StringIO(out.stderr)):
        counts[row["file"]] = max(counts.get(row["file"], 0), int(row["game"]))
        ends[(row["file"], int(row["game"]))] = (int(row["plies"]), row["board_end"], row["expected_result"])
    return findings, counts, ends


def main():
    corpora = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "corpora")
    findings, counts, ends = ours(corpora)
    found = {}
    for row in findings:
        if not row["rule"].startswith("lichess.org/variant"):
            continue
        code = row["code"]
        ply = int(row["ply"]) if row["ply"] else None
        if code in ("illegal-move", "ambiguous-move"):
            code = "unplayable"
        elif code != "unclaimed-threefold":
            ply = None
        found.setdefault((row["file"], int(row["game"])), set()).add((code, ply))
    disagreements = []
    games = 0
    per_variant = {}
    per_end = {}
    fide_ends = []
    for name in sorted(counts):
        if not name.endswith(".pgn"):
            continue
        path = name if os.path.isabs(name) else os.path.join(os.getcwd(), name)
        theirs = python_chess(path)
        if not any(theirs):
            continue
        if len(theirs) != counts[name]:
            disagreements.append(f"{name}: python-chess reads {len(theirs)} games, pgn-arbiter {counts[name]}; not compared")
            continue
        for number, expected in enumerate(theirs, start=1):
            if expected is None:
                continue
            variant, wanted, end = expected
            games += 1
            per_variant[variant] = per_variant.get(variant, 0) + 1
            got = found.pop((name, number), set())
            if got != wanted:
                disagreements.append(f"{name} game {number} ({variant}): python-chess {sorted(wanted, key=str)}, pgn-arbiter {sorted(got, key=str)}")
            mine = ends.get((name, number))
            if end is None:
                fide_ends.append(f"{name} game {number} ({variant}): ended by fivefold or 75 moves for python-chess; pgn-arbiter {mine}")
                continue
            per_end[end[1] or "open"] = per_end.get(end[1] or "open", 0) + 1
            if mine != end:
                disagreements.append(f"{name} game {number} ({variant}): python-chess (plies, end, result) {end}, pgn-arbiter {mine}")
    for (name, number), got in sorted(found.items()):
        disagreements.append(f"{name} game {number}: pgn-arbiter {sorted(got, key=str)} on a game python-chess does not read as a lichess variant's")
    print(f"{games} games of lichess's variants compared: " + ", ".join(f"{v} {n}" for v, n in sorted(per_variant.items())))
    print("how they ended: " + ", ".join(f"{e} {n}" for e, n in sorted(per_end.items())))
    for line in fide_ends:
        print("APART", line)
    for line in disagreements:
        print("DISAGREE", line)
    print(f"{len(disagreements)} disagreements")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
