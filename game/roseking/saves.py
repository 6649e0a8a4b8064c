"""Rose King's saves (its save types live in its own package): the metadata a save
keeps beyond the moves (:class:`GameMeta`), reading a record file to play on
(:func:`read_game`, :func:`load_game`), and the saved-games list's :func:`summarize`.

The extra top-level keys are documented in ``docs/record-format.md``, "Saved-game keys":
``game_id``, ``kind`` (``local``/``computer``/``lan``), ``computer``
(``{"level": ..., "color": ...}``) and ``chance_seed`` (the hidden pile order of
:class:`game.roseking.undo.DeckChance`). The files, their atomic writes, the autosaver and the
list are :mod:`game.saves`'.
"""

from __future__ import annotations

import os
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.i18n import N_, _, ngettext
from game.savefile import GAME_ID as _GAME_ID
from game.savefile import (KINDS, SaveError, Summary, check_version, parse_json_bytes, read_bounded,
                           record_error_text, save_id)

from .engine import Color, Record, RecordError, State, now_iso
from .engine.record import FORMAT, VERSION

if TYPE_CHECKING:
    from game.stats import StatsStore

#: The names a local game gives its people by default (stored untranslated, shown translated).
_DEFAULT_NAMES = (N_("You"), N_("Player 1"), N_("Player 2"))


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read and fully check a Rose King record file (shape, every move, the result).

    Raises :class:`game.savefile.SaveError` with a one-line message for every bad case: cannot
    read, empty, binary, too large, truncated, not JSON, not a Rose King record,
    a newer format version, or a move that breaks a rule (naming the move and the
    rule). Never raises anything else for a bad file.
    """
    return read_game(path)[0]


def read_game(path: str | os.PathLike[str]) -> tuple[Record, State]:
    """:func:`read_record` that also returns the state after the last move
    (the replay that checked it). Raises SaveError."""
    record = parse_record(read_bounded(path))
    return record, replay(record)


def replay(record: Record) -> State:
    """The state after ``record``'s last move. Raises SaveError naming the move and the rule."""
    try:
        return record.replay()
    except RecordError as e:
        raise SaveError(record_error_text(e)) from None


def parse_record(data: bytes) -> Record:
    """Parse (not replay) Rose King record bytes; raises SaveError naming what is wrong."""
    return record_of(parse_json_bytes(data))


def record_of(obj: dict[str, Any]) -> Record:
    """A parsed record object as a Rose King :class:`Record` (not replayed). Raises SaveError."""
    if obj.get("format") != FORMAT:
        raise SaveError(_("not a Rose King record: a JSON file of another kind"))
    check_version(obj, VERSION)
    try:
        return Record.from_dict(obj)
    except RecordError as e:
        raise SaveError(record_error_text(e)) from None


def load_game(path: str | os.PathLike[str]) -> tuple[State, "GameMeta"]:
    """Open any Rose King record file to play on: the state after its last move, and its
    metadata (see :meth:`GameMeta.from_record`). Raises SaveError."""
    record, state = read_game(path)
    return state, GameMeta.from_record(record, Path(path).stem)


