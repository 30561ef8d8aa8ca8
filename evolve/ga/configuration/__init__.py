"""A run's configuration: its shape (``schema``, mirrored by ``conf/config.yaml``), reading and
hashing it (``config``), every value checked (``validation``), the players it names
(``players``), the command line's overrides checked before Hydra composes them (``overrides``)
and what runs where, said before Hydra starts (``preflight``)."""
