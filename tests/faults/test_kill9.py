"""kill -9 during likes and uploads: every acknowledged write is there after a restart, counters
equal their rows, and no scratch file of the killed process is left."""

from __future__ import annotations

import sqlite3
import threading
import time

import requests

from faults import PASSWORD, leftover_scratch, png


def test_uploads_survive_kill(servers):
    server = servers()
    server.start()
    token = server.sign_up("uploader")
    acknowledged: list[dict] = []
    stop = threading.Event()

    def upload_loop(worker: int) -> None:
        index = 0
        while not stop.is_set() and index < 200:
            try:
                response = server.upload(token, png(640, 480, seed=worker * 1000 + index), timeout=30)
                if response.status_code == 201:
                    acknowledged.append(response.json())
            except requests.RequestException:
                pass  # the server died under this request: not acknowledged
            index += 1

    workers = [threading.Thread(target=upload_loop, args=(n,)) for n in range(3)]
    for worker in workers:
        worker.start()
    time.sleep(4)
    server.kill()
    stop.set()
    for worker in workers:
        worker.join(timeout=60)
    assert acknowledged, "no upload finished before the kill"

    server.restart()
    assert leftover_scratch(server.data_dir) == []
    for image in acknowledged:
        assert server.readable(image) == [], image["id"]


def test_likes_survive_kill(servers):
    server = servers()
    admin_email = "admin-faults@example.com"
    server.command("create-admin", "--email", admin_email, "--password", PASSWORD)
    server.start()
    admin = requests.post(server.api("/auth/login"), json={"email": admin_email, "password": PASSWORD}).json()["accessToken"]
    owner_email = "owner-faults@example.com"
    owner = requests.post(server.api("/auth/signup"), json={"email": owner_email, "password": PASSWORD, "displayName": "Owner"})
    owner_token = owner.json()["accessToken"]
    auth = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
    category = requests.post(server.api("/categories"), json={"name": "Shirts", "gender": "women"}, headers=auth(admin))
    assert category.status_code == 201, category.text
    store = requests.post(server.api("/stores"), headers=auth(admin), json={
        "name": "Fault Store", "street": "Vallgatan 1", "city": "Gothenburg", "location": {"lat": 57.7, "lng": 11.96},
        "ownerEmail": owner_email})
    assert store.status_code == 201, store.text
    products = []
    for index in range(4):
        photo = server.upload(owner_token, png(320, 400, seed=index, noise=False)).json()["id"]
        created = requests.post(server.api(f"/stores/{store.json()['id']}/products"), headers=auth(owner_token), json={
            "title": f"Shirt {index}", "categoryId": category.json()["id"], "gender": "women",
            "price": {"amount": 49900, "currency": "SEK"}, "colors": ["white"], "styles": ["casual"],
            "variants": [{"size": "M", "stock": 3}], "photoIds": [photo], "status": "active"})
        assert created.status_code == 201, created.text
        products.append(created.json()["id"])

    shoppers = [server.sign_up(f"shopper{n}") for n in range(12)]
    acknowledged = {product: 0 for product in products}
    attempted = {product: 0 for product in products}
    lock = threading.Lock()

    def like_all(token: str) -> None:
        for product in products:
            with lock:
                attempted[product] += 1
            try:
                response = requests.put(server.api(f"/products/{product}/like"), headers=auth(token), timeout=30)
                if response.status_code == 200:
                    with lock:
                        acknowledged[product] += 1
            except requests.RequestException:
                return

    likers = [threading.Thread(target=like_all, args=(token,)) for token in shoppers]
    for liker in likers:
        liker.start()
    time.sleep(0.4)
    server.kill()
    for liker in likers:
        liker.join(timeout=60)

    server.restart()
    database = sqlite3.connect(server.data_dir / "atelier.sqlite")
    for product in products:
        count = requests.get(server.api(f"/products/{product}")).json()["likeCount"]
        rows = database.execute("SELECT count(*) FROM product_likes WHERE lower(product_id) = ?", (product.lower(),)).fetchone()[0]
        assert acknowledged[product] <= count <= attempted[product], (product, acknowledged[product], count, attempted[product])
        assert count == rows, f"likeCount {count} but {rows} like rows"


