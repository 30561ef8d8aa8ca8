"""Hexifence's ``ntuple`` genome: nodes over strings and coins, the network against the
plain-Python network, its invariances, alpha-beta with it, settings, files and figures."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from engine.core import Champion, GameSettingsError, SearchSettings, get_game
from engine.hexifence.genome.network import nodes
from engine.hexifence.genome.network_eval import drawing_gain, network_value
from engine.hexifence.rules.board import board, cell_symmetries
from engine.hexifence.rules.state import State
from engine.hexifence.search.searcher import Searcher
from engine.kernels import ntuple as nt
from tests.engine.champion_files import assert_written_again_exactly, refused
from tests.engine.hexifence.test_hexifence_solver import random_position
from tests.engine.kernels.reference_ntuple import ReferenceNetwork

GAME = get_game("hexifence")


def ntuple(size=3, **genome):
    return GAME.with_settings({"size": size, "genome": {"kind": "ntuple", **genome}})


def python_nodes(state: State) -> list[int]:
    """Node states recounted from the state's edge bytes: a drawn inner edge is 1, a ground
    node counts its cell's drawn boundary edges."""
    out = [0] * nodes(state.size).count
    for e, owner in enumerate(state.edges):
        if owner:
            out[int(nodes(state.size).node_of_edge[e])] += 1
    return out


def python_network(game):
    layout = game.network.layout
    return ReferenceNetwork(list(layout.cell_states), [list(t) for t in layout.tuples],
                            layout.symmetries.tolist())


def image(state: State, s: int) -> State:
    """The position under symmetry ``s`` of the board (edges and captured cells mapped)."""
    b = state.board
    edges = bytearray(len(state.edges))
    for e, owner in enumerate(state.edges):
        edges[b.symmetries[s, e]] = owner
    cells = bytearray(len(state.cells))
    for c, owner in enumerate(state.cells):
        cells[cell_symmetries(b)[s, c]] = owner
    return State(state.size, bytes(edges), bytes(cells), state.to_move)


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_nodes_are_the_inner_edges_and_one_ground_node_per_rim_cell(size):
    b, node_set = board(size), nodes(size)
    inner = [e for e in range(b.n_edges) if b.edge_cells[e, 1] >= 0]
    assert sorted(node_set.node_of_edge[inner]) == list(range(len(inner)))
    ground = {int(node_set.node_of_edge[e]) for e in range(b.n_edges) if b.edge_cells[e, 1] < 0}
    rim = {int(b.edge_cells[e, 0]) for e in range(b.n_edges) if b.edge_cells[e, 1] < 0}
    assert len(ground) == len(rim) and node_set.count == len(inner) + len(rim)
    boundary = b.n_edges - len(inner)
    assert sum(node_set.states[n] - 1 for n in ground) == boundary


@pytest.mark.parametrize("size", [2, 3])
def test_the_network_reads_the_python_node_states_and_every_image_alike(size):
    game = ntuple(size, phases=1)
    genome = np.random.default_rng(size).normal(0, 1, game.genome_spec().size)
    net, _ = game.network.split(genome)
    python = python_network(game)
    node_set = nodes(size)
    scratch = np.empty(node_set.count, np.uint8)
    for seed in range(8):
        state = random_position(size, board(size).n_edges - 3 - 3 * seed, seed)
        value = network_value(state.undrawn, node_set.node_of_edge, board(size).n_edges,
                              game.network.tables, net[0], scratch)
        assert value == pytest.approx(python.evaluate(python_nodes(state), net[0]))
        for s in range(12):
            twin = image(state, s)
            assert python.evaluate(python_nodes(twin), net[0]) == pytest.approx(value)


