"""Hostile files: a save, record or settings file never stops the game or crashes a listing.
Each hostile file gets the same one-line reason in ``rose-king check``, in ``replay --text``
and as a "cannot be read" row of the saved-games list; reading is bounded before parsing."""

import contextlib
import io
import json
import os
import subprocess
import sys

import pytest

from game.cli import main
from game.commands.check import check_file
from game.saves import SaveStore

GOOD = {"format": "rose-king-record", "version": 1, "red": "Ann", "white": "Bob",
        "deal": {"red": ["N1", "N2", "N3", "NE1", "NE2"], "white": ["E1", "E2", "E3", "SE1", "SE2"]},
        "moves": []}


def make(kind: str, path) -> str:
    """Write a hostile file of ``kind`` at ``path``; return the reason every reader must give."""
    if kind == "digits":
        path.write_text('{"format": "rose-king-record", "version": 1' + "1" * 5000 + "}")
        return "not a record: a number with too many digits"
    if kind == "digits-in-moves":
        path.write_text(json.dumps({**GOOD, "moves": []})[:-1] + ', "x": ' + "9" * 4000 + "}")
        return "not a record: a number with too many digits"
    if kind == "fifo":
        os.mkfifo(path)
        return "not a record: not a regular file"
    if kind == "huge":
        with open(path, "wb") as f:
            f.write(b'{"format": "rose-king-record", "moves": ["' + b"x" * (30 * 1024 * 1024) + b'"]}')
        return "not a record: the file is too large (more than 1024 KiB)"
    if kind == "long-name":
        path.write_text(json.dumps({**GOOD, "red": "R" * 500_000}))
        return 'bad "red": longer than 100 characters'
    raise AssertionError(kind)


def replay_text_error(path) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["replay", "--text", str(path)]) == 1
    return err.getvalue()


@pytest.mark.parametrize("kind", ["digits", "digits-in-moves", "fifo", "huge", "long-name"])
def test_a_hostile_file_gets_the_same_one_line_reason_everywhere(kind, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    store = SaveStore(tmp_path / "saves")
    store.folder.mkdir(parents=True)
    path = store.folder / f"{kind}.json"
    reason = make(kind, path)
    ok, line = check_file(str(path))
    assert not ok and line.endswith(reason) and "\n" not in line
    out = replay_text_error(path)
    assert out.count("\n") == 1 and out.rstrip("\n").endswith(reason)
    (entry,) = store.list()
    assert not entry.ok and entry.error.endswith(reason) and "\n" not in entry.error


def test_a_500000_character_path_is_one_short_line(tmp_path):
    path = str(tmp_path / ("n" * 500_000 + ".json"))
    ok, line = check_file(path)
    assert not ok and "File name too long" in line and len(line) < 300 and "\n" not in line
    out = replay_text_error(path)
    assert "File name too long" in out and len(out) < 300 and out.count("\n") == 1


def test_check_output_cut_by_head_prints_no_traceback(tmp_path):
    files = []
    for i in range(200):
        p = tmp_path / f"g{i}.json"
        p.write_text(json.dumps(GOOD))
        files.append(str(p))
    cmd = f"{sys.executable} -m game.cli check {' '.join(files)} | head -1"
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert r.stdout.count("\n") == 1 and "ok in-progress" in r.stdout
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


@pytest.mark.parametrize("where, why", [("missing/sub/rec.json", "does not exist"), ("dir", "not a regular file")])
def test_record_in_a_missing_folder_fails_at_start(where, why, tmp_path):
    (tmp_path / "dir").mkdir()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["host", "--port", "0", "--bind", "127.0.0.1", "--headless", "--ai", "random",
                   "--record", str(tmp_path / where)])
    assert rc == 2 and why in err.getvalue() and err.getvalue().count("\n") == 1


def test_record_in_an_unwritable_folder_fails_at_start(tmp_path, monkeypatch):
    from game import lan
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    assert "not writable" in lan.check_record_path(str(tmp_path / "r.json"))


def test_a_failed_write_during_play_is_reported(tmp_path):
    """The folder of --record disappears mid-game: a WriteFailed event names the file; the
    session then makes no promise it could not journal (it stops; the other side may resume
    it once the journal can be written again)."""
    import shutil
    import time

    from game.roseking.lan.match import LAN
    from net.session import Session, WriteFailed
    folder = tmp_path / "rec"
    folder.mkdir()
    host = Session(LAN, "host", "Alice", port=0, record=folder / "h.json")
    join = Session(LAN, "join", "Bob", port=host.port)
    try:
        end = time.monotonic() + 30
        def mover():
            return next((s for s in (host, join) if s.view(lambda m: LAN.turn(m, m.seat)) is not None), None)
        while mover() is None and time.monotonic() < end:
            host.wait(0.05)
        while folder.exists():  # (the session may be writing into it meanwhile)
            shutil.rmtree(folder, ignore_errors=True)
        state = mover().view(lambda m: LAN.turn(m, m.seat))
        mover = mover()
        mover.act(next(m for m in state.legal_moves() if m.kind.value != "draw"))
        seen: list = []
        while not any(isinstance(e, WriteFailed) for e in seen) and time.monotonic() < end:
            seen += host.wait(0.2)
        failed = next(e for e in seen if isinstance(e, WriteFailed))
        assert "h.json" in failed.path and failed.reason
        assert host.write_errors
    finally:
        host.close()
        join.close()


def test_a_fifo_or_huge_number_as_the_settings_file_does_not_block_the_start(tmp_path):
    from game.settings import load
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    loaded = load(fifo)  # returns at once with the defaults and a notice
    assert loaded.problems and "not a regular file" in str(loaded.problems)
    digits = tmp_path / "s2.json"
    digits.write_text('{"version": 1' + "1" * 5000 + "}")
    assert load(digits).problems


def test_a_resigned_lan_game_is_listed_as_finished(tmp_path):
    import json

    from game.roseking.lan.match import RESIGN
    from tests.net.rk_wire import Pair, chooser
    p = Pair()
    p.play([chooser(1), chooser(2)], plies=6)
    p.deliver()
    while True:  # the joiner resigns (never while its own draw is being decided)
        try:
            p.out(1, p.m[1].act(RESIGN, 0.0))
            break
        except ValueError:
            p.play([chooser(1), chooser(2)], plies=1)
    p.deliver()
    store = SaveStore(tmp_path / "saves")
    store.folder.mkdir(parents=True)
    (store.folder / "lan.json").write_text(json.dumps(p.m[1].record()))  # the resigner's copy
    (entry,) = store.list()
    rec = json.loads((store.folder / "lan.json").read_text())
    assert entry.ok and entry.status == "finished"
    assert rec["termination"] == {"kind": "resigned", "loser": str(p.m[1].color_of(1))}
