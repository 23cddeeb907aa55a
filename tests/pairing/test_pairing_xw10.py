"""XW-10 (seed 000 §1-2) over a whole day, hand-worked: a 12-player and a 13-player event, six
qualifying games and the final. Game 1 is a random draw (checked for what a draw must be, and for
determinism); from game 2 on the games are written here by hand, each round's results chosen in
the test, and each round's expected boards worked out in the comments from the rules:

- ranking (XW-7): game points, then cumulative spread, then entry order (A, B, C, ...);
- games 2 and 4 (seed 000 §1 "Swiss Pairing"): score groups top half v bottom half, a lone player of
  a group floats down to meet the next group's top player; no repeat pairing while one is avoidable;
- games 3 and 5 (§1 "จบเกมที่ 2 สลับชนะเจอชนะ และแพ้เจอแพ้ในกลุ่มโต๊ะเดียวกัน"): winners meet winners
  and losers meet losers within the table group (tables 1-2, 3-4, 5-6 of the game before; the bye of
  the game before sits in the last group); a repeat avoided if possible, first in the group, else
  across to the next group (crossword.py's docstring);
- game 6 (§2, King of the Hill): 1 v 2, 3 v 4, ... by rank, rematches allowed; stage `last` (XW-8);
- round 7 (§2): 1st v 2nd the final, 3rd v 4th third place, stage `final` (XW-8 §3.10.4: no cap);
- byes (XW-9, §3.10.5): the lowest-ranked player without one, table 0, a win and +100 spread;
- who starts: fewer starts than non-starts first, else the one who did not start their latest game,
  else the higher-ranked (swiss.py).

"starts" below is each player's games started minus games not started (byes left out).
"""
from __future__ import annotations

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing.model import Board, EventState, Game, Player, RoundDraft

XW10 = load_systems()["xw10"]


def players(n: int) -> tuple[Player, ...]:
    return tuple(Player(chr(ord("A") + i), f"Player {chr(ord('A') + i)}") for i in range(n))


def g(rnd: int, left: str, right: str | None, left_points: float, spread: int, table: int) -> Game:
    return Game(rnd, left, right, left_points, spread, table)


def bye(rnd: int, pid: str) -> Game:
    return Game(rnd, pid, None, 1.0, 100, 0)  # XW-9: a win, +100 spread


def boards(draft: RoundDraft) -> list[tuple[int, str, str | None]]:
    return [(b.table, b.left, b.right) for b in draft.boards]


def played(draft: RoundDraft, results: dict[int, tuple[float, int]], rnd: int) -> list[Game]:
    """The round's games from its draft and the results chosen by hand: table -> (left's points,
    left's spread); a bye board gives the XW-9 bye."""
    out = []
    for b in draft.boards:
        if b.right is None:
            out.append(bye(rnd, b.left))
        else:
            lp, spread = results[b.table]
            out.append(g(rnd, b.left, b.right, lp, spread, b.table))
    return out


# ------------------------------------------------------------------------------------------- game 1
def test_game_one_is_a_seeded_random_draw():
    # XW-10, seed 000 §1 "เกมที่ 1 (Random)": every player on exactly one board, the draw redone
    # from its stored seed gives the same boards
    state = EventState(players(12))
    draft = XW10(state, 1, 2015)
    assert draft.system == "xw10" and draft.seed == 2015 and draft.round == 1
    assert sorted(draft.players()) == [p.id for p in state.players]
    assert [b.table for b in draft.boards] == [1, 2, 3, 4, 5, 6]
    assert all(b.right is not None and b.stage == "qualifying" for b in draft.boards)
    assert XW10(state, 1, 2015) == draft
    # a different seed is a different draw (of 20 seeds' draws, not all are the same)
    assert len({tuple(boards(XW10(state, 1, s))) for s in range(20)}) > 1


def test_game_one_with_an_odd_number_gives_the_last_drawn_the_bye():
    # XW-9: all are level after no games; the draw's order is the ranking, its last has the bye
    state = EventState(players(13))
    draft = XW10(state, 1, 7)
    assert sorted(draft.players()) == [p.id for p in state.players]
    byes = [b for b in draft.boards if b.right is None]
    assert len(byes) == 1 and byes[0].table == 7 and byes[0].note == "bye"  # after the 6 tables
    assert draft.boards[-1] == byes[0]
    assert byes[0].left == draft.players()[-1]


