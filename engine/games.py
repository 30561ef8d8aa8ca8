"""``python -m engine.games [--json]``: the registered games, their genomes and agent specs.

    python -m engine.games
    python -m engine.games --json
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.core.registry import get_game, usable_game_names
from engine.core.version import add_version_flag


def describe(name: str) -> dict:
    game = get_game(name)
    return {"name": name, "description": game.description, "players": list(game.players),
            "genome_size": game.genome_spec().size, "settings": game.settings(),
            "seed_references": list(game.seed_references),
            "default_panel": list(game.default_panel), "agent_specs": list(game.agent_specs()),
            "export_formats": [f.to_dict() for f in game.export_formats],
            "commands": sorted(game.cli_commands)}


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
        print(f"{'':<18} players {' / '.join(g['players'])}; genome {g['genome_size']} genes "
              f"at default settings {json.dumps(g['settings'])}")
        print(f"{'':<18} agents: {', '.join(g['agent_specs'])}")
        formats = ", ".join(f["name"] + "".join(f" [{o['flag']} N]" for o in f["options"])
                            for f in g["export_formats"])
        print(f"{'':<18} export: {formats}; commands: {', '.join(g['commands']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
