"""Tests of scripts/pgn_to_trf.py: a tiny tournament, column by column.

    python3 -m unittest scripts/test_pgn_to_trf.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgn_to_trf  # noqa: E402

PGN = """[Event "Open"]
[Site "Town"]
[Date "2024.05.01"]
[Round "1.1"]
[White "Alpha, A"]
[Black "Beta, B"]
[Result "1-0"]
[WhiteElo "2400"]
[BlackElo "2300"]
[WhiteTitle "IM"]
[WhiteFideId "101"]
[BlackFideId "102"]

1. e4 e5 1-0

[Event "Open"]
[Round "2.1"]
[White "Beta, B"]
[Black "Gamma, C"]
[Result "1/2-1/2"]
[WhiteElo "2300"]
[BlackElo "2200"]
[WhiteFideId "102"]
[BlackFideId "103"]

1. d4 d5 1/2-1/2

[Event "Open"]
[Round "2.1"]
[White "Beta, B"]
[Black "Gamma, C"]
[Result "1/2-1/2"]
[WhiteFideId "102"]
[BlackFideId "103"]

1. d4 d5 1/2-1/2
"""


class Convert(unittest.TestCase):
    def test_columns_rounds_and_points(self):
        lines = pgn_to_trf.convert(PGN).splitlines()
        self.assertEqual(lines[:5], ["012 Open", "022 Town", "042 2024.05.01", "062 3", "XXR 2"])
        alpha, beta, gamma = lines[5:]
        col = lambda line, a, b: line[a - 1:b]  # noqa: E731
        self.assertEqual(col(alpha, 1, 3), "001")
        self.assertEqual(col(alpha, 5, 8), "   1")
        self.assertEqual(col(alpha, 11, 13), "IM ")
        self.assertEqual(col(alpha, 15, 47).strip(), "Alpha, A")
        self.assertEqual(col(alpha, 49, 52), "2400")
        self.assertEqual(col(alpha, 58, 68).strip(), "101")
        self.assertEqual(col(alpha, 81, 84), " 1.0")
        # Round 1: against 2 with white, a win; round 2: no game.
        self.assertEqual(col(alpha, 92, 99), "   2 w 1")
        self.assertEqual(col(alpha, 102, 109), "   0 - Z")
        # The game recorded twice counts once: Beta has a loss and a draw.
        self.assertEqual(col(beta, 81, 84), " 0.5")
        self.assertEqual(col(beta, 92, 109), "   1 b 0     3 w =")
        self.assertEqual(col(gamma, 102, 109), "   2 b =")


if __name__ == "__main__":
    unittest.main()
