"""Bad command-line input: one line on stderr, exit code 2, no traceback."""

import signal
import subprocess
import sys

import pytest


def arena(*args):
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["nosuchcommand"], ["bots", "--no-such-option"]])
def test_usage_errors_are_one_line(args):
    r = arena(*args)
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr + r.stdout


def test_no_arguments_prints_help():
    r = arena()
    assert r.returncode == 0 and "Usage" in r.stdout


def test_a_command_still_running_after_ctrl_c_exits_130_within_the_grace():
    """The Ctrl-C watchdog: a teardown that hangs after the interrupt ends the process anyway."""
    import time
    code = ("import os, signal, time\n"
            "import arena.cli.app as app\n"
            "app.STOP_GRACE = 1.0\n"
            "signal.signal(signal.SIGINT, app._on_stop_signal)\n"
            "try:\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(5)\n"
            "except KeyboardInterrupt:\n"
            "    time.sleep(120)  # a teardown that never ends\n")
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=100)
    assert r.returncode == 130 and "exiting now (finished games are stored)" in r.stderr
    assert time.monotonic() - t0 < 100 and "Traceback" not in r.stderr


@pytest.mark.slow
def test_the_ctrl_c_watchdog_stands_down_when_main_returns():
    """A caller of ``main`` in the same process (a test) lives on after an interrupted command
    returned; a second interrupted call arms the watchdog again."""
    # SIGINT back to Python's handler first: a test run started in the background inherits it ignored
    code = ("import os, signal, sys, time\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "import arena.cli.app as app\n"
            "app.STOP_GRACE = 1.0\n"
            "def interrupted(argv):\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(5)\n"
            "app._main = interrupted\n"
            "try:\n"
            "    app.main([])\n"
            "except KeyboardInterrupt:\n"
            "    pass\n"
            "time.sleep(4)  # past the grace: the first call's watchdog is gone\n"
            "print('alive', flush=True)\n"
            "def hangs(argv):\n"
            "    try:\n"
            "        interrupted(argv)\n"
            "    except KeyboardInterrupt:\n"
            "        time.sleep(120)  # a teardown that never ends\n"
            "app._main = hangs\n"
            "app.main([])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=100)
    assert r.stdout == "alive\n" and r.returncode == 130 and r.stderr.count("exiting now") == 1, (r.stdout, r.stderr)


def test_a_usage_error_shows_non_utf8_bytes_as_bytes(capsys):
    """An unknown command or option given in bytes that are not UTF-8 (``arena $'\\xff'``)
    reads ``\\xff`` in the one-line error, not the surrogate escape ``\\udcff``."""
    from arena.cli.app import main

    for argv, needle in ((["\udcff"], "No such command '\\xff'"), (["solve", "--\udcff"], "No such option: --\\xff")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and needle in err and "udc" not in err and err.count("\n") == 1


def test_a_forked_child_keeps_sigterms_default_action():
    """``arena run``'s SIGTERM handler (stop as after Ctrl-C) is inherited by its forked pool
    workers: there a SIGTERM raised ``KeyboardInterrupt`` in the bot, stored as the bot's
    exception fault; it must end the worker as before (its game replayed)."""
    code = ("import os, signal, sys, time\n"
            "import arena.cli.app as app\n"
            "def forks(argv):\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        try:\n"
            "            time.sleep(60)\n"
            "        finally:\n"
            "            os._exit(7)\n"
            "    time.sleep(0.5)\n"
            "    os.kill(pid, signal.SIGTERM)\n"
            "    status = os.waitpid(pid, 0)[1]\n"
            "    print(os.WIFSIGNALED(status) and os.WTERMSIG(status), flush=True)\n"
            "app._main = forks\n"
            "app.main([])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=100)
    assert r.stdout == f"{int(signal.SIGTERM)}\n", (r.stdout, r.stderr)


def test_an_error_quoting_a_key_typed_into_a_spec_prints_it_masked(monkeypatch, capsys):
    """Whichever check quotes a spec (the field check, an engine's start), ``main`` prints a
    key typed into it (``key_env=sk-...``) as ``***``: the key never reaches a terminal or a log."""
    import pytest as _pytest

    from arena.cli import app as cli_app
    from arena.errors import BotSpecError

    def refuse(**_kwargs):
        raise BotSpecError("bot 'gpt=llm:model=x,key_env=sk-TYPED-0123456789' was not made within 30s")

    monkeypatch.setattr(cli_app, "app", refuse)
    with _pytest.raises(SystemExit) as ended:
        cli_app.main(["run"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "sk-TYPED" not in err and "key_env=***" in err
