"""``engine.reversi.genome.evaluation`` under the name the file-format modules (``weights_io``,
``weights_json``, ``weights_npz``, ``network_files``, ``network_files_v1``) import it by: a
package, not a module, so that git follows ``evaluation.py`` to ``genome/evaluation.py``. It
goes when those modules import ``engine.reversi.genome.evaluation`` themselves."""

from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES, WIN_SCORE  # noqa: F401
