"""The McGill COMP 424 drop-in: a ``student_player`` package (``StudentPlayer.java`` and
``MyTools.java``) playing a Pentago Twist champion, either genome kind.

``MyTools.java`` is the engine's rules, evaluation and alpha-beta in plain Java (copied as it
is); ``StudentPlayer.java`` is rendered from its template with the champion's weights as
constants: feature weights as Java literals (``repr`` of a float round-trips exactly), network
weights as 16 hex digits of their IEEE bits each, in string chunks (a Java method and a string
constant are limited to 64 KB, a network holds up to ~130,000 weights).
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import numpy as np

from engine.core.records import DROP_IN_DEPTH, DROP_IN_ENDGAME, ExportFormat, Option

TEMPLATES = Path(__file__).with_name("comp424_template")
FILES = ("StudentPlayer.java", "MyTools.java")
COURSE_MOVE_MS, COURSE_FIRST_MOVE_MS = 2000, 30000
DEFAULT_STUDENT_ID = "260000000"
HEX_PER_CHUNK = 3000  # weights per Java string constant (48,000 characters < 65,535)
COMP424_EXPORT = ExportFormat(
    "comp424", "/", "McGill COMP 424 Pentago Twist agent: package student_player "
    "(StudentPlayer.java, MyTools.java), Java 8, standard library only",
    (DROP_IN_DEPTH,
     DROP_IN_ENDGAME,
     Option("move_ms", int, f"time limit per move in ms (default {COURSE_MOVE_MS})"),
     Option("first_move_ms", int, "time limit of the first move in ms (default "
            f"{COURSE_FIRST_MOVE_MS})"),
     Option("student_id", str, f"the name passed to super() (default "
            f"{DEFAULT_STUDENT_ID}: put your student number)")))


def export_comp424(game, champion, out: Path, depth: int | None = None,
                   endgame_empties: int | None = None, move_ms: int | None = None,
                   first_move_ms: int | None = None, student_id: str | None = None) -> None:
    """Write ``StudentPlayer.java`` and ``MyTools.java`` of a loaded ``Champion`` (a champion
    file is read here) into the folder ``out``."""
    from engine.core.champions.files import as_champion
    from engine.core.champions.search import champion_search
    from engine.core.records import SearchSettings

    champion = as_champion(champion, game)
    source = champion.path
    played = game.with_settings(champion.settings)
    if endgame_empties is None:
        endgame_empties = champion_search(champion, SearchSettings()).search.endgame_empties
    settings = {"depth": depth, "endgame_empties": endgame_empties,
                "move_ms": COURSE_MOVE_MS if move_ms is None else move_ms,
                "first_move_ms": COURSE_FIRST_MOVE_MS if first_move_ms is None else first_move_ms,
                "student_id": DEFAULT_STUDENT_ID if student_id is None else student_id}
    command = "python -m evolve.export " + " ".join(
        [str(source), "--format comp424"] +
        [f"--{k.replace('_', '-')} {v}" for k, v in settings.items() if v is not None])
    text = render_student_player(played, champion.genome, champion.label,
                                 command, **settings)
    Path(out, "StudentPlayer.java").write_text(text, encoding="utf-8")
    Path(out, "MyTools.java").write_text((TEMPLATES / "MyTools.java").read_text("utf-8"),
                                         encoding="utf-8")


def render_student_player(game, genome: np.ndarray, name: str, command: str,
                          depth: int | None, endgame_empties: int, move_ms: int,
                          first_move_ms: int, student_id: str) -> str:
    """``StudentPlayer.java`` with the genome of ``game`` (its settings) embedded."""
    _check(depth, endgame_empties, move_ms, first_move_ms, student_id)
    features, phase_of_stones = game.evaluation_arrays(genome)
    network = game.search_network(genome)
    if network is None:
        mode, entries, offsets, cells, hex_rows = 0, 0, [], [], []
    else:
        tables, net, mode = network
        entries = net.shape[1]
        offsets = [int(v) for v in tables.offset]
        cells = [[int(c) for c in tables.cells[i, :tables.length[i]]]
                 for i in range(len(offsets))]
        hex_rows = _hex_chunks(np.ascontiguousarray(net, np.float64).ravel())
    from engine.pentago.genome.evaluation import FEATURES

    values = {
        "COMMAND": _comment_safe(command),
        "CHAMPION": _java_string(name),
        "CHAMPION_COMMENT": _comment_safe(name),
        "STUDENT_ID": _java_string(student_id),
        "FIXED_DEPTH": str(depth or 0),
        "ENDGAME_EMPTIES": str(int(endgame_empties)),
        "MOVE_MS": f"{int(move_ms)}L",
        "FIRST_MOVE_MS": f"{int(first_move_ms)}L",
        "MODE": str(int(mode)),
        "PHASE_OF_STONES": _int_array(phase_of_stones),
        "FEATURE_NAMES": " ".join(FEATURES),
        "FEATURE_WEIGHTS": "\n".join(
            "        {" + ", ".join(repr(float(v)) for v in row) + "}," for row in features),
        "NETWORK_ENTRIES": str(int(entries)),
        "INSTANCE_OFFSET": _int_array(offsets),
        "INSTANCE_CELLS": "{" + ", ".join(_int_array(c) for c in cells) + "}",
        "NETWORK_HEX": "\n".join(f'        "{row}",' for row in hex_rows),
    }
    text = (TEMPLATES / "StudentPlayer.java").read_text("utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    left = re.findall(r"\{\{[A-Z_]+\}\}", text)
    if left:
        raise ValueError(f"comp424 template: {left[0]} was not filled")
    return text


def _check(depth, endgame_empties, move_ms, first_move_ms, student_id) -> None:
    if depth is not None and depth < 1:
        raise ValueError(f"--depth {depth} must be >= 1")
    if not 0 <= endgame_empties <= 36:
        raise ValueError(f"--endgame-empties {endgame_empties} must be in 0..36")
    for flag, ms in (("--move-ms", move_ms), ("--first-move-ms", first_move_ms)):
        if ms < 200:
            raise ValueError(f"{flag} {ms} must be >= 200 (milliseconds)")
    if not student_id or any(c in student_id for c in '"\\\n'):
        raise ValueError(f"--student-id {student_id!r} must be non-empty text without quotes")


def _hex_chunks(values: np.ndarray) -> list[str]:
    words = [struct.pack(">d", float(v)).hex() for v in values]
    return ["".join(words[i:i + HEX_PER_CHUNK]) for i in range(0, len(words), HEX_PER_CHUNK)]


def _int_array(values) -> str:
    return "{" + ", ".join(str(int(v)) for v in values) + "}"


def _java_string(text: str) -> str:
    return json.dumps(str(text), ensure_ascii=True)[1:-1]


def _comment_safe(text: str) -> str:
    return text.replace("*/", "* /")
