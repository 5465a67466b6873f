"""Examples of bots of your own (docs/your-bot.md): flat_mc, flat Monte Carlo; rl_policy, a
masked policy trained through the reinforcement-learning environment (docs/rl.md)."""
