"""Helpers for the fault suite: servers on a data folder that outlives them, API shortcuts,
images, and the checks every scenario repeats."""

from __future__ import annotations

import os
import random
import signal
import struct
import subprocess
import zlib
from pathlib import Path

import requests

from atelier_testing import AtelierServer, atelier_bin, free_port, REPO_ROOT

PASSWORD = "correct horse battery"


def png(width: int, height: int, seed: int, noise: bool = True) -> bytes:
    """A PNG of random pixels (does not compress: several MB at 1200x900) or a flat one."""
    rng = random.Random(seed)
    if noise:
        raw = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))
    else:
        colour = bytes([rng.randrange(256), rng.randrange(256), rng.randrange(256)])
        raw = b"".join(b"\x00" + colour * width for _ in range(height))

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")


class Server(AtelierServer):
    """A server whose data folder stays for the next start (after kill -9 or SIGTERM)."""

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._close_log()

    def terminate(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=60)
        self._close_log()
        return code

    def restart(self) -> None:
        self.start()

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def command(self, *arguments: str) -> str:
        result = subprocess.run([str(atelier_bin()), *arguments], cwd=REPO_ROOT, env=self.env, capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 0, f"atelier {' '.join(arguments)}: {result.stdout}\n{result.stderr}"
        return result.stdout

    def sign_up(self, name: str) -> str:
        response = requests.post(self.api("/auth/signup"), json={
            "email": f"{name}-{random.randrange(1 << 40)}@example.com", "password": PASSWORD, "displayName": name}, timeout=30)
        assert response.status_code == 201, response.text
        return response.json()["accessToken"]

    def upload(self, token: str, data: bytes, timeout: float = 120, **headers: str) -> requests.Response:
        return requests.post(self.api("/media"), data=data, timeout=timeout,
                             headers={"Content-Type": "image/png", "Authorization": f"Bearer {token}", **headers})

    def readable(self, image: dict) -> list[str]:
        """The variant URLs of an upload's answer that do not answer 200 with bytes."""
        bad = []
        for variant in image["variants"]:
            path = variant["url"].split("/media/", 1)[1]
            response = requests.get(self.url("/media/" + path), timeout=30)
            if response.status_code != 200 or not response.content:
                bad.append(f"{variant['url']}: {response.status_code}")
        return bad


def make_server(tmp_path: Path, **extra_env: str) -> Server:
    data_dir = tmp_path / "data"
    data_dir.mkdir(exist_ok=True)
    port = free_port()
    env = dict(os.environ)
    env.update({
        "DATA_DIR": str(data_dir),
        "DATABASE_URL": f"sqlite:{data_dir}/atelier.sqlite",
        "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        "LOG_LEVEL": "warning",
        "PASSWORD_HASH_COST": "4",
    })
    env.update({key: str(value) for key, value in extra_env.items()})
    return Server(port=port, data_dir=data_dir, log_path=tmp_path / f"server-{port}.log", env=env)


def leftover_scratch(data_dir: Path) -> list[str]:
    """Files in the scratch folders (uploads in progress, objects being written) other than the
    running process's lock files and empty folders."""
    found = []
    for folder in (data_dir / "uploads", data_dir / "media" / ".partial"):
        if folder.exists():
            found += [str(p) for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".lock")]
    return found
