"""Labels from the exact solver and depth-D search (to be built)."""


def label_positions(game, cells, ply, champion, depth, exact_empties):
    raise NotImplementedError("engine.reversi.labels.labelling: not built yet")
