"""The search written once for every game: ``tt`` (the transposition table), ``alphabeta``
(negamax over an explicit stack; a game passes its parts as jitted functions), ``driver`` (the
Python side: the table, its generations, anytime deepening to a clock) and ``mcts`` (the UCT
loop over flat node arrays)."""