def test_drafts_do_not_change_with_dict_or_input_order_of_games():
    # determinism: the state is the input, the same state and seed give the same draft
    state = EventState(players(12), tuple(ROUND1_12))
    again = EventState(players(12), tuple(reversed(ROUND1_12)))
    assert XW10(state, 2, 1) == XW10(state, 2, 1)
    assert boards(XW10(again, 2, 1)) == boards(XW10(state, 2, 1))


# ------------------------------------------------------------------------- twelve players, six games
# Game 1 as drawn (written by hand): the left wins every table, A +60 ... K +10.
ROUND1_12 = [g(1, "A", "B", 1, 60, 1), g(1, "C", "D", 1, 50, 2), g(1, "E", "F", 1, 40, 3),
             g(1, "G", "H", 1, 30, 4), g(1, "I", "J", 1, 20, 5), g(1, "K", "L", 1, 10, 6)]


def test_twelve_players_six_games_and_the_final():
    state_players = players(12)
    games = list(ROUND1_12)

    def pair(rnd: int) -> RoundDraft:
        draft = XW10(EventState(state_players, tuple(games)), rnd, 99)
        assert draft.round == rnd
        if rnd <= 6:  # every player plays (or has the bye) in each qualifying game
            assert sorted(draft.players()) == sorted(p.id for p in state_players)
        return draft

    # ---- game 2, Swiss (XW-10, seed 000 §1). After game 1: 1 point A60 C50 E40 G30 I20 K10,
    # 0 points L-10 J-20 H-30 F-40 D-50 B-60. Group 1 point (6): top half A C E v bottom G I K:
    # A-G, C-I, E-K; group 0: L-F, J-D, H-B; none has met. starts: winners +1, losers -1, equal in
    # every pair, and both started (or both did not) game 1: the higher-ranked starts.
    d2 = pair(2)
    assert boards(d2) == [(1, "A", "G"), (2, "C", "I"), (3, "E", "K"), (4, "L", "F"), (5, "J", "D"),
                          (6, "H", "B")]
    assert all(b.stage == "qualifying" for b in d2.boards)
    games += played(d2, {1: (0, -100), 2: (1, 30), 3: (0, -80), 4: (1, 40), 5: (0, -70), 6: (1, 20)}, 2)
    # winners G C K L D H; totals: G 2/130, K 2/90, C 2/80 | L 1/30, D 1/20, H 1/-10, I 1/-10,
    # A 1/-40, E 1/-40 | B 0/-80, F 0/-80, J 0/-90 -> order G K C L D H I A E B F J

    # ---- game 3, the change-over in table groups of game 2 (XW-10, seed 000 §1)
    # group tables 1-2 {A G C I}: winners G, C meet; losers I, A meet.
    # group tables 3-4 {E K L F}: winners K, L met in game 1 -> K (first) takes the first partner
    #   of the group not met: E (game 2) no, F yes: K-F; then L-E (new).
    # group tables 5-6 {J D H B}: winners D-H, losers B-J, all new.
    # starts after game 2: A 2, C 2, E 2, G 0, I 0, K 0, L 0, J 0, H 0, F -2, D -2, B -2:
    # G (0) starts against C (2), I v A: I, F v K: F, L v E: L, D v H: D, B v J: B.
    d3 = pair(3)
    assert boards(d3) == [(1, "G", "C"), (2, "I", "A"), (3, "F", "K"), (4, "L", "E"), (5, "D", "H"),
                          (6, "B", "J")]
    assert not any("repeat" in n for n in d3.notes)
    games += played(d3, {1: (1, 50), 2: (0, -30), 3: (0, -60), 4: (0.5, 0), 5: (1, 10), 6: (0, -20)}, 3)
    # totals: G 3/180, K 3/150 | C 2/30, D 2/30, A 2/-10 | L 1.5/30, E 1.5/-40 | H 1/-20, I 1/-40,
    # J 1/-70 | B 0/-100, F 0/-140 -> order G K C D A L E H I J B F

    # ---- game 4, Swiss. Group 3 {G K}: G-K (new). Group 2 {C D A}: C's ideal partner (top half v
    # bottom half) is D, met in game 1,
    # so A; D is left alone and floats to the 1.5 group's top: L (new). E alone with 1.5 meets H.
    # Group 1 {I J}: met in game 1 -> I meets the next, B; J-F.
    # starts after game 3: A 1, C 1, E 1, G 1, I 1, L 1, the others -1. K(-1) starts v G(1);
    # C v A equal, neither started game 3: C ranked higher; D(-1) v L(1): D; H(-1) v E(1): H;
    # B(-1) v I(1): B; J v F equal, F started game 3: J.
    d4 = pair(4)
    assert boards(d4) == [(1, "K", "G"), (2, "C", "A"), (3, "D", "L"), (4, "H", "E"), (5, "B", "I"),
                          (6, "J", "F")]
    assert not any("repeat" in n for n in d4.notes)
    games += played(d4, {1: (1, 40), 2: (0, -50), 3: (0, -20), 4: (1, 30), 5: (0, -10), 6: (0, -5)}, 4)
    # totals: K 4/190 | G 3/140, A 3/40 | L 2.5/50 | D 2/10, H 2/10, C 2/-20, I 2/-30 | E 1.5/-70 |
    # J 1/-75, F 1/-135 | B 0/-110 -> order K G A L D H C I E J F B

    # ---- game 5, the change-over in table groups of game 4.
    # group tables 1-2 {K G C A}: winners K, A (new) meet; but every pairing of the losers G, C
    #   repeats (game 3), and so do the group's others (A-G game 2, K-G game 4, C-A game 4): G
    #   crosses to the next group, whose winners are L (table 3) and H (table 4), losers D, E:
    #   G-L (new); C, alone, meets H (new); D-E (new) would leave I (table 5 winner) with F
    #   (table 6 winner, new) and J with B, who met in game 3 -- so D meets I and E meets J;
    #   F-B is left (new). No repeat in all.
    # starts after game 4: C 2, F -2, all others 0. K v A: K started game 4, A did not: A;
    # G v L: neither started game 4: G, ranked higher; H(0) v C(2): H; I v D: D started game 4: I;
    # E v J: J started game 4: E; F(-2) v B(0): F.
    d5 = pair(5)
    assert boards(d5) == [(1, "A", "K"), (2, "G", "L"), (3, "H", "C"), (4, "I", "D"), (5, "E", "J"),
                          (6, "F", "B")]
    assert not any("repeat" in n for n in d5.notes)
    games += played(d5, {1: (0, -60), 2: (0, -70), 3: (0, -40), 4: (1, 25), 5: (1, 15), 6: (0, -35)}, 5)
    # totals: K 5/250 | L 3.5/120 | G 3/70, C 3/20, I 3/-5, A 3/-20 | E 2.5/-55 | D 2/-15, H 2/-30 |
    # B 1/-75, J 1/-90, F 1/-170 -> order K L G C I A E D H B J F

    # ---- game 6, King of the Hill (XW-10, seed 000 §2): K-L, G-C, I-A, E-D, H-B, J-F by rank, the
    # rematches K-L (game 1), G-C (game 3), I-A (game 3), H-B (game 2), J-F (game 4) kept and noted.
    # Stage last (XW-8: the last game's cap). starts after game 5: A C E G H I 1, the others -1.
    # K v L equal, neither started game 5: K (higher); G v C equal, G started game 5: C; I v A
    # equal, both started: I (higher); D(-1) v E(1): D; B(-1) v H(1): B; J v F equal, F started: J.
    d6 = pair(6)
    assert boards(d6) == [(1, "K", "L"), (2, "C", "G"), (3, "I", "A"), (4, "D", "E"), (5, "B", "H"),
                          (6, "J", "F")]
    assert all(b.stage == "last" for b in d6.boards)
    assert sum("rematch" in n for n in d6.notes) == 5
    games += played(d6, {1: (0, -30), 2: (1, 10), 3: (0, -100), 4: (0, -20), 5: (0, -10), 6: (0.5, 0)}, 6)
    # totals: K 5/220, L 4.5/150, A 4/80, C 4/30, then E 3.5/-35 and the rest

    # ---- the final (XW-10, seed 000 §2): K v L on table 1, A v C for third place on table 2, stage
    # final (XW-8 §3.10.4). starts after game 6: K 0, L -2: L starts; A 0, C 2: A.
    d7 = pair(7)
    assert d7.boards == (Board(1, "L", "K", stage="final", note="final"),
                         Board(2, "A", "C", stage="final", note="third place"))


