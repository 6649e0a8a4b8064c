"""Royals & Riots over the LAN, with no trusted dealer (issue 34; docs/protocol.md, "Royals &
Riots with no trusted dealer (protocol version 4)"; docs/mental-poker.md).

- :mod:`.fair`: :class:`~net.royals.fair.FairMatch`, one :class:`net.match.MatchMachine` for
  every seat of a match on the one LAN layer, and :data:`~net.royals.fair.FAIR`, the game's LAN
  part (registered as ``game.royals.plugin.GAME.lan``).
- :mod:`.fair_messages`: the signed bodies it exchanges (shuffle passes, key shares, decisions,
  coins, the round-end audit and logs).

The joint shuffle and keys are :mod:`net.deck`; signed envelopes and the match code
:mod:`net.signed`. Nothing here touches a socket, a thread or a clock.
"""
