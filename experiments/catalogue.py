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

Every script of ``experiments/`` is a job here, but the modules in ``NOT_JOBS``: libraries of
the scripts and tools (``reproduce`` runs the jobs; ``provenance`` writes and checks the runs'
``PROVENANCE.md``).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from experiments.learning.td_curves import CURVES
from experiments.strength.goals import GOALS, Goal

PY = "python"
NOT_JOBS = {  # modules of experiments/ that measure nothing themselves, and what they are
    **{f"{package}__init__": "the package" for package in (
        "", "bench.", "bench.engine.", "bench.exports.", "bench.learners.", "bench.study.",
        "strength.", "learning.")},
    "common": "what the scripts share (running commands, evolve.evaluate, timers, sampling)",
    "stamp": "the stamp every result file is written with",
    "catalogue": "this file",
    "reproduce": "the tool that runs the jobs",
    "readme_table": "the rows of the results tables, each figure read from a result file",
    "results_page": "writes experiments/RESULTS.md and the README's headline table",
    "provenance": "the tool that writes and checks the committed runs' PROVENANCE.md",
    "strength.goals": "the strength goals: each row a job of strength.run",
    "learning.efficiency_plans": "learning.efficiency's methods and anchors per game",
    "learning.efficiency_inprocess": "learning.efficiency's in-process methods (TD, Texel)",
    "learning.efficiency_report": "learning.efficiency's table and figure",
    "learning.texel": "learning.efficiency's Texel-style method",
    "learning.from_search_steps": "learning.from_search's label, fit and measure steps",
    "learning.from_search_report": "learning.from_search's table and curve",
}


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
    needs: tuple[str, ...] = ()  # result files (relative) it reads that another job may write


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


CONTRACT_GAMES = ("reversed_reversi", "pentago_twist", "hexifence")  # bench.engine.contract's PLANS


def players(entries: list[str]) -> str:
    return " ".join(f"--player {e}" for e in entries)


def script(name: str, module: str, options: str, seconds: float, kind: str, what: str,
           quick: bool = False, also: str = "", json: bool = True) -> Job:
    """A job of ``python -m experiments.<module>`` that writes ``--out {results}/<name>.md``,
    the ``.json`` beside it (unless ``json`` is false) and ``also``."""
    outputs = " ".join([f"{name}.md", *([f"{name}.json"] if json else []), also])
    return job(name, f"{PY} -m experiments.{module} {options} --out {{results}}/{name}.md"
               .replace("  ", " "), outputs, seconds, kind, what, quick)


def goal(g: Goal) -> Job:
    """A row of the strength goals table, measured by ``experiments.strength.run``; it needs
    the committed champions it plays (a job that writes one runs first)."""
    players = (g.champion, *g.opponents)
    needs = tuple(p.removeprefix("experiments/results/") for p in players
                  if p.startswith("experiments/results/"))
    return replace(job(g.name, f"{PY} -m experiments.strength.run --goal {g.name} --results "
                       "{results}", f"{g.name}.md {g.name}.json", g.seconds, g.kind, g.what),
                   needs=needs)


def export(name: str, run: str, what: str, fmt: str = "json", play: str = "") -> Job:
    """A committed run's champion as a file under ``champions/`` (``python -m evolve.export``);
    ``play``: the search its README strength row is measured at, recorded in the file so that
    every front end plays it there (``metadata.play``)."""
    out = f"champions/{name}.{'py' if fmt == 'cs303' else 'json'}"
    options = f" --play '{play}'" if play else ""
    return job(f"champion_{name}", f"{PY} -m evolve.export experiments/runs/{run} --format {fmt} "
               f"--out {{results}}/{out}{options}", out, 5, "exact", what)


def td_network(game: str, settings: str, stages: str, seconds: float, what: str,
               name: str = "") -> Job:
    """``python -m evolve.td``: a game's n-tuple champion learnt by TD self-play (``name``: the
    file's stem when it is not the game's champion, ``<game>_ntuple``)."""
    name = name or f"{game}_ntuple"
    return job(f"champion_{name}", f"{PY} -m evolve.td --game {game} --settings "
               f"'{settings}' {stages} --seed 0 --out {{results}}/champions/{name}.json "
               "--no-progress", f"champions/{name}.json", seconds, "exact", what)


