"""Test set-up: headless pygame (no window, no sound device) before anything imports it."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Settings never come from (or go to) the real home folder: a window made by any test reads a
# private, empty settings folder unless the test sets its own (tests/client/conftest.py does).
import tempfile  # noqa: E402

os.environ.setdefault("ROSE_KING_CONFIG_DIR", tempfile.mkdtemp(prefix="rose-king-test-config-"))
