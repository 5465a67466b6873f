// Gutenberg as a native OpenSpiel game: a C++ Game/State over the GameState struct of
// ext/gutenberg_types.pxd, moved by the rule functions of ext/core.pyx.
//
// Not compiled on its own: src/unity.cpp includes it after the code Cython generates
// from _native.pyx, so the structs and the `gn_*` wrappers below are already defined.
//
//   import gutenberg_native, pyspiel
//   game = pyspiel.load_game("gutenberg_native", {"players": 2, "rounds": 6})
//
// Actions and chance outcomes are those of ext/core.pyx. Returns: the "win" mode of
// gutenberg_ai/game.py only (winners share, zero-sum). Words (ActionToString, ToString,
// ObservationString) come from Python, under the GIL, through api.pxi's CoreState;
// everything else runs in C++ without touching Python.

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_utils.h"

namespace open_spiel {
namespace gutenberg_native {

// The structs of ext/gutenberg_types.pxd, as Cython names them in the code above
// (`__pyx_t_<len><module>_<name>`: a rename in Cython would fail to compile here).
using GameState = __pyx_t_15gutenberg_types_GameState;
using Catalogue = __pyx_t_15gutenberg_types_Catalogue;

// A catalogue set from Python, and its index in _native._RULES (for the words).
struct CatalogueEntry {
  Catalogue cat;
  int id;
};

// The catalogue the next loaded game copies (set by _native.set_catalogue; not
// thread-safe). Never destroyed, so that no destructor runs after Python is gone.
std::shared_ptr<const CatalogueEntry>& CurrentCatalogue() {
  static auto* current = new std::shared_ptr<const CatalogueEntry>();
  return *current;
}

// gutenberg_ai.game.max_game_length
int LengthBound(int players, int rounds) {
  return 300 + players * (10 + rounds * 260);
}

const GameType kGameType{
    /*short_name=*/"gutenberg_native",
    /*long_name=*/"Gutenberg (native prototype)",
    GameType::Dynamics::kSequential,
    GameType::ChanceMode::kExplicitStochastic,
    GameType::Information::kImperfectInformation,
    GameType::Utility::kZeroSum,
    GameType::RewardModel::kTerminal,
    /*max_num_players=*/4,
    /*min_num_players=*/2,
    /*provides_information_state_string=*/true,
    /*provides_information_state_tensor=*/true,
    /*provides_observation_string=*/true,
    /*provides_observation_tensor=*/true,
    /*parameter_specification=*/
    {{"players", GameParameter(2)}, {"rounds", GameParameter(6)}}};

class GutenbergGame : public Game {
 public:
  explicit GutenbergGame(const GameParameters& params)
      : Game(kGameType, params),
        players_(ParameterValue<int>("players")),
        rounds_(ParameterValue<int>("rounds")),
        length_(LengthBound(players_, rounds_)),
        catalogue_(CurrentCatalogue()) {
    if (players_ < 2 || players_ > 4) {
      SpielFatalError(absl::StrCat("gutenberg_native: players: ", players_,
                                   " is out of range (2-4)"));
    }
    if (rounds_ < 1 || rounds_ > 6) {
      SpielFatalError(absl::StrCat("gutenberg_native: rounds: ", rounds_,
                                   " is out of range (1-6)"));
    }
    if (catalogue_ == nullptr) {
      SpielFatalError(
          "gutenberg_native: no catalogue (import gutenberg_native, which sets "
          "the built-in one, or call gutenberg_native.set_catalogue)");
    }
    gn_init_state(&initial_, &catalogue_->cat, players_, rounds_);
  }

  int NumDistinctActions() const override { return GN_N_ACTIONS; }
  std::unique_ptr<State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return GN_N_CHANCE; }
  int NumPlayers() const override { return players_; }
  double MinUtility() const override { return -1.0; }
  double MaxUtility() const override { return 1.0; }
  absl::optional<double> UtilitySum() const override { return 0.0; }
  std::vector<int> ObservationTensorShape() const override {
    return {GN_OBS_SIZE};
  }
  // The observation, then one (actor, action) pair per history entry, as
  // gutenberg_ai.game.GutenbergObserver with perfect_recall=True.
  std::vector<int> InformationStateTensorShape() const override {
    return {GN_OBS_SIZE + 2 * length_};
  }
  int MaxGameLength() const override { return length_; }
  std::unique_ptr<State> DeserializeState(
      const std::string& str) const override;

  const Catalogue* catalogue() const { return &catalogue_->cat; }
  int catalogue_id() const { return catalogue_->id; }
  const GameState& initial() const { return initial_; }
  int length() const { return length_; }

