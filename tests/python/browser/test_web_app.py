"""The web as a phone app (issue 53), in headless Chromium.

- Installable: Chromium reports no installability errors on `/`; the manifest's icons are the
  sizes they claim; pages go out gzip-compressed.
- Offline, through DevTools network emulation on the page *and* its service worker: a signed-in
  person's closet, today's planned outfit (calendar), cart and an order's pickup code show their
  last copy; a public product never visited gives the offline page; after signing out, none of
  the personal pages is there any more.
- A like, a reaction and a closet star made offline are queued, and sent when back online; the connection drops
  again in the middle of the replay (the server applied the reaction, the page never heard): the
  reaction is sent again with the same key, and each counts once.
- A magazine issue saved for offline opens offline, article and picture.
- At 390 x 844, the product page shows the price and "Add to cart" without scrolling.
"""

from __future__ import annotations

import datetime
import struct
import uuid

import pytest
import requests
from selenium.webdriver.common.by import By

from test_commerce_flow import shop
from test_portal_flow import api, gradient_png
from web_app_support import AnswerDropper, Network, queued, wait_for_worker
from web_page import PASSWORD, Page


@pytest.fixture
def viewport() -> str:
    return "phone"


def sign_up(server, email: str, name: str) -> tuple[str, str]:
    """(token, user id) of a new person."""
    response = api(server, "POST", "/auth/signup", json={"email": email, "password": PASSWORD, "displayName": name})
    assert response.status_code == 201, response.text
    return response.json()["accessToken"], response.json()["user"]["id"]


def upload(server, token: str, path) -> str:
    response = api(server, "POST", "/media", token, files={"file": (path.name, path.read_bytes(), "image/png")})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def text_of(page: Page) -> str:
    return page.visible("main").text


def test_installable_icons_and_compression(browser, server):
    page = Page(browser, server.base_url)
    page.open("/")
    wait_for_worker(browser)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], errors

    manifest = requests.get(server.url("/manifest.webmanifest"), timeout=10).json()
    assert manifest["display"] == "standalone" and len(manifest["icons"]) == 4
    for icon in manifest["icons"]:
        png = requests.get(server.url(icon["src"]), timeout=10).content
        width, height = struct.unpack(">II", png[16:24])
        assert f"{width}x{height}" == icon["sizes"], icon["src"]
    for path in ("/", "/static/css/atelier.css", "/static/js/app.js"):
        answer = requests.get(server.url(path), headers={"Accept-Encoding": "gzip"}, timeout=10)
        assert answer.headers.get("Content-Encoding") == "gzip", path


def test_offline_personal_pages_then_sign_out(browser, server, unique_email, tmp_path):
    owner_email, shopper_email = unique_email("owner"), unique_email("shopper")
    sign_up(server, owner_email, "Olle Owner")
    _, _, product_id, size_m = shop(server, tmp_path, owner_email)
    token, _ = sign_up(server, shopper_email, "Stella Offline")

    # Her closet, an outfit planned for today, an order for pickup and one more thing in the cart.
    item = api(server, "POST", "/me/closet/items", token, json={"photos": [{"mediaId": upload(server, token, gradient_png(tmp_path / "top.png", 300, 400))}]})
    assert item.status_code == 201, item.text
    item_id = item.json()["items"][0]["id"]
    outfit = api(server, "POST", "/me/outfits", token, json={"name": "Train to Gothenburg", "pieces": [{"closetItemId": item_id}]})
    assert outfit.status_code == 201, outfit.text
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    plan = api(server, "POST", "/me/calendar", token, json={"outfitId": outfit.json()["id"], "date": today})
    assert plan.status_code == 201, plan.text
    assert api(server, "POST", "/cart/lines", token, json={"variantId": size_m, "quantity": 1}).status_code == 200
    order = requests.post(
        server.api("/checkout"), json={"fulfilment": "pickup", "paymentMethod": "payAtStore"},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}, timeout=30)
    assert order.status_code == 201, order.text
    order_id = order.json()["orders"][0]["id"]
    size_s = next(v["id"] for v in api(server, "GET", f"/products/{product_id}").json()["variants"] if v["size"] == "S")
    assert api(server, "POST", "/cart/lines", token, json={"variantId": size_s, "quantity": 1}).status_code == 200

    page = Page(browser, server.base_url)
    page.sign_in(shopper_email)
    wait_for_worker(browser)
    personal = {"/closet": "closet-page", "/calendar": "Train to Gothenburg", "/cart": "Linen wrap dress", f"/orders/{order_id}": "Pickup code"}
    seen = {}
    for path in personal:
        page.open(path)
        seen[path] = text_of(page)
    code = page.visible("#pickup-code strong").text
    assert len(code) == 6

    network = Network(browser)
    network.offline()
    try:
        for path, expected in personal.items():
            page.open(path)
            if expected.endswith("-page"):
                assert page.visible(f"#{expected}"), path
            else:
                assert expected in text_of(page), f"{path} offline shows its last copy"
            assert page.visible("#offline-banner").text.startswith("You are offline"), path
        assert code in text_of(page)
        page.open(f"/products/{product_id}")
        assert page.visible("#offline-page"), "a public page never visited: the offline page"
    finally:
        network.online()

    page.open("/")
    page.sign_out()
    network.offline()
    try:
        for path in personal:
            page.open(path)
            assert page.visible("#offline-page"), f"{path}: nothing personal kept after signing out"
            assert "Stella" not in browser.page_source
    finally:
        network.online()


