"""The steps of ``experiments.learning.from_search``, each a recorded child process whose outputs
say when it is done: label a round's positions (``python -m evolve.label``), fit a network
(``python -m evolve.fit``), measure it against the anchors (``python -m evolve.evaluate``).

A step writes its record (``<step>.record.json``: the command, CPU and wall seconds, and what a
later run must match) only once its outputs are whole, so a run killed in a step does that step
again on the next start (the label CLI itself continues its dataset with ``--resume``).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from evolve.labels.dataset import MANIFEST, read_manifest, write_manifest
from experiments.common import evaluate, rel
from experiments.stamp import ROOT

CHAMPIONS = "experiments/results/champions"


@dataclass(frozen=True)
class Setup:
    """A game's start and yardstick: the round-0 champion, the 1-ply protocol of every anchor
    match (``evolve.evaluate`` options) and the fixed anchors besides the round-0 champion."""

    champion: str
    protocol: tuple[str, ...]
    anchors: tuple[str, ...]


SETUPS = {
    # the Othello League protocol; the League's WPC, the course matrix, our GA and CMA-ES League
    # champions (WPC per phase) and the small Co-CMA-ES 4+2x2 network: players no label came from
    "othello": Setup(f"{CHAMPIONS}/othello_ntuple.json",
                     ("--depth", "1", "--epsilon", "0.1", "--endgame-empties", "0"),
                     ("wpc1", "course", f"{CHAMPIONS}/othello_league.json",
                      "experiments/runs/othello_1ply_cmaes/champion.json",
                      "experiments/runs/othello_cocmaes/champion.json")),
    "reversed_reversi": Setup(f"{CHAMPIONS}/reversed_reversi_ntuple.json",
                              ("--depth", "1", "--endgame-empties", "3"),
                              ("wpc_negated", "course", f"{CHAMPIONS}/reversed_reversi_1ply.json",
                               "experiments/runs/reversed_reversi_1ply_cmaes/champion.json")),
}


def read_record(path: Path, commands: list[str], key: dict | None = None) -> dict | None:
    """A step's record if it exists (and was made with ``key``), its command appended to
    ``commands``; else None."""
    if not path.is_file():
        return None
    record = json.loads(path.read_text())
    if key is not None and record.get("key") != key:
        return None
    commands.append(record["command"])
    return record


def write_record(path: Path, record: dict) -> dict:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(tmp, path)
    return record


def run_child(cmd: list[str], log_path: Path, commands: list[str]) -> dict:
    """Run ``cmd`` (``python`` is this interpreter) from the repository root, its output
    appended to ``log_path``; its CPU seconds (user + system, with the children it reaped) and
    wall seconds. A failure raises ``RuntimeError`` with the log's last line."""
    commands.append(shlex.join(cmd))
    argv = [sys.executable, *cmd[1:]] if cmd[0] == "python" else cmd
    started = time.monotonic()
    with open(log_path, "a") as log:
        log.write(f"$ {shlex.join(cmd)}\n")
        log.flush()
        child = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - started
    if child.returncode != 0:
        last = log_path.read_text().strip().splitlines()[-1:]
        raise RuntimeError(f"{cmd[2]} failed ({child.returncode}): {' '.join(last)} "
                           f"(see {log_path})")
    return {"cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
            "wall_seconds": round(wall, 2)}


def task_cpu_seconds(log_text: str) -> float:
    """The labelling tasks' CPU-seconds that the label CLI logs per batch (``...; 2.9 CPU-s)``):
    on Ray, the workers' labelling, which the label process's own CPU does not include."""
    return sum(float(x) for x in re.findall(r"; ([0-9.]+) CPU-s\)", log_text))


