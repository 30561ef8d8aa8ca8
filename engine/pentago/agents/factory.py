"""Agent specs for Pentago Twist: short text naming a player (CLIs, the GA's panel, evaluate).

- ``random``; ``greedy`` (win now, never hand over a win in one, else random);
- ``mcts`` (the seed's UCT: 1000 play-outs, or the caller's time limit per move),
  ``mcts:<playouts>``; ``mcts_h``, ``mcts_h:<playouts>`` (heuristic play-outs guided by the
  reference evaluation);
- ``alphabeta`` or ``reference``: alpha-beta with the reference weights at the search settings
  (the seed's feature genome, whichever genome kind the game is configured with);
- a champion file path (``.json``): alpha-beta with that file's genome (either kind).
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.core import SearchSettings
from engine.core.agent import Seed

MCTS_PLAYOUTS = 1000
_MCTS = re.compile(r"^(?P<kind>mcts|mcts_h)(?::(?P<n>[0-9]+))?$")
AGENT_SPECS = ("random", "greedy", "mcts", "mcts:<playouts>", "mcts_h", "mcts_h:<playouts>",
               "alphabeta", "reference", "<champion file .json>")


def allowed_specs() -> str:
    return ", ".join(AGENT_SPECS)


def check_spec(spec: str, load_champion) -> None:
    """``ValueError`` naming the allowed specs unless ``spec`` names an agent (files are read)."""
    text = str(spec).strip()
    if text in ("random", "greedy", "alphabeta", "reference"):
        return
    match = _MCTS.match(text)
    if match:
        if match["n"] is not None and int(match["n"]) < 1:
            raise ValueError(f"agent spec {text!r}: play-outs must be >= 1")
        return
    if _names_file(text):
        load_champion(text)
        return
    raise ValueError(f"unknown agent spec {text!r} for pentago_twist (allowed: "
                     f"{allowed_specs()})")


def make_agent(game, spec: str, search: SearchSettings, seed: Seed = None):
    """The agent ``spec`` names, searching with ``search`` where it searches."""
    from engine.pentago.agents.mcts import MCTSAgent
    from engine.pentago.agents.simple import GreedyAgent, RandomAgent

    text = str(spec).strip()
    if not _names_file(text):
        check_spec(text, game.load_champion)  # reads no file
    if text == "random":
        return RandomAgent(seed)
    if text == "greedy":
        return GreedyAgent(seed)
    match = _MCTS.match(text)
    if match:
        playouts = int(match["n"]) if match["n"] else None
        timed = playouts is None and search.time_limit is not None
        if playouts is None and not timed:
            playouts = MCTS_PLAYOUTS
        guide = {}
        if match["kind"] == "mcts_h":
            seed_game = game.features_game()
            weights, phases = seed_game.evaluation_arrays(seed_game.reference_genome("reference"))
            guide = {"weights": weights, "phase_of_stones": phases}
        return MCTSAgent(playouts=playouts, time_limit=search.time_limit if timed else None,
                         seed=seed, name=text, **guide)
    if text in ("alphabeta", "reference"):
        seed_game = game.features_game()
        return seed_game.make_agent(seed_game.reference_genome("reference"), search, seed,
                                    name=text)
    return game.champion_agent(game.load_champion(text), search, seed)


def _names_file(text: str) -> bool:
    return text.lower().endswith(".json") or Path(text).exists()
