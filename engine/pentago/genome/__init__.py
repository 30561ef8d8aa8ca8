"""What the GA and TD tune, and how it scores a position: the twist-proof features and the
evaluation kernel (``evaluation``), the feature-weights genome with its reference weights
(``weights``), and the n-tuple network genome (``network``)."""
