"""Moments in two real browsers at once: a quick moment, an invitation, a check-in and the live album.

Astrid and Bruno sign up and become friends through /friends (as in
test_social_flow). Astrid's browser is placed in Bucharest (Chrome DevTools
geolocation override); on /moments she starts a quick moment there and invites
Bruno from the moment page's invite sheet. Her moment page stays open: its album
subscribes to the moment's channel on the /live WebSocket.
Bruno, in a second browser running at the same time, signs in, finds the
invitation on /moments, joins, checks in from about 30 m away and adds a photo.
The new tile shows up on Astrid's page without that page being reloaded.
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from atelier_testing import item_failed
from test_social_flow import gradient_png, person_row, sign_in, sign_up
from web_page import Page

# Astrid's moment is centred here; Bruno checks in about 30 m north of it (the quick moment's radius is 100 m).
ASTRID_AT = (44.4268, 26.1025)
BRUNO_AT = (44.42707, 26.1025)
LIVE_SECONDS = 10


def _browser_conftest(config):
    """browser/conftest.py as pytest loaded it (its module name, `conftest`, is shared with
    tests/python/conftest.py, so it cannot be imported by name)."""
    here = Path(__file__).with_name("conftest.py").resolve()
    for plugin in config.pluginmanager.get_plugins():
        file = getattr(plugin, "__file__", None)
        if file and Path(file).resolve() == here:
            return plugin
    raise RuntimeError(f"{here} is not loaded as a pytest plugin")


@pytest.fixture
def second_browser(request, viewport, server, browser):
    """A second Chromium, made like conftest's `browser` (same options), alive at the same time.
    Depends on `browser` so it is torn down first, and on `server` so both go before the server."""
    conf = _browser_conftest(request.config)
    conf.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver_log = conf.ARTIFACTS / f"chromedriver-{request.node.originalname}-{viewport}-second.log"
    service = Service(executable_path=conf.CHROMEDRIVER, log_output=str(driver_log))
    driver = webdriver.Chrome(service=service, options=conf._options(viewport))
    if viewport != "phone":
        driver.set_window_size(*conf.VIEWPORTS[viewport])
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        try:
            if item_failed(request.node):
                stem = conf.ARTIFACTS / f"{request.node.originalname}-{viewport}-second"
                driver.save_screenshot(str(stem.with_suffix(".png")))
                stem.with_suffix(".html").write_text(driver.page_source, encoding="utf-8")
                print(f"\nsecond browser: screenshot {stem.with_suffix('.png')} (page at {driver.current_url})")
        finally:
            driver.quit()
            if not item_failed(request.node):
                driver_log.unlink(missing_ok=True)


def place_browser(driver: WebDriver, origin: str, at: tuple[float, float]) -> None:
    """Lets `origin` read the position and makes the browser report `at` (±10 m)."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": origin})
    latitude, longitude = at
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": 10})


def moment_state(page: Page) -> str:
    return page.visible("#moment-actions").get_attribute("data-state")


def member_row(page: Page, name: str):
    """The row (li[data-member]) of `name` in the moment page's people list."""
    members = page.visible("#members")
    rows = [row for row in members.find_elements(By.CSS_SELECTOR, "li[data-member]") if name in row.text]
    assert len(rows) == 1, f"expected one member row for {name!r}: {members.text!r}"
    return rows[0]