def label(game: str, champion: str | None, folder: Path, label_options: list[str],
          commands: list[str]) -> dict:
    """Round's dataset in ``folder`` (continued if a run stopped in it), searched by
    ``champion`` (None: the game's reference evaluation); its record."""
    done = read_record(folder.parent / "label.record.json", commands)
    if done is not None:
        return done
    cmd = ["python", "-m", "evolve.label", "--game", game,
           *(["--champion", champion] if champion else []), *label_options, "--out", rel(folder)]
    resumed = (folder / MANIFEST).is_file()
    log_path = folder.parent / "label.log"
    before = log_path.stat().st_size if log_path.is_file() else 0
    cost = run_child(cmd + ["--resume"] * resumed, log_path, commands)
    tasks = task_cpu_seconds(log_path.read_bytes()[before:].decode(errors="replace"))
    if "ray" in label_options:  # the workers are no children of the label process
        cost["cpu_seconds"] = round(cost["cpu_seconds"] + tasks, 2)
    manifest = read_manifest(folder)
    return write_record(folder.parent / "label.record.json",
                        {"command": commands[-1], "resumed": resumed, **cost,
                         "labelling_task_cpu_seconds": round(tasks, 2),
                         "positions": manifest["positions"],
                         "search_scale": manifest.get("search_scale")})


def union(folders: list[Path], out: Path) -> Path:
    """A dataset folder listing every batch of ``folders`` in order (links to their files), for
    a fit on all rounds' positions; the manifest of the last folder otherwise."""
    out.mkdir(parents=True, exist_ok=True)
    batches = []
    for r, folder in enumerate(folders):
        for entry in read_manifest(folder)["batches"]:
            name = f"r{r + 1:02d}-{entry['file']}"
            link = out / name
            if not link.is_symlink():
                link.symlink_to(os.path.relpath(folder / entry["file"], out))
            batches.append({**entry, "index": len(batches), "file": name})
    manifest = read_manifest(folders[-1])
    manifest.update(batches=batches, positions=sum(b["positions"] for b in batches),
                    union_of=[rel(f) for f in folders])
    write_manifest(out, manifest)
    return out


def fit(game: str, data: Path, out: Path, settings: dict, fit_options: list[str],
        commands: list[str]) -> dict:
    """The network fitted to ``data`` as ``out``; its record (with the held-out error)."""
    record_path = out.with_name("fit.record.json")
    done = read_record(record_path, commands) if out.is_file() else None
    if done is not None:
        return done
    cmd = ["python", "-m", "evolve.fit", rel(data), "--game", game, "--settings",
           json.dumps(settings, separators=(",", ":")), "--out", rel(out), *fit_options]
    cost = run_child(cmd, out.with_name("fit.log"), commands)
    report = json.loads(out.with_name(out.stem + ".report.json").read_text())
    overall = report["overall"]
    return write_record(record_path, {
        "command": commands[-1], **cost, "positions": read_manifest(data)["positions"],
        "train_rmse": overall.get("train_rmse"), "held_out_rmse": overall.get("held_out_rmse"),
        "held_out_rmse_of_zero": overall.get("held_out_rmse_of_zero")})


def measure(player: str, opponents: list[str], search: list[str], games: int, seed: int,
            out: Path, commands: list[str], backend: tuple[str, ...] = ("--backend", "serial")
            ) -> dict:
    """``player`` against ``opponents`` (colour-swapped seeded openings, ``evolve.evaluate``);
    the record holds each match (score, Elo and their 95% intervals)."""
    record_path = out.with_name(out.stem + ".record.json")
    key = {"player": player, "opponents": opponents, "search": search, "games": games,
           "seed": seed}
    done = read_record(record_path, commands, key)
    if done is not None:
        return done
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = evaluate([player, "--vs", *opponents, *search, "--games", games, "--seed", seed,
                       *backend, "--no-progress"], out, log=commands)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    keep = ("opponent", "games", "wins", "draws", "losses", "score", "score_ci95", "elo",
            "elo_ci95")
    return write_record(record_path, {
        "key": key, "command": result.command,
        "cpu_seconds": round(after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime, 2),
        "wall_seconds": round(time.monotonic() - started, 2),
        "matches": [{k: m[k] for k in keep} for m in result.data["matches"]]})
