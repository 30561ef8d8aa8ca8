"""Tests that own a Ray or a cluster (start, join, stop, lose nodes) run only in a pytest process
of their own, which ``tests/test_own_ray.py`` starts with ``OWNS_RAY`` set: the main test
process keeps one Ray for its whole life (``tests/ray_once.py``)."""

import os

from tests.ray_once import OWNS_RAY

collect_ignore_glob = [] if os.environ.get(OWNS_RAY) else ["test_*.py"]
