"""Default settings of the pbem server.

Every name here can be overridden by an environment variable of the same name
(``SMTP_HOST=mail.example.org bash scripts/serve.sh``).  Each name declares
its type (int, float, bool, str, or ``X | None``); server/settings.py parses
the environment's text by it and refuses to start on a value that does not
parse (bool: 1/0, true/false, yes/no, on/off; None: empty or "none").  A
name without a type stops the start too.  Secrets have no default here on
purpose: SECRET_KEY comes from the environment or from a key file generated
once in the instance folder.
"""

# Where the data lives.  A relative SQLite path is relative to the instance
# folder; ``postgresql://user:pass@host:5432/db`` selects PostgreSQL.
DATABASE_URL: str = "sqlite:///pbem.sqlite3"
# PostgreSQL connections each process keeps open and reuses (peewee's pool;
# 0: a new connection per request).  Mind PostgreSQL's max_connections:
# web workers x this, plus the schedulers and senders.
DATABASE_POOL_MAX: int = 8

# The address people reach the server at; every link in an email starts with it
# because mails are also written by processes that have no request (scheduler).
PUBLIC_BASE_URL: str = "http://127.0.0.1:5000"

# Outgoing mail.  SMTP_TLS: "none", "starttls" or "ssl".
SMTP_HOST: str = "127.0.0.1"
SMTP_PORT: int = 8025
SMTP_TLS: str = "none"
SMTP_USER: str = ""
SMTP_PASSWORD: str = ""
SMTP_TIMEOUT: int = 20
MAIL_FROM: str = "pbem <pbem@localhost>"
# Domain used in Message-IDs so threads stay stable whatever the SMTP relay.
MAIL_ID_DOMAIN: str = "pbem.localhost"

# The sender drains the outbox; a mail refused for now is retried with
# exponential backoff from SENDER_RETRY_BASE seconds up to SENDER_RETRY_MAX.
# After SENDER_MAX_ATTEMPTS it shows as failed (Settings, moderation page) but
# is still tried every SENDER_RETRY_MAX seconds unless the server refused it
# for good (5xx); mails that waited for an unreachable server all go out as
# soon as it answers again (checked every SENDER_PROBE_SECONDS).
SENDER_INTERVAL: float = 2.0
SENDER_BATCH: int = 50
SENDER_MAX_ATTEMPTS: int = 8
SENDER_RETRY_BASE: int = 30
SENDER_RETRY_MAX: int = 3600
SENDER_PROBE_SECONDS: float = 30.0
# A sender holds the mail it is sending for this many seconds (longer than
# one SMTP transaction takes): a sender that died is taken over after that.
SENDER_LEASE_SECONDS: float = 30.0
# After a database or SMTP error the sender waits, doubling up to this, and goes on.
SENDER_ERROR_BACKOFF_MAX: float = 60.0
# Chat and push notifications (server/notify, README "Notifications").  The
# channel URLs are stored encrypted with NOTIFY_KEY (any text; empty: derived
# from SECRET_KEY: changing either makes stored channels unreadable).
NOTIFY_KEY: str = ""
# A channel may not point at a private, loopback or link-local address (the
# server would post into its own network).  Only tests, or a site whose chat
# server lives beside it, turn this on.
NOTIFY_ALLOW_PRIVATE_HOSTS: bool = False
# Seconds to connect, and to wait for an answer, per notice.
NOTIFY_TIMEOUT: float = 10.0
# The sender spends at most this many seconds a round on notices (mail first).
NOTIFY_DRAIN_SECONDS: float = 20.0
# No destination (one chat room, one topic) gets more than NOTIFY_DESTINATION_MAX
# notices per NOTIFY_DESTINATION_WINDOW seconds; the rest come later.
NOTIFY_DESTINATION_MAX: int = 20
NOTIFY_DESTINATION_WINDOW: int = 600
# Channels one player may have.
NOTIFY_MAX_CHANNELS: int = 5
# "Send a test" per player.
RATELIMIT_NOTIFY_TEST_PER_USER: str = "3 per minute; 20 per day"
# Bounces: every mail's envelope sender is bounce+<signed token>@BOUNCE_DOMAIN,
# and mail for that domain must reach the receiver, which hands it to
# services/outbox.handle_bounce.  Empty: MAIL_FROM's address, no VERP.
BOUNCE_DOMAIN: str = ""

