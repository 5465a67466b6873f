// A printing game as a native OpenSpiel game: a C++ Game/State over the game's C struct,
// moved by its compiled rules. Written once for every game.
//
// A game's glue file is the one translation unit of its extension. setup.py writes it
// into build/glue/<game>/spiel.cc from ext/engine/spiel.cc.in and the game's table
// gutenberg_ai/games/<game>/data/native_game.json: it includes the C++ that Cython
// generates from the game's core.pyx first (which includes ext/engine/spiel.pxi: the
// `spiel_*` functions and constants used below, with plain C names), then this header,
// and registers the game:
//
//     #include "<game>/core.cpp"
//     #include "engine/native_game.h"
//     namespace open_spiel::<game> {
//     const NativeGameInfo kInfo = {...};     // names, players, parameters (the table)
//     REGISTER_NATIVE_GAME(kInfo);
//     }
//
// A state runs without Python, except for the words (ActionToString, ToString,
// ObservationString) and the message of an illegal action, which come from the game's
// api.pxi under the GIL. Loading a game calls the game's Python module under the GIL to
// check the parameters and make the rules, as the game's Python shell does. Nothing here
// is a rule of a game: what is hidden, the returns and the resampling are the core's.
//
// Built against the headers of the open_spiel wheel and resolved at run time against
// the pyspiel.so that Python has loaded (see setup.py and docs/native.md).
#ifndef GUTENBERG_AI_ENGINE_NATIVE_GAME_H_
#define GUTENBERG_AI_ENGINE_NATIVE_GAME_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_utils.h"

namespace open_spiel {
namespace printing_games {

// The game's C struct, as the first argument of spiel_current_player names it (Cython
// mangles the names of structs; this takes the type without spelling it).
template <class F> struct FirstArg;
template <class R, class A, class... Rest>
struct FirstArg<R (*)(A, Rest...)> { using type = A; };
using CoreState = std::remove_const_t<std::remove_pointer_t<
    typename FirstArg<decltype(&spiel_current_player)>::type>>;

// What a game's glue file says of the game; the rest comes from its core.
struct NativeGameInfo {
  std::string short_name;
  std::string long_name;
  int min_players;
  int max_players;
  GameParameters defaults;  // as the game's Python module's DEFAULTS (a test compares them)
};

// The parameters as JSON for the game's Python module, and back.
inline std::string ParametersToJson(const GameParameters& params) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, v] : params) {
    if (v.has_int_value()) out[key] = v.int_value();
    else if (v.has_double_value()) out[key] = v.double_value();
    else if (v.has_bool_value()) out[key] = v.bool_value();
    else if (v.has_string_value()) out[key] = v.string_value();
    else SpielFatalError(absl::StrCat("parameter ", key, ": not a number, truth value or text"));
  }
  return out.dump();
}

// The parameters in force (JSON from the game's module), typed as the defaults are.
inline GameParameters ParametersFromJson(const std::string& text,
                                         const GameParameters& defaults) {
  const nlohmann::json in = nlohmann::json::parse(text);
  GameParameters out = defaults;
  for (const auto& [key, d] : defaults) {
    if (!in.contains(key)) continue;
    const nlohmann::json& v = in.at(key);
    if (d.has_int_value()) out[key] = GameParameter(v.get<int>());
    else if (d.has_double_value()) out[key] = GameParameter(v.get<double>());
    else if (d.has_bool_value()) out[key] = GameParameter(v.get<bool>());
    else out[key] = GameParameter(v.get<std::string>());
  }
  return out;
}

inline GameType MakeGameType(const NativeGameInfo& info, GameType::Utility utility) {
  return GameType{
      /*short_name=*/info.short_name,
      /*long_name=*/info.long_name,
      GameType::Dynamics::kSequential,
      GameType::ChanceMode::kExplicitStochastic,
      GameType::Information::kImperfectInformation,
      utility,
      GameType::RewardModel::kTerminal,
      /*max_num_players=*/info.max_players,
      /*min_num_players=*/info.min_players,
      /*provides_information_state_string=*/true,
      /*provides_information_state_tensor=*/true,
      /*provides_observation_string=*/true,
      /*provides_observation_tensor=*/true,
      /*parameter_specification=*/info.defaults};
}

