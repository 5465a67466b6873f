// Gutenberg as a native OpenSpiel game, registered as "gutenberg": a C++ Game/State
// over the GameState struct of ext/gutenberg_types.pxd, moved by the rules of
// ext/core.pyx.
//
// This file is the one translation unit of the extension gutenberg_ai._core. It
// includes the C++ that Cython generates from ext/core.pyx first: a separate
// translation unit could not use the structs (Cython's header for `cdef public` items
// declares them under mangled, undefined names). So there is one compiled copy of the
// rules, shared by this game, the Python shell "gutenberg_py" and everything in Python,
// and the glue calls the `gutenberg_*` functions of ext/spiel.pxi (inlined here).
//
// A state runs without Python, except for the words (ActionToString, ToString,
// ObservationString) and the message of an illegal action, which come from
// ext/api.pxi under the GIL. Loading a game calls gutenberg_ai.game under the GIL to
// check the parameters and make the rules, as the Python shell does. Nothing here is a
// rule of the game; what is hidden, the returns and the resampling are the core's.
//
// Built against the headers of the open_spiel wheel and resolved at run time against
// the pyspiel.so that Python has loaded (see setup.py and docs/native.md).

#include "core.cpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_utils.h"

namespace open_spiel {
namespace gutenberg {
namespace {

// The structs of ext/gutenberg_types.pxd as Cython names them above (a rename in
// Cython fails to compile here, it cannot go wrong silently).
using GameState = __pyx_t_15gutenberg_types_GameState;

// The parameters and their defaults, as gutenberg_ai.game.DEFAULTS (a test compares
// the two games' specifications). Their meaning and checks are in gutenberg_ai.game.
const GameParameters kDefaults = {
    {"players", GameParameter(2)},
    {"rounds", GameParameter(6)},
    {"returns", GameParameter(std::string("auto"))},
    {"characters", GameParameter(true)},
    {"automa", GameParameter(-1)},
    {"catalogue", GameParameter(std::string(""))},
    {"position", GameParameter(std::string(""))},
};

GameType MakeGameType(GameType::Utility utility) {
  return GameType{
      /*short_name=*/"gutenberg",
      /*long_name=*/"Gutenberg",
      GameType::Dynamics::kSequential,
      GameType::ChanceMode::kExplicitStochastic,
      GameType::Information::kImperfectInformation,
      utility,
      GameType::RewardModel::kTerminal,
      /*max_num_players=*/4,
      /*min_num_players=*/1,
      /*provides_information_state_string=*/true,
      /*provides_information_state_tensor=*/true,
      /*provides_observation_string=*/true,
      /*provides_observation_tensor=*/true,
      /*parameter_specification=*/kDefaults};
}

const GameType kGameType = MakeGameType(GameType::Utility::kZeroSum);

// A game's parameters, checked, and what the core needs to play it.
struct Spec {
  GutenbergSpec core;      // ext/spiel.pxi
  GameParameters params;   // every parameter, "returns" and "automa" resolved
  std::string key;         // the rules' name (gutenberg_ai.game.Setup.key)
};

Spec LoadSpec(const GameParameters& given) {
  auto value = [&given](const std::string& key) {
    auto it = given.find(key);
    return it != given.end() ? it->second : kDefaults.at(key);
  };
  Spec spec;
  spec.params = kDefaults;
  for (const auto& [key, v] : given) spec.params[key] = v;
  std::string returns, error;
  if (!gutenberg_game_spec(value("players").int_value(),
                           value("rounds").int_value(),
                           value("returns").string_value(),
                           value("characters").bool_value(),
                           value("automa").int_value(),
                           value("catalogue").string_value(),
                           value("position").string_value(), &spec.core,
                           &returns, &spec.key, &error)) {
    SpielFatalError(absl::StrCat("gutenberg: ", error));
  }
  // The parameters in force, which a position file may have set: get_parameters()
  // tells what the game plays.
  spec.params["returns"] = GameParameter(returns);
  spec.params["players"] = GameParameter(spec.core.players);
  spec.params["rounds"] = GameParameter(spec.core.rounds);
  spec.params["characters"] = GameParameter(static_cast<bool>(spec.core.characters));
  spec.params["automa"] = GameParameter(spec.core.automa);
  return spec;
}

class GutenbergGame : public Game {
 public:
  explicit GutenbergGame(const Spec& spec)
      : Game(MakeGameType(spec.core.zero_sum ? GameType::Utility::kZeroSum
                                             : GameType::Utility::kGeneralSum),
             spec.params),
        spec_(spec.core),
        key_(spec.key) {}

