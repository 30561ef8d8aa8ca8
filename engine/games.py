"""``python -m engine.games [--json]``: the registered games, their capabilities
(``engine.core.capabilities``), genomes and agent specs.

    python -m engine.games
    python -m engine.games --json
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.core import capabilities as cap
from engine.core.commands.version import add_version_flag
from engine.core.registry import get_game, usable_game_names


def describe(name: str) -> dict:
    """What a game is and can do; a capability it lacks leaves its fields empty."""
    game = get_game(name)
    genomes = cap.has(game, cap.GENOMES)
    return {"name": name, "description": game.description, "players": list(game.players),
            "capabilities": list(cap.capabilities(game)),
            "genome_size": game.genome_spec().size if genomes else None,
            "settings": game.settings(),
            "seed_references": list(game.seed_references) if genomes else [],
            "default_panel": list(game.default_panel), "agent_specs": list(game.agent_specs()),
            "export_formats": [f.to_dict() for f in cap.export_formats(game)],
            "commands": sorted(cap.commands(game))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.games",
                                     description="List the registered games.")
    parser.add_argument("--json", action="store_true", help="one JSON array of game objects")
    add_version_flag(parser)
    args = parser.parse_args(argv)
    games = [describe(name) for name in usable_game_names()]
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    for g in games:
        print(f"{g['name']:<18} {g['description']}")
        genome = f"genome {g['genome_size']} genes" if g["genome_size"] is not None else \
            "no genome"
        print(f"{'':<18} players {' / '.join(g['players'])}; {genome} at default settings "
              f"{json.dumps(g['settings'])}")
        print(f"{'':<18} capabilities: {', '.join(g['capabilities']) or 'none (rules only)'}")
        print(f"{'':<18} agents: {', '.join(g['agent_specs'])}")
        formats = ", ".join(f["name"] + "".join(f" [{o['flag']} N]" for o in f["options"])
                            for f in g["export_formats"])
        print(f"{'':<18} export: {formats or 'none'}; commands: "
              f"{', '.join(g['commands']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
