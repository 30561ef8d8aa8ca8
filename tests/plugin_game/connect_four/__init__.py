"""Connect Four as a board-evolve plug-in, with the file names of the games in ``engine/``:
``rules`` (bitboards), ``search`` (the shared alpha-beta with this game's parts), ``game_states``
(its states, moves and outcomes) and ``game`` (the ``Game`` on ``GameBase``'s defaults)."""
