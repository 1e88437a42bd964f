"""Atelier as three instances behind HAProxy on PostgreSQL and S3 (issue 22).

Every client sets its own X-Forwarded-For (HAProxy appends, the instances trust HAProxy's
address), so rate limits count each simulated client, as they would real ones.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import struct
import subprocess
import threading
import time
import uuid
import zlib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import requests
import websocket

from atelier_testing import REPO_ROOT
from conftest import INSTANCES, LB  # noqa: E402

PASSWORD = "correct horse battery staple"
ReadYourWritesSeconds = 5  # ReadReplica.readYourWrites
STATE = REPO_ROOT / ".cluster"


def at(port: int | None, path: str) -> str:
    return (LB if port is None else f"http://127.0.0.1:{port}") + "/api/v1" + path


def client_headers(client: str, token: str | None = None) -> dict[str, str]:
    headers = {"X-Forwarded-For": client}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def sign_up(name: str, port: int | None = None) -> tuple[str, str]:
    client = f"198.51.100.{random.randrange(1, 250)}"
    answer = requests.post(at(port, "/auth/signup"), headers=client_headers(client), timeout=30, json={
        "email": f"{name.lower()}-{uuid.uuid4().hex[:10]}@example.com", "password": PASSWORD, "displayName": name})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["accessToken"], body["user"]["id"]


def png(seed: int, width: int = 96, height: int = 120) -> bytes:
    rng = random.Random(seed)
    raw = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(width * 3)) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def psql(statement: str) -> str:
    pg = sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
    return subprocess.run(["runuser", "-u", "postgres", "--", str(pg), "-h", "127.0.0.1", "-p", "25432", "-U", "postgres", "-d", "atelier",
                           "-At", "-c", statement], check=True, capture_output=True, text=True).stdout.strip()


def test_started_at_once_they_migrated_once(cluster):
    assert psql("SELECT name FROM _fluent_migrations GROUP BY name HAVING COUNT(*) > 1") == ""
    assert int(psql("SELECT COUNT(*) FROM _fluent_migrations")) >= 38


def test_rate_limit_counts_across_instances(cluster):
    client = f"203.0.113.{random.randrange(1, 250)}"
    for attempt in range(10):
        answer = requests.post(at(INSTANCES[attempt % 3], "/auth/login"), headers=client_headers(client), timeout=30,
                               json={"email": f"nobody{attempt}@example.com", "password": "wrong password!"})
        assert answer.status_code == 401, answer.text
    for port in INSTANCES:
        answer = requests.post(at(port, "/auth/login"), headers=client_headers(client), timeout=30,
                               json={"email": "nobody@example.com", "password": "wrong password!"})
        assert answer.status_code == 429, (port, answer.status_code)
    other = requests.post(at(None, "/auth/login"), headers=client_headers("203.0.113.251"), timeout=30,
                          json={"email": "nobody@example.com", "password": "wrong password!"})
    assert other.status_code == 401, "another client is not limited"


def test_live_event_reaches_another_instance(cluster):
    host, _ = sign_up("Host", INSTANCES[1])
    guest, _ = sign_up("Guest", INSTANCES[0])
    now = time.time()
    moment = requests.post(at(INSTANCES[1], "/moments"), headers=client_headers("192.0.2.10", host), timeout=30, json={
        "name": "Cluster picnic", "startsAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 60)),
        "endsAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 3600)), "visibility": "public",
        "category": "birthday", "place": {"name": "Piața Romană", "lat": 44.4467, "lng": 26.0975, "radiusMeters": 100}})
    assert moment.status_code == 201, moment.text
    moment_id = moment.json()["id"]
    checked = requests.post(at(INSTANCES[1], f"/moments/{moment_id}/check-in"), headers=client_headers("192.0.2.10", host), timeout=30,
                            json={"lat": 44.4467, "lng": 26.0975, "accuracyMeters": 5})
    assert checked.status_code == 200, checked.text
    media = requests.post(at(INSTANCES[1], "/media"), data=png(1), timeout=60,
                          headers={**client_headers("192.0.2.10", host), "Content-Type": "image/png"})
    assert media.status_code == 201, media.text

    # The guest listens on instance 1; the host posts through instance 2.
    socket = websocket.create_connection(f"ws://127.0.0.1:{INSTANCES[0]}/api/v1/live", header=[f"Authorization: Bearer {guest}"], timeout=10)
    try:
        assert json.loads(socket.recv())["type"] == "ready"
        socket.send(json.dumps({"type": "subscribe", "channel": f"moment:{moment_id}"}))
        assert json.loads(socket.recv()) == {"type": "subscribed", "channel": f"moment:{moment_id}"}
        posted_at = time.monotonic()
        photo = requests.post(at(INSTANCES[1], f"/moments/{moment_id}/photos"), headers=client_headers("192.0.2.10", host), timeout=30,
                              json={"mediaId": media.json()["id"]})
        assert photo.status_code == 201, photo.text
        socket.settimeout(1.0)
        message = json.loads(socket.recv())
        assert time.monotonic() - posted_at < 1.0
        assert (message["type"], message["channel"], message["event"]) == ("event", f"moment:{moment_id}", "photo.created")
    finally:
        socket.close()


def create_admin(tag: str) -> str:
    """An admin made with the CLI on the primary; returns the e-mail address."""
    admin_email = f"admin-{tag}-{uuid.uuid4().hex[:8]}@example.com"
    env = {**os.environ, "DATABASE_URL": "postgres://atelier:atelier@127.0.0.1:25432/atelier", "DATA_DIR": str(STATE / "cli")}
    binary = os.environ.get("ATELIER_BIN", str(REPO_ROOT / ".build" / "debug" / "atelier"))
    subprocess.run([binary, "create-admin", "--email", admin_email, "--password", PASSWORD], cwd=REPO_ROOT, env=env, check=True,
                   capture_output=True, timeout=120)
    return admin_email


def store_with_product(tag: str, stock: int = 3) -> dict:
    """An admin creates a store for an owner, who lists a shirt."""
    admin_email = create_admin(tag)
    client = "192.0.2.20"
    admin = requests.post(at(None, "/auth/login"), headers=client_headers(client), json={"email": admin_email, "password": PASSWORD}, timeout=30)
    admin_token = admin.json()["accessToken"]
    owner_token, _ = sign_up("Owner")
    owner_email = requests.get(at(None, "/me"), headers=client_headers(client, owner_token), timeout=30).json()["email"]
    category = requests.post(at(None, "/categories"), headers=client_headers(client, admin_token), timeout=30,
                             json={"name": f"Shirts {tag} {uuid.uuid4().hex[:6]}", "gender": "women"})
    assert category.status_code == 201, category.text
    store = requests.post(at(None, "/stores"), headers=client_headers(client, admin_token), timeout=30, json={
        "name": f"Cluster Store {uuid.uuid4().hex[:6]}", "street": "Vallgatan 1", "city": "Gothenburg",
        "location": {"lat": 57.7, "lng": 11.96}, "ownerEmail": owner_email})
    assert store.status_code == 201, store.text
    photo = requests.post(at(None, "/media"), data=png(7), timeout=60, headers={**client_headers(client, owner_token), "Content-Type": "image/png"})
    assert photo.status_code == 201, photo.text
    product = {"title": "Linen shirt", "categoryId": category.json()["id"], "gender": "women",
               "price": {"amount": 49900, "currency": "SEK"}, "colors": ["white"], "styles": ["casual"],
               "variants": [{"size": "M", "stock": stock}], "photoIds": [photo.json()["id"]], "status": "active"}
    created = requests.post(at(None, f"/stores/{store.json()['id']}/products"), headers=client_headers(client, owner_token), json=product, timeout=30)
    assert created.status_code == 201, created.text
    return {"store": store.json()["id"], "product": created.json()["id"], "body": product, "owner": owner_token,
            "category": category.json()["id"]}


def test_an_edit_on_one_instance_shows_at_once_on_the_others(cluster):
    shop = store_with_product("cache")
    lists = [f"/stores/{shop['store']}/products", f"/products?categoryId={shop['category']}"]

    def prices(port: int) -> set[int]:
        seen = set()
        for path in lists:
            answer = requests.get(at(port, path), timeout=30)
            assert answer.status_code == 200, answer.text
            seen.update(item["price"]["amount"] for item in answer.json()["items"] if item["id"] == shop["product"])
        return seen

    for port in INSTANCES[:2]:
        assert prices(port) == {49900}  # read twice: now in each instance's answer caches
        assert prices(port) == {49900}
    edited = {**shop["body"], "price": {"amount": 39900, "currency": "SEK"}}
    answer = requests.put(at(INSTANCES[2], f"/stores/{shop['store']}/products/{shop['product']}"),
                          headers=client_headers("192.0.2.21", shop["owner"]), json=edited, timeout=30)
    assert answer.status_code == 200, answer.text
    time.sleep(0.2)  # the notification's way to the other instances' listeners
    for port in INSTANCES[:2]:
        assert prices(port) == {39900}, port


COMMERCE = {"orderingEnabled": True, "reserveEnabled": True, "reserveHours": 48, "reserveMaxItems": 5, "pickupEnabled": True,
            "pickupPreparationMinutes": 60, "deliveryEnabled": True, "deliveryRadiusKm": 10,
            "deliveryFee": {"amount": 4900, "currency": "SEK"}, "payAtStore": True, "payByCard": False, "payByInvoice": False,
            "minimumOrder": {"amount": 0, "currency": "SEK"}, "signInToBrowse": False}


def store_taking_orders(tag: str, stock: int = 3) -> dict:
    """A store with a product (`stock` of size M) that shoppers can reserve; adds its variant id."""
    shop = store_with_product(tag, stock)
    answer = requests.put(at(None, f"/stores/{shop['store']}/commerce"), headers=client_headers("192.0.2.30", shop["owner"]),
                          json=COMMERCE, timeout=30)
    assert answer.status_code == 200, answer.text
    shop["variant"] = requests.get(at(None, f"/products/{shop['product']}"), timeout=30).json()["variants"][0]["id"]
    return shop


class Load:
    """`clients` simulated shoppers (each its own address) reading, liking, uploading and reserving
    through HAProxy until stopped; every answer is kept, and every write answered 2xx is checked later.
    A checkout whose answer was lost is retried with its Idempotency-Key, as the SDK's CheckoutAttempt does."""

    def __init__(self, clients: int, shop: dict) -> None:
        self.product, self.variant = shop["product"], shop["variant"]
        self.failures: list[str] = []
        self.liked: list[str] = []  # tokens whose like was answered 2xx
        self.uploads: list[tuple[str, str]] = []  # (token, media id) answered 201
        self.orders: list[str] = []  # order ids answered 201
        self.retries: list[str] = []  # checkout attempts that failed and were made again with the same key
        self.stop = threading.Event()
        self.tokens = [sign_up(f"Shopper{n}")[0] for n in range(clients)]
        self.threads = [threading.Thread(target=self.run, args=(n,)) for n in range(clients)]

    def run(self, n: int) -> None:
        token, client = self.tokens[n], f"10.9.{n // 200}.{n % 200 + 1}"
        step = 0
        while not self.stop.is_set():
            step += 1
            try:
                if step % 7 == 0:
                    answer = requests.post(at(None, "/media"), data=png(n * 1000 + step, 64, 80), timeout=60,
                                           headers={**client_headers(client, token), "Content-Type": "image/png",
                                                    "Idempotency-Key": str(uuid.uuid4())})
                    if answer.status_code == 201:
                        self.uploads.append((token, answer.json()["id"]))
                elif step == 3:
                    answer = requests.put(at(None, f"/products/{self.product}/like"), headers=client_headers(client, token), timeout=60)
                    if answer.status_code < 300:
                        self.liked.append(token)
                elif step == 4:
                    answer = requests.post(at(None, "/cart/lines"), headers=client_headers(client, token), timeout=60,
                                           json={"variantId": self.variant, "quantity": 1})
                elif step == 5:
                    answer = self.checkout(token, client)
                else:
                    answer = requests.get(at(None, f"/products/{self.product}"), headers=client_headers(client, token), timeout=60)
                if answer.status_code >= 300:
                    self.failures.append(f"{answer.request.method} {answer.request.url}: {answer.status_code} {answer.text[:200]}")
            except requests.RequestException as error:
                self.failures.append(f"{type(error).__name__}: {error}")
            time.sleep(0.05)

    def checkout(self, token: str, client: str) -> requests.Response:
        headers = {**client_headers(client, token), "Idempotency-Key": str(uuid.uuid4())}
        body = {"fulfilment": "reserve", "paymentMethod": "payAtStore"}
        for attempt in range(4):
            try:
                answer = requests.post(at(None, "/checkout"), headers=headers, json=body, timeout=60)
            except requests.RequestException as error:
                if attempt == 3:
                    raise
                self.retries.append(f"{type(error).__name__}: {error}")
                time.sleep(1)
                continue
            if answer.status_code == 201:
                self.orders.extend(order["id"] for order in answer.json()["orders"])
            if answer.status_code < 500 or attempt == 3:
                return answer
            self.retries.append(f"{answer.status_code} {answer.text[:200]}")
            time.sleep(1)
        raise AssertionError("unreachable")

    def __enter__(self) -> "Load":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)


