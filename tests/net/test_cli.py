"""``rose-king host`` / ``rose-king join`` as real subprocesses on 127.0.0.1, including a
joiner killed mid-game and restarted from its record (resume). Bounded by timeouts;
synchronised on the lines the commands print, never on sleeps."""

import queue
import subprocess
import sys
import threading
import time


from game.roseking.engine import Record

LIMIT = 60.0


class Proc:
    """A ``rose-king`` subprocess whose stdout lines are read by a thread into a queue."""

    def __init__(self, *args: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "game.cli", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: list[str] = []
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.p.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def expect(self, text: str, timeout: float = LIMIT) -> str:
        """The first line containing ``text``; fails after ``timeout`` or at end of output."""
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._q.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {text!r} within {timeout} s; got {self.lines[-10:]}") from None
            if line is None:
                raise AssertionError(f"process ended without {text!r}; got {self.lines[-10:]}")
            self.lines.append(line)
            if text in line:
                return line

    def finish(self, timeout: float = LIMIT) -> int:
        rc = self.p.wait(timeout)
        while True:
            try:
                line = self._q.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
        return rc

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(10)


def start_host(procs, record, *extra):
    host = procs("host", "--port", "0", "--bind", "127.0.0.1", "--name", "Alice", "--headless", "--ai", "greedy",
                 "--record", str(record), "--timeout", str(LIMIT), *extra)
    port = int(host.expect("listening on port").rsplit(" ", 1)[1])
    return host, port


def test_headless_host_and_join_play_a_game_with_identical_records(procs, tmp_path):
    host, port = start_host(procs, tmp_path / "h.json")
    join = procs("join", f"127.0.0.1:{port}", "--name", "Bob", "--headless", "--ai", "random",
                 "--record", str(tmp_path / "j.json"), "--timeout", str(LIMIT))
    assert join.finish() == 0 and host.finish() == 0, "\n".join(host.lines + join.lines)
    h, j = (tmp_path / "h.json").read_text(), (tmp_path / "j.json").read_text()
    assert h == j
    state = Record.from_json(h).replay()
    assert state.is_game_over()
    final = [line for line in host.lines if "record: ok finished" in line]
    assert final and final[0].split("record:")[1] == [x for x in join.lines if "record: " in x][0].split(
        "record:")[1]
    assert f"plies={state.ply}" in final[0] and any("match over: finished" in x for x in host.lines)
    # the joiner learnt the game from the host's hello on the connection it then played on: one connection
    assert not any("refused" in line for line in host.lines), host.lines


def test_a_joiner_killed_mid_game_resumes_from_its_record(procs, tmp_path):
    host, port = start_host(procs, tmp_path / "h.json", "--move-delay", "0.01")
    jrec = tmp_path / "j.json"
    args = (f"127.0.0.1:{port}", "--name", "Bob", "--headless", "--ai", "random", "--record", str(jrec),
            "--timeout", str(LIMIT), "--verbose", "--move-delay", "0.01")
    join = procs("join", *args)
    join.expect("'ply': 12,")
    join.kill()  # SIGKILL: no goodbye, the socket is torn down by the kernel
    host.expect("connection closed")
    journal = Record.load(jrec)
    assert 1 <= len(journal.moves) and journal.result is None
    again = procs("join", *args)
    assert again.expect("resumed:").endswith("you are seat 1")
    assert again.finish() == 0 and host.finish() == 0, host.lines + again.lines
    assert (tmp_path / "h.json").read_text() == jrec.read_text()
    assert Record.load(jrec).replay().is_game_over()


def test_option_errors_are_clear(procs):
    p = procs("join", "127.0.0.1:notaport")
    assert p.finish() == 2 and any("bad port" in x for x in p.lines)
    p = procs("host", "--headless")
    assert p.finish() == 2 and any("--headless and --ai" in x for x in p.lines)


def test_join_gives_up_cleanly_when_nobody_hosts(procs, tmp_path):
    import socket
    with socket.socket() as s:  # a port that is free now and nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = procs("join", f"127.0.0.1:{port}", "--headless", "--ai", "random", "--timeout", "1")
    assert p.finish() == 1
    assert any(f"nobody answered at 127.0.0.1:{port} within 1 seconds" in x for x in p.lines)  # never a guessed game


def test_a_strangers_bad_hello_never_ends_a_headless_host(procs, tmp_path):
    """Issue 14 #5: junk, a wrong version and a bare hello from strangers, before and during
    the game; the host waits on and plays the real joiner's game to the end."""
    import socket

    host, port = start_host(procs, tmp_path / "h.json", "--move-delay", "0.01")

    def stranger(data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as s:
            s.sendall(data)
            got = b""
            while chunk := s.recv(65536):
                got += chunk
            return got
    import msgpack
    assert b"frame" in stranger(b"GET / HTTP/1.1\r\n\r\n")
    assert b"frame" in stranger(b"\x00\x00\x00\x01\xc1")
    join = procs("join", f"127.0.0.1:{port}", "--name", "Bob", "--headless", "--ai", "random",
                 "--record", str(tmp_path / "j.json"), "--timeout", str(LIMIT), "--verbose", "--move-delay", "0.01")
    join.expect("'ply': 3,")
    # an older program's hello (version 2) and a newer one's: each told which side needs a newer version
    old = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 2, "name": "Eve", "role": "join"})
    assert b"the peer needs a newer version" in stranger(len(old).to_bytes(4, "big") + old)
    future = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 99, "name": "Eve"})
    assert b"this table needs a newer version" in stranger(len(future).to_bytes(4, "big") + future)
    assert join.finish() == 0 and host.finish() == 0, host.lines + join.lines
    assert (tmp_path / "h.json").read_text() == (tmp_path / "j.json").read_text()
    assert any("refused" in line for line in host.lines)


def test_host_colour_option_makes_the_host_play_that_colour(procs, tmp_path):
    host, port = start_host(procs, tmp_path / "h.json", "--colour", "white", "--move-delay", "0.01")
    join = procs("join", f"127.0.0.1:{port}", "--name", "Bob", "--headless", "--ai", "random",
                 "--record", str(tmp_path / "j.json"), "--timeout", str(LIMIT), "--move-delay", "0.01")
    assert join.finish() == 0 and host.finish() == 0, host.lines + join.lines
    rec = Record.load(tmp_path / "j.json")
    assert (rec.white, rec.red) == ("Alice", "Bob") and rec.extra["lan"]["host"] == "white"
    p = procs("host", "--colour", "blue", "--headless", "--ai", "greedy")
    assert p.finish() == 2
