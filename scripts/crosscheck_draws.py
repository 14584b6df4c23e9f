"""Cross-checks pgn-arbiter's draw findings against python-chess.

For every game of the shared corpora (`../shared/corpora`, or the directory
given), python-chess replays the mainline and finds, under the 2023 Laws:
the first position where the player to move can claim threefold repetition
(`can_claim_threefold_repetition`, both kinds) or the 50-move rule
(`can_claim_fifty_moves`), and the first position that is a fivefold
repetition (`is_fivefold_repetition`) or past 75 moves
(`is_seventyfive_moves`). These are compared with pgn-arbiter's
`unclaimed-threefold`, `unclaimed-fifty-moves`, `played-past-fivefold` and
`played-past-seventy-five-moves` findings.

Usage: scripts/crosscheck_draws.py [CORPORA_DIR]   (installs python-chess with
pip if missing; builds pgn-arbiter with cargo). Prints a summary and every
disagreement; exits 1 if any disagreement is found.
"""
import csv
import io
import multiprocessing
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

try:
    import chess
    import chess.pgn
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "chess"])
    import chess
    import chess.pgn


def read_text(path):
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8", errors="replace")


def python_chess_events(game):
    """(threefold, fifty, fivefold, seventyfive, last): position indices
    (0 the start, n after ply n) of the first claim or end, or None."""
    board = game.board()
    moves = list(game.mainline_moves())
    threefold = fifty = fivefold = seventyfive = None
    last = 0
    for index in range(len(moves) + 1):
        last = index
        ended = False
        if fivefold is None and board.is_fivefold_repetition():
            fivefold = index
            ended = True
        if seventyfive is None and not ended and board.is_seventyfive_moves():
            seventyfive = index
            ended = True
        if board.is_insufficient_material():
            ended = True
        if ended:
            # The game is over: later moves do not count for claims.
            return threefold, fifty, fivefold, seventyfive, len(moves)
        # A repetition needs four reversible plies, a claim by intention three.
        if threefold is None and board.halfmove_clock >= 3 and board.can_claim_threefold_repetition():
            threefold = index
        if fifty is None and board.halfmove_clock >= 99 and board.can_claim_fifty_moves():
            fifty = index
        if index < len(moves):
            if not board.is_legal(moves[index]):
                break
            board.push(moves[index])
    return threefold, fifty, fivefold, seventyfive, last


def check_file(args):
    path, ours = args
    text = read_text(path)
    handle = io.StringIO(text)
    games = []
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except Exception as err:  # python-chess gives up on some files
            return path, None, f"python-chess failed: {err}"
        if game is None:
            break
        games.append(game)
    return path, [python_chess_events(g) if not g.errors else None for g in games], None


def claim_index(row):
    ply = int(row["ply"]) if row["ply"] else 0
    # "by writing down" names the move that would complete it: the claim is
    # made in the position before it.
    return ply - 1 if "by writing down" in row["message"] else ply


def audit():
    """pgn-arbiter (built first) on the corpora (the first argument, else
    ../shared/corpora): its findings rows and its games rows."""
    corpora = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "corpora")
    subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    binary = os.path.join(ROOT, "target", "release", "pgn-arbiter")
    out = subprocess.run(
        [binary, "-q", "--fail-on", "never", "--games", "/dev/stderr", corpora],
        capture_output=True, text=True, errors="replace", check=True,
    )
    return list(csv.DictReader(io.StringIO(out.stdout))), list(csv.DictReader(io.StringIO(out.stderr)))


def conclude(disagreements):
    """Prints every disagreement and exits 1 if there is any."""
    for line in disagreements:
        print("DISAGREE", line)
    print(f"{len(disagreements)} disagreements")
    sys.exit(1 if disagreements else 0)


def main():
    findings, games_rows = audit()
    ours = {}
    for row in games_rows:
        ours.setdefault(row["file"], {})[int(row["game"])] = {"plies": int(row["plies"]), "end": row["board_end"]}
    codes = {"unclaimed-threefold": 0, "unclaimed-fifty-moves": 1,
             "played-past-fivefold": 2, "played-past-seventy-five-moves": 3}
    events = {}
    for row in findings:
        if row["code"] in codes:
            key = (row["file"], int(row["game"]))
            value = claim_index(row) if codes[row["code"]] < 2 else int(row["ply"] or 0)
            events.setdefault(key, [None] * 4)[codes[row["code"]]] = value

    files = sorted(ours)
    with multiprocessing.Pool() as pool:
        results = pool.map(check_file, [(f, ours[f]) for f in files])
    compared = skipped_files = skipped_games = 0
    disagreements = []
    names = ["threefold claim", "fifty-move claim", "fivefold", "75 moves"]
    for path, theirs, problem in results:
        if problem or len(theirs) != len(ours[path]):
            skipped_files += 1
            print(f"skipped {path}: {problem or f'python-chess reads {len(theirs)} games, pgn-arbiter {len(ours[path])}'}")
            continue
        for number, their in enumerate(theirs, start=1):
            mine = ours[path][number]
            if their is None or mine["end"] in ("illegal-move", ""):
                if their is None or mine["end"] == "illegal-move":
                    skipped_games += 1
                    continue
            compared += 1
            t3, t50, t5, t75, last = their
            expect = [None] * 4
            # Claims are reported when play went on past them.
            for i, at in ((0, t3), (1, t50)):
                if at is not None and last > at + 1:
                    expect[i] = at
                elif at is not None and last == at + 1:
                    expect[i] = "either"
            for i, at in ((2, t5), (3, t75)):
                if at is not None and last > at:
                    expect[i] = at
            got = events.get((path, number), [None] * 4)
            for i in range(4):
                if expect[i] == "either" and got[i] in (None, their[i]):
                    continue
                if expect[i] != got[i]:
                    disagreements.append(f"{path} game {number}: {names[i]}: python-chess {expect[i]}, pgn-arbiter {got[i]}")
    print(f"compared {compared} games; skipped {skipped_games} games python-chess or pgn-arbiter could not replay and {skipped_files} files split differently")
    conclude(disagreements)


if __name__ == "__main__":
    main()
