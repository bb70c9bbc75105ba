"""A small closed-loop load generator: N clients, each sending its next request when the last one answers.

Threads and http.client are enough here: a client spends its time waiting for the server, and
the server (gunicorn, the workers, PostgreSQL) is what is measured. gunicorn's sync workers close
the connection after each response; http.client then reconnects by itself, so every request
pays a TCP connect on loopback, on both sides alike.
"""

from __future__ import annotations

import http.client
import math
import threading
import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes | None
    headers: dict[str, str]


@dataclass
class RoundResult:
    seconds: float
    latencies: list[float] = field(default_factory=list)  # seconds, of the 2xx answers in the window
    errors: Counter = field(default_factory=Counter)  # status (or exception name) -> count
    error_bodies: list[str] = field(default_factory=list)  # a few, to show what went wrong
    drained: int = 0  # answers that came after the window closed: neither counted nor timed

    @property
    def ok(self) -> int:
        return len(self.latencies)


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def run_round(*, host: str, port: int, request: Request, clients: int, seconds: float) -> RoundResult:
    """Keep `clients` requests in flight for `seconds`; count what completes inside the window.

    Requests still in flight when the window closes are waited for (so the next round starts on an
    idle server) and their errors are kept, but they are not counted: in a closed loop, completions
    per second of a window is the throughput.
    """
    result = RoundResult(seconds=seconds)
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)
    window: dict[str, float] = {}

    def client() -> None:
        connection = http.client.HTTPConnection(host, port, timeout=120)
        barrier.wait()
        deadline = window["deadline"]
        try:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                try:
                    connection.request(request.method, request.path, body=request.body, headers=request.headers)
                    response = connection.getresponse()
                    body = response.read()
                    status = response.status
                except (OSError, http.client.HTTPException) as exc:
                    connection.close()
                    with lock:
                        result.errors[type(exc).__name__] += 1
                    time.sleep(0.05)
                    continue
                done = time.perf_counter()
                with lock:
                    if done > deadline:
                        result.drained += 1
                        if not 200 <= status < 300:
                            result.errors[str(status)] += 1
                    elif 200 <= status < 300:
                        result.latencies.append(done - sent)
                    else:
                        result.errors[str(status)] += 1
                    if not 200 <= status < 300 and len(result.error_bodies) < 5:
                        result.error_bodies.append(f"{status}: {body[:2000].decode(errors='replace')}")
        finally:
            connection.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    window["start"] = time.perf_counter()
    window["deadline"] = window["start"] + seconds
    barrier.wait()
    for thread in threads:
        thread.join()
    return result


@dataclass
class Side:
    """One side of a comparison (the logbook's endpoint or the baseline's), over all its rounds."""

    name: str
    request: Request
    rounds: list[RoundResult] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return sum(r.ok for r in self.rounds)

    @property
    def errors(self) -> Counter:
        total: Counter = Counter()
        for r in self.rounds:
            total.update(r.errors)
        return total

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.rounds)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def latencies(self) -> list[float]:
        return [latency for r in self.rounds for latency in r.latencies]

    def summary(self) -> dict:
        latencies = self.latencies
        p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
        return {
            "endpoint": f"{self.request.method} {self.request.path}",
            "requests": self.requests,
            "errors": sum(self.errors.values()),
            "errors_by_status": dict(self.errors),
            "seconds": round(self.seconds, 1),
            "rps": round(self.rps, 2),
            "p50_ms": round(p50 * 1000, 1) if p50 is not None else None,
            "p99_ms": round(p99 * 1000, 1) if p99 is not None else None,
            "rps_by_round": [round(r.ok / r.seconds, 2) for r in self.rounds],
        }
