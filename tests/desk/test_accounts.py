"""Named accounts (issue 26): the organiser's account made at the first start (a name and a
password), arbiter accounts the organiser makes, each with its own password (scrypt), disabled and
enabled, its password reset; what an arbiter may and may not do; each account's sessions ended by
its own logout, by disabling it and by a new password; the audit trail names the person.

Found by an organiser's day at the desk: one password for everybody, every amendment recorded as
"organiser" whoever made it, and no way to let an arbiter enter results without letting them
publish rounds and export."""
from __future__ import annotations

import pytest
from deskhelp import LOCAL, LOCAL_URL, ORGANISER, PASSWORD, csrf_of, log_in, set_password
from starlette.testclient import TestClient

ARBITER = "สมศรี ใจดี"          # a Thai name: the audit trail shows it as typed
ARBITER_PASSWORD = "arbiter's own password"
RID = "clock1-000001"            # event t, round 1, table 1: Anan 420 v Boon 380 (conftest)


def browser(app) -> TestClient:
    return TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)


def post(client: TestClient, path: str, page: str = "/admin", **data: str):
    return client.post(path, data={"csrf": csrf_of(client.get(page).text), **data})


def make_arbiter(organiser: TestClient, name: str = ARBITER, password: str = ARBITER_PASSWORD,
                 role: str = "arbiter"):
    r = post(organiser, "/admin/accounts/new", "/admin/accounts", name=name, role=role, password=password,
             again=password)
    assert r.status_code == 303 and r.headers["location"] == "/admin/accounts", r.text
    return r


@pytest.fixture
def arbiter(organiser) -> TestClient:
    """The arbiter's own browser, logged in with the arbiter's account the organiser made."""
    make_arbiter(organiser)
    client = browser(organiser.app)
    r = log_in(client, ARBITER_PASSWORD, ARBITER)
    assert r.status_code == 303 and r.headers["location"] == "/admin"
    return client


def paired_event(store) -> None:
    """Event r, paired by this PC (xw10): four players, round 1 published."""
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing.model import Player

    events.create_event(store, "r", "xw10", events.PlayerList([Player(id=str(i), name=n) for i, n in
                                                               enumerate(("ก", "ข", "ค", "ง"), start=1)]), rounds=3)
    events.draw(store, "r")
    events.publish(store, "r")


def rows(client: TestClient) -> dict[str, tuple[str, str]]:
    """The accounts page's rows: {name: (role, state)}."""
    import re

    page = client.get("/admin/accounts").text
    return {m[0]: (m[1], m[2]) for m in re.findall(
        r'data-testid="account-row" data-name="([^"]+)" data-role="(\w+)" data-state="(\w+)"', page)}


def test_the_first_start_asks_the_organisers_name_and_the_login_asks_it_too(client):
    page = client.get("/setup")
    assert 'name="name"' in page.text
    r = client.post("/setup", data={"csrf": csrf_of(page.text), "name": "", "password": PASSWORD, "again": PASSWORD})
    assert r.status_code == 400 and client.app.state.desk.store.accounts() == []
    set_password(client, name="สมชาย")
    assert [(a["name"], a["role"]) for a in client.app.state.desk.store.accounts()] == [("สมชาย", "organiser")]
    assert log_in(client, name="somebody else").status_code == 401
    assert log_in(client, name="สมชาย").status_code == 303
    assert "สมชาย" in client.get("/admin").text        # the page says who is logged in


def test_the_organiser_makes_an_arbiter_who_logs_in_with_their_own_password(organiser, arbiter):
    assert rows(organiser) == {ORGANISER: ("organiser", "enabled"), ARBITER: ("arbiter", "enabled")}
    assert arbiter.get("/admin").status_code == 200
    stored = {a["name"]: a for a in organiser.app.state.desk.store.accounts()}
    assert stored[ARBITER]["password"].startswith("scrypt$") and ARBITER_PASSWORD not in str(stored)
    # the organiser's password does not open the arbiter's account, nor the arbiter's the organiser's
    other = browser(organiser.app)
    assert log_in(other, PASSWORD, ARBITER).status_code == 401
    assert log_in(other, ARBITER_PASSWORD, ORGANISER).status_code == 401
    # a name taken (letter case aside) is refused, and so is a password too short or typed twice differently
    for name, pw, again in ((ARBITER, "long enough pw", "long enough pw"), ("ORGANISER", "long enough pw",
                            "long enough pw"), ("ใหม่", "short", "short"), ("ใหม่", "long enough pw", "other pw..")):
        r = post(organiser, "/admin/accounts/new", "/admin/accounts", name=name, role="arbiter", password=pw,
                 again=again)
        assert r.status_code == 400 and 'data-testid="error"' in r.text, name
    assert len(organiser.app.state.desk.store.accounts()) == 2


