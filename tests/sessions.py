"""The processes a test started in a session of their own (``start_new_session=True``), such as
``ray start --head --block`` and the daemons it forks: found and stopped exactly, so a test
never stops another run's Ray (no ``ray stop``, no ``pkill``)."""

from __future__ import annotations

import contextlib
import os


def session_processes(leader: int) -> list:
    """Every live process of the session ``leader`` started (its daemons included)."""
    import psutil

    found = []
    for p in psutil.process_iter():
        with contextlib.suppress(ProcessLookupError, psutil.Error):
            if os.getsid(p.pid) == leader:
                found.append(p)
    return found


def stop_session(leader: int) -> None:
    """Stop exactly the processes of one session: TERM, then KILL what is left after 15 s."""
    import psutil

    processes = session_processes(leader)
    for p in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.terminate()
    _, alive = psutil.wait_procs(processes, timeout=15)
    for p in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()
    psutil.wait_procs(alive, timeout=5)
