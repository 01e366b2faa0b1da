"""``--hypothesis-profile=explore`` explores more in every test, including the tests that set
their own ``max_examples`` (the conftest hook scales each budget by the profile)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import conftest


def _test_with_own_budget() -> Any:
    @settings(max_examples=10, deadline=None)
    @given(st.integers())
    def probe(x: int) -> None:
        del x

    return probe


def _run_hook(profile: str, test: Any) -> int:
    previous = settings.default
    settings.load_profile(profile)
    try:
        conftest.pytest_collection_modifyitems(None, [SimpleNamespace(function=test)])
    finally:
        settings.register_profile("_restore", previous)
        settings.load_profile("_restore")
    return int(test._hypothesis_internal_use_settings.max_examples)


def test_explore_scales_a_tests_own_budget() -> None:
    """explore asks for 300 examples where Hypothesis's default is 100: three times each
    test's own budget."""
    assert _run_hook("explore", _test_with_own_budget()) == 30


def test_the_repeatable_profile_leaves_budgets_alone() -> None:
    """The default profile keeps every test's budget, so CI draws what it always drew."""
    assert _run_hook("repeatable", _test_with_own_budget()) == 10
