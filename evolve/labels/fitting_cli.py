"""What ``python -m evolve.fit`` does: read a dataset, fit the game's network to it
(``game.fit_network``), save the champion (``.json``: the game's champion file; ``.npz``: its
binary twin, for networks of millions of weights) with where it came from, and the report as
``OUT`` with ``.report.json``."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import shlex
import time
from pathlib import Path

from engine.core.capabilities import LABELS, export_formats, has
from engine.core.registry import default_game, game_names, get_game
from evolve.labels.dataset import MANIFEST, read_dataset, read_manifest

log = logging.getLogger("evolve.fit")
SUFFIXES = (".json", ".npz")


def game_of(name: str, settings_text: str):
    """The configured game, or ``ValueError`` naming ``--game`` / ``--settings``."""
    if name not in game_names():
        raise ValueError(f"--game {name!r}: allowed {', '.join(game_names())}")
    try:
        settings = json.loads(settings_text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--settings is not JSON: {exc}") from None
    if not isinstance(settings, dict):
        raise ValueError("--settings must be a JSON object, e.g. '{\"genome\": {\"kind\": "
                         "\"ntuple\", \"layout\": \"edax\"}}'")
    game = get_game(name, settings)
    if not has(game, LABELS):
        raise ValueError(f"--game {name}: fitting needs the labels capability")
    return game


def checked_out(game, out: Path) -> Path:
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"--out {out}: allowed a .json or .npz champion file")
    if suffix == ".npz" and "npz" not in {f.name for f in export_formats(game)}:  # reads .npz
        raise ValueError(f"--out {out}: {game.name} has no .npz champion file (use .json)")
    if not out.parent.is_dir():
        raise ValueError(f"--out {out}: folder {out.parent} does not exist")
    return out


def report_path(out: Path) -> Path:
    return out.with_name(out.stem + ".report.json")


def progress(it: int, of: int, residual, seconds: float) -> None:
    """A log line per CG pass: the pass, the largest relative residual of the phases, ETA (at
    most: a phase stops early once below the tolerance)."""
    left = seconds / it * (of - it)
    log.info("pass %d/%d: residual %.2e, %.1fs, ETA %s (at most)", it, of,
             float(residual.max(initial=0.0)), seconds, _duration(left))


def run(args, argv: list[str]) -> tuple[Path, dict]:
    folder = Path(args.dataset)
    made_for = read_manifest(folder).get("game")
    game = game_of(args.game or made_for or default_game(), args.settings)
    out = checked_out(game, Path(args.out))
    if args.limit is not None and args.limit < 1:
        raise ValueError(f"--limit {args.limit}: allowed an integer >= 1")
    if made_for not in (None, game.name):
        raise ValueError(f"{folder}: a dataset of {made_for}, not {game.name}")
    started = time.monotonic()
    data = read_dataset(folder, args.limit)
    digest = hashlib.sha256((folder / MANIFEST).read_bytes()).hexdigest()
    log.info("read %s positions from %s in %.1fs", f"{len(data):,}", folder,
             time.monotonic() - started)
    options = {"l2": args.l2, "holdout": args.holdout, "seed": args.seed,
               "iterations": args.iterations, "tolerance": args.tolerance,
               "min_count": args.min_count, "exact_only": args.exact_only,
               "scale": args.scale}
    log.info("fitting: the positions' weight indices, then at most %d passes", args.iterations)
    genome, report = game.fit_network(data.columns(), {**options, "progress": progress})
    metadata = {"fit": {"dataset": str(folder), "dataset_sha256": digest,
                        "positions": len(data), "options": options,
                        "command": "python -m evolve.fit " + shlex.join(argv)},
                "report": report}
    layout = game.settings().get("genome", {}).get("layout")
    name = args.name or (f"fitted {layout if isinstance(layout, str) else 'network'} "
                         f"({len(data):,} positions)")
    game.save_champion(out, genome, name, metadata)
    report_path(out).write_text(json.dumps(report, indent=1) + "\n")
    return out, report


def table(report: dict) -> str:
    """The per-phase error table (discs) a run prints."""
    lines = ["phase  discs    train  held-out  train RMSE  held-out RMSE  held-out MAE  "
             "RMSE of 0  passes"]
    rows = [(str(p["phase"]), f"{p['discs'][0]}-{p['discs'][1]}", p, str(p["iterations"]))
            for p in report["phases"]]
    rows.append(("all", "", report["overall"], ""))
    for phase, discs, r, its in rows:
        lines.append(f"{phase:>5}  {discs:>5}  {r['train_positions']:>7,}  "
                     f"{r['held_out_positions']:>8,}  {_f(r['train_rmse']):>10}  "
                     f"{_f(r['held_out_rmse']):>13}  {_f(r['held_out_mae']):>12}  "
                     f"{_f(r['held_out_rmse_of_zero']):>9}  {its:>6}")
    return "\n".join(lines)


def _f(x) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}h{rest // 60:02d}m" if h else f"{rest // 60}m{rest % 60:02d}s"
