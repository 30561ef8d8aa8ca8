"""Numba pieces every game shares, in rooms: ``bits`` (bit intrinsics) and ``rng`` (the seeded
in-kernel RNG) on top; ``search/`` the transposition table (``tt``), the alpha-beta scaffolding
(``alphabeta``) and its Python driver (``driver``), the MCTS loop (``mcts``); ``ntuple/`` the
pattern (n-tuple) networks (``from engine.kernels import ntuple``; its modules are listed
there). A game supplies its move generation, make/undo and evaluation as jitted functions;
nothing here knows a board.

The modules used to sit side by side here (``engine.kernels.alphabeta``,
``engine.kernels.ntuple_eval``, ...); those names still import, as the very same modules, with
a ``DeprecationWarning`` naming the new one, so a plug-in game written against them keeps
working while its author moves to the new names."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings

# old name under this package -> new name under it
MOVED = {
    "alphabeta": "search.alphabeta",
    "driver": "search.driver",
    "mcts": "search.mcts",
    "tt": "search.tt",
    "ntuple_builders": "ntuple.builders",
    "ntuple_eval": "ntuple.evaluation",
    "ntuple_figures": "ntuple.figures",
    "ntuple_files": "ntuple.files",
    "ntuple_fit": "ntuple.fit",
    "ntuple_game": "ntuple.game",
    "ntuple_genome": "ntuple.genome",
    "ntuple_json": "ntuple.layout_json",
    "ntuple_layout": "ntuple.layout",
    "ntuple_settings": "ntuple.settings",
    "ntuple_td": "ntuple.td",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module name as the module at its new name (one object under both names,
    so state such as a shared transposition table is not duplicated)."""

    def __init__(self, package: str):
        self.moved = {f"{package}.{old}": f"{package}.{new}" for old, new in MOVED.items()}
        self.specs: dict[str, importlib.machinery.ModuleSpec] = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.moved:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = self.moved[spec.name]
        # stacklevel 2: the importer's line (warnings skips the import system's frames)
        warnings.warn(f"{spec.name} has moved to {new}; import {new} instead",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self.specs[new] = module.__spec__  # the import system sets the old spec on it next
        return module

    def exec_module(self, module):
        module.__spec__ = self.specs.pop(module.__name__)


_finder = _MovedModules(__name__)
if all(getattr(f, "moved", None) != _finder.moved for f in sys.meta_path):
    sys.meta_path.append(_finder)
