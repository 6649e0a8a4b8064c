"""The dealer-free deck ("mental poker", docs/mental-poker.md): cards as group elements, a
joint shuffle by 2-8 peers with commutative encryption and per-position keys, opening to one
owner or to all, sub-deck re-shuffles, a joint position coin and the round-end audit. Pure:
no sockets, threads or pygame; secrets come from ``secrets``.

- :mod:`.group`: the group (edwards25519's prime-order subgroup via libsodium), validation,
  card points, key commitments, :class:`DeckError`.
- :mod:`.shuffle`: the messages and the public :class:`Shuffle` machine.
- :mod:`.peer`: :class:`DeckPeer`, one seat's secrets, passes, keys, openings and journal.
- :mod:`.audit`: the round-end replay naming a cheater.
- :mod:`.choice`: a joint coin choosing a position.
"""

from .audit import Withheld, audit, audit_round, check_claims
from .choice import joint_choice, secret_ok
from .group import BrokenDeck, DeckError, card_points, check_element, key_commitment
from .peer import DeckPeer, subdeck
from .shuffle import KeyShare, Pass, Reveal, Shuffle, decode

__all__ = ["BrokenDeck", "DeckError", "DeckPeer", "KeyShare", "Pass", "Reveal", "Shuffle", "Withheld",
           "audit", "audit_round", "card_points", "check_claims", "check_element", "decode",
           "joint_choice", "key_commitment", "secret_ok", "subdeck"]
