"""Speed, measured by committed scripts (``python -m experiments.bench.<room>.<name>``), each a
job of the reproduce catalogue. On top what spans the whole project: ``clock`` (playing to the
clock: time used, depth, the anytime driver at equal time) and ``tiers`` (the test tiers' wall
time). In rooms by what they measure:

    engine/    perft, search, solve, features, ntuple, ntuple_search (Reversi's kernels),
               pentago, hexifence, hexifence_parity (the other games' own), contract (every
               game through the game contract), kernels, mcts (before/after an older checkout)
    exports/   cs303, comp424, comp30024, comp90054 (the exported course players)
    learners/  td, fit, labels (TD self-play, fitting a network, labelling positions)
    study/     ga, scale (its tables: scale_report), cluster_loss (a generation and a whole
               study, serial and on Ray)

The scripts used to sit side by side here; their old names (``experiments.bench.cs303``, ...)
still import and still run with ``python -m`` (the committed results record the commands they
were made with), as the very same modules, with a ``DeprecationWarning`` naming the new one.
"""

from engine.core.moved import keep_old_names

ROOMS = {
    "engine": ("perft", "search", "solve", "features", "ntuple", "ntuple_search", "kernels",
               "mcts", "contract", "pentago", "hexifence", "hexifence_parity"),
    "exports": ("cs303", "comp424", "comp30024", "comp90054"),
    "learners": ("td", "fit", "labels"),
    "study": ("ga", "scale", "cluster_loss"),
}
# old name under this package -> new name under it
MOVED = {name: f"{room}.{name}" for room, names in ROOMS.items() for name in names}
keep_old_names(__name__, MOVED)
