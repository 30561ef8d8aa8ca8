"""What TD self-play alone reaches with an n-tuple network in Hexifence (issue 21).

    python -m experiments.learning.td_hexifence --td-games 10000 100000 --games 200
    python -m experiments.learning.td_hexifence --size 2 --td-games 1000 --out /tmp/nt

The steps of ``experiments/learning/td_pentago.py`` (its machinery, imported) for
Hexifence on the N = ``--size`` board: one TD self-play run of an ``ntuple`` genome from zero
weights (the value is then the cell margin plus the network), saved (under ``--work``) at each
count of ``--td-games``; each file against the seed's ``reference`` weights at equal search
(``--depth`` turns, exact from ``--endgame-empties`` undrawn edges) with ``python -m
evolve.evaluate``.
Writes ``OUT/ntuple_hexifence_strength.md`` and ``.json``, stamped.
"""

from __future__ import annotations

import json

from experiments.learning.td_pentago import parser, run


def main() -> None:
    p = parser(__doc__.split("\n")[0], {"td_games": [10_000, 100_000], "alpha": 0.1,
                                        "layout": "cell+pair", "depth": 2,
                                        "endgame_empties": 20})
    p.add_argument("--size", type=int, default=3, help="board dimension N")
    args = p.parse_args()
    args.game, args.title = "hexifence", f"Hexifence N={args.size}"
    args.settings = {"size": args.size, "genome": {"kind": "ntuple", "layout": args.layout,
                                                   "phases": args.phases,
                                                   "features": args.features}}
    run(args, "ntuple_hexifence_strength",
        game_settings=json.dumps({"size": args.size}) if args.size != 3 else None)


if __name__ == "__main__":
    main()
