"""The command line speaks of both games and knows the window's names of the computer levels."""

from __future__ import annotations

from game.cli import build_parser
from game.commands.match import level_choices, level_key
from game.registry import game_by_key


def test_the_help_names_both_games():
    text = build_parser().format_help()
    assert "Rose King" in text and "Royals & Riots" in text


def test_match_takes_the_windows_level_names_and_lists_both():
    assert [level_key("royals-riots", w) for w in ("Beginner", "casual", "EASY", "Medium", "hard")] == \
        ["random", "greedy", "easy", "medium", "hard"]
    assert level_key("rose-king", "Expert") == "expert" and level_key("rose-king", "hard@0.25") == "hard@0.25"
    listed = level_choices("royals-riots", game_by_key("royals-riots").levels)
    assert "random (Beginner)" in listed and "greedy (Casual)" in listed
