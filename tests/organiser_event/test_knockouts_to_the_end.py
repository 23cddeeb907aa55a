"""Knockouts played to their end through the desk's path (issue 25): every round a Pair with a new
random seed (`events.draw(store, name)`, as the desk's button), Publish, and each board's result stored
as the receiver stores a clock's record. The bracket is the lot drawn by the first Pair, so the
expected boards are worked out by hand from round 1 as published (who sat where) and the rules cited:
MH-8 (seed 004 §3.9.2), MR-12 (seed 003 Makruk §1 and note), seed 003's Makhos note."""
from __future__ import annotations

import pytest
from playkit import new_event, pair_and_publish, play

from gameclock.organiser import event as events
from gameclock.organiser.pairing import knockout
from gameclock.organiser.store import Store

MS = 600_000           # 10:00 used by each side in a game, unless said


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def tables(r) -> dict[int, tuple[str, str | None, int, str]]:
    """table -> (left, right, game, note) of a round (one board a table in a knockout)."""
    out = {}
    for b in r["boards"]:
        assert b["table"] not in out, "a knockout round has one game a table"
        out[b["table"]] = (b["left"], b["right"], b["game"], b["note"])
    return out


def swapped(before, table: int, game: int):
    """What game `game` of the match at `table` is when it swaps the sides of the game before."""
    left, right, _, _ = before[table]
    return (right, left, game)


def pushed(store, rnd: int) -> dict[int, dict]:
    return {p["table"]: p for p in store.pairings() if p["event"] == "ko" and p["round"] == rnd}