# ------------------------------------------------------------------------ thirteen players, byes
# Game 1 as drawn: tables 1-6 left wins, A +60 ... K +10; M the bye (XW-9: a win, +100).
ROUND1_13 = ROUND1_12 + [bye(1, "M")]


def test_thirteen_players_byes_table_groups_koth_and_the_final():
    state_players = players(13)
    games = list(ROUND1_13)

    def pair(rnd: int) -> RoundDraft:
        draft = XW10(EventState(state_players, tuple(games)), rnd, 5)
        if rnd <= 6:
            assert sorted(draft.players()) == sorted(p.id for p in state_players)
        return draft

    # ---- game 2, Swiss. Order: M 1/100, A60 C50 E40 G30 I20 K10 | L-10 J-20 H-30 F-40 D-50 B-60.
    # The bye (XW-9): the lowest-ranked without one: B. Group 1 point (7): M's ideal partner is
    # the 4th, E; then {A C G I K}: A-G; {C I K}: C-I; K alone floats to the top of group 0 -- L, met
    # in game 1 -> J. Group 0 left {L H F D}: L-F, H-D.
    # starts after game 1: A C E G I K 1, B D F H J L -1, M 0: M v E: M; A v G: A; C v I: C;
    # K v J: J; L v F: L; H v D: H.
    d2 = pair(2)
    assert boards(d2) == [(1, "M", "E"), (2, "A", "G"), (3, "C", "I"), (4, "J", "K"), (5, "L", "F"),
                          (6, "H", "D"), (7, "B", None)]
    assert d2.boards[-1].note == "bye"
    games += played(d2, {1: (0, -50), 2: (1, 20), 3: (0, -30), 4: (1, 40), 5: (0, -10), 6: (1, 5)}, 2)
    # totals: E 2/90, A 2/80, I 2/50 | M 1/50, B 1/40, C 1/20, J 1/20, G 1/10, H 1/-25, F 1/-30,
    # K 1/-30 | L 0/-20, D 0/-55 -> order E A I M B C J G H F K L D

    # ---- game 3, the change-over. The bye: D, the lowest without one (M and B have had theirs).
    # group tables 1-2 {M E A G}: winners E, A meet; losers M, G meet.
    # group tables 3-4 {C I J K}: winners I, J met in game 1; I's next partners: C (game 2) no,
    #   K yes: I-K; then J-C.
    # group tables 5-6 and game 2's bye {L F H D B}, D out: winners B (the bye), H, F, loser L.
    #   B meets H (ideal in B H F); F and L would repeat game 2 -> B meets F instead, H meets L.
    # starts after game 2: A 2, C 2, M 1, E G H I J K L 0, B -1, D -2, F -2.
    # E(0) v A(2): E; G(0) v M(1): G; I v K equal, neither started game 2: I; J(0) v C(2): J;
    # F(-2) v B(-1): F; H v L equal, both started game 2: H (higher).
    d3 = pair(3)
    assert boards(d3) == [(1, "E", "A"), (2, "G", "M"), (3, "I", "K"), (4, "J", "C"), (5, "F", "B"),
                          (6, "H", "L"), (7, "D", None)]
    games += played(d3, {1: (1, 30), 2: (0, -40), 3: (1, 10), 4: (0, -20), 5: (1, 50), 6: (0, -15)}, 3)
    # totals: E 3/120, I 3/60 | M 2/90, A 2/50, C 2/40, F 2/20 | D 1/45, J 1/0, L 1/-5, B 1/-10,
    # G 1/-30, H 1/-40, K 1/-40 -> order E I M A C F D J L B G H K

    # ---- game 4, Swiss. The bye: K (M, B, D have had one). E-I (3 points, new); group 2 {M A C F}:
    # M-C, A-F; group 1 {D J L B G H}: D-B (ideal), J-G would leave L-H, who met in game 3 -> J-H
    # (the next of the bottom half), L-G.
    # starts after game 3: A C E G H I J 1, M 0, F K L -1, B D -2.
    # E v I equal, both started game 3: E; M(0) v C(1): M; F(-1) v A(1): F; D v B equal (-2), neither
    # started their latest game: D; J v H equal, both started game 3: J; L(-1) v G(1): L.
    d4 = pair(4)
    assert boards(d4) == [(1, "E", "I"), (2, "M", "C"), (3, "F", "A"), (4, "D", "B"), (5, "J", "H"),
                          (6, "L", "G"), (7, "K", None)]
    games += played(d4, {1: (1, 20), 2: (1, 35), 3: (0, -25), 4: (0, -45), 5: (1, 5), 6: (0, -60)}, 4)
    # totals: E 4/140 | M 3/125, A 3/75, I 3/40 | K 2/60, B 2/35, G 2/30, C 2/5, J 2/5, F 2/-5 |
    # D 1/0, H 1/-45, L 1/-65 -> order E M A I K B G C J F D H L

    # ---- game 5, the change-over in game 4's table groups. The bye: L (M B D K have had theirs).
    # group tables 1-2 {E I M C}: winners E, M met in game 2, E-I game 4 -> E-C; M-I (new).
    # group tables 3-4 {F A D B}: every pairing repeats (A-B game 1, A-F game 4, B-F game 3, so
    #   A-D leaves B-F): they cross to the last group {J H G K} (winners K the bye, G, J; loser H):
    #   A-D (new); B, alone, meets K (new); F-G would leave J-H (game 4), F-J would leave G-H
    #   (game 1): F-H and G-J.
    # starts after game 4: E J 2, M 1, A C F G H I L 0, D -1, K -1, B -3.
    # E(2) v C(0): C; M(1) v I(0): I; A(0) v D(-1): D; B(-3) v K(-1): B; F v H equal, F started
    # game 4: H; G(0) v J(2): G.
    d5 = pair(5)
    assert boards(d5) == [(1, "C", "E"), (2, "I", "M"), (3, "D", "A"), (4, "B", "K"), (5, "H", "F"),
                          (6, "G", "J"), (7, "L", None)]
    assert not any("repeat" in n for n in d5.notes)
    games += played(d5, {1: (0, -10), 2: (1, 15), 3: (0, -30), 4: (0, -40), 5: (0, -20), 6: (1, 25)}, 5)
    # totals: E 5/150 | A 4/105, I 4/55 | M 3/110, K 3/100, G 3/55, F 3/15 | L 2/35, B 2/-5,
    # C 2/-5, J 2/-20 | D 1/-30, H 1/-65 -> order E A I M K G F L B C J D H

    # ---- game 6, King of the Hill. The bye: H, the lowest without one (M B D K L have had theirs).
    # E-A, I-M, K-G, F-L, B-C, J-D by rank; rematches E-A (game 3), I-M (game 5), F-L (game 2).
    # starts after game 5: C E G H I J 1, D L M 0, A F -1, B K -2.
    # A(-1) v E(1): A; M(0) v I(1): M; K(-2) v G(1): K; F(-1) v L(0): F; B(-2) v C(1): B;
    # D(0) v J(1): D. Stage last, the bye too.
    d6 = pair(6)
    assert boards(d6) == [(1, "A", "E"), (2, "M", "I"), (3, "K", "G"), (4, "F", "L"), (5, "B", "C"),
                          (6, "D", "J"), (7, "H", None)]
    assert all(b.stage == "last" for b in d6.boards)
    assert sum("rematch" in n for n in d6.notes) == 3
    games += played(d6, {1: (1, 50), 2: (1, 10), 3: (1, 30), 4: (0, -10), 5: (1, 10), 6: (0, -10)}, 6)
    # totals: A 5/155, E 5/100, K 4/130, M 4/120, ...

    # ---- the final: A v E (A started game 6, E did not: E starts), third place K v M (K -1, M 1: K).
    d7 = pair(7)
    assert d7.boards == (Board(1, "E", "A", stage="final", note="final"),
                         Board(2, "K", "M", stage="final", note="third place"))
    # every player had at most one bye over the six games (XW-9)
    bye_takers = [x.left for x in games if x.right is None]
    assert len(bye_takers) == 6 and len(set(bye_takers)) == 6


