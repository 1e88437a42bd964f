"""The store portal in a real browser at phone size.

A staff member signs in, creates a product with two photos (the first cropped
and rotated in the crop box), saves it inactive, finds it in the inactive tab,
activates it, and sees it on the public store page with the cropped photo.
The store and category are made through the API by an admin (create-admin CLI).
"""

from __future__ import annotations

import os
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from atelier_testing import REPO_ROOT, atelier_bin
from web_page import PASSWORD, Page


@pytest.fixture
def viewport() -> str:
    return "phone"


def gradient_png(path: Path, width: int, height: int) -> Path:
    """An RGB PNG whose red grows left to right and green top to bottom."""
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 90)) for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return path


def api(server, method: str, path: str, token: str | None = None, **kwargs):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, server.api(path), headers=headers, timeout=30, **kwargs)


def make_store(server, staff_email: str) -> tuple[str, str, str]:
    """An admin (from the CLI) creates a store owned by the staff member and a category."""
    admin_email = staff_email.replace("@", "-admin@")
    subprocess.run(
        [str(atelier_bin()), "create-admin", "--email", admin_email, "--password", PASSWORD],
        cwd=REPO_ROOT, env=server.env, check=True, capture_output=True, timeout=120,
    )
    login = api(server, "POST", "/auth/login", json={"email": admin_email, "password": PASSWORD})
    assert login.status_code == 200, login.text
    token = login.json()["accessToken"]
    store = api(server, "POST", "/stores", token, json={
        "name": "Linnéa Vintage", "street": "Linnégatan 12", "postalCode": "413 04", "city": "Gothenburg",
        "location": {"lat": 57.6969, "lng": 11.9530}, "ownerEmail": staff_email})
    assert store.status_code == 201, store.text
    women = api(server, "POST", "/categories", token, json={"name": "Women", "gender": "women"})
    assert women.status_code == 201, women.text
    dresses = api(server, "POST", "/categories", token, json={"name": "Dresses", "gender": "women", "parentId": women.json()["id"]})
    assert dresses.status_code == 201, dresses.text
    return store.json()["id"], store.json()["slug"], dresses.json()["id"]


def test_staff_creates_crops_and_activates_a_product(browser, server, unique_email, tmp_path):
    page = Page(browser, server.base_url)
    email = unique_email("staff")
    signup = api(server, "POST", "/auth/signup", json={"email": email, "password": PASSWORD, "displayName": "Stina Staff"})
    assert signup.status_code == 201, signup.text
    store_id, slug, dresses = make_store(server, email)
    first = gradient_png(tmp_path / "front.png", 800, 600)
    second = gradient_png(tmp_path / "back.png", 640, 480)

    # Sign in on the web; the portal opens the only store straight away.
    page.open("/signin?next=/portal")
    form = page.form("signin-form")
    page.fill(form, email=email, password=PASSWORD)
    page.submit(form)
    page.wait_for_path(f"/portal/stores/{store_id}/products")
    page.click_and_wait(page.visible("#new-product"))

    # Two photos; the first is cropped (narrower and lower) and turned right in the crop box.
    form = page.form("product-form")
    form.find_element(By.ID, "photos").send_keys(f"{first}\n{second}")
    crops = page.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".crop-item")) == 2 and d.find_elements(By.CSS_SELECTOR, ".crop-item"))
    box = crops[0].find_element(By.CSS_SELECTOR, ".crop-box")
    page.wait.until(lambda d: box.size["width"] > 0, "the crop box did not appear")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
    browser.execute_script("arguments[0].focus();", box)
    for _ in range(10):
        box.send_keys(Keys.SHIFT, Keys.ARROW_LEFT)
        box.send_keys(Keys.SHIFT, Keys.ARROW_UP)
    crops[0].find_element(By.CSS_SELECTOR, ".rotate-right").click()
    crop_value = crops[0].find_element(By.CSS_SELECTOR, "input[name='crops[]']").get_attribute("value")
    assert crop_value == "0,0,500,300", crop_value
    assert crops[0].find_element(By.CSS_SELECTOR, "input[name='rotations[]']").get_attribute("value") == "90"

    page.fill(form, title="Silk slip dress", price="1299")
    page.select(form, "categoryId", dresses)
    form.find_element(By.CSS_SELECTOR, "input[name='sizes[]']").send_keys("M")
    form.find_element(By.CSS_SELECTOR, "input[name='stocks[]']").send_keys("2")
    page.click_and_wait(form.find_element(By.ID, "save-inactive"))
    page.wait_for_path(f"/portal/stores/{store_id}/products")
    assert "Silk slip dress" in page.flash()

    # It waits in the inactive tab and is not public yet.
    page.click_and_wait(page.visible("#tab-inactive"))
    item = page.visible("#product-list .portal-item")
    assert "Silk slip dress" in item.text
    product_id = item.get_attribute("data-product-id")
    assert api(server, "GET", f"/products/{product_id}").status_code == 404

    page.click_and_wait(item.find_element(By.XPATH, ".//button[normalize-space()='Activate']"))
    assert "live" in page.flash()

    # The public store page shows it, with the cropped and turned photo (300 wide, 500 tall).
    page.open(f"/stores/{slug}")
    card = page.visible(f".product-card a[href='/products/{product_id}']")
    assert "Silk slip dress" in card.text
    image = card.find_element(By.CSS_SELECTOR, "img.photo-full")
    page.wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image))
    width, height = browser.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight];", image)
    assert abs(width / height - 300 / 500) < 0.02, (width, height)
    product = api(server, "GET", f"/products/{product_id}").json()
    assert [(p["width"], p["height"]) for p in product["photos"]] == [(300, 500), (640, 480)]
