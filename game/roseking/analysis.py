"""Post-game analysis: the strong computer level looks at every position of a game,
and each move is judged by how much it gave away.

Pure Python, no pygame. It uses the AI only through its public interface: a player from
:func:`game.roseking.ai.make_player` and the figures of its last search (``player.last``:
the chosen action and its value, the mover's expected reward 0..1).

For each position ``k`` of the game (0 = the deal) :func:`evaluate` gives the search's best
move and Red's winning chance ``red[k]`` (a finished position scores 1, 0 or ½). The move
from ``k`` to ``k + 1`` by player ``m`` lost what the best move was worth for ``m`` minus what
the move played left, measured two ways: ``loss``, in winning chance (0..1), and ``points``,
in score points: a winning chance ``p`` stands for the margin ``WIN_SCALE · logit(p)`` (the
inverse of the fitted sigmoid the AI's evaluation uses, ``game.roseking.ai.evaluation.win_chance``;
chances clamped to :data:`CLAMP` .. 1 − CLAMP). Moves are marked on ``share``: the part of the
winning chance the mover still had that the move threw away (``loss / before``), from
:data:`INACCURACY` (10 %), :data:`MISTAKE` (15 %) and :data:`BLUNDER` (30 %); a side below
:data:`FLOOR` (5 %) has nothing left to throw away and is not marked.

Why points (item 13): a careless game (always the first target found) slid from
0.51 to 0.00 for Red, but in winning chance each careless move cost only about 0.01 (the
early moves move a balanced game little, the late ones a lost game not at all), so with
thresholds on the winning chance lost (0.08 / 0.15 / 0.30) only 2 to 4 of Red's 53 moves were
marked. In points the same moves cost what the final score shows: Red's losses summed to about
the final margin; ``points`` stay the measure of what a side lost in all (:func:`summary`).

Why the share: marked on points (5 / 10 / 20), a game of random targets
lost 121-533 got no blunder and its first mark at move 23, while the winning side of ordinary
games got about as many marks as careless play: near a won game's 0.98 a small wobble of the
search is many points (``logit``), near a lost game's 0.02 a real mistake is few. The share of
what was left treats both ends alike ("a move that gave away a third of your chances"). Figures
of ``bench/analysis_calibrate.py`` (3 games a kind, the analysis ``hard`` at 4,500 iterations a
position; ``--from-dump`` judges the same games by both measures), per game of each side:

================================  =====  =========  ==============  ===============  ===============
moves judged (3 games a kind)     moves  share p95  >= 10/15/30 %   marks a game     marks, points
                                                                    (i / m / b)      5/10/20 (old)
================================  =====  =========  ==============  ===============  ===============
random targets Red (vs medium)    152    21.6 %     12.5/8.6/2.6    2.0 / 3.0 / 1.3  4.7 / 2.0 / 1.3
careless Red (vs medium)          156    40.0 %     17.3/14.7/6.4   1.3 / 4.3 / 3.3  3.7 / 3.7 / 3.3
easy White (vs medium)            170    23.9 %     14.7/10.0/4.1   2.7 / 3.3 / 2.3  4.7 / 3.3 / 1.3
medium Red (vs easy)              177    6.7 %      2.3/1.7/0.0     0.3 / 1.0 / 0.0  3.7 / 1.3 / 1.0
medium White (vs careless)        156    5.4 %      1.3/0.6/0.0     0.3 / 0.3 / 0.0  3.7 / 1.0 / 1.3
medium White (vs random targets)  162    4.7 %      1.9/1.2/0.6     0.3 / 0.3 / 0.3  3.3 / 1.0 / 1.0
hard Red (vs hard, 3,000 its)     172    0.0 %      0/0/0           0 / 0 / 0        1.3 / 0.3 / 0
hard White (vs hard)              156    0.0 %      0.6/0.6/0.6     0 / 0 / 0.3      0.3 / 0 / 0.3
================================  =====  =========  ==============  ===============  ===============

So careless play gets 6 to 9 marks a game, more of them mistakes and blunders than before (its
first marks at moves 9 to 47: the opening of a balanced game moves the search's chance little);
the computers' ordinary play about one, hard play none to one in three games. The earlier table
(before: points 5 / 10 / 20 at the same budget, 6 games a kind): careless Red 17.7 % of its
moves at 5 points or more, medium White 8.3 %, hard 1.4 to 2.6 %.

(The search's noise is a few points per position; the median drop of the moves that were the
search's own choice is taken off first, see :func:`search_bias`.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from game.marks import LABELS, mark, serve
from game.roseking.ai.evaluation import WIN_SCALE
from game.roseking.engine import DRAW, Color, Move, State

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from game.roseking.ai.players import Player

#: The share of the winning chance the mover still had that a move threw away, from which it is
#: marked (see the module docstring: calibrated on careless, random-target, medium and hard play).
INACCURACY, MISTAKE, BLUNDER = 0.10, 0.15, 0.30
THRESHOLDS = (INACCURACY, MISTAKE, BLUNDER)
#: Below this winning chance a side has nothing left to throw away: its moves are not marked.
FLOOR = 0.05
#: Winning chances are clamped to CLAMP .. 1 - CLAMP before they become points (a decided game
#: would be worth infinitely many; the search's noise near 0 and 1 must not be either).
CLAMP = 0.02


def label_for(share: float) -> str:
    """"blunder", "mistake", "inaccuracy" or "" for a move that threw away ``share`` (0..1) of
    the winning chance its player still had."""
    return mark(share, THRESHOLDS)


def margin_of(chance: float) -> float:
    """The score margin (points, the mover's) a winning chance stands for: ``WIN_SCALE · logit``
    of ``chance`` clamped to :data:`CLAMP` .. 1 − CLAMP (0.5 -> 0; 0.98 -> about 144)."""
    p = min(1.0 - CLAMP, max(CLAMP, chance))
    return WIN_SCALE * math.log(p / (1.0 - p))


@dataclass(frozen=True)
class Review:
    """The verdict on move ``ply`` (1-based): ``played`` vs the search's ``best`` from the same
    position, the winning chance the mover lost (``loss``, 0..1), the score points it lost
    (``points``, >= 0; see the module docstring), the share of the winning chance the mover
    still had that it threw away (``share``, 0..1; 0 below :data:`FLOOR`) and its ``label``
    (from ``share``)."""

    ply: int
    played: Move
    best: Move | None
    loss: float
    label: str
    points: float = 0.0
    share: float = 0.0

    @property
    def player(self) -> Color:
        return self.played.player


def same_move(a: Move, b: Move | None) -> bool:
    """Whether ``b`` is the move ``a`` (a draw is a draw whatever card it brought)."""
    if b is None or a.player != b.player or a.kind != b.kind:
        return False
    return a.kind is DRAW or a.card == b.card


def terminal_red(state: State) -> float:
    """Red's result of a finished game: 1 win, 0 loss, ½ draw."""
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is Color.RED else 0.0


def evaluate(state: State, player: Player) -> tuple[Move | None, float | None]:
    """(best move, Red's winning chance 0..1) of ``state`` by a searching ``player``
    (from :func:`game.roseking.ai.make_player`, "hard"); a finished game is scored exactly.
    The chance is None for a forced move (one legal action: the search does not weigh it)."""
    if state.is_game_over():
        return None, terminal_red(state)
    best = player.choose(state.copy(stack=False))
    last = getattr(player, "last", None)
    if last is None or not last.iterations:
        return best, None
    value = float(last.value)
    return best, value if state.turn is Color.RED else 1.0 - value


def positions(final: State) -> list[State]:
    """Every position of ``final``'s game, from the deal (index 0) to the end (index ply)."""
    s = final.copy()
    out = [s.copy()]
    while s.move_stack:
        s.pop()
        out.append(s.copy())
    out.reverse()
    return out


def reviews(final: State, red: list[float], best: list[Move | None]) -> list[Review]:
    """Judge every move of ``final``'s game from the positions' values ``red`` and best moves
    ``best`` (index = position). Positions not evaluated yet (short lists) end the list."""
    chance_drops: list[float] = []  # what moves that were the search's own choice "lost"
    point_drops: list[float] = []
    steps = []
    for k, played in enumerate(final.move_stack):
        if k + 1 >= len(red):
            break
        m = played.player
        before = red[k] if m is Color.RED else 1.0 - red[k]
        after = red[k + 1] if m is Color.RED else 1.0 - red[k + 1]
        drop, points = before - after, margin_of(before) - margin_of(after)
        steps.append((k, played, drop, points, before))
        if same_move(played, best[k]) and red[k] != red[k + 1]:
            chance_drops.append(drop)
            point_drops.append(points)
    bias, point_bias = search_bias(chance_drops), search_bias(point_drops, 8.0)
    out: list[Review] = []
    for k, played, drop, points, before in steps:
        own = same_move(played, best[k])
        loss = 0.0 if own else max(0.0, drop - bias)
        lost = 0.0 if own else max(0.0, points - point_bias)
        share = loss / before if before >= FLOOR else 0.0
        out.append(Review(k + 1, played, best[k], loss, label_for(share), lost, min(1.0, share)))
    return out


@dataclass(frozen=True)
class SideSummary:
    """One side's figures over a game's reviews: ``moves`` judged, how many were ``marked``
    (any label), the ``points`` lost in all (summed over its moves; about what the side's
    choices cost it in the final margin) and ``mean_points`` per move judged (0 for none)."""

    moves: int
    marked: int
    points: float

    @property
    def mean_points(self) -> float:
        return self.points / self.moves if self.moves else 0.0


def summary(judged: list[Review]) -> dict[Color, SideSummary]:
    """Per colour: :class:`SideSummary` of the moves of ``judged`` that colour made."""
    out = {}
    for color in (Color.RED, Color.WHITE):
        mine = [r for r in judged if r.player is color]
        out[color] = SideSummary(len(mine), sum(1 for r in mine if r.label), sum(r.points for r in mine))
    return out


def search_bias(drops: list[float], cap: float = 0.2) -> float:
    """How much each side's search overrates its own chances, measured on the moves that were
    the search's own choice (their true loss is 0): the median drop, 0..``cap`` (0.2 of winning
    chance; :func:`reviews` caps the points' at 8). Each position is searched from the mover's
    side, so without this every move would seem to lose that much."""
    if len(drops) < 5:
        return 0.0
    ordered = sorted(drops)
    return min(cap, max(0.0, ordered[len(ordered) // 2]))


def analyse(final: State, player: Player, stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, Move | None, float]]:
    """Evaluate each position of ``final``'s game in order with ``player``; yields
    ``(index, best move, Red's chance)``. Ends early once ``stop()`` is true."""
    pending: list[tuple[int, Move | None]] = []  # forced positions: worth what the next one is
    for k, state in enumerate(positions(final)):
        if stop is not None and stop():
            return
        best, value = evaluate(state, player)
        if value is None:
            pending.append((k, best))
            continue
        for j, forced in pending:
            yield j, forced, value
        pending.clear()
        yield k, best, value


def worker(conn: Connection, final: State, level: str, seconds: float | None, iterations: int | None,
           seed: int | None, nice: int = 0) -> None:
    """The analysis in a worker process: sends ``("pos", index, best move text or "", red chance)``
    for each position, then ``("done",)``; ``("error", text)`` if the search fails. Stops when the
    parent closes the pipe or terminates the process."""

    def work() -> None:
        from game.roseking.ai import make_player
        player = make_player(level, seed, seconds=seconds, iterations=iterations)
        for k, best, value in analyse(final, player):
            conn.send(("pos", k, "" if best is None else str(best), value))
        conn.send(("done",))
    serve(conn, nice, work)


__all__ = ["BLUNDER", "FLOOR", "INACCURACY", "LABELS", "MISTAKE", "Review", "analyse", "evaluate", "label_for",
           "positions", "reviews", "same_move", "search_bias", "SideSummary", "summary", "THRESHOLDS",
           "CLAMP", "margin_of", "terminal_red", "worker"]
