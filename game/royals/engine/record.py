"""The Royals & Riots game record (``docs/royals-record-format.md``): reading, checking, writing.

A record is each round's set-up (``starter``, ``deal``, ``aside``, ``hand``, ``pile``: the
chance outcomes and hand choices) plus its trick ``actions``; replaying it rebuilds every
position, exactly like an OpenSpiel serialization.

>>> rec = Record.from_dict(SAMPLE)
>>> status_line(rec.replay())
'ok in-progress round=1 trick=4 to-act=3 scores=6,0,1'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable

from game.records import RecordError as _RecordError

import game.royals.engine.kernel as K

from game.errors import InvalidMoveError

from .actions import _PARSED, DEAL, KEEP, PILE, PLAY, START, STEAL, Action, setup_action
from .cards import CARDS, THIEF, Card
from .state import ROUNDS, Phase, State, card_mask, deal_refusal, group_masks, keep_refusal, pile_refusal

FORMAT = "royals-riots-record"
VERSION = 1
MAX_ACTIONS = 500  # per round; a real round has at most 14 tricks of 2 plays plus decisions


class RecordError(_RecordError):
    """A file that is not a valid Royals & Riots record, or whose actions break the rules.

    ``round`` (from 1) and, for a fault in an action, ``action`` (from 1 within the round)
    and ``action_text`` are set; ``where`` is then ``round 2 action 17 "3 play K2"`` or
    ``round 2`` (see :class:`game.records.RecordError`).
    """

    def __init__(self, reason: str, round: int | None = None, action: int | None = None,
                 action_text: str | None = None) -> None:
        self.round = round
        self.action = action
        self.action_text = action_text
        where = None
        if round is not None:
            where = f"round {round}" if action is None else f"round {round} action {action} {json.dumps(action_text)}"
        super().__init__(reason, where)


@dataclass
class RoundRecord:
    """One round: ``starter`` (seat), ``deal``/``hand``/``pile`` per seat (pile top first),
    ``aside`` and the trick ``actions`` (notation strings)."""

    starter: int
    deal: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    hand: tuple[tuple[Card, ...], ...]
    pile: tuple[tuple[Card, ...], ...]
    actions: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        def names(cs: Iterable[Card]) -> list[str]:
            return [c.name for c in cs]
        return {"starter": self.starter, "deal": [names(g) for g in self.deal], "aside": names(self.aside),
                "hand": [names(g) for g in self.hand], "pile": [names(g) for g in self.pile],
                "actions": list(self.actions)}


@dataclass
class Record:
    """A match record. ``players``: 2-4 names; ``result``: the ``{"scores", "winners"[, "teams"]}``
    object or None; ``extra`` keeps unknown top-level keys for a load/save round trip."""

    players: list[str]
    teams: bool = False
    rounds: list[RoundRecord] = field(default_factory=list)
    date: str | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    # ---------------------------------------------------------------- building
    @classmethod
    def from_state(cls, state: State, players: list[str] | None = None, date: str | None = None,
                   with_result: bool = True) -> "Record":
        """The record of ``state``'s history. A round whose set-up is not complete yet is left
        out (a record stores whole set-ups). ``players`` defaults to ``Seat 1`` ... names."""
        names = list(players) if players is not None else [f"Seat {s}" for s in range(1, state.players + 1)]
        replay = State(state.players, state.teams)
        replay.track = False
        rounds: list[RoundRecord] = []
        cur: dict[str, Any] | None = None
        for a in state.history:
            k = a.kind
            if k is DEAL:
                n = state.players
                cur = {"starter": replay.starter, "deal": a.groups[:n], "aside": a.groups[n] if len(a.groups) > n else (),
                       "hand": [()] * n, "pile": [()] * n, "actions": []}
            elif k is KEEP and cur is not None:
                cur["hand"][a.seat - 1] = a.cards
            elif k is PILE and cur is not None:
                cur["pile"][a.seat - 1] = a.cards
                if a.seat == state.players:
                    rounds.append(RoundRecord(cur["starter"], tuple(cur["deal"]), tuple(cur["aside"]),
                                              tuple(cur["hand"]), tuple(cur["pile"]), cur["actions"]))
            elif k is START:
                cur = None
            elif not (k is STEAL and a.target is not None and a.card is None) and cur is not None:
                cur["actions"].append(str(a))
            replay.push(a)
        outcome = state.outcome() if with_result else None
        return cls(names, state.teams, rounds, date, None if outcome is None else outcome.result())

    def replay(self, upto: int | None = None) -> State:
        """Replay the record, checking every set-up and action (only the first ``upto`` rounds'
        worth if given). Returns the final state. Raises :class:`RecordError` at the first fault
        (A6 says where)."""
        state = State(len(self.players), self.teams)
        rounds = self.rounds if upto is None else self.rounds[:upto]
        for r, rnd in enumerate(rounds, 1):
            if state.is_over():
                raise RecordError("match already over", r)
            if state.round != r or state.phase not in (Phase.START, Phase.DEAL):
                raise RecordError("previous round is not finished", r)
            self._setup(state, r, rnd)
            parsed = _PARSED
            texts = rnd.actions
            plays = [_PLAY_KEY.get(t) if type(t) is str else None for t in texts]
            j = 0
            while True:
                # the plays, checked and applied by the kernel in one loop (rulings 5-8)
                stop, refusal = K.replay_plays(state, plays, j)
                if stop > j:
                    state._logged([parsed[t] for t in texts[j:stop]])
                if refusal is not None:
                    raise RecordError(refusal, r, stop + 1, texts[stop])
                if stop >= len(texts):
                    break
                j = stop + 1
                text = texts[stop]
                a = parsed.get(text) if type(text) is str else None
                if a is None:
                    try:
                        a = Action.from_str(text)
                    except InvalidMoveError as e:
                        raise RecordError(str(e), r, j, text) from None
                phase = state.phase
                if state.round != r or phase in (Phase.START, Phase.DEAL, Phase.OVER):
                    if a.kind is STEAL and _last_trick_had_thief(state):
                        reason = "the Thief has no function in the round's last trick (A5)"
                    else:
                        reason = "match already over" if state.is_over() else "the round is over"
                    raise RecordError(reason, r, j, text)
                if a.kind is STEAL and a.target is not None and a.card is None:
                    raise RecordError("a steal must name the card taken (\"<seat> steal <target> <card>\")", r, j, text)
                reason = state.illegal_reason(a)
                if reason is not None:
                    raise RecordError(reason, r, j, text)
                state.push(a)
        if upto is None and self.result is not None:
            outcome = state.outcome()
            if outcome is None:
                raise RecordError("result on an unfinished match (A4)")
            want = outcome.result()
            got: dict[str, Any] = {k: self.result[k] for k in ("scores", "winners", "teams") if k in self.result}
            if "teams" not in got:
                want.pop("teams", None)
            if got != want:
                raise RecordError(f"result does not match: the match gives {_result_text(want)}, "
                                  f"the record says {_result_text(got)}")
        return state

    @staticmethod
    def _setup(state: State, r: int, rnd: RoundRecord) -> None:
        n = state.players
        if not 1 <= rnd.starter <= n:
            raise RecordError(f"unknown seat {rnd.starter} as starter", r)
        if state.phase is Phase.START:
            reason = state.illegal_reason(Action.start(rnd.starter))
            if reason is not None:
                raise RecordError(reason, r)
            state.push(Action.start(rnd.starter))
        elif state.starter != rnd.starter:
            raise RecordError(f"wrong starter: seat {state.starter} starts round {r} (ruling 9)", r)
        # the set-up on card indices and masks, checked by the rules State checks with (ruling 4)
        groups = [[c.index for c in g] for g in (*rnd.deal, rnd.aside)]
        masks = group_masks(groups)
        reason = deal_refusal(n, groups, masks)
        if reason is not None:
            raise RecordError(reason, r)
        state._deal(masks)
        size = state.hand_size()
        for s in range(1, n + 1):
            hand = rnd.hand[s - 1]
            m = card_mask([c.index for c in hand])
            reason = keep_refusal(state.dealt[s - 1], m, len(hand), size)
            if reason is not None:
                raise RecordError(f"seat {s}: {reason}", r)
            state._keep(s, m)
        for s in range(1, n + 1):
            pile = [c.index for c in rnd.pile[s - 1]]
            reason = pile_refusal(state.dealt[s - 1] & ~state.kept[s - 1], card_mask(pile), len(pile))
            if reason is not None:
                raise RecordError(reason, r)
            state._pile(s, pile)
        state._logged([setup_action(DEAL, 0, groups=(*rnd.deal, rnd.aside))]
                      + [setup_action(KEEP, s, tuple(rnd.hand[s - 1])) for s in range(1, n + 1)]
                      + [setup_action(PILE, s, tuple(rnd.pile[s - 1])) for s in range(1, n + 1)])

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION, "players": list(self.players),
                             "teams": self.teams}
        if self.date is not None:
            d["date"] = self.date
        d["rounds"] = [rnd.to_dict() for rnd in self.rounds]
        if self.result is not None:
            d["result"] = json.loads(json.dumps(self.result))
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d

    def to_json(self) -> str:
        """The record as JSON text: one line per round field and one per trick's actions."""
        d = self.to_dict()
        rounds = d.pop("rounds")
        result = d.pop("result", None)
        out = [json.dumps(d, ensure_ascii=False)[:-1] + ',\n "rounds": [']
        parts = []
        for rnd in rounds:
            lines = [f'  {{"starter": {rnd["starter"]},']
            for key in ("deal", "aside", "hand", "pile"):
                lines.append(f'   "{key}": {json.dumps(rnd[key])},')
            acts = rnd["actions"]
            chunks = [acts[i:i + 6] for i in range(0, len(acts), 6)]
            body = ",\n    ".join(", ".join(json.dumps(a) for a in ch) for ch in chunks)
            lines.append(f'   "actions": [{body}]}}')
            parts.append("\n".join(lines))
        out.append(",\n".join(parts) + "]")
        text = "\n".join(out) if parts else out[0] + "]"
        if result is not None:
            text += ',\n "result": ' + json.dumps(result)
        return text + "}\n"

    @classmethod
    def from_dict(cls, d: Any) -> "Record":
        """Validate the shape of a parsed record (A7's defaults apply). Raises RecordError
        saying what is wrong; set-up faults name their round (A6)."""
        if not isinstance(d, dict):
            raise RecordError("not a record: the top level must be a JSON object")
        if d.get("format") != FORMAT:
            raise RecordError(f"not a record: format must be {FORMAT!r}, got {d.get('format')!r}"[:200])
        version = d.get("version")
        if type(version) is not int or version < 1:
            raise RecordError(f"bad version: {version!r}"[:80])
        if version > VERSION:
            raise RecordError(f"record version {version} is newer than this program reads (up to {VERSION})")
        players = d.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError('bad players: "players" must be a list of 2 to 4 names')
        if not 2 <= len(players) <= 4:
            raise RecordError(f"bad players: 2 to 4 players, not {len(players)}")
        teams = d.get("teams", False)
        if type(teams) is not bool:
            raise RecordError('bad teams: "teams" must be true or false')
        if teams and len(players) != 4:
            raise RecordError("bad teams: teams need 4 players")
        date = d.get("date")
        if date is not None and not isinstance(date, str):
            raise RecordError('bad "date": must be a string')
        raw_rounds = d.get("rounds", [])
        if not isinstance(raw_rounds, list):
            raise RecordError('bad rounds: "rounds" must be a list')
        n = len(players)
        rounds = []
        for r, raw in enumerate(raw_rounds, 1):
            if r > ROUNDS:
                raise RecordError("match already over", r)
            rounds.append(_round_from_dict(raw, r, n))
        result = d.get("result")
        if result is not None:
            ok = (isinstance(result, dict) and _int_list(result.get("scores"), n)
                  and isinstance(result.get("winners"), list) and all(type(w) is int for w in result["winners"])
                  and ("teams" not in result or _int_list(result["teams"], 2)))
            if not ok:
                raise RecordError('bad result: must be {"scores": [int per seat], "winners": [seats]'
                                  '[, "teams": [int, int]]}')
        extra = {k: v for k, v in d.items()
                 if k not in ("format", "version", "players", "teams", "date", "rounds", "result")}
        return cls(list(players), teams, rounds, date, result, extra)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Record":
        """Parse JSON text. Raises RecordError (never JSONDecodeError/UnicodeDecodeError)."""
        from game.records import parse_json
        return cls.from_dict(parse_json(text if isinstance(text, bytes) else text.encode("utf-8")))