def test_which_boundary_edge_of_a_cell_is_drawn_does_not_change_the_value():
    game = ntuple(3, phases=1)
    b = board(3)
    genome = np.random.default_rng(0).normal(0, 1, game.genome_spec().size)
    python = python_network(game)
    corner = next(c for c in range(b.n_cells)
                  if sum(b.edge_cells[e, 1] < 0 for e in b.cell_edges[c]) == 3)
    first, second = [int(e) for e in b.cell_edges[corner] if b.edge_cells[e, 1] < 0][:2]
    state = random_position(3, 50, 1)
    one = bytearray(state.edges)
    one[first], one[second] = 1, 0
    other = bytearray(state.edges)
    other[first], other[second] = 0, 1
    values = {python.evaluate(python_nodes(State(3, bytes(e), state.cells)),
                              game.network.split(genome)[0][0]) for e in (one, other)}
    assert len(values) == 1


def test_the_gain_of_drawing_an_edge_is_the_change_of_the_full_value():
    game = ntuple(3, phases=1)
    genome = np.random.default_rng(4).normal(0, 1, game.genome_spec().size)
    net, _ = game.network.split(genome)
    python = python_network(game)
    t = game.network.tables
    for seed in range(6):
        state = random_position(3, 60 - 8 * seed, seed)
        before = python_nodes(state)
        idx = np.empty(len(t.offset), np.int64)
        nt.indices_cells(np.array(before, np.uint8), t, idx)
        for e in state.legal_edges()[:10]:
            after = python_nodes(state.play_edge(e))
            gain = drawing_gain(idx, t, net[0], nodes(3).node_of_edge[e])
            assert gain == pytest.approx(python.evaluate(after, net[0])
                                         - python.evaluate(before, net[0]))


def naive_negamax(state: State, margin: int, depth: int, leaf) -> float:
    """Every undrawn edge (boundary edges one by one), no pruning, no table, no symmetry; the
    engine's turn depth, capture candidates and leaves with nothing to capture."""
    from engine.hexifence.rules.bitboard import capture_candidates, degrees

    b = state.board
    if state.is_terminal():
        return float(margin)
    deg = np.empty(b.n_cells, np.int8)
    degrees(state.undrawn, b.cell_edges, deg)
    out = np.empty(2, np.int64)
    n = capture_candidates(state.undrawn, deg, b.edge_cells, b.cell_edges, out)
    if depth <= 0 and n == 0:
        return margin + leaf(state)
    best = -np.inf
    for e in (out[:n] if n else state.legal_edges()):
        child = state.play_edge(int(e))
        taken = sum(1 for a, c in zip(state.cells, child.cells, strict=True) if a != c)
        if taken:
            value = naive_negamax(child, margin + taken, depth, leaf)
        else:
            value = -naive_negamax(child, -margin, depth - 1, leaf)
        best = max(best, value)
    return best


@pytest.mark.parametrize("size, empties, depth", [(2, 14, 2), (3, 12, 2)])
def test_alphabeta_with_the_network_equals_plain_negamax_over_the_python_network(size, empties,
                                                                                 depth):
    game = ntuple(size, phases=2)
    genome = np.random.default_rng(9).normal(0, 1, game.genome_spec().size)
    net, feat = game.network.split(genome)
    python = python_network(game)

    def leaf(state):
        return python.evaluate(python_nodes(state), net[game.phase_of(state)])

    network = (nodes(size).node_of_edge, game.network.tables, net, game.network.mode)
    searcher = Searcher(feat, size, tt_bits=16, shared=False, network=network)
    for seed in range(3):
        state = random_position(size, empties, seed)
        margin = state.margin if state.to_move == 0 else -state.margin
        assert searcher.search(state, depth=depth).value == pytest.approx(
            naive_negamax(state, margin, depth, leaf), abs=1e-9)


