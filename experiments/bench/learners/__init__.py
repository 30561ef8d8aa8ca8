"""The learners' speed: TD self-play (one core and on Ray), labelling positions, fitting a
network."""
