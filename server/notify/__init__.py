"""Chat and push notifications beside mail.

A player adds channels in Settings (apprise URLs: Discord, Slack, Matrix,
Telegram, ntfy, Pushover, JSON and form posts; or an http(s) URL: the
signed generic webhook), each with the events it wants and quiet hours; a
host may give a game one table channel that says whose turn it is.

Notices are outbox rows (``Outbox.channel``), written in the transaction of
what they tell of and delivered by the sender like mail: same statuses,
retries, backoff and claims (notify/notice_sender.py).

- crypto.py: sealing the URLs and signing keys, signing webhook bodies
- guard.py: no channel may point at a private or loopback address
- channels.py: checking, storing and listing channels
- texts.py: what a notice says, in the recipient's language
- notices.py: writing notices beside the mails
- transport.py: sending one notice (apprise, or the signed webhook)
- notice_sender.py: draining the notices from the outbox (the notice sender)

May import the bottom layer (models, db, settings, i18n) only: mail/ writes
notices beside its mails, services/ keeps the clocks when they get through.
"""
