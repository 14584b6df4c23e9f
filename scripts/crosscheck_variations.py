"""Cross-checks pgn-arbiter's findings inside variations against python-chess.

For every game of the shared corpora (`../shared/corpora`, or the directory
given) whose mainline both tools replay to its end, python-chess reads the
variations as it keeps them (`chess.pgn.read_game`) and lists the moves in
them it cannot parse or play; pgn-arbiter lists its
`illegal-move-in-variation`, `ambiguous-move-in-variation` and
`malformed-move-in-variation` findings. The two lists of tokens are compared
game by game.

A known difference is printed as "explained" rather than as a
disagreement: pgn-arbiter reads a token such as `Bh6+,` as one token
(pgn-reader's token ends) and reports it as malformed, while python-chess's
tokenizer drops the comma. Another difference by design would show as a
disagreement (none does in the corpora): after a move that cannot be
played, python-chess skips the rest of the variation with the variations
inside it, while pgn-arbiter still checks the variations of the failed move.

Usage: scripts/crosscheck_variations.py [CORPORA_DIR]   (installs
python-chess with pip if missing; builds pgn-arbiter with cargo). Prints a
summary and every disagreement; exits 1 if any is found.
"""
import io
import multiprocessing
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

try:
    import chess
    import chess.pgn
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "chess"])
    import chess
    import chess.pgn

from crosscheck_draws import audit, conclude, read_text  # noqa: E402

CODES = ("illegal-move-in-variation", "ambiguous-move-in-variation", "malformed-move-in-variation")
TOKEN = re.compile(r"(?:san|move): '([^']*)'")


class Builder(chess.pgn.GameBuilder):
    """Keeps python-chess's game and notes the errors inside variations."""

    def begin_game(self):
        super().begin_game()
        self.depth = 0
        self.mainline_failed = False
        self.variation_errors = []

    def begin_variation(self):
        self.depth += 1
        return super().begin_variation()

    def end_variation(self):
        self.depth -= 1
        return super().end_variation()

    def handle_error(self, error):
        if self.depth > 0 and not self.mainline_failed:
            found = TOKEN.search(str(error))
            self.variation_errors.append(found.group(1) if found else str(error))
        elif self.depth <= 0:
            self.mainline_failed = True

    def result(self):
        return self.mainline_failed, self.variation_errors


def check_file(path):
    handle = io.StringIO(read_text(path))
    games = []
    while True:
        try:
            result = chess.pgn.read_game(handle, Visitor=Builder)
        except Exception as err:  # python-chess gives up on some files
            return path, None, f"python-chess failed: {err}"
        if result is None:
            break
        games.append(result)
    return path, games, None


def main():
    findings, games_rows = audit()
    ours = {}
    for row in games_rows:
        ours.setdefault(row["file"], {})[int(row["game"])] = row["board_end"]
    found = {}
    for row in findings:
        if row["code"] in CODES:
            found.setdefault((row["file"], int(row["game"])), []).append(row["san"])

    files = sorted(ours)
    with multiprocessing.Pool() as pool:
        results = pool.map(check_file, files)
    compared = with_findings = skipped_files = skipped_games = explained = 0
    disagreements = []
    for path, theirs, problem in results:
        if problem or len(theirs) != len(ours[path]):
            skipped_files += 1
            print(f"skipped {path}: {problem or f'python-chess reads {len(theirs)} games, pgn-arbiter {len(ours[path])}'}")
            continue
        for number, (mainline_failed, their) in enumerate(theirs, start=1):
            if mainline_failed or ours[path][number] == "illegal-move":
                skipped_games += 1
                continue
            compared += 1
            mine = sorted(found.get((path, number), []))
            their = sorted(their)
            if mine or their:
                with_findings += 1
            if mine == their:
                continue
            extra = list(mine)
            missing = []
            for token in their:
                if token in extra:
                    extra.remove(token)
                else:
                    missing.append(token)
            if not missing and all(t.rstrip(",;") != t for t in extra):
                explained += 1
                print(f"explained {path} game {number}: {extra} is one token to pgn-reader; python-chess's tokenizer drops the punctuation")
                continue
            disagreements.append(f"{path} game {number}: python-chess {their}, pgn-arbiter {mine}")
    print(f"compared {compared} games ({with_findings} with a problem in a variation, {explained} explained); "
          f"skipped {skipped_games} games whose mainline one tool could not replay and {skipped_files} files split differently")
    conclude(disagreements)


if __name__ == "__main__":
    main()