  int NumDistinctActions() const override { return GUTENBERG_N_ACTIONS; }
  std::unique_ptr<State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return GUTENBERG_N_CHANCE; }
  int NumPlayers() const override { return spec_.players; }
  double MinUtility() const override { return spec_.min_utility; }
  double MaxUtility() const override { return spec_.max_utility; }
  absl::optional<double> UtilitySum() const override {
    if (spec_.zero_sum) return 0.0;
    return absl::nullopt;
  }
  std::vector<int> ObservationTensorShape() const override {
    return {GUTENBERG_OBS_SIZE};
  }
  // The observation, then one (actor, action) pair per history entry, as
  // gutenberg_ai.game.GutenbergObserver with perfect recall.
  std::vector<int> InformationStateTensorShape() const override {
    return {GUTENBERG_OBS_SIZE + 2 * spec_.max_game_length};
  }
  int MaxGameLength() const override { return spec_.max_game_length; }
  std::unique_ptr<State> DeserializeState(
      const std::string& str) const override;

  const GutenbergSpec& spec() const { return spec_; }
  const std::string& key() const { return key_; }

 private:
  const GutenbergSpec spec_;  // points into Rules kept alive by ext/spiel.pxi
  const std::string key_;     // names the rules in a serialized state
};

class GutenbergState : public State {
 public:
  explicit GutenbergState(std::shared_ptr<const Game> game)
      : State(game),
        spec_(&static_cast<const GutenbergGame&>(*game).spec()),
        s_(*spec_->initial) {}
  GutenbergState(const GutenbergState&) = default;

  // The core's chance (-1) and terminal (-4) players are OpenSpiel's.
  Player CurrentPlayer() const override { return gutenberg_current_player(&s_); }
  bool IsTerminal() const override { return s_.phase == GUTENBERG_PH_TERMINAL; }

  std::vector<Action> LegalActions() const override {
    int buf[GUTENBERG_MAX_LEGAL];
    double prob[GUTENBERG_MAX_LEGAL];
    if (IsTerminal()) return {};
    // Both lists come sorted from the core.
    const int n = IsChanceNode()
                      ? gutenberg_chance_outcomes(&s_, spec_->cat, buf, prob)
                      : gutenberg_legal_actions(&s_, spec_->cat, buf);
    return std::vector<Action>(buf, buf + n);
  }

  ActionsAndProbs ChanceOutcomes() const override {
    SPIEL_CHECK_TRUE(IsChanceNode());
    int buf[GUTENBERG_MAX_LEGAL];
    double prob[GUTENBERG_MAX_LEGAL];
    const int n = gutenberg_chance_outcomes(&s_, spec_->cat, buf, prob);
    ActionsAndProbs out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out.emplace_back(buf[i], prob[i]);
    return out;
  }

  std::vector<double> Returns() const override {
    std::vector<double> out(num_players_, 0.0);
    if (IsTerminal()) {
      double all[GUTENBERG_MAX_SEATS];
      gutenberg_returns(&s_, spec_->cat, spec_->returns_mode, all);
      out.assign(all, all + num_players_);
    }
    return out;
  }

