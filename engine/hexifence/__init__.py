"""Hexifence (Melbourne COMP30024, 2016): hexagonal dots-and-boxes, see docs/hexifence.md; in
rooms by role (the same room and file names in every game package)::

    game.py           the game contract (HexifenceGame; GAME), with its
    game_states.py    states, moves and outcomes
    play.py           python -m engine.play's Hexifence board in the terminal
    solve.py          python -m engine.solve: the exact cell margin of a position
    rules/            board (geometry), bitboard (numba kernels over undrawn edges), state,
                      reference (tests)
    genome/           evaluation (chains, loops, features), weights (the feature-weights
                      genome), network (the ntuple genome), network_eval (its kernel)
    search/           negamax (numba), searcher
    agents/           simple (random, greedy, safe, perfect), alphabeta, chain, tactics
    td/               selfplay
    export/           comp30024 (+ comp30024_template.java)
    figures/          network
    files/            champion files: read_champion (the one reader), features (the features
                      genome's, schema 1), network (the ntuple genome's, schema 2)
"""

from engine.core.moved import keep_old_names

# old name under this package -> new name under it
MOVED = {"network_files": "files.network"}
keep_old_names(__name__, MOVED)