// A game's parameters, checked by its Python module, and what the core needs to play it.
struct Spec {
  SpielSpec core;          // ext/engine/spiel.pxi
  GameParameters params;   // the parameters in force (a position file may set some)
  std::string key;         // names the rules (catalogue, position, parameters)
};

inline Spec LoadSpec(const NativeGameInfo& info, const GameParameters& given) {
  Spec spec;
  std::string in_force, error;
  if (!spiel_game_spec(ParametersToJson(given), &spec.core, &in_force, &spec.key, &error)) {
    SpielFatalError(absl::StrCat(info.short_name, ": ", error));
  }
  spec.params = ParametersFromJson(in_force, info.defaults);
  return spec;
}

inline bool PrintingGamesPythonFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

class NativeGame : public Game {
 public:
  NativeGame(const NativeGameInfo& info, const Spec& spec)
      : Game(MakeGameType(info, spec.core.zero_sum ? GameType::Utility::kZeroSum
                                                   : GameType::Utility::kGeneralSum),
             spec.params),
        spec_(spec.core),
        key_(spec.key) {}
  // The rules this game points into may go with the last game using them; not while
  // Python shuts down, when nothing is freed any more.
  ~NativeGame() override {
    if (Py_IsInitialized() && !PrintingGamesPythonFinalizing()) spiel_release_rules(spec_.rules_id);
  }

  int NumDistinctActions() const override { return SPIEL_N_ACTIONS; }
  std::unique_ptr<State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return SPIEL_N_CHANCE; }
  int NumPlayers() const override { return spec_.players; }
  double MinUtility() const override { return spec_.min_utility; }
  double MaxUtility() const override { return spec_.max_utility; }
  absl::optional<double> UtilitySum() const override {
    if (spec_.zero_sum) return 0.0;
    return absl::nullopt;
  }
  std::vector<int> ObservationTensorShape() const override { return {SPIEL_OBS_SIZE}; }
  // The observation, then one (actor, action) pair per history entry, as the game's
  // Python observer with perfect recall.
  std::vector<int> InformationStateTensorShape() const override {
    return {SPIEL_OBS_SIZE + 2 * spec_.max_game_length};
  }
  int MaxGameLength() const override { return spec_.max_game_length; }
  std::unique_ptr<State> DeserializeState(const std::string& str) const override;

  const SpielSpec& spec() const { return spec_; }
  const std::string& key() const { return key_; }

 private:
  const SpielSpec spec_;  // points into Rules held by ext/engine/spiel.pxi while this game lives
  const std::string key_;  // names the rules in a serialized state
};

class NativeState : public State {
 public:
  explicit NativeState(std::shared_ptr<const Game> game)
      : State(game),
        spec_(&static_cast<const NativeGame&>(*game).spec()),
        s_(*spec_->initial) {}
  NativeState(const NativeState&) = default;

  // The core's chance (-1) and terminal (-4) players are OpenSpiel's.
  Player CurrentPlayer() const override { return spiel_current_player(&s_); }
  bool IsTerminal() const override { return spiel_game_over(&s_); }

  std::vector<Action> LegalActions() const override {
    int buf[SPIEL_MAX_LEGAL];
    double prob[SPIEL_MAX_LEGAL];
    if (IsTerminal()) return {};
    // Both lists come sorted from the core.
    const int n = IsChanceNode() ? spiel_chance_outcomes(&s_, spec_->cat, buf, prob)
                                 : spiel_legal_actions(&s_, spec_->cat, buf);
    return std::vector<Action>(buf, buf + n);
  }

  ActionsAndProbs ChanceOutcomes() const override {
    SPIEL_CHECK_TRUE(IsChanceNode());
    int buf[SPIEL_MAX_LEGAL];
    double prob[SPIEL_MAX_LEGAL];
    const int n = spiel_chance_outcomes(&s_, spec_->cat, buf, prob);
    ActionsAndProbs out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out.emplace_back(buf[i], prob[i]);
    return out;
  }

