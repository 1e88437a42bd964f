"""A profile picture in a real browser.

Astrid and Bruno become friends through /friends. Astrid opens Settings → Profile
picture, chooses a photo, moves the crop square with the keyboard and saves it.
She sees it on her settings and her profile, signs out and back in with her
username, and comments on Bruno's outfit: the comment carries her picture.
Bruno sees her picture on his friends list and under his post.
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_social_flow import gradient_png, person_row, post_outfit, sign_in, sign_up
from web_page import PASSWORD, Page


def picture_loaded(page: Page, container) -> str:
    """The src of the loaded picture inside `container` (an .avatar), after it has decoded."""
    image = container.find_element(By.CSS_SELECTOR, "img")
    page.wait.until(lambda _d: page.driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
                    "the picture did not load")
    return image.get_attribute("currentSrc") or image.get_attribute("src")


def test_profile_picture_on_profile_friend_list_and_comment(browser, server, unique_email, viewport, tmp_path):
    page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:8]
    astrid, astrid_email = f"Astrid P{suffix}", unique_email(f"astrid-pic-{viewport}")
    bruno, bruno_email = f"Bruno P{suffix}", unique_email(f"bruno-pic-{viewport}")

    # They become friends.
    sign_up(page, astrid, astrid_email)
    page.sign_out()
    sign_up(page, bruno, bruno_email)
    page.open("/friends")
    search = page.visible("form[role='search']")
    page.fill(search, q=astrid)
    page.submit(search)
    page.click_and_wait(person_row(page.visible("#people-results"), astrid).find_element(By.CSS_SELECTOR, "[data-action='add-friend']"))
    post_id = post_outfit(page, gradient_png(tmp_path / "bruno.png", 240, 200), f"Bruno's stripes {suffix}")
    page.sign_out()
    sign_in(page, astrid, astrid_email)
    page.open("/friends")
    page.click_and_wait(person_row(page.visible("#incoming-requests"), bruno).find_element(By.CSS_SELECTOR, "[data-action='accept']"))
    assert "You are friends now." in page.flash()

    # Settings → Profile picture: choose a photo, move the square, save.
    page.open("/settings")
    username = page.field_value("#username")
    page.click_and_wait(page.visible("#picture-link"))
    page.wait_for_path("/settings/picture")
    assert page.visible("#current-avatar").get_attribute("data-has-picture") == "no"
    form = page.form("picture-upload")
    form.find_element(By.ID, "picture-file").send_keys(str(gradient_png(tmp_path / "astrid.png", 300, 200).resolve()))
    box = page.visible("#picture-crop .crop-box")
    page.wait.until(lambda _d: form.find_element(By.CSS_SELECTOR, "input[name='crops[]']").get_property("value"),
                    "the square crop was not set")
    # The largest square in the middle of a 300 × 200 photo, then one step to the left.
    assert form.find_element(By.CSS_SELECTOR, "input[name='crops[]']").get_property("value") == "50,0,200,200"
    box.send_keys(Keys.ARROW_LEFT)
    crop = form.find_element(By.CSS_SELECTOR, "input[name='crops[]']").get_property("value")
    assert crop == "40,0,200,200", crop
    page.click_and_wait(form.find_element(By.ID, "picture-upload-submit"))
    page.wait_for_path("/settings/picture")
    assert "Your new picture is on your profile." in page.flash()
    current = page.visible("#current-avatar")
    assert current.get_attribute("data-has-picture") == "yes"
    src = picture_loaded(page, current)
    assert "/media/public/" in src
    media_folder = src.split("/media/public/")[1].rsplit("/", 1)[0]
    history = page.visible("#picture-history").find_elements(By.CSS_SELECTOR, "li[data-picture]")
    assert len(history) == 1

    # Her profile shows it.
    page.click_and_wait(page.visible("#own-profile-link"))
    assert media_folder in picture_loaded(page, page.visible("#profile-avatar"))
    page.sign_out()

    # She signs in with her username and comments on Bruno's outfit.
    page.open("/signin")
    signin = page.form("signin-form")
    page.fill(signin, email=username, password=PASSWORD)
    page.submit(signin)
    page.wait_for_path("/")
    assert astrid in page.visible("#greeting").text
    page.open(f"/posts/{post_id}")
    form = page.form("comment-form")
    form.find_element(By.ID, "comment-body").send_keys(f"Lovely {suffix}")
    page.click_and_wait(form.find_element(By.ID, "comment-submit"))
    entry = page.visible("#comment-list li.comment")
    assert astrid in entry.text
    assert media_folder in picture_loaded(page, entry.find_element(By.CSS_SELECTOR, ".avatar"))
    page.sign_out()

    # Bruno sees her picture on his friends list and on her profile.
    sign_in(page, bruno, bruno_email)
    page.open("/friends")
    row = person_row(page.visible("#friend-list"), astrid)
    assert media_folder in picture_loaded(page, row.find_element(By.CSS_SELECTOR, ".avatar"))
    page.click_and_wait(row.find_element(By.CSS_SELECTOR, "a.person"))
    assert media_folder in picture_loaded(page, page.visible("#profile-avatar"))
