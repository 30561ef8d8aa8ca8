"""``hydra/sweeper=optuna`` for Hydra's plugin scanner (``evolve.sweep``)."""
