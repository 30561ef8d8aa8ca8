"""How a population is scored and its champions measured: the round robin (``tournament``) or
a sampled one (``sampled``), the fitness mix of opponents (``fitness``), the champion against
the fixed panel (``yardstick``) and what that says (``progress``), and the exported champion's
playoff (``playoff``)."""
