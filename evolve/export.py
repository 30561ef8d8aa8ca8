"""Export a champion for other programs: canonical JSON for every game, plus the game's own
formats (Reversi: arrays-only ``npz`` and the CS303 single-file agent).

    python -m evolve.export <run dir | champion file> --format json|npz|cs303 --out PATH
    python -m evolve.export RUN --format cs303 --depth 1 --endgame-empties 3 --out ai.py

``--depth D`` (``--endgame-empties E``) makes the CS303 agent search a fixed depth and play
exactly like the engine's agent at that depth; without it the agent deepens within the time limit.

A run directory means its ``champion.json``. The game comes from the file (or ``--game``).
Nothing is pickled: JSON and ``.npz`` go through the game's one loader/validator.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.core.files import champion_game, resolve_source
from engine.core.game import ChampionFileError
from engine.core.registry import get_game

FORMATS = ("json", "npz", "cs303")  # json: every game; the others: games that offer them


def output_path(fmt: str, out: str | Path) -> Path:
    """The file ``export`` writes for ``--out out``. The weights loader tells npz from JSON by
    the suffix, so an npz file must end in ``.npz`` (appended when there is no suffix, as
    ``numpy.savez`` itself would) and a JSON file must not."""
    out = Path(out)
    suffix = out.suffix.lower()
    if fmt == "npz" and suffix != ".npz":
        if suffix:
            raise ValueError(f"--format npz needs an --out ending in .npz, got {out}")
        return out.with_name(out.name + ".npz")
    if fmt == "json" and suffix == ".npz":
        raise ValueError(f"--format json cannot be written to a .npz path ({out})")
    return out


def export(source: str | Path, fmt: str, out: str | Path, game: str | None = None,
           **options) -> Path:
    """Load and validate ``source`` and write it in ``fmt``; returns the path written (see
    ``output_path``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
    path = resolve_source(source)
    name = game or champion_game(path)
    if name is None:
        raise ValueError(f"{path}: names no game (no \"game\" field); give --game NAME")
    the_game = get_game(name)
    allowed = getattr(the_game, "export_formats", ("json",))
    if fmt not in allowed:
        raise ValueError(f"--format {fmt} is not available for {name} (allowed: "
                         f"{', '.join(allowed)})")
    out = output_path(fmt, out)
    if out.is_dir():
        raise ValueError(f"--out {out} is a directory, not a file")
    out.parent.mkdir(parents=True, exist_ok=True)
    options = {k: v for k, v in options.items() if v is not None}
    if options and not hasattr(the_game, "export"):
        raise ValueError(f"--depth/--endgame-empties are not available for {name}")
    if hasattr(the_game, "export"):
        the_game.export(path, fmt, out, **options)
    else:  # canonical JSON: read with the game's validator, written back by it
        champion = the_game.load_champion(path)
        the_game.with_settings(champion.settings).save_champion(
            out, champion.genome, champion.name, champion.metadata)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evolve.export",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("source", help="run directory (its champion.json) or weights file")
    parser.add_argument("--format", required=True, choices=FORMATS)
    parser.add_argument("--out", required=True, help="output path")
    parser.add_argument("--game", default=None, help="the file's game, when the file omits it")
    parser.add_argument("--depth", type=int, default=None,
                        help="cs303: fixed search depth (plays exactly like the engine's agent)")
    parser.add_argument("--endgame-empties", type=int, default=None,
                        help="cs303: exact search from this many empties (default: the file's)")
    args = parser.parse_args(argv)
    try:
        out = export(args.source, args.format, args.out, args.game, depth=args.depth,
                     endgame_empties=args.endgame_empties)
    except (ChampionFileError, ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    note = " (.npz appended)" if str(out) != str(Path(args.out)) else ""
    print(f"wrote {out}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
