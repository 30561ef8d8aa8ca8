"""Champion files, game-neutrally: ``files`` (which game a file or run directory is for, the
header every champion file starts with, the one place a file is read) and ``search`` (the search
a champion plays at, and where that came from)."""
