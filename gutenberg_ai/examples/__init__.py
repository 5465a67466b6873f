"""Examples of bots of your own (docs/your-bot.md)."""
