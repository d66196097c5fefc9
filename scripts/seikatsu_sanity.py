"""Seikatsu's uniform-random figures beside the rules' section 10 reference (95% intervals).

.venv/bin/python scripts/seikatsu_sanity.py --games 20000
"""

from __future__ import annotations

import argparse
import math
import statistics

from sanssim.games.seikatsu.sanity import REFERENCE, random_play

Z = 1.959964


def mean_ci(values: list[float]) -> str:
    half = Z * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):.2f} ± {half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per line")
    games = parser.parse_args().games
    print("| players | mode | bird points | flower points | total | seat 0 wins | top tied |")
    print("|---|---|---|---|---|---|---|")
    for (n, tournament), ref in REFERENCE.items():
        p = random_play(n, tournament, games)
        mode = "tournament" if tournament else "standard"
        ours = (mean_ci(p.birds), mean_ci(p.flowers), mean_ci(p.totals))
        theirs = [f"{m:.2f} ± {h:.2f}" for m, h in ref[:3]]
        cells = [f"{o} (ref {t})" for o, t in zip(ours, theirs, strict=True)]
        rates = [
            f"{p.seat0_wins / games:.3f} (ref {ref[3]})",
            f"{p.ties / games:.3f} (ref {ref[4]})",
        ]
        print(f"| {n} | {mode} | " + " | ".join([*cells, *rates]) + " |")


if __name__ == "__main__":
    main()
