"""Atomic writes under injected failures: the old save stays intact, no temp files are left."""

from __future__ import annotations

import os

import pytest

from game.roseking.saves import GameMeta, read_record
from game.saves import SaveStore, atomic_write_text


def _store_with_a_save(game):
    store = SaveStore()
    meta = GameMeta.new("local")
    old = game(21, upto=10)
    path = store.autosave(old, meta)
    return store, meta, old, path


@pytest.mark.parametrize("target", ["replace", "fsync", "write"])
def test_failure_before_the_rename_keeps_the_old_save(monkeypatch, game, target):
    store, meta, old, path = _store_with_a_save(game)
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if target == "write":  # the disk fills up while writing the temporary file
        real_fdopen = os.fdopen

        class FullDisk:
            def __init__(self, f):
                self.f = f
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                self.f.close()
            def write(self, data):
                self.f.write(data[: len(data) // 2])
                boom()

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: FullDisk(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(os, target, boom)
    with pytest.raises(OSError, match="No space left"):
        store.autosave(game(21, upto=11), meta)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert read_record(path).replay() == old
    assert sorted(p.name for p in store.folder.iterdir()) == [path.name]  # no temp litter
    assert store.list()[0].plies == 10


def test_failure_after_the_rename_leaves_the_new_save(monkeypatch, game):
    """If only the folder's fsync fails, the rename happened: the new file is complete."""
    store, meta, _old, path = _store_with_a_save(game)
    real_fsync = os.fsync
    calls = []

    def fsync_folder_fails(fd):
        calls.append(fd)
        if len(calls) == 2:  # the first fsync is the file's, the second the folder's
            raise OSError(5, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_folder_fails)
    with pytest.raises(OSError):
        store.autosave(game(21, upto=11), meta)
    monkeypatch.undo()
    assert read_record(path).replay() == game(21, upto=11)
    assert sorted(p.name for p in store.folder.iterdir()) == [path.name]


def test_atomic_write_replaces_the_whole_file(tmp_path):
    path = tmp_path / "f.json"
    atomic_write_text(path, "x" * 10_000)
    atomic_write_text(path, "short ü")
    assert path.read_text("utf-8") == "short ü"
    assert os.listdir(tmp_path) == ["f.json"]


def test_a_write_into_a_missing_folder_fails_cleanly(tmp_path):
    with pytest.raises(FileNotFoundError):
        atomic_write_text(tmp_path / "nope" / "f.json", "{}")
    assert os.listdir(tmp_path) == []


def test_stale_temp_files_of_a_killed_writer_are_cleaned_by_the_list(game):
    store = SaveStore()
    meta = GameMeta.new()
    store.autosave(game(1, upto=2), meta)
    stale = store.folder / f".{meta.game_id}.json.abc123.tmp"
    fresh = store.folder / f".{meta.game_id}.json.def456.tmp"
    stale.write_text('{"format": "rose-ki')
    fresh.write_text('{"format": "rose-ki')
    os.utime(stale, (1, 1))
    assert [e.game_id for e in store.list()] == [meta.game_id]
    assert not stale.exists() and fresh.exists()  # a fresh one may belong to a running writer


def test_a_new_file_gets_the_usual_permissions_not_0600(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "shared.json", "{}")
    finally:
        os.umask(old)
    assert (tmp_path / "shared.json").stat().st_mode & 0o777 == 0o644
