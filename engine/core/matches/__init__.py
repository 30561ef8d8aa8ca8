"""Games between agents, for every game: ``runner`` (one game through the ``Game`` state
interface, seeded openings, pairs of games), ``clock`` (whole-game time controls and how a player
spends them), ``specs`` (players: an agent spec or a loaded champion) and ``agents`` (agent
wrappers)."""
