"""Answer caps: problem lines then "… N more", and the answer's size, in text and in JSON."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.server.bounds import cap_answer, cap_json_errors, cap_problem_lines


def problem_lines(count: int, suggestions: bool = False) -> str:
    lines = []
    for number in range(count):
        lines.append(f"!m{number}.md FILE_NOT_FOUND: no such file; check the path\n")
        if suggestions:
            lines.append(f"~h2.{number}\n")
    return "".join(lines)


def test_problem_lines_within_the_limit_are_untouched() -> None:
    text = problem_lines(3, suggestions=True)
    assert cap_problem_lines(text, 3) is text


def test_problem_lines_past_the_limit_become_one_counting_line() -> None:
    capped = cap_problem_lines(problem_lines(120, suggestions=True), 50)
    lines = capped.splitlines()
    assert [line for line in lines if line.startswith("!")] == [
        f"!m{number}.md FILE_NOT_FOUND: no such file; check the path" for number in range(50)
    ]
    assert lines[-1] == "… 70 more problems not shown (MDSEL_MAX_PROBLEMS)"
    assert lines[-2] == "~h2.49"  # the last kept problem keeps its suggestions
    assert len(lines) == 101


def test_other_lines_stay_where_they_were() -> None:
    stderr = problem_lines(3) + "mdsel-claude: /bin/mdsel was killed by SIGKILL\n"
    capped = cap_problem_lines(stderr, 1)
    assert capped.splitlines()[1:] == [
        "… 2 more problems not shown (MDSEL_MAX_PROBLEMS)",
        "mdsel-claude: /bin/mdsel was killed by SIGKILL",
    ]


def test_json_errors_are_capped_and_the_answer_stays_json() -> None:
    errors = [{"type": "FILE_NOT_FOUND", "code": "ENOENT", "message": "x"}] * 80
    body = {"success": False, "command": "index", "errors": errors}
    capped = json.loads(cap_json_errors(json.dumps(body), 50))
    assert len(capped["errors"]) == 51
    assert capped["errors"][-1]["code"] == "MORE_PROBLEMS"
    assert "30 more" in capped["errors"][-1]["message"]
    small = json.dumps({**body, "errors": errors[:2]})
    assert cap_json_errors(small, 50) == small


def test_a_long_text_answer_is_cut_at_a_line_and_says_so() -> None:
    text = "".join(f"line {number:05}\n" for number in range(10_000))
    capped, cut = cap_answer(text, 2000, json_mode=False, command="index")
    assert cut and len(capped) <= 2000
    body, notice = capped.rstrip("\n").rsplit("\n", 1)
    assert text.startswith(body + "\n")
    assert notice.startswith("… answer cut at ") and "MDSEL_MAX_ANSWER_CHARS" in notice
    assert f"of {len(text)} characters" in notice
    assert cap_answer("short\n", 2000, json_mode=False, command="index") == ("short\n", False)


def test_a_long_json_answer_becomes_an_error_envelope() -> None:
    text = json.dumps({"success": True, "data": ["x" * 100] * 100})
    capped, cut = cap_answer(text, 1000, json_mode=True, command="select")
    body = json.loads(capped)
    assert cut and body["success"] is False and body["command"] == "select"
    assert body["errors"][0]["code"] == "ANSWER_TOO_LARGE"


def test_problem_lines_share_the_answers_room_and_the_first_always_shows() -> None:
    long = "".join(f"!{'x' * 1000}{n}.md FILE_NOT_FOUND: no such file\n" for n in range(60))
    capped = cap_problem_lines(long, 50, room=5000)
    kept = [line for line in capped.splitlines() if line.startswith("!")]
    assert len(kept) == 4 and len(capped) < 5200
    assert capped.splitlines()[-1] == "… 56 more problems not shown (MDSEL_MAX_PROBLEMS)"
    one = "!" + "y" * 9000 + ".md FILE_NOT_FOUND: no such file\n"
    assert cap_problem_lines(one, 50, room=100) == one  # the first problem, whatever its size
    assert cap_problem_lines(problem_lines(3), 50, room=10_000) == problem_lines(3)


def test_a_first_line_longer_than_the_answer_is_cut_inside_it() -> None:
    text = "z" * 5000 + "\nsecond\n"
    capped, cut = cap_answer(text, 1000, json_mode=False, command="select")
    body, notice = capped.rstrip("\n").rsplit("\n", 1)
    assert cut and len(capped) <= 1000 and body and text.startswith(body)
    assert notice.startswith(f"… answer cut at {len(body)} of {len(text)} characters")


def test_the_advice_fits_the_command() -> None:
    capped, _ = cap_answer("x\n" * 1000, 100, json_mode=True, command="index")
    message = json.loads(capped)["errors"][0]["message"]
    assert "over MDSEL_MAX_ANSWER_CHARS" in message and "MDSEL_FORMAT=text" in message
    assert "selector" not in message  # mdsel_index takes none
    capped, _ = cap_answer("x\n" * 1000, 200, json_mode=False, command="index")
    assert "ask for fewer files" in capped and "selector" not in capped
    capped, _ = cap_answer("x\n" * 1000, 200, json_mode=False, command="select")
    assert "a narrower selector" in capped


def test_a_cut_keeps_the_problem_lines_that_say_why_the_call_failed() -> None:
    shown = "".join(f"line {n}\n" for n in range(500))
    problems = "!missing.md FILE_NOT_FOUND: no such file; check the path\n"
    text = shown + problems
    capped, cut = cap_answer(text, 600, json_mode=False, command="select", problems=problems)
    assert cut and len(capped) <= 600
    assert capped.endswith("\n" + problems)  # whole, at the end
    body, notice = capped[: -len(problems)].rstrip("\n").rsplit("\n", 1)
    assert shown.startswith(body + "\n")
    assert notice.startswith(f"… answer cut at {len(body) + 1 + len(problems)} of {len(text)} ")
    # Problems that would take more than half the room are cut with the rest, as before.
    many = "".join(f"!m{n}.md FILE_NOT_FOUND: no such file\n" for n in range(40))
    capped, cut = cap_answer(shown + many, 600, json_mode=False, command="select", problems=many)
    assert cut and len(capped) <= 600 and capped.startswith("line 0\n")
    assert "!m39.md" not in capped


@given(
    st.lists(st.text(alphabet="ab \n", max_size=60), max_size=40),
    st.text(alphabet="!p \n", max_size=120),
    st.integers(1, 400),
)
@settings(max_examples=500, deadline=None)
def test_a_cut_answer_never_passes_the_limit_and_says_it_was_cut(
    pieces: list[str], problems: str, limit: int
) -> None:
    text = "".join(pieces) + problems
    capped, cut = cap_answer(text, limit, json_mode=False, command="select", problems=problems)
    assert len(capped) <= limit
    if len(text) <= limit:
        assert (capped, cut) == (text, False)
        return
    assert cut
    if "(MDSEL_MAX_ANSWER_CHARS)" not in capped:  # a limit too small for the whole notice
        assert len(capped) == limit and capped.startswith("… answer cut at "[:limit])
        return
    at = capped.index("… answer cut at ")
    shown, rest = capped[:at], capped[at:]
    assert text.startswith(shown) or (text.startswith(shown[:-1]) and shown.endswith("\n"))
    notice, _, kept = rest.partition("\n")
    assert "(MDSEL_MAX_ANSWER_CHARS)" in notice
    assert kept in ("", problems)
