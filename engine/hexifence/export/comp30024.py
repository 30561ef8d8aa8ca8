"""The COMP30024 (2016) course player: one Java class with a champion's weights as constants.

``python -m evolve.export CHAMPION --format comp30024 --out DIR`` writes
``DIR/aiproj/hexifence/<ClassName>.java``: a class of package ``aiproj.hexifence`` implementing
the course's ``Player`` and ``Piece``, rendered from ``comp30024_template.java`` (a port of
``engine.hexifence.search.negamax`` that compiles on its own). The generated block holds the search
settings, the feature weights as Java literals (Python's ``repr`` of a float is read back by
``Double.parseDouble`` to the same double), the n-tuple network's tables and weights as hex
strings of their IEEE bits (a literal array that large would pass the JVM's 64 KB method limit)
and the engine's Zobrist keys for N=2 and N=3, so the table keys are the engine's.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import numpy as np

from engine.core.game import Champion
from engine.core.records import ExportFormat, Option

COMP30024_EXPORT = ExportFormat(
    "comp30024", "/", "a Java player for the COMP30024 Hexifence referee (package "
    "aiproj.hexifence, standard library only)",
    (Option("depth", int, "fixed search depth in turns: plays exactly like the engine's agent "
            "(default: iterative deepening within --move-ms)"),
     Option("endgame_empties", int, "exact play from this many undrawn edges (default: the "
            "file's recorded search)"),
     Option("move_ms", int, "milliseconds per move (default 1000; 0 with --depth: no clock)"),
     Option("class_name", str, "the Java class name (default EvolvedPlayer)")))
TEMPLATE = Path(__file__).with_name("comp30024_template.java")
BEGIN, END = "    // --- BEGIN GENERATED ---", "    // --- END GENERATED ---"
PACKAGE_DIR = Path("aiproj") / "hexifence"
DEFAULT_CLASS = "EvolvedPlayer"
DEFAULT_MOVE_MS = 1000
DEFAULT_ENDGAME_EMPTIES = 20
CHUNK = 60_000  # characters per Java string constant (a constant holds at most 65,535 bytes)
COURSE_SIZES = (2, 3)


def _hex(values) -> str:
    return ",".join(f"{int(v) & (2**64 - 1):x}" for v in values)


def _strings(items: list[str]) -> list[str]:
    return [f"        {json.dumps(s)}," for s in items]


def keys_block(size: int) -> list[str]:
    """The engine's Zobrist keys of one board size (``engine.hexifence.search.searcher.Keys``)."""
    from engine.hexifence.search.searcher import keys

    k = keys(size)
    arrays = (k.zob1, k.zob2, k.zmar1, k.zmar2, k.zg1.ravel(), k.zg2.ravel())
    return [f"    static final String[] KEYS_{size} = {{",
            *_strings([_hex(a.astype(np.uint64)) for a in arrays]), "    };"]


def network_block(game, genome: np.ndarray) -> tuple[list[str], np.ndarray, int]:
    """``NETWORK``: node of each edge, the instances' offsets, lengths, cells and digit powers,
    phases, entries per phase, then the weights' bits; returns it with the feature weights."""
    from engine.hexifence.genome import network as nw

    network = game.network
    net, feat = network.split(genome)
    net = np.ascontiguousarray(net, dtype=np.float64)
    t = network.tables
    ints = [nw.nodes(game.size).node_of_edge, t.offset, t.length, t.cells.ravel(),
            t.powers.ravel()]
    bits = "".join(f"{int(b):016x}" for b in net.ravel().view(np.uint64))
    items = [",".join(str(int(v)) for v in a) for a in ints]
    items += [str(net.shape[0]), str(net.shape[1])]
    items += [bits[i:i + CHUNK] for i in range(0, len(bits), CHUNK)]
    lines = ["    static final String[] NETWORK = {", *_strings(items), "    };"]
    return lines, np.asarray(feat, dtype=np.float64).reshape(net.shape[0], -1), int(network.mode)


