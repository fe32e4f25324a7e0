"""Time: when a turn clock runs and for whom, deadlines and reminders, and
what the scheduler does when it wakes up (sweep).  Each module says what it
decides: running_hours (when a clock runs), own_time (one seat's clock on its
player's own time), mail_hours (a player's reminder and quiet hours),
deadlines (deadlines, reminders, absence), reach (whether a player was reached),
vacations, while_away, outage_guard, stale_lobbies, sweep.

Part of the services layer: may import the other services, mail/ and the
bottom layer (models, db, settings); never web/ or processes/."""
