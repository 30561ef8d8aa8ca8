"""The sweeper class Hydra instantiates: Hydra accepts plugins defined in ``hydra_plugins`` only;
everything it does is ``evolve.sweep.optuna_sweeper``'s."""

from evolve.sweep.optuna_sweeper import EvolveOptunaSweeper, register


class OptunaSweeper(EvolveOptunaSweeper):
    """Optuna's ask/tell over Hydra jobs (``evolve.sweep.optuna_sweeper``)."""


register()
