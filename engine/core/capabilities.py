"""What a game can do beyond the required contract (``engine.core.game.Game``): optional
capabilities a game declares by name in ``Game.capabilities`` and a caller asks for
(``has``, ``require``) before it uses them, instead of calling optional methods blindly.

=========== ====================================================================================
genomes     evolvable genomes and the agents they play: ``genome_spec``, ``reference_genome``,
            ``make_agent``, champion files (``save_champion`` / ``read_champion``; ``GameBase``
            writes JSON by gene), the config folder of a plug-in outside ``conf/``; what the GA,
            ``evolve.td`` and ``evolve.export`` need
files       champion files of its own beyond JSON by gene: other headers it ``recognizes``,
            files of other settings it re-expresses (``projected_genome``)
td          temporal-difference learning (``td_learn``; ``learns_by_td`` says for which settings)
figures     pictures and Markdown of a genome for reports (``genome_figures``, ...)
export      formats beyond the champion JSON (``export_formats``, ``export``)
commands    command-line commands of its own (``cli_commands``: perft, solve, a play command
            with its own board) and options that select it (``cli_selectors``)
labels      learning from search: positions sampled from varied play (``sample_positions``),
            labelled by the exact solver and a depth-D search (``label_positions``), and the
            game's network genome fitted to the labels (``fit_network``); what ``evolve.label``
            and ``evolve.fit`` need
=========== ====================================================================================

``python -m engine.games`` lists each game's capabilities; the Connect Four plug-in
(``tests/plugin_game``) declares ``genomes`` only: the least an evolvable game writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Protocol, runtime_checkable

import numpy as np

from engine.core.agent import Agent, Seed
from engine.core.records import JSON_EXPORT, Champion, ExportFormat, GenomeSpec, SearchSettings

GENOMES, FILES, TD, FIGURES, EXPORT, COMMANDS, LABELS = \
    "genomes", "files", "td", "figures", "export", "commands", "labels"
PLAY_ANY = "engine.core.commands.play_any"  # the play command of a game that has none of its own


@runtime_checkable
class Genomes(Protocol):
    seed_references: tuple[str, ...]  # reference genomes that seed a first population
    config_dir: Path | None  # a folder holding ``game/<name>.yaml`` (plug-ins outside conf/)

    def genome_spec(self) -> GenomeSpec: ...

    def reference_genome(self, reference: str) -> np.ndarray: ...

    def reference_names(self) -> tuple[str, ...]: ...

    def phase_of(self, state) -> int: ...  # the genome phase of ``state``

    def check_search(self, search: SearchSettings) -> None: ...  # GameSettingsError

    def make_agent(self, genome: np.ndarray, search: SearchSettings, seed: Seed = None,
                   name: str = "") -> Agent: ...

    def save_champion(self, path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None: ...

    def load_champion(self, path) -> Champion: ...  # ChampionFileError

    def read_champion(self, document) -> Champion: ...  # the game's one reader

    def champion_agent(self, champion: Champion, search: SearchSettings,
                       seed: Seed = None) -> Agent: ...


@runtime_checkable
class ChampionFiles(Protocol):
    def recognizes(self, header: dict) -> bool: ...  # is a file's header ours?

    def projected_genome(self, path) -> np.ndarray: ...  # a file as a genome of these settings


@runtime_checkable
class TDLearning(Protocol):
    def learns_by_td(self) -> bool: ...  # for these settings

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float) -> np.ndarray: ...

    def td_opponents(self) -> bool: ...  # td_learn(..., opponents=specs)?

    def td_rounds(self) -> bool: ...  # td_play and td_learn_games?

    def td_play(self, genome: np.ndarray, games: int, seed: Seed, epsilon: float,
                openings=None, opponents=(), self_play_share: float = 0.5) -> dict: ...

    def td_learn_games(self, genome: np.ndarray, records, alpha: float
                       ) -> tuple[np.ndarray, np.ndarray]: ...

    def td_step_rules(self) -> tuple[str, ...]: ...  # StepRule names taken as rule=


@runtime_checkable
class Figures(Protocol):
    def genome_figure(self, genome: np.ndarray, title: str = ""): ...  # Figure | None

    def genome_figures(self, champion: Champion, history=()) -> dict: ...

    def genome_markdown(self, genome: np.ndarray) -> str: ...


@runtime_checkable
class Exports(Protocol):
    export_formats: tuple[ExportFormat, ...]  # what ``evolve.export --format`` offers

    def export(self, champion: Champion, fmt: str, out: Path, **options) -> None: ...


@runtime_checkable
class Commands(Protocol):
    cli_commands: Mapping[str, str]  # ``engine.<command>`` -> module with ``main(argv)``
    cli_selectors: Mapping[str, str]  # options that pick this game where tools take --game

    def cli_arguments(self, command: str) -> list[str]: ...  # prepended to argv


@runtime_checkable
class Labels(Protocol):
    """Positions travel as ``cells`` (uint8 ``[n, label_cells]``, the side to move's view in the
    network layout's encoding) and ``ply`` (int16 ``[n]``); labels as the columns of
    ``evolve.labels.dataset`` (``target`` in the game's score units for the side to move)."""

    label_cells: int  # C: cells per position

    def sample_positions(self, count: int, seed: Seed, champion: Champion | None,
                         options: Mapping) -> dict[str, np.ndarray]: ...
    # -> {"cells", "ply", "key"}: ``key`` (uint64 [n]) equal for positions equal under the
    # board's symmetries; ``options``: the sampling knobs the game documents (openings, epsilon)

    def label_positions(self, cells: np.ndarray, ply: np.ndarray, champion: Champion | None,
                        depth: int, exact_empties: int) -> dict[str, np.ndarray]: ...
    # -> {"target", "source", "depth"}: exact at <= exact_empties empties, else depth-``depth``
    # search with ``champion``'s evaluation (the game's reference evaluation when None);
    # a game may add scalars (0-d arrays) that hold for every call with these arguments
    # (Reversi: ``search_scale``): ``evolve.label`` records them in the dataset's manifest

    def fit_network(self, columns: Mapping[str, np.ndarray], options: Mapping
                    ) -> tuple[np.ndarray, dict]: ...
    # -> (a genome of this game's network settings, a report: held-out error per phase, ...)


CAPABILITIES: Mapping[str, type] = MappingProxyType({
    GENOMES: Genomes, FILES: ChampionFiles, TD: TDLearning, FIGURES: Figures, EXPORT: Exports,
    COMMANDS: Commands, LABELS: Labels})


def capabilities(game) -> tuple[str, ...]:
    """The capabilities ``game`` declares, in the order of ``CAPABILITIES``; ``TypeError``
    naming an unknown one, or one whose members the game lacks."""
    declared = frozenset(game.capabilities)
    unknown = sorted(declared - set(CAPABILITIES))
    if unknown:
        raise TypeError(f"game {game.name}: unknown capability {unknown[0]!r} (known: "
                        f"{', '.join(CAPABILITIES)})")
    for name in declared:
        if not isinstance(game, CAPABILITIES[name]):
            raise TypeError(f"game {game.name} declares {name!r} but lacks some of its "
                            "members (engine.core.capabilities)")
    return tuple(name for name in CAPABILITIES if name in declared)


def has(game, capability: str) -> bool:
    """Whether ``game`` declares ``capability``."""
    if capability not in CAPABILITIES:
        raise ValueError(f"unknown capability {capability!r} (known: "
                         f"{', '.join(CAPABILITIES)})")
    return capability in game.capabilities


def require(game, capability: str, what: str) -> None:
    """``ValueError`` in one line unless ``game`` declares ``capability`` (``what``: what
    needed it, e.g. ``"evolving"``)."""
    if not has(game, capability):
        raise ValueError(f"{what} needs a game with {capability!r} (game {game.name} declares "
                         f"{', '.join(capabilities(game)) or 'none'})")


def export_formats(game) -> tuple[ExportFormat, ...]:
    """The formats ``evolve.export`` writes for ``game``: its own (``export``), else the
    champion JSON of a game with ``genomes``, else none."""
    if has(game, EXPORT):
        return tuple(game.export_formats)
    return (JSON_EXPORT,) if has(game, GENOMES) else ()


def commands(game) -> dict[str, str]:
    """``engine.<command>`` -> module: the game's own (``commands``), else the shared play."""
    return dict(game.cli_commands) if has(game, COMMANDS) else {"play": PLAY_ANY}


def arguments(game, command: str) -> list[str]:
    """Prepended to ``command``'s arguments: the game's own (``commands``), else the ``--game``
    the shared play command needs."""
    if has(game, COMMANDS):
        return game.cli_arguments(command)
    return ["--game", game.name] if command == "play" else []


def selectors(game) -> Mapping[str, str]:
    """The options that select ``game`` where tools take ``--game`` (``commands`` only)."""
    return game.cli_selectors if has(game, COMMANDS) else {}
