"""kill -9 between a notification's commit and its push: after the restart the push goes out
exactly once and the inbox holds one entry.

The push service is a local https server standing in for a browser's (Web Push is a plain
POST). It holds the first push without answering; while it is held the server is killed, so
the commit happened and the send never completed. After the restart the same delivery goes
out again and is accepted; the test decrypts it with the subscription's private key
(RFC 8291) to check it is the friend request's text.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import http.server
import os
import ssl
import threading
import time
from pathlib import Path

import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.x509.oid import NameOID

from faults import PASSWORD


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push.test")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(__import__("ipaddress").ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "push-cert.pem", folder / "push-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


class PushService:
    """Holds the first push unanswered until released; accepts (201) every later one."""

    def __init__(self, folder: Path) -> None:
        self.cert, key = self_signed(folder)
        self.received: list[bytes] = []
        self.accepted: list[bytes] = []
        self.first_arrived = threading.Event()
        self.release = threading.Event()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.received.append(body)
                if len(service.received) == 1:
                    service.first_arrived.set()
                    service.release.wait(60)
                    self.close_connection = True
                    return  # never answered: the push was not delivered
                assert self.headers.get("Content-Encoding") == "aes128gcm"
                assert self.headers.get("Authorization", "").startswith("vapid t=")
                service.accepted.append(body)
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()


def decrypt(body: bytes, private: ec.EllipticCurvePrivateKey, auth: bytes) -> bytes:
    """RFC 8291 (aes128gcm, one record) as a browser does it."""
    salt, key_length = body[:16], body[20]
    server_public = body[21:21 + key_length]
    ciphertext = body[21 + key_length:]
    ua_public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    shared = private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), server_public))

    def extract(salt_: bytes, ikm: bytes) -> bytes:
        return hmac.new(salt_, ikm, hashlib.sha256).digest()

    def expand(prk: bytes, info: bytes, length: int) -> bytes:
        return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:length]

    ikm = expand(extract(auth, shared), b"WebPush: info\x00" + ua_public + server_public, 32)
    prk = extract(salt, ikm)
    plain = AESGCM(expand(prk, b"Content-Encoding: aes128gcm\x00", 16)).decrypt(expand(prk, b"Content-Encoding: nonce\x00", 12), ciphertext, None)
    return plain.rstrip(b"\x00")[:-1]  # the padding delimiter (2) ends the last record


def test_push_survives_kill_between_commit_and_send(servers, tmp_path):
    push = PushService(tmp_path)
    server = servers(APNS_CA_FILE=str(push.cert))
    try:
        server.start()
        auth = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
        ana = server.sign_up("Ana")
        bea = server.sign_up("Bea")
        bea_id = requests.get(server.api("/me"), headers=auth(bea), timeout=30).json()["id"]

        browser_key = ec.generate_private_key(ec.SECP256R1())
        secret = os.urandom(16)
        public = browser_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        subscription = requests.put(server.api("/me/web-push-subscription"), headers=auth(bea), timeout=30, json={
            "endpoint": f"https://127.0.0.1:{push.port}/push/bea", "keys": {"p256dh": b64url(public), "auth": b64url(secret)}})
        assert subscription.status_code == 200, subscription.text

        asked = requests.post(server.api("/friends/requests"), headers=auth(ana), json={"userId": bea_id}, timeout=30)
        assert asked.status_code == 201, asked.text  # committed, with its delivery and job
        assert push.first_arrived.wait(30), "the push never left"
        server.kill()  # while the push is on its way and unanswered
        push.release.set()

        server.restart()
        deadline = time.monotonic() + 60
        while not push.accepted and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # a second copy would come within this
        assert len(push.accepted) == 1, f"{len(push.accepted)} pushes accepted"
        assert len(push.received) == 2
        message = decrypt(push.accepted[0], browser_key, secret)
        assert b"Ana" in message and b"friend" in message, message

        inbox = requests.get(server.api("/me/notifications"), headers=auth(bea), timeout=30).json()
        assert [entry["kind"] for entry in inbox["items"]] == ["friendRequest"]
    finally:
        push.stop()