# Built-in mail catcher for development: caught mails are written to this folder
# (relative to the instance folder) and shown on /dev/mail.  Empty: off.
MAIL_CATCHER_DIR: str = ""

# Seat links in emails: how long a link stays valid (seconds).
SEAT_LINK_MAX_AGE: int = 30 * 24 * 3600
# Sign-in links in other emails (invitations, final scores).
SIGNIN_LINK_MAX_AGE: int = 30 * 24 * 3600

# Sessions and cookies.  Whether cookies are Secure is not a setting: it
# follows PUBLIC_BASE_URL (https: always Secure; http: never, or the browser
# would not send them back), see create_app.
SESSION_COOKIE_HTTPONLY: bool = True
# Lax, not Strict: Strict drops the cookie when the user arrives from a mail link.
SESSION_COOKIE_SAMESITE: str = "Lax"
REMEMBER_COOKIE_HTTPONLY: bool = True
REMEMBER_COOKIE_SAMESITE: str = "Lax"
REMEMBER_COOKIE_DURATION_DAYS: int = 30
PERMANENT_SESSION_LIFETIME_DAYS: int = 30

# HSTS: on an https site (PUBLIC_BASE_URL), browsers are told to use only
# https for this many seconds (0: no Strict-Transport-Security header), and
# for every subdomain too when HSTS_INCLUDE_SUBDOMAINS is on.
HSTS_MAX_AGE: int = 365 * 24 * 3600
HSTS_INCLUDE_SUBDOMAINS: bool = False

# The largest request body accepted (bytes); a bigger one gets a 413 page
# without being read.  Every form here fits in a few KB.
MAX_CONTENT_LENGTH: int = 64 * 1024

# Behind a reverse proxy: how many proxies in front set X-Forwarded-For,
# X-Forwarded-Proto and X-Forwarded-Host (werkzeug's ProxyFix).  0 = the header
# is ignored; set 1 only when a proxy you run really sets it, or clients can
# forge their address and scheme.
PROXY_FIX_X_FOR: int = 0
PROXY_FIX_X_PROTO: int = 0
PROXY_FIX_X_HOST: int = 0

# A form opened from an email is often submitted days later; the CSRF token
# stays bound to the session, so it needs no time limit of its own.
WTF_CSRF_TIME_LIMIT: int | None = None

# Game defaults offered by the create-game form.
DEFAULT_MOVE_HOURS: int = 72
# Reminders: "half" = halfway through the time, a number = hours before the deadline.
DEFAULT_REMINDER_HOURS: str = "half,6"
# The night offered by the create-game form for a clock that stops at night
# (local hours in each player's own time zone): from 23:00 to 07:00.
NIGHT_FROM_HOUR: int = 23
NIGHT_UNTIL_HOUR: int = 7

# Logging of the processes (scheduler, sender, receiver, poller, web): one
# line per event on stderr, at this level or above (DEBUG, INFO, WARNING, ERROR).
LOG_LEVEL: str = "INFO"

