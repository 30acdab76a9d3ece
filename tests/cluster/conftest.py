"""The cluster tests need network namespaces (root, iproute2): skipped with the reason where they cannot
be made. The fault tests (marker ``faults``) take minutes: they run only when asked for with ``-m faults``
(``make test-cluster``); ``make test`` runs the harness's own tests here."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ours = [item for item in items if HERE in Path(str(item.path)).parents]
    if not ours:
        return
    from benchmarks.machines import unavailable

    reason = unavailable()
    asked = "faults" in (config.option.markexpr or "")
    for item in ours:
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))
        elif item.get_closest_marker("faults") and not asked:
            item.add_marker(pytest.mark.skip(reason="network faults take minutes: make test-cluster runs them"))
