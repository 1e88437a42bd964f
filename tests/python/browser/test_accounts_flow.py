"""Accounts pages in a real browser (page contract: docs/web-contract.md).

Sign up -> greeted on / -> sign out -> sign in -> change settings (kept after a
reload) -> an over-long "about" is refused next to the field -> sign out.
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import re

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT_SECONDS = 20
PASSWORD = "correct horse battery staple"


class Page:
    """Small helpers over the WebDriver with explicit waits only."""

    def __init__(self, driver: WebDriver, base_url: str) -> None:
        self.driver = driver
        self.base_url = base_url
        self.wait = WebDriverWait(driver, WAIT_SECONDS)

    def open(self, path: str) -> None:
        self.driver.get(self.base_url + path)

    def visible(self, css: str) -> WebElement:
        return self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), f"no visible {css}")

    def form(self, form_id: str) -> WebElement:
        return self.visible(f"form#{form_id}")

    def fill(self, form: WebElement, **fields: str) -> None:
        for name, value in fields.items():
            field = form.find_element(By.CSS_SELECTOR, f"[name='{name}']")
            field.clear()
            field.send_keys(value)

    def select(self, form: WebElement, name: str, value: str) -> None:
        Select(form.find_element(By.CSS_SELECTOR, f"select[name='{name}']")).select_by_value(value)

    def submit(self, form: WebElement) -> None:
        """Click the form's submit button and wait for the next page to replace this one."""
        button = form.find_element(By.CSS_SELECTOR, "button[type='submit']")
        self.click_and_wait(button)

    def click_and_wait(self, element: WebElement) -> None:
        html = self.driver.find_element(By.TAG_NAME, "html")
        element.click()

        def replaced(_driver) -> bool:
            # During navigation chromedriver reports the old node either as stale or, sometimes,
            # as "does not belong to the document"; both mean the page was replaced.
            try:
                html.is_enabled()
                return False
            except WebDriverException:
                return True

        self.wait.until(replaced, "the page did not change")
        self.visible("main#main")

    def wait_for_path(self, path: str) -> None:
        pattern = "^" + re.escape(self.base_url + path) + r"(\?.*)?(#.*)?$"
        self.wait.until(EC.url_matches(pattern), f"expected to be on {path}")

    def flash(self) -> str:
        return self.visible(".flash").text

    def sign_out(self) -> None:
        self.click_and_wait(self.visible("#signout-button"))
        self.wait_for_path("/")

    def field_value(self, css: str) -> str:
        return self.driver.find_element(By.CSS_SELECTOR, css).get_property("value")

    def selected(self, name: str) -> str:
        element = self.driver.find_element(By.CSS_SELECTOR, f"#profile-form select[name='{name}']")
        return Select(element).first_selected_option.get_attribute("value")


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
