"""Default settings of the pbem server.

Every name here can be overridden by an environment variable of the same name
(``SMTP_HOST=mail.example.org bash scripts/serve.sh``); see server/settings.py
for how strings are turned into the type of the default.  Secrets have no
default here on purpose: SECRET_KEY comes from the environment or from a key
file generated once in the instance folder.
"""

# Where the data lives.  A relative SQLite path is relative to the instance
# folder; ``postgresql://user:pass@host:5432/db`` selects PostgreSQL.
DATABASE_URL = "sqlite:///pbem.sqlite3"

# The address people reach the server at; every link in an email starts with it
# because mails are also written by processes that have no request (scheduler).
PUBLIC_BASE_URL = "http://127.0.0.1:5000"

# Outgoing mail.  SMTP_TLS: "none", "starttls" or "ssl".
SMTP_HOST = "127.0.0.1"
SMTP_PORT = 8025
SMTP_TLS = "none"
SMTP_USER = ""
SMTP_PASSWORD = ""
SMTP_TIMEOUT = 20
MAIL_FROM = "pbem <pbem@localhost>"
# Domain used in Message-IDs so threads stay stable whatever the SMTP relay.
MAIL_ID_DOMAIN = "pbem.localhost"

# The sender drains the outbox; a failed mail is retried with exponential
# backoff from SENDER_RETRY_BASE seconds up to SENDER_RETRY_MAX, then given up.
SENDER_INTERVAL = 2.0
SENDER_BATCH = 50
SENDER_MAX_ATTEMPTS = 8
SENDER_RETRY_BASE = 30
SENDER_RETRY_MAX = 3600

# Built-in mail catcher for development: caught mails are written to this folder
# (relative to the instance folder) and shown on /dev/mail.  Empty: off.
MAIL_CATCHER_DIR = ""

# Seat links in emails: how long a link stays valid (seconds).
SEAT_LINK_MAX_AGE = 30 * 24 * 3600
# Sign-in links in other emails (invitations, final scores).
SIGNIN_LINK_MAX_AGE = 30 * 24 * 3600

# Sessions and cookies.  Secure cookies need HTTPS; the embedded loopback mode
# turns it off through the environment (serve.sh), not here.
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
# Lax, not Strict: Strict drops the cookie when the user arrives from a mail link.
SESSION_COOKIE_SAMESITE = "Lax"
REMEMBER_COOKIE_SECURE = True
REMEMBER_COOKIE_HTTPONLY = True
REMEMBER_COOKIE_SAMESITE = "Lax"
REMEMBER_COOKIE_DURATION_DAYS = 30
PERMANENT_SESSION_LIFETIME_DAYS = 30

# A form opened from an email is often submitted days later; the CSRF token
# stays bound to the session, so it needs no time limit of its own.
WTF_CSRF_TIME_LIMIT = None

# Game defaults offered by the create-game form.
DEFAULT_MOVE_HOURS = 72
# Reminders: "half" = halfway through the time, a number = hours before the deadline.
DEFAULT_REMINDER_HOURS = "half,6"

# Clocks (the scheduler).  SCHEDULER_INTERVAL: seconds between sweeps.
SCHEDULER_INTERVAL = 30
# A seat that times out this many times in a row is marked absent: it then
# auto-passes at once until the player is back.
ABSENT_AFTER_TIMEOUTS = 3
# Days of vacation a player may declare per calendar year.
VACATION_DAYS_PER_YEAR = 21
# Local hour (in the player's time zone) at which a daily digest goes out.
DIGEST_HOUR = 7