def test_an_eight_player_mh8_knockout_to_its_final(store):
    """MH-8, seed 004 §3.9.2: 6 games; tied: 4 draw-giving games (ผลัดกันต่อเสมอเป็นแพ้: a draw is the giver's
    loss; a coin toss first); still tied: 4 more at 20:00 a side ("Chess Clock ฝ่ายละ 20 นาที"); still tied:
    less total time used wins. A stage starts once every match of the one before is decided."""
    new_event(store, "ko", "makhos-ko", "ABCDEFGH", preset="makhos-30")
    r1 = pair_and_publish(store, "ko")
    t1 = tables(r1)
    assert sorted(t1) == [1, 2, 3, 4]                                 # 8 players: 4 quarter-finals, no bye
    assert [t1[t][3].split(":")[0] for t in (1, 2, 3, 4)] == [f"quarter-final {k}" for k in (1, 2, 3, 4)]
    assert all(game == 1 and "game 1 of 6 (coin toss: " + left + " starts)" in note
               for left, _, game, note in t1.values())
    x = {t: t1[t][0] for t in t1}      # who started game 1 at table t
    y = {t: t1[t][1] for t in t1}
    everyone = sorted(list(x.values()) + list(y.values()))
    assert everyone == list("ABCDEFGH")
    # the bracket the first Pair drew, kept by the event: quarter-final t is places 2t-1 and 2t, and a
    # match's score is said in that order ("A 6-6 H")
    slots = store.event("ko")["lot"]["bracket"]
    a = {t: slots[2 * t - 2] for t in t1}
    b_ = {t: slots[2 * t - 1] for t in t1}
    assert all({a[t], b_[t]} == {x[t], y[t]} for t in t1)

    # games 1-6, the start alternating (seed 004 §3.4.1), each match at its own table. From the player who
    # started game 1 (X) at each table: QF1 X wins g1, Y g2, g3-g6 drawn: 6-6. QF2 X wins all: 12-0. QF3 as
    # QF1: 6-6. QF4 Y wins g1-g4, g5-g6 drawn: Y 10-2.
    def qf_result(b) -> str:
        t, g = b["table"], b["game"]
        x_left = b["left"] == x[t]
        winner = {1: {1: "X", 2: "Y"}, 2: {k: "X" for k in range(1, 7)}, 3: {1: "X", 2: "Y"},
                  4: {k: "Y" for k in range(1, 5)}}[t].get(g)
        if winner is None:
            return "draw"
        return "left" if (winner == "X") == x_left else "right"

    before = t1
    for game in range(1, 7):
        rnd = r1 if game == 1 else pair_and_publish(store, "ko")
        now = tables(rnd)
        if game > 1:
            assert {t: now[t][:3] for t in now} == {t: swapped(before, t, game) for t in before}
            assert all(f"game {game} of 6, sides swapped" in now[t][3] for t in now)
        play(store, "ko", rnd, lambda b: (qf_result(b), None, (MS, MS)))
        before = now

    # round 7: QF2 (12-0) and QF4 (Y 10-2) are decided; QF1 and QF3 tied 6-6 play the first draw-giving
    # game at their own tables 1 and 3. The coin toss's winner gives first and starts (our reading).
    r7 = pair_and_publish(store, "ko")
    t7 = tables(r7)
    assert sorted(t7) == [1, 3] and all(g == 7 for _, _, g, _ in t7.values())
    giver = {t: t7[t][0] for t in t7}
    other = {t: t7[t][1] for t in t7}
    for t in (1, 3):
        assert {giver[t], other[t]} == {x[t], y[t]}
        assert (f"tied {a[t]} 6-6 {b_[t]} after 6: draw-giving game 1 of 4, {giver[t]} starts and gives the draw"
                in t7[t][3]) and f"{giver[t]} won the coin toss and gives first" in t7[t][3]
    # games 7-10, G the first giver, O the other; the clock records a draw given as the giver's loss:
    # QF1: g7 drawn (G gave: O 2), g8 drawn (O gave: G 2), g9 G wins (G 2), g10 O wins (O 2): 4-4, tied.
    # QF3: g7 drawn (O 2), g8 drawn (G 2), g9 G wins (G 2), g10 drawn (O gave: G 2): G 6-2: G through.
    def giving(b):
        t, g = b["table"], b["game"]
        g_left = b["left"] == giver[t]
        plan = {1: {7: "gave", 8: "gave", 9: "G", 10: "O"}, 3: {7: "gave", 8: "gave", 9: "G", 10: "gave"}}[t][g]
        if plan == "gave":        # the left player started and gave the draw
            return ("draw", "left", (MS, MS))
        return ("left" if (plan == "G") == g_left else "right", None, (MS, MS))

    play(store, "ko", r7, giving)
    before = t7
    for game in (8, 9, 10):
        rnd = pair_and_publish(store, "ko")
        now = tables(rnd)
        assert {t: now[t][:3] for t in now} == {t: swapped(before, t, game) for t in before}
        assert all(f"draw-giving game {game - 6} of 4, {now[t][0]} starts and gives the draw" in now[t][3]
                   for t in now)
        play(store, "ko", rnd, giving)
        before = now

    # round 11: QF3 decided (G 12-8 over 10 games); QF1 tied 10-10 plays 4 more at 20:00, the turns running
    # on (game 11 swaps game 10), on the clock's 20:00 preset (makhos-tiebreak-20)
    r11 = pair_and_publish(store, "ko")
    t11 = tables(r11)
    assert list(t11) == [1] and t11[1][:3] == swapped(before, 1, 11)
    assert (f"tied {a[1]} 10-10 {b_[1]} after 10: 20:00 draw-giving game 1 of 4, {t11[1][0]} starts and gives the "
            "draw") in t11[1][3]
    assert pushed(store, 11)[1]["preset"] == "makhos-tiebreak-20"
    assert pushed(store, 1)[1]["preset"] == "makhos-30"                 # the match games: the event's preset
    # games 11-14 (G starts 11 and 13, O 12 and 14): g11 G wins, g12 O wins, g13 drawn (G gave: O 2),
    # g14 drawn (O gave: G 2): 4-4, tied 14-14. Time: every game 10:00 a side but game 14, where O (left)
    # used 8:20: O 14 x 10:00 - 1:40 = 138:20, G 140:00: O used less and goes through (MH-8).
    g1, o1 = giver[1], other[1]

    def timed(b):
        g = b["game"]
        times = (500_000, MS) if g == 14 else (MS, MS)
        if g in (13, 14):
            return ("draw", "left", times)
        return ("left" if (g == 11) == (b["left"] == g1) else "right", None, times)

    play(store, "ko", r11, timed)
    before = t11
    for game in (12, 13, 14):
        rnd = pair_and_publish(store, "ko")
        now = tables(rnd)
        assert now[1][:3] == swapped(before, 1, game) and pushed(store, game)[1]["preset"] == "makhos-tiebreak-20"
        assert f"20:00 draw-giving game {game - 10} of 4, {now[1][0]} starts and gives the draw" in now[1][3]
        play(store, "ko", rnd, timed)
        before = now

    # round 15: the semi-finals, the winners in bracket order: QF1's (O, on time) v QF2's (X, 12-0) at
    # table 1; QF3's (its first giver G) v QF4's (Y, 10-2) at table 2; game 1 of 6 each, a coin toss
    r15 = pair_and_publish(store, "ko")
    t15 = tables(r15)
    semi = {1: {o1, x[2]}, 2: {giver[3], y[4]}}
    assert {t: {t15[t][0], t15[t][1]} for t in t15} == semi
    assert t15[1][3].startswith("semi-final 1 (the winners of tables 1 and 2): game 1 of 6 (coin toss: ")
    assert t15[2][3].startswith("semi-final 2 (the winners of tables 3 and 4): game 1 of 6 (coin toss: ")
    assert any("stage 2 of 3: the semi-finals" in n for n in events.round_lines("ko", r15, events.players_of(store, "ko")))
    br = events.knockout_of(store, "ko")
    qf1 = next(m for m in br.matches if m.name == "quarter-final 1")
    assert qf1.winner == o1 and qf1.outcome.reason == "time"
    times = {o1: "138:20", g1: "140:00"}
    assert qf1.outcome.detail == (f"tied {a[1]} 14-14 {b_[1]} after 14 games; total time used {a[1]} {times[a[1]]}, "
                                  f"{b_[1]} {times[b_[1]]} (MH-8: less total time used)")
    # the semi-finals: o1 wins all 6 of SF1, y[4] all 6 of SF2
    sf_winner = {1: o1, 2: y[4]}
    before = t15
    for game in range(1, 7):
        rnd = r15 if game == 1 else pair_and_publish(store, "ko")
        now = tables(rnd)
        if game > 1:
            assert {t: now[t][:3] for t in now} == {t: swapped(before, t, game) for t in before}
        play(store, "ko", rnd, lambda b: "left" if b["left"] == sf_winner[b["table"]] else "right")
        before = now

    # round 21: the final, the winners of tables 1 and 2: o1 v y[4], table 1, game 1 of 6; y[4] wins games
    # 1-4, games 5-6 drawn: y[4] 10-2, the champion after 6 games
    r21 = pair_and_publish(store, "ko")
    t21 = tables(r21)
    assert list(t21) == [1] and {t21[1][0], t21[1][1]} == {o1, y[4]}
    assert t21[1][3].startswith("final (the winners of tables 1 and 2): game 1 of 6")
    before = t21
    for game in range(1, 7):
        rnd = r21 if game == 1 else pair_and_publish(store, "ko")
        now = tables(rnd)
        if game > 1:
            assert now[1][:3] == swapped(before, 1, game)
        play(store, "ko", rnd, lambda b: "draw" if b["game"] > 4 else ("left" if b["left"] == y[4] else "right"))
        before = now
    with pytest.raises(events.EventError, match=f"ko: the knockout is over: {y[4]} won the final"):
        events.draw(store, "ko")
    assert [r["round"] for r in events.published_rounds(store, "ko")] == list(range(1, 27))
    # the places the bracket gives (knockout.placings): the semi-finals' losers share 3rd (no third-place
    # match), the quarter-finals' losers 5th
    qf_losers = tuple(sorted({x[1], y[1]} - {o1} | {y[2]} | {x[3], y[3]} - {giver[3]} | {x[4]}))
    assert knockout.placings(events.knockout_of(store, "ko")) == [
        (1, (y[4],)), (2, (o1,)), (3, tuple(sorted((x[2], giver[3])))), (5, qf_losers)]


