"""Every strength goal, one row each: a champion against opponents under a protocol, with the
target it must reach. ``python -m experiments.strength.run --goal NAME`` measures one (its
result is ``experiments/results/<NAME>.md`` + ``.json``); each row is a job of the reproduce
catalogue. A new goal is a new row here, nothing else.

``champion``: a champion file (the catalogue's ``champion_*`` jobs export the committed runs'),
a run's generation file, or an agent spec (``reference``: the game's seed weights).
``opponents``: agent specs or champion files, in the order ``evolve.evaluate`` plays them (the
match index seeds its games). ``search``: ``evolve.evaluate``'s options for both sides (depth or
time per move, epsilon, exact endgame). ``target``: what the first match's score must reach,
``Target(opponent, kind, value)``: ``score`` (>= value), ``elo`` (>= value), ``beats`` (the
95% Wilson interval above 50%); none: a measurement for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

CHAMPIONS = "experiments/results/champions"
SPRT = ("--sprt", "0", "50", "--sprt-full")  # fishtest's GSPRT, every game played


@dataclass(frozen=True)
class Target:
    opponent: str
    kind: str        # score | elo | beats
    value: float = 0.5


@dataclass(frozen=True)
class Goal:
    name: str        # the job, and its result file's stem
    game: str
    champion: str
    opponents: tuple[str, ...]
    search: str
    games: int
    target: Target | None
    what: str
    seconds: float   # estimate on the idle 2-core machine
    backend: str = "serial"
    seed: int = 2026
    options: tuple[str, ...] = ()   # more evolve.evaluate options (SPRT, --game-settings)

    @property
    def kind(self) -> str:  # time per move makes the result a machine figure
        return "timing" if "--time" in self.search else "games"


def champion(name: str) -> str:
    return f"{CHAMPIONS}/{name}.json"


LEAGUE = "--depth 1 --epsilon 0.1 --endgame-empties 0"  # the Othello League protocol
# the fixed Othello players no network trained on: the League's WPC, the course matrix and the
# CMA-ES League champion
OTHELLO_ANCHORS = ("wpc1", "course", "experiments/runs/othello_1ply_cmaes/champion.json")
RR_1PLY = "--depth 1 --endgame-empties 3"
PT_D2, HX_D2 = "--depth 2 --endgame-empties 8", "--depth 2 --endgame-empties 20"
HX_D3 = "--depth 3 --endgame-empties 24"
HX_PANEL = ("random", "greedy", "safe", "chain")
RR_PANEL = ("course", "wpc_negated", "greedy", "random", "mcts", "bfs")


def yardstick(game: str, reference: str) -> Goal:
    """The generation-0 champion of the default study against candidate panel
    opponents (``@d+K``: the same weights K plies deeper)."""
    return Goal(f"yardstick_{game}", game, f"experiments/runs/{game}/champions/gen_0000.json",
                (reference, "course", "greedy", f"{reference}@d+2", "course@d+2",
                 f"{reference}@d+1"), "--depth 4 --endgame-empties 10", 40, None,
                f"{game}: the default study's generation-0 champion vs candidate yardstick "
                "opponents (a panel it already beats shows no progress)", 60, seed=0)


# Othello candidates for the champion: head to head against the network that was the champion while
# they were measured (2x2 squares, 4 million games; >= 65%), and the anchors beside it (no
# overfitting)
OTHELLO_VS_SQUARE2 = (champion("othello_ntuple_square2"), *OTHELLO_ANCHORS)
OTHELLO_65_VS_SQUARE2 = Target("othello_ntuple_square2", "score", 0.65)

GOALS = (
    # --- the default GA studies' champions -----------------------------------------------------
    Goal("strength_reversed_reversi", "reversed_reversi", champion("reversed_reversi"),
         RR_PANEL, "--depth 4 --endgame-empties 10", 200, Target("course", "score", 0.75),
         "default Reversed Reversi champion vs the reference agents at its own search", 300,
         "ray", options=SPRT),
    Goal("strength_othello", "othello", champion("othello"),
         ("course", "wpc", "greedy", "random", "mcts", "bfs"), "--depth 4 --endgame-empties 10",
         200, None, "default Othello champion vs the reference agents at its own search", 300,
         "ray", options=SPRT),
    Goal("strength_othello_1ply", "othello", champion("othello"), ("wpc1",), LEAGUE, 200, None,
         "the default Othello champion under the Othello League protocol vs the League's WPC",
         60, "ray", options=SPRT),
    Goal("strength_othello_league", "othello", champion("othello_league"), ("wpc1",), LEAGUE,
         200, Target("wpc1", "score", 0.5), "the 1-ply Othello champion "
         "(`+experiment=othello_league`), League protocol, vs the literature WPC", 60, "ray",
         options=SPRT),
    Goal("strength_pentago_twist", "pentago_twist", champion("pentago_twist"),
         ("mcts", "greedy", "random"), "--time 0.5 --endgame-empties 8", 200,
         Target("mcts", "score", 0.70), "Pentago Twist champion vs the seed's MCTS, 0.5 s per "
         "move each (time-limited: a machine figure)", 600, "ray"),
    Goal("strength_pentago_twist_es", "pentago_twist", champion("pentago_twist_es"), ("mcts",),
         "--time 0.5 --endgame-empties 8", 400, Target("mcts", "score", 0.85),
         "the ES feature-genome champion vs the seed's MCTS, 0.5 s per move", 2400,
         "ray"),
    Goal("strength_hexifence", "hexifence", champion("hexifence"), HX_PANEL, HX_D3, 200,
         Target("chain", "score", 0.75), "Hexifence champion (N=3) vs the chain-aware agent "
         "and the panel", 300, "ray"),
    Goal("strength_hexifence_reference", "hexifence", "reference", HX_PANEL, HX_D3, 200, None,
         "Hexifence: the seed weights at the same settings, for comparison", 150, "ray"),
    *(Goal(f"strength_hexifence_{study}", "hexifence", champion(f"hexifence_{study}"),
           ("chain",), HX_D3, 200, None, f"Hexifence: an earlier study's champion ({study}) vs "
           "chain at the same settings", 30, "ray") for study in ("depth3_study", "depth2_study")),
    Goal("strength_hexifence_n2", "hexifence", champion("hexifence"), (*HX_PANEL, "perfect"),
         "--depth 3 --endgame-empties 12", 200, None, "Hexifence champion on the N=2 board vs "
         "the panel and the exact solver", 120, "ray", options=("--game-settings", '{"size": 2}')),
    # --- n-tuple and ES champions against their goals (+ anchors training never saw) ---------
    Goal("strength_othello_ntuple", "othello", champion("othello_ntuple"),
         OTHELLO_ANCHORS, LEAGUE, 400,
         Target("wpc1", "score", 0.90), "Othello n-tuple champion (the mean of the 4+2x2 and "
         "2x2-square TD networks in 4 phases), League protocol, vs the standard heuristic WPC",
         60),
    Goal("strength_othello_ntuple_vs_league", "othello", champion("othello_ntuple"),
         (champion("othello_league"),), LEAGUE, 400, Target("othello_league", "elo", 200.0),
         "Othello n-tuple champion head to head vs our best WPC champion, League protocol", 20),
    Goal("strength_othello_ntuple_square2", "othello", champion("othello_ntuple_square2"),
         OTHELLO_ANCHORS, LEAGUE, 400, None, "the Othello n-tuple champion until the blend "
         "(2x2 squares, 4 million games of TD), the same opponents, for comparison", 60),
    Goal("strength_othello_ntuple_square2_vs_league", "othello",
         champion("othello_ntuple_square2"), (champion("othello_league"),), LEAGUE, 400, None,
         "the Othello n-tuple champion until the blend head to head vs our best WPC champion, "
         "for comparison", 20),
    Goal("strength_othello_ntuple_4x2x2", "othello", champion("othello_ntuple_4x2x2"),
         OTHELLO_VS_SQUARE2, LEAGUE, 1000,
         OTHELLO_65_VS_SQUARE2, "an Othello candidate (4+2x2, 20 "
         "million games of distributed TD) head to head vs the 2x2-square network (the "
         "champion then), League protocol; and vs the WPC, the course matrix and the CMA-ES "
         "League champion (no overfitting)", 120),
    Goal("strength_othello_ntuple_4x2x2_phases4", "othello",
         champion("othello_ntuple_4x2x2_phases4"),
         OTHELLO_VS_SQUARE2, LEAGUE, 1000,
         OTHELLO_65_VS_SQUARE2, "a second Othello candidate (4+2x2 "
         "in 4 phases sharing a quarter of each step, 20 million games of distributed TD; a "
         "half of the champion) head to head vs the 2x2-square network (the champion then), "
         "League protocol; and vs the WPC, the course matrix and the CMA-ES League champion (no "
         "overfitting)", 120),
    Goal("strength_othello_ntuple_square2_phases4", "othello",
         champion("othello_ntuple_square2_phases4"),
         OTHELLO_VS_SQUARE2, LEAGUE, 1000,
         OTHELLO_65_VS_SQUARE2, "a third Othello candidate (the "
         "2x2 squares in 4 phases sharing a quarter of each step, 20 million games of "
         "distributed TD; the other half of the champion) head to head vs the 2x2-square "
         "network (the champion then), League protocol; and vs the anchors", 120),
    Goal("strength_othello_ntuple_vs_square2", "othello", champion("othello_ntuple"),
         OTHELLO_VS_SQUARE2, LEAGUE, 1000,
         OTHELLO_65_VS_SQUARE2, "the Othello champion (the mean of the "
         "4+2x2 and 2x2-square networks in 4 phases, python -m evolve.blend) head to head vs "
         "the one before it, League protocol; and vs the anchors (no overfitting)", 120),
    Goal("strength_othello_ntuple_vs_square2_fresh", "othello", champion("othello_ntuple"),
         OTHELLO_VS_SQUARE2, LEAGUE, 2000,
         OTHELLO_65_VS_SQUARE2, "the same on seeds no choice was made "
         "on (seed 7, 2,000 games per opponent): the blend was picked among blends by the "
         "seed-2026 figures", 240, seed=7),
    Goal("strength_othello_ntuple_square2_anchors_fresh", "othello",
         champion("othello_ntuple_square2"), OTHELLO_ANCHORS, LEAGUE,
         2000, None, "the Othello network before the blend against the anchors on the blend's "
         "fresh seeds (seed 7, 2,000 games, the same openings): its bar there", 120, seed=7),
    Goal("strength_othello_ntuple_square2_anchors", "othello",
         champion("othello_ntuple_square2"), OTHELLO_ANCHORS, LEAGUE,
         1000, None, "the Othello network before the blend against the anchors as the "
         "candidates meet them (League protocol, 1,000 games, the same seed and openings): the "
         "bar a candidate must not fall below", 60),
    Goal("strength_reversed_reversi_ntuple", "reversed_reversi",
         champion("reversed_reversi_ntuple"), (champion("reversed_reversi_1ply"), "wpc_negated",
                                              "course", "experiments/runs/reversed_reversi_1ply_"
                                              "cmaes/champion.json"), RR_1PLY, 400,
         Target("reversed_reversi_1ply", "elo", 150.0), "Reversed Reversi n-tuple champion, 1 "
         "ply + exact last 3, vs the committed 1-ply WPC champion", 40),
    Goal("strength_reversed_reversi_ntuple_square2", "reversed_reversi",
         champion("reversed_reversi_ntuple_square2"),
         (champion("reversed_reversi_1ply"), "wpc_negated", "course",
          "experiments/runs/reversed_reversi_1ply_cmaes/champion.json"), RR_1PLY, 400, None,
         "the Reversed Reversi n-tuple champion before the current one (2x2 squares, "
         "4 million games), "
         "the same opponents, for comparison", 40),
    Goal("strength_reversed_reversi_ntuple_vs_square2", "reversed_reversi",
         champion("reversed_reversi_ntuple"),
         (champion("reversed_reversi_ntuple_square2"), champion("reversed_reversi_1ply"),
          "wpc_negated", "course"), RR_1PLY, 1000,
         Target("reversed_reversi_ntuple_square2", "score", 0.65),
         "the Reversed Reversi champion (4+2x2 in 4 phases, 10 million games of "
         "distributed TD) head to head vs the one before it, 1 ply + exact last 3; and vs the "
         "1-ply WPC champion, the negated WPC and the course matrix (no overfitting)", 120),
    Goal("strength_reversed_reversi_ntuple_square2_phases4", "reversed_reversi",
         champion("reversed_reversi_ntuple_square2_phases4"),
         (champion("reversed_reversi_ntuple_square2"), champion("reversed_reversi_ntuple")),
         RR_1PLY, 1000, Target("reversed_reversi_ntuple_square2", "score", 0.65),
         "a second Reversed Reversi candidate (2x2 squares + mobility, stability in 4 "
         "phases, 10 million games of distributed TD), a blend member for the champion: head "
         "to head vs the network before the champion, and vs the champion", 60),
    Goal("strength_othello_cocmaes", "othello", "experiments/runs/othello_cocmaes/champion.json",
         (champion("othello_ntuple_square2"), "wpc1", "course"), LEAGUE, 1000, None,
         "the Co-CMA-ES study at its small scale (+experiment=othello_cocmaes: 40 samples, 100 "
         "generations, about 7 CPU-minutes) vs the 2x2-square TD network (the champion then), "
         "wpc1 and the course matrix, League protocol", 60),
    Goal("strength_pentago_twist_ntuple", "pentago_twist", champion("pentago_twist_ntuple"),
         ("reference", "greedy"), PT_D2, 400, Target("reference", "beats"),
         "Pentago Twist n-tuple champion vs its seed weights at equal search", 120),
    Goal("strength_pentago_twist_es_d2", "pentago_twist", champion("pentago_twist_es"),
         ("reference", "greedy", "mcts:1000"), PT_D2, 400, Target("reference", "beats"),
         "Pentago Twist feature genome by ES against the seed: vs its seed weights at equal "
         "search", 180),
    Goal("strength_pentago_twist_seed", "pentago_twist", "reference", ("greedy", "mcts:1000"),
         PT_D2, 400, None, "Pentago Twist: the seed weights themselves, for comparison", 120),
    Goal("strength_hexifence_ntuple", "hexifence", champion("hexifence_ntuple"),
         ("reference", "chain"), HX_D2, 400, Target("reference", "beats"),
         "Hexifence n-tuple champion (N=3) vs its seed weights at equal search", 60),
    Goal("strength_hexifence_es", "hexifence", champion("hexifence_es"), ("reference", "safe"),
         HX_D2, 400, Target("reference", "beats"), "Hexifence feature genome by ES against the "
         "seed: vs its seed weights at equal search", 60),
    Goal("strength_hexifence_seed", "hexifence", "reference", ("chain", "safe"), HX_D2, 400,
         None, "Hexifence: the seed weights themselves, for comparison", 60),
    # which committed champion is "today's best" at equal search (the bar of the
    # Pentago Twist and Hexifence goals: a new champion >= 60% against it)
    Goal("strength_pentago_twist_today", "pentago_twist", champion("pentago_twist_es"),
         (champion("pentago_twist"), champion("pentago_twist_ntuple"), "reference"), PT_D2, 400,
         None, "today's best Pentago Twist champion? The ES champion against every "
         "other committed one and the seed weights, at equal search (depth 2)", 120),
    Goal("strength_hexifence_today", "hexifence", champion("hexifence"),
         (champion("hexifence_es"), champion("hexifence_ntuple"),
          champion("hexifence_depth2_study"), champion("hexifence_depth3_study"), "reference"),
         HX_D2, 400, None, "today's best Hexifence champion? The README's champion "
         "against every other committed one and the seed weights, at equal search (depth 2, "
         "exact from 20 empty edges)", 120),
    # --- choosing the yardstick panels ---------------------------------------------------------
    yardstick("reversed_reversi", "wpc_negated"),
    yardstick("othello", "wpc"),
)


def by_name() -> dict[str, Goal]:
    return {g.name: g for g in GOALS}