def pid(port: int) -> int:
    return int((STATE / f"instance-{port}.pid").read_text())


def start_again(port: int) -> None:
    subprocess.run([str(REPO_ROOT / "scripts" / "cluster"), "instance", str(port)], cwd=REPO_ROOT, check=True, capture_output=True, timeout=300)


def check_writes_kept(load: Load) -> None:
    for token, media_id in load.uploads:
        answer = requests.get(at(None, f"/media/{media_id}"), headers=client_headers("10.8.0.1", token), timeout=30)
        assert answer.status_code == 200, (media_id, answer.status_code)
    likes = int(psql(f"SELECT COUNT(*) FROM product_likes WHERE product_id = '{load.product}'"))
    assert likes == len(set(load.liked)), (likes, len(set(load.liked)))
    # Every acknowledged order is there, each shopper ordered once (retries included), and the
    # stock held is exactly the orders'.
    stored = set(psql(f"SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.variant_id = '{load.variant}'").split())
    assert set(load.orders) <= stored, set(load.orders) - stored
    assert psql(f"SELECT user_id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.variant_id = '{load.variant}' "
                "GROUP BY user_id HAVING COUNT(*) > 1") == ""
    assert psql(f"SELECT held FROM product_variants WHERE id = '{load.variant}'") == str(len(stored))


