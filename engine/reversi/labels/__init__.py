"""Learning from search in Reversi: sampling positions, labelling them, fitting a network."""