def distributed_td(name: str, game: str, phases: int, stages: str, stem: str, seconds: float,
                   what: str, rule: str = "", layout: str = "straight4+square2") -> Job:
    """``python -m evolve.td`` in rounds on 2 Ray workers: a network (4+2x2 unless ``layout``)
    + mobility, stability into ``champions/<stem>.json``, resumable from its checkpoint
    (CPU-hours)."""
    settings = NETWORK.format(layout=layout, rest='"symmetry": "d4", ',
                              features='["mobility", "stability"]'
                              ).replace('"phases": 1', f'"phases": {phases}')
    return job(name, f"{PY} -m evolve.td --game {game} --settings '{settings}' {stages} {rule}"
               "--round-games 2000 --chunk-games 250 --backend ray --workers 2 --seed 0 "
               f"--out {{results}}/champions/{stem}.json --checkpoint "
               f"{{results}}/checkpoints/{stem}.checkpoint.npz --checkpoint-seconds 300 "
               "--resume --no-progress", f"champions/{stem}.json", seconds, "exact", what)


OTHELLO_20M = ("--stage 8000000:0.07 --stage 4000000:0.02 --stage 4000000:0.01 --stage "
               "4000000:0.005")
RR_10M = "--stage 4000000:0.07 --stage 2000000:0.02 --stage 2000000:0.01 --stage 2000000:0.005"
NETWORK = ('{{"genome": {{"kind": "ntuple", "layout": "{layout}", {rest}"phases": 1, '
           '"features": {features}}}}}')