def test_a_four_player_mr12_knockout_with_its_third_game_and_lots(store):
    """MR-12 (seed 003 Makruk §1 and note): 2 games, game 2 the sides swapped ("สลับกันเดิน"); tied: lots
    ("ให้จับสลากเพื่อหาผู้ชนะ"); the final plays a third game first, then lots. Third place (option
    third_place) is not the final: lots after 2 games. A lot is drawn by the draft that finds the tie, can
    be drawn again (Redraw) until that round is published, and is kept from then on."""
    new_event(store, "ko", "makruk-ko", "ABCD", options={"third_place": True}, preset="makruk-30")
    r1 = pair_and_publish(store, "ko")
    t1 = tables(r1)
    assert sorted(t1) == [1, 2]
    x = {t: t1[t][0] for t in t1}
    y = {t: t1[t][1] for t in t1}
    assert t1[1][3].startswith("semi-final 1: game 1 of 2 (coin toss: ")
    # game 1: SF1 X wins; SF2 X wins. Game 2 (swapped): SF1 drawn (X 3-1: through); SF2 Y wins (2-2: tied)
    play(store, "ko", r1, lambda b: "left", kind="makruk")
    r2 = pair_and_publish(store, "ko")
    t2 = tables(r2)
    assert {t: t2[t][:3] for t in t2} == {t: swapped(t1, t, 2) for t in t1}
    assert all("game 2 of 2, sides swapped" in t2[t][3] for t in t2)
    play(store, "ko", r2, lambda b: "draw" if b["table"] == 1 else "left", kind="makruk")

    # round 3: SF2 is tied 2-2: lots decide, drawn by this draft (its seed); the final and third place
    # follow from the lot: a redraw with another seed may give the other winner
    d3 = events.draw(store, "ko")
    assert events.redrawable(store, "ko")
    lot_words = [w for w in d3["words"] if "decided by lot" in w["text"]]
    assert len(lot_words) == 1 and lot_words[0]["values"]["seed"] == d3["seed"]
    winners = set()
    for seed in range(1, 40):
        d = events.redraw(store, "ko", seed)
        t3 = tables(d)
        sf2 = next(p for p in (x[2], y[2]) if p in {t3[1][0], t3[1][1]})
        winners.add(sf2)
        # the final: SF1's winner X v the lot's winner, table 1; third place: SF1's loser v the other, table 2
        assert {t3[1][0], t3[1][1]} == {x[1], sf2} and t3[1][3].startswith("final (the winners of tables 1 and 2)")
        assert {t3[2][0], t3[2][1]} == {y[1], ({x[2], y[2]} - {sf2}).pop()}
        assert t3[2][3].startswith("third place (the losers of tables 1 and 2): game 1 of 2")
    assert winners == {x[2], y[2]}                        # the seed of the draft decides the lot
    r3 = events.publish(store, "ko")
    t3 = tables(r3)
    sf2 = next(p for p in (x[2], y[2]) if p in {t3[1][0], t3[1][1]})
    assert store.event("ko")["lot"]["drawn"] == {" v ".join(sorted((x[2], y[2]))): sf2}   # kept once published
    fx, fy = t3[1][0], t3[1][1]
    # the final: game 1 fx wins, game 2 (swapped) fy wins: 2-2; third place: two draws, 2-2
    play(store, "ko", r3, lambda b: "left" if b["table"] == 1 else "draw", kind="makruk")
    r4 = pair_and_publish(store, "ko")
    assert {t: tables(r4)[t][:3] for t in (1, 2)} == {t: swapped(t3, t, 2) for t in (1, 2)}
    play(store, "ko", r4, lambda b: "left" if b["table"] == 1 else "draw", kind="makruk")
    # round 5: the final tied plays a third game (a new coin toss); third place tied: lots (not the final)
    d5 = events.draw(store, "ko")
    t5 = tables(d5)
    assert list(t5) == [1] and {t5[1][0], t5[1][1]} == {fx, fy} and t5[1][2] == 3
    assert "a third game (the final's tie, MR-12) (coin toss: " in t5[1][3]
    assert events.redrawable(store, "ko")                  # it draws third place's lot
    r5 = events.publish(store, "ko")
    third = {y[1], ({x[2], y[2]} - {sf2}).pop()}
    third_winner = store.event("ko")["lot"]["drawn"][" v ".join(sorted(third))]
    assert third_winner in third
    # the third game drawn: the final is decided by lot; no round is left, the Pair that finds it draws it
    # and the event keeps it: a later Pair (another seed) says the same
    play(store, "ko", r5, lambda b: "draw", kind="makruk")
    with pytest.raises(events.EventError, match=r"ko: the knockout is over: (\w) won the final \(by lot: ") as over:
        events.draw(store, "ko")
    champion = over.value.args[0].split("over: ")[1][0]
    assert champion in (fx, fy)
    for _ in range(3):
        with pytest.raises(events.EventError, match=f"ko: the knockout is over: {champion} won the final$"):
            events.draw(store, "ko")
    assert knockout.placings(events.knockout_of(store, "ko")) == [
        (1, (champion,)), (2, (({fx, fy} - {champion}).pop(),)), (3, (third_winner,)),
        (4, ((third - {third_winner}).pop(),))]


