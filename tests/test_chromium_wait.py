"""scripts/test installs Chromium in the background while the venv is made and the tests
that need no browser run; the browser tests' first launch waits for it (tests/conftest.py)."""

from __future__ import annotations

import threading

import pytest

from tests.conftest import wait_for_chromium


def test_no_install_running_means_no_wait():
    wait_for_chromium("", timeout=0)


def test_the_wait_ends_when_the_install_writes_its_status(tmp_path):
    status = tmp_path / "status"
    threading.Timer(0.3, status.write_text, args=("0\n",)).start()
    wait_for_chromium(str(status), timeout=10)
    assert status.read_text() == "0\n"


def test_a_failed_install_fails_the_test_with_apts_output(tmp_path):
    (tmp_path / "log").write_text("E: Unable to locate package chromium-headless-shell\n")
    (tmp_path / "status").write_text("100\n")
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_for_chromium(str(tmp_path / "status"), timeout=10)
    assert "exit 100" in str(failed.value)
    assert "Unable to locate package chromium-headless-shell" in str(failed.value)


def test_an_install_that_never_ends_fails_after_the_timeout(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="still runs after 0 s"):
        wait_for_chromium(str(tmp_path / "status"), timeout=0.2)
