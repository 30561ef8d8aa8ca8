"""A network fitted to labelled positions (to be built)."""


def fit_network(game, columns, options):
    raise NotImplementedError("engine.reversi.labels.fitting: not built yet")
