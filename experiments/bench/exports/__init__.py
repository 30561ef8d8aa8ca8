"""The exported players' speed (CS303, COMP 424, COMP30024, COMP90054 files) against the engine's
numba search, and the share of the course's time budget they use."""