#: "<seat> play <card>" -> (seat, card index), for the kernel's replay of the plays.
_PLAY_KEY: dict[str, tuple[int, int]] = {t: (a.seat, a.card.index) for t, a in _PARSED.items()
                                         if a.kind is PLAY and a.card is not None}


def _last_trick_had_thief(state: State) -> bool:
    """Whether the Thief was played in the trick that ended the round (A5): the last
    ``players`` plays of the history."""
    plays = 0
    for a in reversed(state.history):
        if a.kind is PLAY:
            if a.card is not None and a.card.index == THIEF:
                return True
            plays += 1
            if plays == state.players:
                break
    return False


def _int_list(v: Any, n: int) -> bool:
    return isinstance(v, list) and len(v) == n and all(type(x) is int for x in v)


def _card_list(v: Any, what: str, r: int, seat: int = 0) -> tuple[Card, ...]:
    """The cards named in list ``v``; errors name ``what`` (``"hand"``), ``of seat N`` if ``seat``."""
    if type(v) is list:
        try:
            return tuple([_CARD_BY_NAME[c] for c in v])
        except (KeyError, TypeError):
            pass
    if seat:
        what = f"{what} of seat {seat}"
    if type(v) is not list or not all(isinstance(c, str) for c in v):
        raise RecordError(f"bad {what}: must be a list of card names", r)
    try:
        return tuple(Card.from_name(c) for c in v)
    except ValueError as e:
        raise RecordError(f"{e} in the {what}", r) from None


