"""Kills during enrollment (issue 13): bench/enrollcrash.py's drill, small. Whatever moment the
clock's or the PC's program is killed at, the clock never holds a key its PC does not hold as valid,
no result is lost, and a clean enrollment afterwards succeeds without --replace."""
from bench.enrollcrash import enroll_drill


def test_kills_during_enrollment_lose_nothing_and_leave_a_state_that_recovers():
    fig = enroll_drill(kills=6, seed=7, chains=2)
    assert fig["enroll_kills"] == 6
    assert fig["enroll_key_mismatch"] == 0
    assert fig["enroll_recover_failed"] == 0
    assert fig["enroll_results_lost"] == 0
