"""The McGill COMP 424 drop-in: a ``student_player`` package (``comp424``) filled from the Java
sources in ``comp424_template/``."""
