"""The README's screenshots are made from the real window by assets/make_screenshots.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ("rose-king.png", "royals-riots.png")


def test_the_readme_shows_a_screenshot_of_each_game():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in SHOTS:
        assert f"(docs/screenshots/{name})" in readme
        image = pygame.image.load(str(ROOT / "docs" / "screenshots" / name))
        assert image.get_size() == (1280, 800)


def test_the_script_takes_both_pictures_from_the_window(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("ROSE_KING_CONFIG_DIR", "ROSE_KING_DATA_DIR")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, str(ROOT / "assets" / "make_screenshots.py"), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for name in SHOTS:
        image = pygame.image.load(str(tmp_path / name))
        assert image.get_size() == (1280, 800)
        colours = {tuple(image.get_at((x, y))) for x in range(0, 1280, 64) for y in range(0, 800, 50)}
        assert len(colours) > 20  # a drawn table, not a blank window