# Clocks (the scheduler).  SCHEDULER_INTERVAL: seconds between sweeps.
SCHEDULER_INTERVAL: int = 30
# Seconds between the scheduler's looks at seats bots play: practice games
# answer within that.
BOT_INTERVAL_SECONDS: int = 2
# A seat that times out this many times in a row is marked absent: it then
# auto-passes at once until the player is back.
ABSENT_AFTER_TIMEOUTS: int = 3
# Ratings (README, Ratings): a rating is marked provisional while its player
# has fewer rated games of that kind than this, or its uncertainty (sigma;
# a newcomer's is 8.3) is above this.
RATING_PROVISIONAL_GAMES: int = 5
RATING_PROVISIONAL_SIGMA: float = 7.0
# Days of vacation a player may declare per calendar year.
VACATION_DAYS_PER_YEAR: int = 21
# The outage guard: when no sweep ran for longer than this many seconds, the
# deadlines and reminders that fell in the gap move on by its length and the
# players are told (0 turns the guard off).
OUTAGE_GRACE_SECONDS: int = 600
# A turn that reaches its deadline without one reminder having gone out gets
# a last-call reminder and this many more hours (never a timeout unwarned).
LAST_CALL_HOURS: float = 2.0
# A player's request to take back their own move (services/takebacks.py)
# lapses when the other players have not all answered within this many hours;
# the clock of the seat to move stands still meanwhile.
TAKEBACK_HOURS: float = 24.0
# A rematch of a finished game (services/rematches.py) starts when every
# player asked said yes; when not all answered within this many hours it lapses.
REMATCH_HOURS: float = 72.0
# A turn mail that left the outbox this many seconds or more after it was
# written moves that seat's deadline on by its whole wait (the clock starts
# when the mail leaves).  However long a turn mail or last call waits, the
# seat is not timed out meanwhile: its clock stands still until it is out.
MAIL_WAIT_GRACE_SECONDS: int = 300
# Lobbies that never start: the host is reminded this many days after making
# the game, and it is closed (players told) this many days after (0: never).
LOBBY_REMIND_AFTER_DAYS: int = 14
LOBBY_CLOSE_AFTER_DAYS: int = 21
# Days a club's invitation link works (an admin may revoke every link sooner).
CLUB_INVITE_DAYS: int = 14
# Local hour (in the player's time zone) at which a daily digest goes out.
DIGEST_HOUR: int = 7

# Accounts.  Links that confirm an address (sign-up, a changed address) and
# reset a password, valid this many seconds; a reset link also stops working
# once used or once the password changes.
CONFIRM_LINK_MAX_AGE: int = 3 * 24 * 3600
RESET_LINK_MAX_AGE: int = 3600

# Rate limits (Flask-Limiter syntax: "5 per minute; 20 per hour"), counted per
# client address and, where an email address is typed in, per email address.
# The counts are shared by every web worker and machine: kept in the site's
# database ("pbem-db://", the default), or in Redis (redis://127.0.0.1:6379/0).
# "memory://" counts in each process apart (a warning at start says so).
RATELIMIT_STORAGE_URI: str = "pbem-db://"
# Sign-in counts failed attempts only: per client, per client and address,
# and per address from browsers that never signed in to it (so a stranger's
# guesses never lock the owner out of their own browser; web/rate_limits.py).
RATELIMIT_SIGNIN_PER_CLIENT: str = "20 per minute; 100 per hour"
RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS: str = "5 per minute; 20 per hour"
RATELIMIT_SIGNIN_PER_ADDRESS: str = "50 per hour; 200 per day"
RATELIMIT_SIGNUP_PER_CLIENT: str = "10 per hour"
RATELIMIT_MAIL_PER_ADDRESS: str = "3 per 10 minutes; 10 per day"
RATELIMIT_INVITE_PER_USER: str = "10 per hour; 50 per day"
RATELIMIT_NEW_LINK_PER_USER: str = "5 per hour"
# Clubs one user may found, and club invitation links one user may make
# (each new link is a POST by a club admin; services/clubs.py).
RATELIMIT_CLUB_FOUND_PER_USER: str = "3 per hour; 10 per day"
RATELIMIT_CLUB_INVITE_PER_USER: str = "10 per hour; 50 per day"
# Requests one personal access token may make to the API (/api/v1).
RATELIMIT_API_PER_TOKEN: str = "120 per minute; 3000 per hour"
# Requests without a valid token one client address may make to the API;
# past it the client is refused before any token is looked up.
RATELIMIT_API_AUTH_FAILURES: str = "20 per minute; 200 per hour"
# Prefix of the rate-limit keys in that store (several sites may share one).
RATELIMIT_KEY_PREFIX: str = "pbem"

