"""``parsed_once``: a file is read once per process while its bytes stay the same, callers get
their own copies, and errors are never kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.file_cache import parsed_once


def counting_reader():
    calls = []

    def read(path):
        calls.append(path)
        return json.loads(Path(path).read_text(encoding="utf-8"))

    return read, calls


def test_a_file_is_read_again_only_when_its_bytes_change(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"w": [1, 2]}')
    read, calls = counting_reader()
    first = parsed_once(path, read)
    first["w"].append(3)  # a caller's change never reaches the next caller
    assert parsed_once(str(path), read) == {"w": [1, 2]} and len(calls) == 1
    path.write_text('{"w": [1, 5]}')  # same size, other bytes
    assert parsed_once(path, read) == {"w": [1, 5]} and len(calls) == 2
    other, other_calls = counting_reader()  # another reader parses for itself
    assert parsed_once(path, other) == {"w": [1, 5]} and len(other_calls) == 1


def test_errors_are_raised_every_time(tmp_path):
    path = tmp_path / "b.json"
    read, calls = counting_reader()
    for _ in range(2):
        with pytest.raises(OSError):
            parsed_once(path, read)
    path.write_text("{broken")
    for _ in range(2):
        with pytest.raises(json.JSONDecodeError):
            parsed_once(path, read)
    assert len(calls) == 4
