"""The learning-efficiency methods that run in this process: TD self-play alone and Texel-style
regression. Both compose the method's ``python -m evolve`` config (so the genome is exactly the
studies' one) and save a champion file whenever they pass a checkpoint of the CPU budget."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from experiments.learning.efficiency_plans import Method
from experiments.stamp import ROOT


def compose_game(overrides: tuple[str, ...]):
    from hydra import compose, initialize_config_dir

    from evolve.ga.configuration.config import to_config
    from evolve.ga.configuration.schema import make_game

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = to_config(compose("config", overrides=list(overrides)))
    return cfg, make_game(cfg)


def start_genome(game, how: str) -> np.ndarray:
    if how == "zero":
        return np.zeros(game.genome_spec().size)
    return np.asarray(game.reference_genome(game.seed_references[0]), dtype=np.float64)


def learn(method: Method, seed: int, budget: float, run_dir: Path,
          marks: list[float]) -> list[dict]:
    """Learn until ``budget`` CPU-seconds; a champion file at each of ``marks``."""
    cfg, game = compose_game(method.overrides)
    run_dir.mkdir(parents=True, exist_ok=True)
    begin = time.process_time()
    if method.kind == "td_alone":
        genome, step = start_genome(game, method.td_start), td_chunks(game, cfg, seed)
    elif method.kind == "texel":
        from experiments.learning.texel import texel_chunks

        genome, step = start_genome(game, "zero"), texel_chunks(game, cfg, seed)
    else:
        raise ValueError(f"{method.name}: kind {method.kind!r} does not run in process")
    history, pending = [], list(marks)
    fractions = [mark / marks[-1] for mark in marks]
    while pending:
        genome, done = step(genome)
        used = time.process_time() - begin
        while pending and (used >= pending[0] or not np.isfinite(genome).all()):
            path = run_dir / f"cpu_{pending.pop(0):.0f}.json"
            game.save_champion(path, genome, f"{method.name} seed {seed}",
                               {"method": method.name, "seed": seed, "learnt": done,
                                "cpu_seconds": round(used, 1)})
            history.append({"cpu": used, "champion": str(path),
                            "fraction": fractions[len(history)]})
    return history


def td_chunks(game, cfg, seed: int):
    """A step: the next chunk of TD self-play games, about 1/40 of a minute each."""
    state = {"chunk": 200, "games": 0, "k": 0}

    def step(genome):
        start = time.process_time()
        genome = game.td_learn(genome, state["chunk"], np.random.SeedSequence([seed, state["k"]]),
                               cfg.ga.td_alpha, cfg.ga.td_epsilon)
        seconds = max(time.process_time() - start, 1e-3)
        state["games"] += state["chunk"]
        state["k"] += 1
        state["chunk"] = max(50, int(state["chunk"] * min(4.0, 1.5 / seconds)))
        return genome, f"{state['games']} TD games"

    return step
