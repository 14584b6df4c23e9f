"""The python-chess reference for bench/run.sh: replays every mainline move
of every game and judges the final position (mate, stalemate, insufficient
material), as pgn-arbiter does. Prints the number of games; a game that
python-chess itself fails on (it raises on some games of the corpora) is
counted on standard error, and reading goes on after it."""
import sys

import chess.pgn

games = failed = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while True:
        try:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            games += 1
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
        except Exception:  # noqa: BLE001 - python-chess's own failure
            failed += 1
print(games)
if failed:
    print(f"python-chess failed on {failed} games", file=sys.stderr)
