"""Commerce in a real browser at phone size (issue 18).

A signed-out shopper adds a size to the cart and signs in; the cart survives.
The shopper checks out with pickup. Staff see the order in the queue, confirm it
and mark it ready; the shopper's order page shows it ready. Staff hand it over;
the shopper reviews the product, and the review shows "verified purchase".
The store, category and product are made through the API (admin from the CLI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_portal_flow import api, gradient_png, make_store
from web_page import PASSWORD, Page


@pytest.fixture
def viewport() -> str:
    return "phone"


SETTINGS = {
    "orderingEnabled": True, "reserveEnabled": True, "reserveHours": 48, "reserveMaxItems": 5, "pickupEnabled": True,
    "pickupPreparationMinutes": 60, "deliveryEnabled": False, "deliveryRadiusKm": 10, "deliveryFee": {"amount": 0, "currency": "SEK"},
    "payAtStore": True, "payByCard": False, "payByInvoice": False, "minimumOrder": {"amount": 0, "currency": "SEK"},
    "signInToBrowse": False,
}


def shop(server, tmp_path: Path, owner_email: str) -> tuple[str, str, str, str]:
    """A store that takes orders, owned by `owner_email`, with one active dress in S and M."""
    store_id, slug, dresses = make_store(server, owner_email)
    token = api(server, "POST", "/auth/login", json={"email": owner_email, "password": PASSWORD}).json()["accessToken"]
    assert api(server, "PUT", f"/stores/{store_id}/commerce", token, json=SETTINGS).status_code == 200
    photo = gradient_png(tmp_path / "dress.png", 600, 800)
    upload = api(server, "POST", "/media", token, files={"file": ("dress.png", photo.read_bytes(), "image/png")})
    assert upload.status_code == 201, upload.text
    product = api(server, "POST", f"/stores/{store_id}/products", token, json={
        "title": "Linen wrap dress", "categoryId": dresses, "gender": "women", "price": {"amount": 89900, "currency": "SEK"},
        "colors": ["white"], "styles": ["casual"], "variants": [{"size": "S", "stock": 2}, {"size": "M", "stock": 1}],
        "photoIds": [upload.json()["id"]], "status": "active"})
    assert product.status_code == 201, product.text
    body = product.json()
    size_m = next(v["id"] for v in body["variants"] if v["size"] == "M")
    return store_id, slug, body["id"], size_m


def test_reserve_pickup_handover_and_verified_review(browser, server, unique_email, tmp_path):
    page = Page(browser, server.base_url)
    staff_email = unique_email("shopowner")
    assert api(server, "POST", "/auth/signup", json={"email": staff_email, "password": PASSWORD, "displayName": "Stina Staff"}).status_code == 201
    store_id, _, product_id, size_m = shop(server, tmp_path, staff_email)
    shopper_email = unique_email("shopper")
    assert api(server, "POST", "/auth/signup", json={"email": shopper_email, "password": PASSWORD, "displayName": "Sara Shopper"}).status_code == 201

    # 1. Signed out, the shopper puts size M in the cart, then signs in; the cart survives.
    page.open(f"/products/{product_id}")
    form = page.form("add-to-cart-form")
    page.select(form, "variantID", size_m)
    page.submit(form)
    page.wait_for_path("/cart")
    assert "Linen wrap dress" in page.visible("#cart-page").text
    page.click_and_wait(page.visible("#signin-to-checkout"))
    form = page.form("signin-form")
    page.fill(form, email=shopper_email, password=PASSWORD)
    page.submit(form)
    page.wait_for_path("/cart")
    line = page.visible(f".cart-line[data-variant='{size_m}']")
    assert "size M" in line.text

    # 2. Checkout with pickup.
    form = page.form("checkout-form")
    form.find_element(By.ID, "fulfilment-pickup").click()
    page.click_and_wait(form.find_element(By.ID, "place-order"))
    page.wait.until(lambda d: "/orders/" in d.current_url, "no order page after checkout")
    order_path = browser.current_url.removeprefix(server.base_url).split("?")[0]
    assert page.visible("#order-status").text == "Placed"
    page.sign_out()

    # 3. Staff see it in the queue, confirm it and mark it ready.
    page.open("/signin?next=/portal")
    form = page.form("signin-form")
    page.fill(form, email=staff_email, password=PASSWORD)
    page.submit(form)
    page.open(f"/portal/stores/{store_id}/orders")
    order = page.visible(".portal-order[data-status='placed']")
    assert "Linen wrap dress" in order.text and "Sara Shopper" in order.text
    page.click_and_wait(order.find_element(By.CSS_SELECTOR, "button[data-action='confirm']"))
    page.open(f"/portal/stores/{store_id}/orders?queue=confirmed")
    page.click_and_wait(page.visible(".portal-order[data-status='confirmed'] button[data-action='ready']"))
    page.sign_out()

    # 4. The shopper's order page shows it ready.
    page.open(f"/signin?next={order_path}")
    form = page.form("signin-form")
    page.fill(form, email=shopper_email, password=PASSWORD)
    page.submit(form)
    page.open(order_path)
    assert page.visible("#order-status").text == "Ready to collect"
    page.sign_out()

    # 5. Staff hand it over.
    page.open("/signin")
    form = page.form("signin-form")
    page.fill(form, email=staff_email, password=PASSWORD)
    page.submit(form)
    page.open(f"/portal/stores/{store_id}/orders?queue=ready")
    page.click_and_wait(page.visible(".portal-order[data-status='readyForPickup'] button[data-action='handover']"))
    page.open(f"/portal/stores/{store_id}/orders?queue=done")
    assert page.visible(".portal-order[data-status='completed']")
    page.sign_out()

    # 6. The shopper reviews the dress; the review shows "verified purchase".
    page.open("/signin")
    form = page.form("signin-form")
    page.fill(form, email=shopper_email, password=PASSWORD)
    page.submit(form)
    page.open(order_path)
    assert page.visible("#order-status").text == "Completed"
    page.open(f"/products/{product_id}")
    form = page.form("review-form")
    page.select(form, "stars", "5")
    page.fill(form, text="Fits like a dream.")
    page.submit(form)
    review = page.visible("#reviews .review")
    assert "Fits like a dream." in review.text
    assert "Verified purchase" in review.text