def test_like_and_reaction_made_offline_count_once(browser, server, unique_email, tmp_path):
    owner_email, shopper_email, friend_email = unique_email("owner"), unique_email("liker"), unique_email("friend")
    sign_up(server, owner_email, "Olle Owner")
    _, _, product_id, _ = shop(server, tmp_path, owner_email)
    token, me = sign_up(server, shopper_email, "Lina Liker")
    friend_token, friend = sign_up(server, friend_email, "Frida Friend")
    assert api(server, "POST", "/friends/requests", token, json={"userId": friend}).status_code in (200, 201)
    assert api(server, "POST", f"/friends/requests/{me}/accept", friend_token).status_code == 200
    post = api(server, "POST", "/posts", friend_token, json={"mediaId": upload(server, friend_token, gradient_png(tmp_path / "ootd.png", 300, 400)), "caption": "Monday"})
    assert post.status_code == 201, post.text
    post_id = post.json()["id"]
    # Friends' posts of today open to those who posted theirs.
    mine = api(server, "POST", "/posts", token, json={"mediaId": upload(server, token, gradient_png(tmp_path / "mine.png", 300, 400)), "caption": "Me too"})
    assert mine.status_code == 201, mine.text

    item = api(server, "POST", "/me/closet/items", token, json={"photos": [{"mediaId": upload(server, token, gradient_png(tmp_path / "top.png", 300, 400))}]})
    assert item.status_code == 201, item.text
    item_id = item.json()["items"][0]["id"]

    page = Page(browser, server.base_url)
    page.sign_in(shopper_email)
    wait_for_worker(browser)
    page.open(f"/posts/{post_id}")  # a friend's post: kept, like the person's other pages
    page.open(f"/closet/items/{item_id}")
    page.open(f"/products/{product_id}")

    network = Network(browser)
    network.offline()
    try:
        browser.find_element(By.CSS_SELECTOR, "#like-form button").click()
        page.wait.until(lambda d: len(queued(d)) == 1, "the like is queued")
        assert page.visible("#offline-banner").is_displayed()
        page.open(f"/posts/{post_id}")
        browser.find_element(By.CSS_SELECTOR, "button[data-reaction='heart']").click()
        page.wait.until(lambda d: len(queued(d)) == 2, "the reaction is queued after the like")
        page.open(f"/closet/items/{item_id}")
        browser.find_element(By.ID, "item-favourite").click()
        page.wait.until(lambda d: len(queued(d)) == 3, "the closet star is queued last")
    finally:
        # Back online for the page only. The like goes through; the reaction reaches the server, but
        # its answer is lost on the way back, so the page sends it again. The web reaction is a
        # toggle: only its Idempotency-Key keeps the second send from taking it back.
        dropper = AnswerDropper(browser, "*/posts/*/react", drop=1)
        try:
            network.set({"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, worker=False)
            page.wait.until(lambda d: len(dropper.seen) >= 1, "the replay sends the reaction")
            page.wait.until(lambda d: queued(d) is not None and len(queued(d)) == 2, "the like is sent; the lost answer keeps the reaction and the star")
            # Back again (the next page load or the next "online" sends the queue again, with the same keys).
            browser.execute_script("window.dispatchEvent(new Event('online'))")
            page.wait.until(lambda d: queued(d) == [], "the queue is sent")
        finally:
            dropper.close()
            network.online()

    assert len(dropper.seen) == 2, "the reaction went twice: once lost, once answered"
    product = api(server, "GET", f"/products/{product_id}", token).json()
    assert product["likeCount"] == 1 and product["viewer"]["liked"] is True
    reactions = api(server, "GET", f"/posts/{post_id}", token).json()["reactions"]
    assert reactions["total"] == 1 and reactions["mine"] == "heart"
    assert api(server, "GET", f"/me/closet/items/{item_id}", token).json()["favourite"] is True


def test_magazine_issue_saved_for_offline(browser, server, unique_email, tmp_path):
    from test_magazine_flow import make_editor

    editor_email = unique_email("editor")
    make_editor(server, "Elena Editor", editor_email)
    token = api(server, "POST", "/auth/login", json={"email": editor_email, "password": PASSWORD}).json()["accessToken"]
    picture = upload(server, token, gradient_png(tmp_path / "lead.png", 800, 500))
    author = api(server, "POST", "/magazine/editor/authors", token, json={"name": "Ioana Marin"}).json()["id"]
    issue = api(server, "POST", "/magazine/editor/issues", token, json={"number": 1, "labels": {"en": "Winter"}}).json()["id"]
    article = api(server, "POST", f"/magazine/editor/issues/{issue}/articles", token, json={
        "position": 0, "authors": [author], "leadImageId": picture,
        "texts": {"en": {"title": "Wool on the train", "summary": "Warm and light.", "markdown": "Wool keeps you warm on a cold platform."}}})
    assert article.status_code == 201, article.text
    article_id = article.json()["id"]
    assert api(server, "POST", f"/magazine/editor/articles/{article_id}/publish", token).status_code == 200
    assert api(server, "POST", f"/magazine/editor/issues/{issue}/publish", token).status_code == 200

    page = Page(browser, server.base_url)
    page.open(f"/magazine/issues/{issue}")
    wait_for_worker(browser)
    page.open(f"/magazine/issues/{issue}")
    page.visible("#save-issue").click()
    page.wait.until(lambda d: "Saved:" in d.find_element(By.ID, "save-issue-status").text, "the issue is saved")

    network = Network(browser)
    network.offline()
    try:
        page.open(f"/magazine/articles/{article_id}")
        assert "Wool keeps you warm" in text_of(page)
        assert browser.find_element(By.ID, "article-page").get_attribute("lang") == "en"
        loaded = browser.execute_script(
            "const img = document.querySelector('#article-page .photo-full');"
            "return img && img.complete && img.naturalWidth > 0;")
        assert loaded, "the lead picture comes from the saved copy"
    finally:
        network.online()


def test_product_page_first_screen(browser, server, unique_email, tmp_path):
    owner_email = unique_email("owner")
    sign_up(server, owner_email, "Olle Owner")
    _, _, product_id, _ = shop(server, tmp_path, owner_email)
    shopper = unique_email("browser")
    sign_up(server, shopper, "Bea Browser")
    page = Page(browser, server.base_url)
    for signed_in in (False, True):
        if signed_in:
            page.sign_in(shopper)
        page.open(f"/products/{product_id}")
        height = browser.execute_script("return window.innerHeight")
        for selector in (".price-large", "#cart-size", "#add-to-cart"):
            bottom = browser.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().bottom", selector)
            assert bottom <= height, f"{selector} is below the first screen ({bottom} > {height}), signed in: {signed_in}"
