"""Train a genome by TD self-play alone and save it as a champion file (any game whose genome
learns by temporal differences: ``game.genome.kind=ntuple``), e.g. to seed a study with it
(``game.seed_references=[network.json]``) or to compare with evolution.

    python -m evolve.td --game GAME --settings '{"genome": {"kind": "ntuple"}}' \
        --stage 1000000:0.07 --stage 300000:0.02 --stage 300000:0.005 --out network.json

Each ``--stage GAMES:ALPHA`` plays GAMES games of epsilon-greedy self-play at learning rate
ALPHA (the share of the TD error a step moves a value by, docs/patterns.md); a falling rate
settles the weights. Reproducible from ``--seed`` (stage k's games from
``SeedSequence([seed, k, chunk])``), whatever the machine; a progress bar with ETA on a
terminal. ``--start``: ``zero`` weights, a seed reference of the game, or a champion file.
``--opponents SPEC ...`` (games that support it): fixed players (agent specs: ``wpc1``, a
reference, a champion file) that play blocks of games against the network, which learns from
those games too; ``--self-play-share`` of the blocks stay self-play (docs/patterns.md).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from engine.core.registry import game_names, get_game

CHUNK = 5000  # games per td_learn call: the progress bar's step


def stage(text: str) -> tuple[int, float]:
    try:
        games, alpha = text.split(":")
        games, alpha = int(games), float(alpha)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--stage {text!r}: expected GAMES:ALPHA, e.g. "
                                         "1000000:0.07") from None
    if games < 1 or not 0.0 < alpha <= 1.0:
        raise argparse.ArgumentTypeError(f"--stage {text!r}: GAMES must be >= 1 and "
                                         "0 < ALPHA <= 1")
    return games, alpha


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m evolve.td", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help=f"one of: {', '.join(game_names())}")
    p.add_argument("--settings", default="{}", help="the game's settings as a JSON object")
    p.add_argument("--stage", type=stage, action="append", required=True,
                   help="GAMES:ALPHA, repeatable (in order)")
    p.add_argument("--epsilon", type=float, default=0.1, help="random-move probability")
    p.add_argument("--start", default="zero", help="zero | a seed reference | a champion file")
    p.add_argument("--opponents", nargs="+", default=[], metavar="SPEC",
                   help="fixed players some games are played against (e.g. wpc1 a.json)")
    p.add_argument("--self-play-share", type=float, default=0.5,
                   help="with --opponents: share of the games that stay self-play")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--no-progress", action="store_true")
    return p.parse_args(argv)


def start_genome(game, start: str) -> np.ndarray:
    if start == "zero":
        return np.zeros(game.genome_spec().size)
    if start.endswith(".json"):
        champion = game.load_champion(start)
        genome = np.asarray(champion.genome, dtype=np.float64)
        if genome.shape != (game.genome_spec().size,):
            raise ValueError(f"--start {start}: {genome.size} genes, this genome has "
                             f"{game.genome_spec().size} (use the file's --settings)")
        return genome
    if start not in game.reference_names():
        raise ValueError(f"--start {start!r}: allowed zero, a champion file, or one of "
                         f"{', '.join(game.reference_names())}")
    return np.asarray(game.reference_genome(start), dtype=np.float64)


def train(game, genome: np.ndarray, stages: list[tuple[int, float]], epsilon: float, seed: int,
          progress: bool, against: dict | None = None) -> np.ndarray:
    """``against``: ``opponents`` and ``self_play_share`` for ``td_learn`` (none: self-play)."""
    from tqdm import tqdm

    total = sum(games for games, _ in stages)
    with tqdm(total=total, unit="game", disable=not progress, desc="TD self-play") as bar:
        for k, (games, alpha) in enumerate(stages):
            for chunk, done in enumerate(range(0, games, CHUNK)):
                n = min(CHUNK, games - done)
                genome = game.td_learn(genome, n, np.random.SeedSequence([seed, k, chunk]),
                                       alpha, epsilon, **(against or {}))
                bar.update(n)
    return genome


def run(args: argparse.Namespace, argv: list[str]) -> Path:
    if args.game not in game_names():
        raise ValueError(f"--game {args.game!r}: allowed {', '.join(game_names())}")
    try:
        settings = json.loads(args.settings)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--settings is not JSON: {exc}") from None
    game = get_game(args.game, settings)
    if not game.learns_by_td():
        raise ValueError(f"{args.game} with these settings does not learn by TD (an n-tuple "
                         "genome does: --settings '{\"genome\": {\"kind\": \"ntuple\"}}')")
    if not 0.0 <= args.epsilon <= 1.0:
        raise ValueError(f"--epsilon {args.epsilon}: allowed 0 <= epsilon <= 1")
    against = None
    if args.opponents:
        if not game.td_opponents():
            raise ValueError(f"--opponents: {args.game} learns by self-play only")
        if not 0.0 <= args.self_play_share <= 1.0:
            raise ValueError(f"--self-play-share {args.self_play_share}: allowed 0 <= share "
                             "<= 1")
        against = {"opponents": tuple(args.opponents),
                   "self_play_share": args.self_play_share}
    genome = start_genome(game, args.start)
    began = time.process_time()
    progress = not args.no_progress and sys.stderr.isatty()
    genome = train(game, genome, args.stage, args.epsilon, args.seed, progress, against)
    seconds = time.process_time() - began
    args.out.parent.mkdir(parents=True, exist_ok=True)
    game.save_champion(args.out, genome, f"TD {sum(g for g, _ in args.stage)} games", {
        "command": shlex.join(["python", "-m", "evolve.td", *argv]),
        "td": {"stages": [{"games": g, "alpha": a} for g, a in args.stage],
               "epsilon": args.epsilon, "seed": args.seed, "start": args.start,
               **(against or {}), "cpu_seconds": round(seconds, 1)}})
    games = sum(g for g, _ in args.stage)
    print(f"wrote {args.out}: {games:,} TD games in {seconds:.0f} CPU-s "
          f"({games / max(seconds, 1e-9):,.0f} games/s)")
    return args.out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        run(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {str(err).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
