"""python -m evolve.td in rounds and with checkpoints: the network is the documented schedule
over the game's contract (rounds played one round behind the learning), the same bits serial or
on 2 Ray workers, and the same after a kill -9 and ``--resume`` as without the kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.core.agent import child_seeds
from engine.core.registry import get_game
from evolve import td
from evolve.td_checkpoint import read_checkpoint

SETTINGS = {"genome": {"kind": "ntuple", "layout": "straight2", "phases": 2,
                       "features": ["mobility"]}}
ROUNDS = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "90:0.1",
          "--stage", "40:0.02", "--round-games", "40", "--chunk-games", "15", "--seed", "3"]


def genome_of(path: Path) -> np.ndarray:
    return get_game("othello", SETTINGS).load_champion(path).genome


def expected_rounds(openings=None, on_workers=False, phase_share=0.0, **against
                    ) -> np.ndarray:
    """The schedule of evolve.td_training written out over the contract: round i of stage k
    in tasks of 15 games (task c from SeedSequence([3, k, i, c]): its openings' seed, then its
    games'), played by the network before round i - 1 was learnt. ``on_workers``: synchronous
    rounds, round i played by the network after round i - 1; each task learns from its own
    games starting from that network, and the network moves by the mean of the changes (summed
    in task order)."""
    from engine.core import StepRule

    rule = {"rule": StepRule("nlms", phase_share)} if phase_share else {}
    game = get_game("othello", SETTINGS)
    steps = [(0, 0, 40, 0.1), (0, 1, 40, 0.1), (0, 2, 10, 0.1), (1, 0, 40, 0.02)]
    genome = np.zeros(game.genome_spec().size)
    players = [genome]  # players[i]: the network that plays round i
    for i, (k, r, games, alpha) in enumerate(steps):
        players.append(genome)
        if on_workers:
            players[i] = genome
        records = []
        for c, start in enumerate(range(0, games, 15)):
            n = min(15, games - start)
            seeds = child_seeds(np.random.SeedSequence([3, k, r, c]), 2)
            lines = None if openings is None else game.random_openings(n, seeds[0], *openings)
            records.append(game.td_play(players[i], n, seeds[1], 0.1, lines, **against))
        if on_workers:
            changes = [game.td_learn_games(players[i], [r], alpha, **rule)[0] - players[i]
                       for r in records]
            total = np.zeros_like(genome)
            for change in changes:
                total += change
            genome = genome + total / len(changes)
        else:
            genome = game.td_learn_games(genome, records, alpha, **rule)[0]
    return genome


def test_rounds_are_the_documented_schedule_over_the_contract(tmp_path):
    out = tmp_path / "net.json"
    assert td.main([*ROUNDS, "--out", str(out), "--no-progress"]) == 0
    np.testing.assert_array_equal(genome_of(out), expected_rounds())
    meta = json.loads(out.read_text())["metadata"]["td"]
    assert (meta["round_games"], meta["chunk_games"]) == (40, 15)
    assert not (tmp_path / "net.json.checkpoint.npz").exists()  # done: nothing to resume
    with_openings = tmp_path / "openings.json"
    assert td.main([*ROUNDS, "--openings", "2:6", "--out", str(with_openings)]) == 0
    np.testing.assert_array_equal(genome_of(with_openings), expected_rounds((2, 6)))
    against = tmp_path / "against.json"
    assert td.main([*ROUNDS, "--opponents", "wpc1", "course", "--self-play-share", "0.4",
                    "--out", str(against)]) == 0
    np.testing.assert_array_equal(genome_of(against), expected_rounds(
        opponents=("wpc1", "course"), self_play_share=0.4))


def test_learning_on_the_workers_moves_by_the_mean_of_the_tasks_changes(tmp_path):
    out = tmp_path / "net.json"
    assert td.main([*ROUNDS, "--learner", "workers", "--out", str(out)]) == 0
    learnt = genome_of(out)
    np.testing.assert_array_equal(learnt, expected_rounds(on_workers=True))
    assert not np.array_equal(learnt, expected_rounds())  # not the driver's learning
    assert json.loads(out.read_text())["metadata"]["td"]["learner"] == "workers"
    shared = tmp_path / "shared.json"
    assert td.main([*ROUNDS, "--learner", "workers", "--phase-share", "0.3", "--out",
                    str(shared)]) == 0
    np.testing.assert_array_equal(genome_of(shared),
                                  expected_rounds(on_workers=True, phase_share=0.3))


@pytest.mark.parametrize("options, message", [
    (["--learner", "workers"], "--learner workers needs --round-games"),
    (["--round-games", "40", "--learner", "workers", "--step-rule", "tcl"],
     "the workers learn with the plain nlms rule only")])
def test_learning_on_the_workers_refuses_what_it_cannot_do(tmp_path, capsys, options,
                                                           message):
    out = tmp_path / "net.json"
    assert td.main(["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage",
                    "40:0.1", *options, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_two_ray_workers_learn_the_same_bits_as_serial(tmp_path, ray_session):
    serial, ray = tmp_path / "serial.json", tmp_path / "ray.json"
    assert td.main([*ROUNDS, "--out", str(serial)]) == 0
    assert td.main([*ROUNDS, "--backend", "ray", "--workers", "2", "--out", str(ray)]) == 0
    np.testing.assert_array_equal(genome_of(serial), genome_of(ray))
    serial_learnt, ray_learnt = tmp_path / "serial_learnt.json", tmp_path / "ray_learnt.json"
    for out, backend in ((serial_learnt, ["--backend", "serial"]),
                         (ray_learnt, ["--backend", "ray", "--workers", "2"])):
        assert td.main([*ROUNDS, *backend, "--learner", "workers", "--out", str(out)]) == 0
    np.testing.assert_array_equal(genome_of(serial_learnt), genome_of(ray_learnt))
    # the workers' CPU is counted (they play in other processes), the driver's own apart
    on_ray = json.loads(ray.read_text())["metadata"]["td"]
    alone = json.loads(serial.read_text())["metadata"]["td"]
    assert on_ray["worker_cpu_seconds"] > 0 and "worker_cpu_seconds" not in alone
    assert alone["wall_seconds"] > 0 and alone["cpu_seconds"] > 0


# ~10 s each: the default set keeps the online checkpoint, the rounds checkpoint with a step
# rule's state (the plain rounds one is that without the state: slow) and the workers' learner
@pytest.mark.parametrize("mode", [
    pytest.param(["--round-games", "300", "--chunk-games", "100"], marks=pytest.mark.slow), [],
    pytest.param(["--step-rule", "tcl", "--phase-share", "0.2"], marks=pytest.mark.slow),
    ["--round-games", "300", "--chunk-games", "100", "--step-rule", "tcl"],
    ["--round-games", "300", "--chunk-games", "100", "--learner", "workers"]])
def test_a_kill_9_and_resume_give_the_uninterrupted_network(tmp_path, mode):
    """Online steps are ONLINE_CHUNK games; the subprocess gets a small one from the env."""
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "6000:0.05",
            "--seed", "1", *mode, "--checkpoint-seconds", "0", "--no-progress"]
    whole, killed = tmp_path / "whole.json", tmp_path / "killed.json"
    command = [sys.executable, "-c", "import sys, evolve.td_training as t; "
               "t.ONLINE_CHUNK = 300; from evolve.td import main; sys.exit(main(sys.argv[1:]))"]
    subprocess.run([*command, *args, "--out", str(whole)], check=True, capture_output=True)
    checkpoint = tmp_path / "killed.json.checkpoint.npz"
    run = subprocess.Popen([*command, *args, "--out", str(killed)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not checkpoint.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.1)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    assert not killed.exists(), "the run finished before the kill: make it longer"
    step = int(np.load(checkpoint)["step"])
    assert 0 < step < 20, step
    done = subprocess.run([*command, *args, "--resume", "--out", str(killed)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resumed from" in done.stderr
    np.testing.assert_array_equal(genome_of(killed), genome_of(whole))


@pytest.mark.parametrize("extra, message", [
    (["--backend", "ray"], "error: --backend ray needs --round-games G"),
    (["--openings", "2:4"], "error: --openings needs --round-games G"),
    # online TD has no tasks nor workers: an option that would change nothing is refused
    (["--chunk-games", "50"], "error: --chunk-games needs --round-games G"),
    (["--workers", "2"], "error: --workers needs --round-games G"),
    (["--ray-address", "auto"], "error: --ray-address needs --round-games G"),
    (["--round-games", "10", "--chunk-games", "0"], "error: --round-games must be >= 0 and "
     "--chunk-games >= 1"),
    (["--round-games", "-1"], "error: --round-games must be >= 0"),
    (["--round-games", "10", "--openings", "1:1"], "error: --openings 1:1: found only 4 "),
    (["--round-games", "10", "--snapshot-every", "15"], "error: --snapshot-every 15: allowed "
     "a multiple of the games of a step (10"),
    (["--snapshot-every", "-5000"], "error: --snapshot-every -5000: allowed a multiple"),
    (["--phase-share", "2"], "error: --phase-share 2.0: allowed 0 <= S <= 1"),
    # the workers would load it: it is loaded here first (on Ray it would be a worker's error)
    (["--round-games", "10", "--backend", "ray", "--opponents", "nope.json"],
     "error: TD opponent 'nope.json': weights file not found"),
])
def test_bad_round_options_are_one_line(tmp_path, capsys, extra, message):
    out = tmp_path / "x.json"
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "10:0.1"]
    assert td.main([*args, *extra, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1 and not out.exists()


def test_a_checkpoint_of_other_settings_is_not_resumed(tmp_path, capsys):
    out = tmp_path / "x.json"
    checkpoint = tmp_path / "x.json.checkpoint.npz"
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "600:0.1",
            "--round-games", "200", "--checkpoint-seconds", "0", "--out", str(out)]
    assert td.main([*args, "--seed", "1"]) == 0
    from evolve.td_checkpoint import Progress, write_checkpoint
    from evolve.td_training import Schedule

    other = Schedule("othello", "{}", ((600, 0.1),), 1, 0.1, 200)
    write_checkpoint(checkpoint, other, np.zeros(3), np.zeros(3), Progress(1, 200, 1.0))
    assert td.main([*args, "--seed", "1", "--resume"]) == 1
    assert "was made with other settings" in capsys.readouterr().err
    with pytest.raises(ValueError, match="other settings"):
        read_checkpoint(checkpoint, Schedule("othello", "{}", ((600, 0.1),), 2, 0.1, 200))


def test_a_checkpoint_of_the_first_workers_learner_is_refused_in_one_line(tmp_path, capsys):
    """Its rounds were added one round late: resuming it synchronously would give neither
    run, so it is refused, saying so."""
    from evolve.td_checkpoint import Progress, write_checkpoint

    out = tmp_path / "x.json"
    checkpoint = tmp_path / "x.json.checkpoint.npz"
    args = [*ROUNDS, "--learner", "workers", "--out", str(out), "--resume"]
    from evolve.td_options import checked_schedule, parse_args

    schedule = json.loads(checked_schedule(parse_args(args, ""),
                                           get_game("othello", SETTINGS)).to_json())
    del schedule["workers_round"]  # what the first version wrote

    class First:
        def to_json(self):
            return json.dumps(schedule, sort_keys=True)

    write_checkpoint(checkpoint, First(), np.zeros(3), np.zeros(3), Progress(1, 40, 1.0))
    assert td.main(args) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "first --learner workers" in err
    assert "delete it" in err and checkpoint.is_file()  # nothing lost


def test_a_torn_checkpoint_is_one_line(tmp_path, capsys):
    out = tmp_path / "x.json"
    (tmp_path / "x.json.checkpoint.npz").write_bytes(b"PK\x03\x04 torn")
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "20:0.1",
            "--round-games", "10", "--resume", "--out", str(out)]
    assert td.main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: checkpoint ") and "not readable" in err
    assert err.count("\n") == 1 and not out.exists()


def test_snapshots_are_the_networks_of_shorter_runs(tmp_path):
    """A snapshot after N games is the network a run of the first N games gives (steps are
    seeded by their place in the schedule), saved after the step that reaches each multiple."""
    out = tmp_path / "net.json"
    one_stage = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage",
                 "120:0.1", "--round-games", "40", "--chunk-games", "15", "--seed", "3"]
    assert td.main([*one_stage, "--out", str(out), "--snapshot-every", "40",
                    "--no-progress"]) == 0
    assert sorted(p.name for p in tmp_path.glob("net.g*.json")) == [
        "net.g120.json", "net.g40.json", "net.g80.json"]
    shorter = tmp_path / "short.json"
    assert td.main([*[a.replace("120:", "80:") for a in one_stage], "--out", str(shorter),
                    "--no-progress"]) == 0
    np.testing.assert_array_equal(genome_of(tmp_path / "net.g80.json"), genome_of(shorter))
    np.testing.assert_array_equal(genome_of(tmp_path / "net.g120.json"), genome_of(out))
    assert json.loads((tmp_path / "net.g80.json").read_text())["metadata"]["td"]["games"] == 80


def test_a_step_rule_is_used_and_recorded(tmp_path):
    args = ["--game", "othello", "--settings", json.dumps(SETTINGS), "--stage", "200:0.1",
            "--round-games", "50", "--seed", "2", "--no-progress"]
    plain, tcl = tmp_path / "plain.json", tmp_path / "tcl.json"
    assert td.main([*args, "--out", str(plain)]) == 0
    assert td.main([*args, "--step-rule", "tcl", "--phase-share", "0.25", "--out",
                    str(tcl)]) == 0
    assert not np.array_equal(genome_of(plain), genome_of(tcl))
    meta = json.loads(tcl.read_text())["metadata"]["td"]
    assert (meta["step_rule"], meta["phase_share"]) == ("tcl", 0.25)
    assert "step_rule" not in json.loads(plain.read_text())["metadata"]["td"]


def test_a_workers_error_is_its_own_first_line():
    """Ray wraps a worker's exception with its own header first; the CLI prints the cause."""
    from ray.exceptions import RayTaskError

    from evolve.errors import first_line

    wrapped = RayTaskError("GameWorker.play", "Traceback (most recent call last): ...",
                           ValueError("TD opponent 'x': not found\nmore")).as_instanceof_cause()
    assert isinstance(wrapped, ValueError) and not str(wrapped).startswith("TD opponent")
    assert first_line(wrapped) == "TD opponent 'x': not found"
    assert first_line(OSError("disk full\nmore")) == "disk full"
    assert first_line(ValueError("\n  \nbad value")) == "bad value"
    assert first_line(ValueError()) == "ValueError"


def test_an_online_checkpoint_holds_the_genome_once_and_a_finished_run_leaves_nothing(
        tmp_path):
    from evolve.td_checkpoint import Progress, temporary_checkpoint, write_checkpoint
    from evolve.td_training import Schedule

    schedule = Schedule("othello", "{}", ((10, 0.1),), 1, 0.1)
    genome, path = np.arange(5.0), tmp_path / "c.npz"
    write_checkpoint(path, schedule, genome, genome, Progress(1, 10, 0.5))
    with np.load(path) as z:
        assert z["snapshot"].size == 0  # online: the snapshot is the genome
    back, snapshot, done = read_checkpoint(path, schedule)
    np.testing.assert_array_equal(snapshot, genome)
    np.testing.assert_array_equal(back, genome)
    assert snapshot is not back and done.games == 10
    write_checkpoint(path, schedule, genome, genome + 1, Progress(1, 10, 0.5))  # rounds
    np.testing.assert_array_equal(read_checkpoint(path, schedule)[1], genome + 1)
    # a kill in the middle of a write leaves the temporary file: a finished run removes it
    out = tmp_path / "net.json"
    torn = temporary_checkpoint(tmp_path / "net.json.checkpoint.npz")
    torn.write_bytes(b"torn")
    assert td.main([*ROUNDS, "--out", str(out), "--no-progress"]) == 0
    assert out.exists() and not torn.exists()
    assert not (tmp_path / "net.json.checkpoint.npz").exists()