  std::vector<double> Returns() const override {
    std::vector<double> out(num_players_, 0.0);
    if (IsTerminal()) {
      double all[SPIEL_MAX_SEATS];
      spiel_returns(&s_, spec_->cat, spec_->returns_mode, all);
      out.assign(all, all + num_players_);
    }
    return out;
  }

  std::string ActionToString(Player player, Action action) const override {
    return spiel_action_string(&s_, spec_->rules_id, static_cast<int>(action));
  }
  std::string ToString() const override {
    return spiel_state_string(&s_, spec_->rules_id, -1);
  }
  std::string ObservationString(Player player) const override {
    CheckPlayer(player);
    return spiel_state_string(&s_, spec_->rules_id, player);
  }
  void ObservationTensor(Player player, absl::Span<float> values) const override {
    CheckPlayer(player);
    SPIEL_CHECK_EQ(values.size(), SPIEL_OBS_SIZE);
    spiel_write_obs(&s_, player, values.data());
  }

  // "p<player> actor:action actor:action ...", what the player has not seen as "?";
  // then " | " and what the player sees that no entry holds (the core's private view:
  // Lead Letter Printers' factories drawn from under a pile), where there is any.
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
    int seen[SPIEL_PRIVATE_WIDTH];
    const int k = spiel_private_view(spec_->initial, &s_, player, seen);
    if (k > 0) {
      out += " |";
      for (int j = 0; j < k; ++j) absl::StrAppend(&out, " ", seen[j]);
    }
    return out;
  }

  // The observation, then per history entry (actor + 2) / 6 and (action + 1) /
  // NumDistinctActions, -1 for what the player has not seen; zeros after the end.
  void InformationStateTensor(Player player, absl::Span<float> values) const override {
    CheckPlayer(player);
    const int length = spec_->max_game_length;
    const int n = history_.size();
    SPIEL_CHECK_EQ(values.size(), SPIEL_OBS_SIZE + 2 * length);
    SPIEL_CHECK_LE(n, length);
    spiel_write_obs(&s_, player, values.data());
    float* h = values.data() + SPIEL_OBS_SIZE;
    std::fill(h, h + 2 * length, 0.0f);
    for (int i = 0; i < n; ++i) {
      const PlayerAction& pa = history_[i];
      h[2 * i] = static_cast<float>((pa.player + 2) / 6.0);
      h[2 * i + 1] = Hidden(player, i)
                         ? -1.0f
                         : static_cast<float>((pa.action + 1) / double{SPIEL_N_ACTIONS});
    }
  }

  std::unique_ptr<State> Clone() const override {
    return std::make_unique<NativeState>(*this);
  }

  // A state drawn uniformly from player_id's information set: the core redraws what
  // the player has not seen in the struct and in the history. One number from `rng`
  // seeds the core's generator, as the Python shell does, so both games give the
  // same sample for the same sampler.
  std::unique_ptr<State> ResampleFromInfostate(
      int player_id, std::function<double()> rng) const override {
    if (player_id < 0 || player_id >= num_players_) {
      SpielFatalError(absl::StrCat(ShortName(), ": resample_from_infostate: ", player_id,
                                   " is not a player (0-", num_players_ - 1, ")"));
    }
    auto out = std::make_unique<NativeState>(*this);
    const int n = history_.size();
    std::vector<int> actors(n), actions(n);
    for (int i = 0; i < n; ++i) {
      actors[i] = history_[i].player;
      actions[i] = static_cast<int>(history_[i].action);
    }
    const auto seed = static_cast<unsigned long long>(rng() * 9007199254740992.0);
    // The history begins at the game's initial state as this state's start records set it.
    CoreState start = *spec_->initial;
    for (size_t r = 0; r < start_records_.size(); r += SPIEL_START_WIDTH) {
      spiel_set_start_record(&start, &start_records_[r]);
    }
    spiel_resample_history(&start, &out->s_, player_id, actors.data(), actions.data(), n, seed);
    for (int i = 0; i < n; ++i) out->history_[i].action = actions[i];
    // Hidden facts of the initial state that no history entry holds (a position's
    // hidden commitments or tokens): the state keeps them, so that they survive
    // serialization.
    int records[SPIEL_MAX_SEATS * SPIEL_START_WIDTH];
    const int k = spiel_start_records(spec_->initial, &start, &out->s_, records);
    if (k > 0) out->start_records_.assign(records, records + k * SPIEL_START_WIDTH);
    return out;
  }

  // The history, one action a line (OpenSpiel's format); a start-record line ("<tag>
  // <ints>") for each hidden fact of the initial state that a resample redrew; "rules
  // <key>", the game's rules; then the struct in hex on a last line "core <hex>": a
  // check for DeserializeState, and how Python reads the struct of a native state (the
  // game's core_of).
  std::string Serialize() const override {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(history_.size() * 6 + 80 + 2 * sizeof(CoreState));
    for (const PlayerAction& pa : history_) absl::StrAppend(&out, pa.action, "\n");
    for (size_t r = 0; r < start_records_.size(); r += SPIEL_START_WIDTH) {
      absl::StrAppend(&out, spiel_start_tag());
      for (int i = 0; i < SPIEL_START_WIDTH; ++i) {
        absl::StrAppend(&out, " ", start_records_[r + i]);
      }
      out += "\n";
    }
    absl::StrAppend(&out, "rules ", static_cast<const NativeGame&>(*game_).key(), "\n");
    out += "core ";
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s_);
    for (size_t i = 0; i < sizeof(CoreState); ++i) {
      out.push_back(kHex[bytes[i] >> 4]);
      out.push_back(kHex[bytes[i] & 15]);
    }
    return out;
  }

  bool CoreMatches(absl::string_view hex) const {
    const std::string mine = Serialize();
    return hex == absl::string_view(mine).substr(mine.rfind(' ') + 1);
  }

  const std::string& ShortName() const { return game_->GetType().short_name; }

  // For DeserializeState, on a new state: a hidden fact of the initial state.
  bool SetStartRecord(const int* record) {
    if (!history_.empty() || !spiel_set_start_record(&s_, record)) return false;
    start_records_.insert(start_records_.end(), record, record + SPIEL_START_WIDTH);
    return true;
  }

  bool Legal(Action action) const {
    return action >= 0 && action <= std::numeric_limits<int>::max() &&
           spiel_is_legal(&s_, spec_->cat, static_cast<int>(action));
  }

 protected:
  // The error of an illegal action is pyspiel.SpielError in Python, with the core's
  // words; the state is unchanged (OpenSpiel adds to the history after this returns).
  void DoApplyAction(Action action) override {
    if (action < 0 || action > std::numeric_limits<int>::max() ||
        !spiel_is_legal(&s_, spec_->cat, static_cast<int>(action))) {
      SpielFatalError(absl::StrCat(ShortName(), ": ",
                                   spiel_illegal_message(&s_, spec_->rules_id, action)));
    }
    spiel_apply_action(&s_, spec_->cat, static_cast<int>(action));
  }

 private:
  void CheckPlayer(Player player) const {
    SPIEL_CHECK_GE(player, 0);
    SPIEL_CHECK_LT(player, num_players_);
  }

  bool Hidden(Player player, int i) const {
    return spiel_entry_hidden(&s_, player, i, history_.size(), history_[i].player,
                              static_cast<int>(history_[i].action));
  }

  const SpielSpec* spec_;  // owned by the game (game_ keeps it alive)
  CoreState s_;
  // Hidden facts of the initial state as a resample redrew them, SPIEL_START_WIDTH
  // ints each: they are in no history entry.
  std::vector<int> start_records_;
};

