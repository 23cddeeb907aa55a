"""The new-event form's file chooser in the page's language (issue 26): the browser's own file control says
"Choose File" / "No file chosen" in the browser's language, so on a Thai page the desk shows its own button
and the name of the file chosen; choosing a player list in headless Chromium names it on the page, and the
form creates the event from it."""
from __future__ import annotations

from gameclock.organiser.desk.app import create_app
from gameclock.organiser.store import Store

PASSWORD = "choose a file"
LIST = "id,name\n1,ก้อง\n2,ข้าว\n3,คิม\n4,งาม\n"


def test_a_player_list_chosen_is_named_on_a_thai_page_and_creates_the_event(browser, serve, tmp_path):
    from selenium.webdriver.common.by import By

    app = create_app(tmp_path / "pc.db")
    served = serve(app)
    browser.get(f"{served.url}/setup?lang=th")
    for name, value in (("name", "organiser"), ("password", PASSWORD), ("again", PASSWORD)):
        browser.driver.find_element(By.NAME, name).send_keys(value)
    browser.driver.find_element(By.NAME, "again").submit()
    browser.wait_for("location.pathname === '/login'")
    for name, value in (("name", "organiser"), ("password", PASSWORD)):
        field = browser.driver.find_element(By.NAME, name)
        field.clear()                      # the login offers the name this browser last logged in with
        field.send_keys(value)
    browser.driver.find_element(By.NAME, "password").submit()
    browser.wait_for("location.pathname.startsWith('/admin')")
    browser.get(f"{served.url}/admin/events/new?lang=th")
    assert browser.text("[data-testid=file-chosen]") == "ยังไม่ได้เลือกไฟล์"      # the page's own words, in Thai
    assert browser.text(".file-button") == "เลือกไฟล์"
    chosen = tmp_path / "รายชื่อ.csv"
    chosen.write_text(LIST, encoding="utf-8")
    browser.driver.find_element(By.NAME, "file").send_keys(str(chosen))      # as the browser's dialog would
    browser.wait_for("document.querySelector('[data-testid=file-chosen]').textContent === 'รายชื่อ.csv'")
    browser.driver.find_element(By.NAME, "name").send_keys("ไฟล์")
    browser.driver.find_element(By.NAME, "name").submit()
    browser.wait_for("document.querySelector('.notice-success') !== null")
    with Store(tmp_path / "pc.db") as store:
        assert [p["name"] for p in store.event_players("ไฟล์")] == ["ก้อง", "ข้าว", "คิม", "งาม"]
