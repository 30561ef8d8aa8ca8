"""Stand-in of the framework's ``template`` module: the base classes agents and games use."""

import random


class GameState:
    def __init__(self, num_of_agent, agent_id):
        pass


class GameRule:
    """Whose turn it is and the current state; games fill in the rules."""

    def __init__(self, num_of_agent=2):
        self.current_agent_index = 0
        self.num_of_agent = num_of_agent
        self.current_game_state = self.initialGameState()
        self.action_counter = 0

    def getNextAgentIndex(self):  # noqa: N802 - the framework's names
        return (self.current_agent_index + 1) % self.num_of_agent

    def update(self, action):
        self.current_game_state = self.generateSuccessor(self.current_game_state, action,
                                                         self.current_agent_index)
        self.current_agent_index = self.getNextAgentIndex()
        self.action_counter += 1

    def getCurrentAgentIndex(self):  # noqa: N802
        return self.current_agent_index


class Agent:
    """An agent is made with its id (0 or 1) and asked ``SelectAction(actions, game_state)``."""

    def __init__(self, _id):
        self.id = _id
        super().__init__()

    def SelectAction(self, actions, game_state):  # noqa: N802
        return random.choice(actions)
