"""Figures and Markdown of a network, checked on a hand-made network whose strongest pattern and
implied square values are known: the right tables, patterns and numbers, labelled axes."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from engine.core.records import Champion  # noqa: E402
from tests.engine.reversi.helpers_ntuple import network_game  # noqa: E402

A1_B1 = 0  # straight2's first table: a1 b1 (a1 the first digit)


@pytest.fixture(scope="module")
def hand_made():
    """All weights 0 but table a1-b1: a1 own with b1 opponent +1.0 (entry 1*3 + 2 = 5), a1
    own with b1 empty +0.8 (entry 3), both opponent -0.5 (entry 8); two phases, the second
    all 0; mobility weighs 0.25 in both."""
    game = network_game("othello", phases=2, features=["mobility"])
    spec = game.genome_spec()
    genome = np.zeros(spec.size)
    table = spec.blocks["p0.t0"]
    genome[table.start + 5], genome[table.start + 3], genome[table.start + 8] = 1.0, 0.8, -0.5
    genome[spec.blocks["p0.mobility"].start] = genome[spec.blocks["p1.mobility"].start] = 0.25
    return game, genome


def test_square_values_are_the_value_of_a_lone_disc(hand_made):
    game, genome = hand_made
    values = game.weights(genome).square_values()
    # a lone own disc on a1 reads entry 3 in its two instances (a1-b1 and a1-a2): 1.6; a
    # lone opponent disc reads entry 6 (0): half the difference is 0.8, on all four corners
    assert values[0, 0] == values[0, 7] == values[0, 56] == values[0, 63] == pytest.approx(0.8)
    assert np.count_nonzero(values[0]) == 4 and not values[1].any()


def test_the_markdown_names_the_strongest_table_and_its_patterns(hand_made):
    game, genome = hand_made
    text = game.genome_markdown(genome)
    assert "straight2: 64 cells x 3 states, 8 symmetries, 32 tables, 288 weights" in text
    assert ("| table | squares | instances | spread by phase | highest entry (phase 0) | "
            "lowest entry (phase 0) |") in text
    first_row = text.split("| table | squares |")[1].splitlines()[2]
    # a1-b1 has 8 symmetric copies; spread (largest - smallest) 1.5 in phase 0, 0 in phase 1
    assert first_row == "| t0 | a1 b1 | 8 | 1.5 / 0 | +1: a1 own, b1 opp | -0.5: a1 opp, b1 opp |"
    assert "| 0 | 4-33 | 0.25 | 0 | 0 | 0 |" in text  # mobility_own weighs 0.25
    assert "Square values the network implies, phase 0 (discs 4-33)" in text


def test_the_figures_show_spreads_patterns_square_values_features_and_history(hand_made):
    game, genome = hand_made
    champion = Champion("othello", genome, game.settings(), "hand", {})
    figures = game.genome_figures(champion, [(0, champion), (1, champion)])
    assert list(figures) == ["lut_spread", "patterns", "square_values", "features",
                             "weight_history"]
    spread = figures["lut_spread"].axes[0]
    assert spread.get_ylabel().startswith("spread") and spread.get_xlabel().startswith("table")
    assert spread.get_xticklabels()[0].get_text() == "t0: a1 b1"  # the largest first
    patterns = figures["patterns"]
    titles = [ax.get_title() for ax in patterns.axes]
    assert titles[:3] == ["t0: squares (phase 0)", "+1", "-0.5"]  # its squares, best, worst
    assert patterns.get_suptitle().startswith("Strongest patterns — hand")
    assert "Square values the network implies" in figures["square_values"].get_suptitle()
    history = figures["weight_history"]
    assert history.axes[2].get_title() == "Implied value of characteristic squares"
    assert all(ax.get_xlabel() == "generation" for ax in history.axes)
    assert game.genome_figure(genome, "t").get_suptitle() == "t"
