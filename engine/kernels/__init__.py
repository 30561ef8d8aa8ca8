"""Numba pieces every game shares, in rooms: ``bits`` (bit intrinsics) and ``rng`` (the seeded
in-kernel RNG) on top; ``search/`` the transposition table (``tt``), the alpha-beta scaffolding
(``alphabeta``) and its Python driver (``driver``), the MCTS loop (``mcts``); ``ntuple/`` the
pattern (n-tuple) networks (``from engine.kernels import ntuple``; its modules are listed
there). A game supplies its move generation, make/undo and evaluation as jitted functions;
nothing here knows a board.

The modules used to sit side by side here (``engine.kernels.alphabeta``,
``engine.kernels.ntuple_eval``, ...); those names still import, as the very same modules, with
a ``DeprecationWarning`` naming the new one, so a plug-in game written against them keeps
working while its author moves to the new names."""

from engine.core.moved import keep_old_names

# old name under this package -> new name under it
MOVED = {
    "alphabeta": "search.alphabeta",
    "driver": "search.driver",
    "mcts": "search.mcts",
    "tt": "search.tt",
    "ntuple_builders": "ntuple.builders",
    "ntuple_eval": "ntuple.evaluation",
    "ntuple_figures": "ntuple.figures",
    "ntuple_files": "ntuple.files",
    "ntuple_fit": "ntuple.fit",
    "ntuple_game": "ntuple.game",
    "ntuple_genome": "ntuple.genome",
    "ntuple_json": "ntuple.layout_json",
    "ntuple_layout": "ntuple.layout",
    "ntuple_settings": "ntuple.settings",
    "ntuple_td": "ntuple.td",
}


keep_old_names(__name__, MOVED)
