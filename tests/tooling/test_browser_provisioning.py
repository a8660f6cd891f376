"""`make test` provisions the browser or stops with one line; CI cannot pass without them."""

from __future__ import annotations

import os
import subprocess
import sys

from tests import REPO_ROOT

A_BROWSER_TEST = "tests/browser/test_pages_csp.py"


def run_pytest(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", A_BROWSER_TEST, "-q", "-p", "no:cacheprovider"],
        cwd=REPO_ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_chromium_and_root_the_provisioner_stops_with_one_line_naming_the_package():
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bin/provision-chromium"],
        cwd=REPO_ROOT,
        env={**os.environ, "CHROMIUM": "/nonexistent/chromium"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "apt-get install chromium" in lines[0]


def test_present_chromium_needs_nothing():
    done = subprocess.run(
        ["bin/provision-chromium"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "CHROMIUM": sys.executable},
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_browser_tests_left_out_are_skipped_with_the_reason():
    done = run_pytest(SKIP_BROWSER_TESTS="1", REQUIRE_BROWSER_TESTS="0")
    assert done.returncode == 0, done.stdout
    assert "SKIPPED" in done.stdout and "SKIP_BROWSER_TESTS=1" in done.stdout
    assert " passed" not in done.stdout


def test_ci_fails_when_browser_tests_did_not_run():
    done = run_pytest(SKIP_BROWSER_TESTS="1", REQUIRE_BROWSER_TESTS="1")
    assert done.returncode == 1
    assert "browser tests did not run here" in done.stdout