  std::string ActionToString(Player player, Action action) const override {
    return gutenberg_action_string(&s_, spec_->rules_id,
                                   static_cast<int>(action));
  }
  std::string ToString() const override {
    return gutenberg_state_string(&s_, spec_->rules_id, -1);
  }
  std::string ObservationString(Player player) const override {
    CheckPlayer(player);
    return gutenberg_state_string(&s_, spec_->rules_id, player);
  }
  void ObservationTensor(Player player,
                         absl::Span<float> values) const override {
    CheckPlayer(player);
    SPIEL_CHECK_EQ(values.size(), GUTENBERG_OBS_SIZE);
    gutenberg_write_obs(&s_, player, values.data());
  }

  // "p<player> actor:action actor:action ...", what the player has not seen as "?".
  std::string InformationStateString(Player player) const override {
    CheckPlayer(player);
    const int n = history_.size();
    std::string out = absl::StrCat("p", player, " ");
    out.reserve(out.size() + 8 * n);
    for (int i = 0; i < n; ++i) {
      const PlayerAction& pa = history_[i];
      absl::StrAppend(&out, i > 0 ? " " : "", pa.player, ":");
      if (Hidden(player, i)) {
        out.push_back('?');
      } else {
        absl::StrAppend(&out, pa.action);
      }
    }
    return out;
  }

  // The observation, then per history entry (actor + 2) / 6 and (action + 1) /
  // NumDistinctActions, -1 for what the player has not seen; zeros after the end.
  void InformationStateTensor(Player player,
                              absl::Span<float> values) const override {
    CheckPlayer(player);
    const int length = spec_->max_game_length;
    const int n = history_.size();
    SPIEL_CHECK_EQ(values.size(), GUTENBERG_OBS_SIZE + 2 * length);
    SPIEL_CHECK_LE(n, length);
    gutenberg_write_obs(&s_, player, values.data());
    float* h = values.data() + GUTENBERG_OBS_SIZE;
    std::fill(h, h + 2 * length, 0.0f);
    for (int i = 0; i < n; ++i) {
      const PlayerAction& pa = history_[i];
      h[2 * i] = static_cast<float>((pa.player + 2) / 6.0);
      h[2 * i + 1] = Hidden(player, i)
                         ? -1.0f
                         : static_cast<float>((pa.action + 1) /
                                              double{GUTENBERG_N_ACTIONS});
    }
  }

  std::unique_ptr<State> Clone() const override {
    return std::make_unique<GutenbergState>(*this);
  }

  // A state drawn uniformly from player_id's information set: the core redraws what
  // the player has not seen in the struct and in the history. One number from `rng`
  // seeds the core's generator, as the Python shell does, so both games give the
  // same sample for the same sampler.
  std::unique_ptr<State> ResampleFromInfostate(
      int player_id, std::function<double()> rng) const override {
    auto out = std::make_unique<GutenbergState>(*this);
    const int n = history_.size();
    std::vector<int> actors(n), actions(n);
    for (int i = 0; i < n; ++i) {
      actors[i] = history_[i].player;
      actions[i] = static_cast<int>(history_[i].action);
    }
    const auto seed = static_cast<unsigned long long>(rng() * 9007199254740992.0);
    gutenberg_resample_history(&out->s_, player_id, actors.data(),
                               actions.data(), n, seed);
    for (int i = 0; i < n; ++i) out->history_[i].action = actions[i];
    // Plans committed before the history began (a position mid-plan-step) are in no
    // history entry: the state keeps them, so that they survive serialization.
    int plans[GUTENBERG_MAX_SEATS * kRows];
    const int mask = gutenberg_start_plans(spec_->initial, &out->s_, plans);
    for (int seat = 0; seat < GUTENBERG_MAX_SEATS; ++seat) {
      if (mask >> seat & 1) {
        std::copy(plans + kRows * seat, plans + kRows * (seat + 1),
                  out->start_plans_ + kRows * seat);
      }
    }
    out->start_mask_ |= mask;
    return out;
  }

