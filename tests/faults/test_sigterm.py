"""SIGTERM lets requests in flight finish (operations.md: stop accepting, finish in-flight
requests): an upload being sent completes with 201, an album download being read completes as a
valid zip, and new connections are refused at once."""

from __future__ import annotations

import io
import socket
import threading
import time
import zipfile
from datetime import datetime, timedelta, timezone

import requests

from faults import png


def refused(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
        except ConnectionRefusedError:
            return True
        return False


def test_upload_in_flight_completes(servers):
    server = servers()
    server.start()
    token = server.sign_up("uploader")
    photo = png(2000, 2000, seed=1)  # noise: about 12 MB
    assert len(photo) > 11_500_000

    def slowly():
        for start in range(0, len(photo), 256 * 1024):
            yield photo[start:start + 256 * 1024]
            time.sleep(0.04)  # about 2 s in all

    answer = {}
    sender = threading.Thread(target=lambda: answer.update(response=server.upload(token, slowly())))
    sender.start()
    time.sleep(0.8)
    server.process.send_signal(15)
    time.sleep(0.3)
    assert refused(server.port), "a new connection was accepted after SIGTERM"
    sender.join(timeout=60)
    response = answer["response"]
    assert response.status_code == 201, response.text
    assert server.process.wait(timeout=60) == 0


def test_album_download_in_flight_completes(servers):
    server = servers()
    server.start()
    token = server.sign_up("host")
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    now = datetime.now(timezone.utc)
    moment = http.post(server.api("/moments"), json={
        "name": "Wedding", "startsAt": (now - timedelta(minutes=5)).isoformat().replace("+00:00", "Z"),
        "endsAt": (now + timedelta(hours=6)).isoformat().replace("+00:00", "Z"), "visibility": "private",
        "place": {"name": "Hall", "lat": 44.43, "lng": 26.1, "radiusMeters": 200}})
    assert moment.status_code == 201, moment.text
    moment_id = moment.json()["id"]
    photos = 11  # noise PNGs of 2400x1800 keep about 13 MB each as originals: about 140 MB of zip
    for index in range(photos):
        upload = http.post(server.api("/media"), data=png(2400, 1800, seed=index), params={"visibility": "private"},
                           headers={"Content-Type": "image/png"}, timeout=120)
        assert upload.status_code == 201, upload.text
        posted = http.post(server.api(f"/moments/{moment_id}/photos"), json={"mediaId": upload.json()["id"]})
        assert posted.status_code == 201, posted.text

    body = io.BytesIO()
    started = time.monotonic()
    terminated = False
    with http.get(server.api(f"/moments/{moment_id}/album.zip"), stream=True, timeout=120) as response:
        assert response.status_code == 200
        for chunk in response.iter_content(1024 * 1024):
            body.write(chunk)
            # About 10 MB/s: wait until this much should have taken.
            time.sleep(max(0.0, body.tell() / 10_000_000 - (time.monotonic() - started)))
            if not terminated and time.monotonic() - started > 2:
                server.process.send_signal(15)
                terminated = True
                time.sleep(0.3)
                assert refused(server.port), "a new connection was accepted after SIGTERM"
    assert terminated, "the download ended before SIGTERM was sent"
    assert body.tell() > 130_000_000, f"the album is only {body.tell()} bytes"
    with zipfile.ZipFile(body) as archive:
        assert archive.testzip() is None
        assert len(archive.namelist()) == photos
    assert server.process.wait(timeout=60) == 0
