"""What ``python -m experiments.reproduce`` runs: one job per result, its exact command, the
files it writes under ``experiments/results/`` and how long it takes on the 2-core development
machine when nothing else runs (an estimate, for the progress bar and ``--list``).

``kind`` says what a job's figures depend on: ``timing`` (the machine and its load: measure on a
quiet machine), ``games`` (games at a fixed depth from fixed seeds: the same everywhere),
``exact`` (counts and exact scores). ``quick`` jobs are the minutes-long subset ``--quick``
runs; they run from a clean clone (no file outside the repository).

In a command ``{results}`` is the results folder (``--results``, default
``experiments/results``). A job with ``capture`` gets its standard output (Markdown) written to
that file under the title ``capture`` and the stamp (for commands that only print).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

PY = "python"


@dataclass(frozen=True)
class Job:
    name: str
    command: tuple[str, ...]
    outputs: tuple[str, ...]   # relative to the results folder
    seconds: float             # estimate on the idle 2-core machine
    kind: str                  # timing | games | exact
    what: str
    quick: bool = False
    capture: str | None = None  # title of the captured stdout's Markdown file


def job(name, command, outputs, seconds, kind, what, quick=False, capture=None) -> Job:
    return Job(name, tuple(shlex.split(command)), tuple(outputs.split()), seconds, kind, what,
               quick, capture)


RR_1PLY_PLAYERS = [  # tuning_quality_reversed_reversi_1ply: name=champion file, in table order
    "rr_issue=experiments/runs/reversed_reversi_1ply_rr_issue/champion.json",
    "rr60=experiments/runs/reversed_reversi_1ply_rr60/champion.json",
    "mix=experiments/runs/reversed_reversi_1ply_mix/champion.json",
    "refs_hof=experiments/runs/reversed_reversi_1ply_refs_hof/champion.json",
    "refs_hof_150=experiments/runs/reversed_reversi_1ply/champion.json",
    "refs_hof_300=experiments/runs/reversed_reversi_1ply_refs_hof_300/champion.json",
    "refs_hof_150_o12=experiments/runs/reversed_reversi_1ply_refs_hof_150_o12/champion.json",
    "cmaes=experiments/runs/reversed_reversi_1ply_cmaes/champion.json",
    "seed1=experiments/runs/reversed_reversi_1ply_seed1/champion.json",
    "league=experiments/runs/reversed_reversi_1ply_league/champion.json",
    "margin=experiments/runs/reversed_reversi_1ply_margin/champion.json",
    "margin_seed1=experiments/runs/reversed_reversi_1ply_margin_seed1/champion.json",
    "phases1=experiments/runs/reversed_reversi_1ply_phases1/champion.json",
    "phases5=experiments/runs/reversed_reversi_1ply_phases5/champion.json",
    "features=experiments/runs/reversed_reversi_1ply_features/champion.json",
    "features_seed1=experiments/runs/reversed_reversi_1ply_features_seed1/champion.json",
    "corners=experiments/runs/reversed_reversi_1ply_corners/champion.json",
    "parity=experiments/runs/reversed_reversi_1ply_parity/champion.json",
    "mutation=experiments/runs/reversed_reversi_1ply_mutation/champion.json",
    "mutation_seed1=experiments/runs/reversed_reversi_1ply_mutation_seed1/champion.json",
    "budget=experiments/runs/reversed_reversi_1ply_budget/champion.json",
    "default_d4=experiments/runs/legacy/reversed_reversi/champion.json",
]
RR_D4_PLAYERS = [
    "d4_rr=experiments/runs/reversed_reversi_d4_rr/champion.json",
    "d4_refs_hof=experiments/runs/reversed_reversi_d4_refs_hof/champion.json",
    "d4_committed=experiments/runs/legacy/reversed_reversi/champion.json",
    "1ply_150=experiments/runs/reversed_reversi_1ply/champion.json",
    "1ply_budget=experiments/runs/reversed_reversi_1ply_budget/champion.json",
]
OTHELLO_1PLY_PLAYERS = [
    "o_rr=experiments/runs/othello_1ply_rr/champion.json",
    "o_refs_hof=experiments/runs/othello_1ply_refs_hof/champion.json",
    "o_cmaes=experiments/runs/othello_1ply_cmaes/champion.json",
    "league_committed=experiments/runs/legacy/othello_league/champion.json",
    "default_d4=experiments/runs/legacy/othello/champion.json",
]
ELO_ANCHOR_RUNS = ("experiments/runs/reversed_reversi_progress "
                   "experiments/runs/reversed_reversi_long "
                   + " ".join(f"experiments/runs/diversity/{s}_seed{k}"
                              for s in ("old", "keepers", "immigrants") for k in range(3))
                   + " experiments/runs/hexifence")


def players(entries: list[str]) -> str:
    return " ".join(f"--player {e}" for e in entries)


JOBS = [
    # --- exact figures: counts and exact scores (their timings are machine figures) ----------
    job("bench_perft", f"{PY} experiments/bench_perft.py --max-depth 11 --repeats 3 "
        "--out {results}/bench_perft.md", "bench_perft.md bench_perft.json", 20, "exact",
        "Reversi perft 1-11 against the published counts, leaves/s", quick=True),
    job("bench_search", f"{PY} experiments/bench_search.py --positions 50 --seed 7 "
        "--out {results}/bench_search.md", "bench_search.md bench_search.json", 60, "exact",
        "alpha-beta ms/move and nodes/s; FFO #1-#19 exact scores", quick=True),
    job("bench_solve", f"{PY} experiments/bench_solve.py --out {{results}}/bench_solve.md",
        "bench_solve.md bench_solve.json", 100, "exact",
        "exact solver on FFO #20-#39 (scores checked), nodes, CPU and wall time", quick=True),
    job("bench_hexifence", f"{PY} experiments/bench_hexifence.py "
        "--out {results}/bench_hexifence.md", "bench_hexifence.md bench_hexifence.json", 50,
        "exact", "Hexifence play-outs, ms/move per agent, exact solves (empty N=2 board)",
        quick=True),
    job("hexifence_parity", f"{PY} experiments/hexifence_parity.py "
        "--out {results}/hexifence_parity.md", "hexifence_parity.md hexifence_parity.json", 30,
        "exact", "how often Hexifence's parity features agree with the exact solver",
        quick=True),
    job("elo_anchors", f"{PY} experiments/elo_anchors.py {ELO_ANCHOR_RUNS} "
        "--out {results}/elo_anchors.md", "elo_anchors.md elo_anchors.json", 5, "exact",
        "champion Elo with and without hall-of-fame anchors, from committed runs' games",
        quick=True),
    # --- speed (the machine's figures: run on a quiet machine) --------------------------------
    job("bench_pentago", f"{PY} experiments/bench_pentago.py --out {{results}}/bench_pentago.md",
        "bench_pentago.md bench_pentago.json", 40, "timing",
        "Pentago Twist random games/s, alpha-beta nodes/s, MCTS play-outs/s"),
    job("bench_features", f"{PY} experiments/bench_features.py "
        "--out {results}/bench_features.md", "bench_features.md bench_features.json", 60,
        "timing", "cost of Reversi's optional feature groups"),
    job("bench_agents", f"{PY} experiments/bench_agents.py --out {{results}}/bench_agents.md",
        "bench_agents.md bench_agents.json", 40, "timing",
        "Reversi agents' time per move (random, greedy, wpc1, bfs, mcts)"),
    job("bench_cs303", f"{PY} experiments/bench_cs303.py --out {{results}}/bench_cs303.md",
        "bench_cs303.md bench_cs303.json", 120, "timing",
        "the exported CS303 agent (pure Python): nodes/s, depth reached in the time limit"),
    job("bench_ga", f"{PY} experiments/bench_ga.py --generations 5 --studies depth5 defaults "
        "--out {results}/bench_ga.md", "bench_ga.md bench_ga.json", 2100, "timing",
        "one generation serial vs Ray 1/2 workers; whole studies end to end"),
    job("bench_scale", f"{PY} experiments/bench_scale.py --depths 2 3 "
        "--out {results}/bench_scale.md", "bench_scale.md bench_scale.json", 900, "timing",
        "one generation's cost vs population size, Ray overheads, cluster projection"),
    job("bench_cluster_loss", f"{PY} experiments/bench_cluster_loss.py --timeout 3 --repeats 3 "
        "--out {results}/bench_cluster_loss.md",
        "bench_cluster_loss.md bench_cluster_loss.json", 120, "timing",
        "time from losing every Ray node to the one-line stop"),
    job("web_latency_health", f"{PY} -m tests.engine.web.latency health",
        "web_latency_health.md", 90, "timing",
        "browser board: GET /api/health while agents think",
        capture="Browser board latency: /api/health while an agent searches"),
    job("web_latency_sessions", f"{PY} -m tests.engine.web.latency sessions",
        "web_latency_sessions.md", 180, "timing",
        "browser board: agent-move latency with 20 sessions at once",
        capture="Browser board latency: 20 sessions at once"),
    job("strength_ntuple", f"{PY} experiments/strength_ntuple.py --games 400 "
        "--out {results}/strength_ntuple.md", "strength_ntuple.md strength_ntuple.json "
        "champions/pentago_twist_seed.json champions/hexifence_seed.json", 600,
        "games", "the committed n-tuple champions against issue 21's goals"),
    job("learning_efficiency", f"{PY} -m experiments.learning_efficiency --seeds 0 1 "
        "--results {results}", "learning_efficiency.md learning_efficiency.json "
        "learning_efficiency.png", 3 * 3600, "timing",
        "Elo against fixed anchors per CPU-second, per genome kind x optimizer (CPU budgets: "
        "a slower machine learns less in them)"),
    job("test_suite", f"{PY} -m pytest -q -p no:cacheprovider", "test_suite.md", 450, "timing",
        "the README's test command: the default suite's result and wall time",
        capture="The default test suite (python -m pytest)"),
    # --- strength: games at fixed depth from fixed seeds --------------------------------------
    job("strength_reversed_reversi", f"{PY} experiments/strength.py --game reversed_reversi "
        "--results {results}", "strength_reversed_reversi.md strength_reversed_reversi.json "
        "champions/reversed_reversi.json champions/reversed_reversi_cs303.py", 300, "games",
        "default Reversed Reversi champion vs the reference agents"),
    job("strength_othello", f"{PY} experiments/strength.py --game othello --results {{results}}",
        "strength_othello.md strength_othello.json strength_othello_1ply.json "
        "strength_othello_league.json champions/othello.json champions/othello_league.json",
        420, "games", "default Othello champion vs the reference agents; the League protocol"),
    job("strength_hexifence", f"{PY} experiments/strength_hexifence.py --games 200 --also "
        "experiments/results/champions/hexifence_depth3_study.json "
        "experiments/results/champions/hexifence_depth2_study.json --results {results}",
        "strength_hexifence.md strength_hexifence.json champions/hexifence.json", 600, "games",
        "Hexifence champion vs the chain-aware agent (N=3) and the exact solver (N=2)"),
    job("strength_pentago_twist", f"{PY} experiments/strength_pentago.py --games 200 --time 0.5 "
        "--results {results}", "strength_pentago_twist.md strength_pentago_twist.json "
        "champions/pentago_twist.json", 4000, "timing",
        "Pentago Twist champion vs MCTS at 0.5 s per move (time-limited: a machine figure)"),
    job("strength_pentago_twist_es", f"{PY} experiments/strength_pentago.py --champion "
        "{results}/champions/pentago_twist_es.json --name pentago_twist_es --vs mcts "
        "--games 400 --time 0.5 --goal 0.85 --results {results}",
        "strength_pentago_twist_es.md strength_pentago_twist_es.json", 2400, "timing",
        "the ES feature-genome champion vs MCTS at 0.5 s per move (issue 21: >= 85%)"),
    job("progress_reversed_reversi", f"{PY} experiments/progress_evidence.py "
        "experiments/runs/reversed_reversi --generations 0 10 20 29 --depth 4 "
        "--endgame-empties 10 --games 40 --out {results}/progress_reversed_reversi.md",
        "progress_reversed_reversi.md progress_reversed_reversi.json", 240, "games",
        "champions of generations 0/10/20/29 of the default study vs the anchors"),
    job("progress_othello", f"{PY} experiments/progress_evidence.py experiments/runs/othello "
        "--generations 0 10 20 29 --depth 4 --endgame-empties 10 --games 40 "
        "--out {results}/progress_othello.md", "progress_othello.md progress_othello.json", 240,
        "games", "the same for the default Othello study"),
    job("progress_reversed_reversi_long", f"{PY} experiments/progress_evidence.py "
        "experiments/runs/reversed_reversi_long --generations 25 50 75 99 --depth 2 "
        "--endgame-empties 6 --games 40 --out {results}/progress_reversed_reversi_long.md",
        "progress_reversed_reversi_long.md progress_reversed_reversi_long.json", 120, "games",
        "a 100-generation study's champions vs the anchors and each other"),
    job("yardstick_panels", f"{PY} experiments/yardstick_panels.py "
        "--out {results}/yardstick_panels.md", "yardstick_panels.md yardstick_panels.json", 180,
        "games", "generation-0 champions vs candidate yardstick opponents"),
    job("tuning_quality_reversed_reversi_1ply", f"{PY} experiments/tuning_quality.py "
        f"{players(RR_1PLY_PLAYERS)} --baseline rr_issue --target budget --games 200 --depth 1 "
        "--endgame-empties 3 --backend ray --seed 16 "
        "--out {results}/tuning_quality_reversed_reversi_1ply.md",
        "tuning_quality_reversed_reversi_1ply.md tuning_quality_reversed_reversi_1ply.json", 120,
        "games", "1-ply Reversed Reversi champions of 22 studies, round robin"),
    job("tuning_quality_reversed_reversi_d4", f"{PY} experiments/tuning_quality.py "
        f"{players(RR_D4_PLAYERS)} --baseline d4_rr --target d4_refs_hof --games 100 --depth 4 "
        "--endgame-empties 10 --backend ray --seed 16 "
        "--title \"Reversed Reversi at depth 4 (+ exact last 10 empties: the default study's "
        "search)\" "
        "--out {results}/tuning_quality_reversed_reversi_d4.md",
        "tuning_quality_reversed_reversi_d4.md tuning_quality_reversed_reversi_d4.json", 60,
        "games", "depth-4 Reversed Reversi champions, round robin"),
    job("tuning_quality_othello_1ply", f"{PY} experiments/tuning_quality.py "
        f"{players(OTHELLO_1PLY_PLAYERS)} --references wpc course --baseline o_rr "
        "--target o_refs_hof --games 200 --depth 1 --endgame-empties 0 --backend serial "
        "--seed 16 --game othello --title \"Othello at 1 ply (no endgame search: the Othello "
        "League protocol's search)\" "
        "--out {results}/tuning_quality_othello_1ply.md",
        "tuning_quality_othello_1ply.md tuning_quality_othello_1ply.json", 40, "games",
        "1-ply Othello champions, round robin"),
    job("diversity", f"{PY} experiments/diversity.py --seeds 0 1 2 3 4 5 6 7 --more-seeds 8 9 "
        "10 11 12 13 14 15 --more-settings old keepers sharing mutation --games 100 "
        "--out {results}/diversity.md", "diversity.md diversity.json", 60, "games",
        "diversity settings over 8-16 seeds (from the committed runs; hours without them)"),
    job("diversity_othello", f"{PY} experiments/diversity.py --game othello --seeds 0 1 2 3 4 "
        "5 6 7 8 9 10 11 12 13 14 15 --settings old mutation --games 100 "
        "--out {results}/diversity_othello.md", "diversity_othello.md diversity_othello.json", 30,
        "games", "the same for Othello"),
    *(job(f"champion_{game}_ntuple", f"{PY} -m evolve.td --game {game} --settings "
          "'{\"genome\": {\"kind\": \"ntuple\", \"layout\": \"square2\", \"symmetry\": "
          "\"d4\", \"phases\": 1, \"features\": [\"mobility\", \"stability\"]}}' "
          "--stage 1000000:0.07 --stage 1000000:0.02 --stage 1000000:0.01 --stage 1000000:0.005 "
          f"--seed 0 --out {{results}}/champions/{game}_ntuple.json --no-progress",
          f"champions/{game}_ntuple.json", 960, "exact",
          f"the {game} n-tuple champion: TD self-play alone (2x2 squares + mobility, "
          "stability), 4 million games")
      for game in ("othello", "reversed_reversi")),
    job("champion_pentago_twist_ntuple", f"{PY} -m evolve.td --game pentago_twist --settings "
        "'{\"genome\": {\"kind\": \"ntuple\", \"layout\": \"straight5\", \"symmetry\": "
        "\"rot180\", \"phases\": 1, \"features\": true}}' --start reference "
        "--stage 100000:0.1 --stage 50000:0.03 --seed 0 "
        "--out {results}/champions/pentago_twist_ntuple.json --no-progress",
        "champions/pentago_twist_ntuple.json", 150, "exact",
        "the Pentago Twist n-tuple champion: TD self-play from the seed weights"),
    job("champion_hexifence_ntuple", f"{PY} -m evolve.td --game hexifence --settings "
        "'{\"size\": 3, \"genome\": {\"kind\": \"ntuple\", \"layout\": \"cell+pair\", "
        "\"phases\": 1, \"features\": true}}' --start reference "
        "--stage 50000:0.1 --stage 25000:0.03 --seed 0 "
        "--out {results}/champions/hexifence_ntuple.json --no-progress",
        "champions/hexifence_ntuple.json", 100, "exact",
        "the Hexifence n-tuple champion (N=3): TD self-play from the seed weights"),
    job("champion_reversed_reversi_1ply", f"{PY} -m evolve.export "
        "experiments/runs/reversed_reversi_1ply_budget --format json "
        "--out {results}/champions/reversed_reversi_1ply.json",
        "champions/reversed_reversi_1ply.json", 5, "exact",
        "the 1-ply study's champion (`+experiment=reversed_reversi_1ply`), exported"),
]

# result files no job writes, and why
KEPT = {
    "champions/pentago_twist_es.json": "champion of an ES study against the seed (issue 21; "
    "about 50 CPU-minutes on the loaded machine): python -m evolve +experiment=pentago_twist "
    "ga.algorithm=es ga.population=15 ga.es_sigma=0.02 ga.es_learning_rate=0.01 "
    "fitness.population=0 fitness.references=1.0 fitness.openings=10 fitness.hall_of_fame=0.5 "
    "ga.generations=50 yardstick.openings=3 hydra.run.dir=outputs/pentago_twist_es (made as 25 "
    "generations resumed to 50: the same run), then python -m evolve.export "
    "outputs/pentago_twist_es --format json --out experiments/results/champions/"
    "pentago_twist_es.json",
    "champions/hexifence_es.json": "champion of an ES study against the seed (issue 21; about "
    "10 CPU-minutes): python -m evolve +experiment=hexifence ga.algorithm=es ga.population=11 "
    "ga.es_sigma=0.02 ga.es_learning_rate=0.01 fitness.population=0 fitness.references=1.0 "
    "fitness.openings=8 fitness.hall_of_fame=0.5 ga.generations=20 yardstick.openings=3 "
    "hydra.run.dir=outputs/hexifence_es, then python -m evolve.export outputs/hexifence_es "
    "--format json --out experiments/results/champions/hexifence_es.json",

    "tuning_quality.md": "the analysis of the tuning_quality_* tables, written by hand",
    "champions/hexifence_depth3_study.json": "champion of an earlier Hexifence study (its run "
    "is in git history at 1d84e0a, experiments/runs/hexifence): an input of strength_hexifence",
    "champions/hexifence_depth2_study.json": "champion of an earlier Hexifence study (depth 2, "
    "1 opening, population 12; not committed): an input of strength_hexifence",
}


def by_name() -> dict[str, Job]:
    return {j.name: j for j in JOBS}