inline std::unique_ptr<State> NativeGame::NewInitialState() const {
  return std::make_unique<NativeState>(shared_from_this());
}

// A line of a serialized state in an error message: at most 40 bytes, printable.
inline std::string Excerpt(absl::string_view line) {
  std::string out(line.substr(0, 40));
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return line.size() > 40 ? out + "..." : out;
}

[[noreturn]] inline void BadState(const std::string& game, int line, absl::string_view text,
                                  absl::string_view why) {
  SpielFatalError(absl::StrCat(game, ": serialized state, line ", line, " ('", Excerpt(text),
                               "'): ", why));
}

// A serialized state (NativeState::Serialize) is untrusted text: every line is parsed
// and checked, the start records by the core, every action for legality in turn
// (nothing is trusted from the struct line: the state is rebuilt from the history and
// then compared with it).
inline std::unique_ptr<State> NativeGame::DeserializeState(const std::string& str) const {
  const std::string& name = GetType().short_name;
  const std::string tag = absl::StrCat(spiel_start_tag(), " ");
  const std::string record_words =
      absl::StrCat("a '", spiel_start_tag(), "' line is ", spiel_start_words());
  std::vector<std::pair<Action, int>> actions;               // action, line
  std::vector<std::pair<std::vector<int>, int>> starts;      // record, line
  absl::string_view core, rules, core_text, rules_text;
  int core_line = 0, rules_line = 0, n = 0;
  for (absl::string_view line : absl::StrSplit(str, '\n')) {
    ++n;
    const absl::string_view text = line;
    if (line.empty()) continue;
    if (absl::ConsumePrefix(&line, "core ")) {
      if (!core.empty()) BadState(name, n, text, "a second 'core' line");
      core = line;
      core_text = text;
      core_line = n;
    } else if (absl::ConsumePrefix(&line, "rules ")) {
      if (!rules.empty()) BadState(name, n, text, "a second 'rules' line");
      rules = line;
      rules_text = text;
      rules_line = n;
    } else if (SPIEL_START_WIDTH > 0 && absl::ConsumePrefix(&line, tag)) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ' ');
      std::vector<int> values(SPIEL_START_WIDTH);
      if (parts.size() != values.size()) BadState(name, n, text, record_words);
      for (size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].empty() || parts[i].size() > 2 ||
            !std::all_of(parts[i].begin(), parts[i].end(), absl::ascii_isdigit) ||
            !absl::SimpleAtoi(parts[i], &values[i])) {
          BadState(name, n, text, record_words);
        }
      }
      starts.emplace_back(values, n);
    } else {
      Action action;
      if (line.size() > 9 || !std::all_of(line.begin(), line.end(), absl::ascii_isdigit) ||
          !absl::SimpleAtoi(line, &action)) {
        BadState(name, n, text,
                 absl::StrCat("not an action (a whole number), a '", spiel_start_tag(),
                              "', 'rules' or 'core' line"));
      }
      if (static_cast<int>(actions.size()) >= MaxGameLength()) {
        BadState(name, n, text, "more actions than a game of these parameters has");
      }
      actions.emplace_back(action, n);
    }
  }
  // The key and the struct are checked where given: a history alone (a start's records,
  // a list of actions) is a state of this game's rules, replayed and checked action by action.
  if (!rules.empty() && rules != key_) {
    BadState(name, rules_line, rules_text,
             "written for another game (other parameters, catalogue or position data)");
  }
  std::unique_ptr<State> state = NewInitialState();
  auto& g = static_cast<NativeState&>(*state);
  for (const auto& [values, line] : starts) {
    if (!g.SetStartRecord(values.data())) {
      BadState(name, line, absl::StrCat(spiel_start_tag(), " ", absl::StrJoin(values, " ")),
               spiel_start_refused());
    }
  }
  for (const auto& [action, line] : actions) {
    if (!g.Legal(action)) {
      BadState(name, line, absl::StrCat(action),
               state->IsTerminal() ? "the game is already over"
                                   : "not a legal action at this point of the game");
    }
    state->ApplyAction(action);
  }
  if (!core.empty() && !g.CoreMatches(core)) {
    BadState(name, core_line, core_text,
             "the struct does not match the history (written by another build of the rules?)");
  }
  return state;
}

}  // namespace printing_games
}  // namespace open_spiel

// Registers the game described by `info` (a NativeGameInfo) with OpenSpiel.
#define REGISTER_NATIVE_GAME(info)                                                  \
  std::shared_ptr<const Game> NativeFactory(const GameParameters& params) {         \
    return std::make_shared<const ::open_spiel::printing_games::NativeGame>(        \
        info, ::open_spiel::printing_games::LoadSpec(info, params));                \
  }                                                                                 \
  REGISTER_SPIEL_GAME(::open_spiel::printing_games::MakeGameType(                   \
                          info, GameType::Utility::kZeroSum),                       \
                      NativeFactory)

#endif  // GUTENBERG_AI_ENGINE_NATIVE_GAME_H_