def test_checkouts_survive_kill(servers):
    """kill -9 while 28 shoppers race to check out 10 pieces (right after the first order is
    acknowledged, so the others are in flight): every acknowledged order is there after
    the restart, no variant is oversold, and the stock the orders hold equals their lines."""
    server = servers()
    admin_email = "admin-checkout@example.com"
    server.command("create-admin", "--email", admin_email, "--password", PASSWORD)
    server.start()
    auth = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
    admin = requests.post(server.api("/auth/login"), json={"email": admin_email, "password": PASSWORD}).json()["accessToken"]
    owner_email = "owner-checkout@example.com"
    owner = requests.post(server.api("/auth/signup"), json={"email": owner_email, "password": PASSWORD, "displayName": "Owner"})
    owner_token = owner.json()["accessToken"]
    category = requests.post(server.api("/categories"), json={"name": "Dresses", "gender": "women"}, headers=auth(admin)).json()["id"]
    store = requests.post(server.api("/stores"), headers=auth(admin), json={
        "name": "Checkout Store", "street": "Vallgatan 2", "city": "Gothenburg", "location": {"lat": 57.7, "lng": 11.96},
        "ownerEmail": owner_email}).json()["id"]
    settings = {
        "orderingEnabled": True, "reserveEnabled": True, "reserveHours": 48, "reserveMaxItems": 5, "pickupEnabled": True,
        "pickupPreparationMinutes": 60, "deliveryEnabled": False, "deliveryRadiusKm": 10, "deliveryFee": {"amount": 0, "currency": "SEK"},
        "payAtStore": True, "payByCard": False, "payByInvoice": False, "minimumOrder": {"amount": 0, "currency": "SEK"},
        "signInToBrowse": False}
    assert requests.put(server.api(f"/stores/{store}/commerce"), headers=auth(owner_token), json=settings).status_code == 200
    photo = server.upload(owner_token, png(320, 400, seed=7, noise=False)).json()["id"]
    product = requests.post(server.api(f"/stores/{store}/products"), headers=auth(owner_token), json={
        "title": "Wrap dress", "categoryId": category, "gender": "women", "price": {"amount": 89900, "currency": "SEK"},
        "colors": ["white"], "styles": ["casual"], "variants": [{"size": "M", "stock": 10}], "photoIds": [photo], "status": "active"})
    assert product.status_code == 201, product.text
    variant = product.json()["variants"][0]["id"]
    # 28 and the owner: sign-ups are limited to 30 an hour from one address.
    shoppers = [server.sign_up(f"buyer{n}") for n in range(28)]
    for token in shoppers:
        assert requests.post(server.api("/cart/lines"), headers=auth(token), json={"variantId": variant, "quantity": 1}).status_code == 200

    acknowledged: list[str] = []
    lock = threading.Lock()
    first_order = threading.Event()

    def buy(token: str) -> None:
        try:
            response = requests.post(server.api("/checkout"), headers={**auth(token), "Idempotency-Key": f"k-{token[-12:]}"},
                                     json={"fulfilment": "pickup", "paymentMethod": "payAtStore"}, timeout=30)
            if response.status_code == 201:
                with lock:
                    acknowledged.extend(order["id"] for order in response.json()["orders"])
                first_order.set()
        except requests.RequestException:
            pass  # the server died under this request: not acknowledged

    buyers = [threading.Thread(target=buy, args=(token,)) for token in shoppers]
    for buyer in buyers:
        buyer.start()
    assert first_order.wait(timeout=30), "no checkout finished"
    server.kill()
    for buyer in buyers:
        buyer.join(timeout=60)

    server.restart()
    database = sqlite3.connect(server.data_dir / "atelier.sqlite")
    stock, held, allocated = database.execute(
        "SELECT stock, held, allocated FROM product_variants WHERE lower(id) = ?", (variant.lower(),)).fetchone()
    ordered = database.execute(
        "SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id "
        "WHERE lower(l.variant_id) = ? AND o.status = 'placed'", (variant.lower(),)).fetchone()[0]
    orders = {row[0].lower() for row in database.execute("SELECT id FROM orders")}
    assert stock == 10 and held == 0
    assert allocated == ordered <= 10, (allocated, ordered)
    assert len(acknowledged) < len(shoppers), "every checkout finished before the kill: nothing was tested"
    assert set(acknowledged) <= orders, "an acknowledged order is missing after the restart"
    # The survivors can still order what is left, and no more.
    left = 10 - allocated
    statuses = [requests.post(server.api("/checkout"), headers={**auth(token), "Idempotency-Key": f"after-{n}"},
                              json={"fulfilment": "pickup", "paymentMethod": "payAtStore"}).status_code
                for n, token in enumerate(shoppers)]
    assert statuses.count(201) <= left
