"""``python -m evolve [overrides]``: a thin Hydra entry point around ``evolve.run``."""

from __future__ import annotations

import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig

from evolve.config import ConfigError

CONF_DIR = str(Path(__file__).resolve().parent.parent / "conf")


@hydra.main(config_path=CONF_DIR, config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> None:
    from evolve.run import run

    try:
        result = run(cfg)
    except ConfigError as exc:
        # SystemExit passes through Hydra's error handler, so the user sees one line only
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"champion: {result.run_dir / 'champion.json'}")


if __name__ == "__main__":
    main()
