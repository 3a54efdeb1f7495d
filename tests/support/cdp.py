"""Headless Chromium driven over the DevTools protocol, with the standard library only.

``Browser(chromium)`` starts Chromium with ``--remote-debugging-port=0`` (it writes the port it
chose to ``DevToolsActivePort`` in its profile), opens one page target and talks to it over a
minimal WebSocket client (RFC 6455: a masked text frame out, unmasked frames in). ``goto``
loads a URL and waits for its load event; ``evaluate`` runs JavaScript (awaiting a promise);
``errors`` are the console errors, uncaught exceptions and failed loads seen so far.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

#: Flags for a quiet headless Chromium that runs as root too and fetches nothing by itself.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
)


class Browser:
    """One headless Chromium with one page (see the module documentation)."""

    def __init__(self, chromium: str, *, timeout: float = 30.0) -> None:
        self._profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [chromium, *FLAGS, "--remote-debugging-port=0", f"--user-data-dir={self._profile.name}",
             "--window-size=1280,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._next = 0
        try:
            port = _active_port(Path(self._profile.name), self._process, timeout)
            targets = json.loads(_get(f"http://127.0.0.1:{port}/json/list"))
            page = next(t for t in targets if t.get("type") == "page")
            self._socket = _connect(page["webSocketDebuggerUrl"], timeout)
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable")
        except BaseException:
            self.close()
            raise

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call ``method``; its result (events met meanwhile go to :attr:`events`)."""
        self._next += 1
        _send_frame(
            self._socket, json.dumps({"id": self._next, "method": method, "params": params})
        )
        while True:
            message = json.loads(_read_message(self._socket))
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self.events.append(message)

    def goto(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + self.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in {self.timeout} s")
            self.events.append(json.loads(_read_message(self._socket)))

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise is awaited)."""
        result = self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads among :attr:`events`."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(str(details.get("exception", {}).get("description", details)))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a)) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                entry = params["entry"]
                found.append(f"{entry.get('text')} {entry.get('url', '')}".strip())
        return found

    def close(self) -> None:
        """Stop Chromium (its whole process group: renderers write to the profile until they
        end) and remove its profile."""
        if getattr(self, "_socket", None) is not None:
            self._socket.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._process.pid, signal.SIGTERM)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait(timeout=10)
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _active_port(profile: Path, process: subprocess.Popen[bytes], timeout: float) -> int:
    found = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while not (found.exists() and found.read_text().strip()):
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with code {process.returncode}")
        if time.monotonic() > deadline:
            raise TimeoutError("chromium did not open its DevTools port")
        time.sleep(0.05)
    return int(found.read_text().splitlines()[0])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode())


def _connect(url: str, timeout: float) -> socket.socket:
    """A WebSocket connection to ``ws://host:port/path`` (the opening handshake)."""
    address, _, path = url.removeprefix("ws://").partition("/")
    host, _, port = address.partition(":")
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        .encode()
    )  # fmt: skip
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("the DevTools socket closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise ConnectionError(head.decode(errors="replace"))
    return sock


def _send_frame(sock: socket.socket, text: str) -> None:
    data = text.encode()
    header = bytes([0x81])  # FIN, text
    if len(data) < 126:
        header += bytes([0x80 | len(data)])
    elif len(data) < 1 << 16:
        header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
    mask = os.urandom(4)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def _read_message(sock: socket.socket) -> str:
    """One whole message (continuation frames joined; control frames skipped)."""
    parts = []
    while True:
        first, second = _read_exactly(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", _read_exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", _read_exactly(sock, 8))[0]
        payload = _read_exactly(sock, length)
        opcode = first & 0x0F
        if opcode == 0x8:
            raise ConnectionError("the DevTools socket closed")
        if opcode in (0x0, 0x1, 0x2):
            parts.append(payload)
            if first & 0x80:
                return b"".join(parts).decode()


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the DevTools socket closed")
        buf += chunk
    return bytes(buf)
