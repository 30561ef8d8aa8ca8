"""The plain records the contract speaks in: search settings, outcomes, genome specs, champions,
the capabilities a game declares (export formats and their options), and the two errors a game
raises for bad user input. numpy only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

DRAW = -1  # Outcome.winner of a drawn game


class GameSettingsError(ValueError):
    """A bad game setting; the message is one line naming the key (``game.genome.phases=0 ...``)."""


class ChampionFileError(ValueError):
    """A champion/weights file that cannot be used; the message names the file and the field."""


STEP_RULES = ("nlms", "tcl")


@dataclass
class StepRule:
    """How a TD learner moves each weight (``Game.td_learn`` / ``td_learn_games`` take it as
    ``rule=`` when the game lists the rule in ``td_step_rules``): ``nlms``, every weight at the
    run's rate (normalised LMS, the default); ``tcl``, temporal coherence learning, each weight
    at the run's rate times its own ``|sum of asked changes| / sum of their sizes``.
    ``phase_share`` > 0 (genomes with phases): a step also moves the neighbouring phases' same
    weights by that share of it. ``state``: the rule's arrays (TCL's sums), filled and learnt
    in place by the game; a checkpoint keeps them to resume exactly."""

    name: str = "nlms"
    phase_share: float = 0.0
    state: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.name not in STEP_RULES:
            raise ValueError(f"step rule {self.name!r}: allowed {', '.join(STEP_RULES)}")
        if not 0.0 <= self.phase_share <= 1.0:
            raise ValueError(f"phase share {self.phase_share!r}: allowed 0 <= share <= 1")

    @property
    def is_plain(self) -> bool:
        return self.name == "nlms" and self.phase_share == 0.0


@dataclass(frozen=True)
class SearchSettings:
    """How an evolved agent searches; identical for the whole population and the panel.

    ``endgame_empties``: search exactly (to the end of the game) once this few moves remain
    (Reversi: empty squares; Pentago Twist: empty cells; Hexifence: undrawn edges).
    ``time_limit``: seconds per move with iterative deepening (``None``: fixed ``depth``)."""

    depth: int = 2
    endgame_empties: int = 8
    time_limit: float | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        if d["time_limit"] is None:  # files written before time limits existed stay identical
            del d["time_limit"]
        return d


@dataclass(frozen=True)
class Outcome:
    """How one game ended. ``margin`` is from player 0's view in the game's own unit (discs,
    cells, 1 for a Pentago win); ``details`` holds game-specific numbers (Reversi: disc counts),
    written as columns of ``games.csv`` in the order of ``Game.result_columns``."""

    winner: int  # 0, 1 or DRAW
    margin: float
    plies: int
    moves: tuple[int, ...] = ()  # every ply from the start, opening included
    details: dict = field(default_factory=dict)

    def score_for(self, player: int) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner == DRAW:
            return 0.5
        return 1.0 if self.winner == player else 0.0


@dataclass(frozen=True)
class GenomeSpec:
    """The flat float64 genome: gene names, named blocks (crossover swaps whole blocks) and the
    default initialisation/clipping bounds of every gene."""

    names: tuple[str, ...]
    blocks: Mapping[str, slice]
    lower: np.ndarray
    upper: np.ndarray

    @property
    def size(self) -> int:
        return len(self.names)

    def default_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.lower, self.upper


@dataclass
class Champion:
    """A champion, loaded once (``engine.core.champions.files.load_champion``) and then passed as an
    object to whatever plays, exports or describes it: its game and the settings it was evolved
    under, its genome, the search its file records (``metadata.play``, else
    ``metadata.search``; ``engine.core.champions.search``) and where it came from (``path``).

    ``evaluation``: the game's own evaluation object when the file holds one richer than the
    genome (Reversi: ``Weights`` or ``NtupleWeights``, as read), so that an agent is built
    without reading or rebuilding anything; ``None``: the game builds it from the genome."""

    game: str
    genome: np.ndarray
    settings: dict  # the game's settings (``Game.with_settings`` accepts them)
    name: str = ""
    metadata: dict = field(default_factory=dict)
    path: Path | None = None  # the file it was read from (None: made in memory)
    evaluation: Any = None

    @property
    def label(self) -> str:
        """How players and tables name it: its name, else its file's stem."""
        if self.name:
            return self.name
        return self.path.stem if self.path is not None else self.game

    @property
    def provenance(self) -> str:
        """Where it came from, in words (its file, or the game it was made in memory for)."""
        return str(self.path) if self.path is not None else f"a {self.game} genome in memory"


@dataclass(frozen=True)
class Option:
    """A command-line option a game adds to a tool (``--depth 3``): its name without dashes
    (``endgame_empties`` is spelt ``--endgame-empties``), its type and a one-line help."""

    name: str
    type: type = int
    help: str = ""
    default: Any = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


# the two options every drop-in agent for a course framework takes (cs303, comp424, comp90054)
DROP_IN_DEPTH = Option("depth", int, "fixed search depth: plays exactly like the engine's agent "
                       "(default: iterative deepening within the course's time limit)")
DROP_IN_ENDGAME = Option("endgame_empties", int,
                         "exact search from this many empties (default: the file's)")


@dataclass(frozen=True)
class ExportFormat:
    """A file format ``python -m evolve.export --format NAME`` writes for a game."""

    name: str
    suffix: str  # of the file written (".json", ".npz", ".py"); "/": a folder of files
    description: str
    options: tuple[Option, ...] = ()

    def to_dict(self) -> dict:
        return {"name": self.name, "suffix": self.suffix, "description": self.description,
                "options": [{"flag": o.flag, "type": o.type.__name__, "help": o.help}
                            for o in self.options]}


JSON_EXPORT = ExportFormat("json", ".json", "the champion file: JSON with the game, its settings "
                           "and every weight by name (every game)")