# Mail sent on somebody's behalf (server/mail/limits.py), counted from the
# outbox in the database over the last 24 hours or hour, so the counts hold
# across web workers.  An invitation, table talk or answer over a limit is not
# sent; a user who asks for more is told so on the page, and nothing changes.
# Addresses one user may invite in 24 hours (all games together).
INVITES_PER_USER_PER_DAY: int = 30
# Invitation mails one address gets in 24 hours, whoever sends them.  The same
# for every address: a limit that differed for addresses with an account
# would tell a host whether one exists.  An invitation over it is held, not
# refused: it goes in one mail with the others held for the address once the
# limit allows (the scheduler's sweep).
INVITES_PER_ADDRESS_PER_DAY: int = 1
# Table-talk messages one player may post in an hour (all games together).
TALK_PER_USER_PER_HOUR: int = 20
# Table-talk mails one address gets in an hour; the messages over it ride
# along in that player's next turn mail or digest instead.
TALK_MAILS_PER_ADDRESS_PER_HOUR: int = 30
# Answers to mail replies that changed nothing or spoke to a lobby (the kinds
# a forged From: line can make the site send) one address with a confirmed
# account gets in an hour; the answers go to the reply's sender, so this is
# also the limit per user.  Answers to moves played are not counted.
# A lobby's host gets as many mails an hour telling who joined or left
# (counted apart from the answers).
ANSWERS_PER_ADDRESS_PER_HOUR: int = 30
# Answers one address that no confirmed account uses gets in 24 hours (a
# forged From: makes the site answer somebody who asked for nothing).
ANSWERS_PER_STRANGER_PER_DAY: int = 1