def test_king_of_the_hill_for_the_last_two_games_when_the_event_says_so():
    # seed 000 §2 "เกมคัดเลือกเกมสุดท้ายหรือ 2 เกมสุดท้าย": option koth_rounds 2 makes game 5 King of the
    # Hill. Twelve players after game 1 (ROUND1_12): A C E G I K L J H F D B -> A-C, E-G, I-K, L-J,
    # H-F, D-B (rematches none: game 1 paired A-B, C-D, ...); stage qualifying (game 5 is not the last).
    state = EventState(players(12), tuple(ROUND1_12), options={"koth_rounds": 2})
    # pretend game 1 was the only game: ask for game 5's kind through round 5 with the same games
    draft = XW10(state, 5, 0)
    assert boards(draft) == [(1, "A", "C"), (2, "E", "G"), (3, "I", "K"), (4, "L", "J"), (5, "H", "F"),
                             (6, "D", "B")]
    assert all(b.stage == "qualifying" for b in draft.boards)


def test_out_of_schedule_rounds_and_bad_options_are_refused():
    import pytest

    from gameclock.organiser.pairing.model import PairingError

    state = EventState(players(4))
    with pytest.raises(PairingError, match="no round 8"):
        XW10(state, 8, 0)
    with pytest.raises(PairingError, match="table_group"):
        XW10(EventState(players(4), options={"table_group": 1}), 2, 0)
    with pytest.raises(PairingError, match="no results of game 2"):
        XW10(EventState(players(4), (g(1, "A", "B", 1, 10, 1), g(1, "C", "D", 1, 10, 2))), 3, 0)
