"""Hexifence (Melbourne COMP30024, 2016): hexagonal dots-and-boxes, see docs/hexifence.md; in
rooms by role (the same room and file names in every game package)::

    game.py           the game contract (HexifenceGame; GAME), with its
    game_states.py    states, moves and outcomes
    play.py           python -m engine.play's Hexifence board in the terminal
    solve.py          python -m engine.solve: the exact cell margin of a position
    network_files.py  champion files of the ntuple genome
    rules/            board (geometry), bitboard (numba kernels over undrawn edges), state,
                      reference (tests)
    genome/           evaluation (chains, loops, features), weights (the feature-weights
                      genome), network (the ntuple genome), network_eval (its kernel)
    search/           negamax (numba), searcher
    agents/           simple (random, greedy, safe, perfect), alphabeta, chain, tactics
    td/               selfplay
    export/           comp30024 (+ comp30024_template.java)
    figures/          network
"""
