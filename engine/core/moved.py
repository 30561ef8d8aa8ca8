"""Old module names that still import: when a package's modules move into rooms, the old name
of each is the very same module object as its new one, and the first import under the old name
warns once (``DeprecationWarning`` naming the new one, at the importer's line), so code written
against the old names keeps working while its author moves to the new ones. ``python -m`` with
an old name runs the new module as ``__main__`` (a command recorded with the old name still
runs), warning on stderr."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Mapping


class MovedSpec(importlib.machinery.ModuleSpec):
    """An old name's spec, located at the new module's file and parented by its package: run by
    ``python -m``, the module gets the new file as ``sys.argv[0]`` and ``__file__`` (what a
    stamp records as the command), and its relative imports resolve in its new package."""

    def __init__(self, name: str, loader, new: importlib.machinery.ModuleSpec):
        super().__init__(name, loader, origin=new.origin)
        self.has_location = new.has_location
        self.new = new

    @property
    def parent(self) -> str:
        return self.new.parent


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Imports an old module name as the module at its new name (one object under both names,
    so module state such as a shared transposition table is not duplicated). As a loader it
    also gives the new module's code and source under the old name, which is what ``python -m``
    (``runpy``) runs."""

    def __init__(self, package: str, moved: Mapping[str, str]):
        self.moved = {f"{package}.{old}": f"{package}.{new}" for old, new in moved.items()}
        self.specs: dict[str, importlib.machinery.ModuleSpec] = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.moved:
            return None
        new = importlib.util.find_spec(self.moved[fullname])
        return None if new is None else MovedSpec(fullname, self, new)

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

    def _new(self, fullname: str) -> tuple[str, importlib.abc.InspectLoader]:
        new = self.moved[fullname]
        return new, importlib.util.find_spec(new).loader

    def get_code(self, fullname):
        """The new module's code, for ``python -m <old name>``: the warning is shown as one
        in ``__main__`` (so by default), naming the command to use."""
        new, loader = self._new(fullname)
        warnings.warn_explicit(f"{fullname} has moved to {new}; run python -m {new} instead",
                               DeprecationWarning, f"python -m {fullname}", 0,
                               module="__main__")
        return loader.get_code(new)

    def get_source(self, fullname):
        new, loader = self._new(fullname)
        return loader.get_source(new)

    def is_package(self, fullname):
        new, loader = self._new(fullname)
        return loader.is_package(new)


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
