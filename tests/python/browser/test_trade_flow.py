"""A bar orders from a drinks wholesaler on the web, at phone size (issue 51).

The wholesaler is sign-in-to-browse, takes invoices, delivers to a list of postcodes and prices
without VAT (25 %). A new bar asks for a trade account on the web; the owner approves it in the
portal. The bar then browses the wholesaler's Gin category, puts two cases in the cart, checks out
for delivery to an address it types and pays by invoice; its invoice shows net, VAT and gross. The
owner sees the order in the portal. The store, category and product are made through the API
(admin from the CLI).
"""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from atelier_testing import REPO_ROOT, atelier_bin
from test_portal_flow import api, gradient_png
from web_page import PASSWORD, Page


@pytest.fixture
def viewport() -> str:
    return "phone"


SETTINGS = {
    "orderingEnabled": True, "reserveEnabled": False, "reserveHours": 48, "reserveMaxItems": 5, "pickupEnabled": True,
    "pickupPreparationMinutes": 1440, "deliveryEnabled": True, "deliveryRadiusKm": 30, "deliveryFee": {"amount": 0, "currency": "SEK"},
    "payAtStore": False, "payByCard": False, "payByInvoice": True, "minimumOrder": {"amount": 0, "currency": "SEK"},
    "signInToBrowse": True, "deliveryPostcodes": ["413 03", "413 04"], "pricesIncludeVat": False, "vatRate": 25,
}


def wholesaler(server, owner_email: str, tmp_path: Path) -> tuple[str, str, str]:
    """A sign-in-to-browse drinks wholesaler with one gin (trade price 299.00 in cases of 6)."""
    admin_email = owner_email.replace("@", "-admin@")
    subprocess.run(
        [str(atelier_bin()), "create-admin", "--email", admin_email, "--password", PASSWORD],
        cwd=REPO_ROOT, env=server.env, check=True, capture_output=True, timeout=120,
    )
    admin = api(server, "POST", "/auth/login", json={"email": admin_email, "password": PASSWORD}).json()["accessToken"]
    suffix = uuid.uuid4().hex[:6]
    store = api(server, "POST", "/stores", admin, json={
        "name": f"Kvarnen Dryck {suffix}", "street": "Järntorget 3", "postalCode": "413 04", "city": "Gothenburg",
        "location": {"lat": 57.6996, "lng": 11.9526}, "ownerEmail": owner_email})
    assert store.status_code == 201, store.text
    spirits = api(server, "POST", "/categories", admin, json={"name": f"Spirits {suffix}", "gender": "unisex"}).json()["id"]
    gin = api(server, "POST", "/categories", admin, json={"name": "Gin", "gender": "unisex", "parentId": spirits}).json()["id"]
    described = api(server, "PATCH", f"/categories/{gin}", admin, json={"description": "Dry gins from small Nordic stills."})
    assert described.status_code == 200, described.text
    store_id, slug = store.json()["id"], store.json()["slug"]
    owner = api(server, "POST", "/auth/login", json={"email": owner_email, "password": PASSWORD}).json()["accessToken"]
    settings = api(server, "PUT", f"/stores/{store_id}/commerce", owner, json=SETTINGS)
    assert settings.status_code == 200, settings.text
    photo = gradient_png(tmp_path / "gin.png", 600, 800)
    upload = api(server, "POST", "/media", owner, files={"file": ("gin.png", photo.read_bytes(), "image/png")})
    product = api(server, "POST", f"/stores/{store_id}/products", owner, json={
        "title": "Small-batch gin 70 cl", "categoryId": gin, "gender": "unisex", "price": {"amount": 39900, "currency": "SEK"},
        "colors": ["white"], "styles": ["party"], "variants": [{"size": "70 cl", "stock": 60}],
        "photoIds": [upload.json()["id"]], "status": "active"})
    assert product.status_code == 201, product.text
    product_id = product.json()["id"]
    terms = api(server, "PUT", f"/stores/{store_id}/products/{product_id}/trade-terms", owner, json={"tradePrice": 29900, "caseSize": 6})
    assert terms.status_code == 200, terms.text
    mixers = api(server, "POST", "/categories", admin, json={"name": "Mixers", "gender": "unisex", "parentId": spirits}).json()["id"]
    tonic_photo = gradient_png(tmp_path / "tonic.png", 600, 800)
    tonic_upload = api(server, "POST", "/media", owner, files={"file": ("tonic.png", tonic_photo.read_bytes(), "image/png")})
    tonic = api(server, "POST", f"/stores/{store_id}/products", owner, json={
        "title": "Elderflower tonic 20 cl", "categoryId": mixers, "gender": "unisex", "price": {"amount": 1900, "currency": "SEK"},
        "colors": ["white"], "styles": ["party"], "variants": [{"size": "20 cl", "stock": 240}],
        "photoIds": [tonic_upload.json()["id"]], "status": "active"})
    assert tonic.status_code == 201, tonic.text
    return store_id, slug, gin


