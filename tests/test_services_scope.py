"""``use_services`` is scoped to the caller's context (thread or task), not the process."""

from __future__ import annotations

import asyncio
import threading
from typing import cast

from grace.services import Services, get_services, use_services


def _fake(name: str) -> Services:
    # get_services only hands the object back: identity is all these tests look at.
    return cast(Services, type(name, (), {})())


def test_two_threads_see_their_own_services_at_the_same_time() -> None:
    mine, theirs = _fake("mine"), _fake("theirs")
    both_inside = threading.Barrier(2)
    seen: dict[str, Services] = {}

    def other_thread() -> None:
        with use_services(theirs):
            both_inside.wait()
            seen["other"] = get_services()
            both_inside.wait()

    with use_services(mine):
        worker = threading.Thread(target=other_thread)
        worker.start()
        both_inside.wait()
        seen["main"] = get_services()
        both_inside.wait()
        worker.join()
    assert seen["main"] is mine and seen["other"] is theirs


def test_tasks_keep_their_own_services_and_nesting_restores_the_outer() -> None:
    outer, inner = _fake("outer"), _fake("inner")

    async def task(services: Services) -> Services:
        with use_services(services):
            await asyncio.sleep(0)
            return get_services()

    async def main() -> list[Services]:
        with use_services(outer):
            results = await asyncio.gather(task(inner), asyncio.sleep(0, get_services()))
            return [*results, get_services()]

    first, during, after = asyncio.run(main())
    assert first is inner and during is outer and after is outer
