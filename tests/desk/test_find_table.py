"""Find my table and the players page (issue 28): a search box on every public page of an event (a GET form,
no script needed) answering with the player's table this round, the opponent, the side (left starts:
RULES.md, "Sides") and the card; the players page a light alphabetical list (no QR codes drawn on it).

The demo event (desk/demo.py) is the input: its round 2, the latest, pairs table 1 บุญมี มีสุข (left) v
มาลี ศรีสุข, table 2 ฟ้าใส ใจงาม v สมชาย ใจดี, table 3 อนันต์ วงศ์ทอง v เอกชัย ทองดี, table 4 ชัยวัฒน์ ดีเลิศ v
ดวงใจ แก้วงาม; สมชาย (Somchai Jaidee, id 1) and มาลี (id 2) are of โรงเรียนสาธิต."""
from __future__ import annotations

import re


def shown(html: str) -> str:
    """A page's text as read: the tags out (a name's parts are spans: thaiwrap.name_html), the links kept."""
    from html import unescape

    return unescape(re.sub(r"<(?!/?a\b)[^>]+>", "", html))


def found_part(html: str) -> str:
    """What the page says from its first player found on, as read."""
    return shown(html[html.index('data-testid="found"'):])


def rows(html: str) -> list[str]:
    return re.findall(r'data-testid="found" data-player="([^"]*)"', html)


def test_every_public_page_of_the_event_has_the_search_box(desk):
    for path in ("/e/demo/standings", "/e/demo/pairings/2", "/e/demo/crosstable", "/e/demo/final",
                 "/e/demo/players", "/e/demo/players/1"):
        html = desk.get(path).text
        # a plain GET form: works without JavaScript
        assert re.search(r'<form[^>]*data-testid="find-form"[^>]*method="get"[^>]*action="/e/demo/find"', html), path
        assert 'name="q"' in html, path


def test_a_part_of_a_thai_name_finds_the_table_opponent_and_side(desk):
    r = desk.get("/e/demo/find", params={"q": "ใจดี", "lang": "en"})
    assert r.status_code == 200
    assert rows(r.text) == ["1"]                      # สมชาย ใจดี only (not ใจงาม)
    found = found_part(r.text)
    assert "Round 2" in found and "Table 2" in found
    assert "ฟ้าใส ใจงาม" in found                      # the opponent
    assert "right" in found and "moves second" in found   # left starts (RULES.md, Sides): สมชาย is right
    assert 'href="/e/demo/players/1"' in found       # the card


def test_a_latin_name_a_school_and_a_mixed_query(desk):
    assert rows(desk.get("/e/demo/find", params={"q": "somchai"}).text) == ["1"]
    assert rows(desk.get("/e/demo/find", params={"q": "JAIDEE"}).text) == ["1"]
    assert sorted(rows(desk.get("/e/demo/find", params={"q": "สาธิต"}).text)) == ["1", "2"]
    # every word must match somewhere: the school narrows a common part of a name
    assert rows(desk.get("/e/demo/find", params={"q": "ใจ สวนกุหลาบ"}).text) == ["8"]   # ฟ้าใส ใจงาม
    assert rows(desk.get("/e/demo/find", params={"q": "nobody-like-this"}).text) == []


def test_the_left_player_moves_first_in_thai(desk):
    r = desk.get("/e/demo/find", params={"q": "Fahsai", "lang": "th"})
    found = found_part(r.text)
    assert "โต๊ะ 2" in found and "สมชาย ใจดี" in found and "ซ้าย" in found and "เริ่มก่อน" in found


def test_a_hostile_query_is_escaped_and_bounded(desk):
    from gameclock.organiser.desk import find

    r = desk.get("/e/demo/find", params={"q": "<script>alert(1)</script>"})
    assert r.status_code == 200 and "<script>alert(1)" not in r.text
    long = desk.get("/e/demo/find", params={"q": "ก" * 5000})
    assert long.status_code == 200 and "ก" * (find.MAX_QUERY + 1) not in long.text
    assert desk.get("/e/no-such/find", params={"q": "x"}).status_code == 404


def test_the_players_page_is_a_light_alphabetical_list_with_the_table(desk):
    r = desk.get("/e/demo/players", params={"lang": "en"})
    assert r.status_code == 200
    assert "<svg" not in r.text                       # no QR code drawn per request (issue 28: 40 of them, 235 kB)
    names = re.findall(r'data-testid="player-row" data-player="([^"]*)"', r.text)
    # Thai dictionary order: by the first consonant, a preposed vowel after it (เอกชัย under อ):
    # ช ชัยวัฒน์, ด ดวงใจ, บ บุญมี, ฟ ฟ้าใส, ม มาลี, ส สมชาย, อ อนันต์ (อ-น), เอกชัย (อ-เ-ก): 5, 6, 4, 8, 2, 1, 3, 7
    assert names == ["5", "6", "4", "8", "2", "1", "3", "7"]
    row = r.text[r.text.index('data-player="1"'):]
    row = row[:row.index("</tr>")]
    assert "โรงเรียนสาธิต" in row and ">2<" in row and 'href="/e/demo/players/1"' in row   # school, table 2, card


def test_thai_sort_key_puts_a_preposed_vowel_after_its_consonant():
    from gameclock.organiser.desk import find

    # Thai dictionary order: by the consonant first, then the vowels in their order (ะ า ... เ แ โ ใ ไ):
    # กา < เก (both under ก, า before เ) < ขา
    assert sorted(["ขา", "เก", "กา"], key=find.sort_key) == ["กา", "เก", "ขา"]


def test_a_name_typed_without_its_space_and_a_player_renamed_after_the_round_was_published(desk):
    from gameclock.organiser import event as events

    assert rows(desk.get("/e/demo/find", params={"q": "สมชายใจดี"}).text) == ["1"]
    # ฟ้าใส ใจงาม (id 8, table 2 of round 2, left) renamed after round 2 was published: her table is still hers,
    # under her name now, and สมชาย's opponent is said by her name now
    events.edit_player(desk.app.state.desk.store, "demo", "8", {"name": "ฟ้าใส ใจงามยิ่ง"}, reason="สะกดผิด")
    r = desk.get("/e/demo/find", params={"q": "ใจงามยิ่ง", "lang": "en"})
    assert rows(r.text) == ["8"]
    found = found_part(r.text)
    assert "Table 2" in found and "moves first" in found and "สมชาย ใจดี" in found
    r = desk.get("/e/demo/find", params={"q": "somchai", "lang": "en"})
    assert "against ฟ้าใส ใจงามยิ่ง" in shown(r.text)
