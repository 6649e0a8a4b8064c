"""Test set-up: headless pygame (no window, no sound device) before anything imports it."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# LAN discovery and the menu's host stay on loopback in every test and every child process
# (net.discovery refuses to send a beacon anywhere else while this is set).
os.environ["ROSE_KING_LAN_LOOPBACK"] = "1"

# Never read or write the player's real settings or saves from a test run.
import atexit as _atexit
import shutil as _shutil
import tempfile as _tempfile

_home = _tempfile.mkdtemp(prefix="rose-king-tests-")
_atexit.register(_shutil.rmtree, _home, True)
os.environ.setdefault("ROSE_KING_CONFIG_DIR", os.path.join(_home, "config"))
os.environ.setdefault("ROSE_KING_DATA_DIR", os.path.join(_home, "data"))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Saved games go to a fresh folder per test, never the real user data folder."""
    monkeypatch.setenv("ROSE_KING_DATA_DIR", str(tmp_path_factory.mktemp("data")))
