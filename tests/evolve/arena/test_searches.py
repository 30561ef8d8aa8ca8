"""``python -m evolve.evaluate``: each player's search, where it comes from, explicit flags
over records, ``--equal``, unequal matches flagged, and a complete ``--help``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evolve.arena import evaluate as ev
from evolve.arena.options import parse_args

ROOT = Path(__file__).resolve().parents[3]
CHAMPIONS = ROOT / "experiments" / "results" / "champions"


def run_cli(argv, capsys):
    code = ev.main([*argv, "--backend", "serial"])
    out = capsys.readouterr()
    return code, out.out, out.err


def search_block(text: str) -> dict[str, str]:
    """``{label: its search line}`` of the ``search:`` block (continuation lines joined)."""
    lines = text.splitlines()
    start = lines.index("search:") + 1
    found, label = {}, None
    for line in lines[start:]:
        if not line.startswith("  ") or line.startswith("  unequal"):
            break
        if line.startswith("   "):
            found[label] += " " + line.strip()
            continue
        label, rest = line.strip().split("  ", 1)
        found[label] = rest.strip()
    return found


def champion_copy(tmp_path, name: str, search: dict | None) -> str:
    """A committed champion file with ``metadata.search`` replaced (or removed)."""
    data = json.loads((CHAMPIONS / name).read_text())
    data["metadata"].pop("search", None)
    if search is not None:
        data["metadata"]["search"] = search
    out = tmp_path / name
    out.write_text(json.dumps(data))
    return str(out)


def test_a_champion_plays_its_recorded_search_and_a_rule_agent_is_flagged(tmp_path, capsys):
    file = champion_copy(tmp_path, "othello.json", {"depth": 1, "endgame_empties": 2})
    out = tmp_path / "r.json"
    code, text, _ = run_cli([file, "--vs", "wpc1", "course", "--games", "2", "--json", str(out)],
                            capsys)
    assert code == 0
    block = search_block(text)
    assert block["othello.json"] == "depth 1, exact endgame from 2 empties (champion file)"
    assert block["wpc1"] == ("depth 1, greedy by its positional weights, no exact endgame (its "
                             "own search; the depth and exact endgame settings do not apply)")
    assert block["course"] == "depth 1, exact endgame from 2 empties (as othello.json)"
    assert ("unequal search: wpc1 searches depth 1, greedy by its positional weights, no exact "
            "endgame; othello.json searches depth 1, exact endgame from 2 empties"
            ) in " ".join(text.split())
    assert "unequal search: course" not in text
    data = json.loads(out.read_text())
    assert data["search"][file] == {"searches": True, "depth": 1, "endgame_empties": 2,
                                    "time_limit": None, "clock": None,
                                    "origin": "champion file"}
    assert data["search"]["wpc1"]["searches"] is False and len(data["unequal_search"]) == 1
    assert data["search"]["wpc1"]["fixed"] == ("depth 1, greedy by its positional weights, no "
                                               "exact endgame")


def test_explicit_flags_win_for_every_player_and_say_what_they_replaced(tmp_path, capsys):
    file = champion_copy(tmp_path, "othello.json", {"depth": 1, "endgame_empties": 2})
    code, text, _ = run_cli([file, "--vs", "course", "--games", "2", "--depth", "2",
                             "--endgame-empties", "0", "--json", str(tmp_path / "r.json")],
                            capsys)
    assert code == 0
    block = search_block(text)
    assert block["othello.json"] == ("depth 2, no exact endgame (--depth 2 --endgame-empties 0 "
                                     "for every player; its champion file records depth 1, "
                                     "exact endgame from 2 empties)")
    assert block["course"].startswith("depth 2, no exact endgame")
    assert "othello, depth 2, no exact endgame; seed 0" in text
    settings = json.loads((tmp_path / "r.json").read_text())["settings"]
    assert (settings["depth"], settings["endgame_empties"]) == (2, 0)


def test_a_flag_sets_its_field_only_each_champion_keeps_the_rest(tmp_path, capsys):
    a = champion_copy(tmp_path, "othello.json", {"depth": 1, "endgame_empties": 2})
    b_dir = tmp_path / "b"
    b_dir.mkdir()
    b = champion_copy(b_dir, "othello.json", {"depth": 3, "endgame_empties": 6})
    code, text, _ = run_cli(["--round-robin", a, b, "--games", "2", "--depth", "1"], capsys)
    assert code == 0
    flat = " ".join(text.split())
    assert "depth 1, exact endgame from 2 empties (champion file)" in flat
    assert "depth 1, exact endgame from 6 empties (--depth 1 for every player" in flat
    assert "each player's own search (below)" in text and "unequal search:" in text


def test_equal_plays_every_searching_player_at_the_first_champions_search(tmp_path, capsys):
    a = champion_copy(tmp_path, "othello.json", {"depth": 1, "endgame_empties": 2})
    b_dir = tmp_path / "b"
    b_dir.mkdir()
    b = champion_copy(b_dir, "othello.json", {"depth": 3, "endgame_empties": 6})
    code, text, _ = run_cli([a, "--vs", b, "--games", "2", "--equal"], capsys)
    assert code == 0 and "unequal search" not in text
    assert "othello, depth 1, exact endgame from 2 empties; seed 0" in text
    assert "(--equal: as othello.json [" in " ".join(text.split())


def test_a_file_without_a_record_gets_its_study_config_or_the_defaults(tmp_path, capsys):
    run = tmp_path / "run"
    (run / ".hydra").mkdir(parents=True)
    (run / ".hydra" / "config.yaml").write_text("search:\n  depth: 1\n  endgame_empties: 3\n")
    shutil.copy(champion_copy(tmp_path, "othello.json", None), run / "champion.json")
    code, text, _ = run_cli([str(run), "--vs", "random", "--games", "2"], capsys)
    assert code == 0 and "depth 1, exact endgame from 3 empties (study config)" in text
    loose = champion_copy(tmp_path, "othello.json", None)
    code, text, _ = run_cli([loose, "--vs", "random", "--games", "2"], capsys)
    assert code == 0
    assert ("depth 4, exact endgame from 8 empties (this command's defaults: the file records "
            "no search and is in no run)") in " ".join(text.split())


def test_the_strength_tables_commands_play_exactly_their_flags(capsys):
    """The README's Hexifence row's flags (--depth 3 --endgame-empties 24) over the run's own
    champion, which records depth 2 and 20: the flags are what is played, and the output says
    what they replaced. (The exported champions/hexifence.json records them as its play
    search.)"""
    code, text, _ = run_cli([str(ROOT / "experiments" / "runs" / "hexifence" / "champion.json"),
                             "--vs", "chain", "--game",
                             "hexifence", "--depth", "3", "--endgame-empties", "24",
                             "--games", "2"], capsys)
    assert code == 0
    assert "hexifence, depth 3, exact endgame from 24 empties; seed 0" in text
    assert "its champion file records depth 2, exact endgame from 20" in " ".join(text.split())


def test_help_describes_every_option_and_shows_the_games_default():
    import argparse

    parser = None

    def capture(argv):
        nonlocal parser
        original = argparse.ArgumentParser.parse_args

        def keep(self, args=None, namespace=None):
            nonlocal parser
            parser = self
            return original(self, args, namespace)

        argparse.ArgumentParser.parse_args = keep
        try:
            parse_args(argv)
        finally:
            argparse.ArgumentParser.parse_args = original

    capture(["x", "--vs", "y"])
    missing = [a.option_strings or a.dest for a in parser._actions if not a.help]
    assert missing == []
    help_text = parser.format_help()
    assert "default 200" in help_text and "--equal" in help_text
    assert "metadata.search" in help_text


@pytest.mark.parametrize("flag", ["--depth", "--endgame-empties"])
def test_search_flags_still_refuse_bad_values(flag, capsys):
    code, _, err = run_cli(["random", "--vs", "greedy", "--game", "othello", flag, "-1"], capsys)
    assert code == 1 and flag in err
