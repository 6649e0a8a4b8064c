"""Test set-up: headless pygame (no window, no sound device) before anything imports it."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Saved games go to a fresh folder per test, never the real user data folder."""
    monkeypatch.setenv("ROSE_KING_DATA_DIR", str(tmp_path_factory.mktemp("data")))
