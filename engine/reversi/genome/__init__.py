"""What the GA and TD tune, and how it scores a position: the genome settings (``settings``),
square-table weights (``weights``) and where each gene lives (``layout``), the static
evaluation kernel (``evaluation``), the n-tuple network genome (``network``) with its
evaluation kernel (``network_eval``), and other evaluations re-expressed as networks
(``projection``)."""