def test_quick_moment_invite_checkin_and_live_album(browser, second_browser, server, unique_email, viewport, tmp_path):
    astrid_page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:8]
    astrid, astrid_email = f"Astrid M{suffix}", unique_email(f"astrid-{viewport}")
    bruno, bruno_email = f"Bruno M{suffix}", unique_email(f"bruno-{viewport}")
    caption = f"Confetti everywhere {suffix}"

    # Both sign up; Bruno asks to be Astrid's friend and she accepts (one browser, taking turns).
    sign_up(astrid_page, astrid, astrid_email)
    astrid_page.sign_out()
    sign_up(astrid_page, bruno, bruno_email)
    astrid_page.click_and_wait(astrid_page.visible("#nav-friends"))
    astrid_page.wait_for_path("/friends")
    search = astrid_page.visible("form[role='search']")
    astrid_page.fill(search, q=astrid)
    astrid_page.submit(search)
    row = person_row(astrid_page.visible("#people-results"), astrid)
    astrid_page.click_and_wait(row.find_element(By.CSS_SELECTOR, "[data-action='add-friend']"))
    assert "Friend request sent." in astrid_page.flash()
    astrid_page.sign_out()

    sign_in(astrid_page, astrid, astrid_email)
    astrid_page.click_and_wait(astrid_page.visible("#nav-friends"))
    astrid_page.wait_for_path("/friends")
    row = person_row(astrid_page.visible("#incoming-requests"), bruno)
    astrid_page.click_and_wait(row.find_element(By.CSS_SELECTOR, "[data-action='accept']"))
    assert "You are friends now." in astrid_page.flash()
    person_row(astrid_page.visible("#friend-list"), bruno)

    # Astrid starts a quick moment where her browser says she is.
    place_browser(browser, server.base_url, ASTRID_AT)
    astrid_page.open("/moments")
    astrid_page.visible("#moments-page")
    assert "No moments yet." in astrid_page.visible("#my-moments").text
    assert not browser.find_elements(By.CSS_SELECTOR, "#invitations")
    astrid_page.click_and_wait(astrid_page.visible("#quick-moment-button"))
    astrid_page.wait.until(
        EC.url_matches("^" + re.escape(server.url("/moments/")) + r"[0-9a-f-]{36}(\?.*)?(#.*)?$"),
        "the quick moment did not open its page",
    )
    assert "Your moment is on for the next two hours." in astrid_page.flash()
    moment_id = astrid_page.visible("#moment-page").get_attribute("data-moment-id")
    assert browser.current_url.startswith(server.url(f"/moments/{moment_id}"))
    first_name = astrid.split(" ")[0]
    assert f"{first_name}’s moment" == astrid_page.visible("#moment-page h1").text.strip()
    assert astrid_page.visible("#moment-status").text.strip() == "Happening now"
    assert f"{first_name}’s spot" in astrid_page.visible("#moment-page header").text
    # Whoever starts a moment where they stand is checked in to it at once.
    assert moment_state(astrid_page) == "checkedIn"
    assert not browser.find_elements(By.CSS_SELECTOR, "#checkin-button")
    astrid_page.visible("#photo-form")  # the creator may always post
    assert astrid_page.visible("#album-empty").text.strip() == "No photos yet."
    assert astrid_page.visible("#photo-count").text.strip() == "0"
    assert "host" in member_row(astrid_page, astrid).text

    # She invites Bruno from the invite sheet.
    sheet = astrid_page.visible("details#invite-sheet")
    assert sheet.get_attribute("open") is None
    sheet.find_element(By.TAG_NAME, "summary").click()
    astrid_page.wait.until(lambda _d: sheet.get_attribute("open") is not None, "the invite sheet did not open")
    labels = [label for label in sheet.find_elements(By.CSS_SELECTOR, "label.check") if bruno in label.text]
    assert len(labels) == 1, f"expected Bruno among the friends to invite: {sheet.text!r}"
    box = labels[0].find_element(By.CSS_SELECTOR, "input[type='checkbox']")
    assert box.is_enabled() and not box.is_selected()
    box.click()
    assert box.is_selected()
    astrid_page.click_and_wait(sheet.find_element(By.ID, "invite-submit"))
    astrid_page.wait_for_path(f"/moments/{moment_id}")
    assert "Invited one friend." in astrid_page.flash()
    assert member_row(astrid_page, bruno).get_attribute("data-state") == "invited"

    # Her page stays open, listening: once the album is subscribed, mark the window to tell a reload.
    WebDriverWait(browser, LIVE_SECONDS).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#album[data-live='on']")), "the album never went live"
    )
    assert astrid_page.visible("#live-status").text.strip() == "Live"
    browser.execute_script("window.__marker = 1;")

    # Bruno, in his own browser, finds the invitation on /moments.
    bruno_page = Page(second_browser, server.base_url)
    sign_in(bruno_page, bruno, bruno_email)
    bruno_page.open("/moments")
    invitation = bruno_page.visible(f"#invitations li.invitation[data-moment='{moment_id}']")
    assert f"{first_name}’s moment" in invitation.text
    assert f"{astrid} invited you" in invitation.text
    bruno_page.click_and_wait(invitation.find_element(By.CSS_SELECTOR, f"a[href='/moments/{moment_id}']"))
    bruno_page.wait_for_path(f"/moments/{moment_id}")

    # Invited: he may join or ignore, not yet post.
    assert moment_state(bruno_page) == "invited"
    bruno_page.visible("#ignore-button")
    assert bruno_page.visible("#posting-hint").text.strip() == "Join the moment first."
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#photo-form")
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#invite-sheet")
    bruno_page.click_and_wait(bruno_page.visible("#join-button"))
    bruno_page.wait_for_path(f"/moments/{moment_id}")
    assert "You joined." in bruno_page.flash()

    # Joined an ongoing moment: he has to check in before posting.
    assert moment_state(bruno_page) == "joined"
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#join-button")
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#ignore-button")
    assert bruno_page.visible("#posting-hint").text.strip() == "Check in at the place first; then you can add photos."
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#photo-form")
    assert member_row(bruno_page, bruno).get_attribute("data-state") == "joined"

    # He checks in from about 30 m away.
    place_browser(second_browser, server.base_url, BRUNO_AT)
    bruno_page.click_and_wait(bruno_page.visible("#checkin-button"))
    bruno_page.wait_for_path(f"/moments/{moment_id}")
    assert "Checked in. Add your photos!" in bruno_page.flash()
    assert moment_state(bruno_page) == "checkedIn"
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#checkin-button")
    assert not second_browser.find_elements(By.CSS_SELECTOR, "#posting-hint")
    form = bruno_page.visible("#photo-form")
    assert member_row(bruno_page, bruno).get_attribute("data-state") == "checkedIn"

    # He adds a photo to the album.
    photo = gradient_png(tmp_path / "bruno-moment.png", 240, 320)
    form.find_element(By.ID, "moment-photo").send_keys(str(photo.resolve()))
    form.find_element(By.ID, "moment-photo-caption").send_keys(caption)
    bruno_page.click_and_wait(form.find_element(By.ID, "photo-submit"))
    bruno_page.wait_for_path(f"/moments/{moment_id}")
    assert "Photo added to the album." in bruno_page.flash()
    tiles = second_browser.find_elements(By.CSS_SELECTOR, "#album li[data-photo]")
    assert len(tiles) == 1, bruno_page.visible("#album").get_attribute("outerHTML")
    photo_id = tiles[0].get_attribute("data-photo")
    assert bruno_page.visible("#photo-count").text.strip() == "1"

    # Astrid's page, never reloaded, shows the new tile.
    tile = WebDriverWait(browser, LIVE_SECONDS).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#album li[data-photo]")), "the new photo never reached the open album"
    )
    assert browser.execute_script("return window.__marker;") == 1, "Astrid's moment page was reloaded"
    assert tile.get_attribute("data-photo") == photo_id
    assert len(browser.find_elements(By.CSS_SELECTOR, "#album li[data-photo]")) == 1
    assert tile.is_displayed()
    link = tile.find_element(By.TAG_NAME, "a")
    assert link.get_attribute("href") == server.url(f"/moments/{moment_id}/photos/{photo_id}")
    image = link.find_element(By.TAG_NAME, "img")
    assert image.get_attribute("alt") == caption
    WebDriverWait(browser, LIVE_SECONDS).until(
        lambda driver: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image),
        "the live tile's image did not load",
    )
    assert astrid_page.visible("#photo-count").text.strip() == "1"
    assert not browser.find_elements(By.CSS_SELECTOR, "#album-empty")
    assert member_row(astrid_page, bruno).get_attribute("data-state") == "invited"  # the rest of the page is as loaded

    # The tile opens Bruno's photo.
    astrid_page.click_and_wait(link)
    astrid_page.wait_for_path(f"/moments/{moment_id}/photos/{photo_id}")
    figure = astrid_page.visible("#moment-photo-page figure")
    assert bruno in figure.find_element(By.CSS_SELECTOR, ".post-head").text
    assert figure.find_element(By.CSS_SELECTOR, ".post-caption").text.strip() == caption

    bruno_page.sign_out()
    astrid_page.sign_out()
