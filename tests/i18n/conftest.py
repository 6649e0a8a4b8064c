"""Every test here starts and ends in English with no language listeners left behind."""

import pytest

from game import i18n


@pytest.fixture(autouse=True)
def english():
    listeners = list(i18n._listeners)
    i18n.set_language("en")
    yield
    i18n._listeners[:] = listeners
    i18n.set_language("en")
