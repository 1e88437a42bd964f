"""Connecting at a moment is not befriending, in a real browser.

Astrid posts her outfit of the day and plans a public moment. Bruno, a stranger,
joins it and connects with her from the moment's people list. He sees her as
connected, yet her outfit post is still a 404 to him. Astrid's invite sheet on
her moment now lists Bruno, and her friends page lists him as met at a moment.
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import uuid

from selenium.webdriver.common.by import By

from test_moments_flow import member_row
from test_social_flow import gradient_png, person_row, post_outfit, sign_in, sign_up
from web_page import Page


def test_connect_at_moment_does_not_open_outfit_posts(browser, server, unique_email, viewport, tmp_path):
    page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:8]
    astrid, astrid_email = f"Astrid C{suffix}", unique_email(f"astrid-conn-{viewport}")
    bruno, bruno_email = f"Bruno C{suffix}", unique_email(f"bruno-conn-{viewport}")

    # Astrid posts today's outfit and plans a public moment.
    sign_up(page, astrid, astrid_email)
    post_id = post_outfit(page, gradient_png(tmp_path / "astrid.png", 200, 240), f"Velvet blazer {suffix}")
    page.open("/moments")
    page.visible("#create-moment summary").click()
    form = page.visible("#create-moment form")
    page.fill(form, name=f"Garden wedding {suffix}", placeName="Herastrau park", lat="44.4700", lng="26.0820")
    page.select(form, "visibility", "public")
    page.submit(form)
    moment_id = page.visible("#moment-page").get_attribute("data-moment-id")
    page.sign_out()

    # Bruno joins and connects with her from the people list.
    sign_up(page, bruno, bruno_email)
    page.open(f"/moments/{moment_id}")
    page.click_and_wait(page.visible("#join-button"))
    row = member_row(page, astrid)
    page.click_and_wait(row.find_element(By.CSS_SELECTOR, "[data-action='connect']"))
    assert "Connected." in page.flash()
    row = member_row(page, astrid)
    assert "Connected" in row.find_element(By.CSS_SELECTOR, ".chip").text
    assert not row.find_elements(By.CSS_SELECTOR, "[data-action='connect']")

    # Her outfit post stays closed to him.
    page.open(f"/posts/{post_id}")
    assert "404" in page.visible("main#main").text
    assert f"Velvet blazer {suffix}" not in browser.page_source
    page.sign_out()

    # Astrid may invite him now, and sees him among the people she met.
    sign_in(page, astrid, astrid_email)
    page.open(f"/moments/{moment_id}")
    page.visible("#invite-sheet summary").click()
    sheet = page.visible("#invite-sheet")
    assert bruno in sheet.text
    page.open("/friends")
    row = person_row(page.visible("#connection-list"), bruno)
    assert row.find_elements(By.CSS_SELECTOR, "[data-action='add-friend']")
    assert not browser.find_elements(By.CSS_SELECTOR, "#friend-list li[data-person]")
