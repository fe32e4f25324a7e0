"""The ``pbem`` command of the installed package.

Every ``flask --app server`` command (``pbem migrate``, ``pbem routes``, the
administration group ``pbem pbem …``) plus the processes, one subcommand
each, so a deployment needs no path into the source tree:

    pbem serve         everything on the embedded defaults (scripts/serve.sh)
    pbem web           gunicorn with the shipped config/gunicorn.conf.py
    pbem scheduler     the clocks        pbem sender       the outbox
    pbem receiver      replies by SMTP   pbem imap-poller  replies by IMAP
    pbem catcher       the development mail catcher
    pbem make-moderator EMAIL
    pbem backup FILE   pbem restore FILE   pbem verify [GAME…]
"""
from __future__ import annotations

import os
import sys

import click
from flask.cli import FlaskGroup

from server import create_app
from server.settings import GUNICORN_CONFIG


def _app():
    return create_app()


@click.group(cls=FlaskGroup, create_app=_app, add_version_option=False,
             load_dotenv=False, set_debug_flag=False)
def pbem():
    """pbem, a play-by-email turn server: processes and administration."""


def _process(name: str, module: str, help_text: str):
    """A subcommand that runs ``python -m server.processes.<module>`` in this
    process, handing it the remaining arguments."""
    @pbem.command(name, help=help_text, add_help_option=False,
                  context_settings={"ignore_unknown_options": True,
                                    "allow_extra_args": True})
    @click.pass_context
    def run(ctx):
        import importlib
        sys.argv = [f"pbem {name}", *ctx.args]
        entry = importlib.import_module(f"server.processes.{module}")
        result = entry.main()
        raise SystemExit(result or 0)
    return run


_process("serve", "serve", "Run everything on the embedded defaults and print the address.")
_process("scheduler", "scheduler", "Sweep the clocks: reminders, timeouts, digests.")
_process("sender", "sender", "Send the outbox over SMTP, with retries.")
_process("receiver", "receiver", "Take replies from the mail server (SMTP or LMTP).")
_process("imap-poller", "imap_poller", "Read replies from an IMAP mailbox.")
_process("catcher", "catcher", "The development mail catcher: --dir FOLDER --port PORT.")


@pbem.command("web", add_help_option=False,
              context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def web(ctx):
    """Serve the pages with gunicorn and the shipped gunicorn.conf.py; any
    further arguments go to gunicorn (e.g. --bind 0.0.0.0:8000)."""
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONFIG),
                              *ctx.args, "server.wsgi:app"])


def main() -> None:
    from server.services.backup import backup_command, restore_command
    from server.services.verify import verify_command
    from server.web.moderation import make_moderator
    pbem.add_command(make_moderator)
    for command in (backup_command, restore_command, verify_command):   # README "Operations"
        pbem.add_command(command)
    pbem(prog_name="pbem")
