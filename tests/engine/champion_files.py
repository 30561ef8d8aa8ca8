"""What every game's champion files are held to, for each game's tests: a broken file is refused
in one line that names the file, and a committed file read and written again is the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import ChampionFileError


def refused(reader, path: Path, data: dict) -> str:
    """The error ``reader`` (a game) refuses ``data``, written as the JSON file ``path``, with:
    one line, naming the file."""
    path.write_text(json.dumps(data))
    with pytest.raises(ChampionFileError) as err:
        reader.load_champion(path)
    text = str(err.value)
    assert text.startswith(str(path)) and "\n" not in text
    return text


def assert_written_again_exactly(reader, committed: str, tmp_path: Path) -> None:
    """The committed champion file, read by ``reader`` (a game) and written again by the game
    of its settings, byte for byte."""
    champion = reader.load_champion(committed)
    out = tmp_path / "again.json"
    reader.with_settings(champion.settings).save_champion(out, champion.genome, champion.name,
                                                          champion.metadata)
    assert out.read_text() == Path(committed).read_text(encoding="utf-8")
