"""Pentago Twist (McGill COMP 424) on bitboards, in rooms by role (the same room and file names
in every game package)::

    game.py           the game contract (PentagoTwistGame; GAME), with its
    game_states.py    states, moves and outcomes
    play.py           python -m engine.play's Pentago Twist board in the terminal
    perft.py          python -m engine.perft: move and position counts
    rules/            bitboard (numba kernels), state (positions, move text), reference (tests)
    genome/           evaluation (features and kernel), weights (the feature-weights genome),
                      network (the ntuple genome)
    search/           negamax (parts of engine.kernels.search.alphabeta), searcher
    agents/           simple (random, greedy), alphabeta, mcts, tactics, factory (agent specs)
    td/               selfplay
    export/           comp424 (+ comp424_template/: the Java sources)
    figures/          heatmaps, network
    files/            champion files: read_champion (the one reader), network (the ntuple
                      genome's, schema 2); the features genome's are GameBase's
"""

from engine.core.moved import keep_old_names

# old name under this package -> new name under it
MOVED = {"network_files": "files.network"}
keep_old_names(__name__, MOVED)
