"""What ``experiments.learning.efficiency`` compares, per game: the fixed anchors and protocol a
champion is measured with (never the opponents a fitness trained on alone), and the methods
(genome kind x optimizer), each a ``python -m evolve`` command or TD self-play alone.

A method's ``overrides`` are Hydra overrides of ``python -m evolve``; ``td_alone`` methods
compose the same config and run the game's ``td_learn`` from ``td_start`` (``zero`` weights or
the game's first seed ``reference``) with its ``ga.td_alpha`` / ``ga.td_epsilon``;
``texel`` methods fit the same genome to the outcomes of self-play games
(``experiments.learning.texel``); ``from_search`` methods are the options of
``experiments.learning.from_search``'s rounds (label with search, fit), run without measuring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RUN_ONLY = ("playoff.enabled=false", "plot=false", "progress=false", "backend=serial")
NO_YARDSTICK = "yardstick.enabled=false"  # the panel measures, it does not learn: unless the
# method's fitness needs its hall of fame, the study runs without it (it would spend the budget)


@dataclass(frozen=True)
class Method:
    name: str
    what: str
    overrides: tuple[str, ...]
    kind: str = "evolve"      # evolve | td_alone | texel | td_cli | from_search
    td_start: str = "zero"    # td_alone: zero | reference
    yardstick: bool = False   # evolve: keep the yardstick (its hall of fame is in the fitness)
    budget: float | None = None  # run only at this budget (named with --methods), not the plan's
    revision: int = 0  # bumped when the code behind it learns otherwise from the same options:
    # a row measured before (kept in the result file) is then measured again


@dataclass(frozen=True)
class Plan:
    game: str
    protocol: tuple[str, ...]   # evolve.evaluate options shared by every match
    anchors: tuple[str, ...]    # agent specs or champion files
    methods: tuple[Method, ...]
    budget: float = 240.0       # CPU-seconds per run (default)
    notes: tuple[str, ...] = field(default_factory=tuple)


def m(name, what, *overrides, kind="evolve", td_start="zero", yardstick=False,
      budget=None, revision=0) -> Method:
    return Method(name, what, tuple(overrides), kind, td_start, yardstick, budget, revision)


HOUR = 3600.0
NETWORK_4X2X2 = ('{"genome": {"kind": "ntuple", "layout": "straight4+square2", "symmetry": '
                 '"d4", "phases": 1, "features": []}}')


def td_hour(games: int) -> tuple[str, ...]:
    """``evolve.td`` stages of ``games`` games (alpha 0.07, 0.02, 0.01, 0.005 over 1/2, 1/4,
    1/8, 1/8 of them) and 20 snapshots: sized to about 1 CPU-hour of the game's self-play."""
    shares = ((2, 0.07), (4, 0.02), (8, 0.01), (8, 0.005))
    stages = [x for share, alpha in shares for x in ("--stage", f"{games // share}:{alpha}")]
    return (*stages, "--snapshot-every", str(games // 20))


def an_hour(game: str, games: int, cocmaes: tuple[str, ...]) -> tuple[Method, ...]:
    """The leading learners for one CPU-hour each, on the published 4+2x2 network (no
    features): TD online on one core, distributed TD on 2 Ray workers learnt by the driver,
    Co-CMA-ES, and distributed TD learnt on the workers (last: the issue asks for the first
    three). ``games``: the TD runs' games (about an hour of the game's self-play)."""
    td = ("--game", game, "--settings", NETWORK_4X2X2, *td_hour(games))
    n = f"{games / 1e6:g} million games"
    return (m("td_hour", f"TD self-play online (python -m evolve.td), 4+2x2, {n}",
              *td, kind="td_cli", budget=HOUR),
            m("td_ray2_hour", "distributed TD: rounds of 2,000 games on 2 Ray workers, 4+2x2, "
              f"{n} (CPU: the driver's and the workers')", *td, "--round-games", "2000",
              "--chunk-games", "250", "--backend", "ray", "--workers", "2", kind="td_cli",
              budget=HOUR),
            m("cocmaes_hour", "Co-CMA-ES (separable, 40 samples, round robin from 7-ply "
              "openings), 4+2x2", *cocmaes, budget=HOUR),
            m("td_workers2_hour", "distributed TD learnt on the workers (--learner workers: each "
              "task learns from its own games, the network moves by the mean of their changes), "
              f"2 Ray workers, 4+2x2, {n}", *td, "--round-games", "2000",
              "--chunk-games", "250", "--learner", "workers", "--backend", "ray", "--workers",
              "2", kind="td_cli", budget=HOUR, revision=1))  # 1: synchronous rounds (d80abb2)


OTHELLO_NT = ("+experiment=othello_ntuple", "game.genome.layout=square2",
              "game.genome.features=[mobility,stability]", "games.epsilon=0.1")
RR_NT = ("+experiment=reversed_reversi_ntuple", "game.genome.layout=square2",
         "game.genome.features=[mobility,stability]", "games.epsilon=0.1")
CTDL = ("ga.local_search=td", "ga.td_games=2000", "ga.td_alpha=0.07", "ga.population=10")


def alone(network: tuple[str, ...]) -> tuple[Method, Method]:
    """The methods that learn without a GA, on ``network``'s genome: TD self-play and Texel."""
    return (m("td_ntuple", "TD self-play alone from zero weights, the same network", *network,
              "ga.td_alpha=0.07", kind="td_alone"),
            m("texel_ntuple", "Texel-style: outcomes of self-play regressed on positions, the "
              "same network", *network, "ga.td_alpha=0.02", kind="texel"))


def seeded(game: str, network: str, td_games: int) -> tuple[Method, ...]:
    """A game whose seed is hand-set feature weights: the GA on them and on ``network`` (its
    ``<game>_ntuple`` study), that with TD self-play between generations, and TD alone."""
    study = f"+experiment={game}_ntuple"
    return (m("ga_weights", "GA, the hand-set feature weights' genome (the default study)",
              f"+experiment={game}"),
            m("ga_ntuple", f"GA, {network}", study),
            m("ctdl_ntuple", "GA + TD self-play, the same network", study, "ga.local_search=td",
              f"ga.td_games={td_games}"),
            m("td_ntuple", "TD self-play alone from the seed weights, the same network", study,
              kind="td_alone", td_start="reference"))


def plan(game: str, search: str, anchors: tuple[str, ...], methods: tuple[Method, ...],
         *notes: str) -> Plan:
    """``search``: the ``evolve.evaluate`` options of every match but ``--game``."""
    return Plan(game, ("--game", game, *search.split()), anchors, methods, notes=notes)


PLANS = {p.game: p for p in (
    plan("othello", "--depth 1 --epsilon 0.1 --endgame-empties 0",
         ("wpc1", "wpc", "experiments/results/champions/othello_league.json"),
         (m("ga_wpc", "GA, positional + mobility + stability per phase (the League study)",
            "+experiment=othello_league", "games.epsilon=0.1"),
          m("ga_ntuple", "GA, n-tuple network (2x2 squares + mobility, stability)", *OTHELLO_NT),
          m("cmaes_ntuple", "separable CMA-ES, the same network", *OTHELLO_NT,
            "ga.algorithm=cmaes", "ga.cma_diagonal=true", "ga.local_search=none"),
          m("es_ntuple", "natural-gradient ES (antithetic, ranks), the same network",
            *OTHELLO_NT, "ga.algorithm=es", "ga.population=21", "ga.local_search=none"),
          m("ctdl_ntuple", "GA + TD self-play between generations (CTDL), the same network",
            *OTHELLO_NT, *CTDL),
          *alone(OTHELLO_NT),
          *an_hour("othello", 5_000_000, ("+experiment=othello_cocmaes",)),
          m("from_search_hour", "learning from search (experiments.learning.from_search) from "
            "the reference evaluation: 5 rounds of 500,000 positions labelled by depth-4 "
            "search with the round's network and exact at 14 empties, the Edax-like layout in "
            "15 phases fitted on every round so far", "--game", "othello", "--champion",
            "reference", "--rounds", "5", "--positions", "500000", "--batch-positions",
            "20000", "--depth", "4", "--exact-empties", "14", "--phases", "15",
            kind="from_search", budget=HOUR)),
         "Othello League protocol: 1 ply, no exact endgame, both sides move at random with "
         "probability 0.1; wpc1 is the League's standard heuristic WPC."),
    plan("reversed_reversi", "--depth 1 --endgame-empties 3",
         ("wpc_negated", "course", "experiments/results/champions/reversed_reversi_1ply.json"),
         (m("ga_wpc", "GA, positional + mobility + stability per phase (the 1-ply study)",
            "+experiment=reversed_reversi_1ply", yardstick=True),
          m("ctdl_ntuple", "GA + TD self-play (CTDL), 2x2 squares + mobility, stability",
            *RR_NT, *CTDL),
          *alone(RR_NT),
          *an_hour("reversed_reversi", 10_000_000, (
              "+experiment=reversed_reversi_ntuple", "game.genome.layout=straight4+square2",
              "game.genome.phases=1", "game.seed_references=[zero]", "ga.algorithm=cmaes",
              "ga.cma_diagonal=true", "ga.cma_sigma0=0.05", "ga.population=40",
              "games.openings=1", "games.min_plies=7", "games.max_plies=7"))),
         "1 ply + exact last 3 on both sides; the committed 1-ply WPC champion is an anchor."),
    plan("pentago_twist", "--depth 2 --endgame-empties 8", ("reference", "mcts:1000"),
         seeded("pentago_twist", "straight 5-tuples + the features", 200)),
    plan("hexifence", "--depth 2 --endgame-empties 20", ("reference", "chain"),
         seeded("hexifence", "cell + pair patterns + the features", 100)),
)}
