"""The plug-in contract (docs/architecture.md, "What a third game implements"): every game, its
window side and its LAN part have every member the shell reads (the type checker holds the same
through ``[tool.mypy] files``: the registry's list, ``tests/net/nim_game.py``'s typed
assignments), nothing registers itself by being imported, ``rose-king match`` names no game and
takes each game's own options, and the layer's stop words are written once for every game."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from game.registry import GAMES, Game
from net.match import LanPart, LanSpec

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_and_the_test_game_have_every_member_of_the_contract():
    from tests.net.nim_game import GAME as NIM_GAME
    from tests.net.nim_game import NIM
    for game in (*GAMES, NIM_GAME):
        assert isinstance(game, Game), game.key
        assert game.lan is None or isinstance(game.lan, LanPart), game.key
        assert game.lan is None or game.lan.key == game.key
    # the third game's LAN part is a class of its own: any object with the members will do
    assert NIM_GAME.lan is NIM and isinstance(NIM, LanPart) and not isinstance(NIM, LanSpec)
    assert not isinstance(object(), Game) and not isinstance(LanSpec, LanPart)


def test_every_games_window_side_has_every_member_of_its_contract():
    from game.client.games import CLIENT_GAMES, ClientGame
    from game.client.lan import LanClient
    assert [c.key for c in CLIENT_GAMES] == [g.key for g in GAMES]
    for client in CLIENT_GAMES:
        assert isinstance(client, ClientGame), client.key
        assert client.lan is None or isinstance(client.lan, LanClient), client.key
        assert not hasattr(client, "run_lan") and not hasattr(client, "join_lan")  # the shell routes every LAN game


def test_importing_registers_nothing_and_the_one_call_registers_every_game():
    code = ("import game.client.games as games, game.client.lan as lan, game.client.audio as audio, "
            "game.client.lan_common as common\n"
            "print(len(lan.CLIENTS), len(audio.effects()), hasattr(common, 'JOIN_OPENERS'))\n"
            "games.register(); games.register()\n"
            "print(sorted(lan.CLIENTS), audio.effects() == tuple(n for c in games.CLIENT_GAMES for n in c.sounds))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={"PYGAME_HIDE_SUPPORT_PROMPT": "1", "PYTHONPATH": str(ROOT),
                              "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert out.returncode == 0, out.stderr
    keys = sorted(g.key for g in GAMES if g.lan is not None)
    assert out.stdout.splitlines() == ["0 0 False", f"{keys} True"]


def test_the_match_command_names_no_game():
    source = (ROOT / "game" / "commands" / "match.py").read_text(encoding="utf-8").replace("rose-king match", "")
    for game in GAMES:
        package = type(game).__module__.split(".")[1]  # game.<package>.plugin
        assert game.key not in source and game.title not in source and f"game.{package}" not in source, game.key


def _match_parser() -> argparse.ArgumentParser:
    from game.cli import build_parser
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = sub.choices["match"]
    return parser


def test_match_help_lists_each_games_own_options_under_its_name_and_the_same_defaults():
    text = " ".join(_match_parser().format_help().split())
    for game in GAMES:
        assert f"{game.title} (--game {game.key})" in text, game.key
    assert "--teams" in text and "(default 1.0)" in text
    args = _match_parser().parse_args(["random", "random"])
    assert (args.game, args.games, args.seconds, args.seed, args.jobs, args.teams) == (GAMES[0].key, 10, None, 0, 1, False)
    assert {g.match_seconds for g in GAMES} == {1.0}  # what --seconds means when not given


def test_a_games_own_match_option_is_refused_for_another_game(capsys):
    from game.cli import main
    with pytest.raises(SystemExit) as e:
        main(["match", "random", "random", "--teams"])  # --teams is Royals & Riots'
    assert e.value.code == 2
    assert "--teams is an option of Royals & Riots (--game royals-riots)" in capsys.readouterr().err


#: The layer's closing codes: the same sentence in every game's words and the waiting screen's.
LAYER_CODES = ("version", "game", "seat", "role", "self", "order", "schema", "frame", "flood", "internal", "sync",
               "left", "bye", "eof", "")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_layers_stop_words_are_written_once_for_both_games_and_the_waiting_screen(lang):
    from game import i18n
    from game.client.lan import LanClient
    from game.roseking import phrases as rose_king
    from game.royals import phrases as royals
    from game.stop_words import stop_text
    shell = LanClient(table=lambda app, net: None)  # a game without its own words: the shell's
    i18n.set_language(lang)
    try:
        for code in LAYER_CODES:
            assert rose_king.stop_text(code, "Bob", 7) == stop_text(code, "Bob", "game") == shell.stop_words(code, "Bob")
            assert royals.stop_text(code, "Cy", 2, 3) == stop_text(code, "Cy", "match")
        assert royals.stop_text("left", "Cy") != royals.stop_text("left")  # a match names who left
    finally:
        i18n.set_language("en")
