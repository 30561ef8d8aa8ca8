"""What has no job in the reproduce catalogue (``experiments/catalogue.py``), and why: the
modules of ``experiments/`` that measure nothing themselves (``NOT_JOBS``: libraries of the
scripts, and the tools: ``reproduce`` runs the jobs, ``provenance`` writes and checks the runs'
``PROVENANCE.md``) and the committed result files no job writes (``KEPT``)."""

NOT_JOBS = {  # modules of experiments/ that measure nothing themselves, and what they are
    **{f"{package}__init__": "the package" for package in (
        "", "bench.", "bench.engine.", "bench.exports.", "bench.learners.", "bench.study.",
        "strength.", "learning.", "learning.probes.")},
    "common": "what the scripts share (running commands, evolve.evaluate, timers, sampling)",
    "stamp": "the stamp every result file is written with",
    "catalogue": "the jobs",
    "jobs": "what a job of the catalogue is, and its kinds",
    "network_jobs": "the catalogue's jobs that learn the n-tuple champions by TD",
    "without_jobs": "this file",
    "reproduce": "the tool that runs the jobs",
    "readme_table": "the rows of the results tables, each figure read from a result file",
    "readme_figures": "how each row of readme_table reads its figure from its result file",
    "results_page": "writes experiments/RESULTS.md and the README's headline table",
    "provenance": "the tool that writes and checks the committed runs' PROVENANCE.md",
    "strength.goals": "the strength goals: each row a job of strength.run",
    "bench.study.scale_report": "bench.study.scale's tables and its measurements' .json",
    "bench.exports.cs303_endgame": "bench.exports.cs303's timing of the exact endgame",
    "learning.efficiency_plans": "learning.efficiency's methods and anchors per game",
    "learning.efficiency_inprocess": "learning.efficiency's in-process methods (TD, Texel)",
    "learning.efficiency_report": "learning.efficiency's table and figure",
    "learning.texel": "learning.efficiency's Texel-style method",
    "learning.from_search_steps": "learning.from_search's label, fit and measure steps",
    "learning.from_search_report": "learning.from_search's table and curve",
    "learning.td_curves_plans": "the curves of learning.td_curves: each row a job of it",
    **{f"learning.probes.{name}": "a probe of what limits learning from search, on the data of "
       "the job learning_from_search_othello_big (experiments/notes/tuning.md)"
       for name in ("label_error", "feature_fit", "blend_residual", "squashed_fit")},
}

# result files no job writes, and why
KEPT = {
    "td_scout_pentago_hexifence.md": "a scouting measurement (about 50 CPU-minutes): the "
    "commands are in the file; no catalogue job, since its answer (no) made no champion",
    "learning_from_search_probes.json": "fit variants, layouts and protocols on the data of the "
    "jobs learning_from_search_othello_big and learning_from_search_reversed_reversi_big, each "
    "scored against the champion: each row holds its commands (experiments/notes/tuning.md, "
    "Learning from search at scale)",
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
