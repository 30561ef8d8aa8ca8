"""Old module names that still import: when a package's modules move into rooms, the old name
of each is the very same module object as its new one, and the first import under the old name
warns once (``DeprecationWarning`` naming the new one, at the importer's line), so code written
against the old names keeps working while its author moves to the new ones."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Mapping


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module name as the module at its new name (one object under both names,
    so module state such as a shared transposition table is not duplicated)."""

    def __init__(self, package: str, moved: Mapping[str, str]):
        self.moved = {f"{package}.{old}": f"{package}.{new}" for old, new in moved.items()}
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


def keep_old_names(package: str, moved: Mapping[str, str]) -> None:
    """Let ``package.<old>`` import ``package.<new>`` for every ``old: new`` of ``moved`` (names
    relative to ``package``); once per package, however often its ``__init__`` runs."""
    finder = MovedModules(package, moved)
    if all(getattr(f, "moved", None) != finder.moved for f in sys.meta_path):
        sys.meta_path.append(finder)


def current_name(module: str) -> str:
    """``module``'s name now: the new name of a moved module, any other name as it is."""
    for finder in sys.meta_path:
        if isinstance(finder, MovedModules) and module in finder.moved:
            return finder.moved[module]
    return module
