"""Course drop-in agents with a champion embedded: the CS303 single file for square tables
(``cs303``) and networks (``cs303_ntuple``), the COMP90054 ``myTeam.py`` (``comp90054``), each
filled into its ``*_template.py``; ``formats`` says what ``python -m evolve.export`` writes."""