def generated_block(champion: Champion, game, depth: int, endgame_empties: int,
                    move_ms: int) -> str:
    from engine.hexifence.genome import weights as W

    if game.network is None:
        phases = len(champion.genome) // len(W.FEATURES)
        weights = W.weights_matrix(champion.genome, phases)
        network, mode, size = ["    static final String[] NETWORK = {};"], 0, 0
    else:
        network, weights, mode = network_block(game, champion.genome)
        size = game.size
    rows = [f"        {{{', '.join(repr(float(v)) for v in row)}}}," for row in weights]
    lines = [BEGIN, f"    static final String NAME = {json.dumps(champion.name or 'champion')};",
             f"    static final int FIXED_DEPTH = {depth};",
             f"    static final int ENDGAME_EMPTIES = {endgame_empties};",
             f"    static final long MOVE_MS = {move_ms};",
             f"    static final int NETWORK_SIZE = {size};",
             f"    static final int MODE = {mode};",
             "    static final double[][] WEIGHTS = {  // [phase][feature], the engine's order",
             *rows, "    };", *network, *keys_block(2), *keys_block(3), END]
    return "\n".join(lines)


def render(champion: Champion, game, depth: int = 0, endgame_empties: int = 0,
           move_ms: int = DEFAULT_MOVE_MS, class_name: str = DEFAULT_CLASS) -> str:
    """The Java source of the player (``game``: the champion's configured game)."""
    template = TEMPLATE.read_text()
    head, rest = template.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    provenance = json.dumps({"name": champion.name, **champion.metadata}, sort_keys=True,
                            default=str)
    note = "".join(f"    // {line}\n" for line in textwrap.wrap("Champion: " + provenance, 92))
    block = generated_block(champion, game, depth, endgame_empties, move_ms)
    source = head + note + block + tail
    return re.sub(r"\bEvolvedPlayer\b", class_name, source)


def recorded_endgame(source) -> int:
    """The exact endgame the champion records (``engine.core.champions.search``)."""
    from engine.core.champions.search import champion_search
    from engine.core.game import SearchSettings

    found = champion_search(source, SearchSettings(endgame_empties=DEFAULT_ENDGAME_EMPTIES))
    return int(found.search.endgame_empties)


def export(hexifence, champion, out: Path, depth: int | None = None,
           endgame_empties: int | None = None, move_ms: int | None = None,
           class_name: str | None = None) -> Path:
    """Write ``out/aiproj/hexifence/<class_name>.java`` (``hexifence``: the game, a
    ``HexifenceGame``); returns that path."""
    class_name = class_name or DEFAULT_CLASS
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", class_name):
        raise ValueError(f"--class-name {class_name!r} must be a Java identifier")
    if depth is not None and depth < 1:
        raise ValueError(f"--depth {depth} must be >= 1")
    if move_ms is not None and move_ms < 0:
        raise ValueError(f"--move-ms {move_ms} must be >= 0")
    if move_ms == 0 and depth is None:
        raise ValueError("--move-ms 0 (no clock) needs a fixed --depth")
    from engine.core.champions.files import as_champion

    champion = as_champion(champion, hexifence)
    source = champion.provenance
    game = hexifence.with_settings(champion.settings) if \
        champion.settings["genome"].get("kind") == "ntuple" else hexifence.features_game()
    if game.network is not None and game.size not in COURSE_SIZES:
        raise ValueError(f"{source}: its network was laid out on the N={game.size} board; the "
                         f"course plays N=2 and N=3")
    endgame = recorded_endgame(champion) if endgame_empties is None else int(endgame_empties)
    if endgame < 0:
        raise ValueError(f"--endgame-empties {endgame} must be >= 0")
    text = render(champion, game, depth or 0, endgame,
                  DEFAULT_MOVE_MS if move_ms is None else move_ms, class_name)
    path = Path(out) / PACKAGE_DIR / f"{class_name}.java"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
