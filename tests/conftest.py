"""Loaded by pytest before any test module: numba's cache is keyed by the sources it compiles
(``tests/numba_cache.py``), so a local run never tests stale kernels."""

from tests.numba_cache import use_keyed_cache

KEYED_CACHE = use_keyed_cache()
