#!/usr/bin/env python3
"""A tiny external bot for seqsolve: it plays a random legal move.

It shows the whole line protocol (see seqsolve/games/external.py) and needs
nothing but the Python standard library:  seqsolve match random "ext:python examples/random_bot.py"
"""

import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    legal: list[str] = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "seqsolve":
            print("ready", flush=True)
        elif words[0] == "legal":
            legal = words[1:]
        elif words[0] == "go":
            print("move " + rng.choice(legal), flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