JOBS = [
    # --- exact figures: counts and exact scores (their timings are machine figures) ----------
    script("bench_perft", "bench.engine.perft", "--max-depth 11 --repeats 3", 20, "exact",
           "Reversi perft 1-11 against the published counts, leaves/s", quick=True),
    script("bench_search", "bench.engine.search", "--positions 50 --seed 7", 60, "exact",
           "alpha-beta ms/move and nodes/s; FFO #1-#19 exact scores", quick=True),
    script("bench_solve", "bench.engine.solve", "", 100, "exact",
           "exact solver on FFO #20-#39 (scores checked), nodes, CPU and wall time", quick=True),
    script("bench_hexifence", "bench.engine.hexifence", "", 70, "exact", "Hexifence exact solves "
           "(empty N=2 board, N=3 endgames); the network's leaf and edge-gain rates", quick=True),
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
    script("bench_pentago", "bench.engine.pentago", "", 60, "timing", "Pentago Twist's kernels: "
           "random games/s, MCTS play-outs/s, successor evaluations/s (features, networks)"),
    script("bench_comp424", "bench.exports.comp424", "", 240, "timing", "the exported COMP 424 "
           "Pentago Twist Java player: nodes/s against the numba search, share of the move budget"),
    script("bench_features", "bench.engine.features", "", 60, "timing",
           "cost of Reversi's optional feature groups"),
    script("bench_cs303", "bench.exports.cs303", "", 120, "timing",
           "the exported CS303 agent (pure Python): nodes/s, depth reached in the time limit"),
    script("bench_comp90054", "bench.exports.comp90054", "", 120, "timing",
           "the COMP90054 Othello exports (pure Python): nodes/s vs the engine, budget used"),
    script("bench_comp30024", "bench.exports.comp30024", "", 120, "timing", "the exported "
           "COMP30024 Hexifence Java player: nodes/s against the numba search, share of the move "
           "budget"),
    script("bench_ga", "bench.study.ga", "--generations 5 --studies depth5 defaults", 2100,
           "timing", "one generation serial vs Ray 1/2 workers; whole studies end to end"),
    script("bench_scale", "bench.study.scale", "--depths 2 3", 900, "timing",
           "one generation's cost vs population size, Ray overheads, cluster projection"),
    script("bench_cluster_loss", "bench.study.cluster_loss", "--timeout 3 --repeats 3", 120,
           "timing", "time from losing every Ray node to the one-line stop"),
    job("web_latency_health", f"{PY} -m tests.engine.web.latency health",
        "web_latency_health.md", 90, "timing",
        "browser board: GET /api/health while agents think",
        capture="Browser board latency: /api/health while an agent searches"),
    job("web_latency_sessions", f"{PY} -m tests.engine.web.latency sessions",
        "web_latency_sessions.md", 180, "timing",
        "browser board: agent-move latency with 20 sessions at once",
        capture="Browser board latency: 20 sessions at once"),
    script("bench_ntuple", "bench.engine.ntuple", "--games 300", 90, "timing",
           "n-tuple networks on Reversi positions: full vs incremental evaluations per second"),
    script("bench_fit", "bench.learners.fit", "--positions 100000 1000000 10000000 --phases 60 "
           "--iterations 20", 420, "timing", "fitting a 60-phase Edax-like network to "
           "labelled positions: memory and time against the number of positions (synthetic)"),
    script("bench_ntuple_search", "bench.engine.ntuple_search",
           "--games 200 --positions 40 --depth 5", 240, "timing", "n-tuple networks in "
           "Reversi's search: child evaluations/s, depth-5 searches vs WPC"),
    script("bench_kernels", "bench.engine.kernels", "--baseline a214400a0c57 --repeats 7", 480,
           "timing", "the shared search kernels against the last commit before them, in one "
           "process (same moves, values, node counts)"),
    script("bench_td", "bench.learners.td", "--baseline fa485de --games 20000 --workers 0 1 2 "
           "--learners driver workers", 900, "timing", "TD self-play games per CPU-second of "
           "Reversi's networks against the checkout before (the same genomes); distributed "
           "TD serial, on 1 and 2 Ray workers, learnt by the driver or by the workers"),
    script("bench_labels", "bench.learners.labels", "", 420, "timing", "labels per CPU-second "
           "(exact at E empties, depth-D search) in Othello and Reversed Reversi; the dataset "
           "builder serial and on 1 and 2 Ray workers (the same bits)"),
    script("bench_clock", "bench.clock", "--time-games 2 --match-games 400 --match-limit 0.1",
           9000, "timing", "timed alpha-beta in every game: time used per move as a share of "
           "the limit at 0.1 s and 0.5 s, depth reached, and the anytime driver against the "
           "deepening before it at 0.1 s per move (400 games each; resumable)"),
    script("bench_mcts", "bench.engine.mcts", "--baseline 20e09c6c9294 --rounds 5 --playouts 20000",
           600, "timing", "MCTS play-outs/s against the last commit before the shared UCT loop"),
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
    script("learning_from_search_reversed_reversi", "learning.from_search",
           "--game reversed_reversi", 240, "timing", "the same for Reversed Reversi (1 ply + "
           "exact last 3, its champion and anchors; a pipeline check)",
           also="learning_from_search_reversed_reversi.png"),
    script("tuned_defaults_reversed_reversi", "learning.tuned_defaults", "--seeds 1000 1001 1002 "
           "--games 100", 100 * 60, "games", "an Optuna sweep over the default Reversed "
           "Reversi study's GA settings, then its best settings vs the defaults on fresh seeds "
           "(champion vs champion and vs the panel)",
           also="tuned_defaults_reversed_reversi_importance.png"),
    # networks by TD self-play alone (their learning curves: experiments.learning.td_curves)
    *(td_network(game, NETWORK.format(layout="square2", rest='"symmetry": "d4", ',
                                      features='["mobility", "stability"]'),
                 "--stage 1000000:0.07 --stage 1000000:0.02 --stage 1000000:0.01 "
                 "--stage 1000000:0.005", 960, f"{what}: TD self-play alone (2x2 squares + "
                 "mobility, stability), 4 million games", name)
      for game, name, what in (
          ("othello", "othello_ntuple_square2", "the othello n-tuple champion until the blend "
           "(kept for the head-to-head goals)"),
          ("reversed_reversi", "reversed_reversi_ntuple_square2", "the reversed_reversi n-tuple "
           "champion before the current one (kept for the head-to-head goals)"))),
    td_network("pentago_twist", NETWORK.format(layout="straight5", rest='"symmetry": "rot180", ',
                                               features="true"),
               "--start reference --stage 100000:0.1 --stage 50000:0.03", 150,
               "the Pentago Twist n-tuple champion: TD self-play from the seed weights"),
    td_network("hexifence", '{"size": 3, ' + NETWORK.format(layout="cell+pair", rest="",
                                                            features="true")[1:],
               "--start reference --stage 50000:0.1 --stage 25000:0.03", 100,
               "the Hexifence n-tuple champion (N=3): TD self-play from the seed weights"),
    # a candidate for the Othello champion, the published 4+2x2 layout (21 straight
    # 4-tuples + 10 2x2 squares) by distributed TD; CPU-hours: resumable across sessions from
    # its checkpoint (the same command continues it)
    distributed_td("candidate_othello_ntuple_4x2x2", "othello", 1, OTHELLO_20M,
                   "othello_ntuple_4x2x2", 5 * 3600, "a candidate Othello network: 4+2x2 + "
                   "mobility, stability, 20 million games of TD in rounds on 2 Ray workers (the "
                   "same bits on any number)"),
    # the same in Reversed Reversi's recipe (4 phases whose neighbours share a quarter of each
    # step: what td_curve_othello_step_rules measured best at 1 million games)
    distributed_td("candidate_othello_ntuple_4x2x2_phases4", "othello", 4, OTHELLO_20M,
                   "othello_ntuple_4x2x2_phases4", 3 * 3600, "a second Othello candidate: "
                   "4+2x2 + mobility, stability in 4 phases (neighbours share a quarter of each "
                   "step), 20 million games of distributed TD (resumable)", "--phase-share 0.25 "),
    distributed_td("candidate_othello_ntuple_square2_phases4", "othello", 4, OTHELLO_20M,
                   "othello_ntuple_square2_phases4", 2 * 3600, "a third Othello candidate: "
                   "the champion's 2x2 squares + mobility, stability then, but in 4 phases "
                   "(neighbours share a quarter of each step) and 20 million games of distributed "
                   "TD (resumable)",
                   "--phase-share 0.25 ", layout="square2"),
    # the Othello champion: the mean of the two 4-phase candidates, one network; chosen over the
    # 2x2-square network for its strength against strong, varied players (docs/tuning.md)
    job("champion_othello_ntuple", f"{PY} -m evolve.blend "
        "{results}/champions/othello_ntuple_4x2x2_phases4.json "
        "{results}/champions/othello_ntuple_square2_phases4.json "
        "--out {results}/champions/othello_ntuple.json",
        "champions/othello_ntuple.json", 5, "exact", "the Othello n-tuple champion: the mean of "
        "the 4+2x2 and the 2x2-square networks in 4 phases (20 million games of distributed TD "
        "each), one network"),
    distributed_td("champion_reversed_reversi_ntuple", "reversed_reversi", 4,
                   RR_10M, "reversed_reversi_ntuple", 2 * 3600, "the Reversed Reversi "
                   "n-tuple champion: 4+2x2 + mobility, stability in 4 phases (neighbours share "
                   "a quarter of each step), 10 million games of distributed TD on 2 Ray workers "
                   "(resumable)", "--phase-share 0.25 "),
    distributed_td("candidate_reversed_reversi_ntuple_square2_phases4", "reversed_reversi", 4,
                   RR_10M, "reversed_reversi_ntuple_square2_phases4", 2 * 3600, "a second "
                   "Reversed Reversi network to blend with the champion: 2x2 squares + mobility, "
                   "stability in 4 phases (neighbours share a quarter of each step), 10 million "
                   "games of distributed TD (resumable)", "--phase-share 0.25 ", layout="square2"),
    *[job(c.name, f"{PY} -m experiments.learning.td_curves --curve {c.name} --results "
          "{results}", f"{c.name}.md {c.name}.json {c.name}.png", c.seconds, c.kind, c.what)
      for c in CURVES],
]

