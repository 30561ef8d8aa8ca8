"""Learning from search: labelled-position datasets (``dataset``), built by ``evolve.label``
(``builder``: batches sampled, deduplicated, labelled and written in order; ``tasks``: the work
the execution layer runs) and fitted by ``evolve.fit``."""
