"""``GameBase``: the ``Conveniences`` of the ``Game`` contract and the defaults of the optional
capabilities' members (``engine.core.capabilities``), so that a new game writes only its rules,
its agents and, to be evolved, its genome. A game declares in ``capabilities`` the optional
capabilities it really has (none by default): a default member is no claim.

The defaults: one genome phase; openings and matches by the core's runner over the state
interface; move ids written as numbers; a board view holding the state text; JSON champion files
with one weight per gene name (``{"game", "schema_version", "name", "settings", "weights",
"metadata"}``); no figures; export as that JSON only; the shared terminal play command.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

import numpy as np

from engine.core.agent import Agent, Seed
from engine.core.capabilities import PLAY_ANY
from engine.core.champions.files import ChampionDocument, as_champion, check_header, load_champion
from engine.core.moved import current_name
from engine.core.records import (
    JSON_EXPORT,
    Champion,
    ChampionFileError,
    ExportFormat,
    GameSettingsError,
    Outcome,
    SearchSettings,
)

CHAMPION_SCHEMA_VERSION = 1
NO_SEARCH = "no search, a random legal move"  # ``fixed_search`` of the random agent


class GameBase:
    """Subclass and write the rules (``initial_state`` ... ``outcome``, ``state_text`` /
    ``parse_state``), the agents (``make_agent``, ``make_panel_agent``, ``check_spec``,
    ``agent_specs``) and the genome (``genome_spec``, ``reference_genome``,
    ``with_settings`` / ``settings`` when there are settings)."""

    description = ""
    margin_unit = "win"
    result_columns: tuple[str, ...] = ()
    seed_references: tuple[str, ...] = ()
    default_panel: tuple[str, ...] = ()
    export_formats: tuple[ExportFormat, ...] = (JSON_EXPORT,)
    cli_commands: Mapping[str, str] = MappingProxyType({"play": "engine.core.commands.play_any"})
    config_dir: Path | None = None
    cli_selectors: Mapping[str, str] = MappingProxyType({})
    capabilities: frozenset[str] = frozenset()  # engine.core.capabilities: declared, not implied
    champion_schema_version = CHAMPION_SCHEMA_VERSION
    max_abs_weight = np.inf  # load_champion refuses larger weights

    # --- configuration and genome ---------------------------------------------------------
    def with_settings(self, settings: Mapping) -> GameBase:
        if settings:
            key = sorted(settings)[0]
            raise GameSettingsError(f"game.{key}: unknown setting for {self.name} (it has none)")
        return self

    def settings(self) -> dict:
        return {}

    def reference_names(self) -> tuple[str, ...]:
        return tuple(self.seed_references)

    def phase_of(self, state) -> int:
        return 0

    def moves_left(self, state) -> int:
        """An estimate of the moves the side to move has left, this one included (a game
        clock shares its time over them; ``engine.core.matches.clock``)."""
        return 20

    def progress(self, state) -> float:
        """The share of the game played, 0..1 (a game clock spends more at mid-game)."""
        return 0.5

    def check_search(self, search: SearchSettings) -> None:
        if search.depth < 1:
            raise GameSettingsError(f"search.depth={search.depth} must satisfy depth >= 1")
        if search.endgame_empties < 0:
            raise GameSettingsError(f"search.endgame_empties={search.endgame_empties} must "
                                    "satisfy endgame_empties >= 0")

    def spec_searches(self, spec: str) -> bool:
        """Whether the search settings (depth, endgame, time) change the agent ``spec`` plays:
        tools show search fields only for those."""
        return True

    def fixed_search(self, spec: str) -> str | None:
        """What an agent the search settings do not change (``spec_searches`` false) searches,
        in the words a search's settings are given in (``depth 1, greedy by its positional
        weights, no exact endgame``); None when the game does not say."""
        from engine.core.matches.specs import split_depth

        inner, _ = split_depth(spec, SearchSettings())
        return NO_SEARCH if inner.strip() == "random" else None

    def learns_by_td(self) -> bool:
        return False

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float) -> np.ndarray:
        """A copy of ``genome`` after ``games`` games of temporal-difference self-play:
        epsilon-greedy 1-ply play, each position's value moved by ``alpha`` towards the next
        one's (the final result at the end). Reproducible from ``seed``. Games whose genome can
        learn this way (``learns_by_td``) override it; the GA uses it for Lamarckian local
        search (``ga.local_search=td``)."""
        raise ValueError(f"{self.name}: this genome cannot learn by temporal differences "
                         "(learns_by_td is false for these settings)")

    def td_opponents(self) -> bool:
        """Whether ``td_learn`` also takes ``opponents`` (agent specs of fixed players that
        play some of the games instead of the genome itself) and ``self_play_share``."""
        return False

    def td_rounds(self) -> bool:
        """Whether TD self-play can be split into rounds (``td_play``, ``td_learn_games``):
        games played anywhere with a fixed genome, then learnt from in game order."""
        return False

    def td_play(self, genome: np.ndarray, games: int, seed: Seed, epsilon: float,
                openings=None, opponents=(), self_play_share: float = 0.5) -> dict:
        """``games`` games of epsilon-greedy 1-ply self-play by ``genome``, which does not
        change during play, from the initial state or from ``openings`` (one move sequence per
        game); a record of their positions and results (a dict of numpy arrays, read only by
        ``td_learn_games``), reproducible from ``seed``. A game whose ``td_opponents()`` is
        true also takes ``opponents`` and ``self_play_share`` as ``td_learn`` does."""
        raise ValueError(f"{self.name}: TD self-play in rounds is not available for these "
                         "settings (td_rounds is false)")

    def td_step_rules(self) -> tuple[str, ...]:
        """The ``StepRule`` names ``td_learn`` and ``td_learn_games`` take as ``rule=`` (a
        rule with ``phase_share`` too); empty: plain normalised LMS only (no ``rule=``)."""
        return ()

    def td_learn_games(self, genome: np.ndarray, records, alpha: float
                       ) -> tuple[np.ndarray, np.ndarray]:
        """A copy of ``genome`` after TD(0) along every game of ``records`` (``td_play``'s
        records, in order; each game's positions in order, as ``td_learn`` learns online), and
        each game's mean squared TD error."""
        raise ValueError(f"{self.name}: TD self-play in rounds is not available for these "
                         "settings (td_rounds is false)")

    # --- playing ------------------------------------------------------------------------------
    def random_openings(self, n: int, seed: Seed, min_plies: int = 2,
                        max_plies: int = 4) -> list[tuple[int, ...]]:
        from engine.core.matches.runner import random_openings

        return random_openings(self, n, seed, min_plies, max_plies)

    def play(self, first: Agent, second: Agent, opening: Sequence[int] = (),
             seed: Seed = None) -> Outcome:
        from engine.core.matches.runner import play_game

        return play_game(self, first, second, opening, seed)

    # --- states -------------------------------------------------------------------------------
    def state_view(self, state) -> dict:
        return {"text": self.state_text(state), "to_move": self.to_move(state)}

    def move_text(self, move: int) -> str:
        return str(int(move))

    def parse_move(self, text: str, state=None) -> int:
        try:
            move = int(str(text).strip())
        except ValueError:
            raise ValueError(f"{text!r} is not a move (moves are numbers)") from None
        if state is not None and move not in self.legal_moves(state):
            raise ValueError(f"move {move} is not legal here")
        return move

    def move_label(self, move: int, state=None) -> str:
        return self.move_text(move)

    # --- files and figures --------------------------------------------------------------------
    def recognizes(self, header: dict) -> bool:
        return header.get("game") == self.name

    def save_champion(self, path: str | Path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None:
        names = self.genome_spec().names
        genome = np.asarray(genome, dtype=np.float64)
        if genome.shape != (len(names),):
            raise ValueError(f"genome has {genome.size} genes, {self.name} needs {len(names)}")
        doc = {"game": self.name, "schema_version": self.champion_schema_version, "name": name,
               "settings": self.settings(),
               "weights": {n: float(v) for n, v in zip(names, genome, strict=True)},
               "metadata": dict(metadata or {})}
        Path(path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")

    def projected_genome(self, path: str | Path) -> np.ndarray:
        """A champion file's evaluation as a genome of these settings, with the values it had
        (here: a file of these very genes; games that can re-express another layout or kind
        override it). ``ValueError`` in one line naming what does not fit."""
        return self.fitted_genome(self.load_champion(path))

    def fitted_genome(self, champion: Champion) -> np.ndarray:
        """A loaded champion's genome if it has these settings' size (``ValueError`` naming
        its file otherwise)."""
        path = champion.provenance
        genome = np.asarray(champion.genome, dtype=np.float64)
        if genome.shape != (self.genome_spec().size,):
            raise ValueError(f"{path}: {genome.size} genes, these settings have "
                             f"{self.genome_spec().size} (use the file's settings)")
        return genome

    def load_champion(self, path: str | Path) -> Champion:
        """The champion file ``path`` read by this game
        (``engine.core.champions.files.load_champion`` is the edge every front end goes through: it
        also finds the game)."""
        return load_champion(path, self)

    def read_champion(self, document: ChampionDocument) -> Champion:
        """The one reader of this game's champion files: a parsed file as a ``Champion``
        (here: the JSON of one weight per gene name); ``ChampionFileError`` naming the file
        and the field."""
        path = document.path
        if document.npz:
            raise ChampionFileError(f"{path}: {self.name} champion files are JSON")
        data = document.data
        check_header(path, data, self.name, self.champion_schema_version)
        settings = data.get("settings", {})
        if not isinstance(settings, dict):
            raise ChampionFileError(f"{path}: settings must be an object")
        try:
            game = self.with_settings(settings)
        except GameSettingsError as exc:
            raise ChampionFileError(f"{path}: settings: {exc}") from None
        names = game.genome_spec().names
        weights = data.get("weights")
        if not isinstance(weights, dict) or set(weights) != set(names):
            given = set(weights) if isinstance(weights, dict) else set()
            missing = sorted(set(names) - given)[:3]
            raise ChampionFileError(f"{path}: weights must map each of the {len(names)} genes "
                                    f"to a number (missing e.g. {missing})")
        values = [weights[n] for n in names]
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise ChampionFileError(f"{path}: weights must be numbers")
        genome = np.array(values, dtype=np.float64)
        if not np.all(np.isfinite(genome)) or np.abs(genome).max(initial=0) > self.max_abs_weight:
            raise ChampionFileError(f"{path}: weights must be finite with |w| <= "
                                    f"{self.max_abs_weight:g}")
        metadata = data.get("metadata", {})
        return Champion(self.name, genome, game.settings(), str(data.get("name", "")),
                        metadata if isinstance(metadata, dict) else {})

    def champion_agent(self, champion: Champion, search: SearchSettings, seed: Seed = None
                       ) -> Agent:
        """The agent a ``Champion`` plays at ``search``: ``make_agent`` of its genome under
        its own settings (nothing is read: the champion was loaded once)."""
        game = self.with_settings(champion.settings) if champion.settings else self
        return game.make_agent(champion.genome, search, seed, name=champion.label)

    def export(self, champion: Champion | Path, fmt: str, out: Path, **options) -> None:
        """The base writes the canonical champion JSON of a loaded champion (a path is read
        through the game's own validator first); a game with more formats overrides this for
        them."""
        if fmt != JSON_EXPORT.name:
            raise ValueError(f"--format {fmt} is not available for {self.name}")
        if options:
            raise ValueError(f"--format json takes no options (got {', '.join(options)})")
        champion = as_champion(champion, self)
        self.with_settings(champion.settings).save_champion(out, champion.genome, champion.name,
                                                            champion.metadata)

    def genome_figure(self, genome: np.ndarray, title: str = ""):
        return None

    def genome_figures(self, champion: Champion, history=()) -> dict:
        """Named figures of a champion for reports (default: ``genome_figure`` alone)."""
        figure = self.genome_figure(champion.genome, champion.name)
        return {} if figure is None else {"genome": figure}

    def genome_markdown(self, genome: np.ndarray) -> str:
        """A report's Markdown of a genome (default: a table of every gene's weight)."""
        rows = "".join(f"| {name} | {float(v):.4g} |\n"
                       for name, v in zip(self.genome_spec().names, genome, strict=True))
        return "### Genome\n\n| gene | weight |\n|---|---|\n" + rows

    def cli_arguments(self, command: str) -> list[str]:
        """Prepended to the command's arguments (the shared play command needs the game)."""
        module = current_name(self.cli_commands.get(command, ""))  # a plug-in may name the old path
        return ["--game", self.name] if module == PLAY_ANY else []