def test_settings_blocks_and_the_reference_agent_keep_their_meaning():
    game = ntuple(3)
    assert game.settings() == {"size": 3, "genome": {"kind": "ntuple", "phases": 3,
                                                     "layout": "cell+pair", "features": False}}
    spec = game.genome_spec()
    layout = game.network.layout
    assert spec.size == 3 * layout.n_weights and len(spec.blocks) == 3 * len(layout.tuples)
    both = ntuple(2, phases=2, features=True)
    assert list(both.genome_spec().blocks)[-1] == "p1.features"
    assert both.genome_spec().names[-1] == "p1.controlled_value"
    assert GAME.settings() == {"size": 3, "genome": {"phases": 3}}
    agent = game.make_panel_agent("reference", SearchSettings(depth=1))
    assert agent.searcher.mode == 0  # the seed's feature weights, whatever this genome is


@pytest.mark.parametrize("genome, key", [
    ({"kind": "lut"}, "game.genome.kind"), ({"kind": "ntuple", "layout": "ring"},
                                            "game.genome.layout"),
    ({"kind": "ntuple", "features": 1}, "game.genome.features"),
    ({"kind": "ntuple", "symmetry": "rot180"}, "game.genome.symmetry"),
    ({"layout": "cell"}, "game.genome.layout"),
])
def test_bad_genome_settings_are_one_line_errors_naming_the_key(genome, key):
    with pytest.raises(GameSettingsError, match=key.replace(".", r"\.")) as error:
        GAME.with_settings({"genome": genome})
    assert "\n" not in str(error.value)
    with pytest.raises(GameSettingsError, match="no placement"):
        GAME.with_settings({"size": 1, "genome": {"kind": "ntuple", "layout": "pair"}})


def test_champion_files_round_trip_and_say_which_edges_each_node_reads(tmp_path):
    game = ntuple(2, phases=2, features=True)
    genome = np.random.default_rng(1).normal(0, 0.5, game.genome_spec().size)
    path = tmp_path / "nt.json"
    game.save_champion(path, genome, "td", {"games": 5})
    data = json.loads(path.read_text())
    assert (data["schema_version"], data["kind"]) == (2, "ntuple")
    assert len(data["nodes"]["edges"]) == nodes(2).count and [0, 0] in data["nodes"]["edges"][-6]
    champion = GAME.load_champion(path)
    assert champion.settings == game.settings() and np.array_equal(champion.genome, genome)
    small = GAME.with_settings({"size": 2})
    agent = small.make_panel_agent(str(path), SearchSettings(depth=1, endgame_empties=4))
    assert agent.select_move(small.initial_state()) in small.legal_moves(small.initial_state())
    with pytest.raises(ValueError, match="N=2"):
        GAME.make_panel_agent(str(path), SearchSettings(depth=1))


@pytest.mark.parametrize("change, word", [
    (lambda d: d.update(weights=[[0.0]]), "weights"),
    (lambda d: d["settings"]["genome"].update(layout="cell"), "layout"),
    (lambda d: d.update(schema_version=5), "schema_version"),
    (lambda d: d.update(feature_weights={"names": ["x"]}), "feature_weights"),
    (lambda d: d["settings"].update(size=0), "settings"),
])
def test_bad_network_files_are_one_line_errors_naming_the_field(tmp_path, change, word):
    game = ntuple(2, phases=1)
    path = tmp_path / "c.json"
    game.save_champion(path, np.zeros(game.genome_spec().size))
    data = json.loads(path.read_text())
    change(data)
    assert word in refused(GAME, path, data)


def test_feature_genome_files_are_written_exactly_as_before(tmp_path):
    assert_written_again_exactly(GAME, "experiments/runs/hexifence/champion.json", tmp_path)


def test_figures_and_markdown_show_the_tables():
    game = ntuple(3, phases=2)
    genome = np.random.default_rng(2).normal(0, 0.5, game.genome_spec().size)
    figures = game.genome_figures(Champion(game.name, genome, game.settings(), "random"))
    assert set(figures) == {"tables", "patterns"} and len(figures["patterns"].axes) == 4 * 7
    text = game.genome_markdown(genome)
    assert len(re.findall(r"^\| t\d+ \|", text, re.M)) == len(game.network.layout.tuples)
    assert "g(1 1)" in text