_CARD_BY_NAME = {c.name: c for c in CARDS}


def _round_from_dict(raw: Any, r: int, n: int) -> RoundRecord:
    if not isinstance(raw, dict):
        raise RecordError("bad round: must be an object", r)
    starter = raw.get("starter")
    if type(starter) is not int:
        raise RecordError('bad starter: "starter" must be a seat number', r)
    if not 1 <= starter <= n:
        raise RecordError(f"unknown seat {starter} as starter", r)
    per_seat = {}
    for key, what in (("deal", "deal"), ("hand", "hand"), ("pile", "pile")):
        v = raw.get(key)
        if not isinstance(v, list) or len(v) != n:
            raise RecordError(f'{"bad deal" if key == "deal" else "bad " + what}: "{key}" must hold one list per seat ({n})', r)
        per_seat[key] = tuple([_card_list(g, what, r, s) for s, g in enumerate(v, 1)])
    aside = _card_list(raw.get("aside", []), "aside", r)
    actions = raw.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('bad actions: "actions" must be a list of strings', r)
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"bad actions: more than {MAX_ACTIONS} actions", r)
    if not all([type(a) is str for a in actions]):
        for j, a in enumerate(actions, 1):
            if not isinstance(a, str):
                raise RecordError(f"an action must be a string, not {type(a).__name__}", r, j, json.dumps(a)[:40])
    return RoundRecord(starter, per_seat["deal"], aside, per_seat["hand"], per_seat["pile"], list(actions))


