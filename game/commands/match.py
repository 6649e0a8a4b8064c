"""``rose-king match LEVEL... [--game KEY]``: headless games between computer levels.

Output: one progress line per game, then the game's summary as the last line (each game's own,
described in its part of ``--help``: :meth:`game.registry.Game.add_match_arguments`), e.g.::

    A vs B: N games, A won X, B won Y, drawn Z; A win rate R% (95% CI LO%-HI%)

counted per player (A is the level named first), not per seat. The win rate is X / N (a draw
or a shared win is not a win) with its Wilson score 95% confidence interval. Exit status 0, or
2 for bad arguments (argparse), 1 if the output directory cannot be written, 130 if
interrupted (Ctrl-C; the summary of the games played so far is still printed last).

No game is named here: the levels, seat counts, default thinking time and a game's own options
come from :data:`game.registry.GAMES`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Sequence

from game.registry import GAMES, Game, game_by_key


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _seconds(text: str) -> float:
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (s > 0 and s < 3600):
        raise argparse.ArgumentTypeError(f"seconds per move must be above 0 and below 3600, got {text}")
    return s


def window_names(game_key: str) -> dict[str, str]:
    """A game's computer levels -> the names the window gives them (English: ``"random"`` ->
    ``"Beginner"``; the game's :attr:`~game.registry.Game.level_words`); a level the window
    does not name is left out."""
    return dict(game_by_key(game_key).level_words)


def level_choices(game_key: str, levels: Sequence[str]) -> str:
    """The levels as the help and errors list them, each with the window's name: ``"random
    (Beginner), greedy (Casual), ..."``."""
    names = window_names(game_key)
    return ", ".join(f"{lv} ({names[lv]})" if lv in names else lv for lv in levels)


def level_key(game_key: str, text: str) -> str:
    """The level named ``text`` on the command line: a level's own name (``greedy``) or the
    window's for it, in any case (``Casual``, ``casual``); anything else is returned as given."""
    by_word = {word.lower(): level for level, word in window_names(game_key).items()}
    return by_word.get(text.lower(), text)


def game_options(game: Game) -> dict[str, Any]:
    """The options ``game`` adds to ``rose-king match`` (:meth:`~game.registry.Game.add_match_arguments`),
    as their ``dest`` -> default."""
    probe = argparse.ArgumentParser(add_help=False)
    game.add_match_arguments(probe.add_argument_group())
    return vars(probe.parse_args([]))


def seconds_help() -> str:
    """``--seconds``'s help: its default, each game's (:attr:`~game.registry.Game.match_seconds`)."""
    defaults = {g.match_seconds for g in GAMES}
    if len(defaults) == 1:
        return f"thinking time per move of the search levels (default {defaults.pop()})"
    return ("thinking time per move of the search levels (default: "
            + ", ".join(f"{g.match_seconds} for {g.key}" for g in GAMES) + ")")


def run(args: argparse.Namespace) -> int:
    game = game_by_key(args.game)
    if len(args.players) not in game.seats:
        counts = " or ".join(map(str, game.seats))
        args.parser.error(f"{game.title} takes {counts} players, got {len(args.players)}")  # exits 2
    args.players = [level_key(game.key, level) for level in args.players]
    for level in args.players:
        if level not in game.levels:
            args.parser.error(f"argument LEVEL: invalid choice: {level!r} for {game.title} "
                              f"(choose from {level_choices(game.key, game.levels)})")
    mine = game_options(game)
    for other in GAMES:  # another game's own option, given: refused (each game reads only its own)
        for dest, default in game_options(other).items():
            if dest not in mine and getattr(args, dest, default) != default:
                args.parser.error(f"--{dest.replace('_', '-')} is an option of {other.title} (--game {other.key})")
    if args.seconds is None:
        args.seconds = game.match_seconds
    if args.out is not None:
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            print(f"rose-king match: cannot create {args.out}: {e.strerror or e}", file=sys.stderr)
            return 1
    return game.run_match(args)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "match", help="play headless games between computer levels",
        description="Play games between computer levels, their seats rotating. The last line sums them up "
                    "per player (the level named first is A: 'A win rate R% (95% CI LO%-HI%)', Wilson's "
                    "interval); each game's own words are under its name below.")
    p.add_argument("players", nargs="+", metavar="LEVEL",
                   help="the players' computer levels, first named first ("
                        + "; ".join(f"{g.key}: {level_choices(g.key, g.levels)}" for g in GAMES)
                        + "); the window's names for them work too")
    p.add_argument("--game", choices=[g.key for g in GAMES], default=GAMES[0].key,
                   help=f"which game (default {GAMES[0].key})")
    p.add_argument("--games", type=_positive_int, default=10, help="number of games (default 10)")
    p.add_argument("--seconds", type=_seconds, default=None, help=seconds_help())
    p.add_argument("--out", metavar="DIR", help="write each game's record to DIR/A-vs-B-NNNN.json")
    p.add_argument("--seed", type=int, default=0, help="match seed: same seed, same deals and draws (default 0)")
    p.add_argument("--jobs", type=_positive_int, default=1, help="games played in parallel processes (default 1)")
    for game in GAMES:  # a game's own options, each in its own group of --help
        game.add_match_arguments(p.add_argument_group(f"{game.title} (--game {game.key})"))
    p.set_defaults(run=run, parser=p)
