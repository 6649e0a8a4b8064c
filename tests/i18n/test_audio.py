"""Sound effects: the files, their regeneration, and playing with and without an audio device;
each game declares its own and the shell's audio module names no game."""

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import wave
from array import array
from pathlib import Path

import pygame
import pytest

from game.client import audio as audio_module
from game.client.audio import Audio, declare, effects
from game.client.games import CLIENT_GAMES, register
from game.registry import GAMES
from game.settings import SettingsStore

ROOT = Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "assets" / "sounds"
register()  # the window's one registration: every game's effects declared (importing declares nothing)
EFFECTS = effects()


@pytest.fixture(autouse=True)
def no_mixer():
    yield
    pygame.mixer.quit()


def _load_script():
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "assets" / "make_sounds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", EFFECTS)
def test_each_effect_is_a_short_quiet_16_bit_wav(name):
    with wave.open(str(SOUNDS / f"{name}.wav"), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 44_100)
        frames = w.readframes(w.getnframes())
        assert 0.1 <= w.getnframes() / 44_100 <= 1.5
    samples = array("h", frames)
    if sys.byteorder == "big":
        samples.byteswap()
    peak = max(abs(s) for s in samples) / 32768
    assert 0.1 < peak <= 0.31  # audible, and at most about -10 dBFS
    assert abs(samples[-1]) < 200  # faded out: no click at the end


def test_the_script_makes_exactly_the_shipped_files(tmp_path):
    script = _load_script()
    assert set(script.SOUNDS) == set(EFFECTS)
    assert script.main([str(tmp_path)]) == 0
    for name in EFFECTS:
        assert (tmp_path / f"{name}.wav").read_bytes() == (SOUNDS / f"{name}.wav").read_bytes(), name


def test_plays_every_effect_on_the_dummy_device():
    audio = Audio(volume=0.5)
    assert audio.available is None  # nothing opened before the first sound
    assert all(audio.play(name) for name in EFFECTS)  # every registered game's, each loaded from its file
    assert set(audio._sounds) == set(EFFECTS) and None not in audio._sounds.values()
    assert audio.available is True and audio.error is None
    audio.set_volume(0.2)
    assert all(s.get_volume() == pytest.approx(0.2, abs=0.01) for s in audio._sounds.values())
    audio.close()
    assert not pygame.mixer.get_init()


def test_no_audio_device_plays_silently(monkeypatch):
    calls = []

    def no_device(*args, **kwargs):
        calls.append(1)
        raise pygame.error("No available audio device")
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    audio = Audio()
    assert [audio.play(name) for name in EFFECTS] == [False] * len(EFFECTS)
    assert audio.available is False and "No available audio device" in audio.error
    assert calls == [1]  # tried once, not on every sound
    audio.stop()
    audio.close()


def test_missing_mixer_module_plays_silently(monkeypatch):
    def missing(*args, **kwargs):
        raise NotImplementedError("mixer module not available")
    monkeypatch.setattr(pygame.mixer, "init", missing)
    assert Audio().play("pass") is False


def test_sound_off_or_volume_zero_never_opens_the_device(monkeypatch):
    def must_not_open(*args, **kwargs):
        raise AssertionError("mixer opened although sound is off")
    monkeypatch.setattr(pygame.mixer, "init", must_not_open)
    assert Audio(enabled=False).play("game_end") is False
    assert Audio(volume=0).play("game_end") is False


def test_a_missing_or_broken_file_is_skipped(tmp_path):
    (tmp_path / "pass.wav").write_bytes(b"RIFF not really")
    audio = Audio(folder=tmp_path)
    assert audio.play("pass") is False
    assert audio.play("game_end") is False
    assert audio.available is True


def test_unknown_names_and_bad_volumes_are_programming_errors():
    with pytest.raises(ValueError, match="unknown sound 'boom' \\(declared: stone_placed, "):
        Audio().play("boom")
    for bad in (-0.1, 1.5, "loud", True):
        with pytest.raises(ValueError, match="volume"):
            Audio(volume=bad)