def test_seed_003s_makhos_knockout_third_game_lots_and_the_final_up_to_six(store):
    """Seed 003's Makhos note: 2 games; tied, a third ("ให้เล่นกระดานที่ 3"); still tied, lots; the final plays
    on until one leads, at most 6 games ("ไม่เกิน 6 กระดาน"), then lots. Colours (§1.1): swapped every game."""
    new_event(store, "ko", "makhos-ko-003", "ABCD")
    r1 = pair_and_publish(store, "ko")
    t1 = tables(r1)
    x = {t: t1[t][0] for t in t1}
    y = {t: t1[t][1] for t in t1}
    # SF1: g1 X wins, g2 (swapped) Y wins: 2-2; SF2: g1 X wins, g2 drawn: X 3-1 through
    play(store, "ko", r1, lambda b: "left")
    r2 = pair_and_publish(store, "ko")
    assert {t: tables(r2)[t][:3] for t in t1} == {t: swapped(t1, t, 2) for t in t1}
    play(store, "ko", r2, lambda b: "left" if b["table"] == 1 else "draw")
    r3 = pair_and_publish(store, "ko")
    t3 = tables(r3)
    assert list(t3) == [1] and t3[1][:3] == swapped(tables(r2), 1, 3)
    assert "tied " in t3[1][3] and "2-2" in t3[1][3] and "a third game (seed 003)" in t3[1][3]
    play(store, "ko", r3, lambda b: "draw")                 # still tied 3-3: lots, drawn by round 4's draft
    r4 = pair_and_publish(store, "ko")
    t4 = tables(r4)
    sf1 = store.event("ko")["lot"]["drawn"][" v ".join(sorted((x[1], y[1])))]
    assert list(t4) == [1] and {t4[1][0], t4[1][1]} == {sf1, x[2]} and t4[1][2] == 1
    assert t4[1][3].startswith("final (the winners of tables 1 and 2): game 1 of 2 (coin toss: ")
    # the final: g1 left wins, g2 (swapped) left wins: 2-2; g3-g6 drawn, one at a time: still tied at 6: lots
    play(store, "ko", r4, lambda b: "left")
    before = t4
    for game in range(2, 7):
        rnd = pair_and_publish(store, "ko")
        now = tables(rnd)
        assert now[1][:3] == swapped(before, 1, game)
        if game > 2:
            assert f"game {game} (the final plays on until one leads, at most 6; seed 003)" in now[1][3]
        play(store, "ko", rnd, lambda b: "left" if b["game"] == 2 else "draw")
        before = now
    with pytest.raises(events.EventError, match=r"the knockout is over: \w won the final \(by lot: "):
        events.draw(store, "ko")
    br = events.knockout_of(store, "ko")
    final = next(m for m in br.matches if m.name == "final")
    assert final.outcome.reason == "lot" and len(final.games) == 6 and br.champion in (sf1, x[2])
