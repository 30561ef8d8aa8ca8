"""What the command lines share: ``cli`` (``python -m engine.perft|solve|play --game NAME``
dispatch), ``play`` (the terminal play loop of every game's play command), ``play_any`` (the
play command of a game without one), ``helptext`` (help from docstrings) and ``version``."""
