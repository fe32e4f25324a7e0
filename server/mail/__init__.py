"""Mail: everything between the server and a mailbox.

    compose.py        Mailer: renders mail_templates/ into outbox rows, in the
                      caller's transaction (a move and its mails commit together)
    smtp_sender.py    drains the outbox over SMTP with retries (the sender process):
                      statuses queued/deferred/sent/bounced/failed, leases of seconds
    bounces.py        signed return paths (bounce+<token>@BOUNCE_DOMAIN) and
                      reading a delivery status notification
    links.py          the signed links mails carry (seat, join, account, unsubscribe)
    signed_addresses.py  signed mail addresses: the scheme reply addresses
                      and return paths share
    catcher.py        the development mail catcher (SMTP on loopback into a folder)
    catcher_pages.py  /dev/mail: the pages that show what it caught, with a
                      Reply form that mails an answer to the receiver
    reply_address.py  signed reply addresses (play+<base32 token>@REPLY_DOMAIN)
    inbound.py        reading an incoming mail: sender, recipients, whether a
                      machine sent it, the command lines at its top

May import the bottom layer (models, db, settings) only: services call
mail, never the other way round.
"""