 private:
  const int players_;
  const int rounds_;
  const int length_;
  const std::shared_ptr<const CatalogueEntry> catalogue_;  // shared by its states
  GameState initial_;
};

class GutenbergState : public State {
 public:
  explicit GutenbergState(std::shared_ptr<const Game> game)
      : State(game),
        cat_(static_cast<const GutenbergGame*>(game.get())->catalogue()),
        cat_id_(static_cast<const GutenbergGame*>(game.get())->catalogue_id()),
        s_(static_cast<const GutenbergGame*>(game.get())->initial()) {}
  GutenbergState(const GutenbergState&) = default;

  // The core's chance (-1) and terminal (-4) players are OpenSpiel's.
  Player CurrentPlayer() const override { return gn_current_player(&s_); }
  bool IsTerminal() const override { return s_.phase == GN_PH_TERMINAL; }

  std::vector<Action> LegalActions() const override {
    int buf[GN_MAX_LEGAL];
    int n;
    if (IsTerminal()) return {};
    if (IsChanceNode()) {
      double prob[GN_MAX_LEGAL];
      n = gn_chance_outcomes(&s_, cat_, buf, prob);  // in increasing order
    } else {
      n = gn_legal_actions(&s_, cat_, buf);  // sorted by the core
    }
    return std::vector<Action>(buf, buf + n);
  }

  ActionsAndProbs ChanceOutcomes() const override {
    SPIEL_CHECK_TRUE(IsChanceNode());
    int buf[GN_MAX_LEGAL];
    double prob[GN_MAX_LEGAL];
    int n = gn_chance_outcomes(&s_, cat_, buf, prob);
    ActionsAndProbs out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out.emplace_back(buf[i], prob[i]);
    return out;
  }

  std::vector<double> Returns() const override {
    std::vector<double> out(num_players_, 0.0);
    if (IsTerminal()) gn_win_returns(&s_, cat_, out.data());
    return out;
  }

  std::string ActionToString(Player player, Action action) const override {
    return gn_py_action_string(&s_, cat_id_, static_cast<int>(action));
  }
  std::string ToString() const override {
    return gn_py_state_string(&s_, cat_id_, -1);
  }
  std::string ObservationString(Player player) const override {
    CheckPlayer(player);
    return gn_py_state_string(&s_, cat_id_, player);
  }
  void ObservationTensor(Player player,
                         absl::Span<float> values) const override {
    CheckPlayer(player);
    SPIEL_CHECK_EQ(values.size(), GN_OBS_SIZE);
    gn_write_obs(&s_, player, values.data());
  }

  // "p<player> actor:action ...", the others' unrevealed plans as "?"
  // (gutenberg_ai.game.GutenbergObserver.string_from with perfect recall).
  std::string InformationStateString(Player player) const override {
    CheckPlayer(player);
    const size_t hidden_from = HiddenFrom();
    std::string out = absl::StrCat("p", player, " ");
    out.reserve(out.size() + 8 * history_.size());
    for (size_t i = 0; i < history_.size(); ++i) {
      if (i > 0) out.push_back(' ');
      absl::StrAppend(&out, history_[i].player, ":");
      if (i >= hidden_from && history_[i].player != player) {
        out.push_back('?');
      } else {
        absl::StrAppend(&out, history_[i].action);
      }
    }
    return out;
  }

  void InformationStateTensor(Player player,
                              absl::Span<float> values) const override {
    CheckPlayer(player);
    const int length = static_cast<const GutenbergGame*>(game_.get())->length();
    SPIEL_CHECK_EQ(values.size(), GN_OBS_SIZE + 2 * length);
    SPIEL_CHECK_LE(history_.size(), length);
    gn_write_obs(&s_, player, values.data());
    float* h = values.data() + GN_OBS_SIZE;
    std::fill(h, h + 2 * length, 0.0f);
    const size_t hidden_from = HiddenFrom();
    for (size_t i = 0; i < history_.size(); ++i) {
      const PlayerAction& pa = history_[i];
      h[2 * i] = static_cast<float>((pa.player + 2) / 6.0);
      h[2 * i + 1] =
          (i >= hidden_from && pa.player != player)
              ? -1.0f
              : static_cast<float>((pa.action + 1) /
                                   static_cast<double>(GN_N_ACTIONS));
    }
  }

  std::unique_ptr<State> Clone() const override {
    return std::make_unique<GutenbergState>(*this);
  }

  // The only hidden information: the plans committed so far this plan step. They
  // are redrawn uniformly (for the seats other than player_id), in the struct and
  // in the history, so the result is a state the history leads to.
  std::unique_ptr<State> ResampleFromInfostate(
      int player_id, std::function<double()> rng) const override {
    auto out = std::make_unique<GutenbergState>(*this);
    const size_t from = HiddenFrom();
    for (size_t i = from; i < history_.size(); ++i) {
      const int seat = history_[i].player;
      if (seat == player_id) continue;
      out->history_[i].action = gn_resample_plan(&out->s_, seat, rng());
    }
    return out;
  }

