"""Playing evaluation games as plain data, in-process or on Ray (used by ``evolve.evaluate``).

A game is an ``EvalTask`` (two agent specs, an opening, a seed tuple); a runner maps a list of
tasks to the list of winners in the same order. Agents are built fresh for every game from
their specs, so a result cannot depend on which worker played it or what it played before.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class EvalSettings:
    variant: str
    depth: int | None = 4  # None with time_limit: iterative deepening within the time only
    time_limit: float | None = None  # seconds per move
    epsilon: float = 0.0  # both sides play a random legal move with this probability
    endgame_empties: int = 8

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class EvalTask:
    index: int  # game number within its match (even: first player black)
    black: str  # agent spec or weights file
    white: str
    opening: tuple[int, ...]
    seed: tuple[int, ...]  # SeedSequence entropy


MAX_DEPTH_WITH_TIME = 60  # "no depth limit" when a per-move time budget is given


def make_player(spec: str, settings: EvalSettings, seed):
    from engine.reversi.agents.factory import make_agent

    depth = settings.depth if settings.depth is not None else MAX_DEPTH_WITH_TIME
    agent = make_agent(spec, settings.variant, depth=depth, time_limit=settings.time_limit,
                       seed=seed, endgame_empties=settings.endgame_empties)
    if settings.epsilon > 0:
        from engine.reversi.agents.simple import EpsilonAgent

        agent = EpsilonAgent(agent, epsilon=settings.epsilon, seed=seed)
    return agent


def play_eval_tasks(settings: EvalSettings, tasks: list[EvalTask]) -> list[str]:
    """Winner ("black", "white" or "draw") of every task, in order."""
    from engine.reversi.match import play_game

    winners = []
    for task in tasks:
        black_seed, white_seed, game_seed = np.random.SeedSequence(list(task.seed)).spawn(3)
        black = make_player(task.black, settings, black_seed)
        white = make_player(task.white, settings, white_seed)
        record = play_game(black, white, settings.variant, task.opening, game_seed)
        winners.append(str(record.winner))
    return winners


class SerialRunner:
    def __init__(self, settings: EvalSettings):
        self.settings = settings

    def __call__(self, tasks: list[EvalTask]) -> list[str]:
        return play_eval_tasks(self.settings, tasks)

    def close(self) -> None:
        pass


class RayRunner:
    """Ray tasks over chunks of games (a few chunks per CPU so that long games balance out);
    Ray retries a task whose worker died, and results come back in submission order."""

    CHUNKS_PER_WORKER = 4

    def __init__(self, settings: EvalSettings, workers: int | None = None):
        import ray

        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.remote = ray.remote(num_cpus=1, max_retries=3)(play_eval_tasks)
        self.settings_ref = ray.put(settings)

    def __call__(self, tasks: list[EvalTask]) -> list[str]:
        size = max(1, -(-len(tasks) // (self.workers * self.CHUNKS_PER_WORKER)))
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        refs = [self.remote.remote(self.settings_ref, chunk) for chunk in chunks]
        return [w for chunk in self.ray.get(refs) for w in chunk]

    def close(self) -> None:
        if self.owns_ray:
            self.ray.shutdown()


class make_runner:  # noqa: N801 (used as a context manager: ``with make_runner(...) as run``)
    def __init__(self, backend: str, settings: EvalSettings, workers: int | None = None):
        if backend not in ("serial", "ray"):
            raise ValueError(f"unknown backend {backend!r} (allowed: serial, ray)")
        if workers is not None and workers < 1:  # ray.init(num_cpus=0) would wait forever
            raise ValueError(f"workers must be >= 1, got {workers}")
        serial = backend == "serial"
        self.runner = SerialRunner(settings) if serial else RayRunner(settings, workers)

    def __enter__(self):
        return self.runner

    def __exit__(self, *exc) -> None:
        self.runner.close()


# --- players ----------------------------------------------------------------------------------


def weights_path_of(spec: str) -> str | None:
    """The weights file a spec names (``eps0.1:a.json``, ``mcts:500:a.json`` -> ``a.json``;
    a run directory counts), or None; read with the factory's own spec grammar."""
    from engine.reversi.agents.factory import parse_spec

    try:
        return parse_spec(spec).weights_file
    except ValueError:
        return None  # an unknown spec: ``check_specs`` reports it with the allowed list


def resolve_players(specs: list[str]) -> list[str]:
    """Agent specs with run directories replaced by their champion.json; every weights file is
    loaded once here so that a bad file fails now with its message, not inside a worker."""
    from dataclasses import replace

    from engine.reversi.agents.factory import parse_spec
    from engine.reversi.weights import load_weights
    from evolve.export import resolve_source

    resolved = []
    for spec in specs:
        inner = weights_path_of(spec)
        if inner is not None and Path(inner).exists():
            path = resolve_source(inner)
            load_weights(path)
            if path != Path(inner):  # a run directory: name its champion file instead
                spec = str(replace(parse_spec(spec), weights=str(path)))
        resolved.append(spec)
    return resolved


def file_variants(players: list[str]) -> dict[str, str]:
    """``{weights file: variant}`` for the players that are weights files naming a variant."""
    from engine.reversi.weights import load_weights

    found = {}
    for spec in players:
        path = weights_path_of(spec)
        if path is not None and Path(path).is_file():
            variant = load_weights(path).metadata.get("variant")
            if variant:
                found[path] = str(variant)
    return found


def choose_variant(requested: str | None, players: list[str]) -> tuple[str, str | None]:
    """(rules to play, warning or None): ``requested`` (``--variant``) if given, else the one
    variant the weights files name. A ``--variant`` that contradicts a file is allowed (a
    deliberate cross-rules test) but never silent: the warning names the files."""
    found = file_variants(players)
    if requested is None:
        variants = sorted(set(found.values()))
        if len(variants) != 1:
            raise ValueError(f"cannot tell the rules from the weights files (variants: "
                             f"{', '.join(variants) or 'none'}); give --variant othello|reversed")
        return variants[0], None
    others = {path: v for path, v in found.items() if v != requested}
    if not others:
        return requested, None
    listed = ", ".join(f"{Path(p).name} ({v})" for p, v in others.items())
    return requested, f"--variant {requested} overrides the variant of {listed}"


def check_specs(players: list[str], settings: EvalSettings) -> None:
    """Build each player once so that an unknown spec fails early with the allowed list."""
    for spec in players:
        make_player(spec, settings, 0)
