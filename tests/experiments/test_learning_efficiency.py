"""experiments.learning.efficiency: checkpoints of the CPU budget, pooled anchor scores, the
merge of earlier results, and the table; one real (slow) run of the cheapest method."""

import json

import pytest

from experiments.learning import efficiency as le
from experiments.learning.efficiency_plans import PLANS
from experiments.learning.efficiency_report import markdown, seeds_pooled


def test_checkpoints_take_the_last_champion_within_each_fraction_of_the_budget():
    history = [{"cpu": c, "champion": f"g{i}"} for i, c in enumerate([10, 30, 55, 70, 99, 130])]
    got = le.checkpoints(history, 100)
    assert [(p["fraction"], p["champion"]) for p in got] == [(0.25, "g0"), (0.5, "g1"),
                                                             (1.0, "g4")]
    assert le.checkpoints(history[3:], 100)[0]["champion"] == "g3"  # none within: the first


def test_in_process_methods_keep_their_own_checkpoints():
    history = [{"cpu": 30, "champion": "a", "fraction": 0.25},
               {"cpu": 61, "champion": "b", "fraction": 0.5}]
    assert le.checkpoints(history, 100) == history


def test_the_anchor_pool_score_counts_every_game_with_a_wilson_interval():
    result = {"matches": [{"opponent": "a", "games": 100, "wins": 80, "draws": 0, "score": 0.8},
                          {"opponent": "b", "games": 100, "wins": 40, "draws": 20,
                           "score": 0.5}]}
    got = le.pooled(result)
    assert got["games"] == 200 and got["score"] == pytest.approx(0.65)
    low, high = got["score_ci95"]
    assert 0.58 < low < 0.65 < high < 0.72
    assert got["by_anchor"] == {"a": 0.8, "b": 0.5}


def test_seeds_pool_their_games():
    rows = [{"score": 0.5, "games": 100}, {"score": 0.7, "games": 300}]
    p, low, high, n = seeds_pooled(rows)
    assert n == 400 and p == pytest.approx(0.65) and low < p < high


def test_an_earlier_result_is_kept_and_its_stamp_dropped(tmp_path):
    path = tmp_path / "learning_efficiency.json"
    assert le.kept(path) == {"games": {}}
    path.write_text(json.dumps({"games": {"othello": {"rows": []}}, "stamp": {"commit": "x"}}))
    assert le.kept(path) == {"games": {"othello": {"rows": []}}}


def test_a_second_seed_keeps_the_command_that_measured_the_first():
    """Commands are kept per method and listed in the table: running seed 1 must not drop the
    command behind seed 0's kept row, and a method measured anew keeps only its new command."""
    methods = [m for m in PLANS["othello"].methods if m.name == "td_ray2_hour"]
    seed0, seed1 = "efficiency --seeds 0", "efficiency --seeds 1"
    old = {"td_ray2_hour": seed0, "td_hour": "efficiency --methods td_hour"}  # as files had it
    merged = le.merged_commands(old, methods, set(), seed1)
    assert merged == {"td_ray2_hour": [seed0, seed1], "td_hour": ["efficiency --methods td_hour"]}
    assert le.merged_commands(merged, methods, set(), seed1) == merged  # the same run again
    assert le.merged_commands(merged, methods, {"td_ray2_hour"}, seed1)["td_ray2_hour"] == [seed1]
    report = {"games": {"othello": {
        "budget": 40, "anchors": list(PLANS["othello"].anchors), "games": 200, "rows": [],
        "protocol": list(PLANS["othello"].protocol), "methods": {}, "commands": merged}}}
    text = "\n".join(markdown(report, PLANS, "x.png"))
    assert f"`{seed0}`" in text and f"`{seed1}`" in text


def test_the_table_names_each_method_seed_and_anchor():
    plan = PLANS["othello"]
    row = {"method": "td_ntuple", "seed": 0, "games": 600, "score": 0.75,
           "score_ci95": [0.71, 0.78], "cpu": 10.0,
           "by_anchor": {a: 0.75 for a in plan.anchors}}
    report = {"games": {"othello": {
        "budget": 40, "anchors": list(plan.anchors), "protocol": list(plan.protocol),
        "games": 200, "methods": {"td_ntuple": "TD alone"},
        "rows": [{**row, "fraction": f} for f in (0.25, 0.5, 1.0)],
        "commands": {"td_ntuple": "python -m experiments.learning.efficiency"}}}}
    text = "\n".join(markdown(report, PLANS, "x.png"))
    assert "| td_ntuple | TD alone | 0 | +191 | +191 | +191 [+156, +220] | 75.0% |" in text
    assert "Measured by `python -m experiments.learning.efficiency`." in text
    assert text.count("75.0% | 10 |") == 1  # the CPU at the budget, no wall recorded


