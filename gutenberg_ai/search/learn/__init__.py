"""Learned evaluations and priors, from self-play (docs/learning.md); the self-play
games themselves are a tool (gutenberg_ai.tools.selfplay).

    gutenberg-ai selfplay --game gutenberg --players 2 --games 400 --out sp/   # records with visits
    gutenberg-ai train sp/ --out gutenberg-gen1.npz                          # PyTorch, the [learn] extra
    gutenberg-ai arena --bots ismcts,learned ...                              # the search with the model

dataset    the records as training data: observation features, the heuristic's
           judgement, the outcome and the search's visits
train      a small network (value and policy heads) fitted with PyTorch, written as a
           weights file that the compiled search reads (no PyTorch needed to play)
model      the weights file: its format, its checks, the weights shipped per game
"""
