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
