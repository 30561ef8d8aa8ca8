"""Record the games Reversi's own match runner played, as test data for the core's runner.

    python tests/engine/reversi/record_match_baseline.py /work/baseline \
        tests/data/reversi_match_baseline.json

The checkout given first is put at the front of ``sys.path``: its ``engine`` is imported
(``tests/engine/baseline_checkout.py``). Run it on the code from before ``engine.reversi.match``
(now ``tests/engine/reversi/helpers_match.py``) became a view of ``engine.core.matches.runner``:
``tests/engine/reversi/test_match.py`` proves the one runner plays the same games (same moves,
counts, scores) and draws the same openings.

Recorded: seeded openings (two lengths) and colour-swapped pairs between agents that draw random
numbers at every move they are asked for (so asking an agent one move more or less than before
would show), both variants, games with passes and with single legal squares.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))  # for tests.engine, after the script
from tests.engine.baseline_checkout import use_checkout, write_json  # noqa: E402

PAIRS = [  # (agent a, agent b, variant, number of openings, seed)
    ("random", "eps0.3:greedy", "othello", 6, 1),
    ("greedy", "random", "reversed", 6, 2),
    ("mcts:30", "eps0.5:wpc1", "othello", 2, 3),
    ("course", "random", "reversed", 2, 4),  # alpha-beta, depth 2
    ("bfs:200", "eps0.2:random", "othello", 2, 5),
]
OPENINGS = [(20, 7, 4, 8), (40, 11, 1, 12)]  # (n, seed, min_plies, max_plies)


def main(code: str, out: str) -> None:
    data = {"recorded_from": use_checkout(code),
            "command": f"python tests/engine/reversi/record_match_baseline.py {code} {out}",
            "openings": [], "pairs": []}
    from engine.reversi.match import play_pairs, random_openings  # the checkout's, not ours

    from engine.reversi.agents.factory import make_agent

    for n, seed, low, high in OPENINGS:
        data["openings"].append({"n": n, "seed": seed, "min_plies": low, "max_plies": high,
                                 "openings": random_openings(n, seed, low, high)})
    for a, b, variant, n, seed in PAIRS:
        openings = random_openings(n, seed + 100)
        agents = [make_agent(spec, variant, depth=2, seed=0) for spec in (a, b)]
        records = play_pairs(*agents, openings, variant, seed=seed)
        data["pairs"].append({"a": a, "b": b, "variant": variant, "seed": seed,
                              "openings": openings, "records": [asdict(r) for r in records]})
    write_json(data, out, '{"moves"')
    print(f"wrote {out}: {sum(len(p['records']) for p in data['pairs'])} games")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])
