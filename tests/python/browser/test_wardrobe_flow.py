"""The closet in a real browser at phone size (and at the desk).

Clara signs up and adds three garment photos at once; the grid shows them at
once and swaps each cut-out in as the server makes it. In the outfit builder she
drags the three pieces onto the canvas and saves the outfit; she plans it for
tomorrow, marks it worn from the calendar, and sees the wear count of a piece
rise on its page.
"""

from __future__ import annotations

import struct
import uuid
import zlib
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_social_flow import sign_up
from web_page import Page


def garment_png(path: Path, colour: tuple[int, int, int], shape: str, width: int = 240, height: int = 300) -> Path:
    """A garment on a plain, light backdrop: a T-shaped top, trousers or a wide shoe."""

    def inside(x: float, y: float) -> bool:
        if shape == "top":
            return (0.3 <= x <= 0.7 and 0.2 <= y <= 0.85) or (0.12 <= x <= 0.88 and 0.2 <= y <= 0.38)
        if shape == "trousers":
            return (0.32 <= x <= 0.68 and 0.1 <= y <= 0.35) or (0.32 <= x <= 0.48 and 0.1 <= y <= 0.9) or (0.52 <= x <= 0.68 and 0.1 <= y <= 0.9)
        return 0.15 <= x <= 0.85 and 0.55 <= y <= 0.75

    backdrop = (236, 232, 226)
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (colour if inside(x / width, y / height) else backdrop)) for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return path


def test_closet_outfit_calendar_and_wears(browser, server, unique_email, viewport, tmp_path):
    page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:8]
    sign_up(page, f"Clara W{suffix}", unique_email(f"clara-{viewport}"))

    # 1. Three photos at once.
    photos = [
        garment_png(tmp_path / "top.png", (30, 45, 110), "top"),
        garment_png(tmp_path / "trousers.png", (200, 180, 150), "trousers"),
        garment_png(tmp_path / "shoes.png", (40, 40, 40), "shoes"),
    ]
    page.click_and_wait(page.visible("#nav-closet"))
    page.wait_for_path("/closet")
    form = page.form("closet-upload")
    form.find_element(By.ID, "closet-photos").send_keys("\n".join(str(p.resolve()) for p in photos))
    page.click_and_wait(form.find_element(By.ID, "closet-upload-submit"))
    page.wait_for_path("/closet")
    assert "Added 3 items" in page.flash()
    tiles = page.driver.find_elements(By.CSS_SELECTOR, "#closet-grid li.closet-tile")
    assert len(tiles) == 3

    # 2. The cut-outs appear without a reload (the grid asks for them).
    page.wait.until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#closet-grid li[data-cutout-status='ready'] img.cutout")) == 3,
        "the three cut-outs did not appear",
    )
    for image in page.driver.find_elements(By.CSS_SELECTOR, "#closet-grid img.cutout"):
        page.wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
        assert image.is_displayed()
    item_url = page.driver.find_elements(By.CSS_SELECTOR, "#closet-grid li.closet-tile a")[0].get_attribute("href")

    # 3. Build an outfit by dragging the pieces onto the canvas.
    page.click_and_wait(page.visible("#new-outfit-link"))
    page.wait_for_path("/outfits/new")
    canvas = page.visible("#outfit-canvas")
    pieces = page.driver.find_elements(By.CSS_SELECTOR, "#piece-tray li.tray-piece")
    assert len(pieces) == 3
    box = canvas.rect
    for index, piece in enumerate(pieces):
        page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
        dx, dy = int(box["width"] * (0.25 + 0.25 * index)) - int(box["width"] / 2), int(box["height"] * (0.2 + 0.3 * index)) - int(box["height"] / 2)
        ActionChains(page.driver).click_and_hold(piece).pause(0.1).move_by_offset(5, 5).move_to_element_with_offset(canvas, dx, dy).pause(0.1).release().perform()
    placed = page.driver.find_elements(By.CSS_SELECTOR, "#outfit-canvas img.placed-piece")
    assert len(placed) == 3
    lefts = sorted(round(float(p.value_of_css_property("left").rstrip("px"))) for p in placed)
    assert lefts[0] < lefts[1] < lefts[2], f"the pieces sit where they were dropped: {lefts}"
    form = page.form("outfit-form")
    page.fill(form, name=f"Gallery night {suffix}")
    page.click_and_wait(form.find_element(By.ID, "outfit-save"))
    page.wait.until(lambda d: "/outfits/" in d.current_url and "/new" not in d.current_url, "not on the outfit's page")
    assert f"Gallery night {suffix}" in page.visible("h1").text

    # 4. Plan it for tomorrow (the date field starts at tomorrow).
    tomorrow = page.field_value("#plan-date")
    page.click_and_wait(page.visible("#plan-submit"))
    assert "Planned for " + tomorrow in page.flash()
    day = page.visible(f"li.month-day[data-date='{tomorrow}']")
    assert f"Gallery night {suffix}" in day.text

    # The piece has not been worn yet.
    page.open(item_url.replace(server.base_url, ""))
    assert page.visible("[data-wear-count]").text == "0"

    # 5. Mark it worn from the calendar.
    page.open(f"/calendar?month={tomorrow[:7]}")
    day = page.visible(f"li.month-day[data-date='{tomorrow}']")
    page.click_and_wait(day.find_element(By.CSS_SELECTOR, "button[data-mark-worn]"))
    assert "Marked as worn" in page.flash()
    page.visible(f"li.month-day[data-date='{tomorrow}'] [data-worn]")

    # 6. The wear count rose on the item's page.
    page.open(item_url.replace(server.base_url, ""))
    assert page.visible("[data-wear-count]").text == "1"
    assert tomorrow in page.visible("#worn-dates").text

    # The outfit on the mannequin (drawn by the server) shows on its page.
    page.open("/outfits")
    page.click_and_wait(page.visible("#outfit-list li a"))
    outfit_path = page.driver.current_url.replace(server.base_url, "")
    page.visible("#mannequin summary").click()
    mannequin = page.visible("#mannequin img.mannequin")
    page.wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth === 600", mannequin))

    # A packing list from the outfit; one piece checked off.
    page.open("/packing")
    form = page.form("packing-form")
    page.fill(form, name=f"Lisbon {suffix}")
    form.find_element(By.CSS_SELECTOR, "input[name='outfitIds[]']").click()
    page.click_and_wait(form.find_element(By.CSS_SELECTOR, "button[type='submit']"))
    rows = page.driver.find_elements(By.CSS_SELECTOR, "#packing-list li[data-item]")
    assert len(rows) == 3
    page.click_and_wait(rows[0].find_element(By.CSS_SELECTOR, "button"))
    assert page.visible("#packed-count").text == "1"

    # The month's recap: an animated picture on its share page. It is made of the outfits' stored
    # pictures, which the image queue draws in the background (the mannequin above is drawn on
    # request), so first wait until the outfit list shows the picture: on a busy machine it can
    # take longer than the steps above.
    def drawn(driver) -> bool:
        page.open("/outfits")
        return bool(driver.find_elements(By.CSS_SELECTOR, "#outfit-list li img"))

    WebDriverWait(browser, 90, poll_frequency=1).until(drawn, "the outfit's picture was never drawn")
    page.open(f"/calendar?month={tomorrow[:7]}")
    page.click_and_wait(page.visible("#recap-submit"))
    animation = page.visible("#recap-animation")
    page.wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", animation))
    assert outfit_path.startswith("/outfits/")
