"""The game's art, made by the project itself (see ``make_art.py`` and ``LICENSES.md``).

Files are package data; read them with :func:`open_binary` / :func:`names` so the
game works from a wheel or a zip as well as from a checkout.
"""

from __future__ import annotations

from importlib import resources
from typing import BinaryIO


def open_binary(name: str) -> BinaryIO:
    """Open the asset file ``name`` (e.g. ``"crown.png"``) for reading bytes.

    Raises FileNotFoundError naming the file if it is not shipped.
    """
    ref = resources.files(__name__).joinpath(name)
    if not ref.is_file():
        raise FileNotFoundError(f"asset not found: {name} (regenerate with: python -m assets.make_art)")
    return ref.open("rb")


def names() -> list[str]:
    """Names of the shipped asset files (images), sorted."""
    return sorted(p.name for p in resources.files(__name__).iterdir()
                  if p.name.endswith((".png", ".wav", ".ogg", ".ttf")))