def test_hour_long_rows_show_cpu_and_wall_and_get_a_wall_clock_panel():
    from experiments.learning.efficiency_report import figure

    plan = PLANS["reversed_reversi"]
    rows = [{"method": m, "seed": 0, "games": 600, "score": 0.6, "score_ci95": [0.56, 0.64],
             "cpu": 3600.0 * f, **({"wall": 1900.0 * f} if m == "td_ray2_hour" else {}),
             "fraction": f, "by_anchor": {a: 0.6 for a in plan.anchors}}
            for m in ("td_ray2_hour", "cocmaes_hour") for f in (0.25, 0.5, 1.0)]
    report = {"games": {"reversed_reversi @ 3600 CPU-s": {
        "game": "reversed_reversi", "budget": 3600.0, "anchors": list(plan.anchors),
        "protocol": list(plan.protocol), "games": 200, "rows": rows,
        "methods": {"td_ray2_hour": "distributed", "cocmaes_hour": "Co-CMA-ES"}}}}
    text = "\n".join(markdown(report, PLANS, "x.png"))
    assert "| 3,600 / 1,900 |" in text and "| 3,600 |" in text
    axes = [ax for ax in figure(report).axes if ax.get_visible()]
    assert [ax.get_xlabel().split(" ")[0] for ax in axes] == ["CPU-hours", "wall-clock"]
    wall_lines = axes[1].get_legend_handles_labels()[1]
    assert wall_lines == ["td_ray2_hour"]  # only the run that recorded its wall clock


@pytest.mark.slow
def test_a_tiny_run_writes_the_table_and_figure(tmp_path):
    assert le.main(["--game", "othello", "--methods", "td_ntuple", "--seeds", "0", "--budget",
                    "8", "--games", "4", "--work", str(tmp_path / "w"), "--results",
                    str(tmp_path)]) == 0
    data = json.loads((tmp_path / "learning_efficiency.json").read_text())
    rows = data["games"]["othello @ 8 CPU-s"]["rows"]  # a budget not the plan's: its own section
    assert [r["fraction"] for r in rows] == [0.25, 0.5, 1.0]
    assert all(r["games"] == 12 for r in rows)
    assert (tmp_path / "learning_efficiency.png").stat().st_size > 0


@pytest.mark.parametrize("game", sorted(PLANS))
def test_every_study_method_of_the_plans_composes_and_validates(game):
    from experiments.learning.efficiency_inprocess import compose_game

    for method in PLANS[game].methods:
        if method.kind not in ("td_cli", "from_search"):  # their own CLIs' options: checked by
            # their runs below and in test_from_search
            compose_game((*method.overrides, "seed=0"))


def test_an_hour_long_method_runs_only_when_named_and_at_its_budget(tmp_path, capsys):
    named = [x.name for x in PLANS["othello"].methods if x.budget is not None]
    assert named == ["td_hour", "td_ray2_hour", "cocmaes_hour", "td_workers2_hour",
                     "from_search_hour"]
    with pytest.raises(SystemExit):
        le.main(["--game", "othello", "--methods", "td_hour", "--budget", "240", "--work",
                 str(tmp_path), "--results", str(tmp_path)])
    assert "have budgets [3600.0]" in capsys.readouterr().err