def sign_in(page: Page, email: str, next_path: str = "/") -> None:
    page.open(f"/signin?next={next_path}")
    form = page.form("signin-form")
    page.fill(form, email=email, password=PASSWORD)
    page.submit(form)


def test_bar_applies_is_approved_and_orders_two_cases_by_invoice(browser, server, unique_email, tmp_path):
    page = Page(browser, server.base_url)
    owner_email, bar_email = unique_email("wholesaler"), unique_email("bar")
    for email, name in [(owner_email, "Kalle Kvarnen"), (bar_email, "Bar Nova")]:
        assert api(server, "POST", "/auth/signup", json={"email": email, "password": PASSWORD, "displayName": name}).status_code == 201
    store_id, slug, gin = wholesaler(server, owner_email, tmp_path)

    # 1. Before approval the catalogue is closed to the bar; it asks for a trade account on the web.
    sign_in(page, bar_email)
    page.open(f"/stores/{slug}")
    assert "Kvarnen Dryck" not in browser.page_source
    page.open(f"/trade/{slug}")
    form = page.form("trade-form")
    page.fill(form, companyName="Bar Nova AB", vatNumber="SE556000000001")
    page.submit(form)
    assert "Bar Nova AB" in page.visible("#trade-status").text
    page.sign_out()

    # 2. The owner approves it in the portal.
    sign_in(page, owner_email, f"/portal/stores/{store_id}/trade")
    page.open(f"/portal/stores/{store_id}/trade")
    row = page.visible(".trade-row[data-status='pending']")
    assert "Bar Nova AB" in row.text
    page.click_and_wait(row.find_element(By.CSS_SELECTOR, "button[value='approve']"))
    assert page.visible(".trade-row[data-status='approved']")
    page.sign_out()

    # 3. The bar browses the Gin category and puts two cases in the cart.
    sign_in(page, bar_email)
    page.open(f"/stores/{slug}")
    page.click_and_wait(page.visible(f"a.chip[href$='category={gin}']"))
    assert "Dry gins from small Nordic stills." in page.visible("#category-intro").text
    shelf = page.visible("#store-page").text
    assert "Small-batch gin" in shelf and "Elderflower tonic" not in shelf
    page.click_and_wait(page.visible("a[href^='/products/']"))
    form = page.form("add-to-cart-form")
    page.fill(form, quantity="12")
    page.submit(form)
    page.wait_for_path("/cart")
    assert "Small-batch gin" in page.visible("#cart-page").text

    # 4. Delivery to a typed address, paid by invoice.
    form = page.form("checkout-form")
    form.find_element(By.ID, "fulfilment-delivery").click()
    page.fill(form, name="Bar Nova AB", street="Andra Långgatan 4", postalCode="413 03", city="Gothenburg")
    form.find_element(By.ID, "payment-invoice").click()
    page.click_and_wait(form.find_element(By.ID, "place-order"))
    page.wait.until(lambda d: "/orders/" in d.current_url, "no order page after checkout")
    vat = page.visible("#order-vat").text.replace("\u2009", "")
    # 12 × 299.00 = 3 588.00 net, 25 % VAT 897.00, 4 485.00 gross.
    assert "25 %" in vat and "3588.00 SEK" in vat and "897.00 SEK" in vat and "4485.00 SEK" in vat, vat
    page.sign_out()

    # 5. The owner sees the order.
    sign_in(page, owner_email, f"/portal/stores/{store_id}/orders")
    page.open(f"/portal/stores/{store_id}/orders")
    order = page.visible(".portal-order[data-status='placed']")
    assert "Small-batch gin" in order.text and "Bar Nova" in order.text
