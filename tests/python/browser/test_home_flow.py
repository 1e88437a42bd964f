"""The signed-out home page in a real browser at phone size (issue 23).

A visitor whose browser shares its position (granted and overridden through DevTools)
opens /, sees the shops and new pieces around them, scrolls and more pieces load, opens
a product, follows the sign-up link and comes back signed in to a home page with the
following feed; after following the product's store its pieces are in that feed.
The stores, category and products are made through the API (admin from the CLI), in
Cluj-Napoca so that no other test's Gothenburg store is "near".
"""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from atelier_testing import REPO_ROOT, atelier_bin
from test_moments_flow import place_browser
from test_portal_flow import api, gradient_png
from web_page import PASSWORD, Page

CLUJ = (46.7712, 23.6236)
STORES = [("Atelier Unirii", 46.7700, 23.5900), ("Croitoria Napoca", 46.7740, 23.6010), ("Haine Vechi", 46.7650, 23.5800)]
PRODUCTS = 30


@pytest.fixture
def viewport() -> str:
    return "phone"


def cluj_shops(server, tmp_path: Path, suffix: str) -> tuple[list[str], list[str]]:
    """Three stores near Cluj's centre owned by one member of staff, and 30 active pieces across them."""
    staff_email = f"cluj-staff-{suffix}@example.com"
    admin_email = f"cluj-admin-{suffix}@example.com"
    assert api(server, "POST", "/auth/signup", json={"email": staff_email, "password": PASSWORD, "displayName": "Ioana Staff"}).status_code == 201
    subprocess.run([str(atelier_bin()), "create-admin", "--email", admin_email, "--password", PASSWORD],
                   cwd=REPO_ROOT, env=server.env, check=True, capture_output=True, timeout=120)
    admin = api(server, "POST", "/auth/login", json={"email": admin_email, "password": PASSWORD}).json()["accessToken"]
    staff = api(server, "POST", "/auth/login", json={"email": staff_email, "password": PASSWORD}).json()["accessToken"]
    women = api(server, "POST", "/categories", admin, json={"name": f"Women {suffix}", "gender": "women"})
    assert women.status_code == 201, women.text
    names, store_ids = [], []
    for name, lat, lng in STORES:
        store = api(server, "POST", "/stores", admin, json={
            "name": f"{name} {suffix}", "street": "Strada Memorandumului 1", "postalCode": "400114", "city": "Cluj-Napoca",
            "location": {"lat": lat, "lng": lng}, "ownerEmail": staff_email})
        assert store.status_code == 201, store.text
        names.append(store.json()["name"])
        store_ids.append(store.json()["id"])
    photo = gradient_png(tmp_path / "piece.png", 300, 400).read_bytes()
    for index in range(PRODUCTS):
        upload = api(server, "POST", "/media", staff, files={"file": ("piece.png", photo, "image/png")})
        assert upload.status_code == 201, upload.text
        product = api(server, "POST", f"/stores/{store_ids[index % 3]}/products", staff, json={
            "title": f"Cluj piece {index} {suffix}", "categoryId": women.json()["id"], "gender": "women",
            "price": {"amount": 15000 + index * 100, "currency": "RON"}, "colors": ["black"], "variants": [{"size": "M", "stock": 1}],
            "photoIds": [upload.json()["id"]], "status": "active"})
        assert product.status_code == 201, product.text
    return names, store_ids


def product_cards(page: Page) -> list:
    return page.driver.find_elements(By.CSS_SELECTOR, "#home-discover .product-grid > li")


def test_visitor_near_shops_scrolls_opens_a_piece_and_signs_up(browser, server, unique_email, tmp_path):
    suffix = uuid.uuid4().hex[:6]
    store_names, _ = cluj_shops(server, tmp_path, suffix)
    page = Page(browser, server.base_url)
    place_browser(browser, server.base_url, CLUJ)

    # 1–2. The home page takes the browser's position and shows what is around it.
    page.open("/")
    page.wait.until(lambda d: "lat=" in d.current_url, "the home page did not use the browser's position")
    assert page.visible("#home-stores-title").text == "Shops near you"
    stores = page.visible("#home-stores").find_elements(By.CSS_SELECTOR, "[data-store]")
    assert len(stores) >= 3
    assert all(any(name in store.text for store in stores) for name in store_names)
    first = product_cards(page)
    assert len(first) >= 8
    assert all(suffix in card.text for card in first)

    # 3. Scrolling to the end loads the next page of pieces in place.
    count = len(first)
    browser.execute_script("document.getElementById('home-more').scrollIntoView()")
    page.wait.until(lambda d: len(product_cards(page)) > count, "scrolling did not load more pieces")
    titles = [card.find_element(By.CSS_SELECTOR, ".product-card-title").text for card in product_cards(page)]
    assert len(titles) == PRODUCTS and len(set(titles)) == PRODUCTS

    # 4. Opening a piece.
    card = product_cards(page)[0]
    title = card.find_element(By.CSS_SELECTOR, ".product-card-title").text
    link = card.find_element(By.TAG_NAME, "a")
    browser.execute_script("arguments[0].scrollIntoView()", link)
    page.click_and_wait(link)
    page.wait.until(lambda d: "/products/" in d.current_url, "no product page")
    assert title in page.visible("h1").text

    # 5. The sign-up link, then an account.
    page.click_and_wait(page.visible("a[href='/signup']"))
    page.wait_for_path("/signup")
    name = f"Vera Visitor {suffix}"
    form = page.form("signup-form")
    page.fill(form, displayName=name, email=unique_email("visitor"), password=PASSWORD)
    page.submit(form)

    # 6. Back home, signed in: the following feed, waiting for stores to follow.
    page.wait_for_path("/")
    assert name in page.visible("#greeting").text
    assert page.visible("#home-following-title").text == "Following"
    page.visible("#home-following-empty")

    page.open(f"/search?q={title.replace(' ', '+')}")
    page.click_and_wait(page.visible(".product-grid > li a"))
    store_link = page.visible("a[href^='/stores/']")
    page.click_and_wait(store_link)
    page.submit(page.form("follow-form"))
    page.open("/")
    feed = page.visible("#home-following").text
    assert suffix in feed
