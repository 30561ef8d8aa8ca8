"""Export a champion for other programs: canonical JSON for every game, plus the formats a game
declares (its ``export`` capability, ``engine.core.capabilities``; ``python -m engine.games``
lists them with their options).

    python -m evolve.export <run dir | champion file> --format FORMAT --out PATH [options]
    python -m evolve.export RUN --format cs303 --depth 1 --endgame-empties 3 --out ai.py

The champion is read once, here (``engine.core.champions.files``), and the game writes every format
from that ``Champion``. A format's options (e.g. the CS303 agent's ``--depth``) are the game's.
``--play`` (JSON format) records the search front ends play the champion at
(``metadata.play``), e.g. the search its README strength row was measured at; without it they
play the search it was evolved with (``metadata.search``). A run directory means its
``champion.json``. The game comes from the file (or ``--game``). Nothing is pickled: every
format goes through the game's one loader/validator.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from engine.core.capabilities import EXPORT, export_formats, has
from engine.core.champions.files import champion_of, read_document, recognizing_game, resolve_source
from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag
from engine.core.game import Champion, ChampionFileError, ExportFormat
from engine.core.registry import get_game, usable_game_names

BINARY_SUFFIXES = (".npz",)  # loaders tell these from JSON by the suffix alone
FOLDER = "/"  # the ``suffix`` of a format that writes a folder (a Java package: several files)


def all_formats() -> dict[str, list[ExportFormat]]:
    """Format name -> its declarations across the registered games."""
    found: dict[str, list[ExportFormat]] = {}
    for name in usable_game_names():
        for fmt in export_formats(get_game(name)):
            found.setdefault(fmt.name, []).append(fmt)
    return found


def output_path(fmt: ExportFormat, out: str | Path) -> Path:
    """The file ``export`` writes for ``--out out``. Loaders tell a binary format (npz) from
    JSON by the suffix, so such a file must end in its suffix (appended when there is none, as
    ``numpy.savez`` itself would) and no other format may take that suffix."""
    out = Path(out)
    if fmt.suffix == FOLDER:
        return out
    suffix = out.suffix.lower()
    if fmt.suffix in BINARY_SUFFIXES and suffix != fmt.suffix:
        if suffix:
            raise ValueError(f"--format {fmt.name} needs an --out ending in {fmt.suffix}, "
                             f"got {out}")
        return out.with_name(out.name + fmt.suffix)
    if fmt.suffix not in BINARY_SUFFIXES and suffix in BINARY_SUFFIXES:
        raise ValueError(f"--format {fmt.name} cannot be written to a {suffix} path ({out})")
    return out


def load(source: str | Path, game: str | None = None) -> Champion:
    """The champion of a file or run directory, read once: by ``game`` (``--game``) when
    given, else by the game its header names (``ValueError`` saying to give ``--game``)."""
    path = resolve_source(source)
    document = read_document(path)
    the_game = get_game(game) if game else recognizing_game(document.header)
    if the_game is None:
        raise ValueError(unknown_game_message(path, document.header))
    return champion_of(document, the_game)


def export(source: str | Path, fmt: str, out: str | Path, game: str | None = None,
           play: dict | None = None, **options) -> Path:
    """Load and validate ``source`` and write it in ``fmt``; returns the path written (see
    ``output_path``). ``options``: the format's own options (``None`` = not given); ``play``:
    the search to record as ``metadata.play`` (JSON only)."""
    if all_formats().get(fmt) is None:
        raise ValueError(f"unknown format {fmt!r} (allowed: {', '.join(all_formats())})")
    return export_champion(load(source, game), fmt, out, game, play, **options)


def export_champion(champion: Champion, fmt: str, out: str | Path, game: str | None = None,
                    play: dict | None = None, **options) -> Path:
    """``export`` of a loaded ``Champion`` (played by ``game``, else its own game)."""
    if play is not None:
        play = play_search(play)
        if fmt != "json":
            raise ValueError(f"--play records metadata.play in a JSON champion file; --format "
                             f"{fmt} cannot hold it")
    known = all_formats()
    if fmt not in known:
        raise ValueError(f"unknown format {fmt!r} (allowed: {', '.join(known)})")
    name = game or champion.game
    the_game = get_game(name)
    declared = {f.name: f for f in export_formats(the_game)}
    if fmt not in declared:
        raise ValueError(f"--format {fmt} is not available for {name} (allowed: "
                         f"{', '.join(declared)})")
    options = {k: v for k, v in options.items() if v is not None}
    allowed = {o.name for o in declared[fmt].options}
    for key in options:
        if key not in allowed:
            flag = "--" + key.replace("_", "-")
            raise ValueError(f"{flag} is not an option of --format {fmt} for {name} (its "
                             f"options: {', '.join(sorted(allowed)) or 'none'})")
    out = output_path(declared[fmt], out)
    if declared[fmt].suffix == FOLDER:  # the format writes several files into --out
        if out.exists() and not out.is_dir():
            raise ValueError(f"--format {fmt} writes a folder of files: --out {out} is a file")
        out.mkdir(parents=True, exist_ok=True)
    elif out.is_dir():
        raise ValueError(f"--out {out} is a directory, not a file")
    out.parent.mkdir(parents=True, exist_ok=True)
    if has(the_game, EXPORT):
        the_game.export(champion, fmt, out, **options)
    else:  # the champion JSON of a game with genomes, which every such game writes
        the_game.with_settings(champion.settings).save_champion(
            out, champion.genome, champion.name, champion.metadata)
    if play is not None:
        import json

        data = json.loads(out.read_text(encoding="utf-8"))
        data.setdefault("metadata", {})["play"] = play
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return out


def play_search(play) -> dict:
    """``--play``'s value checked: ``{"depth": >= 1, "endgame_empties": >= 0}`` (and optionally
    ``"time_limit"`` in seconds), else a ``ValueError`` naming what is allowed."""
    import json

    from engine.core.champions.search import parse_search

    if isinstance(play, str):
        try:
            play = json.loads(play)
        except json.JSONDecodeError:
            play = None
    allowed = {"depth", "endgame_empties", "time_limit"}
    found = parse_search(play) if isinstance(play, dict) and set(play) <= allowed else None
    if found is None or (found.time_limit is None and "time_limit" in play):
        raise ValueError("--play: a JSON object {\"depth\": integer >= 1, \"endgame_empties\": "
                         "integer >= 0[, \"time_limit\": seconds > 0]}")
    return found.to_dict()


def unknown_game_message(path: Path, header: dict) -> str:
    if "game" not in header:
        version = header.get("schema_version")
        extra = f", schema_version {version!r}" if version is not None else ""
        return f"{path}: names no game (no \"game\" field{extra}); give --game NAME"
    return f"{path}: game {header['game']!r} is not a registered game; give --game NAME"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evolve.export",
                                     description=summary(__doc__))
    parser.add_argument("source", help="run directory (its champion.json) or weights file")
    add_version_flag(parser)
    formats = all_formats()
    parser.add_argument("--format", required=True, choices=list(formats))
    parser.add_argument("--out", required=True, help="output path")
    parser.add_argument("--game", default=None, help="the file's game, when the file omits it")
    parser.add_argument("--play", default=None, metavar="JSON",
                        help="json: the search front ends play the champion at, recorded as "
                             "metadata.play, e.g. '{\"depth\": 3, \"endgame_empties\": 24}' (the "
                             "search its strength was measured at; default: they play "
                             "metadata.search, the search it was evolved with)")
    options, helps = {}, {}  # every option some game's format declares, once; its helps
    for name, declarations in formats.items():
        for fmt in declarations:
            for option in fmt.options:
                options.setdefault(option.name, option)
                said = helps.setdefault(option.name, [])
                if f"{name}: {option.help}" not in said:
                    said.append(f"{name}: {option.help}")
    for option in options.values():  # a flag several formats take says what it is in each
        parser.add_argument(option.flag, type=option.type, default=None,
                            help="; ".join(helps[option.name]))
    args = parser.parse_args(argv)
    try:
        champion = load(args.source, args.game)
        out = export_champion(champion, args.format, args.out, args.game, args.play,
                              **{name: getattr(args, name) for name in options})
    except (ChampionFileError, ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    from evolve.arena.labels import file_label

    note = " (.npz appended)" if str(out) != str(Path(args.out)) else ""
    print(f"wrote {out}{note}: {file_label(champion)} as {args.format}")
    if args.play:
        champion = replace(champion, metadata={**champion.metadata,
                                               "play": play_search(args.play)})
    print(search_line(champion, {name: getattr(args, name) for name in options}))
    return 0


def search_line(source: Path | Champion, given: dict) -> str:
    """The search the champion records and where from (its file, else its study's config;
    ``engine.core.champions.search``), and the format's search options given over it."""
    from dataclasses import fields

    from engine.core.champions.search import DEFAULTS, champion_search
    from engine.core.game import SearchSettings

    found = champion_search(source, SearchSettings())
    recorded = f"{found.text()}" if found.source != DEFAULTS else \
        "none recorded (no metadata.search, no study config)"
    searched = {f.name for f in fields(SearchSettings)}  # not --team, --numba, ...
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in given.items()
                     if v is not None and k in searched)
    return f"search: {recorded}" + (f"; the export uses {flags}" if flags else "")


if __name__ == "__main__":
    sys.exit(main())
