#!/usr/bin/env python3
"""Changes one byte of a results file (and of an across file) at a time and
checks that pgn-arbiter refuses each mutant or renders the same bytes.

    scripts/mutate_results.py BINARY [MUTANTS] [SEED]

The results are those `--keep-results` keeps of every plain golden fixture
joined (an archive with copies and rounds, so that the across file has
findings); the across file is what `pgn-arbiter across` finds for them.
Each mutant is one byte of one of the two files replaced by another value
(MUTANTS in all, default 1000, half of each file), and a few are the file
cut short or with a byte added. A mutant is refused when the rendering
exits with status 2 naming the mutated file; any other outcome must give
the findings and games reports of the unchanged files, byte for byte.
Exit status 0 when every mutant is one or the other, 1 otherwise (each
failure printed).
"""

import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def archive():
    """Every plain .pgn fixture, in sorted order of path, each followed by
    a blank line (as the integration tests join them)."""
    paths = []
    for top, dirs, files in os.walk(os.path.join(ROOT, "fixtures")):
        dirs.sort()
        paths += [os.path.join(top, f) for f in files if f.endswith(".pgn")]
    out = bytearray()
    for path in sorted(paths):
        with open(path, "rb") as f:
            out += f.read() + b"\n\n"
    return bytes(out)


def main():
    binary = os.path.abspath(sys.argv[1])
    mutants = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 56
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        def path(name):
            return os.path.join(tmp, name)

        with open(path("archive.txt"), "wb") as f:
            f.write(archive())
        subprocess.run([binary, "-q", "--fail-on", "never", "--keep-results", path("r.results"),
                        path("archive.txt")], check=True)
        with open(path("list.jsonl"), "w") as f:
            f.write(json.dumps({"results": path("r.results"), "games_before": 0, "across": path("r.across")}) + "\n")
        subprocess.run([binary, "across", path("list.jsonl")], check=True, capture_output=True)
        originals = {}
        for name in ("r.results", "r.across"):
            with open(path(name), "rb") as f:
                originals[name] = f.read()

        def render(results, across):
            done = subprocess.run(
                [binary, "-q", "--fail-on", "never", "--render", results, "--across", across,
                 "--findings", path("f.csv"), "--games", path("g.csv")],
                capture_output=True)
            if done.returncode != 0:
                return done.returncode, done.stderr.decode("utf-8", "replace"), None
            with open(path("f.csv"), "rb") as f, open(path("g.csv"), "rb") as g:
                return 0, "", (f.read(), g.read())

        status, err, expected = render(path("r.results"), path("r.across"))
        if status != 0:
            print(f"mutate_results: the unchanged files do not render: {err}", file=sys.stderr)
            return 1
        counts = {"refused": 0, "same": 0}
        failures = []
        for n in range(mutants):
            name = "r.results" if n % 2 == 0 else "r.across"
            data = bytearray(originals[name])
            kind = rng.random()
            if kind < 0.96:
                at = rng.randrange(len(data))
                data[at] ^= rng.randrange(1, 256)
                what = f"byte {at} changed"
            elif kind < 0.98:
                cut = rng.randrange(len(data))
                data = data[:cut]
                what = f"cut at {cut}"
            else:
                at = rng.randrange(len(data) + 1)
                data[at:at] = bytes([rng.randrange(256)])
                what = f"a byte added at {at}"
            mutant = path("mutant." + name.split(".")[1])
            with open(mutant, "wb") as f:
                f.write(data)
            args = (mutant, path("r.across")) if name == "r.results" else (path("r.results"), mutant)
            status, err, got = render(*args)
            if status == 2 and mutant in err:
                counts["refused"] += 1
            elif status == 0 and got == expected:
                counts["same"] += 1
            else:
                failures.append(f"{name}, {what}: exit status {status}, "
                                f"{'other reports' if got else err.strip()[:300]}")
        print(f"mutate_results: {mutants} mutants: {counts['refused']} refused, {counts['same']} rendered the same, "
              f"{len(failures)} neither")
        for failure in failures:
            print(f"  {failure}")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
