"""The ``pgn-arbiter`` command the package installs: the command line,
run by the module's native code with this process's arguments."""

import os
import sys

from . import _native


def main() -> None:
    """Runs the command line and exits with its status."""
    args = [os.fsencode(a) for a in ["pgn-arbiter", *sys.argv[1:]]]
    sys.exit(_native.main(args))


if __name__ == "__main__":
    main()
