"""GA speed: one generation's wall time serial vs Ray with 1 and 2 workers (population 10, one
opening per pair played with both colours: 90 games, depths 1..5), and whole studies end to end.

    python -m experiments.bench.study.ga --generations 5 --studies depth5 defaults \
        --out experiments/results/bench_ga.md

Generations: each backend is warmed up first (actors started, numba kernels loaded), then
``--generations`` round-robin generations are timed per depth; the population is the GA's real
initial population (half seeded, half random) so games look like a study's; yardstick off,
``search.endgame_empties=8`` (the config default). Ray runs embedded with ``num_cpus=2``.

Studies (``--studies``): ``python -m evolve`` in a subprocess, timed from start to exit (Ray's
start, the workers' warm-up, every generation, the playoff and the files): ``depth5`` is 10
agents x 10 generations at depth 5 (the course project's setting), ``defaults`` every study of
``conf/experiment/`` but the smoke test (how long "a default study" takes, as the docs quote).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray
from hydra import compose, initialize_config_dir

from evolve.execution.backends import SerialBackend
from evolve.ga.configuration.config import resolve, to_config
from evolve.ga.loop import Study, study_backend
from evolve.ga.scoring.tournament import warm_up
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result

CONF = str(ROOT / "conf")
BACKENDS = ("serial", "ray-1", "ray-2")
STUDIES = {
    "depth5": [["game=reversed_reversi", "ga.population=10", "ga.generations=10",
                "search.depth=5", "games.openings=1"]],
    "defaults": [[f"+experiment={name}"] for name in (
        "reversed_reversi", "othello", "othello_league", "reversed_reversi_1ply", "pentago_twist",
        "hexifence")],
}


def make_config(depth: int, game: str):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        cfg = compose("config", overrides=[
            f"game={game}", "ga.population=10", "games.openings=1", f"search.depth={depth}",
            "yardstick.enabled=false", "plot=false", "progress=false"])
    return to_config(cfg)


def time_generations(backend, depth: int, game: str, generations: int) -> tuple[float, int]:
    study = Study(resolve(make_config(depth, game)),
                  Path(tempfile.gettempdir()) / "bench_ga_unused")
    state = study.initial_state()
    start, games = time.perf_counter(), 0
    for g in range(generations):
        report = study.score_generation(g, state.population, backend)
        games += len(report.games)
    return (time.perf_counter() - start) / generations, games


def generation_rows(args) -> list[dict]:
    warm_up(args.game, {})
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="WARNING")
    cfg = make_config(1, args.game)
    rows = {d: {"depth": d} for d in args.depths}
    for name in BACKENDS:
        # one backend at a time: 1 + 2 actors would not fit in 2 CPUs
        if name == "serial":
            backend = SerialBackend()
        else:
            cfg.ray.workers, cfg.backend = int(name[-1]), "ray"
            backend = study_backend(cfg)
        for depth in args.depths:
            seconds, games = time_generations(backend, depth, args.game, args.generations)
            rows[depth][name], rows[depth]["games"] = seconds, games // args.generations
            print(f"depth {depth} {name:7s} {seconds:7.2f} s/generation  "
                  f"{games / args.generations / seconds:7.1f} games/s", flush=True)
        backend.close()
    ray.shutdown()
    return list(rows.values())


def time_study(overrides: list[str]) -> dict:
    """Wall seconds of one ``python -m evolve`` from start to exit, and its games."""
    with tempfile.TemporaryDirectory() as run_dir:
        cmd = [sys.executable, "-m", "evolve", *overrides, f"hydra.run.dir={run_dir}"]
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"study failed: {' '.join(cmd[1:])}\n{done.stderr.strip()[-2000:]}")
        games = sum(1 for name in ("games.csv", "yardstick_games.csv", "playoff.csv")
                    for _ in _rows(Path(run_dir) / name))
    print(f"python -m evolve {' '.join(overrides)}: {seconds:.1f} s", flush=True)
    return {"command": "python -m evolve " + " ".join(overrides), "seconds": seconds,
            "games": games}


def _rows(path: Path):
    if path.is_file():
        with open(path) as f:
            next(f, None)
            yield from f


def render(rows: list[dict], studies: list[dict], args) -> list[str]:
    lines = [f"Game {args.game}, population 10, 1 opening x 2 colours per pair (90 games per "
             f"generation), yardstick off, {args.generations} generations timed per cell after "
             "a warm-up; Ray embedded with 2 CPUs, `ray-N` = N game-playing actors.", "",
             "| depth | games/gen | serial s/gen | ray-1 s/gen | ray-2 s/gen | serial games/s "
             "| ray-2 games/s | ray-2 speed-up vs ray-1 |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['depth']} | {r['games']} | {r['serial']:.2f} | {r['ray-1']:.2f} "
                     f"| {r['ray-2']:.2f} | {r['games'] / r['serial']:.1f} "
                     f"| {r['games'] / r['ray-2']:.1f} | {r['ray-1'] / r['ray-2']:.2f}x |")
    if studies:
        lines += ["", "## Whole studies, end to end (start to exit: Ray start, warm-up, "
                  "generations, playoff, files)", "", "| command | games | wall |",
                  "|---|---|---|"]
        lines += [f"| `{s['command']}` | {s['games']:,} | {s['seconds']:.1f} s |"
                  for s in studies]
    return lines


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--game", default="reversed_reversi")
    parser.add_argument("--studies", nargs="*", default=[], choices=list(STUDIES))
    args = parser.parse_args()
    stamp = Stamp.begin()
    rows = generation_rows(args)
    studies = [time_study(o) for name in args.studies for o in STUDIES[name]]
    lines = render(rows, studies, args)
    write_result(args.out, "# GA speed: serial vs Ray, and whole studies", lines, stamp,
                 {"game": args.game, "generations": args.generations, "rows": rows,
                  "studies": studies})


if __name__ == "__main__":
    main()
