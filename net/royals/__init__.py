"""Royals & Riots over the LAN: the pure protocol layer (docs/protocol.md, "Royals & Riots").

API (issue 13; stable — changes are announced in commit messages)
=================================================================
No sockets, no threads, no clock: time comes in as ``now`` (seconds, monotonic). The
transport (net/transport.py) does the handshake (shared ``hello``/``auth``), decodes frames
with ``FrameDecoder(SCHEMAS)`` and hands every *match* message to these machines:

Host (seat 1; one :class:`HostMatch` per match)::

    m = HostMatch(game_id, ["Ann", "Bo", "Cy"], computers={3}, date=iso, now=t)
    events = m.start(t)                         # opens round 1's first coin
    events = m.receive(seat, msg_dict, t)       # a joiner's commit/reveal/act/ack/error
    for seat, msgs in m.outgoing().items(): ... # frames to send, per joiner seat (drained)
    m.play(action, t)                           # seat 1's person decides (IllegalMoveError)
    m.decide(seat, action, t)                   # a computer seat decides (from Turn.observation)
    m.tick(t)                                   # deadlines: withheld commits, forfeits
    m.disconnected(seat, t) / m.connected(seat, t) / m.resume(seat, have, t)
    m.set_computer(seat, True|False, t)         # hand an away seat to a computer (and back)
    m.abandon(reason)                           # the host leaves: the match ends for all
    m.record()                                  # the match record (dict), identical on every peer
    m.turn(); m.waiting_for(); m.state (the true match: never shown); m.over; m.computers

Joiner (one :class:`JoinerMatch` per joiner, seats 2..4)::

    j = JoinerMatch(game_id, seat, names, date=host_date, now=t)
    events = j.start(t)                         # its part of round 1's first coin
    events = j.receive(msg_dict, t)             # the host's commits/act/you/hidden/proxy/round/ack/error
    msgs = j.outgoing()                         # frames for the host (drained)
    j.play(action, t)                           # its decision (IllegalMoveError)
    j.my_turn()                                 # its Observation when it must decide, else None
    j.view                                      # its SeatView: .state (a full State), .observation()
    j.received                                  # host messages held: the ``ply`` of a resume hello
    j.resumed(t)                                # after a reconnection: re-send what may be lost
    j.journal() / JoinerMatch.from_journal(d)   # its promises, for a restart
    j.tick(t); j.record(); j.over
    m.fingerprint / j.fingerprint              # the match fingerprint (bytes): show record["lan"]["fingerprint"]
                                                # at the end so players can compare (fold_fingerprint)

Rate limits for the transport: ``net.limits.ROYALS_RATES``. Events (both): :class:`Applied`, :class:`Turn` (a seat must decide, with its Observation),
:class:`CoinOpened`, :class:`RoundChecked`, :class:`SeatProxy`, :class:`Refused` (a message
refused: close that connection, the match goes on), :class:`MatchOver` (the match ended for
all; ``kind`` finished/illegal/coin/forfeit/left).

Building blocks (the first step of issue 13):

- :data:`SCHEMAS`: the shared messages plus Royals' own (``commits``, ``act``, ``you``,
  ``hidden``, ``round``), for :func:`net.framing.encode_frame`/``FrameDecoder(schemas=SCHEMAS)``.
- The joint coin of 2-4 peers: :func:`peer_of` (game seat -> coin seat byte),
  :func:`open_coin`, :func:`coin_outcome` (a chance event's outcome from every peer's secret).
- :func:`messages_for`: what one joiner is sent for one action (public ``act``, its own
  ``you``, or a ``hidden`` notice), so no joiner is told another seat's unplayed cards.
- :func:`check_round`: the round-end check every peer runs on the host's ``round`` reveal
  (coins open their commitments, every chance outcome follows from its coin, every decision
  is legal, what this peer was told during the round matches); raises :class:`PlayError`
  naming the seat and the play.


The package: :mod:`.messages` (schemas, coin, events, deadlines, fingerprint), :mod:`.audit`
(the round check), :mod:`.host` (:class:`HostMatch`), :mod:`.joiner` (:class:`JoinerMatch`);
:mod:`.fair` and :mod:`.fair_messages`: protocol version 4, the match machine with no trusted
dealer (issue 34, docs/mental-poker.md), one :class:`~net.match.MatchMachine` for every seat on
the one LAN layer (``net.royals.fair.FAIR``, not yet registered on the game's plugin)."""

from .audit import *  # noqa: F401,F403
from .audit import Heard, _match_heard, check_round  # noqa: F401
from .host import HostMatch  # noqa: F401
from .joiner import JoinerMatch  # noqa: F401
from .messages import *  # noqa: F401,F403
from .messages import (
    _ACTION, _CARDS, _WORD, _actor, _decider, _fault_seat, _is_decision, _names, _record, _result_text)  # noqa: F401
