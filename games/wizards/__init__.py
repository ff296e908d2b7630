"""The tarot wizards table: a game master's tables, campaigns, sessions and characters
(rules in ``games.engine.tarot_wizards``), played by web and by mail."""
