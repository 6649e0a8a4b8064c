"""kill -9 in the middle of a game, then resume: the save is a valid prefix and play goes on."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.roseking.saves import load_game
from game.saves import SaveStore

_CHILD = Path(__file__).with_name("autosave_child.py")
_spec = importlib.util.spec_from_file_location("autosave_child", _CHILD)
child = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(child)


@pytest.mark.parametrize("seed, kill_after", [(40, 1), (41, 17), (42, 45)])
def test_kill_9_then_resume(seed, kill_after, data_dir):
    uninterrupted = child.play_on(*child.new_game(seed), seed)
    assert uninterrupted.ply > kill_after

    proc = subprocess.Popen([sys.executable, str(_CHILD), str(seed)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "ROSE_KING_DATA_DIR": str(data_dir)})
    watchdog = threading.Timer(60, proc.kill)  # bounds the test if the child hangs
    watchdog.start()
    try:
        seen = 0
        while seen < kill_after:
            line = proc.stdout.readline()
            assert line, f"child died early: {proc.stderr.read()}"
            if line.startswith("saved "):
                seen = int(line.split()[1])
        os.kill(proc.pid, signal.SIGKILL)  # while it is busy writing the next saves
        proc.wait()
    finally:
        watchdog.cancel()
        proc.stdout.close()
        proc.stderr.close()
        proc.stdin.close()
    assert proc.returncode == -signal.SIGKILL

    store = SaveStore()
    entry = store.resumable()
    assert entry is not None and entry.game_id == "killtest" and entry.ok
    leftovers = [p.name for p in store.folder.iterdir() if p.name != "killtest.json"]
    assert all(name.startswith(".killtest.json.") and name.endswith(".tmp") for name in leftovers)
    state, meta = load_game(store.path_for("killtest"))
    assert kill_after <= state.ply <= uninterrupted.ply
    assert state.move_stack == uninterrupted.move_stack[:state.ply]  # a valid prefix of the game

    finished = child.play_on(state, meta, seed, store)  # resume and play on, autosaving
    assert finished == uninterrupted  # same moves, same drawn cards, same final position
    assert store.resumable() is None
    (done,) = [e for e in store.list() if e.game_id == "killtest"]
    assert done.status == "finished" and done.result == uninterrupted.outcome().result()
