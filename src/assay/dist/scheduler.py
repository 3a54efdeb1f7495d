"""Which Dask scheduler addresses assay can connect to, checked before any data is read.

``distributed.Client`` meets an address it cannot use in ways a person cannot act on: a
``tls://`` address without certificates is a ``TypeError`` about an ``ssl_context``, a
``ucx://`` one without UCX-Py an abstract class, an ``inproc://`` one of another process
(which no command can reach) an unpacking error. :func:`check_address` says instead what to
configure or type.
"""

from __future__ import annotations

from ..errors import OptionError

__all__ = ["SCHEMES", "check_address"]

#: The address schemes ``distributed`` knows (``host:port`` alone is ``tcp``).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
#: Schemes whose connections are encrypted: they need a client certificate configured.
_TLS = ("tls", "wss")
_TLS_HINT = (
    "set distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
    "distributed.comm.tls.client.key in Dask's configuration (for example "
    "DASK_DISTRIBUTED__COMM__TLS__CA_FILE=ca.pem and the same for CLIENT__CERT and CLIENT__KEY)"
)


def check_address(address: str, *, option: str = "--dask") -> str:
    """``address`` if a ``distributed.Client`` of this process can connect to it (``local``:
    a cluster of this machine), else an :class:`~assay.errors.OptionError` that says what to
    type or configure. Whether the scheduler answers is left to the connection."""
    if address == "local":
        return address
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEMES:
        known = ", ".join(f"{s}://" for s in SCHEMES if s != "inproc")
        raise OptionError(
            f"{option} {address!r}: unknown address scheme {scheme!r}; give 'local' or a "
            f"scheduler address with one of {known} (e.g. tcp://host:8786)",
            option=option,
        )
    if scheme == "inproc" and not _this_process(rest):
        raise OptionError(
            f"{option} {address!r}: an inproc:// address names a scheduler inside another "
            "Python process, which a command cannot reach; give tcp://host:port or 'local'",
            option=option,
        )
    if not rest:
        raise OptionError(
            f"{option} {address!r}: no host; give {scheme}://host:port", option=option
        )
    if scheme == "ucx":
        _need_ucx(address, option)
    if scheme in _TLS:
        _need_certificates(address, option)
    return address


def _this_process(rest: str) -> bool:
    """Whether an inproc address (``host/pid/n``) is of this process: the CLI run from Python
    (a test, a notebook) beside its own in-process scheduler."""
    import os

    parts = rest.split("/")
    return len(parts) == 3 and parts[1] == str(os.getpid())


def _need_ucx(address: str, option: str) -> None:
    import importlib.util

    if importlib.util.find_spec("ucp") is None:
        raise OptionError(
            f"{option} {address!r}: ucx:// needs UCX-Py (pip install ucx-py-cu12 or the "
            "build for your CUDA); or give a tcp:// address",
            option=option,
        )


def _need_certificates(address: str, option: str) -> None:
    from .._optional import require

    distributed = require("distributed")
    context = distributed.Security().get_connection_args("client").get("ssl_context")
    if context is None:
        raise OptionError(
            f"{option} {address!r}: a TLS scheduler needs this client's certificates: " + _TLS_HINT,
            option=option,
        )