def test_an_evolve_td_method_is_its_snapshots_with_the_workers_cpu(tmp_path, monkeypatch):
    """A td_cli method runs python -m evolve.td to its end (resumable), each snapshot a point
    at its total CPU; a finished run is not run again."""
    method = PLANS["othello"].methods[0].__class__(
        "tiny_td", "tiny", ("--game", "othello", "--settings",
                            '{"genome": {"kind": "ntuple", "layout": "straight2"}}',
                            "--stage", "600:0.07", "--round-games", "200", "--chunk-games",
                            "100", "--snapshot-every", "200"), kind="td_cli")
    history = le.run_td(method, 0, 10.0, tmp_path / "seed0")
    assert [h["games"] for h in history] == [200, 400, 600]
    assert all(h["cpu"] > 0 and h["wall"] > 0 for h in history)
    assert history[-1]["champion"].endswith("network.json")
    assert not (tmp_path / "seed0" / "network.checkpoint.npz").exists()
    monkeypatch.setattr(le.subprocess, "run", None)  # would fail if it ran again
    assert le.run_td(method, 0, 10.0, tmp_path / "seed0") == history


def test_the_hour_long_table_runs_each_games_hour_methods_into_its_own_files(monkeypatch):
    from experiments.learning import efficiency_hour

    calls = []
    monkeypatch.setattr(efficiency_hour.efficiency, "main", lambda argv: calls.append(argv) or 0)
    assert efficiency_hour.main(["--results", "r", "--work", "w"]) == 0
    hour = ["td_hour", "td_ray2_hour", "cocmaes_hour", "td_workers2_hour"]
    assert calls == [
        ["--game", "reversed_reversi", "--methods", *hour, "--seeds", "0", "--work", "w",
         "--results", "r", "--name", "learning_efficiency_hour"],
        ["--game", "othello", "--methods", *hour, "from_search_hour", "--seeds", "0", "1",
         "--work", "w",
         "--results", "r", "--name", "learning_efficiency_hour"]]


def test_a_row_in_the_result_file_is_kept_unless_its_method_was_revised(tmp_path, monkeypatch):
    """Rows committed by another session are not measured again on a fresh machine (no work
    folder), unless the method's key changed (e.g. a revised learner)."""
    import dataclasses

    plan = PLANS["othello"]
    method = next(x for x in plan.methods if x.name == "td_hour")
    row = {"method": "td_hour", "seed": 1, "fraction": 1.0, "score": 0.5}
    earlier = {"keys": {"td_hour": le.row_key(plan, method, 3600.0, 200)}, "rows": [row]}

    def ran(*args):
        raise AssertionError("measured again")

    monkeypatch.setattr(le, "run_td", ran)
    assert le.study(plan, [method], [1], 3600.0, 200, tmp_path, earlier) == [row]
    for again in (dataclasses.replace(method, revision=method.revision + 1),
                  dataclasses.replace(method, overrides=(*method.overrides, "--x"))):
        with pytest.raises(AssertionError, match="measured again"):
            le.study(plan, [again], [1], 3600.0, 200, tmp_path, earlier)
    with pytest.raises(AssertionError, match="measured again"):  # another seed
        le.study(plan, [method], [0], 3600.0, 200, tmp_path, earlier)


def test_seeds_measured_one_at_a_time_add_up_and_a_revised_method_drops_its_rows(
        tmp_path, monkeypatch):
    def fake(plan, methods, seeds, budget, games, work, earlier=None):
        return [{"method": x.name, "seed": s, "games": 600, "score": 0.6, "cpu": 3600.0 * f,
                 "score_ci95": [0.56, 0.64], "fraction": f, "champion": "c.json",
                 "by_anchor": {a: 0.6 for a in plan.anchors}}
                for x in methods for s in seeds for f in (0.25, 0.5, 1.0)]

    monkeypatch.setattr(le, "study", fake)
    run = ["--game", "othello", "--methods", "td_hour", "--work", str(tmp_path / "w"),
           "--results", str(tmp_path), "--name", "hour"]
    assert le.main([*run, "--seeds", "0"]) == 0
    assert le.main([*run, "--seeds", "1"]) == 0

    def seeds():
        data = json.loads((tmp_path / "hour.json").read_text())
        return sorted({r["seed"] for r in data["games"]["othello @ 3600 CPU-s"]["rows"]})

    assert seeds() == [0, 1]
    data = json.loads((tmp_path / "hour.json").read_text())
    data["games"]["othello @ 3600 CPU-s"]["keys"]["td_hour"]["method"]["revision"] = -1
    (tmp_path / "hour.json").write_text(json.dumps(data))  # measured by an older learner
    assert le.main([*run, "--seeds", "1"]) == 0
    assert seeds() == [1]