def test_an_arbiter_enters_and_amends_results_but_does_not_run_the_event(organiser, arbiter):
    """docs/desk.md's table: an arbiter sees every organiser's page of the event, its round progress and
    results, and amends a result; creating events, options, pairing, fixing and publishing a draft,
    exports, the clocks' enrollment and the accounts are the organiser's."""
    store = organiser.app.state.desk.store
    paired_event(store)
    for path in ("/admin", "/admin/e/t", "/admin/e/r", "/admin/e/r/round/1", "/admin/e/r/part/progress/1",
                 f"/admin/results/{RID}", "/admin/e/r/prizes"):
        assert arbiter.get(path).status_code == 200, path
    r = post(arbiter, f"/admin/results/{RID}/amend", f"/admin/results/{RID}", outcome="right",
             score_left="370", score_right="390", reason="scoresheet recount")
    assert r.status_code == 303 and len(store.amendments()) == 1
    refused_gets = ("/admin/events/new", "/admin/e/r/options", "/admin/e/t/export/csv", "/admin/accounts",
                    "/admin/clocks")
    for path in refused_gets:
        r = arbiter.get(path)
        assert r.status_code == 403 and 'data-testid="error"' in r.text, path
    token = csrf_of(arbiter.get("/admin").text)
    drafts = store.event_rounds("r")
    for path in ("/admin/events/new", "/admin/e/r/options", "/admin/e/r/pair", "/admin/e/r/redraw",
                 "/admin/e/r/publish", "/admin/e/r/fix", "/admin/accounts/new", "/admin/accounts/disable",
                 "/admin/accounts/enable", "/admin/accounts/password", "/admin/clocks/enroll", "/admin/clocks/code"):
        r = arbiter.post(path, data={"csrf": token, "name": "x", "account": ORGANISER, "role": "organiser",
                                     "password": "taken over!", "again": "taken over!", "action": "swap",
                                     "a": "1", "b": "2"})
        assert r.status_code == 403, path
    assert store.event_rounds("r") == drafts                         # no round paired, fixed or published
    assert [(a["name"], a["role"], a["disabled"]) for a in store.accounts()] == [
        (ORGANISER, "organiser", False), (ARBITER, "arbiter", False)]
    assert log_in(browser(organiser.app)).status_code == 303       # the organiser's password unchanged
    # the organiser's controls are not offered to the arbiter
    page = arbiter.get("/admin/e/r").text
    assert 'data-testid="exports"' not in page and 'data-testid="pair"' not in page and "/admin/accounts" not in arbiter.get("/admin").text


def test_a_copied_cookie_of_a_disabled_account_is_refused(organiser, arbiter):
    copy = TestClient(organiser.app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False,
                      cookies=dict(arbiter.cookies))
    token = csrf_of(copy.get(f"/admin/results/{RID}").text)        # the copy works while the account does
    r = post(organiser, "/admin/accounts/disable", "/admin/accounts", account=ARBITER)
    assert r.status_code == 303 and rows(organiser)[ARBITER] == ("arbiter", "disabled")
    for client in (arbiter, copy):
        assert client.get("/admin").status_code == 303
        r = client.post(f"/admin/results/{RID}/amend", data={"csrf": token, "outcome": "right", "reason": "x"})
        assert r.status_code == 403
    assert organiser.app.state.desk.store.amendments() == []
    # a disabled account does not log in, even with its password (told so only once the password is right)
    r = log_in(browser(organiser.app), ARBITER_PASSWORD, ARBITER)
    assert r.status_code == 403 and 'data-testid="error"' in r.text
    # enabled again: a new login works; the copies made before stay ended
    assert post(organiser, "/admin/accounts/enable", "/admin/accounts", account=ARBITER).status_code == 303
    assert copy.get("/admin").status_code == 303
    assert log_in(arbiter, ARBITER_PASSWORD, ARBITER).status_code == 303 and arbiter.get("/admin").status_code == 200
    assert organiser.get("/admin").status_code == 200            # the organiser's session went on throughout


