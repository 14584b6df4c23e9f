"""Writes games of lichess's variants played at random by python-chess, for
scripts/crosscheck_variants.py to replay with both tools.

Real exports rarely go past a repetition or lichess's own draws; these do.
Each game is one of Atomic, Antichess, King of the Hill, Three-check,
Crazyhouse, Racing Kings and Horde in turn, 20 to 220 plies of legal moves
(python-chess's), stopping where python-chess's board ends the game; a side
takes back its previous move (when that move captured nothing) with
probability 0.6, so that positions recur: threefold and fivefold
repetitions, and lichess's fifty-move draw with moves after it. A game
python-chess ended gets the result it decides, any other a random one. The
same seed writes the same games.

Usage: scripts/random_variant_games.py OUT_DIR [GAMES] [SEED]
       scripts/crosscheck_variants.py OUT_DIR
(installs python-chess with pip if missing.)
"""
import os
import random
import subprocess
import sys

try:
    import chess.pgn
    import chess.variant
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "chess"])
    import chess.pgn
    import chess.variant

# python-chess's name of each variant, and lichess's.
NAMES = {
    "atomic": "Atomic",
    "antichess": "Antichess",
    "kingofthehill": "King of the Hill",
    "threecheck": "Three-check",
    "crazyhouse": "Crazyhouse",
    "racingkings": "Racing Kings",
    "horde": "Horde",
}


def game(rng, variant, number):
    board = chess.variant.find_variant(variant)()
    record = chess.pgn.Game()
    record.headers["Event"] = "Random games of lichess's variants"
    record.headers["Round"] = str(number)
    record.headers["Variant"] = NAMES[variant]
    node = record
    previous = {}
    for _ in range(rng.randint(20, 220)):
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        last = previous.get(board.turn)
        back = [
            m for m in moves
            if last and m.from_square == last.to_square and m.to_square == last.from_square and not board.is_capture(m)
        ]
        move = rng.choice(back) if back and rng.random() < 0.6 else rng.choice(moves)
        previous[board.turn] = move
        node = node.add_variation(move)
        board.push(move)
    if board.is_game_over():
        record.headers["Result"] = board.result()
    else:
        record.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return record


def main():
    out = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1400
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    os.makedirs(out, exist_ok=True)
    variants = list(NAMES)
    with open(os.path.join(out, "random-variants.pgn"), "w") as f:
        for number in range(1, games + 1):
            print(game(rng, variants[(number - 1) % len(variants)], number), file=f, end="\n\n")


if __name__ == "__main__":
    main()