# Moves by mail reply.  Turn mails carry a signed Reply-To at this domain
# (play+<token>@REPLY_DOMAIN), and their plain text lists the choices,
# numbered; a reply with a number plays it.  Mail for this domain must reach
# the receiver (or the mailbox the IMAP poller reads).  Empty: replies off.
REPLY_DOMAIN: str = ""
# The receiver (python -m server.processes.receiver): an SMTP or LMTP server
# that the mail server hands the replies to.  RECEIVER_PROTOCOL: smtp or lmtp
# (deploy/env.example and pbem-receiver.service: lmtp, as the Postfix files
# of `pbem deploy-files` expect).
RECEIVER_HOST: str = "127.0.0.1"
RECEIVER_PORT: int = 8026
RECEIVER_PROTOCOL: str = "smtp"
# Outbound DKIM.  DKIM_PRIVATE_KEY_FILE: path to a PEM RSA private key; empty
# (the default): pbem signs nothing (the mail server may).  The public key is
# published under DKIM_SELECTOR._domainkey.DKIM_DOMAIN (empty: the From:
# domain); `pbem dns-records` prints that record.
DKIM_PRIVATE_KEY_FILE: str = ""
DKIM_SELECTOR: str = "pbem"
DKIM_DOMAIN: str = ""
# The IMAP poller (python -m server.processes.imap_poller): reads the replies
# from a hosted mailbox instead.  IMAP_TLS: "ssl", "starttls" or "none".
# Handled mails are marked seen and, when IMAP_DONE_FOLDER is set, moved there.
IMAP_HOST: str = ""
IMAP_PORT: int = 993
IMAP_TLS: str = "ssl"
IMAP_USER: str = ""
IMAP_PASSWORD: str = ""
IMAP_FOLDER: str = "INBOX"
IMAP_DONE_FOLDER: str = ""
IMAP_INTERVAL: float = 30.0
# Incoming mail larger than this is refused (the receiver answers 552 to the
# declared SIZE and to the data; the IMAP poller keeps it unread, as ignored).
# A reply is a few KB; the limit also bounds the time one mail can take.
INBOUND_MAX_BYTES: int = 256 * 1024
# Tests only, never on a site: "kill@after-record", "cut@mid-move", ... makes
# the receiver or the IMAP poller fail once at that step of handling a mail
# (server/processes/faults.py).  Empty: off.
FAULT_INJECTION: str = ""
# Who sent a reply.  The From: header proves nothing, so a reply, lobby
# command or table-talk reply acts at once only when the mail is
# authenticated for its From: address (server/mail/authentication.py);
# anything else is held and the account's own address is asked to confirm it.
# MAIL_AUTH_SERVERS: authserv-ids (comma separated) of the operator's own mail
# servers whose Authentication-Results header is trusted (the topmost one
# under that id; dmarc=pass or aligned dkim=pass), e.g. "mx.example.org" for
# OpenDMARC/rspamd on your Postfix, "mx.google.com" for a Gmail mailbox read
# by the IMAP poller.  Name only servers that remove such headers coming in.
MAIL_AUTH_SERVERS: str = ""
# Verify DKIM signatures here too (dkimpy), aligned with From: as the From:
# domain's DMARC record asks; DNS through MAIL_AUTH_DNS ("host" or
# "host:port"; empty: the system's resolver), each lookup at most
# MAIL_AUTH_DNS_TIMEOUT seconds and all lookups of one mail (DKIM keys and
# DMARC records) together at most MAIL_AUTH_DNS_BUDGET seconds.  The receiver
# checks mails in MAIL_AUTH_THREADS threads of their own, outside the
# database transaction, so a mail whose DNS does not answer holds up no other.
MAIL_AUTH_DKIM: bool = True
MAIL_AUTH_DNS: str = ""
MAIL_AUTH_DNS_TIMEOUT: float = 5.0
MAIL_AUTH_DNS_BUDGET: float = 6.0
MAIL_AUTH_THREADS: int = 32
# A held mail's confirmation address works once, for this many hours; an
# account is sent at most REPLY_CONFIRM_PER_HOUR confirmation requests an hour
# (more forged mails in its name are kept but neither played nor answered).
REPLY_CONFIRM_MAX_AGE_HOURS: int = 72
REPLY_CONFIRM_PER_HOUR: int = 5
# An account whose mails were refused this many times in the past hour gets
# no more refusals that hour (an auto-responder that does not say it is one
# would otherwise trade mails with the server forever).
REPLY_REFUSALS_PER_HOUR: int = 5
# A scheduler claims this many overdue seats at a time, for this many seconds:
# several schedulers share the work, and the claims of one that died run out
# within seconds for the others.  Reminders and digests go this many a batch.
SCHEDULER_BATCH: int = 20
SCHEDULER_LEASE_SECONDS: int = 20
SCHEDULER_REMINDER_BATCH: int = 500

# Keeping only what the game needs (services/retention.py; the /privacy page
# states these windows).  The scheduler purges every PURGE_INTERVAL_SECONDS
# (``pbem purge`` once, by hand), PURGE_BATCH rows per short transaction.
# After RETAIN_INBOUND_MAIL_DAYS an incoming mail's raw text is deleted (what
# became of it stays); RETAIN_SENT_MAIL_BODY_DAYS after a mail was sent its
# text and HTML bodies are (who, when, subject and delivery history stay);
# chat and push notices are deleted RETAIN_NOTICE_DELIVERIES_DAYS after they
# were written.  Ended sessions, expired or revoked API tokens and spent
# rate-limit counts go at every purge.
RETAIN_INBOUND_MAIL_DAYS: int = 30
RETAIN_SENT_MAIL_BODY_DAYS: int = 30
RETAIN_NOTICE_DELIVERIES_DAYS: int = 30
PURGE_INTERVAL_SECONDS: int = 3600
PURGE_BATCH: int = 500
# Who answers for the personal data on this site (the GDPR's "controller"),
# named on /privacy with how to reach them: a person or organisation, and an
# address or page.  Set both on a public site.
PRIVACY_CONTROLLER_NAME: str = ""
PRIVACY_CONTROLLER_CONTACT: str = ""

