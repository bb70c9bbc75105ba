"""The HTTP goals' clients (bench/floor.py runs them headless against gunicorn; the environment says
who signs where): a person signing inspections on the floor, the floor API read, and the heaviest page.

FastHttpUser (geventhttpclient) rather than HttpUser (requests): the clients share the 2 cores with
gunicorn, and a request costs locust several times less CPU this way (locust's documentation)."""

import itertools
import json
import os
import re
import time

from locust import FastHttpUser, constant, events, task

PEOPLE = itertools.cycle(os.getenv("BENCH_PEOPLE", "").split(","))
PASSWORD = os.getenv("BENCH_PASSWORD", "")
TABLE = os.getenv("BENCH_TABLE", "")
ITEMS = os.getenv("BENCH_ITEMS", "").split(",")
SIGNED_IN: list[str] = []
# Each signed step's wall time (ms) once everyone has signed in: locust's own percentiles are rounded
# (to 10 ms above 100 ms), too coarse for a 1.2 × goal; floor.py reads these.
STEPS: list[float] = []


@events.test_stop.add_listener
def steps_written(environment, **kwargs):
    if path := os.getenv("BENCH_STEPS_FILE"):
        with open(path, "w") as out:
            json.dump(STEPS, out)


class SignedIn(FastHttpUser):
    abstract = True
    wait_time = constant(0)  # a closed loop: each client sends its next request when the last is answered

    def on_start(self):
        self.username = os.getenv("BENCH_MANAGER") if getattr(self, "manager", False) else next(PEOPLE)
        page = self.client.get("/login/", name="sign-in").text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = {"username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": token}
        self.client.post("/login/", form, name="sign-in", headers=self.cookies(), allow_redirects=False)
        self.csrf = next(cookie.value for cookie in self.client.cookiejar if cookie.name == "csrftoken")
        SIGNED_IN.append(self.username)
        if len(SIGNED_IN) == self.environment.runner.target_user_count:
            self.environment.runner.stats.reset_all()  # the figures start when everyone has signed in
            STEPS.clear()

    def cookies(self) -> dict:
        """The cookies, sent by hand: production's are Secure, which the client keeps off plain HTTP."""
        return {"Cookie": "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.client.cookiejar)}


class FloorSigner(SignedIn):
    """Goal 1 and 2: the inspection form's POST, signed with the person's password, its redirect
    and the table page it leads to (one request in locust's figures: requests follows the redirect)."""

    @task
    def inspect(self):
        form = {"username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": self.csrf}
        form.update(dict.fromkeys(ITEMS, "pass"))
        started, failure = time.perf_counter(), None
        answer = self.client.post(
            f"/tables/{TABLE}/inspect/", form, name="POST", headers=self.cookies(), allow_redirects=False
        )
        where = answer.headers.get("Location")
        if answer.status_code != 302 or where != f"/tables/{TABLE}/":
            failure = RuntimeError(f"{answer.status_code} {where}")
        elif self.client.get(where, name="page", headers=self.cookies()).status_code != 200:
            failure = RuntimeError("the table page")
        took = (time.perf_counter() - started) * 1000
        if failure is None:
            STEPS.append(took)
        self.environment.events.request.fire(
            request_type="STEP",
            name="signed step",
            response_length=0,
            response_time=took,
            exception=failure,
            context={},
        )


class FloorReader(SignedIn):
    """Goal 7: the floor API (the tables and their state), alone or beside HeavyPage."""

    fixed_count = 1

    @task
    def floor(self):
        self.client.get("/api/tables/", name="floor API", headers=self.cookies())


class HeavyPage(SignedIn):
    """Goal 7: the compliance manager's heaviest pages, in a loop."""

    manager = True
    fixed_count = 1

    @task
    def labels(self):
        self.client.get("/manage/tables/labels/", name="heavy: labels", headers=self.cookies())

    @task
    def reports(self):
        self.client.get("/reports/", name="heavy: reports", headers=self.cookies())
