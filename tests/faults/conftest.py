"""Fixtures for the fault suite: each test gets a factory for servers on its own data folder,
and every server still running at the end is stopped (its log printed if the test failed)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from atelier_testing import item_failed  # noqa: E402
from faults import make_server  # noqa: E402


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture
def servers(request, tmp_path):
    made = []
    folders = [tmp_path]

    def _make(_tmp=None, **extra_env):
        """`_tmp`: a folder other than pytest's for this server (removed afterwards too)."""
        if _tmp is not None:
            folders.append(_tmp)
        server = make_server(_tmp or tmp_path, **extra_env)
        made.append(server)
        return server

    yield _make
    for server in made:
        server.stop()
    if item_failed(request.node):
        for server in made:
            print(f"\n--- atelier log (port {server.port}) ---\n{server.log()}")
    else:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
