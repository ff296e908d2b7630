"""Time controls: deadlines, reminders, time-outs, vacations, a day given.

``deadlines`` reads and moves a game's deadline (it calls ``games.services`` to end an
overdue game, never the other way round), ``actions`` is what a player does to a clock,
``tasks`` and ``receivers`` are when it happens. It mails through ``games.mail``.
"""