def _result_text(res: dict[str, Any]) -> str:
    parts = []
    for key in ("scores", "teams", "winners"):
        if key in res:
            parts.append(f"{key}={','.join(str(x) for x in res[key])}")
    return " ".join(parts)


def now_iso() -> str:
    """The current UTC time as the record's ``date`` (``2026-11-22T10:00:00Z``)."""
    return datetime.now(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_line(state: State) -> str:
    """The text after ``PATH: `` of ``rose-king check`` for a replayed record:

    ``ok finished scores=14,9,17 winners=3 rounds=3`` (teams: ``scores=... teams=23,17
    winners=1,3 rounds=3``) or ``ok in-progress round=2 trick=5 to-act=3 scores=4,9,2``
    (between rounds: the next round, trick 1, its starter; A2, A3).
    """
    def join(xs: Iterable[object]) -> str:
        return ",".join(str(x) for x in xs)
    outcome = state.outcome()
    if outcome is not None:
        teams = "" if outcome.team_scores is None else f" teams={join(outcome.team_scores)}"
        return f"ok finished scores={join(outcome.scores)}{teams} winners={join(outcome.winners)} rounds={ROUNDS}"
    if state.phase in (Phase.START, Phase.DEAL):
        to_act = state.next_starter()
        trick = 1
    else:
        to_act, trick = state.to_act, state.trick_no
    return (f"ok in-progress round={state.round} trick={trick} to-act={to_act or 'none'} "
            f"scores={join(state.scores())}")


#: The issue's sample record, with the two "..." hands filled in (tests and the doctest above).
SAMPLE: dict[str, Any] = {
    "format": FORMAT, "version": 1, "players": ["Ann", "Bob", "Cas"], "teams": False,
    "date": "2026-11-22T10:00:00Z",
    "rounds": [{
        "starter": 1,
        "deal": [["K4", "THIEF", "R3", "KING", "M1", "P2", "R6", "K7", "M5", "P9", "P10", "QUEEN"],
                 ["K1", "R5", "M3", "EXECUTIONER", "R1", "K2", "R2", "K3", "M4", "P1", "P3", "P4"],
                 ["P7", "BEGGAR", "M2", "P5", "P6", "P8", "R4", "R7", "K5", "K6", "M6", "M7"]],
        "aside": [],
        "hand": [["K4", "THIEF", "R3", "KING", "M1", "P2"],
                 ["K1", "R5", "M3", "EXECUTIONER", "R1", "K2"],
                 ["P7", "BEGGAR", "M2", "P5", "P6", "P8"]],
        "pile": [["R6", "P10", "K7", "M5", "QUEEN", "P9"],
                 ["R2", "K3", "M4", "P1", "P3", "P4"],
                 ["M6", "M7", "R4", "R7", "K5", "K6"]],
        "actions": ["1 play K4", "2 play K1", "3 play P7",
                    "1 play THIEF", "2 play R5", "3 play BEGGAR", "1 steal 2 M3",
                    "1 play R3", "2 play EXECUTIONER", "3 play M2", "2 execute R3"]}]}
