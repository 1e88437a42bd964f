"""The cluster suite: `scripts/cluster` (PostgreSQL primary and replica, moto S3, three instances,
HAProxy) started once for the session, stopped afterwards; its logs are kept in .cluster/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from atelier_testing import REPO_ROOT  # noqa: E402

LB = "http://127.0.0.1:28080"
INSTANCES = [28081, 28082, 28083]


@pytest.fixture(scope="session")
def cluster():
    started = subprocess.run([str(REPO_ROOT / "scripts" / "cluster")], cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)
    assert started.returncode == 0, started.stdout + started.stderr
    yield
    subprocess.run([str(REPO_ROOT / "scripts" / "cluster"), "down"], cwd=REPO_ROOT, capture_output=True, timeout=300)
