"""The ``pbem`` command of the installed package: the processes and the
administration, one subcommand each, working from any folder:

    pbem migrate       create or update the tables
    pbem serve         everything on the embedded defaults (scripts/serve.sh)
    pbem web           gunicorn with the shipped config/gunicorn.conf.py
    pbem scheduler     the clocks        pbem sender       the outbox
    pbem receiver      replies by SMTP   pbem imap-poller  replies by IMAP
    pbem catcher       the development mail catcher
    pbem make-moderator EMAIL
    pbem deploy-files DIR   the systemd units, nginx site, settings, Postfix and Exim files
    pbem dns-records --mail-host HOST   the DNS records to publish
    pbem backup FILE   pbem restore FILE   pbem verify [GAME…]
    pbem purge         what is past its retention window, once
    pbem catalogs GAME [extract|update|compile]   a plug-in game's own catalogs
    pbem routes, pbem shell

``pbem --env-file FILE …`` reads the settings from the file the services
read (server/envfile.py).  Listing the commands (``--help``) and
``--version`` build no app: they read no settings and write no file.  A
command that needs the database first checks it is there and migrated
(server/database_check.py) and otherwise says so in one line.
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
import sys

import click
from flask import current_app
from flask.cli import FlaskGroup, ScriptInfo, routes_command, shell_command

from server import create_app, envfile
from server.settings import GUNICORN_CONFIG, exit_on_settings_error
from server.version import pbem_version


def _app():
    with exit_on_settings_error():
        return create_app()


def _read_env_file(ctx, param, value):
    if value is not None:
        try:
            envfile.load(value)
        except envfile.EnvFileError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return value


class PbemGroup(FlaskGroup):
    """Flask's command group (an app context for the commands that need
    one) without Flask's --app, --debug and dotenv options and its
    development server, whose commands are listed without loading the app."""

    def __init__(self, **extra):
        super().__init__(
            create_app=_app,
            add_default_commands=False,
            add_version_option=False,
            load_dotenv=False,
            set_debug_flag=False,
            **extra,
        )
        self.params = [p for p in self.params if p.name not in ("env_file", "app", "debug")]
        self.params[:0] = [
            click.Option(
                ["-e", "--env-file"],
                metavar="FILE",
                expose_value=False,
                is_eager=True,
                callback=_read_env_file,
                type=click.Path(dir_okay=False),
                help="Read the settings from FILE (NAME=value lines, the format of "
                "systemd's EnvironmentFile, e.g. /etc/pbem/env); variables "
                "already set in the environment win.",
            ),
            click.Option(
                ["--version"],
                is_flag=True,
                expose_value=False,
                is_eager=True,
                callback=_print_version,
                help="Print the version and exit.",
            ),
        ]
        self.context_settings.pop("auto_envvar_prefix", None)

    def list_commands(self, ctx):
        return sorted(self.commands)

    def get_command(self, ctx, name):
        # Only our own commands: Flask's lookup in the app's commands would
        # load the app for a typo too.
        return self.commands.get(name)


def _print_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(f"pbem {pbem_version()}")
        ctx.exit()


@click.group(cls=PbemGroup)
def pbem():
    """pbem, a play-by-email turn server: its processes and administration."""


def needs_database(command: click.Command) -> click.Command:
    """``command`` run inside the app, once the database is there and
    migrated; otherwise one line says what is missing (exit status 1)."""
    from server.database_check import why_not_ready

    wrapped = copy.copy(command)
    original = command.callback
    if original is None:
        raise TypeError(f"the command {command.name} has nothing to run")

    @functools.wraps(original)
    def callback(*args, **kwargs):
        app = click.get_current_context().ensure_object(ScriptInfo).load_app()
        with app.app_context():
            problem = why_not_ready(current_app.config)
            if problem:
                raise click.ClickException(problem)
            return original(*args, **kwargs)

    wrapped.callback = callback
    return wrapped


def _process(name: str, module: str, help_text: str, check_database: bool = True):
    """A subcommand that runs ``python -m server.processes.<module>`` in this
    process, handing it the remaining arguments."""

    @click.command(
        name,
        help=help_text,
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    @click.pass_context
    def run(ctx):
        sys.argv = [f"pbem {name}", *ctx.args]
        entry = importlib.import_module(f"server.processes.{module}")
        raise SystemExit(entry.main() or 0)

    pbem.add_command(needs_database(run) if check_database else run)


_process(
    "serve",
    "serve",
    "Run everything on the embedded defaults and print the address.",
    check_database=False,
)  # it migrates first
_process("scheduler", "scheduler", "Sweep the clocks: reminders, timeouts, digests.")
_process("sender", "sender", "Send the outbox over SMTP, with retries.")
_process("receiver", "receiver", "Take replies from the mail server (SMTP or LMTP).")
_process("imap-poller", "imap_poller", "Read replies from an IMAP mailbox.")
_process(
    "catcher",
    "catcher",
    "The development mail catcher: --dir FOLDER --port PORT.",
    check_database=False,
)


@pbem.command(
    "web",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.pass_context
def web(ctx):
    """Serve the pages with gunicorn and the shipped gunicorn.conf.py; any
    further arguments go to gunicorn (e.g. --bind 0.0.0.0:8000)."""
    os.execv(
        sys.executable,
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(GUNICORN_CONFIG),
            *ctx.args,
            "server.wsgi:app",
        ],
    )


pbem.add_command(needs_database(web))


@pbem.command("migrate")
@click.pass_context
def migrate(ctx):
    """Create or update the tables."""
    from server import db

    ctx.ensure_object(ScriptInfo).load_app()
    for name in db.migrate():
        click.echo(f"applied {name}")
    click.echo("database is up to date")


@pbem.command("deploy-files")
@click.argument("folder", type=click.Path(file_okay=False))
def deploy_files(folder):
    """Write the systemd units, the nginx site and the settings file of the
    README's Deploy steps, and the Postfix and Exim files for REPLY_DOMAIN and
    BOUNCE_DOMAIN, into FOLDER (never over an existing file)."""
    from server import settings as settings_module
    from server.deploy_files import write_all

    with exit_on_settings_error():  # no key file made for this: it is not used
        settings = settings_module.load(overrides={"SECRET_KEY": "unused"})
    try:
        for path in write_all(folder, settings):
            click.echo(f"wrote {path}")
    except FileExistsError as exc:
        raise click.ClickException(f"{exc.filename} exists already: nothing written") from None


@pbem.command("dns-records")
@click.option("--mail-host", required=True, help="The host name Postfix answers as (MX target).")
@click.option("--ip", "addresses", multiple=True, help="Its public address (repeat for IPv6).")
def dns_records(mail_host, addresses):
    """Print the DNS records to publish for the configured domains: MX, SPF,
    DKIM (from DKIM_PRIVATE_KEY_FILE), DMARC, and a note on PTR."""
    from server import dns_records as records_module
    from server import settings as settings_module

    with exit_on_settings_error():
        settings = settings_module.load(overrides={"SECRET_KEY": "unused"})
    try:
        lines = records_module.records(settings, mail_host, list(addresses))
    except records_module.RecordsError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo("\n".join(lines))


@pbem.command("catalogs")
@click.argument("game")
@click.argument("steps", nargs=-1, type=click.Choice(["extract", "update", "compile"]))
@click.option(
    "-l", "--language", "languages", multiple=True, metavar="CODE",
    help="A language to update (repeat); default: every language pbem speaks.",
)  # fmt: skip
def catalogs(game, steps, languages):
    """Extract, update or compile the catalogs of an installed game: GAME is
    its name or its folder.  Without a step: extract, then update (translate
    the new entries, then run it again with compile)."""
    from server import catalogs as catalogs_module

    try:
        found = catalogs_module.find(game)
        click.echo(f"{found.domain}: {found.folder}")
        catalogs_module.run(
            found,
            steps or ("extract", "update"),
            languages or catalogs_module.translated_languages(),
        )
    except catalogs_module.CatalogError as exc:
        raise click.ClickException(str(exc)) from None


def _administration() -> None:
    from server.services.backup import backup_command, restore_command
    from server.services.erasure import erase_command
    from server.services.ratings import rebuild_command
    from server.services.retention import purge_command
    from server.services.verify import verify_command
    from server.web.moderation import make_moderator

    pbem.add_command(needs_database(make_moderator))
    for command in (backup_command, restore_command, verify_command):  # README "Operations"
        pbem.add_command(command)
    pbem.add_command(needs_database(rebuild_command))  # README "Ratings"
    pbem.add_command(needs_database(erase_command))  # docs/operators: requests about data
    pbem.add_command(needs_database(purge_command))  # docs/operators/privacy.md
    pbem.add_command(routes_command, "routes")
    pbem.add_command(shell_command, "shell")


_administration()


def main() -> None:
    pbem(prog_name="pbem")


if __name__ == "__main__":  # python -m server.cli, where no pbem script is on the PATH
    main()
