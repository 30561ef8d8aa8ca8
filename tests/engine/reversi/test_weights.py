"""Weights: genome round trips, symmetry, files (and their error messages), reference sets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.reversi.files import (
    load_weights,
    reference_weights,
    save_json,
    save_npz,
    weights_from_dict,
    weights_to_dict,
)
from engine.reversi.genome.weights import (
    FEATURE_NAMES,
    REFERENCE_NAMES,
    SYMMETRY_CLASS_SQUARES,
    GenomeLayout,
    Weights,
    WeightsFileError,
    default_phase_bounds,
)

COURSE = [
    [1, 8, 3, 7, 7, 3, 8, 1],
    [8, 3, 2, 5, 5, 2, 3, 8],
    [3, 2, 6, 6, 6, 6, 2, 3],
    [7, 5, 6, 4, 4, 6, 5, 7],
    [7, 5, 6, 4, 4, 6, 5, 7],
    [3, 2, 6, 6, 6, 6, 2, 3],
    [8, 3, 2, 5, 5, 2, 3, 8],
    [1, 8, 3, 7, 7, 3, 8, 1],
]
WPC_TOP = [
    [1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00],
    [-0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25],
    [0.10, 0.01, 0.05, 0.02, 0.02, 0.05, 0.01, 0.10],
    [0.05, 0.01, 0.02, 0.01, 0.01, 0.02, 0.01, 0.05],
]
WPC = WPC_TOP + WPC_TOP[::-1]


def symmetries(m: np.ndarray) -> list[np.ndarray]:
    """The 8 images of an 8x8 matrix under rotations and reflections."""
    out = []
    for k in range(4):
        r = np.rot90(m, k)
        out += [r, r.T]
    return out


def random_weights(seed: int, n_phases: int, symmetric: bool) -> Weights:
    rng = np.random.default_rng(seed)
    layout = GenomeLayout(n_phases, symmetric)
    return Weights.from_genome(
        rng.uniform(-1, 1, layout.size), default_phase_bounds(n_phases), symmetric, name=f"r{seed}"
    )


@pytest.mark.parametrize("n_phases", [1, 3, 60])
@pytest.mark.parametrize("symmetric", [True, False])
def test_genome_round_trip(n_phases, symmetric):
    rng = np.random.default_rng(n_phases)
    layout = GenomeLayout(n_phases, symmetric)
    genome = rng.uniform(-1, 1, layout.size)
    w = Weights.from_genome(genome, default_phase_bounds(n_phases), symmetric)
    assert np.array_equal(w.to_genome(), genome)
    assert len(layout.names) == layout.size == len(set(layout.names))
    assert layout.size == n_phases * ((10 if symmetric else 64) + len(FEATURE_NAMES))


def test_blocks_partition_the_genome():
    layout = GenomeLayout(3, True)
    covered = np.zeros(layout.size, int)
    for s in layout.blocks.values():
        covered[s] += 1
    assert np.all(covered == 1)
    assert set(layout.blocks) >= {"p0.positional", "p2.mobility", "p1.stability"}
    assert layout.names[layout.blocks["p1.stability"]][0] == "p1.stability_own"


def test_symmetric_expansion_is_invariant_under_the_8_symmetries():
    w = random_weights(3, 4, symmetric=True)
    for p in range(4):
        m = w.positional[p].reshape(8, 8)
        assert len(np.unique(m)) == 10
        for image in symmetries(m):
            assert np.array_equal(image, m)
    assert SYMMETRY_CLASS_SQUARES == ("a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3", "d4")


def test_free_matrix_keeps_all_64_values():
    w = random_weights(4, 1, symmetric=False)
    assert len(np.unique(w.positional[0])) == 64


def test_phase_bounds():
    assert default_phase_bounds(1) == ()
    assert default_phase_bounds(3) == (24, 44)
    assert default_phase_bounds(60) == tuple(range(5, 64))
    phase_of, _, _ = random_weights(1, 3, True).numba_arrays()
    assert phase_of.shape == (65,)
    assert (
        phase_of[4] == phase_of[23] == 0 and phase_of[24] == 1 and phase_of[44] == phase_of[64] == 2
    )
    phase_of60, _, _ = random_weights(1, 60, True).numba_arrays()
    assert [phase_of60[4 + m] for m in range(60)] == list(range(60))  # one phase per move


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize("symmetric", [True, False])
def test_file_round_trip(tmp_path, suffix, symmetric):
    w = random_weights(7, 3, symmetric)
    w.metadata.update(variant="reversed", search={"depth": 4}, provenance={"seed": 1})
    path = tmp_path / f"w{suffix}"
    (save_json if suffix == ".json" else save_npz)(w, path)
    back = load_weights(path)
    assert np.array_equal(back.positional, w.positional) and np.array_equal(
        back.features, w.features
    )
    assert (back.phase_bounds, back.symmetric, back.name) == (w.phase_bounds, symmetric, w.name)
    assert back.metadata["search"] == {"depth": 4} and back.variant == "reversed"


def test_json_layout_is_readable_and_stable(tmp_path):
    w = random_weights(8, 2, True)
    save_json(w, tmp_path / "a.json")
    text = (tmp_path / "a.json").read_text()
    d = json.loads(text)
    assert list(d) == [
        "schema_version",
        "game",
        "variant",
        "name",
        "symmetric",
        "phase_bounds",
        "feature_names",
        "phases",
        "metadata",
    ]
    assert len(d["phases"][1]["positional"]) == 8 and all(
        len(r) == 8 for r in d["phases"][1]["positional"]
    )
    assert d["phases"][0]["positional"][0][0] == w.positional[0, 0]  # row 0 = rank 1, a1 first
    assert d["phases"][0]["positional"][7][1] == w.positional[0, 57]  # b8
    assert '"positional": [\n        [' in text  # one matrix row per line
    save_json(weights_from_dict(d), tmp_path / "b.json")
    assert (tmp_path / "b.json").read_text() == text


def write_mutated(tmp_path, mutate) -> str:
    d = weights_to_dict(random_weights(9, 3, True))
    mutate(d)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    return path


def _drop_row(d):
    d["phases"][2]["positional"].pop()


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (_set("schema_version", 2), "schema_version: expected 1, got 2"),
        (_drop_row, "phases[2].positional: expected 8 rows of 8 numbers, got 7 rows"),
        (
            lambda d: d["phases"][1]["positional"][3].append(1.0),
            "phases[1].positional[3]: expected a row of 8 numbers, got 9",
        ),
        (
            lambda d: d["phases"][0]["positional"][0].__setitem__(0, "x"),
            "phases[0].positional[0][0]: expected a number",
        ),
        (lambda d: d.pop("phases"), "missing key 'phases'"),
        (lambda d: d["phases"].pop(), "phases: expected 3 phases"),
        (
            lambda d: d["phases"][0]["features"].pop("mobility_own"),
            "phases[0].features: keys must equal feature_names",
        ),
        (_set("game", "chess"), "game: expected 'reversi'"),
        (_set("variant", "go"), "variant: expected one of"),
        (
            lambda d: d["phases"][0]["positional"][0].__setitem__(1, 0.123),
            "not symmetric but symmetric=true",
        ),
        (_set("phase_bounds", [44, 24]), "strictly increasing"),
        (_set("extra", 1), "unknown top-level key(s) ['extra']"),
    ],
)
def test_malformed_files_are_refused_with_clear_messages(tmp_path, mutate, message):
    path = write_mutated(tmp_path, mutate)
    with pytest.raises(WeightsFileError) as e:
        load_weights(path)
    assert message in str(e.value) and str(path) in str(e.value)


def test_truncated_nan_and_non_json_files(tmp_path):
    good = tmp_path / "good.json"
    save_json(random_weights(1, 1, True), good)
    text = good.read_text()
    cases = {
        "trunc.json": (text[: len(text) // 2], "truncated JSON"),
        "nan.json": (
            text.replace('"mobility_own": ', '"mobility_own": NaN, "x": ', 1),
            "NaN is not allowed",
        ),
        "junk.json": ("hello", "invalid JSON"),
        "list.json": ("[1, 2]", "expected a JSON object"),
    }
    for name, (content, message) in cases.items():
        (tmp_path / name).write_text(content)
        with pytest.raises(WeightsFileError, match=message.replace("(", r"\(")):
            load_weights(tmp_path / name)
    with pytest.raises(WeightsFileError, match="no such weights file"):
        load_weights(tmp_path / "missing.json")
    (tmp_path / "pickle.npz").write_bytes(b"\x80\x04not an npz")
    with pytest.raises(WeightsFileError, match="not a readable .npz"):
        load_weights(tmp_path / "pickle.npz")


def test_reference_weights_are_exactly_the_published_matrices():
    assert REFERENCE_NAMES == ("course", "wpc", "wpc_negated")
    expected = {
        "course": np.array(COURSE, float),
        "wpc": np.array(WPC),
        "wpc_negated": -np.array(WPC),
    }
    for name, matrix in expected.items():
        w = reference_weights(name)
        assert w.n_phases == 1 and w.symmetric and w.name == name
        assert np.array_equal(w.positional[0].reshape(8, 8), matrix)
        assert np.all(w.features == 0)
    assert reference_weights("wpc").variant == "othello"
    assert (
        reference_weights("wpc_negated").variant
        == reference_weights("course").variant
        == "reversed"
    )
    with pytest.raises(ValueError, match="unknown reference weights"):
        reference_weights("nope")


def _set_in_phase(p, key, value):
    return lambda d: d["phases"][p].__setitem__(key, value)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (_set_in_phase(0, "discs", 5), "phases[0].discs: expected [first, last]"),
        (_set_in_phase(1, "discs", [24]), "phases[1].discs: expected [first,"),
        (_set_in_phase(1, "discs", [1, 2]), "phases[1].discs: expected [24, 43]"),
        (_set("schema_version", True), "schema_version: expected 1, got True"),
        (_set("game", ["reversi"]), "game: expected 'reversi'"),
        (_set("variant", ["othello"]), "variant: expected one of"),
        (_set("feature_names", list(FEATURE_NAMES) * 2), "feature_names: names must be distinct"),
        (
            lambda d: d["phases"][0]["positional"][0].__setitem__(0, 10**400),
            "phases[0].positional[0][0]: expected a finite number",
        ),
        (_set("phases", {"a": 1}), "phases: expected 3 phases"),
        (_set("metadata", []), "metadata: expected an object"),
    ],
)
def test_more_malformed_json_values_are_refused(tmp_path, mutate, message):
    path = write_mutated(tmp_path, mutate)
    with pytest.raises(WeightsFileError) as e:
        load_weights(path)
    assert message in str(e.value) and str(path) in str(e.value)


def npz_arrays(tmp_path) -> dict:
    path = tmp_path / "good.npz"
    save_npz(random_weights(9, 3, True), path)
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("schema_version", np.array([1, 1]), "schema_version: expected an integer scalar"),
        ("schema_version", np.float64(1.0), "schema_version: expected an integer scalar"),
        ("schema_version", np.int64(2), "schema_version: expected 1, got 2"),
        ("metadata_json", np.str_("[1, 2]"), "metadata_json: expected a JSON object, got list"),
        ("metadata_json", np.str_("{oops"), "metadata_json: invalid JSON"),
        ("metadata_json", np.str_('{"x": NaN}'), "metadata_json: NaN is not allowed"),
        ("metadata_json", np.str_('{"variant": 5}'), "variant: expected one of"),
        ("positional", np.full((3, 8, 8), "a"), "positional: expected a float array"),
        ("positional", np.zeros((3, 64)), "positional: expected a float array (n, 8, 8)"),
        ("positional", np.zeros((2, 8, 8)), "positional must be (3, 8, 8)"),
        ("features", np.zeros((3, 6), complex), "features: expected a float array"),
        ("features", np.full((3, 6), np.nan), "expected a finite number"),
        ("phase_bounds", np.array([24.0, 44.0]), "phase_bounds: expected a 1-d integer array"),
        ("phase_bounds", np.array([44, 24]), "strictly increasing"),
        ("feature_names", np.array([1, 2, 3, 4, 5, 6]), "feature_names: expected a 1-d string"),
        ("symmetric", np.array([True]), "symmetric: expected a boolean scalar"),
        ("name", np.int64(3), "name: expected a string scalar"),
        ("name", None, "missing array(s) ['name']"),
        ("extra", np.zeros(3), "unknown array(s) ['extra']"),
    ],
)
def test_malformed_npz_arrays_are_refused(tmp_path, key, value, message):
    arrays = npz_arrays(tmp_path)
    if value is None:
        del arrays[key]
    else:
        arrays[key] = value
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(WeightsFileError) as e:
        load_weights(path)
    assert message in str(e.value) and str(path) in str(e.value)


def test_non_archive_npz_files_are_refused(tmp_path):
    np.save(tmp_path / "single.npy", np.zeros(3))
    (tmp_path / "single.npz").write_bytes((tmp_path / "single.npy").read_bytes())
    with pytest.raises(WeightsFileError, match="not a .npz archive"):
        load_weights(tmp_path / "single.npz")
    np.savez(tmp_path / "objects.npz", **{**npz_arrays(tmp_path), "name": np.array([{}])})
    with pytest.raises(WeightsFileError, match="not a readable .npz weights file"):
        load_weights(tmp_path / "objects.npz")  # an object array: refused, never unpickled


def fuzzed_variants(data: bytes, seed: int, n: int):
    """``n`` truncations at evenly spread offsets and ``n`` single-byte replacements at random
    offsets (seeded) of ``data``."""
    rng = np.random.default_rng(seed)
    for offset in np.linspace(0, len(data) - 1, n).astype(int):
        yield data[:offset]
    for offset in rng.integers(0, len(data), n):
        corrupt = bytearray(data)
        corrupt[offset] = (corrupt[offset] + int(rng.integers(1, 256))) % 256
        yield bytes(corrupt)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_corrupted_files_only_ever_raise_weights_file_error(tmp_path, suffix):
    """Fuzz: every truncation or corrupted byte either still loads a valid ``Weights`` or is
    refused with ``WeightsFileError`` (never a bare TypeError, KeyError, BadZipFile, ...)."""
    w = random_weights(5, 3, True)
    w.metadata.update(variant="reversed", provenance={"seed": 1})
    good = tmp_path / f"good{suffix}"
    (save_json if suffix == ".json" else save_npz)(w, good)
    path = tmp_path / f"fuzzed{suffix}"
    refused = 0
    for data in fuzzed_variants(good.read_bytes(), seed=11, n=300):
        path.write_bytes(data)
        try:
            assert isinstance(load_weights(path), Weights)
        except WeightsFileError as e:
            refused += 1
            assert str(path) in str(e) and "\n" not in str(e)
    assert refused >= 300  # every truncation at least is refused


# --- magnitude: won/lost games must dominate every heuristic value ------------------------


def test_heuristic_bound_is_an_upper_bound_of_evaluate(reachable_positions):
    from engine.reversi.genome.evaluation import evaluate
    from engine.reversi.genome.weights import heuristic_bound

    w = random_weights(12, 3, False)
    arrays = w.numba_arrays()
    bound = heuristic_bound(w.positional, w.features)
    values = [abs(evaluate(*p.boards, *arrays, False)) for p in reachable_positions
              if not p.is_game_over()]
    assert max(values) <= bound
    features = np.zeros((1, 6))
    features[0, 0] = -0.5
    assert heuristic_bound(np.ones((1, 64)), features) == 64 + 0.5 * 64  # sum |w| + 64 sum |f|


def test_weights_that_could_outweigh_a_won_game_are_refused(tmp_path):
    from engine.reversi.genome.evaluation import WIN_SCORE

    features = np.zeros((1, 6))
    features[0, 4] = WIN_SCORE / 64  # 64 stable discs would be worth a win
    with pytest.raises(ValueError, match="weights too large"):
        Weights((), np.zeros(64), features)
    with pytest.raises(ValueError, match="weights too large"):
        Weights((), np.full(64, WIN_SCORE / 64), np.zeros(6))
    Weights((), np.full(64, WIN_SCORE / 64 * 0.999), np.zeros(6))  # just below: fine
    d = weights_to_dict(reference_weights("course"))
    d["phases"][0]["positional"] = [[2e5] * 8 for _ in range(8)]
    (tmp_path / "big.json").write_text(json.dumps(d))
    with pytest.raises(WeightsFileError, match="big.json: weights too large"):
        load_weights(tmp_path / "big.json")


@pytest.mark.parametrize("symmetric", [True, False])
def test_genomes_within_max_gene_magnitude_are_always_valid(symmetric):
    layout = GenomeLayout(3, symmetric)
    m = layout.max_gene_magnitude()
    bounds = default_phase_bounds(3)
    for sign in (1.0, -1.0):
        Weights.from_genome(np.full(layout.size, sign * m), bounds, symmetric)  # the extreme
    with pytest.raises(ValueError, match="weights too large"):
        Weights.from_genome(np.full(layout.size, 1.001 * m), bounds, symmetric)
