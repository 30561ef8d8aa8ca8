"""One-off probes of learning from search: each answers one question about what limits the
fitted networks, on a run's datasets (``outputs/from_search/...``); their answers and commands
are in ``experiments/notes/tuning.md``."""
