"""Connect Four as a board-evolve plug-in: ``rules`` (bitboards), ``search`` (the shared
alpha-beta with this game's parts), ``game`` (the ``Game`` on ``GameBase``'s defaults)."""
