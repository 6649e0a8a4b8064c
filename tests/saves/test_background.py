"""The background autosaver: writes off the caller's thread, newest wins, errors reported."""

from __future__ import annotations

import os
import threading

import pytest

from game.roseking.saves import GameMeta, read_record
from game.saves import BackgroundAutosaver, SaveStore


def test_every_submitted_game_ends_on_disk_with_its_newest_state(game):
    store = SaveStore()
    saver = BackgroundAutosaver(store)
    metas = [GameMeta.new(), GameMeta.new()]
    for ply in range(0, 30):
        for i, meta in enumerate(metas):
            saver.submit(game(51 + i, upto=ply), meta)
    assert saver.close()
    assert saver.error is None
    for meta in metas:
        assert len(read_record(store.path_for(meta.game_id)).moves) == 29
    with pytest.raises(RuntimeError, match="closed"):
        saver.submit(game(51), metas[0])


def test_a_slow_disk_coalesces_to_the_newest_save(game, monkeypatch):
    store = SaveStore()
    gate = threading.Event()
    writes = []
    real_write = store.write

    def slow_write(game_id, text):
        gate.wait(10)
        writes.append(text)
        return real_write(game_id, text)

    monkeypatch.setattr(store, "write", slow_write)
    saver = BackgroundAutosaver(store)
    meta = GameMeta.new()
    for ply in range(1, 11):
        saver.submit(game(53, upto=ply), meta)
    gate.set()
    assert saver.close()
    assert len(writes) <= 3  # the worker skipped the stale states
    assert len(read_record(store.path_for(meta.game_id)).moves) == 10


def test_a_failed_write_is_reported_and_the_old_save_kept(game, monkeypatch):
    store = SaveStore()
    meta = GameMeta.new()
    store.autosave(game(54, upto=5), meta)
    saver = BackgroundAutosaver(store)

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    saver.submit(game(54, upto=6), meta)
    assert saver.flush(10)
    assert isinstance(saver.error, OSError) and saver.error.errno == 28
    monkeypatch.undo()
    assert len(read_record(store.path_for(meta.game_id)).moves) == 5
    saver.submit(game(54, upto=7), meta)
    assert saver.close()
    assert saver.error is None and len(read_record(store.path_for(meta.game_id)).moves) == 7