  // The history, one action a line (OpenSpiel's format); "start_plan <seat> <5 rows>"
  // for each plan committed before the history began that a resample redrew; "rules
  // <key>", the game's rules (gutenberg_ai.game.Setup.key); then the struct in hex on a
  // last line "core <hex>": a check for DeserializeState, and how Python reads the
  // struct of a native state (gutenberg_ai.core_of).
  std::string Serialize() const override {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(history_.size() * 6 + 80 + 2 * sizeof(GameState));
    for (const PlayerAction& pa : history_) absl::StrAppend(&out, pa.action, "\n");
    for (int seat = 0; seat < GUTENBERG_MAX_SEATS; ++seat) {
      if (start_mask_ >> seat & 1) {
        absl::StrAppend(&out, "start_plan ", seat);
        for (int r = 0; r < kRows; ++r) {
          absl::StrAppend(&out, " ", start_plans_[kRows * seat + r]);
        }
        out += "\n";
      }
    }
    absl::StrAppend(&out, "rules ",
                    static_cast<const GutenbergGame&>(*game_).key(), "\n");
    out += "core ";
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s_);
    for (size_t i = 0; i < sizeof(GameState); ++i) {
      out.push_back(kHex[bytes[i] >> 4]);
      out.push_back(kHex[bytes[i] & 15]);
    }
    return out;
  }

  bool CoreMatches(absl::string_view hex) const {
    const std::string mine = Serialize();
    return hex == absl::string_view(mine).substr(mine.rfind(' ') + 1);
  }

  // For DeserializeState, on a new state: a plan committed before the history began.
  bool SetStartPlan(int seat, const int* plan) {
    if (!history_.empty() || !gutenberg_set_start_plan(&s_, seat, plan)) return false;
    std::copy(plan, plan + kRows, start_plans_ + kRows * seat);
    start_mask_ |= 1 << seat;
    return true;
  }

  bool Legal(Action action) const {
    return action >= 0 && action <= std::numeric_limits<int>::max() &&
           gutenberg_is_legal(&s_, spec_->cat, static_cast<int>(action));
  }

 protected:
  // The error of an illegal action is pyspiel.SpielError in Python, with the core's
  // words; the state is unchanged (OpenSpiel adds to the history after this returns).
  void DoApplyAction(Action action) override {
    if (action < 0 || action > std::numeric_limits<int>::max() ||
        !gutenberg_is_legal(&s_, spec_->cat, static_cast<int>(action))) {
      SpielFatalError(absl::StrCat(
          "gutenberg: ", gutenberg_illegal_message(&s_, spec_->rules_id, action)));
    }
    gutenberg_apply_action(&s_, spec_->cat, static_cast<int>(action));
  }

 private:
  void CheckPlayer(Player player) const {
    SPIEL_CHECK_GE(player, 0);
    SPIEL_CHECK_LT(player, num_players_);
  }

  bool Hidden(Player player, int i) const {
    return gutenberg_entry_hidden(&s_, player, i, history_.size(),
                                  history_[i].player,
                                  static_cast<int>(history_[i].action));
  }

