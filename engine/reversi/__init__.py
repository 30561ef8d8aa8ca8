"""Reversi (Othello and Reversed Reversi) on uint64 bitboards, in rooms by role (the same
room and file names in every game package)::

    game.py          the game contract (ReversiGame; OTHELLO, REVERSED_REVERSI), with its
    game_states.py   states, moves and outcomes,
    game_files.py    champion files, exports and figures,
    game_labels.py   learning from search, and
    game_td.py       TD learning behind the contract
    play.py          python -m engine.play's Reversi board in the terminal
    solve.py         python -m engine.solve: the exact endgame value of a position
    perft.py         python -m engine.perft: move-generation counts
    rules/           bitboard (numba kernels), state (Position, squares, moves, variants)
    genome/          settings (game.genome), weights (square tables), layout, evaluation
                     (the static evaluation kernel), network (the ntuple genome),
                     network_eval (its kernel), projection (evaluations as networks)
    search/          negamax (parts of engine.kernels.search.alphabeta), searcher, settings
    endgame/         the exact solver: solver, small, shallow, order, table, flips, stability
    agents/          simple (random, greedy, ...), alphabeta (the tuned agent), mcts, bfs,
                     factory (agent specs)
    td/              selfplay, step (a position's value and TD step), opponents, rounds,
                     step_rules
    export/          course drop-ins: cs303, cs303_ntuple, comp90054 (+ their templates),
                     formats (what python -m evolve.export writes)
    figures/         heatmaps, network, report
    data/            the reference weights (JSON)

    files/           champion and weights files: read(path) (the one reader), squares_json,
                     squares_npz, network (schema 2), network_v1
"""
