"""Password reset end to end through the real SMTP mailer.

A local aiosmtpd server that requires STARTTLS and AUTH (LOGIN/PLAIN) receives
the mail; the test follows the link in it and checks the token is single-use.
"""

from __future__ import annotations

import datetime
import email
import email.policy
import ipaddress
import re
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path

import pytest
import requests
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SMTP_USER = "mailer"
SMTP_PASSWORD = "secret-pass"
SMTP_FROM = "no-reply@atelier.test"
OLD_PASSWORD = "correct horse battery"
NEW_PASSWORD = "new secret phrase 42"
HTTP_TIMEOUT = 30


def write_self_signed_cert(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for CN=localhost with SAN DNS:localhost and
    IP:127.0.0.1. The same file is the server certificate and the CA file the
    Atelier mailer trusts."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.IPv4Address("127.0.0.1"))]
            ),
            critical=False,
        )
        # CA:TRUE + keyCertSign so every verifier accepts it as its own trust anchor.
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path = directory / "smtp-cert.pem"
    key_path = directory / "smtp-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@dataclass
class ReceivedMail:
    mail_from: str
    rcpt_tos: list[str]
    message: email.message.EmailMessage
    tls: bool
    authenticated: bool


class CollectingHandler:
    def __init__(self) -> None:
        self.mails: list[ReceivedMail] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        with self.lock:
            self.mails.append(
                ReceivedMail(
                    mail_from=envelope.mail_from,
                    rcpt_tos=list(envelope.rcpt_tos),
                    message=message,
                    tls=session.ssl is not None,
                    authenticated=bool(session.authenticated),
                )
            )
        return "250 Message accepted for delivery"

    def wait_for(self, recipient: str, pattern: re.Pattern, timeout: float = 15.0) -> tuple[ReceivedMail, re.Match]:
        """The first mail to `recipient` whose text matches `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                mails = [m for m in self.mails if recipient.lower() in (r.lower() for r in m.rcpt_tos)]
            for mail in mails:
                match = pattern.search(mail_text(mail.message))
                if match:
                    return mail, match
            if time.monotonic() > deadline:
                texts = "\n---\n".join(mail_text(m.message) for m in mails) or "(none)"
                pytest.fail(f"no mail to {recipient} matching {pattern.pattern!r} within {timeout:.0f}s; mails to it:\n{texts}")
            time.sleep(0.1)


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (
        mechanism in ("LOGIN", "PLAIN")
        and isinstance(auth_data, LoginPassword)
        and auth_data.login == SMTP_USER.encode()
        and auth_data.password == SMTP_PASSWORD.encode()
    )
    return AuthResult(success=ok, handled=False)


@pytest.fixture
def smtp_server(tmp_path, get_free_port):
    cert_path, key_path = write_self_signed_cert(tmp_path)
    tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls_context.load_cert_chain(cert_path, key_path)
    handler = CollectingHandler()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=get_free_port(),
        tls_context=tls_context,
        require_starttls=True,
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=True,
    )
    controller.start()
    try:
        yield controller, handler, cert_path
    finally:
        controller.stop()


def mail_text(message: email.message.EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain", "html"))
    assert body is not None, f"mail has no text part: {message}"
    return body.get_content()


def test_password_reset_via_smtp(start_server, smtp_server, unique_email):
    controller, handler, cert_path = smtp_server
    server = start_server(
        MAILER="smtp",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(controller.port),
        SMTP_USERNAME=SMTP_USER,
        SMTP_PASSWORD=SMTP_PASSWORD,
        SMTP_STARTTLS="true",
        SMTP_TLS_CA_FILE=str(cert_path),
        SMTP_FROM=SMTP_FROM,
    )
    address = unique_email("reset")

    signup = requests.post(
        server.api("/auth/signup"),
        json={"email": address, "password": OLD_PASSWORD, "displayName": "Reset Tester"},
        timeout=HTTP_TIMEOUT,
    )
    assert signup.status_code == 201, signup.text
    session = signup.json()
    for key in ("accessToken", "refreshToken", "user"):
        assert key in session, f"{key} missing in sign-up response: {session}"

    reset = requests.post(server.api("/auth/password-reset"), json={"email": address}, timeout=HTTP_TIMEOUT)
    assert reset.status_code == 202, reset.text

    # Sign-up may also have sent a verification mail: wait for the one with the reset link.
    link = re.compile(re.escape(f"{server.base_url}/reset-password?token=") + r"([^\s\"'<>&]+)")
    mail, match = handler.wait_for(address, link, timeout=15)
    token = urllib.parse.unquote(match.group(1))

    assert parseaddr(str(mail.message["From"]))[1] == SMTP_FROM
    assert mail.tls, "the mailer did not use STARTTLS"
    assert mail.authenticated, "the mailer did not authenticate"

    confirm = requests.post(
        server.api("/auth/password-reset/confirm"),
        json={"token": token, "password": NEW_PASSWORD},
        timeout=HTTP_TIMEOUT,
    )
    assert confirm.status_code == 204, confirm.text

    login_new = requests.post(
        server.api("/auth/login"), json={"email": address, "password": NEW_PASSWORD}, timeout=HTTP_TIMEOUT
    )
    assert login_new.status_code == 200, login_new.text
    assert login_new.json().get("accessToken")

    login_old = requests.post(
        server.api("/auth/login"), json={"email": address, "password": OLD_PASSWORD}, timeout=HTTP_TIMEOUT
    )
    assert login_old.status_code == 401, login_old.text

    reuse = requests.post(
        server.api("/auth/password-reset/confirm"),
        json={"token": token, "password": "yet another phrase 7"},
        timeout=HTTP_TIMEOUT,
    )
    assert reuse.status_code in (400, 422), reuse.text
