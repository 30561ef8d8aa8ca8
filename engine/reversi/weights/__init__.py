"""``engine.reversi.genome.weights`` under the name the file-format modules (``weights_io``,
``weights_json``, ``weights_npz``, ``network_files``, ``network_files_v1``) import it by: a
package, not a module, so that git follows ``weights.py`` to ``genome/weights.py``. It goes when
those modules import ``engine.reversi.genome.weights`` themselves."""

from engine.reversi.genome.weights import (  # noqa: F401
    DATA_DIR,
    GAME,
    REFERENCE_NAMES,
    SCHEMA_VERSION,
    Weights,
    WeightsFileError,
    group_feature_names,
    groups_of_features,
)
