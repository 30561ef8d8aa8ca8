"""Learning from search: labelled-position datasets (``dataset``), built by ``evolve.label``
and fitted by ``evolve.fit``."""
