"""Long-running entry points, side by side, each ``python -m server.processes.X``:

    serve      every process of the embedded setup under one parent
               (``bash scripts/serve.sh``): migrate, web, sender, scheduler,
               and the development mail catcher
    scheduler  sweeps the clocks: reminders, timeouts, vacations, digests
    sender     drains the outbox over SMTP
    catcher    the development mail catcher (SMTP on loopback into a folder)
    receiver   SMTP/LMTP server the mail server hands replies to
    imap_poller  reads replies from a hosted mailbox over IMAP
    logs       the logging every process sets up (LOG_LEVEL, LOG_FORMAT)
    backoff    waiting out a database that is down: one log line per failure

The installed package runs each as ``pbem <name>`` (server/cli.py).

A process wires settings, database and mailer together and calls services/
and mail/; nothing imports a process, and a process imports nothing of web/.
"""
