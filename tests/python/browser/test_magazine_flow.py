"""The magazine editor portal and the web reader in a real browser.

An admin (create-admin CLI) makes Elena an editor through the admin API. On
/portal/magazine she creates an issue with an English and a Romanian label,
adds an article, and writes it side by side in English and Romanian; the live
preview shows her Markdown rendered (bold) while she types. She uploads a lead
image (a generated PNG), saves, publishes the article and then the issue.
Signed out, a reader opens /magazine, the issue, the article in English, and
switches to Romanian with the language link (a[data-lang="ro"]).
Runs at the phone and the desk viewport (browser/conftest.py).
"""

from __future__ import annotations

import random
import subprocess
import uuid

import requests
from selenium.webdriver.common.by import By

from atelier_testing import REPO_ROOT, atelier_bin
from test_social_flow import gradient_png, sign_in
from web_page import PASSWORD, Page


def api(server, method: str, path: str, token: str | None = None, **kwargs):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, server.api(path), headers=headers, timeout=30, **kwargs)


def make_editor(server, name: str, email: str) -> None:
    """Elena signs up; an admin made with the CLI gives her the editor role."""
    signup = api(server, "POST", "/auth/signup", json={"email": email, "password": PASSWORD, "displayName": name})
    assert signup.status_code == 201, signup.text
    user_id = signup.json()["user"]["id"]
    admin_email = email.replace("@", "-admin@")
    subprocess.run(
        [str(atelier_bin()), "create-admin", "--email", admin_email, "--password", PASSWORD],
        cwd=REPO_ROOT, env=server.env, check=True, capture_output=True, timeout=120,
    )
    login = api(server, "POST", "/auth/login", json={"email": admin_email, "password": PASSWORD})
    assert login.status_code == 200, login.text
    roles = api(server, "PATCH", f"/admin/users/{user_id}", login.json()["accessToken"], json={"isEditor": True})
    assert roles.status_code == 200, roles.text


def test_editor_writes_and_publishes_reader_switches_language(browser, server, unique_email, viewport, tmp_path):
    page = Page(browser, server.base_url)
    suffix = uuid.uuid4().hex[:6]
    number = random.randint(100_000, 9_999_999)
    name, email = f"Elena E{suffix}", unique_email(f"editor-{viewport}")
    title_en, title_ro = f"Wool in winter {suffix}", f"Lâna iarna {suffix}"
    make_editor(server, name, email)
    sign_in(page, name, email)

    # A new issue with a label per language.
    page.open("/portal/magazine")
    form = page.form("new-issue-form")
    page.fill(form, number=str(number), label_en=f"Issue {number}", label_ro=f"Numărul {number}")
    page.submit(form)
    assert "created" in page.flash()
    heading = page.visible("#issue-heading").text
    assert str(number) in heading and f"Issue {number}" in heading
    issue_id = page.visible("#magazine-portal-issue").get_attribute("data-issue")
    assert "draft" in page.visible("#issue-status").text.lower()

    # A new article, written side by side; the preview follows the typing.
    page.click_and_wait(page.visible("#new-article"))
    article_id = page.visible("#magazine-portal-article").get_attribute("data-article")
    form = page.form("article-form")
    page.fill(form, title_en=title_en, summary_en="Why wool keeps you warm.")
    markdown_en = form.find_element(By.ID, "markdown_en")
    markdown_en.send_keys("Wool is **warm** and <script>alert(1)</script> stays text.")
    page.wait.until(
        lambda _d: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#preview_en strong")] == ["warm"],
        "the English preview did not render the bold word",
    )
    preview = page.visible("#preview_en")
    assert "<script>alert(1)</script>" in preview.text, "raw HTML is shown as text"
    assert not browser.find_elements(By.CSS_SELECTOR, "#preview_en script")
    page.fill(form, title_ro=title_ro, summary_ro="De ce lâna ține de cald.")
    form.find_element(By.ID, "markdown_ro").send_keys("Lâna este *caldă*.")
    page.wait.until(
        lambda _d: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#preview_ro em")] == ["caldă"],
        "the Romanian preview did not render",
    )
    form.find_element(By.ID, "lead").send_keys(str(gradient_png(tmp_path / "lead.png", 640, 400).resolve()))
    page.click_and_wait(form.find_element(By.ID, "save-article"))
    assert "Article saved." in page.flash()
    assert page.visible("#article-heading").text == title_en
    page.visible("#article-lead img")
    assert page.field_value("#title_ro") == title_ro
    page.visible("#preview_ro em")  # the stored HTML is shown on load

    # Publish the article, then the issue.
    page.click_and_wait(page.visible("#publish-article"))
    assert "Article published" in page.flash()
    page.click_and_wait(page.visible("#back-to-issue"))
    row = page.visible(f"#article-list li[data-article='{article_id}']")
    assert title_en in row.text and "published" in row.text.lower()
    page.click_and_wait(page.visible("#publish-issue"))
    assert "published" in page.flash()
    assert "published" in page.visible("#issue-status").text.lower()
    page.sign_out()

    # A reader: the magazine, the issue, the article in English, then in Romanian.
    page.open("/magazine")
    page.click_and_wait(page.visible(f"#issues li[data-issue='{issue_id}'] a"))
    page.wait_for_path(f"/magazine/issues/{issue_id}")
    page.click_and_wait(page.visible(f"#articles li[data-article='{article_id}'] a"))
    page.wait_for_path(f"/magazine/articles/{article_id}")
    assert page.visible("#article-title").text == title_en
    assert page.visible("#article-body strong").text == "warm"
    assert page.visible("#article-page").get_attribute("lang") == "en"
    page.visible("#article-page img")
    page.click_and_wait(page.visible("a[data-lang='ro']"))
    assert page.visible("#article-title").text == title_ro
    assert page.visible("#article-page").get_attribute("lang") == "ro"
    assert page.visible("#article-body em").text == "caldă"