def test_each_account_logs_out_its_own_sessions_only(organiser, arbiter):
    arbiters_laptop = browser(organiser.app)
    assert log_in(arbiters_laptop, ARBITER_PASSWORD, ARBITER).status_code == 303
    assert post(arbiter, "/logout").status_code == 303
    assert arbiter.get("/admin").status_code == 303 and arbiters_laptop.get("/admin").status_code == 303
    assert organiser.get("/admin").status_code == 200
    assert log_in(arbiter, ARBITER_PASSWORD, ARBITER).status_code == 303
    assert post(organiser, "/logout").status_code == 303
    assert organiser.get("/admin").status_code == 303 and arbiter.get("/admin").status_code == 200


def test_a_reset_password_ends_that_accounts_sessions_and_the_old_password(organiser, arbiter):
    new = "a new password for her"
    r = post(organiser, "/admin/accounts/password", "/admin/accounts", account=ARBITER, password=new, again=new)
    assert r.status_code == 303
    assert arbiter.get("/admin").status_code == 303
    assert log_in(browser(organiser.app), ARBITER_PASSWORD, ARBITER).status_code == 401
    assert log_in(arbiter, new, ARBITER).status_code == 303
    assert organiser.get("/admin").status_code == 200


def test_the_last_organiser_cannot_be_disabled(organiser):
    r = post(organiser, "/admin/accounts/disable", "/admin/accounts", account=ORGANISER)
    assert r.status_code == 400 and 'data-testid="error"' in r.text
    assert organiser.get("/admin").status_code == 200
    # with a second organiser, the first may be disabled (by the second: nobody is locked out)
    make_arbiter(organiser, "ผู้จัด 2", "second organiser pw", role="organiser")
    second = browser(organiser.app)
    assert log_in(second, "second organiser pw", "ผู้จัด 2").status_code == 303
    assert post(second, "/admin/accounts/disable", "/admin/accounts", account=ORGANISER).status_code == 303
    assert organiser.get("/admin").status_code == 303
    r = post(second, "/admin/accounts/disable", "/admin/accounts", account="ผู้จัด 2")
    assert r.status_code == 400


def test_the_audit_trail_names_the_person(organiser, arbiter):
    store = organiser.app.state.desk.store
    post(arbiter, f"/admin/results/{RID}/amend", f"/admin/results/{RID}", outcome="right", score_left="370",
         score_right="390", reason="recount")
    n = store.amendments()[-1]["n"]
    post(organiser, f"/admin/results/{RID}/withdraw", f"/admin/results/{RID}", n=str(n), reason="the recount was wrong")
    assert [(a["by"], a["reason"]) for a in store.amendments()] == [(ARBITER, "recount"),
                                                                    (ORGANISER, "the recount was wrong")]
    page = organiser.get(f"/admin/results/{RID}").text
    assert ARBITER in page
    post(organiser, "/admin/accounts/disable", "/admin/accounts", account=ARBITER)
    trail = [(c["account"], c["action"], c["by"]) for c in store.account_changes()]
    assert trail == [(ORGANISER, "create", ORGANISER), (ARBITER, "create", ORGANISER), (ARBITER, "disable", ORGANISER)]
    page = organiser.get("/admin/accounts").text
    assert page.count('data-testid="account-change"') == 3


def test_an_attackers_guesses_at_one_account_do_not_keep_another_out(organiser):
    """The login throttle counts per account (and per known browser of it): five wrong passwords a
    minute for each account from browsers the desk does not know; a name that is no account's shares
    one count, so made-up names neither add guesses nor push a real account's count out."""
    make_arbiter(organiser)
    attacker = browser(organiser.app)
    assert [log_in(attacker, f"guess {i}", ORGANISER).status_code for i in range(6)] == [401] * 5 + [429]
    assert [log_in(attacker, f"guess {i}", f"nobody {i}").status_code for i in range(6)] == [401] * 5 + [429]
    # the arbiter, from a browser the desk does not know, is not kept out by either
    assert log_in(browser(organiser.app), ARBITER_PASSWORD, ARBITER).status_code == 303
    # the organiser's own browser (it set the password) is not either
    assert log_in(organiser).status_code == 303


def test_who_is_the_accounts_name():
    from starlette.requests import Request

    from gameclock.organiser.desk import web

    req = Request({"type": "http", "session": {"user": ARBITER}, "headers": [], "method": "GET", "path": "/"})
    assert web.who(req) == ARBITER
