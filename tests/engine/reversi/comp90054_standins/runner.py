"""A small game runner over the stand-ins: each agent gets a deep copy of the legal actions and
of the state, as in the framework; an action not among the legal ones is recorded (the
framework would give a warning and play a random action; here the game stops)."""

import copy
import time

from Reversi.reversi_model import ReversiGameRule


def play(agents, first_agent=0):
    """Play one game; returns {"scores": {id: discs}, "moves": [(id, action, seconds)],
    "illegal": [(id, action)], "colors": {id: Cell}}."""
    rule = ReversiGameRule(len(agents), first_agent)
    moves, illegal = [], []
    while not rule.gameEnds():
        i = rule.getCurrentAgentIndex()
        state = rule.current_game_state
        actions = rule.getLegalActions(state, i)
        start = time.perf_counter()
        selected = agents[i].SelectAction(copy.deepcopy(actions), copy.deepcopy(state))
        moves.append((i, selected, time.perf_counter() - start))
        if selected not in actions:
            illegal.append((i, selected))
            break
        rule.update(selected)
    state = rule.current_game_state
    return {"scores": {i: rule.calScore(state, i) for i in range(len(agents))},
            "moves": moves, "illegal": illegal, "colors": dict(rule.agent_colors)}