  static constexpr int kRows = 5;  // the rows of a plan
  const GutenbergSpec* spec_;  // owned by the game (game_ keeps it alive)
  GameState s_;
  // Plans committed before the history began, as a resample redrew them (seats in
  // start_mask_): they are in no history entry.
  int start_mask_ = 0;
  int start_plans_[GUTENBERG_MAX_SEATS * kRows] = {};
};

std::unique_ptr<State> GutenbergGame::NewInitialState() const {
  return std::make_unique<GutenbergState>(shared_from_this());
}

// A line of a serialized state in an error message: at most 40 bytes, printable.
std::string Excerpt(absl::string_view line) {
  std::string out(line.substr(0, 40));
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return line.size() > 40 ? out + "..." : out;
}

[[noreturn]] void BadState(int line, absl::string_view text, absl::string_view why) {
  SpielFatalError(absl::StrCat("gutenberg: serialized state, line ", line, " ('",
                               Excerpt(text), "'): ", why));
}

// A serialized state (GutenbergState::Serialize) is untrusted text: every line is
// parsed and checked, the start plans by the core, every action for legality in turn
// (nothing is trusted from the struct line: the state is rebuilt from the history and
// then compared with it).
std::unique_ptr<State> GutenbergGame::DeserializeState(
    const std::string& str) const {
  constexpr int kRows = 5;
  std::vector<std::pair<Action, int>> actions;  // action, line
  std::vector<std::pair<std::array<int, kRows + 1>, int>> starts;  // seat + plan, line
  absl::string_view core, rules, core_text, rules_text;
  int core_line = 0, rules_line = 0, n = 0;
  for (absl::string_view line : absl::StrSplit(str, '\n')) {
    ++n;
    const absl::string_view text = line;
    if (line.empty()) continue;
    if (absl::ConsumePrefix(&line, "core ")) {
      if (!core.empty()) BadState(n, text, "a second 'core' line");
      core = line;
      core_text = text;
      core_line = n;
    } else if (absl::ConsumePrefix(&line, "rules ")) {
      if (!rules.empty()) BadState(n, text, "a second 'rules' line");
      rules = line;
      rules_text = text;
      rules_line = n;
    } else if (absl::ConsumePrefix(&line, "start_plan ")) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ' ');
      std::array<int, kRows + 1> values;
      if (parts.size() != values.size()) {
        BadState(n, text, "a start plan is a seat and 5 numbers");
      }
      for (size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].empty() || parts[i].size() > 2 ||
            !std::all_of(parts[i].begin(), parts[i].end(), absl::ascii_isdigit) ||
            !absl::SimpleAtoi(parts[i], &values[i])) {
          BadState(n, text, "a start plan is a seat and 5 numbers");
        }
      }
      starts.emplace_back(values, n);
    } else {
      Action action;
      if (line.size() > 9 ||
          !std::all_of(line.begin(), line.end(), absl::ascii_isdigit) ||
          !absl::SimpleAtoi(line, &action)) {
        BadState(n, text, "not an action (a whole number), a 'start_plan', 'rules' or "
                          "'core' line");
      }
      if (static_cast<int>(actions.size()) >= MaxGameLength()) {
        BadState(n, text, "more actions than a game of these parameters has");
      }
      actions.emplace_back(action, n);
    }
  }
  if (!rules.empty() && rules != key_) {
    BadState(rules_line, rules_text, "written for another game (other parameters, catalogue "
                                "or position data)");
  }
  std::unique_ptr<State> state = NewInitialState();
  auto& g = static_cast<GutenbergState&>(*state);
  for (const auto& [values, line] : starts) {
    if (!g.SetStartPlan(values[0], values.data() + 1)) {
      BadState(line, absl::StrCat("start_plan ", absl::StrJoin(values, " ")),
               "no such plan: the seat did not commit before the history began, or the "
               "plan does not place its markers (at most 6 a row)");
    }
  }
  for (const auto& [action, line] : actions) {
    if (!g.Legal(action)) {
      BadState(line, absl::StrCat(action),
               state->IsTerminal() ? "the game is already over"
                                   : "not a legal action at this point of the game");
    }
    state->ApplyAction(action);
  }
  if (!core.empty() && !g.CoreMatches(core)) {
    BadState(core_line, core_text, "the struct does not match the history (written by another "
                              "build of the rules?)");
  }
  return state;
}

std::shared_ptr<const Game> Factory(const GameParameters& params) {
  return std::make_shared<const GutenbergGame>(LoadSpec(params));
}

REGISTER_SPIEL_GAME(kGameType, Factory);

}  // namespace
}  // namespace gutenberg
}  // namespace open_spiel