def test_rolling_restart_loses_nothing(cluster):
    shop = store_taking_orders("rolling", stock=100)
    with Load(20, shop) as load:
        time.sleep(5)
        for port in INSTANCES:
            os.kill(pid(port), signal.SIGTERM)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    os.kill(pid(port), 0)
                    time.sleep(0.2)
                except ProcessLookupError:
                    break
            start_again(port)
            time.sleep(2)
        time.sleep(5)
    assert load.failures == [], load.failures[:10]
    assert load.retries == [], load.retries[:10]
    assert len(load.liked) == 20
    assert len(load.orders) == 20
    assert load.uploads
    check_writes_kept(load)


def test_killed_instance_is_routed_around(cluster):
    shop = store_taking_orders("killed", stock=100)
    victim = INSTANCES[1]
    with Load(12, shop) as load:
        time.sleep(4)
        os.kill(pid(victim), signal.SIGKILL)
        killed_at = len(load.failures)
        time.sleep(8)
    # Only requests in flight on the killed instance may fail (HAProxy retries refused connections).
    assert len(load.failures) <= 12, load.failures[:10]
    assert len(load.failures) - killed_at <= 12
    check_writes_kept(load)

    # A write retried with its Idempotency-Key after an error happens once.
    token = load.tokens[0]
    key = str(uuid.uuid4())
    data = png(4242, 64, 80)
    answers = [requests.post(at(None, "/media"), data=data, timeout=60,
                             headers={**client_headers("10.9.0.1", token), "Content-Type": "image/png", "Idempotency-Key": key})
               for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    start_again(victim)


def replica_sql(statement: str) -> str:
    pg = sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
    return subprocess.run(["runuser", "-u", "postgres", "--", str(pg), "-h", "127.0.0.1", "-p", "25433", "-U", "postgres", "-d", "atelier",
                           "-At", "-c", statement], check=True, capture_output=True, text=True).stdout.strip()


def lookbook(token: str) -> list[str]:
    answer = requests.get(at(None, "/me/lookbook"), headers=client_headers("10.7.0.1", token), timeout=30)
    assert answer.status_code == 200, answer.text
    return [item["id"] for item in answer.json()["items"]]


def test_reads_use_the_replica_and_see_your_own_writes(cluster):
    shop = store_with_product("replica")
    token, _ = sign_up("Liker")
    time.sleep(1)  # the replica has the store, the product and the account
    replica_sql("SELECT pg_wal_replay_pause()")  # the replica stops catching up: what it serves is old
    try:
        liked = requests.put(at(None, f"/products/{shop['product']}/like"), headers=client_headers("10.7.0.1", token), timeout=30)
        assert liked.status_code < 300, liked.text
        assert lookbook(token) == [shop["product"]], "read-your-writes: at once after the like"
        time.sleep(ReadYourWritesSeconds + 1)
        assert lookbook(token) == [], "afterwards reads are the replica's, which has not seen the like yet"
    finally:
        replica_sql("SELECT pg_wal_replay_resume()")
    deadline = time.monotonic() + 10
    while lookbook(token) != [shop["product"]] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert lookbook(token) == [shop["product"]]


def test_a_stopped_replica_sends_reads_to_the_primary(cluster):
    shop = store_with_product("replica-down")
    token, _ = sign_up("Reader")
    pg = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
    statuses: list[int] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            for path in (f"/products/{shop['product']}", f"/stores/{shop['store']}/products", "/me/lookbook"):
                try:
                    statuses.append(requests.get(at(None, path), headers=client_headers("10.7.0.2", token), timeout=30).status_code)
                except requests.RequestException:
                    statuses.append(-1)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for reader in readers:
        reader.start()
    time.sleep(2)
    subprocess.run(["runuser", "-u", "postgres", "--", str(pg / "pg_ctl"), "-D", str(STATE / "pg-replica"), "-m", "fast", "-w", "stop"],
                   check=True, capture_output=True)
    time.sleep(6)
    subprocess.run(["runuser", "-u", "postgres", "--", str(pg / "pg_ctl"), "-D", str(STATE / "pg-replica"), "-l", str(STATE / "pg-replica.log"),
                    "-w", "start"], check=True, capture_output=True)
    time.sleep(3)
    stop.set()
    for reader in readers:
        reader.join(timeout=60)
    assert statuses and set(statuses) == {200}, {status: statuses.count(status) for status in set(statuses)}


def test_a_reservation_expires_once_with_one_notification(cluster):
    """Every instance schedules the expiry job each 30 s slot; the queue runs one per slot, and the
    expiry, its stock and its notification happen once."""
    shop = store_taking_orders("expiry")
    shopper, shopper_id = sign_up("Reserver")
    variant = shop["variant"]
    added = requests.post(at(None, "/cart/lines"), headers=client_headers("192.0.2.31", shopper), json={"variantId": variant, "quantity": 1}, timeout=30)
    assert added.status_code == 200, added.text
    placed = requests.post(at(None, "/checkout"), json={"fulfilment": "reserve", "paymentMethod": "payAtStore"}, timeout=60,
                           headers={**client_headers("192.0.2.31", shopper), "Idempotency-Key": str(uuid.uuid4())})
    assert placed.status_code == 201, placed.text
    order = placed.json()["orders"][0]["id"]
    assert psql(f"SELECT held FROM product_variants WHERE id = '{variant}'") == "1"
    # The hold runs out now (as 48 hours later).
    psql(f"UPDATE orders SET hold_until = now() - interval '1 second' WHERE id = '{order}'")
    deadline = time.monotonic() + 90
    while psql(f"SELECT status FROM orders WHERE id = '{order}'") != "expired" and time.monotonic() < deadline:
        time.sleep(1)
    assert psql(f"SELECT status FROM orders WHERE id = '{order}'") == "expired"
    time.sleep(35)  # the next slot's job, on whichever instance, finds nothing more to do
    assert psql(f"SELECT COUNT(*) FROM order_events WHERE order_id = '{order}' AND to_status = 'expired'") == "1"
    assert psql(f"SELECT held FROM product_variants WHERE id = '{variant}'") == "0"
    assert psql(f"SELECT COUNT(*) FROM inbox_entries WHERE recipient_id = '{shopper_id}' AND kind = 'orderUpdated' AND text LIKE '%expired%'") == "1"
    slots = psql("SELECT COUNT(*), COUNT(DISTINCT key) FROM jobs WHERE kind = 'orders.expire'").split("|")
    assert slots[0] == slots[1], "one job per slot, whatever the number of instances"


CSRF = re.compile(r'name="csrfToken" value="([^"]+)"')


def web_session(email: str, client: str) -> tuple[requests.Session, str]:
    """Signed in on the web through HAProxy (the session is in the database, any instance serves it);
    returns the session and its CSRF token."""
    web = requests.Session()
    web.headers["X-Forwarded-For"] = client
    token = CSRF.search(web.get(LB + "/signin", timeout=30).text).group(1)
    signed_in = web.post(LB + "/signin", data={"email": email, "password": PASSWORD, "csrfToken": token}, timeout=30, allow_redirects=False)
    assert signed_in.status_code in (302, 303), signed_in.text[:300]
    return web, CSRF.search(web.get(LB + "/portal/magazine", timeout=30).text).group(1)


def test_a_scheduled_issue_is_published_once_with_one_notification(cluster):
    """An editor schedules an issue in the portal; every instance runs the publishing job each 30 s
    slot, and the issue comes out once: one status change, one inbox entry per subscriber."""
    readers = [sign_up(f"Reader{n}") for n in range(3)]
    for token, _ in readers:
        answer = requests.put(at(None, "/me/magazine/subscription"), headers=client_headers("192.0.2.40", token), timeout=30)
        assert answer.status_code == 200, answer.text
    editor_email = create_admin("editor")
    web, csrf = web_session(editor_email, "192.0.2.41")
    number = random.randrange(100_000, 1_000_000)
    created = web.post(LB + "/portal/magazine/issues", data={"number": number, "label_en": f"Cluster issue {number}", "csrfToken": csrf},
                       timeout=30, allow_redirects=False)
    assert created.status_code in (302, 303), created.text[:300]
    issue = created.headers["Location"].rsplit("/", 1)[-1]
    zone = ZoneInfo(psql(f"SELECT time_zone FROM users WHERE email = '{editor_email}'") or "UTC")
    when = (datetime.now(zone) + timedelta(seconds=4)).strftime("%Y-%m-%dT%H:%M:%S")
    scheduled = web.post(LB + f"/portal/magazine/issues/{issue}/schedule", data={"publishAt": when, "csrfToken": csrf},
                         timeout=30, allow_redirects=False)
    assert scheduled.status_code in (302, 303), scheduled.text[:300]
    assert psql(f"SELECT status FROM magazine_issues WHERE id = '{issue}'") == "scheduled"

    deadline = time.monotonic() + 90
    while psql(f"SELECT status FROM magazine_issues WHERE id = '{issue}'") != "published" and time.monotonic() < deadline:
        time.sleep(1)
    assert psql(f"SELECT status FROM magazine_issues WHERE id = '{issue}'") == "published"
    time.sleep(35)  # the next slot's job, on whichever instance, finds nothing more to do
    for _, reader_id in readers:
        told = psql(f"SELECT COUNT(*) FROM inbox_entries WHERE recipient_id = '{reader_id}' AND kind = 'magazineIssue' "
                    f"AND link LIKE '%{issue}'")
        assert told == "1", (reader_id, told)
    # Every instance sees it, from the replica as from the primary.
    for port in INSTANCES:
        listed = requests.get(at(port, "/magazine/issues"), headers=client_headers("192.0.2.42", readers[0][0]), timeout=30)
        assert listed.status_code == 200, listed.text
        assert issue in [item["id"].lower() for item in listed.json()["items"]], port
    slots = psql("SELECT COUNT(*), COUNT(DISTINCT key) FROM jobs WHERE kind = 'magazine.publish'").split("|")
    assert slots[0] == slots[1], "one job per slot, whatever the number of instances"
