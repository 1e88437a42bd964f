"""Accounts pages in a real browser (page contract: docs/web-contract.md).

Sign up -> greeted on / -> sign out -> sign in -> change settings (kept after a
reload) -> an over-long "about" is refused next to the field -> sign out.
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from web_page import PASSWORD, Page


def test_signup_signin_settings_signout(browser, server, unique_email, viewport):
    page = Page(browser, server.base_url)
    name = f"Ada {viewport.title()}"
    address = unique_email(f"web-{viewport}")

    # Sign up: lands on / with a welcome flash and the greeting.
    page.open("/signup")
    form = page.form("signup-form")
    page.fill(form, displayName=name, email=address, password=PASSWORD)
    page.submit(form)
    page.wait_for_path("/")
    assert "Welcome" in page.flash()
    assert name in page.visible("#greeting").text

    # Sign out.
    page.sign_out()
    assert "You are signed out." in page.flash()
    page.visible("a[href='/signin']")

    # Sign in again.
    page.open("/signin")
    form = page.form("signin-form")
    page.fill(form, email=address, password=PASSWORD)
    page.submit(form)
    page.wait_for_path("/")
    assert name in page.visible("#greeting").text

    # Change settings; they are kept after a reload.
    about = f"Linen and loafers, {viewport} edition."
    page.open("/settings")
    form = page.form("profile-form")
    page.fill(form, about=about)
    page.select(form, "timeZone", "Europe/Stockholm")
    page.select(form, "genderPreference", "women")
    page.select(form, "radiusKm", "10")
    page.submit(form)
    page.wait_for_path("/settings")
    assert "Settings saved." in page.flash()

    browser.refresh()
    page.form("profile-form")
    assert page.field_value("#profile-form [name='about']") == about
    assert page.selected("timeZone") == "Europe/Stockholm"
    assert page.selected("genderPreference") == "women"
    assert page.selected("radiusKm") == "10"

    # 141 characters is one too many: the error is shown next to the field and
    # nothing is saved. maxlength stops typing, so set the value directly.
    form = page.form("profile-form")
    about_field = form.find_element(By.CSS_SELECTOR, "[name='about']")
    browser.execute_script("arguments[0].value = arguments[1];", about_field, "x" * 141)
    page.submit(form)
    error = page.visible("#about-error")
    assert error.text.strip(), "the about error has no message"
    about_field = browser.find_element(By.CSS_SELECTOR, "#profile-form [name='about']")
    assert about_field.get_attribute("aria-invalid") == "true"
    assert "about-error" in (about_field.get_attribute("aria-describedby") or "")

    page.open("/settings")
    page.form("profile-form")
    assert page.field_value("#profile-form [name='about']") == about

    # Sign out: the header offers "Sign in" again.
    page.sign_out()
    assert "You are signed out." in page.flash()
    sign_in = page.visible("nav a[href='/signin']")
    assert sign_in.text.strip() == "Sign in"
