"""How good are Hexifence's parity features? On positions where the chain-aware agent (playing
both sides, seeded) has just run out of safe edges with nothing to capture, how often does the
sign of the exact solver's value for the side to move agree with

- ``chain_parity`` (+1 when the long-chain rule favours the side to move), and
- "an odd number of short chains" (the side to move wins when the short chains are odd)?

    python -m experiments.bench.engine.hexifence_parity --games 60 \
        --out experiments/results/hexifence_parity.md

Game k (k = 0 .. games-1) is ``ChainAgent(k)`` against itself from the empty N=3 board (the
same games as ``bench_hexifence.py``'s "chain vs chain game seed k"); its first position with no
safe edge and no cell to capture is the sample. A value of 0 (a drawn margin) agrees with
neither. Everything is exact and seeded: the counts are the same on every machine.
"""

from __future__ import annotations

import sys

import numpy as np

from engine.hexifence.agents.chain import ChainAgent
from engine.hexifence.genome.evaluation import FEATURES, N_FEATURES, features
from engine.hexifence.rules.bitboard import count_safe, degrees
from engine.hexifence.rules.state import initial_state
from engine.hexifence.search.searcher import Searcher
from experiments.common import arguments
from experiments.stamp import Stamp, write_json, write_markdown

CHAIN_PARITY, SHORT_CHAINS = FEATURES.index("chain_parity"), FEATURES.index("short_chains")
LONG_CHAINS, LOOPS = FEATURES.index("long_chains"), FEATURES.index("loops")


def out_of_safe_edges(seed: int, size: int):
    """The first position of game ``seed`` with no safe edge and nothing to capture."""
    agent, state = ChainAgent(seed), initial_state(size)
    while not state.is_terminal():
        b = state.board
        deg = np.empty(b.n_cells, np.int8)
        degrees(state.undrawn, b.cell_edges, deg)
        if not (deg == 1).any() and count_safe(state.undrawn, deg, b.n_edges, b.edge_cells) == 0:
            return state, deg
        state = state.play(agent.select_move(state))
    return None, None


def sample(seed: int, size: int, solver: Searcher) -> dict | None:
    state, deg = out_of_safe_edges(seed, size)
    if state is None:
        return None
    b, out = state.board, np.zeros(N_FEATURES)
    features(state.undrawn, deg, 0.0, b.n_edges, b.edge_cells, b.cell_edges, out)
    value = solver.solve(state).value
    return {"seed": seed, "undrawn": state.empty_edges, "value": value,
            "chain_parity": int(out[CHAIN_PARITY]), "short_chains": int(out[SHORT_CHAINS]),
            "long_or_loop": bool(out[LONG_CHAINS] + out[LOOPS] > 0)}


def agreement(rows: list[dict]) -> dict:
    wins = [np.sign(r["value"]) for r in rows]
    parity = sum(w == r["chain_parity"] for w, r in zip(wins, rows, strict=True))
    odd = sum(w == (1 if r["short_chains"] % 2 else -1) for w, r in zip(wins, rows, strict=True))
    return {"positions": len(rows), "with_long_chain_or_loop": sum(r["long_or_loop"] for r in rows),
            "chain_parity_agrees": int(parity), "odd_short_chains_agrees": int(odd),
            "mover_wins": int(sum(w > 0 for w in wins)), "drawn": int(sum(w == 0 for w in wins))}


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--size", type=int, default=3)
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    solver = Searcher(np.zeros((1, N_FEATURES)), args.size, tt_bits=20, shared=False)
    rows = [r for r in (sample(k, args.size, solver) for k in range(args.games)) if r]
    a, chains = agreement(rows), agreement([r for r in rows if r["long_or_loop"]])
    lines = [f"N={args.size}, games k = 0..{args.games - 1}: {a['positions']} positions out of "
             f"safe edges, {a['with_long_chain_or_loop']} of them with a long chain or a loop; "
             f"the side to move wins {a['mover_wins']} under perfect play "
             f"({a['drawn']} drawn).", "",
             "| predictor of \"the side to move wins\" | agrees with the exact solver: all "
             "positions | those with a long chain or a loop |", "|---|---|---|",
             f"| `chain_parity` = +1 | {_share(a, 'chain_parity_agrees')} "
             f"| {_share(chains, 'chain_parity_agrees')} |",
             f"| an odd number of short chains | {_share(a, 'odd_short_chains_agrees')} "
             f"| {_share(chains, 'odd_short_chains_agrees')} |", "",
             "| game k | undrawn edges | exact value (side to move) | chain_parity "
             "| short chains | long chain or loop |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['seed']} | {r['undrawn']} | {r['value']:+.0f} | {r['chain_parity']:+d} "
              f"| {r['short_chains']} | {'yes' if r['long_or_loop'] else 'no'} |" for r in rows]
    print("\n".join(lines[:7]))
    if args.out:
        write_markdown(args.out, "# Hexifence: parity features against the exact solver",
                       lines, stamp)
        write_json(args.out.with_suffix(".json"), {"size": args.size, "all": a,
                                                    "with_long_chain_or_loop": chains,
                                                    "rows": rows}, stamp)
    return 0


def _share(a: dict, key: str) -> str:
    return f"{a[key]} of {a['positions']} ({a[key] / max(1, a['positions']):.0%})"


if __name__ == "__main__":
    sys.exit(main())
