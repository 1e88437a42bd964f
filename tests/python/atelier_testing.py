"""Helpers for the Python tests that drive the real `atelier` binary.

Imported by tests/python/conftest.py (fixtures) and by tests that need them
directly; kept out of conftest.py because every conftest.py is a module named
`conftest`, which cannot be imported reliably.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO_ROOT / ".build" / "debug" / "atelier"
STARTUP_TIMEOUT = 60.0
LOG_TAIL_BYTES = 200_000

# Talk to the local server directly even where the environment sets a proxy
# (requests, chromium and the server's own HTTP client all honour these).
for _var in ("NO_PROXY", "no_proxy"):
    os.environ[_var] = ",".join(filter(None, ["127.0.0.1", "localhost", os.environ.get(_var)]))


def atelier_bin() -> Path:
    return Path(os.environ.get("ATELIER_BIN", DEFAULT_BIN))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AtelierServer:
    port: int
    data_dir: Path
    log_path: Path
    env: dict[str, str] = field(repr=False)
    process: subprocess.Popen | None = field(default=None, repr=False)
    _log_file: object = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def api(self, path: str) -> str:
        """URL of a JSON API path, e.g. server.api("/auth/signup")."""
        return self.url("/api/v1" + (path if path.startswith("/") else "/" + path))

    def log(self) -> str:
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        if len(data) > LOG_TAIL_BYTES:
            data = b"[... earlier output cut ...]\n" + data[-LOG_TAIL_BYTES:]
        return data.decode("utf-8", "replace")

    def start(self) -> None:
        binary = atelier_bin()
        if not binary.exists():
            pytest.fail(f"server binary {binary} not found; build it with `swift build` (or set ATELIER_BIN)")
        self._log_file = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(self.port)],
            cwd=REPO_ROOT,  # templates, Public/ and openapi.yaml are read relative to it
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        last_error = "no answer"
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                pytest.fail(f"atelier exited with status {code} during start-up (its log is printed below)")
            try:
                response = requests.get(self.url("/health"), timeout=2)
                if response.status_code == 200:
                    return
                last_error = f"HTTP {response.status_code}"
            except requests.RequestException as error:
                last_error = repr(error)
            time.sleep(0.2)
        self.stop()
        pytest.fail(
            f"atelier did not answer GET /health with 200 within {STARTUP_TIMEOUT:.0f}s "
            f"(last: {last_error}; its log is printed below)"
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


def item_failed(item) -> bool:
    return any(getattr(getattr(item, "rep_" + when, None), "failed", False) for when in ("setup", "call"))
