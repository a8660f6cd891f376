"""Real concurrency: work started in several threads at the same instant, each thread with its
own database connections (so on PostgreSQL each is its own session, and sees only committed
data). Tests using it need `@pytest.mark.django_db(transaction=True, ...)`."""

from __future__ import annotations

import threading

from django.db import connections


def in_threads(count: int, work) -> list:
    """Run work(i) in `count` threads released at the same instant; each closes its connections."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except BaseException as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert not any(isinstance(result, BaseException) for result in results), results
    return results
