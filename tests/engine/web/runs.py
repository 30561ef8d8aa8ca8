"""Test helper: a small run directory like the GA writes, for any registered game, with games
played through the contract (so replays can be checked against an independent re-play)."""

from __future__ import annotations

import csv
from pathlib import Path

import yaml

from engine.core import DRAW, SearchSettings, get_game, moves_text


def winner_name(game, winner: int) -> str:
    return "draw" if winner == DRAW else game.players[winner]


def play_random_games(game, n: int, seed: int):
    """``n`` games between two random agents, reproducible from ``seed``."""
    outcomes = []
    for i in range(n):
        first = game.make_panel_agent("random", SearchSettings(), seed=seed + 2 * i)
        second = game.make_panel_agent("random", SearchSettings(), seed=seed + 2 * i + 1)
        outcomes.append(game.play(first, second, (), seed=seed + i))
    return outcomes


def write_games_csv(path: Path, game, outcomes, generations: int = 2) -> None:
    ids = [f"{name}_id" for name in game.players]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["generation", "pairing", "game", *ids, "winner", "moves"])
        for i, outcome in enumerate(outcomes):
            writer.writerow([i % generations, i // 2, i % 2, i, i + 100,
                             winner_name(game, outcome.winner), moves_text(game, outcome.moves)])


def make_run_dir(directory: Path, game_name: str, games: int = 4, seed: int = 0,
                 settings: dict | None = None) -> Path:
    """A run of ``game_name`` (configured with ``settings``): Hydra config, final and
    per-generation champions, two tables."""
    game = get_game(game_name, settings)
    (directory / ".hydra").mkdir(parents=True)
    config = {"game": {"name": game_name, "seed_references": ["x"], **(settings or {})}, "seed": 0}
    (directory / ".hydra" / "config.yaml").write_text(yaml.safe_dump(config))
    genome = game.reference_genome(game.reference_names()[0])
    (directory / "champions").mkdir()
    for generation in range(2):
        game.save_champion(directory / "champions" / f"gen_{generation:04d}.json", genome,
                           name=f"{game_name}-gen{generation}")
    game.save_champion(directory / "champion.json", genome, name=f"{game_name}-final")
    outcomes = play_random_games(game, games, seed)
    write_games_csv(directory / "games.csv", game, outcomes)
    write_games_csv(directory / "yardstick_games.csv", game, outcomes[:2], generations=1)
    return directory
