"""A study's speed: one generation serial and on Ray, how its cost grows with the population,
how fast it stops when its cluster is lost."""
