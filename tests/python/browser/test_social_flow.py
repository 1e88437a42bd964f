"""Friends, outfit of the day, reactions, comments and the inbox in a real browser.

Astrid and Bruno sign up. Bruno finds Astrid on /friends and asks to be her
friend; she accepts. Astrid posts today's outfit (a real PNG). Bruno has not
posted today, so the feed's gate hides her post and says one friend has posted;
once he posts his own, her post shows up: he reacts with a heart and comments.
Astrid's inbox lists both, unread on this first view.
One browser; the two people take turns (sign out, sign in).
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import struct
import uuid
import zlib
from pathlib import Path

from selenium.webdriver.common.by import By

from web_page import PASSWORD, Page


def gradient_png(path: Path, width: int, height: int) -> Path:
    """An RGB PNG whose red grows left to right and green top to bottom."""
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 140)) for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return path


def sign_up(page: Page, name: str, email: str) -> None:
    page.open("/signup")
    form = page.form("signup-form")
    page.fill(form, displayName=name, email=email, password=PASSWORD)
    page.submit(form)
    page.wait_for_path("/")
    assert name in page.visible("#greeting").text


def sign_in(page: Page, name: str, email: str) -> None:
    page.open("/signin")
    form = page.form("signin-form")
    page.fill(form, email=email, password=PASSWORD)
    page.submit(form)
    page.wait_for_path("/")
    assert name in page.visible("#greeting").text


def person_row(section, name: str):
    """The person row (li[data-person]) in `section` that shows `name`."""
    rows = [row for row in section.find_elements(By.CSS_SELECTOR, "li[data-person]") if name in row.text]
    assert len(rows) == 1, f"expected one row for {name!r} in #{section.get_attribute('id')}: {section.text!r}"
    return rows[0]


def post_outfit(page: Page, photo: Path, caption: str) -> str:
    """Posts today's outfit from /ootd; returns the new post's id (its card's data-post)."""
    page.click_and_wait(page.visible("#nav-ootd"))
    page.wait_for_path("/ootd")
    form = page.form("ootd-composer")
    form.find_element(By.ID, "ootd-photo").send_keys(str(photo.resolve()))
    form.find_element(By.ID, "ootd-caption").send_keys(caption)
    page.click_and_wait(form.find_element(By.ID, "ootd-submit"))
    page.wait_for_path("/ootd")
    assert "Posted." in page.flash()
    page.visible("#posted-today")
    assert not page.driver.find_elements(By.CSS_SELECTOR, "form#ootd-composer")
    cards = [card for card in page.driver.find_elements(By.CSS_SELECTOR, "#ootd-feed article.post-card") if caption in card.text]
    assert len(cards) == 1, f"expected the new post with {caption!r} in the feed"
    card = cards[0]
    assert card.is_displayed()
    assert caption == card.find_element(By.CSS_SELECTOR, ".post-caption").text.strip()
    return card.get_attribute("data-post")


def test_friends_post_react_comment_and_notify(browser, server, unique_email, viewport, tmp_path):
    page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:8]
    astrid, astrid_email = f"Astrid Q{suffix}", unique_email(f"astrid-{viewport}")
    bruno, bruno_email = f"Bruno Q{suffix}", unique_email(f"bruno-{viewport}")
    caption = f"Linen coat and loafers {suffix}"
    comment = f"Love the coat {suffix}!"

    # Both sign up.
    sign_up(page, astrid, astrid_email)
    page.sign_out()
    sign_up(page, bruno, bruno_email)

    # Bruno finds Astrid by name and asks to be her friend.
    page.click_and_wait(page.visible("#nav-friends"))
    page.wait_for_path("/friends")
    search = page.visible("form[role='search']")
    page.fill(search, q=astrid)
    page.submit(search)
    row = person_row(page.visible("#people-results"), astrid)
    page.click_and_wait(row.find_element(By.CSS_SELECTOR, "[data-action='add-friend']"))
    assert "Friend request sent." in page.flash()
    person_row(page.visible("#outgoing-requests"), astrid)
    page.sign_out()

    # Astrid accepts; Bruno is now among her friends.
    sign_in(page, astrid, astrid_email)
    page.click_and_wait(page.visible("#nav-friends"))
    page.wait_for_path("/friends")
    row = person_row(page.visible("#incoming-requests"), bruno)
    page.click_and_wait(row.find_element(By.CSS_SELECTOR, "[data-action='accept']"))
    page.wait_for_path("/friends")
    assert "You are friends now." in page.flash()
    row = person_row(page.visible("#friend-list"), bruno)
    assert "Friend" in row.find_element(By.CSS_SELECTOR, ".chip").text
    assert not browser.find_elements(By.CSS_SELECTOR, "#incoming-requests")

    # Astrid posts today's outfit; it heads her feed.
    post_id = post_outfit(page, gradient_png(tmp_path / "astrid.png", 200, 240), caption)
    assert post_id
    page.sign_out()

    # Bruno has not posted today: her post is held back and the gate says so.
    sign_in(page, bruno, bruno_email)
    page.click_and_wait(page.visible("#nav-ootd"))
    page.wait_for_path("/ootd")
    page.form("ootd-composer")
    gate = page.visible("#ootd-gate")
    assert "1 friend has posted today" in gate.text, gate.text
    feed = page.visible("#ootd-feed")
    assert not feed.find_elements(By.CSS_SELECTOR, f"article.post-card[data-post='{post_id}']")
    assert caption not in feed.text

    # Once he has posted, her post is in his feed.
    post_outfit(page, gradient_png(tmp_path / "bruno.png", 240, 200), f"Bruno's stripes {suffix}")
    assert not browser.find_elements(By.CSS_SELECTOR, "#ootd-gate")
    card = page.visible(f"#ootd-feed article.post-card[data-post='{post_id}']")
    assert astrid in card.text and caption in card.text
    link = card.find_element(By.CSS_SELECTOR, ".post-stats a[href^='/posts/']")
    page.click_and_wait(link)
    page.wait_for_path(f"/posts/{post_id}")
    assert caption in page.visible("#post-page article.post-card").text

    # A heart: pressed, counted once.
    heart = page.visible("button[data-reaction='heart']")
    assert heart.get_attribute("aria-pressed") == "false"
    page.click_and_wait(heart)
    page.wait_for_path(f"/posts/{post_id}")
    heart = page.visible("button[data-reaction='heart']")
    assert heart.get_attribute("aria-pressed") == "true"
    assert heart.find_element(By.CSS_SELECTOR, ".reaction-count").text.strip() == "1"

    # A comment, listed under the post.
    form = page.form("comment-form")
    form.find_element(By.ID, "comment-body").send_keys(comment)
    page.click_and_wait(form.find_element(By.ID, "comment-submit"))
    page.wait_for_path(f"/posts/{post_id}")
    comments = page.visible("#comment-list")
    entry = comments.find_element(By.CSS_SELECTOR, "li.comment")
    assert bruno in entry.text
    assert entry.find_element(By.CSS_SELECTOR, ".comment-body").text.strip() == comment
    page.sign_out()

    # Astrid's inbox: Bruno's reaction and comment, new on this first view.
    sign_in(page, astrid, astrid_email)
    page.click_and_wait(page.visible("#nav-notifications"))
    page.wait_for_path("/notifications")
    entries = page.visible("#notification-list").find_elements(By.CSS_SELECTOR, "li.notification")
    texts = [entry.text for entry in entries]
    reacted = [entry for entry in entries if bruno in entry.text and "reacted" in entry.text]
    commented = [entry for entry in entries if bruno in entry.text and "commented" in entry.text and comment in entry.text]
    assert len(reacted) == 1, texts
    assert len(commented) == 1, texts
    for entry in reacted + commented:
        assert "unread" in entry.get_attribute("class").split(), entry.text
        assert entry.find_element(By.CSS_SELECTOR, "a").get_attribute("href").startswith(server.url(f"/posts/{post_id}"))

    # Seen once, they are read.
    browser.refresh()
    page.visible("#notification-list")
    assert not browser.find_elements(By.CSS_SELECTOR, "#notification-list li.unread")
