"""Services: what the server does, one module per noun it owns.

    games          the lobby: create, invite, join a seat, options, start
    moves          ``play()``: the one function that applies an action
    acting         may this person act for this seat now: one answer for the game
                   page, the mail replies and the API
    state_store    a game's state: the snapshot when current, else a replay of the log
    what_a_seat_sees  what one seat (or a spectator) sees of a game: board,
                   log, table talk, names, as plain data for pages and mails
    visibility     whether a viewer may see a game at all (page, record, API)
    moderation     moderators' actions on a game, and a player's resignation
    proposals      what a host who plays may do only with every other player's yes
    table_talk     players' messages to the table, and a moderator hiding one
    attention      the moderators' dashboard: games that need attention
    clock/         time: when a clock runs (running_hours), one seat's clock on
                   its player's own time (own_time), a player's reminder and quiet
                   hours (mail_hours), deadlines and reminders (deadlines), whether
                   a player was reached (reach), vacations, while_away,
                   outage_guard, stale_lobbies, and what the scheduler does each
                   time it wakes up (sweep)
    outbox         what became of the mails in the outbox: sender runs with the
                   clocks kept, bounces, a seat's clock held while its turn mail
                   does not get through, failing mails and retries
    accounts       creating accounts, checking passwords, session tokens
    sessions       browser sessions kept on the server: sign-out ends every copy
    preferences    a player's settings: time zone, which mails, mail schedule
    replies        mail replies come in: kept once, authenticated or held, handed on
    move_replies   moves by mail reply, and the answer to each
    lobby_replies  lobby commands by mail (/join, /leave, /start, /option)
    talk_replies   table talk by mail
    question_replies  a question (takeback, proposal, rematch) answered by mail
    reply_results  what a reply comes to: its Result, a refusal, the hourly cap
    reply_menu     what a mail offers a seat to answer: numbered choices, holdings,
                   the signed reply address
    health         what /readyz checks: database, migrations, heartbeats, outbox
    metrics        the Prometheus metrics: counters, histograms, database gauges
    verify         ``pbem verify``: event logs replayed against snapshots
    backup         ``pbem backup`` / ``pbem restore``

Every function here works without a request: the web pages, the scheduler
and the tests all call the same ones.  May import mail/ and the bottom layer
(models, db, settings) and each other; never web/ or processes/.
"""
