"""TD step rules (``--step-rule tcl``, ``--phase-share``) against a plain-Python reference of
their arithmetic over recorded games: temporal coherence's per-weight rate ``|E| / A`` (1 before a
weight's first change), the neighbouring phases moved by the share; plain NLMS untouched."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from engine.core import StepRule, get_game
from engine.kernels import ntuple as nt
from engine.reversi.genome.layout import phase_of_discs_table
from tests.engine.reversi.helpers_ntuple import network_game, random_network


def reference(game, genome, record, alpha, rule: str, share: float):
    """TD(0) along each recorded game with the rule, entry by entry (no features)."""
    net, _ = game.network.split(genome)
    net = net.copy()
    E, A = np.zeros_like(net), np.zeros_like(net)
    t = game.network.tables
    phase_of = phase_of_discs_table(tuple(game.phase_bounds))
    indices = np.empty(len(t.offset), np.int64)

    def entries(P, O):
        nt.indices_bits(np.uint64(P), np.uint64(O), t, indices)
        return [int(t.offset[i] + indices[i]) for i in range(len(indices))], \
            int(phase_of[bin(int(P) | int(O)).count("1")])

    def value(P, O):
        keys, phase = entries(P, O)
        return math.tanh(sum(net[phase, k] for k in keys))

    at = 0
    for g, n in enumerate(record["lengths"]):
        P, O, mover = (record[k][at:at + n] for k in ("players", "opponents", "movers"))
        result = record["results"][g]
        for k in range(n):
            if k + 1 < n:
                after = value(P[k + 1], O[k + 1])
                target = after if mover[k + 1] == mover[k] else -after
            else:
                target = result if mover[k] == 0 else -result
            v = value(P[k], O[k])
            keys, phase = entries(P[k], O[k])
            asked = (target - v) * (1 - v * v) / sum(c * c for c in Counter(keys).values())
            for key in keys:
                rate = 1.0
                if rule == "tcl":
                    rate = abs(E[phase, key]) / A[phase, key] if A[phase, key] > 0 else 1.0
                    E[phase, key] += asked
                    A[phase, key] += abs(asked)
                net[phase, key] += alpha * rate * asked
                for near in (phase - 1, phase + 1):
                    if share and 0 <= near < net.shape[0]:
                        net[near, key] += share * alpha * rate * asked
        at += n
    return net


@pytest.mark.parametrize("rule, share", [("tcl", 0.0), ("nlms", 0.3), ("tcl", 0.5)])
def test_the_rules_are_their_arithmetic(rule, share):
    game = network_game("othello", layout="straight2", phases=3, features=[])
    start = random_network(game, 5, scale=0.1).to_genome()
    record = game.td_play(start, 6, 11, 0.3)
    learnt, _ = game.td_learn_games(start, [record], 0.2, rule=StepRule(rule, share))
    expected = reference(game, start, record, 0.2, rule, share)
    np.testing.assert_allclose(game.network.split(learnt)[0], expected, rtol=1e-12,
                               atol=1e-15)


def test_the_plain_rule_is_the_plain_step_and_tcl_state_carries_over():
    game = network_game("othello", layout="straight2", phases=2, features=["mobility"])
    start = random_network(game, 6, scale=0.1).to_genome()
    a, b = game.td_play(start, 20, 1, 0.1), game.td_play(start, 20, 2, 0.1)
    plain = game.td_learn_games(start, [a], 0.1)[0]
    np.testing.assert_array_equal(game.td_learn_games(start, [a], 0.1, rule=StepRule())[0],
                                  plain)
    rule = StepRule("tcl")
    both = game.td_learn_games(start, [a, b], 0.1, rule=StepRule("tcl"))[0]
    first = game.td_learn_games(start, [a], 0.1, rule=rule)[0]
    assert set(rule.state) == {"E", "A", "feature_E", "feature_A"}
    np.testing.assert_array_equal(game.td_learn_games(first, [b], 0.1, rule=rule)[0], both)
    # online TD takes the same rule: a learnt share of its weights slowed down
    online = StepRule("tcl")
    game.td_learn(start, 50, 3, 0.1, 0.1, rule=online)
    ratio = np.abs(online.state["E"]) / np.where(online.state["A"] > 0, online.state["A"], 1)
    assert (ratio[online.state["A"] > 0] < 1).any()


def test_games_without_step_rules_and_bad_rules_say_so():
    assert get_game("pentago_twist", {"genome": {"kind": "ntuple"}}).td_step_rules() == ()
    with pytest.raises(ValueError, match=r"^step rule 'adam': allowed nlms, tcl$"):
        StepRule("adam")
    with pytest.raises(ValueError, match=r"^phase share 2: allowed 0 <= share <= 1$"):
        StepRule("tcl", 2)
