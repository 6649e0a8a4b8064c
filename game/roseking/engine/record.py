"""The game record: the save format shared by saves, replay and the LAN layer.

JSON, UTF-8, documented in ``docs/record-format.md``::

    {"format": "rose-king-record", "version": 1,
     "red": "Alice", "white": "Bob", "date": "2026-11-22T10:00:00Z",
     "deal": {"red": ["N1", ...5], "white": [...5]},
     "moves": ["red play NE2", "white draw S3", "red hero W1"],
     "result": {"red": 140, "white": 42, "winner": "red"}}

A record is the deal plus the move list, chance outcomes included, exactly like
an OpenSpiel serialization: replaying it rebuilds every position.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
import os
from typing import Any

from .cards import Card
from game.errors import IllegalMoveError, InvalidMoveError

from .moves import Color
from .state import State
from game.records import MAX_NAME_CHARS, RecordError as _RecordError

FORMAT = "rose-king-record"
VERSION = 1
MAX_MOVES = 10_000  # far above any real game; guards against absurd files


class RecordError(_RecordError):
    """A file that is not a valid Rose King record, or whose moves break the rules.

    ``move_number`` (counted from 1) and ``move_text`` are set when a move is at fault;
    then ``where`` is ``move N "TEXT"`` (see :class:`game.records.RecordError`).
    """

    def __init__(self, reason: str, move_number: int | None = None, move_text: str | None = None) -> None:
        self.move_number = move_number
        self.move_text = move_text
        super().__init__(reason, None if move_number is None else f"move {move_number} {json.dumps(move_text)}")


@dataclass
class Record:
    """A game record. ``moves`` holds record notation strings; ``result`` the
    ``{"red", "white", "winner"}`` object or None; ``extra`` keeps unknown
    top-level keys so they survive a load/save round trip."""

    deal_red: tuple[Card, ...]
    deal_white: tuple[Card, ...]
    moves: list[str] = field(default_factory=list)
    red: str | None = None
    white: str | None = None
    date: str | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict[str, Any])
    termination: dict[str, Any] | None = None

    def set_termination(self, kind: str, loser: Color, state: State) -> None:
        """Mark the game as ended early: ``kind`` ``"resigned"`` or ``"forfeit"`` (a LAN
        peer withheld its part of a coin), ``loser`` the colour that resigned or forfeited,
        at ``state`` (the position it ended in, not over by the rules). Sets ``termination``
        and the ``result`` (the scores at that position; the winner is the other colour)."""
        rs, ws = state.scores()
        self.termination = {"kind": kind, "loser": str(loser)}
        self.result = {"red": rs, "white": ws, "winner": str(loser.other)}

    # ---------------------------------------------------------------- building
    @classmethod
    def from_state(cls, state: State, red: str | None = None, white: str | None = None,
                   date: str | None = None, with_result: bool = True) -> "Record":
        """The record of ``state``'s game so far; ``result`` is filled in when it is over."""
        outcome = state.outcome() if with_result else None
        return cls(state.deal[0], state.deal[1], [str(m) for m in state.move_stack],
                   red, white, date, None if outcome is None else outcome.result())

    def new_state(self) -> State:
        """The position before the first move. Raises RecordError for a bad deal."""
        try:
            return State(self.deal_red, self.deal_white)
        except ValueError as e:
            raise RecordError(str(e)) from None

    def replay(self, upto: int | None = None) -> State:
        """Replay the moves (all, or the first ``upto``), checking every one.

        Returns the final state. Raises RecordError naming the first bad move
        (numbered from 1) or a result that does not match the position.
        """
        state = self.new_state()
        moves = self.moves if upto is None else self.moves[:upto]
        try:
            state.push_strs(moves)
        except (InvalidMoveError, IllegalMoveError) as e:
            i = state.ply + 1
            text = moves[state.ply]
            msg = str(e)
            # IllegalMoveError messages start with the move itself; keep only the reason.
            prefix = f"{text}: "
            raise RecordError(msg[len(prefix):] if msg.startswith(prefix) else msg, i, text) from None
        if upto is None and self.termination is not None:
            rs, ws = state.scores()
            if state.outcome() is not None:
                raise RecordError(f"the game was already over when it is said to have been {self.termination['kind']}")
            want = {"red": rs, "white": ws, "winner": Color.from_name(self.termination["loser"]).other.__str__()}
            if self.result != want:
                raise RecordError(f"result does not match: a game {self.termination['kind']} by "
                                  f"{self.termination['loser']} at this position gives red={rs} white={ws} "
                                  f"winner={want['winner']}")
        elif upto is None and self.result is not None:
            outcome = state.outcome()
            if outcome is None:
                raise RecordError("result does not match: the record has a result but the game is not over")
            if outcome.result() != self.result:
                want = outcome.result()
                raise RecordError(
                    "result does not match: the position gives "
                    f"red={want['red']} white={want['white']} winner={want['winner']}, the record says "
                    f"red={self.result['red']} white={self.result['white']} winner={self.result['winner']}")
        return state

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        for key in ("red", "white", "date"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        d["deal"] = {"red": [c.name for c in self.deal_red], "white": [c.name for c in self.deal_white]}
        d["moves"] = list(self.moves)
        if self.termination is not None:
            d["termination"] = dict(self.termination)
        if self.result is not None:
            d["result"] = dict(self.result)
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d

    def to_json(self) -> str:
        """The record as JSON text (UTF-8 safe, one move per line for readable diffs)."""
        d = self.to_dict()
        moves = d.pop("moves")
        result = d.pop("result", None)
        head = json.dumps(d, ensure_ascii=False)[:-1]
        lines = [head + ',\n "moves": [']
        lines.append(",\n".join("  " + json.dumps(m) for m in moves))
        tail = "\n ]" if moves else "]"
        if result is not None:
            tail += ',\n "result": ' + json.dumps(result)
        lines.append(tail + "}\n")
        return "\n".join(lines) if moves else lines[0] + tail + "}\n"

    @classmethod
    def from_dict(cls, d: Any) -> "Record":
        """Validate the shape of a parsed record. Raises RecordError saying what is wrong."""
        if not isinstance(d, dict):
            raise RecordError("not a record: the top level must be a JSON object")
        if d.get("format") != FORMAT:
            raise RecordError(f"not a record: format must be {FORMAT!r}, got {d.get('format')!r}")
        version = d.get("version")
        if type(version) is not int:
            raise RecordError(f"bad version: {version!r}")
        if version > VERSION:
            raise RecordError(f"record version {version} is newer than this program reads (up to {VERSION}); update Rose King")
        if version < 1:
            raise RecordError(f"bad version: {version!r}")
        deal = d.get("deal")
        if not isinstance(deal, dict) or set(deal) != {"red", "white"}:
            raise RecordError('bad deal: "deal" must be an object with "red" and "white" hands')
        hands = []
        for colour in ("red", "white"):
            hand = deal[colour]
            if not isinstance(hand, list) or (not set(map(type, hand)) <= {str}
                                              and not all(isinstance(c, str) for c in hand)):
                raise RecordError(f"bad deal: {colour} must be a list of card names")
            try:
                hands.append(tuple([Card.from_name(c) for c in hand]))
            except ValueError as e:
                raise RecordError(f"bad deal: {e}") from None
        moves = d.get("moves")
        if not isinstance(moves, list):
            raise RecordError('bad moves: "moves" must be a list of strings')
        if len(moves) > MAX_MOVES:
            raise RecordError(f"bad moves: more than {MAX_MOVES} moves")
        if not set(map(type, moves)) <= {str}:  # one pass in C; then find the first offender
            for i, m in enumerate(moves, 1):
                if not isinstance(m, str):
                    raise RecordError(f"move must be a string, not {type(m).__name__}", i, json.dumps(m))
        meta = {}
        for key in ("red", "white", "date"):
            v = d.get(key)
            if v is not None and not isinstance(v, str):
                raise RecordError(f'bad "{key}": must be a string')
            if v is not None and len(v) > MAX_NAME_CHARS:
                raise RecordError(f'bad "{key}": longer than {MAX_NAME_CHARS} characters')
            meta[key] = v
        result = d.get("result")
        if result is not None:
            if (not isinstance(result, dict) or set(result) != {"red", "white", "winner"}
                    or type(result["red"]) is not int or type(result["white"]) is not int
                    or result["winner"] not in ("red", "white", "draw")):
                raise RecordError('bad result: must be {"red": int, "white": int, "winner": "red"|"white"|"draw"}')
        termination = d.get("termination")
        if termination is not None:
            if (not isinstance(termination, dict) or set(termination) != {"kind", "loser"}
                    or termination["kind"] not in ("resigned", "forfeit")
                    or termination["loser"] not in ("red", "white")):
                raise RecordError('bad termination: must be {"kind": "resigned"|"forfeit", "loser": "red"|"white"}')
            if result is None:
                raise RecordError("bad termination: a resigned or forfeited game needs its result")
        extra = {k: v for k, v in d.items()
                 if k not in ("format", "version", "deal", "moves", "result", "red", "white", "date", "termination")}
        rec = cls(hands[0], hands[1], list(moves), meta["red"], meta["white"], meta["date"], result, extra,
                  None if termination is None else dict(termination))
        rec.new_state()  # validates the deal itself
        return rec

    @classmethod
    def from_json(cls, text: str | bytes) -> "Record":
        """Parse JSON text. Raises RecordError (never JSONDecodeError/UnicodeDecodeError)."""
        try:
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            d = json.loads(text)
        except UnicodeDecodeError:
            raise RecordError("not a record: the file is not UTF-8 text") from None
        except json.JSONDecodeError as e:
            raise RecordError(f"not a record: invalid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deeply") from None
        return cls.from_dict(d)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Record":
        """Read a record file, bounded (:func:`game.records.read_json`: no FIFO or device, at
        most 1 MiB, no absurd numbers). Raises RecordError, also when it cannot be read."""
        from game.records import read_json
        return cls.from_dict(read_json(path))


def now_iso() -> str:
    """The current UTC time as the record's ``date`` (``2026-11-22T10:00:00Z``)."""
    return datetime.now(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_line(state: State, termination: dict[str, Any] | None = None) -> str:
    """``ok finished red=.. white=.. winner=.. plies=..`` (with `` termination=resigned|forfeit``
    for a game a player resigned or forfeited) or ``ok in-progress ... to-move=..`` (the
    format of ``rose-king check``)."""
    if termination is not None:
        rs, ws = state.scores()
        winner = Color.from_name(termination["loser"]).other
        return (f"ok finished red={rs} white={ws} winner={winner} plies={state.ply} "
                f"termination={termination['kind']}")
    outcome = state.outcome()
    if outcome is not None:
        won = "draw" if outcome.winner is None else str(outcome.winner)
        return (f"ok finished red={outcome.red_score} white={outcome.white_score} "
                f"winner={won} plies={state.ply}")
    rs, ws = state.scores()
    return f"ok in-progress red={rs} white={ws} to-move={Color(state.turn)} plies={state.ply}"
