"""Shared fixtures for the Python tests that drive the real `atelier` binary.

`start_server(**extra_env)` starts `.build/debug/atelier serve` on a free port
with its own temporary DATA_DIR and SQLite file, waits for `GET /health`, and
stops it after the test. If the test fails, the server's log is printed in
the teardown (pytest shows it under "Captured stdout teardown").

The binary path can be overridden with ATELIER_BIN.
"""

from __future__ import annotations

import os
import shutil
import uuid
from typing import Callable, Iterator

import pytest

from atelier_testing import AtelierServer, free_port, item_failed


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item (item.rep_setup / rep_call / rep_teardown)
    so fixtures can tell in their teardown whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture
def start_server(request, tmp_path_factory) -> Iterator[Callable[..., AtelierServer]]:
    """Factory: `server = start_server(MAILER="smtp", ...)` starts a fresh server.

    Extra keyword arguments become environment variables (they override the
    defaults below). May be called more than once in a test.
    """
    servers: list[AtelierServer] = []

    def _start(**extra_env: str) -> AtelierServer:
        tmp = tmp_path_factory.mktemp("atelier")
        data_dir = tmp / "data"
        data_dir.mkdir()
        port = free_port()
        env = dict(os.environ)
        env.update(
            {
                "DATA_DIR": str(data_dir),
                "DATABASE_URL": f"sqlite:{data_dir}/atelier.sqlite",
                "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
                "LOG_LEVEL": "warning",
            }
        )
        env.update({key: str(value) for key, value in extra_env.items()})
        server = AtelierServer(port=port, data_dir=data_dir, log_path=tmp / "server.log", env=env)
        servers.append(server)
        server.start()
        return server

    yield _start

    for server in servers:
        server.stop()
    if item_failed(request.node):
        for server in servers:
            print(f"\n--- atelier server log (port {server.port}, {server.log_path}) ---\n{server.log()}")
    else:
        for server in servers:
            shutil.rmtree(server.data_dir, ignore_errors=True)


@pytest.fixture
def server(start_server) -> AtelierServer:
    """A server with the default test environment."""
    return start_server()


@pytest.fixture
def get_free_port() -> Callable[[], int]:
    return free_port


@pytest.fixture
def unique_email() -> Callable[[str], str]:
    def make(prefix: str = "user") -> str:
        return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"

    return make
