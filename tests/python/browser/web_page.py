"""Page helpers shared by the browser tests: explicit waits only."""

from __future__ import annotations

import re
from typing import Callable

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
        self.wait_for_new_page(element.click)

    def wait_for_new_page(self, action: Callable[[], object]) -> None:
        """Runs `action` (a click, a key press) and waits for the next page to replace this one."""
        html = self.driver.find_element(By.TAG_NAME, "html")
        action()

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

    def sign_in(self, email: str, password: str = PASSWORD) -> None:
        """Through the sign-in form; returns once the signed-in header shows."""
        self.open("/signin")
        form = self.form("signin-form")
        self.fill(form, email=email, password=password)
        self.submit(form)
        self.visible("#signout-button")

    def sign_out(self) -> None:
        self.click_and_wait(self.visible("#signout-button"))
        self.wait_for_path("/")

    def field_value(self, css: str) -> str:
        return self.driver.find_element(By.CSS_SELECTOR, css).get_property("value")

    def selected(self, name: str) -> str:
        element = self.driver.find_element(By.CSS_SELECTOR, f"#profile-form select[name='{name}']")
        return Select(element).first_selected_option.get_attribute("value")
