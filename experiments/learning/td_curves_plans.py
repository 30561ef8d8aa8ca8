"""The TD learning curves ``experiments.learning.td_curves`` measures, one row of ``CURVES`` each
(a new comparison is a new row): the game, its runs (a label, the network settings and
``evolve.td``'s options), how often a snapshot is taken, the anchors, the search both sides use
and the games per match."""

from __future__ import annotations

from dataclasses import dataclass

CHAMPIONS = "experiments/results/champions"
LEAGUE = "--depth 1 --epsilon 0.1 --endgame-empties 0"  # the Othello League protocol


@dataclass(frozen=True)
class Run:
    label: str       # a file name: letters, digits, _ and -
    settings: dict   # the game's settings (the network)
    options: str     # evolve.td's options: stages, rounds, backend ... (not --out, --seed)
    seed: int = 0


@dataclass(frozen=True)
class Curve:
    name: str        # the job, and its result files' stem
    game: str
    runs: tuple[Run, ...]
    snapshot_every: int
    anchors: tuple[str, ...]  # agent specs or files; "SPEC@SEARCH": at its own search
    search: str      # evolve.evaluate's options for both sides (depth or time, epsilon ...)
    games: int       # per match
    what: str
    seconds: float   # estimate on the idle 2-core machine
    seed: int = 2026
    measure_at: tuple[int, ...] = ()  # the snapshots played (games); () = every one
    game_settings: str = ""  # evolve.evaluate's --game-settings (JSON), if any

    def matches(self) -> list[tuple[str, str]]:
        """``(anchor spec, search)`` in table order."""
        return [(a.split("@")[0], a.split("@")[1] if "@" in a else self.search)
                for a in self.anchors]

    @property
    def kind(self) -> str:
        return "timing" if "--time" in self.search or "--time" in " ".join(self.anchors) \
            else "games"


def network(layout: str, features=("mobility", "stability"), phases: int = 1) -> dict:
    return {"genome": {"kind": "ntuple", "layout": layout, "symmetry": "d4",
                       "phases": phases, "features": list(features)}}


STAGES_2M = "--stage 1000000:0.07 --stage 500000:0.02 --stage 250000:0.01 --stage 250000:0.005"
STAGES_1M = "--stage 500000:0.07 --stage 250000:0.02 --stage 125000:0.01 --stage 125000:0.005"
ROUNDS = "--round-games 2000 --chunk-games 250"
# the 2x2-square network (the Othello champion when the curves were measured) and the fixed WPC
# players every Othello curve is measured against
OTHELLO_OPPONENTS = (f"{CHAMPIONS}/othello_ntuple_square2.json", "wpc1", "course")
FOUR_SQUARE = network("straight4+square2")  # straight 4-tuples + 2x2 squares


def othello_curve(name: str, runs: tuple[Run, ...], what: str) -> Curve:
    """An Othello curve of networks of millions of games: a snapshot every 250,000 games, each
    against ``OTHELLO_OPPONENTS`` (League protocol, 600 games a match; about an hour)."""
    return Curve(name, "othello", runs, 250_000, OTHELLO_OPPONENTS, LEAGUE, 600,
                 f"{what}; every 250,000 games against the 2x2-square network, wpc1 and the "
                 "course matrix (League protocol)", 3600)

