"""settings.json (persist/settings.py): a damaged file never stops the clock, and a save is durable and
made off the loop thread when a writer is attached."""
from __future__ import annotations

import json

from gameclock.persist.settings import SettingsStore
from gameclock.persist.writer import Writer
from gameclock.ui.menu import Settings


def test_a_truncated_thai_name_not_utf8_gives_the_defaults(tmp_path, caplog):
    # a power cut in the middle of a multi-byte Thai letter: the file is not UTF-8 any more
    (tmp_path / "settings.json").write_bytes('{"players": {"left": "สมชาย"'.encode()[:-1])
    assert SettingsStore(tmp_path).load() == Settings()
    assert "not UTF-8" in caplog.text or "not JSON" in caplog.text


def test_json_nested_too_deep_gives_the_defaults(tmp_path, caplog):
    (tmp_path / "settings.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert SettingsStore(tmp_path).load() == Settings()
    assert "default settings" in caplog.text


def test_a_save_through_the_writer_thread_lands_whole(tmp_path):
    store = SettingsStore(tmp_path / "state")
    writer = Writer().start()
    try:
        store.attach(writer)
        s = Settings(round=7, table=12, players={"left": "สมชาย", "right": "Malee"})
        store.save(s)
        s.round = 8  # changed after the save: the saved snapshot keeps 7
        assert writer.flush(5)
    finally:
        writer.close()
    data = json.loads((tmp_path / "state" / "settings.json").read_text(encoding="utf-8"))
    assert data["round"] == 7 and data["players"] == {"left": "สมชาย", "right": "Malee"}
    assert SettingsStore(tmp_path / "state").load().round == 7
    assert not [p.name for p in (tmp_path / "state").iterdir() if p.name != "settings.json"]  # no temp left
