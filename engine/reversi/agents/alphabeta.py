"""The agent the GA tunes: alpha-beta over ``engine.reversi.search.searcher`` with given weights
(square tables, or an n-tuple network).

Deterministic: the move depends only on the position, the weights, the variant and the depth
(or, with ``time_limit``, on how deep the search got in time). ``seed`` is accepted for the Agent
protocol and ignored. Agents in one process share one transposition table (see
``engine.kernels.search.tt.shared_table``), so creating thousands of them in a GA costs nothing.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.agent import Seed, check_search_args, cut_info
from engine.reversi.files import NtupleWeights, load_evaluation
from engine.reversi.genome.weights import Weights
from engine.reversi.rules.state import PASS, Position, Variant
from engine.reversi.search.searcher import NO_MOVE, Searcher, SearchResult


class AlphaBetaAgent:
    """``depth`` plies per move, or iterative deepening within ``time_limit`` seconds (then
    ``depth`` is ignored); exact play once at most ``endgame_empties`` squares are empty."""

    def __init__(
        self,
        weights: Weights | NtupleWeights | str | Path,
        variant: str | Variant = "othello",
        depth: int = 4,
        time_limit: float | None = None,
        endgame_empties: int = 10,
        seed: Seed = None,
        name: str | None = None,
        tt_bits: int = 20,
        exact_solver: str = "pvs",
    ):
        if not isinstance(weights, Weights | NtupleWeights):
            weights = load_evaluation(weights)
        check_search_args(depth, time_limit)
        self.weights = weights
        self.variant = Variant.parse(variant)
        self.depth = int(depth)
        self.time_limit = time_limit
        self.deadline: float | None = None  # a fixed-depth search's cap (``cut_info``)
        self.searcher = Searcher(weights, self.variant, endgame_empties, tt_bits, shared=True,
                                 exact_solver=exact_solver)
        budget = f"{time_limit}s" if time_limit is not None else f"d{depth}"
        self.name = name or f"alphabeta[{weights.name or 'weights'}]@{budget}"
        self.nodes = 0  # nodes searched since the last reset
        self.last_result: SearchResult | None = None
        self.last_info: dict = {}

    def reset(self, seed: Seed = None) -> None:
        self.searcher.clear()
        self.nodes = 0
        self.last_result = None
        self.last_info: dict = {}

    def select_move(self, position: Position) -> int:
        if position.legal_moves_mask() == 0:
            return PASS  # never called on a finished game (Agent protocol)
        if self.time_limit is None:
            result = self.searcher.search(position, depth=self.depth, deadline=self.deadline)
        else:
            result = self.searcher.search(position, time_limit=self.time_limit)
        self.nodes += result.nodes
        self.last_result = result
        self.last_info = {"eval": float(result.score), "exact": bool(result.exact),
                          **cut_info(self, result)}
        if result.move in (NO_MOVE, PASS):  # cannot happen with a legal move available
            raise RuntimeError(f"search returned no move for {position.to_string()}")
        return result.move

    def __repr__(self) -> str:
        return f"AlphaBetaAgent({self.name!r}, variant={self.variant.value})"