# result files no job writes, and why
KEPT = {
    "td_scout_pentago_hexifence.md": "a scouting measurement (about 50 CPU-minutes): the "
    "commands are in the file; no catalogue job, since its answer (no) made no champion",
    "td_workers_sync.md": "the first --learner workers (one round late) against the synchronous "
    "one: the first version's run needs a commit before d80abb2, so no job of this one can "
    "remake it; the file holds both commands and the head-to-head ones",
    "champions/pentago_twist_es.json": "champion of an ES study against the seed ("
    "about 50 CPU-minutes on the loaded machine): python -m evolve +experiment=pentago_twist "
    "ga.algorithm=es ga.population=15 ga.es_sigma=0.02 ga.es_learning_rate=0.01 "
    "fitness.population=0 fitness.references=1.0 fitness.openings=10 fitness.hall_of_fame=0.5 "
    "ga.generations=50 yardstick.openings=3 hydra.run.dir=outputs/pentago_twist_es (made as 25 "
    "generations resumed to 50: the same run), then python -m evolve.export "
    "outputs/pentago_twist_es --format json --out experiments/results/champions/"
    "pentago_twist_es.json",
    "champions/hexifence_es.json": "champion of an ES study against the seed (about "
    "10 CPU-minutes): python -m evolve +experiment=hexifence ga.algorithm=es ga.population=11 "
    "ga.es_sigma=0.02 ga.es_learning_rate=0.01 fitness.population=0 fitness.references=1.0 "
    "fitness.openings=8 fitness.hall_of_fame=0.5 ga.generations=20 yardstick.openings=3 "
    "hydra.run.dir=outputs/hexifence_es, then python -m evolve.export outputs/hexifence_es "
    "--format json --out experiments/results/champions/hexifence_es.json",

    "champions/pentago_twist_seed.json": "the seed weights as a champion file (written by the "
    "former strength_ntuple.py; the goals now name the agent `reference`)",
    "champions/hexifence_seed.json": "the same for Hexifence",
    "tuning_quality.md": "the analysis of the tuning_quality_* tables, written by hand",
    "champions/hexifence_depth3_study.json": "champion of an earlier Hexifence study (its run "
    "is in git history at 1d84e0a, experiments/runs/hexifence): a strength goal's champion",
    "champions/hexifence_depth2_study.json": "champion of an earlier Hexifence study (depth 2, "
    "1 opening, population 12; not committed): a strength goal's champion",
}


def by_name() -> dict[str, Job]:
    return {j.name: j for j in JOBS}
