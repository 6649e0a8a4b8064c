"""The round-end audit every Royals & Riots peer runs on the host's ``round`` reveal
(:func:`check_round`, docs/protocol.md, "The round-end reveal, check and acks"); :class:`Heard`
is what one joiner was told and did during the round. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.royals.engine import (
    CARDS, DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, IllegalMoveError, InvalidMoveError, State)

from ..coin import commitment
from .messages import PlayError, _names, coin_outcome, peer_of


# --------------------------------------------------------------------------- the round-end check
@dataclass
class Heard:
    """What one joiner was told and did during a round, for :func:`check_round`.

    ``commits``: coin purpose -> the commitments of every peer in seat order (from ``commits``);
    ``my_secrets``: purpose -> our own secret; ``acts``: ply -> public action text;
    ``yous``: ply -> list of card-name strings told to us alone; ``hidden``: ply -> seat;
    ``own``: ply -> the action text we sent; ``proxy``: ``[from ply, to ply or None]``
    spans in which the host's computer played our seat (its decisions and coin parts are
    then the host's, not ours).
    """

    seat: int
    commits: dict[int, list[bytes]] = field(default_factory=dict)
    my_secrets: dict[int, bytes] = field(default_factory=dict)
    acts: dict[int, str] = field(default_factory=dict)
    yous: dict[int, list[str]] = field(default_factory=dict)
    hidden: dict[int, int] = field(default_factory=dict)
    own: dict[int, str] = field(default_factory=dict)
    proxy: list[list] = field(default_factory=list)

    def proxied(self, ply: int) -> bool:
        """Whether the host's computer held our seat at ``ply``."""
        return any(a <= ply and (b is None or ply < b) for a, b in self.proxy)

    def hear(self, msg: dict) -> None:
        """Record one decoded message from the host (``commits``, ``act``, ``you``, ``hidden``)."""
        t = msg["t"]
        if t == "commits":
            self.commits[msg["for"]] = list(msg["c"])
        elif t == "act":
            self.acts[msg["ply"]] = msg["a"]
        elif t == "you":
            self.yous.setdefault(msg["ply"], []).append(msg["cards"])
        elif t == "hidden":
            self.hidden[msg["ply"]] = msg["seat"]


def check_round(state: State, game_id: bytes, reveal: dict, heard: Heard | None = None) -> list[Action]:
    """Check the host's ``round{round, first, actions, secrets}`` reveal against ``state`` (this
    peer's copy of the match at the start of the round, at ply ``first``; it is advanced through
    the round on success) and, for a joiner, against what it ``heard``.

    ``secrets`` holds, for each chance event of the round in order, the secret of every seat
    (seat 1 first; the host supplies those of computer seats). Checked, in order, per action:
    a chance event's coin exists, every secret opens the commitment this peer holds (a
    joiner's own secret must be the one it kept) and the action equals :func:`coin_outcome`;
    a decision is legal (:meth:`State.push_checked`); a joiner's own decisions are the ones it
    sent; the public text, the hidden seat or the cards it was told at that ply match. Returns
    the actions. Raises :class:`PlayError` (``coin`` for a lying reveal, naming seat 1, the
    host; ``illegal`` for a play, naming its seat)."""
    first = reveal["first"]
    if first != state.ply or state.round != reveal["round"] or state.is_over():
        raise PlayError(1, first, "round", f"round {reveal['round']} from ply {first} is not next: we are at "
                        f"round {state.round}, ply {state.ply}", "order")
    flat, n = reveal["secrets"], state.players
    if len(flat) % n:
        raise PlayError(1, first, "round", f"the secrets do not come in groups of {n}", "coin")
    groups = [flat[i:i + n] for i in range(0, len(flat), n)]
    done: list[Action] = []
    for text in reveal["actions"]:
        ply = state.ply
        try:
            a = Action.from_str(text)
        except (InvalidMoveError, ValueError) as e:
            raise PlayError(1, ply, text[:40], f"unreadable action: {e}", "coin") from None
        event = state.chance()
        if event is not None:
            if not groups:
                raise PlayError(1, ply, text, "no coin secrets left for this chance event", "coin")
            sec = groups.pop(0)
            for s, secret in enumerate(sec, 1):
                if heard is not None and s == heard.seat and heard.my_secrets.get(ply) != secret \
                        and not heard.proxied(ply):
                    raise PlayError(1, ply, text, f"the reveal changes seat {s}'s own secret", "coin")
                held = heard.commits.get(ply) if heard is not None else None
                if heard is not None and (held is None or len(held) != len(sec)):
                    raise PlayError(1, ply, text, "a coin whose commitments we were never sent", "coin")
                if held is not None and commitment(game_id, ply, peer_of(s), secret) != held[s - 1]:
                    raise PlayError(s, ply, text, f"seat {s}'s secret does not open its commitment", "coin")
            expected = coin_outcome(event, game_id, ply, sec)
            if str(expected) != text:
                raise PlayError(1, ply, text, f"the coin gives {str(expected)[:80]}, not this", "coin")
            state.push(a)
        else:
            decider = state.to_act if a.kind is START else a.seat
            pile = state.piles[a.seat - 1] if a.kind is PLAY and 1 <= a.seat <= state.players else []
            drawn = CARDS[pile[-1]].name if pile else None
            try:
                state.push_checked(a)
            except IllegalMoveError as e:
                raise PlayError(decider or 1, ply, text, str(e)) from None
            if heard is not None and decider == heard.seat and heard.own.get(ply) != text \
                    and not heard.proxied(ply):
                raise PlayError(1, ply, text, f"a decision of seat {decider} (ours) that we did not make")
            if heard is not None and a.kind is PLAY and a.seat == heard.seat \
                    and [x for x in heard.yous.get(ply, [])] != ([drawn] if drawn else []):
                raise PlayError(1, ply, text, f"we were told we drew {heard.yous.get(ply)}, the revealed pile "
                                f"gives {drawn}", "coin")
        done.append(a)
        if heard is not None:
            _match_heard(heard, ply, a, text)
        if state.round != reveal["round"] or state.is_over():
            break
    if groups:
        raise PlayError(1, state.ply, "round", "more coin secrets than chance events", "coin")
    if len(done) != len(reveal["actions"]):
        raise PlayError(1, state.ply, "round", "actions after the end of the round", "coin")
    if state.round == reveal["round"] and not state.is_over():
        raise PlayError(1, state.ply, "round", "the revealed round does not end", "coin")
    return done


def _match_heard(heard: Heard, ply: int, a: Action, text: str) -> None:
    """The reveal must agree with what the joiner was told at ``ply`` (else the host lied:
    ``coin``, naming seat 1)."""
    me = heard.seat
    public = heard.acts.get(ply)
    if a.kind in (START, PLAY, STEAL, EXECUTE) and public != text:
        told = "nothing" if public is None else repr(public)
        raise PlayError(1, ply, text, f"we were told {told} for this ply", "coin")
    if a.kind is DEAL:
        told = heard.yous.get(ply, [None])[0]
        if told != _names(a.groups[me - 1]):
            raise PlayError(1, ply, "deal", "the deal differs from the cards we were dealt", "coin")
    if a.kind in (KEEP, PILE):
        if a.seat != me and heard.hidden.get(ply) != a.seat:
            raise PlayError(1, ply, text, "a hidden action we were not told of", "coin")
        if a.seat == me:
            mine = a.cards if a.kind is KEEP else sorted(a.cards, key=lambda c: c.index)
            if heard.yous.get(ply) != [_names(mine)]:
                raise PlayError(1, ply, text, "we were told other cards for our own hand or pile", "coin")
