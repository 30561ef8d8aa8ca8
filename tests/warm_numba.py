"""``python -m tests.warm_numba``: compile the kernels the tests use most into the test command's
numba cache (``tests/numba_cache.py``) before the test run.

On a cold cache, the test workers would each compile the same kernels at the same time. This
warms what every study config of ``conf/experiment`` plays with (the study's own warm-up: one
short game of its game, genome and search, plus one game of TD self-play where the genome
learns by TD), and learning from search (a few positions sampled, labelled and fitted, with the
reference evaluation and with the committed network); the rest compiles on first use as usual.
It prints how long that took, so the first-call cost stays visible."""

from __future__ import annotations

import time
from pathlib import Path

from tests.numba_cache import use_keyed_cache

ROOT = Path(__file__).resolve().parent.parent


def study_games() -> list[tuple[str, dict, bool]]:
    """(game, settings, learns by TD) of every experiment config, each once."""
    from hydra import compose, initialize_config_dir

    from evolve.execution.games import configured_game
    from evolve.ga.configuration.config import to_config
    from evolve.sweep import use_plugins

    use_plugins()
    seen: dict[str, tuple[str, dict, bool]] = {}
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        for file in sorted((ROOT / "conf" / "experiment").glob("*.yaml")):
            config = to_config(compose("config", overrides=[f"+experiment={file.stem}"]))
            name, settings = config.game.name, dict(config.game.settings)
            learns = bool(getattr(configured_game(name, settings), "learns_by_td", bool)())
            seen.setdefault(repr((name, settings)), (name, settings, learns))
    return list(seen.values())


def warm_labels() -> None:
    """Sample, label and fit a few positions in every game with the ``labels`` capability."""
    import numpy as np

    from engine.core.capabilities import LABELS, has
    from engine.core.champions.files import load_champion
    from engine.core.registry import game_names, get_game

    network = ROOT / "experiments" / "results" / "champions" / "othello_ntuple.json"
    for name in game_names():
        game = get_game(name)
        if not has(game, LABELS):
            continue
        champions = [None, load_champion(network, game)] if name == "othello" else [None]
        for champion in champions:
            sample = game.sample_positions(60, 0, champion, {})
            game.label_positions(sample["cells"][:24], sample["ply"][:24], champion, 2, 10)
        fitted = game.with_settings({"genome": {"kind": "ntuple", "layout": "straight2"}})
        fitted.fit_network({"cells": sample["cells"], "ply": sample["ply"],
                            "target": np.zeros(len(sample["ply"]), np.float32),
                            "source": np.zeros(len(sample["ply"]), np.uint8),
                            "depth": np.zeros(len(sample["ply"]), np.int8)}, {"iterations": 2})


def main() -> None:
    cache = use_keyed_cache()
    from evolve.execution.games import warm_up

    started = time.perf_counter()
    for name, settings, learns in study_games():
        began = time.perf_counter()
        warm_up(name, settings, learns=learns)
        print(f"warm_numba: {name} {settings.get('genome', {}).get('kind', 'features')}: "
              f"{time.perf_counter() - began:.1f} s", flush=True)
    began = time.perf_counter()
    warm_labels()
    print(f"warm_numba: learning from search: {time.perf_counter() - began:.1f} s", flush=True)
    print(f"warm_numba: {time.perf_counter() - started:.1f} s in all (cache: {cache})")


if __name__ == "__main__":
    main()
