"""A real browser on the demo site: Debian's chromium, headless, driven by Selenium through
Debian's chromedriver (nothing downloaded). It opens a video's page, posts a comment through the
form (the CSRF token and cookie as a browser carries them), follows the redirect, and sees the
comment, its markup shown as text, not run. The screenshot of that page is kept in
``test-artifacts/`` (or ``$LAYERBENCH_ARTIFACTS``)."""

from pathlib import Path

import pytest

from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.datalayer.open_repository import prepare
from tests.app_server import serve
from tests.conftest import artifacts

pytestmark = pytest.mark.services

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

REPOSITORY = Path(__file__).resolve().parent.parent.parent.parent
WAIT_S = 20
# Text that would run as a script if the page did not escape it.
HOSTILE = "<script>document.title='pwned'</script><b>not bold</b>"


def test_a_comment_posted_through_the_form_shows_on_the_next_page(
    browser: WebDriver, tmp_path: Path
) -> None:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    settings = AppConfig(db_path=create_seeded_database(tmp_path), database_url=url)
    with serve(settings) as site:
        created = site.request(
            "POST", "/videos", {"title": "Toxic", "url": "https://example.org/toxic"}
        )
        assert created.status == 201, created.body
        video = created.json()["id"]
        page = f"http://127.0.0.1:{site.port}/v/{video}"
        browser.get(page)
        assert browser.find_element(By.ID, "title").text == "Toxic"
        # The Content-Security-Policy lets the page's own style sheet apply (46rem wide).
        assert browser.execute_script("return getComputedStyle(document.body).maxWidth") == (
            "736px"
        )
        form = browser.find_element(By.ID, "comment-form")
        form.find_element(By.NAME, "name").send_keys("Britney")
        form.find_element(By.NAME, "email").send_keys("britney@example.org")
        form.find_element(By.NAME, "body").send_keys("Still catchy. " + HOSTILE)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(browser, WAIT_S).until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "#comments .body"))
        )
        comments = browser.find_elements(By.CSS_SELECTOR, "#comments .comment")
        assert len(comments) == 1
        # The 303 led back to the video's page, at the new comment.
        assert browser.current_url == f"{page}#{comments[0].get_attribute('id')}"
        assert comments[0].find_element(By.CSS_SELECTOR, ".meta").text == "Britney"
        assert comments[0].find_element(By.CSS_SELECTOR, ".body").text == (
            "Still catchy. " + HOSTILE
        )
        assert browser.find_elements(By.CSS_SELECTOR, "#comments b") == []
        assert browser.title != "pwned"
        screenshot = artifacts() / "video-page-after-comment.png"
        assert browser.save_screenshot(str(screenshot))
        assert screenshot.stat().st_size > 1000
        # The comment reached the store, not only the page.
        listed = site.request("GET", f"/videos/{video}/comments").json()
        assert [comment["name"] for comment in listed["items"]] == ["Britney"]