  // The history, one action a line (OpenSpiel's default format), then the
  // struct in hex on a last line "core <hex>": a check for DeserializeState and
  // the way Python gets the core struct of a native state (gutenberg_native.core_of).
  std::string Serialize() const override {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(history_.size() * 6 + 6 + 2 * sizeof(GameState));
    for (const PlayerAction& pa : history_) absl::StrAppend(&out, pa.action, "\n");
    out += "core ";
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s_);
    for (size_t i = 0; i < sizeof(GameState); ++i) {
      out.push_back(kHex[bytes[i] >> 4]);
      out.push_back(kHex[bytes[i] & 15]);
    }
    return out;
  }

  // Whether the struct equals `hex` (Serialize's last line, without "core ").
  bool CoreMatches(absl::string_view hex) const {
    static const char kHex[] = "0123456789abcdef";
    if (hex.size() != 2 * sizeof(GameState)) return false;
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s_);
    for (size_t i = 0; i < sizeof(GameState); ++i) {
      if (hex[2 * i] != kHex[bytes[i] >> 4] ||
          hex[2 * i + 1] != kHex[bytes[i] & 15]) {
        return false;
      }
    }
    return true;
  }

 protected:
  void DoApplyAction(Action action) override {
    if (action < 0 || action > std::numeric_limits<int>::max() ||
        !gn_is_legal(&s_, cat_, static_cast<int>(action))) {
      SpielFatalError(absl::StrCat(
          "gutenberg_native: action ", action, " is not legal now (",
          IsTerminal() ? "the game is over"
                       : absl::StrCat("player ", CurrentPlayer(), " to act"),
          ")"));
    }
    gn_apply_action(&s_, cat_, static_cast<int>(action));
  }

 private:
  void CheckPlayer(Player player) const {
    SPIEL_CHECK_GE(player, 0);
    SPIEL_CHECK_LT(player, num_players_);
  }

  // History index from which the entries are plans committed this plan step
  // (hidden from all but their owner); history_.size() when nothing is hidden.
  // During a plan step the last s_.step entries are those plans, in seat order
  // from the first player.
  size_t HiddenFrom() const {
    if (s_.phase != GN_PH_PLAN) return history_.size();
    const size_t n = s_.step;
    SPIEL_CHECK_LE(n, history_.size());
    const size_t from = history_.size() - n;
    for (size_t k = 0; k < n; ++k) {
      SPIEL_CHECK_EQ(history_[from + k].player,
                     (s_.first_player + k) % s_.num_seats);
      SPIEL_CHECK_LT(history_[from + k].action, GN_N_PLANS);
    }
    return from;
  }

  const Catalogue* cat_;  // owned by the game (game_ keeps it alive)
  int cat_id_;
  GameState s_;
};

std::unique_ptr<State> GutenbergGame::NewInitialState() const {
  return std::make_unique<GutenbergState>(shared_from_this());
}

std::unique_ptr<State> GutenbergGame::DeserializeState(
    const std::string& str) const {
  std::unique_ptr<State> state = NewInitialState();
  absl::string_view core;
  for (absl::string_view line : absl::StrSplit(str, '\n')) {
    if (line.empty()) continue;
    if (absl::StartsWith(line, "core ")) {
      core = line.substr(5);
      continue;
    }
    Action action;
    if (!absl::SimpleAtoi(line, &action)) {
      SpielFatalError(absl::StrCat("gutenberg_native: bad serialized line '",
                                   line, "'"));
    }
    state->ApplyAction(action);  // legality-checked
  }
  if (!core.empty() &&
      !static_cast<GutenbergState*>(state.get())->CoreMatches(core)) {
    SpielFatalError(
        "gutenberg_native: the serialized core does not match its history "
        "(built by another version of the rules?)");
  }
  return state;
}

std::shared_ptr<const Game> Factory(const GameParameters& params) {
  return std::shared_ptr<const Game>(new GutenbergGame(params));
}

REGISTER_SPIEL_GAME(kGameType, Factory);

}  // namespace gutenberg_native
}  // namespace open_spiel

void gn_glue_set_catalogue(const void* cat, int catalogue_id) {
  auto entry = std::make_shared<open_spiel::gutenberg_native::CatalogueEntry>();
  std::memcpy(&entry->cat, cat, sizeof(entry->cat));
  entry->id = catalogue_id;
  open_spiel::gutenberg_native::CurrentCatalogue() = std::move(entry);
}
