"""Simultaneous uploads of identical bytes, and uploads racing deletions of the same bytes, on the
folder store and on S3 (moto on loopback): every acknowledged upload keeps all its files, and no
half-written object is left."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from atelier_testing import free_port, REPO_ROOT
from faults import leftover_scratch, png

MOTO = REPO_ROOT / ".venv" / "bin" / "moto_server"


@pytest.fixture(params=["folder", "s3"])
def media_env(request, tmp_path):
    if request.param == "folder":
        yield {}
        return
    if not MOTO.exists():
        pytest.skip("moto_server is not installed (make venv)")
    port = free_port()
    log = open(tmp_path / "moto.log", "wb")
    moto = subprocess.Popen([str(MOTO), "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=1)
            break
        except requests.RequestException:
            time.sleep(0.1)
    yield {"MEDIA_STORE": "s3", "S3_ENDPOINT": f"http://127.0.0.1:{port}", "S3_BUCKET": "faults", "S3_REGION": "us-east-1",
           "S3_ACCESS_KEY_ID": "test", "S3_SECRET_ACCESS_KEY": "test"}
    moto.terminate()
    moto.wait(timeout=10)
    log.close()


def test_simultaneous_identical_uploads(servers, media_env):
    server = servers(**media_env)
    server.start()
    token = server.sign_up("twin")
    answers = []
    with ThreadPoolExecutor(4) as pool:
        for round_ in range(50):
            photo = png(240, 180, seed=round_)
            answers += list(pool.map(lambda _: server.upload(token, photo), range(4)))
    statuses = [answer.status_code for answer in answers]
    assert statuses == [201] * 200, [answer.text for answer in answers if answer.status_code != 201][:3]
    for answer in answers:
        assert server.readable(answer.json()) == []
    assert leftover_scratch(server.data_dir) == []
    assert [p for p in (server.data_dir / "media").rglob("*partial*") if p.is_file() and not p.name.endswith(".lock")] == []


def test_uploads_racing_deletions(servers, media_env):
    server = servers(**media_env)
    server.start()
    token = server.sign_up("racer")
    headers = {"Authorization": f"Bearer {token}"}
    with ThreadPoolExecutor(2) as pool:
        for round_ in range(40):
            photo = png(220, 160, seed=1000 + round_)
            first = server.upload(token, photo)
            assert first.status_code == 201, first.text
            deletion = pool.submit(requests.delete, server.api(f"/media/{first.json()['id']}"), headers=headers, timeout=30)
            again = pool.submit(server.upload, token, photo)
            assert deletion.result().status_code == 204
            upload = again.result()
            assert upload.status_code == 201, upload.text
            assert server.readable(upload.json()) == [], f"round {round_}: an acknowledged upload lost files"
