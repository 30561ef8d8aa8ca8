"""Positions sampled from varied play, keyed under the board's symmetries (to be built)."""


def sample_positions(game, count, seed, champion, options):
    raise NotImplementedError("engine.reversi.labels.sampling: not built yet")