@dataclass(frozen=True)
class GameMeta:
    """What a save knows beyond the moves: who plays, what kind of game, its id.

    ``kind``: ``"local"`` (two people on one machine), ``"computer"`` or ``"lan"``.
    ``computer_level`` / ``computer_color``: set for ``kind == "computer"``.
    ``chance_seed``: the seed of the game's :class:`~game.roseking.undo.DeckChance` (local
    games), so a resumed game draws the same cards; None for LAN games.
    ``date``: when the game started (ISO 8601 UTC).
    """

    game_id: str
    kind: str = "local"
    red: str | None = None
    white: str | None = None
    date: str | None = None
    computer_level: str | None = None
    computer_color: Color | None = None
    chance_seed: int | None = None

    def __post_init__(self) -> None:
        if not _GAME_ID.fullmatch(self.game_id):
            raise ValueError(f"bad game id {self.game_id!r}: use 1-64 letters, digits, '-' or '_'")
        if self.kind not in KINDS:
            raise ValueError(f"bad game kind {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.kind == "computer" and (self.computer_level is None or self.computer_color is None):
            raise ValueError("a game against the computer needs computer_level and computer_color")

    @classmethod
    def new(cls, kind: str = "local", *, red: str | None = None, white: str | None = None,
            computer_level: str | None = None, computer_color: Color | None = None,
            chance_seed: int | None = None) -> "GameMeta":
        """Metadata of a game starting now: a fresh id, today's date, and (unless LAN)
        a fresh chance seed when none is given."""
        if chance_seed is None and kind != "lan":
            chance_seed = secrets.randbits(63)
        return cls(game_id=uuid.uuid4().hex, kind=kind, red=red, white=white, date=now_iso(),
                   computer_level=computer_level,
                   computer_color=None if computer_color is None else Color(computer_color),
                   chance_seed=chance_seed)

    def extra(self) -> dict[str, Any]:
        """The extra top-level record keys for this metadata."""
        d: dict[str, Any] = {"game_id": self.game_id, "kind": self.kind}
        if self.kind == "computer":
            d["computer"] = {"level": self.computer_level, "color": str(self.computer_color)}
        if self.chance_seed is not None:
            d["chance_seed"] = self.chance_seed
        return d

    @classmethod
    def from_record(cls, record: Record, fallback_id: str = "game") -> "GameMeta":
        """Read the metadata back; missing or malformed extra keys fall back to a plain
        local game named ``fallback_id`` (a record from elsewhere is still playable)."""
        x = record.extra
        game_id = x.get("game_id")
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            game_id = fallback_id if _GAME_ID.fullmatch(fallback_id) else "game"
        kind: str = x["kind"] if x.get("kind") in KINDS else "local"
        level: str | None = None
        color: Color | None = None
        comp = x.get("computer")
        if kind == "computer":
            if isinstance(comp, dict) and isinstance(comp.get("level"), str) and comp.get("color") in ("red", "white"):
                level, color = comp["level"], Color.from_name(comp["color"])
            else:
                kind = "local"
        seed = x.get("chance_seed")
        if type(seed) is not int:
            seed = None
        return cls(game_id, kind, record.red, record.white, record.date, level, color, seed)

    def names(self) -> tuple[str, str]:
        """The players' names by colour as shown now, in the current language: a blank name is
        its colour's; in a game against the computer, the computer's seat is named by its level
        ("Computer · Hard", whatever language the save was written in) and the person's default
        name ("You") is translated too."""
        from .phrases import level_name, player_names
        red, white = player_names(self.red or "", self.white or "")
        if self.kind != "computer" or self.computer_level is None or self.computer_color is None:
            return red, white
        cpu = _("Computer · {level}").format(level=level_name(self.computer_level))
        if self.computer_color is Color.RED:
            return cpu, _(white) if white in _DEFAULT_NAMES else white
        return _(red) if red in _DEFAULT_NAMES else red, cpu

    def record(self, state: State) -> Record:
        """The record of ``state``'s game with this metadata (result filled in once over)."""
        rec = Record.from_state(state, red=self.red, white=self.white, date=self.date)
        rec.extra = self.extra()
        return rec


def summarize(obj: dict[str, Any], fallback_id: str) -> Summary:
    """The saved-games list's :class:`game.savefile.Summary` of a parsed Rose King record (fully
    checked: every move replayed): the players by name, the winner by name and the score, who is to
    move, and the progress as Rose King counts it ("move 24 · 30 stones left").
    Raises SaveError for a bad record."""
    record = record_of(obj)
    state = replay(record)
    meta = GameMeta.from_record(record, save_id(obj, fallback_id))
    outcome = state.outcome()
    result = outcome.result() if outcome is not None else (record.result if record.termination else None)
    red, white = state.scores()

    def names() -> tuple[str, str]:
        return meta.names()

    def status() -> str:
        lan = record.extra.get("lan")
        if result is None and isinstance(lan, dict) and lan.get("stopped"):
            return _("stopped at move {ply}").format(ply=state.ply)
        if result is None:
            return _("in progress · {name} to move").format(name=names()[Color(state.turn)])
        r, w = result["red"], result["white"]
        ended = record.termination
        if ended is not None:  # the score of a game cut short would read as a tie: say who stopped it
            loser = names()[Color.from_name(ended["loser"])]
            winner = names()[Color.from_name(ended["loser"]).other]
            if ended["kind"] == "resigned":
                return _("{loser} resigned · {winner} wins").format(loser=loser, winner=winner)
            return _("{loser} forfeited · {winner} wins").format(loser=loser, winner=winner)
        if result["winner"] in ("red", "white"):
            winner = names()[Color.from_name(result["winner"])]
            return _("{name} wins {red}–{white}").format(name=winner, red=r, white=w)
        return _("Draw {red}–{white}").format(red=r, white=w)

    def progress() -> str:
        moves = ngettext("{count} move", "{count} moves", state.ply).format(count=state.ply)
        if result is not None:
            return moves
        left = ngettext("{count} stone left", "{count} stones left", state.stones_left).format(
            count=state.stones_left)
        return _("{moves} · {stones}").format(moves=moves, stones=left)

    def note() -> str | None:
        """The kind of game: a network game's (it is played on only through its peer's
        reconnection), against the computer (its level), or two people at one screen."""
        if meta.kind == "computer" and meta.computer_level is not None:
            from .phrases import level_name
            return _("Against the computer ({levels})").format(levels=level_name(meta.computer_level))
        if meta.kind != "lan":
            return _("Two people at one screen")
        if result is not None:
            return _("Network game")
        return _("Unfinished network game: it can only be watched here (Replay)")

    return Summary(meta.game_id, meta.kind, meta.date, state.ply, result, (red, white),
                   lambda: _("{red} – {white}").format(red=names()[0], white=names()[1]), status, progress, note)


def record_result(stats: "StatsStore", meta: GameMeta, state: State) -> bool:
    """Count ``state``'s game in ``stats`` (the window's :class:`game.stats.StatsStore`) if it is
    over and was played against the computer: the person's side won or not (a draw is not a win),
    the person's score, the computer's level; once per game id. Returns whether it was counted
    now. Call it after each move of a local game (the match's end is found here)."""
    outcome = state.outcome()
    if outcome is None or meta.kind != "computer" or meta.computer_level is None or meta.computer_color is None:
        return False
    person = Color(meta.computer_color).other
    score = outcome.red_score if person is Color.RED else outcome.white_score
    try:
        return stats.record("rose-king", meta.computer_level, outcome.winner is person, score, meta.game_id)
    except ValueError:  # a level this version does not count (a save from elsewhere)
        return False
