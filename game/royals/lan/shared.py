"""What the parts of the dealer-free Royals & Riots match share (:class:`FairState`) and the fault
they raise (:class:`Fault`). Pure.

:class:`game.royals.lan.match.FairMatch` is one object made of three parts, each readable
alone: the match flow (:mod:`.match`), the deck steps and the round's end
(:class:`~game.royals.lan.deal.DealSteps`) and who owes what with the verdicts
(:class:`~game.royals.lan.verdicts.Verdicts`). Every part reads state another part keeps: it
is declared here once, with the few methods one part calls on another, so the type checker
follows each part on its own. :class:`FairState` holds no value and does nothing itself.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, Union

from game.royals.engine import Action, SeatView, State

from net.deck import DeckPeer, Shuffle
from net.match import Output, Table, Verdict
from net.signed import Envelope, Inbox
from . import messages as fm

#: a seat's signed round end as queued (:func:`net.signed.parse_round_end` after ``"end"``):
#: ``("end", round, counts, transcript hash)``
RoundEnd = tuple[str, int, tuple[int, ...], bytes]
#: a body waiting in :attr:`FairState.queue`: a decoded body, or a round end
Queued = Union[fm.Body, RoundEnd]


class Evidence(Protocol):
    """A piece of a verdict's evidence: a signed envelope (:class:`net.signed.Envelope`) or the
    host's countersignature on one it relayed (:class:`game.royals.lan.relay.Relayed`), placed in
    the canonical order by its ``sender`` and ``seq``."""

    @property
    def sender(self) -> int: ...

    @property
    def seq(self) -> int: ...

    def to_bytes(self) -> bytes: ...


class Fault(Exception):
    """A verdict found while processing: ``kind`` (illegal, coin, forfeit), ``seat`` at fault,
    ``detail`` and the signed ``evidence`` (the envelopes that show it, any peer replays them)."""

    def __init__(self, kind: str, seat: int, detail: str, evidence: Sequence[Evidence] = ()) -> None:
        super().__init__(detail)
        self.kind, self.seat, self.detail, self.evidence = kind, seat, detail, tuple(evidence)


class FairState:
    """The state the parts of :class:`~game.royals.lan.match.FairMatch` share (see the module
    docstring): declared, never set, here."""

    # ------------------------------------------------------------------ the match (FairMatch.__init__)
    seat: int
    table: Table
    n: int
    gid: bytes
    host: bool
    local: tuple[int, ...]                    # the seats played here: ours, then the host's computers
    keys: dict[int, bytes]                    # seat -> its signing key, as announced
    inbox: Inbox | None                       # once every seat's key is known
    points: list[bytes]
    views: dict[int, SeatView]                # local seat -> its engine, fed only what it may know
    true: State                               # the round's true state, rebuilt at each audit
    decks: dict[int, DeckPeer]                # local seat -> its deck
    queue: list[tuple[Envelope, Queued]]      # accepted, not yet applied
    evidence: list[Evidence]                  # the signed envelopes behind the verdict
    claim: tuple[Envelope, fm.Body, list[Envelope]] | None   # a peer's verdict being checked
    _over: Verdict | None
    since: float                              # when the steps owed now became owed (s)

    # ------------------------------------------------------------------ the round (FairMatch._new_round)
    round: int
    stage: str                                # "round", then "audit"
    _bodies: dict[object, Any]                # this round's long bodies, made once
    kept: dict[int, tuple[int, ...]]
    pile_n: list[int]
    draws: dict[int, tuple[int, int]]         # owner -> pile ref owed to it (public)
    opened: dict[tuple[int, int], int]        # ref -> card opened to all
    coins: dict[int, dict[str, Any]]          # purpose -> commits, secrets, envs, renvs (and done)
    steal: tuple[int, int, int] | None        # (thief, victim, purpose)
    take: tuple[int, int] | None              # the victim's ref the coin picked
    acts: list[Action]
    keep_env: dict[int, Envelope]
    play_env: dict[int, Envelope]             # seat -> its latest play
    last_env: Envelope | None                 # the latest decision or coin part applied

    # ------------------------------------------------------------------ the round's deck (DealSteps._new_deal)
    d: int                                    # positions dealt to each seat
    sids: dict[int, bytes]                    # shuffle no -> shuffle id
    audit_seq: dict[int, int]                 # seat -> the sequence number of its audit
    audited: bool
    mismatch: set[int]                        # seats whose round end disagreed
    prev_ends: list[Envelope]                 # the round ends of the round before
    ends: dict[int, Envelope]                 # seat -> its round end
    logs: set[int]                            # seats whose log of this round came
    pass_env: dict[bytes, Envelope]           # sid -> its latest pass

    @property
    def view(self) -> SeatView:
        """This seat's view."""
        return self.views[self.seat]

    @property
    def _inbox(self) -> Inbox:
        """The inbox, once every seat's key is known (every signed body comes after that)."""
        assert self.inbox is not None, "a signed body before every seat's key"
        return self.inbox

    # ------------------------------------------------------------------ one part's, called by another
    def _new_round(self, r: int) -> None:                        # the match flow
        raise NotImplementedError

    def _pending_local(self) -> bool:                            # the match flow
        raise NotImplementedError

    def _accept(self, env: Envelope, via: int | None, relay: dict[str, Any] | None = None) -> bool:
        raise NotImplementedError                                # the match flow

    def _emit(self, seat: int, body: bytes) -> list[Output]:    # the match flow
        raise NotImplementedError

    def _shuffles(self) -> list[Shuffle]:                            # DealSteps
        raise NotImplementedError

    def _deck_final(self) -> bool:                               # DealSteps
        raise NotImplementedError

    def _revealed_all(self, s: int) -> bool:                     # DealSteps
        raise NotImplementedError
