"""The study: a GA, CMA-ES or ES over genomes scored by tournaments of games. On top the study
and its loop (``loop``, ``study``, ``state``, ``context``, ``console``) and the search
algorithms (``algorithms``, ``population``, ``operators``, ``cmaes``, ``es``, ``local_search``);
in rooms by role: ``configuration/`` (the config's shape, reading, checks, the command line's
overrides and preflight, the players it names), ``scoring/`` (the tournaments, the fitness mix,
the yardstick, progress and the playoff) and ``run_files/`` (what a run writes and reads back:
checkpoints and resume, the CSVs and champion files, the plot, the objective, MLflow tracking).

The modules used to sit side by side here (``evolve.ga.config``, ``evolve.ga.checkpoint``, ...);
those names still import, as the very same modules, with a ``DeprecationWarning`` naming the
new one, so scripts written against them keep working while their authors move to the new
names."""

from engine.core.moved import keep_old_names

# old name under this package -> new name under it
MOVED = {
    "config": "configuration.config",
    "schema": "configuration.schema",
    "validation": "configuration.validation",
    "overrides": "configuration.overrides",
    "preflight": "configuration.preflight",
    "players": "configuration.players",
    "tournament": "scoring.tournament",
    "sampled": "scoring.sampled",
    "fitness": "scoring.fitness",
    "yardstick": "scoring.yardstick",
    "progress": "scoring.progress",
    "playoff": "scoring.playoff",
    "checkpoint": "run_files.checkpoint",
    "resume": "run_files.resume",
    "hooks": "run_files.hooks",
    "figure": "run_files.figure",
    "tracking": "run_files.tracking",
    "objective": "run_files.objective",
}


keep_old_names(__name__, MOVED)