def test_follows_the_sound_settings_at_once(tmp_path):
    store = SettingsStore(tmp_path, {})
    audio = Audio(volume=1.0)
    audio.follow(store)
    assert audio.volume == 0.35 and audio.enabled
    assert audio.play("stone_placed")
    store.update(sound=False)  # the mute key
    assert not audio.enabled and audio.play("stone_placed") is False
    store.update(sound=True, volume=0.6)
    assert audio.volume == 0.6 and audio.play("stone_placed")
    assert audio.toggle() is False and audio.toggle() is True


def test_the_folder_is_found_without_an_assets_package():
    folder = audio_module.sound_folder()
    assert all(folder.joinpath(f"{n}.wav").is_file() for n in EFFECTS)


def test_a_game_process_without_any_audio_driver_runs(tmp_path):
    """A whole process with an SDL audio driver that cannot open: playing is silent, exit is clean."""
    code = textwrap.dedent("""
        import game.client.games
        game.client.games.register()
        from game.client.audio import Audio, effects
        a = Audio()
        print([a.play(n) for n in effects()], a.available, bool(a.error))
    """)
    env = dict(os.environ, SDL_AUDIODRIVER="no-such-driver", PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{[False] * len(EFFECTS)} False True"


def test_royals_and_riots_has_its_own_effects():
    """Royals & Riots has sounds; its table plays these names."""
    assert set(effects("royals-riots")) == {
        "royals_deal", "royals_play", "royals_draw", "royals_trick_won", "royals_steal", "royals_execution",
        "royals_revolution", "royals_prince", "royals_round_end", "royals_match_won", "royals_match_lost"}


def test_more_effects_than_channels_never_drops_the_newest():
    audio = Audio(volume=0.5)
    try:
        assert audio.play("royals_deal")
        busy = pygame.mixer.get_num_channels()
        for _ in range(busy):
            assert audio.play("royals_match_won")  # each takes the oldest channel once all are busy
        assert audio.play("royals_play")
    finally:
        audio.close()


def test_every_registered_game_declares_its_own_effects():
    """Each game's client declares its effects (``sounds``); the audio module knows exactly those,
    in the registry's order, each owned by one game (all of them load:
    test_plays_every_effect_on_the_dummy_device)."""
    assert [c.key for c in CLIENT_GAMES] == [g.key for g in GAMES]
    for c in CLIENT_GAMES:
        assert c.sounds and effects(c.key) == tuple(c.sounds), c.key
    assert effects() == EFFECTS == tuple(n for c in CLIENT_GAMES for n in c.sounds)


def test_a_bad_declaration_is_refused_and_declares_nothing():
    before = effects()
    with pytest.raises(ValueError, match="no sound effects"):
        declare("test-game", [])
    with pytest.raises(ValueError, match="not a sound file stem"):
        declare("test-game", ["ok_name", "../escape"])
    with pytest.raises(ValueError, match="declared twice"):
        declare("test-game", ["ok_name", "ok_name"])
    taken = effects(CLIENT_GAMES[0].key)[0]
    with pytest.raises(ValueError, match=f"{taken!r} belongs to {CLIENT_GAMES[0].key}"):
        declare("test-game", ["ok_name", taken])
    assert effects() == before and effects("test-game") == ()
    assert declare(CLIENT_GAMES[0].key, CLIENT_GAMES[0].sounds) == tuple(CLIENT_GAMES[0].sounds)  # again: no change
    assert effects() == before


def test_the_shells_audio_module_names_no_game():
    """game/client/audio.py is shared shell code: no game's key, title (or a word of it) or client
    package appears in it, nor any game's effect as a string (the effects come from the games' clients)."""
    source = (ROOT / "game" / "client" / "audio.py").read_text(encoding="utf-8").lower()
    words = {w for g in GAMES for w in (g.key, g.title.lower(), *re.findall(r"[a-z]{4,}", g.title.lower()))}
    words |= {type(c).__module__.split(".")[2] for c in CLIENT_GAMES}  # game.client.<package>.plugin
    assert {"rose-king", "king", "royals", "riots", "roseking"} <= words
    found = sorted(w for w in words if re.search(rf"\b{re.escape(w)}\b", source))
    found += sorted(n for n in effects() if re.search(rf"[\"'`]{n}[\"'`]", source))  # "pass", ``pass``
    assert not found, f"game/client/audio.py names {found}"
