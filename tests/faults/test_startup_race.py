"""Three instances started at once on an empty PostgreSQL database: one migrates while the others
wait on the advisory lock, then find nothing to do. All three come up; every migration ran once."""

from __future__ import annotations

import subprocess
import threading

import requests

from test_unavailable import PrivatePostgres, postgres, postgres_bin  # noqa: F401  (the fixture)


def test_three_instances_migrate_once(servers, postgres, tmp_path):  # noqa: F811
    for folder in ("a", "b", "c"):
        (tmp_path / folder).mkdir(exist_ok=True)
    instances = [servers(tmp_path / name, DATABASE_URL=postgres.url) for name in ("a", "b", "c")]
    failures: list[BaseException] = []

    def start(server) -> None:
        try:
            server.start()
        except BaseException as error:  # noqa: BLE001  (pytest.fail raises a BaseException)
            failures.append(error)

    threads = [threading.Thread(target=start, args=(server,)) for server in instances]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    assert not failures, [str(failure) for failure in failures]
    for server in instances:
        assert requests.get(server.url("/health"), timeout=10).status_code == 200

    def psql(statement: str) -> str:
        return subprocess.run(
            ["runuser", "-u", "postgres", "--", postgres_bin("psql"), "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
             "-d", "atelier", "-At", "-c", statement],
            check=True, capture_output=True, text=True).stdout.strip()

    assert psql("SELECT name FROM _fluent_migrations GROUP BY name HAVING COUNT(*) > 1") == ""
    assert int(psql("SELECT COUNT(*) FROM _fluent_migrations")) >= 38
