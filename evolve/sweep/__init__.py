"""Tuning the tuner: our Hydra sweeper over Optuna (``hydra/sweeper=optuna``, docs/configs.md).

Hydra takes plugins only from the ``hydra_plugins`` namespace package. The repository's top
level is fixed, so that namespace lives in ``evolve/plugins/`` (a shim naming the sweeper of
``evolve.sweep.optuna_sweeper``), and ``use_plugins`` puts it on the import path: ``python -m
evolve`` calls it before Hydra starts. Optuna and pandas are imported only when a sweep runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"


def use_plugins() -> None:
    """Let Hydra find our plugins (``hydra_plugins.board_evolve_optuna``) in this process, and
    register the sweeper's config now: Hydra scans for plugins once per process, so one that
    scanned before the path was added (tests, tools composing configs) would miss it."""
    if str(PLUGINS) not in sys.path:
        sys.path.append(str(PLUGINS))
    from evolve.sweep.optuna_sweeper import register

    register()
