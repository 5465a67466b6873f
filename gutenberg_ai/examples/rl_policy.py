"""A masked policy trained by reinforcement learning through the AEC environment
(gutenberg_ai.env, docs/rl.md), and the bot that plays it in the arena.

The policy is linear and softmax over the legal actions only (the action mask): action
a's logit is W[a] . observation. It is trained by REINFORCE in self-play, one policy for
every seat: after each game, each decision's log-probability is pushed up by that
seat's final reward less a running mean of the rewards (the baseline). numpy only.

    from gutenberg_ai.env import env
    from gutenberg_ai.examples import rl_policy
    policy = rl_policy.train(env(game="gutenberg"), episodes=20, seed=1)
    rl_policy.save(policy, "rl-policy.npz")

    gutenberg-ai arena --bots gutenberg_ai.examples.rl_policy:make_bot,heuristic \\
        --options '{"gutenberg_ai.examples.rl_policy:make_bot": {"weights": "rl-policy.npz"}}' ...

`train` speaks PettingZoo's API only (the env it is given) and the bot OpenSpiel's only,
as a researcher's code would: this module imports nothing of the project.
"""
from __future__ import annotations

import time

import numpy as np
import pyspiel

MAX_EPISODES = 1_000_000
MAX_SECONDS = 24 * 3600


def new_policy(n_observation: int, n_actions: int) -> np.ndarray:
    """The weights of a policy that plays uniformly among the legal actions."""
    return np.zeros((n_actions, n_observation), np.float32)


def action_probs(weights, observation, legal) -> np.ndarray:
    """The policy's probabilities of the legal actions (softmax of their logits)."""
    logits = weights[legal] @ observation
    p = np.exp(logits - logits.max())
    return p / p.sum()


def train(env, episodes: int = 100, seconds: float | None = None, seed: int = 0,
          learning_rate: float = 0.01, weights=None) -> np.ndarray:
    """Weights trained by REINFORCE in self-play on a PettingZoo AEC env whose
    observations are {"observation", "action_mask"}: `episodes` games, or as many as
    `seconds` allow (the first budget reached). Seeded: game k is reset(seed=seed + k)."""
    if not 1 <= episodes <= MAX_EPISODES:
        raise ValueError(f"episodes: {episodes} is out of range (1-{MAX_EPISODES})")
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"seconds: {seconds} is out of range (0-{MAX_SECONDS})")
    agent = env.possible_agents[0]
    n_obs = env.observation_space(agent)["observation"].shape[0]
    if weights is None:
        weights = new_policy(n_obs, env.action_space(agent).n)
    rng = np.random.default_rng(seed)
    baseline, deadline = 0.0, time.monotonic() + seconds if seconds else None
    for k in range(episodes):
        if deadline and time.monotonic() > deadline:
            break
        env.reset(seed=seed + k)
        steps, rewards = [], {}
        for name in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                rewards[name] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            p = action_probs(weights, observation["observation"], legal)
            i = int(rng.choice(len(legal), p=p))
            steps.append((name, observation["observation"], legal, p, i))
            env.step(int(legal[i]))
        for name, obs, legal, p, i in steps:
            # d log p(i) / d W[legal] = (onehot(i) - p) outer obs
            advantage = rewards.get(name, 0.0) - baseline
            grad = -p
            grad[i] += 1.0
            weights[legal] += (learning_rate * advantage) * np.outer(grad, obs).astype(np.float32)
        if rewards:
            baseline += 0.05 * (float(np.mean(list(rewards.values()))) - baseline)
    return weights


def save(weights, path: str) -> None:
    np.savez_compressed(path, weights=weights)


def load(path: str) -> np.ndarray:
    with np.load(path) as data:
        return data["weights"]


class PolicyBot(pyspiel.Bot):
    """Plays the policy's most probable legal action (greedy), from OpenSpiel's state."""

    def __init__(self, weights, seat: int):
        pyspiel.Bot.__init__(self)
        self.weights, self.seat = weights, seat

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        legal = state.legal_actions()
        observation = np.asarray(state.observation_tensor(self.seat), np.float32)
        return legal[int(np.argmax(self.weights[legal] @ observation))]


def make_bot(game, seat, seed, budget, weights: str = "rl-policy.npz"):
    """The factory (docs/your-bot.md): the policy saved at `weights`. It ignores the
    budget (it does not search) and the seed (it plays greedily)."""
    w = load(weights)
    expected = (game.num_distinct_actions(), game.observation_tensor_size())
    if w.shape != expected:
        raise ValueError(f"weights: {weights}: shape {w.shape} is not {expected} (another game's policy?)")
    return PolicyBot(w, seat)
