"""``rose-king join`` of a host whose hello names a game this program does not know, and the
record of a Rose King LAN match that ended before its deal (``rose-king-lan-undealt``), which
``rose-king check`` reads and a headless host checks as its last line. Bounded by timeouts."""

from __future__ import annotations

import json
import socket
import threading

import game.roseking.lan.match as rkm
from game.commands.check import check_file
from game.registry import game_by_key
from net.lobby import hello

from .rk_wire import LIMIT, Mallory, frame
from .test_rk_layer_faults import closing  # noqa: F401  (the fixture)

check = game_by_key("rose-king").check


# =========================================================================== a hello of an unknown game
def test_join_of_a_host_of_an_unknown_game_says_so_without_a_traceback(procs):
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        server.settimeout(LIMIT)

        def fake_host() -> None:
            s, _ = server.accept()
            with s:
                s.sendall(frame(hello("chess", 1, "Alice", "host", b"\x01" * 16, b"\x02" * 16, b"\x03" * 32)))
                try:
                    while s.recv(65536):
                        pass
                except OSError:
                    pass
        t = threading.Thread(target=fake_host, daemon=True)
        t.start()
        p = procs("join", f"127.0.0.1:{port}", "--headless", "--ai", "random", "--timeout", "5")
        assert p.finish() == 1
        t.join(LIMIT)
    out = "\n".join(p.lines)
    assert "unknown game" in out and "'chess'" in out and "Traceback" not in out and "KeyError" not in out


# =========================================================================== the record of an undealt match
def test_check_reads_the_record_of_a_match_that_ended_before_the_deal(tmp_path):
    from net.match import Verdict
    from .rk_wire import table
    for v, line in [(None, "ok undealt result=none"), (Verdict("coin", 1), "ok undealt result=coin seat=1"),
                    (Verdict("forfeit", 0), "ok undealt result=forfeit seat=0"),
                    (Verdict("left", 0), "ok undealt result=left seat=0")]:
        m = rkm.RoseKingMatch(1, table(), lambda n: b"\x01" * n)
        if v is not None:
            m.end(v, 0.0)
        rec = m.record()
        assert rec["format"] == rkm.UNDEALT and check(rec) == line
        path = tmp_path / "r.json"
        path.write_text(json.dumps(rec, indent=1) + "\n")
        assert check_file(str(path)) == (True, f"{path}: {line}")
    good = m.record()
    bad = [({**good, "moves": []}, "its keys"), ({**good, "names": ["Ann"]}, '"names"'),
           ({**good, "lan": {**good["lan"], "host": "red"}}, '"lan"'),
           ({**good, "lan": {**good["lan"], "game": "zz" * 16}}, '"lan"'),
           ({**good, "result": {"kind": "won", "seat": 0}}, '"result"'),
           ({**good, "result": {"kind": "coin", "seat": 1}}, "disagree"),
           ({**good, "result": None}, "disagree")]
    for rec, words in bad:
        path.write_text(json.dumps(rec))
        ok, line = check_file(str(path))
        assert not ok and line.startswith(f"{path}: error: ") and words in line, line


def test_a_headless_host_whose_match_ends_before_the_deal_checks_its_record(procs, tmp_path, closing):
    """Mallory echoes the host's set-up commitment (``coin``, before any deal): the host's last
    lines say where the record is and that it checks, never a refusal."""
    host = procs("host", "--port", "0", "--bind", "127.0.0.1", "--name", "Alice", "--headless", "--ai", "random",
                     "--record", str(tmp_path / "h.json"), "--timeout", str(LIMIT))
    port = int(host.expect("listening on port").rsplit(" ", 1)[1])
    m = Mallory(port, hold=("commit", "reveal"))
    closing(m)
    m.until(lambda: any(x["t"] == "commit" for x in m.got), "the host's commitment", play=False)
    m.send({"t": "commit", "for": -1, "c": next(x for x in m.got if x["t"] == "commit")["c"]})
    assert host.finish() == 1
    assert host.lines[-1].endswith("record: ok undealt result=coin seat=1"), host.lines
    assert check_file(str(tmp_path / "h.json"))[0]