CURVES = [
    othello_curve("td_curve_othello_layouts", (
        Run("square2", network("square2"), STAGES_2M),
        Run("straight4_square2", FOUR_SQUARE, STAGES_2M),
        Run("straight4_square2_rounds", FOUR_SQUARE, f"{STAGES_2M} {ROUNDS}"),
        Run("straight4_square2_openings", FOUR_SQUARE, f"{STAGES_2M} {ROUNDS} --openings 2:8"),
    ), "Othello n-tuple networks by TD self-play, 2 million games each: the committed "
        "network's layout (2x2 squares) against 4+2x2 (straight 4-tuples + 2x2 squares), "
        "online against rounds of 2,000 games (distributed TD's semantics) and rounds from "
        "random openings"),
    # what TD self-play alone reaches, per game
    Curve("td_curve_othello_straight2", "othello", (
        Run("straight2", network("straight2", features=()), "--stage 500000:0.07"),
    ), 20_000, ("wpc1", "wpc", f"{CHAMPIONS}/othello_league.json"), LEAGUE, 400,
        "Othello: TD self-play alone from zero (straight 2-tuples, no features) at 20k, 100k "
        "and 500k games, League protocol vs wpc1, wpc and the 1-ply WPC champion", 600,
        measure_at=(20_000, 100_000, 500_000)),
    Curve("td_curve_reversed_reversi_features", "reversed_reversi", (
        Run("none", network("straight2", features=()), "--stage 50000:0.07"),
        Run("mobility_stability", network("straight2"), "--stage 50000:0.07"),
    ), 10_000, ("wpc_negated", "course", f"{CHAMPIONS}/reversed_reversi_1ply.json"),
        "--depth 1 --epsilon 0.1 --endgame-empties 3", 400,
        "Reversed Reversi: TD self-play alone from zero, 50k games, with and without mobility "
        "and stability, vs wpc_negated, course and the 1-ply champion (1 ply + exact last 3)",
        300, measure_at=(10_000, 50_000)),
    Curve("td_curve_pentago_twist", "pentago_twist", (
        Run("straight5_corner3", {"genome": {"kind": "ntuple", "layout": "straight5+corner3",
                                             "phases": 1, "features": False}},
            "--stage 300000:0.3"),
    ), 10_000, ("reference", "mcts@--time 0.5 --endgame-empties 8"),
        "--depth 2 --endgame-empties 8", 200,
        "Pentago Twist: TD self-play alone from zero at 10k, 100k and 300k games, vs the seed's "
        "weights at depth 2 and its MCTS at 0.5 s per move (time-limited: a machine figure)",
        3 * 3600, measure_at=(10_000, 100_000, 300_000)),
    Curve("td_curve_hexifence", "hexifence", (
        Run("cell_pair", {"size": 3, "genome": {"kind": "ntuple", "layout": "cell+pair",
                                                "phases": 1, "features": False}},
            "--stage 100000:0.1"),
    ), 10_000, ("reference",), "--depth 2 --endgame-empties 20", 200,
        "Hexifence N=3: TD self-play alone from zero at 10k and 100k games vs the seed's "
        "weights at equal search (depth 2, exact from 20 undrawn edges)", 1800,
        measure_at=(10_000, 100_000)),
    othello_curve("td_curve_othello_step_rules", (
        Run("phases1", FOUR_SQUARE, STAGES_1M),
        Run("phases1_tcl", FOUR_SQUARE, f"{STAGES_1M} --step-rule tcl"),
        Run("phases4", network("straight4+square2", phases=4), STAGES_1M),
        Run("phases4_share", network("straight4+square2", phases=4),
            f"{STAGES_1M} --phase-share 0.25"),
        Run("phases4_tcl_share", network("straight4+square2", phases=4),
            f"{STAGES_1M} --step-rule tcl --phase-share 0.25"),
    ), "Othello 4+2x2 networks by TD self-play, 1 million games each: one phase against four "
        "(by discs), plain normalised LMS against temporal coherence (--step-rule tcl) and "
        "neighbouring phases sharing a quarter of each step (--phase-share 0.25)"),
    othello_curve("td_curve_othello_learners", (
        Run("driver", FOUR_SQUARE, f"{STAGES_2M} {ROUNDS}"),
        Run("workers", FOUR_SQUARE, f"{STAGES_2M} {ROUNDS} --learner workers"),
        Run("workers_16_tasks", FOUR_SQUARE,
            f"{STAGES_2M} --round-games 2000 --chunk-games 125 --learner workers"),
    ), "Othello 4+2x2 by distributed TD, 2 million games each: rounds learnt by the driver "
        "game by game against rounds learnt on the workers (--learner workers: each task of "
        "250 games learns from the round's network, the network moves by their mean), with 8 "
        "and 16 tasks (of 125 games) per round"),
]
