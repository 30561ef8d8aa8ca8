"""GA generation wall time and games/s: population 10, 2 games per pair (one opening, both
colours; 90 games), depths 1..5, serial vs Ray with 1 and 2 workers.

    python experiments/bench_ga.py [--depths 1 2 3 4 5] [--generations 2] [--out results.md]

Each backend is warmed up first (engine imported, numba kernels compiled), then times
``--generations`` round-robin generations per depth; the population is the GA's real initial
population (seeded + random) so games look like a study's. Yardstick games are not included.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ray  # noqa: E402
from hydra import compose, initialize_config_dir  # noqa: E402

from evolve.execution.backends import SerialBackend  # noqa: E402
from evolve.ga.config import to_config  # noqa: E402
from evolve.ga.loop import Study, study_backend  # noqa: E402
from evolve.ga.tournament import warm_up  # noqa: E402

CONF = str(Path(__file__).resolve().parent.parent / "conf")


def make_config(depth: int, game: str):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        cfg = compose("config", overrides=[
            f"game={game}", "ga.population=10", "games.openings=1", f"search.depth={depth}",
            "yardstick.enabled=false", "plot=false", "progress=false"])
    return to_config(cfg)


def time_generations(backend, depth: int, game: str, generations: int) -> tuple[float, int]:
    study = Study(make_config(depth, game), Path("/tmp/bench_ga_unused"))
    state = study.initial_state()
    start, games = time.perf_counter(), 0
    for g in range(generations):
        report = study.score_generation(g, state.population, backend)
        games += len(report.games)
    return (time.perf_counter() - start) / generations, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--game", default="reversed_reversi")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    warm_up(args.game, {})
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="WARNING")
    cfg = make_config(1, args.game)
    times: dict[int, dict[str, float]] = {d: {} for d in args.depths}
    games_per_gen: dict[int, int] = {}
    for name in ("serial", "ray-1", "ray-2"):
        # one backend at a time: 1 + 2 actors would not fit in 2 CPUs
        if name == "serial":
            backend = SerialBackend()
        else:
            cfg.ray.workers, cfg.backend = int(name[-1]), "ray"
            backend = study_backend(cfg)
        for depth in args.depths:
            seconds, games = time_generations(backend, depth, args.game, args.generations)
            times[depth][name] = seconds
            games_per_gen[depth] = games // args.generations
            print(f"depth {depth} {name:7s} {seconds:7.2f} s/generation  "
                  f"{games / args.generations / seconds:7.1f} games/s", flush=True)
        backend.close()
    ray.shutdown()
    rows = [(d, games_per_gen[d], times[d]) for d in args.depths]
    table = render(rows, args)
    print(table)
    if args.out:
        args.out.write_text(table)


def render(rows, args) -> str:
    lines = [f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
             f"Python {platform.python_version()}, ray {ray.__version__}",
             f"game {args.game}, population 10, 1 opening x 2 colours per pair, "
             f"{args.generations} generations timed per cell", "",
             "| depth | games/gen | serial s/gen | ray-1 s/gen | ray-2 s/gen | serial games/s "
             "| ray-2 games/s | ray-2 speed-up vs ray-1 |",
             "|---|---|---|---|---|---|---|---|"]
    for depth, games, t in rows:
        lines.append(f"| {depth} | {games} | {t['serial']:.2f} | {t['ray-1']:.2f} "
                     f"| {t['ray-2']:.2f} "
                     f"| {games / t['serial']:.1f} | {games / t['ray-2']:.1f} "
                     f"| {t['ray-1'] / t['ray-2']:.2f}x |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
