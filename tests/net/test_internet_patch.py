"""The one patch of magic-wormhole (net/wormhole_patch.py) is written against a pinned version:
this fails when the installed library, or the source of a method it wraps, differs, so a new
version is read before the pin in pyproject.toml moves."""

import pytest

pytest.importorskip("wormhole")

from net import wormhole_patch  # noqa: E402


def test_the_pinned_version_is_installed():
    import wormhole
    assert wormhole.__version__ == wormhole_patch.PINNED


@pytest.mark.parametrize("name", sorted(wormhole_patch.UPSTREAM))
def test_each_wrapped_method_is_as_it_was_upstream(name):
    assert wormhole_patch.source_digest(name) == wormhole_patch.UPSTREAM[name], \
        f"{name} changed upstream: read it, adapt net/wormhole_patch.py, then update its digest"


def test_the_patch_sets_nodelay_and_keeps_to_loopback(monkeypatch):
    from wormhole._dilation.connector import Connector
    wormhole_patch.apply()
    monkeypatch.setenv("ROSE_KING_LAN_LOOPBACK", "1")
    assert Connector._get_listener_addresses(None) == ["127.0.0.1"]

    class Transport:
        nodelay = False

        def setTcpNoDelay(self, on):
            self.nodelay = on

    from wormhole._dilation.connection import DilatedConnectionProtocol

    class Probe:
        transport = Transport()
    wrapped = DilatedConnectionProtocol.connectionMade
    assert hasattr(wrapped, "__wrapped__")
    p = Probe()
    try:
        wrapped(p)
    except Exception:  # the upstream body needs a real connection; the option is set before it runs
        pass
    assert p.transport.nodelay is True


def test_the_librarys_own_error_at_close_is_not_printed_and_every_other_one_is():
    from automat._core import NoTransition
    from twisted.logger import LogLevel
    from twisted.python.failure import Failure

    from net.internet import LogFilter
    out: list[str] = []
    f = LogFilter(out.append)

    def unhandled(exc: Exception) -> None:
        f({"log_level": LogLevel.critical, "log_format": "Unhandled error in Deferred:", "log_time": 0.0})
        try:
            raise exc
        except Exception:
            f({"log_level": LogLevel.critical, "log_format": "", "log_failure": Failure(), "log_time": 0.0})
    unhandled(NoTransition("S3A", "add_message"))
    f({"log_level": LogLevel.info, "log_format": "a quiet note", "log_time": 0.0})
    assert out == []
    unhandled(ValueError("a real one"))
    assert "Unhandled error in Deferred" in out[0] and "a real one" in "".join(out)