# Operations (README "Operations").  A scheduler, receiver or IMAP poller
# that meets a database error logs one line and waits before trying again,
# doubling from its interval up to this many seconds.
DATABASE_ERROR_BACKOFF_MAX: float = 60.0
# /readyz answers 503 when the scheduler's or the sender's last round
# (their heartbeats) is older than this many seconds (a few of their
# intervals: SCHEDULER_INTERVAL, SENDER_INTERVAL), or when the oldest mail
# still waiting in the outbox was written longer ago than READY_OUTBOX_MAX_AGE.
READY_SCHEDULER_MAX_AGE: int = 120
READY_SENDER_MAX_AGE: int = 120
READY_OUTBOX_MAX_AGE: int = 900
# /metrics (Prometheus) answers requests from the machine itself (loopback,
# not forwarded by a proxy) and requests carrying "Authorization: Bearer
# <METRICS_TOKEN>"; empty: loopback only.
METRICS_TOKEN: str = ""
# The log's form: "text" (one line per event, for people) or "json" (one
# JSON object per line: time, level, logger, message, and the traceback).
LOG_FORMAT: str = "text"
# Where the web server's access log goes (read by config/gunicorn.conf.py
# from the environment): "-" for stderr, or a file's path ("/dev/null": no
# access log).  Tokens in paths and query strings are masked in every line.
PBEM_ACCESS_LOG: str = "-"

# The processes themselves, read before the settings above apply.
# The instance folder: the SQLite file (a relative DATABASE_URL path), the
# generated secret key, caught mail; empty: instance/ in the checkout, or in
# the current folder for an installed package.
PBEM_INSTANCE: str = ""
# `pbem serve` (scripts/serve.sh): the web port on 127.0.0.1.  A taken port
# stops the start with a message; PUBLIC_BASE_URL follows it unless set.
PBEM_PORT: int = 5000
# `pbem web` (gunicorn, config/gunicorn.conf.py): the address to listen on,
# the worker processes (0: two per CPU plus one; `pbem serve` runs 2), the
# threads of each, and the proxies whose X-Forwarded-* gunicorn trusts.
PBEM_BIND: str = "127.0.0.1:8000"
PBEM_WORKERS: int = 0
PBEM_THREADS: int = 16
PBEM_FORWARDED_ALLOW_IPS: str = "127.0.0.1"
# scripts/serve.sh: 1 skips building the compiled engine (it builds when a C
# compiler and Python's headers are there; a failed build runs pure Python).
PBEM_NO_COMPILE: int = 0
# The folder where every process of a machine writes its metrics (read by
# prometheus_client itself); empty: `pbem web` makes a new temporary one.
PROMETHEUS_MULTIPROC_DIR: str = ""

# The API's long poll (GET /api/v1/wait): the longest one wait lasts, in
# seconds, whatever the client asks (up to 60); then it answers "timed out"
# and the client asks again.  Keep it below the proxy's read timeout and
# gunicorn's timeout (30).  Each open wait holds one thread of a gthread
# worker (config/gunicorn.conf.py: PBEM_THREADS).
API_WAIT_MAX_SECONDS: int = 25
# Waits one account, and one token, may hold open at once (over every worker).
API_WAITS_PER_ACCOUNT: int = 4
API_WAITS_PER_TOKEN: int = 2
# How often a waiting client's turns are looked up in the database, in seconds.
API_WAIT_POLL_SECONDS: float = 1.0

# The web's speed-ups (server/web/speedups.py: links remembered, sessions
# signed with one serializer, Flask's async check made once): 0 turns them
# all off, for a comparison or to rule them out when something looks wrong.
PBEM_SPEEDUPS: bool = True
