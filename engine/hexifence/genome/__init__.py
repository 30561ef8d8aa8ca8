"""What the GA and TD tune, and how it scores a position: chains, loops and the evaluation
features (``evaluation``, numba), the feature-weights genome with its reference weights and
champion files (``weights``), the n-tuple network genome (``network``) and its kernel
(``network_eval``)."""
