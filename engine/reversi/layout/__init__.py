"""``engine.reversi.genome.layout`` under the name the file-format modules (``weights_io``,
``weights_json``, ``weights_npz``, ``network_files``, ``network_files_v1``) import it by: a
package, not a module, so that git follows ``layout.py`` to ``genome/layout.py``. It goes when
those modules import ``engine.reversi.genome.layout`` themselves."""

from engine.reversi.genome.layout import FEATURE_GROUPS, groups_of_features  # noqa: F401
