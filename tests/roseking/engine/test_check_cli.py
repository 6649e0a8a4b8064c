"""`rose-king check FILE...`: one line per file, exit status, never a traceback."""

import json
import os
import subprocess
import sys

from game.cli import main
from game.roseking.engine import Record

from .helpers import random_game


def write(tmp_path, name, content):
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(p)


def test_ok_lines_and_exit_zero(tmp_path, capsys):
    done = random_game(21)
    part = random_game(22, upto=20)
    a = write(tmp_path, "done.json", Record.from_state(done).to_json())
    b = write(tmp_path, "part.json", Record.from_state(part).to_json())
    assert main(["check", a, b]) == 0
    out = capsys.readouterr().out.splitlines()
    o = done.outcome()
    winner = "draw" if o.winner is None else str(o.winner)
    assert out[0] == f"{a}: ok finished red={o.red_score} white={o.white_score} winner={winner} plies={done.ply}"
    rs, ws = part.scores()
    assert out[1] == f"{b}: ok in-progress red={rs} white={ws} to-move={part.turn} plies=20"


def test_errors_and_exit_one(tmp_path, capsys):
    good = write(tmp_path, "good.json", Record.from_state(random_game(3, upto=4)).to_json())
    d = json.loads(Record.from_state(random_game(3, upto=0)).to_json())
    bad_move = write(tmp_path, "bad_move.json", json.dumps({**d, "moves": ["white play N3"]}))
    junk = write(tmp_path, "junk.json", b"\x00\x01garbage")
    missing = str(tmp_path / "missing.json")
    assert main(["check", good, bad_move, junk, missing]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{good}: ok in-progress")
    assert out[1] == f'{bad_move}: error move 1 "white play N3": wrong player to move: it is red\'s turn'
    assert out[2].startswith(f"{junk}: error: not a record")
    assert out[3].startswith(f"{missing}: error: cannot read the file")
    assert len(out) == 4


def test_no_traceback_from_the_real_command(tmp_path):
    files = [write(tmp_path, "a.json", b"[" * 200_000), write(tmp_path, "b.json", b"{\"format\": 1}"),
             write(tmp_path, "c.json", b"\xff\xfe\xfd")]
    os.mkdir(tmp_path / "dir.json")
    files.append(str(tmp_path / "dir.json"))
    r = subprocess.run([sys.executable, "-m", "game.cli", "check", *files], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    assert len(r.stdout.splitlines()) == 4 and all(": error" in line for line in r.stdout.splitlines())


def test_usage_errors_are_argparse_messages(capsys):
    try:
        main(["check"])
    except SystemExit as e:
        assert e.code == 2
    assert "required" in capsys.readouterr().err
