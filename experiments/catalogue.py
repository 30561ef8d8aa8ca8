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

Every script of ``experiments/`` is a job here, but the modules in ``NOT_JOBS``; every
committed result file comes from a job, but those in ``KEPT`` (both in ``without_jobs``, with
why). The kinds of job and how each builds its command are in ``jobs``.
"""

from __future__ import annotations

from experiments.jobs import PY, Job, bench, export, goal, job, players, script
from experiments.learning.td_curves_plans import CURVES
from experiments.network_jobs import NETWORKS
from experiments.strength.goals import GOALS
from experiments.without_jobs import KEPT, NOT_JOBS

__all__ = ["ELO_ANCHOR_RUNS", "JOBS", "KEPT", "NOT_JOBS", "Job", "by_name"]

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


CONTRACT_GAMES = ("reversed_reversi", "pentago_twist", "hexifence")  # bench.engine.contract's PLANS


JOBS = [
    # --- exact figures: counts and exact scores (their timings are machine figures) ----------
    bench("engine.perft", "--max-depth 11 --repeats 3", 20,
          "Reversi perft 1-11 against the published counts, leaves/s", "exact", quick=True),
    bench("engine.search", "--positions 50 --seed 7", 60,
          "alpha-beta ms/move and nodes/s; FFO #1-#19 exact scores", "exact", quick=True),
    bench("engine.solve", "", 100, "exact solver on FFO #20-#39 (scores checked), nodes, CPU "
          "and wall time", "exact", quick=True),
    bench("engine.hexifence", "", 70, "Hexifence exact solves (empty N=2 board, N=3 endgames); "
          "the network's leaf and edge-gain rates", "exact", quick=True),
    script("hexifence_parity", "bench.engine.hexifence_parity", "", 30, "exact",
           "how often Hexifence's parity features agree with the exact solver", quick=True),
    script("elo_anchors", "learning.elo_anchors", ELO_ANCHOR_RUNS, 5, "exact",
           "champion Elo with and without hall-of-fame anchors, from committed runs' games",
           quick=True),
    # --- champions exported from the committed runs (inputs of the strength goals) -----------
    export("reversed_reversi", "reversed_reversi", "the default Reversed Reversi study's champion"),
    export("reversed_reversi_cs303", "reversed_reversi", "the same as a CS303 agent", "cs303"),
    export("othello", "othello", "the default Othello study's champion"),
    export("othello_league", "othello_league", "the 1-ply Othello study's champion"),
    export("pentago_twist", "pentago_twist", "the default Pentago Twist study's champion"),
    export("hexifence", "hexifence", "the default Hexifence study's champion, played at the "
           "search of its strength row (strength_hexifence: depth 3, exact endgame 24)",
           play='{"depth": 3, "endgame_empties": 24}'),
    export("reversed_reversi_1ply", "reversed_reversi_1ply_budget",
           "the 1-ply study's champion (`+experiment=reversed_reversi_1ply`)"),
    # --- speed (the machine's figures: run on a quiet machine) --------------------------------
    *(script(f"bench_contract_{game}", "bench.engine.contract", f"--game {game}", 120, "timing",
             f"{game} through the game contract: agents' ms/move, Game.play games/s, alpha-beta "
             "nodes/s and TD games/s by genome") for game in CONTRACT_GAMES),
    bench("engine.pentago", "", 60, "Pentago Twist's kernels: random games/s, MCTS play-outs/s, "
          "successor evaluations/s (features, networks)"),
    bench("exports.comp424", "", 240, "the exported COMP 424 Pentago Twist Java player: nodes/s "
          "against the numba search, share of the move budget"),
    bench("engine.features", "", 60, "cost of Reversi's optional feature groups"),
    bench("exports.cs303", "", 120, "the exported CS303 agent (pure Python and numba): nodes/s, "
          "depth reached in the time limit, compile time, memory"),
    script("strength_cs303_numba", "strength.cs303_match",
           "--time-out 0.5 --openings 40 --games outputs/cs303_match_0.5.jsonl", 2700, "timing",
           "the CS303 agent with its numba search against itself in pure Python, 0.5 s a move"),
    bench("exports.comp90054", "", 120, "the COMP90054 Othello exports (pure Python): nodes/s "
          "vs the engine, budget used"),
    bench("exports.comp30024", "", 120, "the exported COMP30024 Hexifence Java player: nodes/s "
          "against the numba search, share of the move budget"),
    bench("study.ga", "--generations 5 --studies depth5 defaults", 2100,
          "one generation serial vs Ray 1/2 workers; whole studies end to end"),
    bench("study.scale", "--depths 2 3", 900,
          "one generation's cost vs population size, Ray overheads, cluster projection"),
    bench("study.cluster_loss", "--timeout 3 --repeats 3", 120,
          "time from losing every Ray node to the one-line stop"),
    job("web_latency_health", f"{PY} -m tests.engine.web.latency health",
        "web_latency_health.md", 90, "timing",
        "browser board: GET /api/health while agents think",
        capture="Browser board latency: /api/health while an agent searches"),
    job("web_latency_sessions", f"{PY} -m tests.engine.web.latency sessions",
        "web_latency_sessions.md", 180, "timing",
        "browser board: agent-move latency with 20 sessions at once",
        capture="Browser board latency: 20 sessions at once"),
    bench("engine.ntuple", "--games 300", 90,
          "n-tuple networks on Reversi positions: full vs incremental evaluations per second"),
    bench("learners.fit", "--positions 100000 1000000 10000000 --phases 60 --iterations 20", 420,
          "fitting a 60-phase Edax-like network to labelled positions: memory and time against "
          "the number of positions (synthetic)"),
    bench("engine.ntuple_search", "--games 200 --positions 40 --depth 5", 240,
          "n-tuple networks in Reversi's search: child evaluations/s, depth-5 searches vs WPC"),
    bench("engine.kernels", "--baseline a214400a0c57 --repeats 7", 480,
          "the shared search kernels against the last commit before them, in one process (same "
          "moves, values, node counts)"),
    bench("learners.td", "--baseline fa485de --games 20000 --workers 0 1 2 --learners driver "
          "workers", 900, "TD self-play games per CPU-second of Reversi's networks against the "
          "checkout before (the same genomes); distributed TD serial, on 1 and 2 Ray workers, "
          "learnt by the driver or by the workers"),
    bench("learners.labels", "", 420, "labels per CPU-second (exact at E empties, depth-D "
          "search) in Othello and Reversed Reversi; the dataset builder serial and on 1 and 2 "
          "Ray workers (the same bits)"),
    bench("clock", "--time-games 2 --match-games 400 --match-limit 0.1", 9000,
          "timed alpha-beta in every game: time used per move as a share of the limit at 0.1 s "
          "and 0.5 s, depth reached, and the anytime driver against the deepening before it at "
          "0.1 s per move (400 games each; resumable)"),
    bench("engine.mcts", "--baseline 20e09c6c9294 --rounds 5 --playouts 20000", 600,
          "MCTS play-outs/s against the last commit before the shared UCT loop"),
    script("test_suite", "bench.tiers", "", 2400, "timing",
           "every test tier (default, slow, claims) on a clean clone: result and wall time"),
    script("test_suite_default", "bench.tiers", "--before e82696f --tiers default", 1500,
           "timing", "the default test set on a clean clone against the code before the "
           "faster test loop, in one sitting: result and wall time of each"),
    # --- strength: one job per goal of experiments/strength/goals.py ---------------------------
    *(goal(g) for g in GOALS),
    script("tuning_quality_reversed_reversi_1ply", "strength.tuning_quality",
           f"{players(RR_1PLY_PLAYERS)} --baseline rr_issue --target budget --games 200 --depth 1 "
           "--endgame-empties 3 --backend ray --seed 16", 120, "games", "1-ply Reversed Reversi "
           "champions of 22 studies, round robin"),
    script("tuning_quality_reversed_reversi_d4", "strength.tuning_quality",
           f"{players(RR_D4_PLAYERS)} --baseline d4_rr --target d4_refs_hof --games 100 --depth 4 "
           "--endgame-empties 10 --backend ray --seed 16 --title \"Reversed Reversi at depth 4 "
           "(+ exact last 10 empties: the default study's search)\"", 60, "games",
           "depth-4 Reversed Reversi champions, round robin"),
    script("tuning_quality_othello_1ply", "strength.tuning_quality",
           f"{players(OTHELLO_1PLY_PLAYERS)} --references wpc course --baseline o_rr --target "
           "o_refs_hof --games 200 --depth 1 --endgame-empties 0 --backend serial --seed 16 "
           "--game othello --title \"Othello at 1 ply (no endgame search: the Othello League "
           "protocol's search)\"", 40, "games", "1-ply Othello champions, round robin"),
    # --- learning: progress of studies, diversity, learning curves, efficiency ----------------
    script("progress_reversed_reversi", "learning.progress", "experiments/runs/reversed_reversi "
           "--generations 0 10 20 29 --depth 4 --endgame-empties 10 --games 40", 240, "games",
           "champions of generations 0/10/20/29 of the default study vs the anchors"),
    script("progress_othello", "learning.progress", "experiments/runs/othello --generations 0 10 "
           "20 29 --depth 4 --endgame-empties 10 --games 40", 240, "games",
           "the same for the default Othello study"),
    script("progress_reversed_reversi_long", "learning.progress", "experiments/runs/reversed_"
           "reversi_long --generations 25 50 75 99 --depth 2 --endgame-empties 6 --games 40",
           120, "games", "a 100-generation study's champions vs the anchors and each other"),
    script("diversity", "learning.diversity", "--seeds 0 1 2 3 4 5 6 7 --more-seeds 8 9 10 11 12 "
           "13 14 15 --more-settings old keepers sharing mutation --games 100", 60, "games",
           "diversity settings over 8-16 seeds (from the committed runs; hours without them)"),
    script("diversity_othello", "learning.diversity", "--game othello --seeds 0 1 2 3 4 5 6 7 8 9 "
           "10 11 12 13 14 15 --settings old mutation --games 100", 30, "games",
           "the same for Othello"),
    job("learning_efficiency", f"{PY} -m experiments.learning.efficiency --seeds 0 1 "
        "--results {results}", "learning_efficiency.md learning_efficiency.json "
        "learning_efficiency.png", 3 * 3600, "timing",
        "Elo against fixed anchors per CPU-second, per genome kind x optimizer (CPU budgets: "
        "a slower machine learns less in them)"),
    job("learning_efficiency_hour", f"{PY} -m experiments.learning.efficiency_hour --results "
        "{results}", "learning_efficiency_hour.md learning_efficiency_hour.json "
        "learning_efficiency_hour.png", 15.5 * 3600, "timing", "the hour-long rows: TD "
        "online, distributed TD on 2 Ray workers (learnt by the driver, or on the workers), "
        "Co-CMA-ES, Othello learning from search, 1 CPU-hour each; Reversed Reversi 1 seed, "
        "Othello 2; per CPU-hour and per wall-hour (resumable: rerun to continue)"),
    # label with the network's search, fit, measure, again: the small pipeline check (the
    # measurement of what it can reach is hours; docs/tuning.md, "Which learner", has it)
    script("learning_from_search_othello", "learning.from_search", "--game othello", 180,
           "timing", "learning from search, iterated: 2 rounds of 50,000 positions labelled by "
           "depth-2 search and exact solves, an Edax-like network fitted in 15 phases, vs the "
           "fixed anchors at 1 ply (a pipeline check)", also="learning_from_search_othello.png"),
    script("learning_from_search_othello_big", "learning.from_search", "--game othello "
           "--rounds 5 --positions 2000000 --batch-positions 20000 --depth 4 --exact-empties 14 "
           "--phases 15 --games 1000 --backend ray --workers 2 --time-games 200 --work "
           "outputs/from_search/othello_big", 3.5 * 3600, "games", "learning from search at "
           "scale: 5 rounds of 2 million positions labelled by depth-4 search and exact at 14 "
           "empties, the Edax-like network in 15 phases on every round so far, vs the fixed "
           "anchors at 1 ply (1,000 games each) and the last round vs the blend at 0.5 s a move",
           also="learning_from_search_othello_big.png"),
    script("learning_from_search_reversed_reversi_big", "learning.from_search", "--game "
           "reversed_reversi --rounds 7 --positions 2000000 --batch-positions 20000 --depth 4 "
           "--exact-empties 12 --phases 15 --games 1000 --backend ray --workers 2 --work "
           "outputs/from_search/reversed_reversi_big", 2.5 * 3600, "games", "learning from "
           "search at scale in Reversed Reversi: 7 rounds of 2 million positions labelled by "
           "depth-4 search and exact at 12 empties, vs its champion and anchors at 1 ply + exact 3 "
           "(1,000 games each)", also="learning_from_search_reversed_reversi_big.png"),
    script("learning_from_search_reversed_reversi", "learning.from_search",
           "--game reversed_reversi", 240, "timing", "the same for Reversed Reversi (1 ply + "
           "exact last 3, its champion and anchors; a pipeline check)",
           also="learning_from_search_reversed_reversi.png"),
    script("tuned_defaults_reversed_reversi", "learning.tuned_defaults", "--seeds 1000 1001 1002 "
           "--games 100", 100 * 60, "games", "an Optuna sweep over the default Reversed "
           "Reversi study's GA settings, then its best settings vs the defaults on fresh seeds "
           "(champion vs champion and vs the panel)",
           also="tuned_defaults_reversed_reversi_importance.png"),
    *NETWORKS,
    # --- the CS303 drop-ins against the TD network (made by NETWORKS above) ---------------------
    script("strength_cs303_vs_ntuple", "strength.cs303_match",
           "--b engine:experiments/results/champions/reversed_reversi_ntuple.json --time-out 0.5 "
           "--openings 40 --games outputs/cs303_match_ntuple_0.5.jsonl", 2700, "timing",
           "the CS303 agent against the engine's search with the TD n-tuple network, 0.5 s a move"),
    job("champion_reversed_reversi_ntuple_cs303", f"{PY} -m evolve.export "
        "experiments/results/champions/reversed_reversi_ntuple.json --format cs303 --out "
        "{results}/champions/reversed_reversi_ntuple_cs303.py",
        "champions/reversed_reversi_ntuple_cs303.py", 5, "exact",
        "the TD n-tuple network as a CS303 agent"),
    script("strength_cs303_ntuple", "strength.cs303_match",
           "--a experiments/results/champions/reversed_reversi_ntuple_cs303.py "
           "--b experiments/results/champions/reversed_reversi_cs303.py --time-out 0.5 "
           "--openings 40 --games outputs/cs303_match_ntuple_file_0.5.jsonl", 2700, "timing",
           "the TD network's CS303 agent against the GA champion's, both with numba, 0.5 s a "
           "move"),
    script("strength_cs303_ntuple_vs_engine", "strength.cs303_match",
           "--a experiments/results/champions/reversed_reversi_ntuple_cs303.py "
           "--b engine:experiments/results/champions/reversed_reversi_ntuple.json --time-out 0.5 "
           "--openings 40 --games outputs/cs303_match_ntuple_engine_0.5.jsonl", 2700, "timing",
           "the TD network's CS303 agent against the engine's search with the same network, "
           "0.5 s a move: what the drop-in's search gives away"),
    script("strength_cs303_ntuple_vs_before", "strength.cs303_match",
           "--a experiments/results/champions/reversed_reversi_ntuple_cs303.py --b git:9735aff "
           "--time-out 0.5 --openings 40 --games outputs/cs303_match_ntuple_before_0.5.jsonl",
           2700, "timing", "the TD network's CS303 agent against its file before the exact "
           "endgame and the faster numba search (9735aff), 0.5 s a move"),
    *[job(c.name, f"{PY} -m experiments.learning.td_curves --curve {c.name} --results "
          "{results}", f"{c.name}.md {c.name}.json {c.name}.png", c.seconds, c.kind, c.what)
      for c in CURVES],
]


def by_name() -> dict[str, Job]:
    return {j.name: j for j in JOBS}
