"""Recorded games of a run (``games.csv``, ``yardstick_games.csv``): listing, filtering, one row.

The tables' game-specific columns are not assumed: the two players are the first two ``*_id``
columns (``black_id``/``white_id`` for Reversi, in turn order), the result is ``winner``, and a
row is replayable when it has a ``moves`` column (every ply from the start, as
``engine.core.moves_text`` writes it).
"""

from __future__ import annotations

import threading
from pathlib import Path

from engine.core import parse_moves
from engine.web.errors import ApiError
from engine.web.run_files import read_table
from engine.web.runs import RunCatalogue, RunEntry

MAX_LIMIT = 500
_cache: dict[Path, tuple[tuple[float, int], list[str], list[dict]]] = {}
_cache_lock = threading.Lock()


def _table(path: Path) -> tuple[list[str], list[dict]]:
    """The parsed table, re-read only when the file changed (the GA appends while it runs)."""
    stat = path.stat()
    key = (stat.st_mtime, stat.st_size)
    with _cache_lock:
        cached = _cache.get(path)
        if cached is None or cached[0] != key:
            columns, rows = read_table(path)
            _cache[path] = cached = (key, columns, rows)
    return cached[1], cached[2]


def player_columns(columns: list[str]) -> list[str]:
    return [c for c in columns if c.endswith("_id")][:2]


def list_recorded(catalogue: RunCatalogue, params) -> dict:
    """One page of a run's table, filtered by ``generation``, ``player`` and ``winner``."""
    run = catalogue.run(params.get("run"))
    table = params.get("table", "games")
    columns, rows = _table(run.table_path(table))
    players = player_columns(columns)
    offset = _int_param(params, "offset", 0, 10**9, 0)
    limit = _int_param(params, "limit", 1, MAX_LIMIT, 50)
    generation = params.get("generation") or None
    if generation is not None:
        _int_param(params, "generation", 0, 10**9, 0)
    player, winner = params.get("player") or None, params.get("winner") or None
    matched = [
        i for i, row in enumerate(rows)
        if (generation is None or row.get("generation") == generation)
        and (player is None or player in (row.get(c) for c in players))
        and (winner is None or row.get("winner") == winner)
    ]
    page = [dict(rows[i], row=i) for i in matched[offset:offset + limit]]
    return {
        "run": run.id, "game": run.game, "table": table, "columns": columns,
        "player_columns": players, "replayable": "moves" in columns,
        "total": len(matched), "offset": offset, "rows": page,
        "filters": _filter_values(rows, players),
    }


def _filter_values(rows: list[dict], players: list[str]) -> dict:
    generations = sorted({r.get("generation") for r in rows if r.get("generation")}, key=_num)
    ids = sorted({r.get(c) for r in rows for c in players if r.get(c)}, key=_num)
    winners = sorted({r.get("winner") for r in rows if r.get("winner")})
    return {"generation": generations, "player": ids, "winner": winners}


def _num(text: str):
    """Sort numbers numerically and put names (reference opponents) after them."""
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _int_param(params, name: str, low: int, high: int, default: int) -> int:
    text = params.get(name)
    if text is None or text == "":
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ApiError(400, f"{name}: expected an integer in {low}..{high}, got {text!r}")
    return int(text)


def parse_recorded_moves(game, text: str) -> tuple[int, ...]:
    """``engine.core.parse_moves``, plus tables written before ``moves_text`` joined move texts
    holding spaces with commas: their space-separated tokens are regrouped by the width of the
    game's move text (Pentago Twist: ``x y a b``, four tokens). ``ValueError`` if neither
    parses."""
    try:
        return parse_moves(game, text)
    except ValueError:
        tokens = text.split()
        state = game.initial_state()
        width = len(game.move_text(game.legal_moves(state)[0]).split()) if tokens else 1
        if width == 1 or "," in text or len(tokens) % width:
            raise
        return parse_moves(game, ",".join(" ".join(tokens[i:i + width])
                                          for i in range(0, len(tokens), width)))


def recorded_row(run: RunEntry, table: str, index: int) -> dict:
    """The row's moves text and player labels (404 if there is no such row)."""
    columns, rows = _table(run.table_path(table))
    if "moves" not in columns:
        raise ApiError(422, f"{table}.csv of run {run.id!r} has no moves column (recorded before "
                            "the GA wrote moves); re-run to replay its games")
    if run.game is None:
        raise ApiError(422, f"run {run.id!r}: no config or champion file names its game")
    if not 0 <= index < len(rows):
        raise ApiError(404, f"row: {table}.csv of run {run.id!r} has rows 0..{len(rows) - 1}")
    row = rows[index]
    players = player_columns(columns)
    labels = [f"id {row.get(c)}" for c in players] or ["player 0", "player 1"]
    return {"moves": row["moves"] or "", "players": labels, "row": row}
