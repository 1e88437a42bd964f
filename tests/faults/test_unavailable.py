"""What the server depends on goes away: PostgreSQL stopped for 10 s under load, and a media
folder that cannot be written. Both answer 503 problems with Retry-After (never 500), change
nothing, and the server recovers without a restart."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
import requests

from atelier_testing import free_port, REPO_ROOT
from faults import png


def postgres_bin(tool: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"), key=lambda p: int(p.split("/")[4]))
    if not found:
        subprocess.run([str(REPO_ROOT / "scripts" / "install-deps.sh"), "postgres"], check=False, stdout=subprocess.DEVNULL)
        found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"), key=lambda p: int(p.split("/")[4]))
    if not found:
        pytest.skip("PostgreSQL's server binaries are not installed")
    return found[-1]


class PrivatePostgres:
    """A cluster of this test's own on a free loopback port, run as the postgres user."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="atelier-faults-pg-"))
        self.port = free_port()
        user = pwd.getpwnam("postgres")
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.as_postgres(postgres_bin("initdb"), "-D", str(self.folder / "data"), "--auth=trust", "-U", "postgres")
        self.start()
        for statement in ("CREATE ROLE atelier LOGIN PASSWORD 'atelier'", "CREATE DATABASE atelier OWNER atelier"):
            self.as_postgres(postgres_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-c", statement)

    @property
    def url(self) -> str:
        return f"postgres://atelier:atelier@127.0.0.1:{self.port}/atelier"

    def as_postgres(self, *command: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=self.folder)

    def start(self) -> None:
        self.as_postgres(postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-w",
                         "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        self.as_postgres(postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m",
                        "immediate", "stop"], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def postgres():
    if not shutil.which("runuser"):
        pytest.skip("runuser is needed to run PostgreSQL as its own user")
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run([str(REPO_ROOT / "scripts" / "install-deps.sh"), "postgres"], check=False, stdout=subprocess.DEVNULL)
    cluster = PrivatePostgres()
    yield cluster
    cluster.remove()


def test_postgres_outage_is_503_then_recovers(servers, postgres):
    server = servers(DATABASE_URL=postgres.url)
    server.start()
    token = server.sign_up("reader")
    answers: list[tuple[float, int, str | None, str]] = []
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            for path in ("/api/v1/me", "/health/ready"):
                started = time.monotonic()
                try:
                    response = requests.get(server.url(path), headers={"Authorization": f"Bearer {token}"}, timeout=20)
                    answers.append((time.monotonic() - started, response.status_code, response.headers.get("Retry-After"),
                                    response.headers.get("Content-Type", "")))
                except requests.RequestException as error:
                    answers.append((time.monotonic() - started, 0, None, repr(error)))
            time.sleep(0.05)

    threads = [threading.Thread(target=load) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    postgres.stop()
    outage_from = len(answers)
    time.sleep(10)
    outage = answers[outage_from:]
    postgres.start()
    recovered = False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if requests.get(server.api("/me"), headers={"Authorization": f"Bearer {token}"}, timeout=20).status_code == 200:
            recovered = True
            break
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)

    statuses = sorted({status for _, status, _, _ in outage})
    assert outage, "no request was made during the outage"
    assert set(statuses) <= {200, 503}, f"statuses during the outage: {statuses}"
    unavailable = [a for a in outage if a[1] == 503]
    assert unavailable, "no 503 while the database was down"
    assert all(retry == "5" and "problem+json" in kind for _, _, retry, kind in unavailable if kind), unavailable[:3]
    assert max(seconds for seconds, *_ in outage) < 15, "a request hung while the database was down"
    assert recovered, "requests did not succeed again within 30 s of the database's return"


def test_read_only_media_folder_is_503_and_stores_nothing(servers):
    nobody = pwd.getpwnam("nobody")
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is needed to run the server without root (root writes to read-only folders)")
    # Root ignores file modes, so this server runs as nobody, with a data folder it owns, in a
    # folder nobody can reach (pytest's own temporary folders are root's alone).
    folder = Path(tempfile.mkdtemp(prefix="atelier-faults-ro-"))
    folder.chmod(0o755)
    server = servers(_tmp=folder)
    os.chown(server.data_dir, nobody.pw_uid, nobody.pw_gid)
    server.env["HOME"] = str(server.data_dir)
    original_start = server.start

    def start_as_nobody() -> None:
        import atelier_testing
        real_popen = atelier_testing.subprocess.Popen

        def popen(args, **kwargs):
            return real_popen(["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", *args], **kwargs)

        atelier_testing.subprocess.Popen = popen
        try:
            original_start()
        finally:
            atelier_testing.subprocess.Popen = real_popen

    start_as_nobody()
    token = server.sign_up("writer")
    assert server.upload(token, png(300, 200, seed=1)).status_code == 201
    media = server.data_dir / "media"
    for path in [media, *media.rglob("*")]:
        if path.is_dir():
            path.chmod(0o555)
    try:
        database = sqlite3.connect(server.data_dir / "atelier.sqlite")
        before = database.execute("SELECT count(*) FROM media").fetchone()[0]
        response = server.upload(token, png(300, 200, seed=2))
        assert response.status_code == 503, response.text
        assert response.headers.get("Retry-After") == "5"
        assert response.headers["Content-Type"].startswith("application/problem+json")
        assert database.execute("SELECT count(*) FROM media").fetchone()[0] == before
    finally:
        for path in [media, *media.rglob("*")]:
            if path.is_dir():
                path.chmod(0o755)
    assert server.upload(token, png(300, 200, seed=3)).status_code == 201, "uploads did not recover"
