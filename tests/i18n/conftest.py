"""Every test here starts and ends in English with no language listeners left behind,
and a settings store made without a folder lands in a temporary one, never the real home."""

import pytest

from game import i18n


@pytest.fixture(autouse=True)
def english():
    listeners = list(i18n._listeners)
    i18n.set_language("en")
    yield
    i18n._listeners[:] = listeners
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def private_config(tmp_path_factory, monkeypatch):
    from game.settings import ENV_CONFIG_DIR
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path_factory.mktemp("config")))
