"""Pentago Twist's ``ntuple`` genome: the symmetry claim, settings, the network against the
plain-Python network and the feature recount, alpha-beta with it, files and figures."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from engine.core import GameSettingsError, SearchSettings, get_game
from engine.kernels import ntuple as nt
from engine.pentago.agents import tactics
from engine.pentago.genome.evaluation import WIN_SCORE, terminal_value
from engine.pentago.genome.network import HALF_TURN
from engine.pentago.genome.weights import reference_genome
from engine.pentago.rules import reference as ref
from engine.pentago.rules.state import State, state_text
from engine.pentago.search.searcher import Searcher
from tests.engine.champion_files import assert_written_again_exactly, refused
from tests.engine.kernels.reference_ntuple import ReferenceNetwork, board_of_bits
from tests.engine.pentago.test_pentago_rules import random_board, random_reachable
from tests.engine.pentago.test_pentago_search import python_features, unfinished

GAME = get_game("pentago_twist")
NTUPLE = GAME.with_settings({"genome": {"kind": "ntuple"}})


def square_symmetries() -> list[tuple[str, callable]]:
    """The 8 symmetries of the square as maps of a grid cell (x, y)."""
    return [("identity", lambda x, y: (x, y)), ("half turn", lambda x, y: (5 - x, 5 - y)),
            ("quarter turn", lambda x, y: (y, 5 - x)), ("three quarters", lambda x, y: (5 - y, x)),
            ("mirror columns", lambda x, y: (x, 5 - y)), ("mirror rows", lambda x, y: (5 - x, y)),
            ("transpose", lambda x, y: (y, x)), ("anti-transpose", lambda x, y: (5 - y, 5 - x))]


def mapped(grid, image) -> tuple:
    out = [[None] * 6 for _ in range(6)]
    for x in range(6):
        for y in range(6):
            tx, ty = image(x, y)
            out[tx][ty] = grid[x][y]
    return tuple(tuple(row) for row in out)


def successors(grid) -> set:
    return {tuple(tuple(r) for r in ref.play(grid, m)) for m in ref.legal_moves(grid)}


def test_only_the_identity_and_the_half_turn_keep_the_move_set():
    """A symmetry g of the board is a symmetry of the game when the positions one move from
    g(x) are the images of those one move from x (the reference rules, random positions)."""
    keeping = []
    for name, image in square_symmetries():
        ok = True
        for seed in range(6):
            grid = ref.from_text(state_text(random_reachable(seed, 2 + seed)))
            after = {mapped([list(r) for r in s], image) for s in successors(grid)}
            ok &= successors([list(r) for r in mapped(grid, image)]) == after
        if ok:
            keeping.append(name)
    assert keeping == ["identity", "half turn"]
    rows = {tuple(r) for r in nt.board_symmetries(6, 6, "rot180").tolist()}
    assert rows == {tuple(range(36)), HALF_TURN}


def test_the_default_network_holds_every_window_and_quadrant_shared_by_the_half_turn():
    layout = NTUPLE.network.layout
    assert NTUPLE.settings() == {"genome": {"kind": "ntuple", "phases": 3,
                                            "layout": "straight5+corner3", "symmetry": "rot180",
                                            "features": False}}
    assert (len(layout.tuples), layout.n_weights, len(layout.instances)) == (18, 43254, 36)
    spec = NTUPLE.genome_spec()
    assert spec.size == 3 * 43254 and len(spec.names) == len(set(spec.names))
    assert list(spec.blocks)[:2] == ["p0.t0", "p0.t1"] and len(spec.blocks) == 3 * 18
    assert spec.names[spec.blocks["p1.t0"].start] == "p1.t0.00000"
    both = GAME.with_settings({"genome": {"kind": "ntuple", "phases": 2, "features": True}})
    assert len(both.genome_spec().blocks) == 2 * 19
    assert both.genome_spec().names[-1] == "p1.opp.qline2"


@pytest.mark.parametrize("settings, key", [
    ({"kind": "weights"}, "game.genome.kind"), ({"kind": "ntuple", "symmetry": "d4"},
                                                "game.genome.symmetry"),
    ({"kind": "ntuple", "layout": "diamond3"}, "game.genome.layout"),
    ({"kind": "ntuple", "features": "yes"}, "game.genome.features"),
    ({"kind": "ntuple", "phases": 0}, "game.genome.phases"),
    ({"kind": "ntuple", "depth": 2}, "game.genome.depth"),
    ({"layout": "straight5"}, "game.genome.layout"),
])
def test_bad_genome_settings_are_one_line_errors_naming_the_key(settings, key):
    with pytest.raises(GameSettingsError, match=key.replace(".", r"\.")) as error:
        GAME.with_settings({"genome": settings})
    assert "\n" not in str(error.value)


def test_a_layout_file_must_keep_to_the_games_symmetries(tmp_path):
    mirror = nt.board_layout(6, 6, nt.family_tuples(6, 6, "straight5"), "mirror")
    nt.save_layout(mirror, tmp_path / "mirror.json")
    with pytest.raises(GameSettingsError, match="half turn only"):
        GAME.with_settings({"genome": {"kind": "ntuple",
                                       "layout": str(tmp_path / "mirror.json")}})
    plain = nt.board_layout(6, 6, nt.family_tuples(6, 6, "square2"), "identity")
    nt.save_layout(plain, tmp_path / "plain.json")
    game = GAME.with_settings({"genome": {"kind": "ntuple",
                                          "layout": str(tmp_path / "plain.json")}})
    assert game.genome["symmetry"] == "identity" and game.network.layout.n_weights == 25 * 81


def weights_of(game, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 0.3, game.genome_spec().size)


def plain_negamax(state: State, depth: int, leaf) -> float:
    """Every legal move, no pruning, no table; finished positions and wins in one exact (found
    by trying every move), other leaves ``leaf(state)``."""
    P, O = state.boards()
    if state.is_over():
        return terminal_value(P, O)
    if depth == 0:
        if tactics.winning_move(P, O) >= 0:
            return WIN_SCORE + 35 - state.stones
        return leaf(state)
    return max(-plain_negamax(state.after(m), depth - 1, leaf) for m in state.legal_moves())


@pytest.mark.parametrize("spec", ["straight5+corner3", "lines+square2"])
def test_alphabeta_with_the_network_equals_plain_negamax_over_the_python_network(spec):
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": spec, "phases": 2}})
    genome = weights_of(game, 1)
    net, _ = game.network.split(genome)
    layout = game.network.layout
    python = ReferenceNetwork(3, [list(t) for t in layout.tuples], layout.symmetries.tolist())

    def leaf(state):
        return python.evaluate(board_of_bits(*state.boards(), 36), net[game.phase_of(state)])

    searcher = Searcher(*game.evaluation_arrays(genome), endgame_empties=0,
                        network=game.search_network(genome))
    for seed in range(8):
        state = unfinished(seed, 4 + 3 * seed)
        result = searcher.search(*state.boards(), depth=1)
        assert result.score == pytest.approx(plain_negamax(state, 1, leaf), abs=1e-9)
    state = unfinished(50, 27)
    assert searcher.search(*state.boards(), depth=2).score == pytest.approx(
        plain_negamax(state, 2, leaf), abs=1e-9)


def test_the_reference_projected_onto_the_default_layout_is_the_feature_evaluation():
    """Independent on both sides: the plain-Python network with the projected weights against
    the feature counts recounted from the reference grid."""
    genome = NTUPLE.reference_genome("reference")
    net, _ = NTUPLE.network.split(genome)
    layout = NTUPLE.network.layout
    python = ReferenceNetwork(3, [list(t) for t in layout.tuples], layout.symmetries.tolist())
    row = reference_genome("reference", 1)
    for seed in range(60):
        state = random_board(seed, seed % 37)
        P, O = state.boards()
        grid = ref.from_text(state_text(state))
        features = python_features(grid, "WB"[state.to_move])
        value = python.evaluate(board_of_bits(P, O, 36), net[NTUPLE.phase_of(state)].tolist())
        assert value == pytest.approx(float(np.dot(row, features)), abs=1e-9)


def test_alphabeta_with_the_projected_reference_plays_as_the_feature_genome():
    search = SearchSettings(depth=2, endgame_empties=6)
    network = NTUPLE.make_agent(NTUPLE.reference_genome("reference"), search)
    features = NTUPLE.make_panel_agent("reference", search)  # the seed, whatever the genome kind
    assert (network.searcher.mode, features.searcher.mode) == (1, 0)
    for seed in range(5):
        state = random_reachable(seed, 6 + 4 * seed)
        if state.is_over():
            continue
        a, b = network.searcher.search(*state.boards(), depth=2), \
            features.searcher.search(*state.boards(), depth=2)
        assert a.score == pytest.approx(b.score, abs=1e-9)


def test_network_and_features_are_summed():
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5",
                                          "features": True, "phases": 1}})
    genome = game.network.join(np.zeros((1, game.network.layout.n_weights)),
                               reference_genome("reference", 1)[None, :])
    only_features = Searcher(*GAME.with_settings({"genome": {"phases": 1}}).evaluation_arrays(
        reference_genome("reference", 1)), endgame_empties=0)
    both = Searcher(*game.evaluation_arrays(genome), endgame_empties=0,
                    network=game.search_network(genome))
    for seed in range(5):
        P, O = unfinished(seed, 10 + seed).boards()
        assert both.search(P, O, depth=1).score == pytest.approx(
            only_features.search(P, O, depth=1).score, abs=1e-12)


def test_champion_files_say_what_they_hold_and_round_trip(tmp_path):
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5",
                                          "features": True, "phases": 2}})
    genome = weights_of(game, 3)
    path = tmp_path / "nt.json"
    game.save_champion(path, genome, name="td", metadata={"games": 10})
    data = json.loads(path.read_text())
    assert (data["schema_version"], data["kind"], data["symmetry"]) == (2, "ntuple", "rot180")
    assert nt.layout_from_json(data["layout"]) == game.network.layout
    assert len(data["weights"]) == 2 and len(data["weights"][0]) == 16 * 243
    champion = GAME.load_champion(path)  # through the default game: the file's own settings
    assert champion.settings == game.settings() and champion.name == "td"
    assert np.array_equal(champion.genome, genome) and champion.metadata == {"games": 10}
    agent = GAME.make_panel_agent(str(path), SearchSettings(depth=1, endgame_empties=2), 0)
    assert agent.select_move(State()) in range(288)
    out = tmp_path / "exported.json"
    GAME.export(path, "json", out)
    assert json.loads(out.read_text()) == data


def test_a_layout_file_champion_carries_its_layout(tmp_path):
    layout = nt.board_layout(6, 6, nt.family_tuples(6, 6, "square2"), "rot180", name="mine")
    nt.save_layout(layout, tmp_path / "mine.json")
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": str(tmp_path / "mine.json"),
                                          "phases": 1}})
    game.save_champion(tmp_path / "c.json", weights_of(game, 2))
    (tmp_path / "mine.json").unlink()  # a reader elsewhere does not have the layout file
    champion = GAME.load_champion(tmp_path / "c.json")
    assert champion.settings["genome"]["layout"]["name"] == "mine"
    assert GAME.with_settings(champion.settings).network.layout == layout


@pytest.mark.parametrize("change, word", [
    (lambda d: d.update(weights=[[0.0] * 3]), "weights"),
    (lambda d: d.update(weights=[[float("nan")] * 3888]), "weights"),
    (lambda d: d.update(schema_version=3), "schema_version"),
    (lambda d: d.update(kind="lut"), "kind"),
    (lambda d: d["layout"].update(cells=35), "layout"),
    (lambda d: d["settings"]["genome"].update(phases=0), "settings"),
    (lambda d: d.update(feature_weights={"names": [], "weights": []}), "feature_weights"),
])
def test_bad_network_files_are_one_line_errors_naming_the_field(tmp_path, change, word):
    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5", "phases": 1}})
    path = tmp_path / "c.json"
    game.save_champion(path, weights_of(game, 0))
    data = json.loads(path.read_text())
    change(data)
    assert word in refused(GAME, path, data)


def test_feature_genome_files_are_written_exactly_as_before(tmp_path):
    assert_written_again_exactly(GAME, "experiments/runs/pentago_twist/champion.json", tmp_path)
    assert GAME.settings() == {"genome": {"phases": 3}}  # the default game left as it was


def test_figures_draw_the_most_spread_tables_and_markdown_lists_every_table():
    from engine.core import Champion

    game = GAME.with_settings({"genome": {"kind": "ntuple", "phases": 2}})
    genome = weights_of(game, 5)
    figures = game.genome_figures(Champion(game.name, genome, game.settings(), "random"))
    assert set(figures) == {"tables", "patterns"}
    assert len(figures["patterns"].axes) == 4 * 7
    text = game.genome_markdown(genome)
    assert len(re.findall(r"^\| t\d+ \|", text, re.M)) == 18
    assert "| t0 | (0,0) (0,1) (0,2) (0,3) (0,4) | 2 |" in text


def test_a_loaded_champion_plays_without_its_file(tmp_path):
    from engine.core.matches import specs

    game = GAME.with_settings({"genome": {"kind": "ntuple", "layout": "straight5", "phases": 1}})
    path = tmp_path / "c.json"
    game.save_champion(path, weights_of(game, 0))
    champion = specs.resolve_player(GAME, str(path))
    path.unlink()  # every agent after the first read comes from the object
    agent = specs.make_agent(GAME, champion, SearchSettings(depth=1), seed=0)
    assert agent.select_move(GAME.initial_state()) in GAME.legal_moves(GAME.initial_state())
    assert np.array_equal(champion.genome, weights_of(game, 0)) and champion.path == path
