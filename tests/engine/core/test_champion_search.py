"""``engine.core.champions.search``: a champion's recorded search, where it came from, and the
user's overrides over it."""

from __future__ import annotations

import json

import pytest

from engine.core.champions.search import (
    CHAMPION_FILE,
    DEFAULTS,
    PLAY_RECORD,
    STUDY_CONFIG,
    champion_search,
    recorded_search,
    run_dir_of,
)
from engine.core.records import SearchSettings

DEFAULTS_USED = SearchSettings(depth=4, endgame_empties=8)


def champion(path, search=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    metadata = {} if search is None else {"search": search}
    path.write_text(json.dumps({"game": "g", "schema_version": 1, "metadata": metadata}))
    return path


def study_config(run_dir, depth, empties):
    (run_dir / ".hydra").mkdir(parents=True, exist_ok=True)
    (run_dir / ".hydra" / "config.yaml").write_text(
        f"seed: 0\nsearch:\n  depth: {depth}\n  endgame_empties: {empties}\n")


def test_a_play_record_comes_before_the_search_the_champion_was_evolved_with(tmp_path):
    """``metadata.play`` (what ``evolve.export --play`` writes: the search a strength row was
    measured at) wins over ``metadata.search``; an unusable one is passed over."""
    path = champion(tmp_path / "run" / "champion.json", {"depth": 2, "endgame_empties": 20})
    data = json.loads(path.read_text())
    data["metadata"]["play"] = {"depth": 3, "endgame_empties": 24}
    path.write_text(json.dumps(data))
    assert recorded_search(path, DEFAULTS_USED) == (SearchSettings(3, 24), PLAY_RECORD)
    found = champion_search(path, DEFAULTS_USED, {"depth": 1})
    assert found.search == SearchSettings(1, 24)
    assert found.text() == ("depth 1, exact endgame from 24 (depth set; the champion file's "
                            "play search records depth 3)")
    data["metadata"]["play"] = {"depth": 0}
    path.write_text(json.dumps(data))
    assert recorded_search(path, DEFAULTS_USED) == (SearchSettings(2, 20), CHAMPION_FILE)


def test_the_committed_hexifence_champion_plays_at_its_strength_rows_search():
    """The README's Hexifence row is measured at depth 3, exact endgame 24 (strength_hexifence);
    the exported champion records that search, so every front end plays it there."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "experiments/results/champions/hexifence.json"
    assert recorded_search(path, DEFAULTS_USED) == (SearchSettings(3, 24), PLAY_RECORD)


def test_the_file_record_comes_first(tmp_path):
    path = champion(tmp_path / "run" / "champion.json", {"depth": 2, "endgame_empties": 20})
    study_config(tmp_path / "run", 5, 5)
    assert recorded_search(path, DEFAULTS_USED) == (SearchSettings(2, 20), CHAMPION_FILE)


def test_a_file_without_a_record_gets_its_studys_config(tmp_path):
    final = champion(tmp_path / "run" / "champion.json")
    generation = champion(tmp_path / "run" / "champions" / "gen_0003.json")
    study_config(tmp_path / "run", 3, 12)
    for path in (final, generation):
        assert run_dir_of(path) == tmp_path / "run"
        assert recorded_search(path, DEFAULTS_USED) == (SearchSettings(3, 12), STUDY_CONFIG)


def test_a_file_outside_a_run_gets_the_defaults_and_says_so(tmp_path):
    path = champion(tmp_path / "loose.json")
    study_config(tmp_path, 3, 12)  # a config next to a file that is not a run's champion
    assert run_dir_of(path) is None
    found = champion_search(path, DEFAULTS_USED)
    assert (found.search, found.source) == (DEFAULTS_USED, DEFAULTS)
    assert found.text() == "depth 4, exact endgame from 8 (defaults)"


@pytest.mark.parametrize("record", [{"depth": 0}, {"depth": "2"}, {"depth": True}, [2, 20],
                                    {"depth": 2, "endgame_empties": -1}])
def test_an_unusable_record_is_skipped(tmp_path, record):
    path = champion(tmp_path / "run" / "champion.json", record)
    study_config(tmp_path / "run", 3, 12)
    assert recorded_search(path, DEFAULTS_USED)[1] == STUDY_CONFIG


def test_overrides_set_only_their_fields_and_are_named(tmp_path):
    path = champion(tmp_path / "c.json", {"depth": 2, "endgame_empties": 20})
    found = champion_search(path, DEFAULTS_USED, {"depth": 3, "endgame_empties": None})
    assert found.search == SearchSettings(3, 20) and found.overridden == ("depth",)
    assert found.recorded == SearchSettings(2, 20)
    assert found.text() == ("depth 3, exact endgame from 20 (depth set; the champion file "
                            "records depth 2)")
    same = champion_search(path, DEFAULTS_USED, {"depth": 2})
    assert same.text().endswith("(set as the champion file records them)")
    timed = champion_search(path, DEFAULTS_USED, {"time_limit": 0.5})
    assert timed.search == SearchSettings(2, 20, 0.5)
    assert timed.to_json()["source"] == CHAMPION_FILE
    with pytest.raises(ValueError, match="unknown search setting 'width'"):
        champion_search(path, DEFAULTS_USED, {"width": 3})


def test_the_committed_hexifence_champion_records_its_search():
    """The file behind the README's Hexifence row, as every front end now reads it."""
    found = champion_search("experiments/runs/hexifence/champion.json", SearchSettings())
    assert (found.search, found.source) == (SearchSettings(2, 20), CHAMPION_FILE)
