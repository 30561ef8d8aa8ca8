"""``engine.reversi.genome.network`` under the name the file-format modules (``weights_io``,
``weights_json``, ``weights_npz``, ``network_files``, ``network_files_v1``) import it by: a
package, not a module, so that git follows ``network.py`` to ``genome/network.py``. It goes when
those modules import ``engine.reversi.genome.network`` themselves."""

from engine.reversi.genome.network import NtupleWeights, family_layout  # noqa: F401
