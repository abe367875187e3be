// A randomised sweep through the page's core calls: no NaN, infinity or negative size on any
// input. Scenarios are built field by field through SetField (the one parser the page, the URL
// hash and the CLI share) from the catalog's ids, each field's limits and the values just
// inside and outside them, then run through what App::Recompute runs (fit, speed and cost, the
// batch and context curves, training and its scaling, the roofline and its chart, and the
// whole-catalog compare for some) and the report JSON the CLI prints. Every number in the JSON
// is walked: finite, and not negative unless its key is listed as signed below.
//
// Reproduce a failure: GPUPLAN_SWEEP_SEED=<printed seed> GPUPLAN_SWEEP_N=<count> unit-sweep;
// each failure line carries the scenario's hash, which `gpuplan fit` and the page read too.
#include <catch2/catch.hpp>

#include "support.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/ceilings.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/inference.h"
#include "gpuplan/records.h"
#include "gpuplan/report.h"
#include "gpuplan/resolve.h"
#include "gpuplan/roofline.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"

using namespace gpuplan;
using test::Cat;

namespace {

// Scenarios per run. The sanitizer (Debug) and wasm builds run fewer: the same kinds of input,
// a smaller sample (CMake sets GPUPLAN_SWEEP_DEFAULT_N for them).
#ifndef GPUPLAN_SWEEP_DEFAULT_N
#define GPUPLAN_SWEEP_DEFAULT_N 2000
#endif
constexpr unsigned long long kDefaultSeed = 20240917;
constexpr int kCompareEvery = 20;  // the whole-catalog compare is the slow call

unsigned long long EnvNumber(const char* name, unsigned long long fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' ? n : fallback;
}

// [SECTION] Fields, found by asking the parser ---------------------------------------------
// SetField's error message states a field's limits ("must be a whole number from 1 to 4096, or
// all", "must be a number from 0.01 to 1", "must be one of none, selective, full") or the
// catalog list it checks ("unknown GPU '...'"), so the sweep needs no copy of the field table
// and a new field is swept as soon as it exists.
enum class Kind { kIds, kInteger, kNumber, kChoice };

struct Field {
  std::string key;
  Kind kind = Kind::kNumber;
  double lo = 0, hi = 0;
  bool zero_or = false;            // 0 also (a default), then nothing below lo
  std::string special;             // "all" for gpu-layers
  std::vector<std::string> words;  // ids or choices
};

std::string Text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = list.find(", ", pos);
    out.push_back(list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) break;
    pos = comma + 2;
  }
  return out;
}

template <typename T>
std::vector<std::string> Ids(const std::vector<T>& list) {
  std::vector<std::string> ids;
  for (const T& e : list) ids.push_back(e.id);
  return ids;
}

std::vector<Field> DiscoverFields(const Catalog& cat) {
  static const std::regex integer(R"(must be a whole number from (\S+) to ([^,\s]+)(, or (\S+))?$)");
  static const std::regex number(R"(must be (0 or )?a number from (\S+) to (\S+)$)");
  static const std::regex choice(R"(must be one of (.+)$)");
  std::vector<Field> fields;
  for (const FieldInfo& info : ScenarioFields()) {
    Field f;
    f.key = info.key;
    Scenario s;
    const std::optional<Error> err = SetField(s, f.key, "?not-a-value?", cat);
    INFO(f.key);
    REQUIRE(err.has_value());
    const std::string& m = err->message;
    std::smatch g;
    if (std::regex_search(m, g, integer)) {
      f.kind = Kind::kInteger;
      f.lo = std::stod(g[1]);
      f.hi = std::stod(g[2]);
      f.special = g[4];
    } else if (std::regex_search(m, g, number)) {
      f.kind = Kind::kNumber;
      f.zero_or = g[1].matched;  // "0 or a number from 0.001 to ...": 0 stands for a default
      f.lo = std::stod(g[2]);
      f.hi = std::stod(g[3]);
    } else if (std::regex_search(m, g, choice)) {
      f.kind = Kind::kChoice;
      f.words = SplitList(g[1]);
    } else {
      f.kind = Kind::kIds;
      if (m.find("unknown model") != std::string::npos)
        f.words = Ids(cat.models);
      else if (m.find("unknown weight format") != std::string::npos)
        f.words = Ids(cat.weight_formats);
      else if (m.find("unknown KV format") != std::string::npos)
        f.words = Ids(cat.kv_formats);
      else if (m.find("unknown GPU") != std::string::npos)
        f.words = Ids(cat.gpus);
      else if (m.find("unknown engine") != std::string::npos)
        f.words = Ids(cat.engines);
      else if (m.find("unknown MIG profile") != std::string::npos) {
        f.words = {"none"};
        for (const Gpu& gpu : cat.gpus)
          for (const MigProfile& p : gpu.mig_profiles)
            if (std::find(f.words.begin(), f.words.end(), p.name) == f.words.end()) f.words.push_back(p.name);
      }
      INFO(m);
      REQUIRE_FALSE(f.words.empty());  // a field of a kind this sweep does not know yet
    }
    fields.push_back(f);
  }
  return fields;
}

// Values that every field must reject, whatever its kind.
const std::vector<std::string> kGarbage = {
    "",   "nan", "NaN", "-nan", "inf",  "-inf", "infinity", "1e999", "-1e999",   "0x10",
    " 1", "1 ",  "1,5", "abc",  "\x01", "%",    "&",        "=",     "\xff\xfe", "999999999999999999999999999999",
    "-",  "e",   ".",   "+"};

// Texts outside a field's limits, which it must reject.
std::vector<std::string> OutsideValues(const Field& f) {
  std::vector<std::string> v = kGarbage;
  if (f.kind == Kind::kInteger) {
    v.push_back(Text(f.lo - 1));
    v.push_back(Text(f.hi + 1));
    v.push_back("-1");
    v.push_back("-0");
    v.push_back(std::to_string(static_cast<long long>(f.hi) * 10));
    v.push_back("1e3");
    v.push_back("5.0");
    v.push_back("+5");
    v.push_back("9223372036854775807");
    v.push_back("18446744073709551616");
  } else if (f.kind == Kind::kNumber) {
    v.push_back(Text(std::nextafter(f.lo, -1e300)));
    if (f.zero_or) v.push_back(Text(f.lo / 2)), v.push_back("1e-300");
    v.push_back(Text(std::nextafter(f.hi, 1e300)));
    v.push_back(Text(f.hi * 2 + 1));
    v.push_back("-1");
    v.push_back("1e308");
    v.push_back("-1e308");
  } else {
    v.push_back(f.words.front() + "x");
    v.push_back(" " + f.words.front());
    std::string upper = f.words.front();
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper != f.words.front()) v.push_back(upper);
  }
  return v;
}

// Texts at and just inside the limits, which the field must accept.
std::vector<std::string> EdgeValues(const Field& f) {
  std::vector<std::string> v;
  if (f.kind == Kind::kInteger) {
    v = {Text(f.lo), Text(f.hi), Text(std::min(f.lo + 1, f.hi)), Text(std::max(f.hi - 1, f.lo))};
    if (!f.special.empty()) v.push_back(f.special);
  } else if (f.kind == Kind::kNumber) {
    v = {Text(f.lo), Text(f.hi), Text(std::nextafter(f.hi, f.lo))};
    if (f.zero_or) v.insert(v.end(), {"0", "-0", "0.0"});
    if (f.lo == 0) {
      // Zero in other spellings, and the smallest normal numbers above it (the parser rejects
      // subnormal ones: strtod reports them as out of range).
      v.insert(v.end(), {"-0", "0.0", "0e5", "1e-300", "2.2250738585072014e-308"});
    } else {
      v.push_back(Text(std::nextafter(f.lo, f.hi)));
    }
  } else {
    v = {f.words.front(), f.words.back()};
  }
  return v;
}

// A text inside the limits: ids and words in turn (`turn` counts this field's picks), so every
// catalog entry is swept; numbers uniform or log-uniform.
std::string InsideValue(const Field& f, std::mt19937_64& rng, size_t& turn) {
  if (f.kind == Kind::kIds || f.kind == Kind::kChoice) return f.words[turn++ % f.words.size()];
  if (f.zero_or && rng() % 4 == 0) return "0";
  std::uniform_real_distribution<double> unit(0, 1);
  const double lo = f.lo, hi = f.hi;
  double v = lo + (hi - lo) * unit(rng);
  if (rng() % 2) {
    const double llo = std::log(std::max(lo, hi * 1e-12)), lhi = std::log(hi);
    v = std::exp(llo + (lhi - llo) * unit(rng));
  }
  v = std::clamp(v, lo, hi);
  if (f.kind == Kind::kInteger) return Text(std::clamp(std::round(v), lo, hi));
  return Text(v);
}

// "nan", "inf" or "n/a" as a word of their own (not "infiniband", not "finance").
bool PrintsNonFinite(const std::string& text) {
  auto letter = [&](size_t i) { return i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])); };
  for (size_t i = 0; i + 3 <= text.size(); ++i) {
    std::string w = text.substr(i, 3);
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if ((w == "nan" || w == "inf" || w == "n/a") && (i == 0 || !letter(i - 1)) && !letter(i + 3)) return true;
  }
  return false;
}

// [SECTION] The JSON walk ----------------------------------------------------------------
// Keys whose numbers may be negative, and why. Everything else is a size, count, time, rate,
// cost, share or ratio and must be >= 0.
const std::set<std::string> kSigned = {
    "headroom_bytes",  // usable - total: negative by design when the scenario does not fit
};
// Keys whose value may be null in place of a number, and why.
const std::set<std::string> kOptional = {
    "params_published",         // the model card's parameter count; null when the catalog has none
    "active_params_published",  // the card's active count (MoE); null when the catalog has none
};

struct Walk {
  long long numbers = 0;
  long long signed_negative = 0;  // negatives under a kSigned key: the list is not just in case
  std::vector<std::string> failures;
  std::set<std::string> seen_failure_kinds;  // one report per (call, key, problem)

  void Fail(const std::string& call, const std::string& path, const std::string& what, const std::string& hash) {
    // One report per call, path without array indices, and problem without its value.
    std::string kind_key = call + " " + std::regex_replace(path, std::regex(R"(\[\d+\])"), "[]") + " " +
                           what.substr(0, what.find_first_of("('"));
    if (!seen_failure_kinds.insert(kind_key).second) return;
    failures.push_back(call + ": " + path + " " + what + "\n    scenario: #" + hash);
  }

  void Number(const std::string& call, const std::string& path, const std::string& key, double v,
              const std::string& hash) {
    ++numbers;
    if (!std::isfinite(v))
      Fail(call, path, "is not finite (" + Text(v) + ")", hash);
    else if (v < 0 && !kSigned.count(key))
      Fail(call, path, "is negative (" + Text(v) + ")", hash);
    else if (v < 0)
      ++signed_negative;
  }

  void Json(const std::string& call, const nlohmann::json& j, const std::string& path, const std::string& key,
            const std::string& hash, const nlohmann::json* unknown = nullptr) {
    if (j.is_object()) {
      // A figure the estimate could not give is null, with its reason under "unknown"; every
      // key there must be null (never a 0 that reads as a measurement).
      const nlohmann::json* why = j.contains("unknown") && j["unknown"].is_object() ? &j["unknown"] : nullptr;
      if (why)
        for (auto it = why->begin(); it != why->end(); ++it) {
          if (!j.contains(it.key()) || !j[it.key()].is_null())
            Fail(call, path + ".unknown." + it.key(), "names a figure that is not null", hash);
          if (!it.value().is_string() || it.value().get<std::string>().empty())
            Fail(call, path + ".unknown." + it.key(), "has no reason", hash);
        }
      for (auto it = j.begin(); it != j.end(); ++it) Json(call, it.value(), path + "." + it.key(), it.key(), hash, why);
      return;
    } else if (j.is_array()) {
      size_t i = 0;
      for (const auto& e : j) Json(call, e, path + "[" + std::to_string(i++) + "]", key, hash);
    } else if (j.is_number()) {
      Number(call, path, key, j.get<double>(), hash);
    } else if (j.is_null()) {
      // The reports write a non-finite number as null; an unknown figure is null with a reason.
      const bool explained = unknown && unknown->contains(key);
      if (!kOptional.count(key) && !explained) Fail(call, path, "is null (a NaN or infinity before the JSON)", hash);
    } else if (j.is_string()) {
      Words(call, path, j.get<std::string>(), hash);
    }
  }

  // Formulas, assumptions and warnings are on screen too: no "nan" or "inf" printed into them.
  // FormatFixed prints a non-finite number as "n/a", printf as "nan" or "inf".
  void Words(const std::string& call, const std::string& path, const std::string& text, const std::string& hash) {
    if (PrintsNonFinite(text)) Fail(call, path, "prints a NaN or infinity: '" + text.substr(0, 160) + "'", hash);
  }

  void Report(const std::string& call, const std::string& dump, const std::string& hash) {
    const nlohmann::json j = nlohmann::json::parse(dump, nullptr, false);
    if (j.is_discarded()) {
      Fail(call, "", "is not valid JSON", hash);
      return;
    }
    Json(call, j, "", "", hash);
  }

  // An estimate that fails says which field and why: "<field or scenario>: <reason>".
  void ErrorMessage(const std::string& call, const std::string& message, const std::vector<Field>& fields,
                    const std::string& hash) {
    const size_t colon = message.find(": ");
    bool named = false;
    if (colon != std::string::npos && colon + 2 < message.size()) {
      const std::string who = message.substr(0, colon);
      named =
          who == "scenario" || std::any_of(fields.begin(), fields.end(), [&](const Field& f) { return f.key == who; });
    }
    if (!named) Fail(call, "error", "does not name a field and say why: '" + message + "'", hash);
  }
};

// [SECTION] One scenario through the page's calls -----------------------------------------
void RunScenario(const Catalog& cat, const Scenario& s, bool compare, const std::vector<Field>& fields, Walk& w,
                 const std::string& hash) {
  Result<MemoryEstimate> memory = EstimateMemory(cat, s);
  if (!memory) {
    w.ErrorMessage("fit", memory.error(), fields, hash);
  } else {
    w.Report("fit", FitReportJson(cat, s, *memory), hash);
    Result<SpeedEstimate> speed = EstimateSpeed(cat, s, *memory);
    if (!speed) {
      w.ErrorMessage("speed", speed.error(), fields, hash);
    } else {
      const CostEstimate cost = EstimateCost(cat, s, *speed);
      w.Report("speed", SpeedReportJson(cat, s, *memory, *speed, cost), hash);
      w.Report("cost", CostReportJson(s, *speed, cost), hash);  // with the monthly series
      // What the page's "Copy Markdown" and the CLI's --format md print.
      for (const Records& r : {FitRecords(*memory), SpeedRecords(*speed), CostRecords(s, cost)}) {
        for (const auto& row : r.rows)
          for (const Cell& c : row)
            if (c.kind == Cell::Kind::kNumber &&
                (!std::isfinite(c.number) || c.text.find("nan") != std::string::npos || c.text.find("n/a") != std::string::npos))
              w.Fail("records", c.text, "a number cell that is not a finite number", hash);
        (void)FormatRecords(r, "md");
      }
    }
    // The Speed panel's curves: the same estimate at other batches and contexts.
    auto curve = [&](const char* name, const Scenario& t, long long at) {
      Result<MemoryEstimate> m = EstimateMemory(cat, t);
      if (!m) return w.ErrorMessage(name, m.error(), fields, hash);
      Result<SpeedEstimate> v = EstimateSpeed(cat, t, *m);
      if (!v) return w.ErrorMessage(name, v.error(), fields, hash);
      const std::string path = " at " + std::to_string(at) + " .tokens_per_s_";
      w.Number(name, path + "user", "tokens_per_s_user", v->tokens_per_s_user, hash);
      w.Number(name, path + "total", "tokens_per_s_total", v->tokens_per_s_total, hash);
    };
    for (long long b = 1; b <= 512; b *= 2) {
      Scenario t = s;
      t.batch = b;
      curve("batch curve", t, b);
    }
    const Model* model = cat.FindModel(s.model);
    const long long window = model && model->max_context > 0 ? model->max_context : 1048576;
    for (long long c = 1024; c <= window; c = c * 2 > window && c < window ? window : c * 2) {
      Scenario t = s;
      t.context = c;
      t.prompt = std::min(s.prompt, c);
      curve("context curve", t, c);
    }
  }

  Result<TrainEstimate> train = EstimateTraining(cat, s);
  if (!train) {
    w.ErrorMessage("train", train.error(), fields, hash);
  } else {
    w.Report("train", TrainReportJson(s, *train, TrainingScaling(cat, s, 512)), hash);
  }

  Result<Roofline> roofline = BuildRoofline(cat, s);
  if (!roofline) {
    w.ErrorMessage("roofline", roofline.error(), fields, hash);
  } else {
    w.Report("roofline", RooflineReportJson(s, *roofline), hash);
    // The page's chart: log axes need positive, finite, ordered ranges.
    std::vector<ChartPoint> points;
    for (const RoofOp& op : roofline->ops)
      points.push_back({op.phase + ": " + op.name, op.intensity, op.attainable_flops_per_s, PhaseColor(op.phase)});
    const RooflineChart chart = MakeRooflineChart({roofline->roof}, points, roofline->precision);
    for (const auto& [name, v] :
         {std::pair{"x_lo", chart.x_lo}, {"x_hi", chart.x_hi}, {"y_lo", chart.y_lo}, {"y_hi", chart.y_hi}}) {
      w.Number("roofline chart", name, name, v, hash);
      if (!(v > 0)) w.Fail("roofline chart", name, "is not positive on a log axis (" + Text(v) + ")", hash);
    }
    if (!(chart.x_lo < chart.x_hi && chart.y_lo < chart.y_hi)) w.Fail("roofline chart", "axes", "are empty", hash);
    for (const ChartRoof& roof : chart.roofs)
      for (const auto& [x, y] : roof.line) {
        w.Number("roofline chart", "roof " + roof.label + " x", "x", x, hash);
        w.Number("roofline chart", "roof " + roof.label + " y", "y", y, hash);
      }
    if (compare) w.Words("roofline svg", "svg", RooflineSvg(chart), hash);
  }

  if (compare) {
    std::vector<CompareRow> rows = CompareCatalog(cat, s);
    for (const CompareRow& r : rows)
      if (!r.fits && r.note.empty()) w.Fail("compare", r.gpu, "has no note saying why it does not fit", hash);
    SortCompareRows(rows, "tokens_per_s_total");
    w.Report("compare", CompareReportJson(s, rows), hash);
  }
}

// `texts` receives the accepted texts as a hash ("key=value&..."): EncodeState prints numbers
// with three decimals, so only these reproduce a scenario exactly.
using Turns = std::map<std::string, size_t>;  // field -> picks so far (InsideValue)

Scenario RandomScenario(const Catalog& cat, const std::vector<Field>& fields, std::mt19937_64& rng, Turns& turns,
                        Walk& w, std::string* texts = nullptr) {
  Scenario s;
  // Half the scenarios put many fields at their limits at once: the combinations no one tries.
  const int edge_percent = rng() % 2 ? 60 : 15;
  std::vector<const Field*> order;
  for (const Field& f : fields) order.push_back(&f);
  std::shuffle(order.begin(), order.end(), rng);  // fields are independent: order must not matter
  for (const Field* f : order) {
    const int roll = static_cast<int>(rng() % 100);
    if (roll < 10) continue;  // the default
    if (roll < 20) {
      // Outside the limits: rejected with a message naming the field, the scenario unchanged.
      const std::vector<std::string> outside = OutsideValues(*f);
      const std::string& v = outside[rng() % outside.size()];
      const Scenario before = s;
      const std::optional<Error> err = SetField(s, f->key, v, cat);
      if (!err)
        w.Fail("SetField", f->key, "accepted '" + v + "'", EncodeState(s));
      else if (err->message.rfind(f->key + ": ", 0) != 0)
        w.Fail("SetField", f->key, "error does not name the field: " + err->message, "");
      if (!(s == before)) w.Fail("SetField", f->key, "changed the scenario on an error", "");
      continue;
    }
    std::string v;
    if (roll < 20 + edge_percent) {
      const std::vector<std::string> edges = EdgeValues(*f);
      v = edges[rng() % edges.size()];
    } else {
      v = InsideValue(*f, rng, turns[f->key]);
    }
    if (const std::optional<Error> err = SetField(s, f->key, v, cat))
      w.Fail("SetField", f->key, "rejected '" + v + "' inside its limits: " + err->message, EncodeState(s));
    else if (texts)
      *texts += (texts->empty() ? "" : "&") + f->key + "=" + v;
  }
  return s;
}

}  // namespace

TEST_CASE("random and extreme scenarios: every number the page shows is finite and sizes are not negative", "[sweep]") {
  const Catalog& cat = Cat();
  const std::vector<Field> fields = DiscoverFields(cat);
  const unsigned long long seed = EnvNumber("GPUPLAN_SWEEP_SEED", kDefaultSeed);
  const unsigned long long n = EnvNumber("GPUPLAN_SWEEP_N", GPUPLAN_SWEEP_DEFAULT_N);
  std::printf("unit-sweep: seed %llu, %llu scenarios (GPUPLAN_SWEEP_SEED, GPUPLAN_SWEEP_N)\n", seed, n);
  std::mt19937_64 rng(seed);
  Walk w;
  std::map<std::string, std::set<std::string>> used;  // field -> the ids and words it took
  Turns turns;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned long long i = 0; i < n; ++i) {
    std::string texts;
    const Scenario s = RandomScenario(cat, fields, rng, turns, w, &texts);
    for (const Field& f : fields)
      if (f.kind == Kind::kIds || f.kind == Kind::kChoice) used[f.key].insert(GetField(s, f.key));
    RunScenario(cat, s, i % kCompareEvery == 0, fields, w, texts);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("unit-sweep: %lld numbers checked in %.1f s\n", w.numbers, seconds);

  std::string report;
  for (size_t i = 0; i < w.failures.size() && i < 40; ++i) report += w.failures[i] + "\n";
  INFO("seed " << seed << ", " << w.failures.size() << " kinds of failure:\n" << report);
  CHECK(w.failures.empty());
  // Not vacuous: the walk saw the reports' numbers (about four hundred per scenario), and the
  // scenarios that do not fit, with their negative headroom.
  CHECK(w.numbers > static_cast<long long>(n) * 200);
  CHECK(w.signed_negative > 0);
  // Every model, GPU, format, engine and choice was swept (when there were enough scenarios).
  for (const Field& f : fields) {
    if (f.kind != Kind::kIds && f.kind != Kind::kChoice) continue;
    if (n < f.words.size() * 4) continue;
    INFO(f.key);
    CHECK(used[f.key].size() == f.words.size());
  }
}

TEST_CASE("the walk itself: it reports what the sweep looks for", "[sweep]") {
  Walk w;
  w.Report("t", R"({"a": {"bytes": -1}})", "");
  w.Report("t", R"({"b": [1, null]})", "");
  w.Report("t", R"({"c": "1.5 ms = nan / 2"})", "");
  w.Report("t", R"({"d": "n/a GB/s"})", "");
  w.Report("t", "{", "");
  w.ErrorMessage("t", "went wrong", {}, "");
  CHECK(w.failures.size() == 6);
  Walk fine;
  fine.Report("t", R"({"headroom_bytes": -5, "params_published": null, "e": "InfiniBand, financial", "f": 0})", "");
  fine.ErrorMessage("t", "scenario: count must be >= 1", {}, "");
  CHECK(fine.failures.empty());
  CHECK(fine.numbers == 2);
  CHECK(fine.signed_negative == 1);
}

TEST_CASE("every training method, optimizer, ZeRO stage, recompute and offload combination at the extremes",
          "[sweep]") {
  const Catalog& cat = Cat();
  const std::vector<Field> fields = DiscoverFields(cat);
  Walk w;
  // A small dense model, a MoE and the largest one, on a small and a large GPU.
  std::vector<std::string> models = {"llama-3.1-8b"};
  const Model* moe = nullptr;
  const Model* largest = nullptr;
  for (const Model& m : cat.models) {
    if (m.moe && !moe) moe = &m;
    if (!largest || m.layers * m.hidden > largest->layers * largest->hidden) largest = &m;
  }
  if (moe) models.push_back(moe->id);
  if (largest) models.push_back(largest->id);
  int runs = 0, estimates = 0;
  for (const std::string& model : models)
    for (const char* method : {"full", "lora", "qlora"})
      for (const char* optimizer : {"adamw", "adamw-8bit", "adafactor", "sgd", "lion"})
        for (const char* zero : {"0", "1", "2", "3"})
          for (const char* recompute : {"none", "selective", "full"})
            for (const char* offload : {"0", "1", "2"}) {
              Scenario s;
              const int variant = runs++;
              const std::vector<std::pair<const char*, std::string>> set = {
                  {"model", model},
                  {"gpu", variant % 2 ? "rtx-4090" : "h200-sxm"},
                  {"method", method},
                  {"optimizer", optimizer},
                  {"zero", zero},
                  {"recompute", recompute},
                  {"offload", offload},
                  {"master", std::to_string(variant % 2)},
                  {"opt-in-bwd", std::to_string((variant / 2) % 2)},
                  {"flash", std::to_string((variant / 3) % 2)},
                  {"sp", std::to_string((variant / 5) % 2)},
                  {"dp", variant % 3 ? "1" : "65536"},
                  {"count", variant % 5 ? "1" : "8"},
                  {"pp", variant % 7 ? "1" : "64"},
                  {"shard-group", variant % 4 ? "0" : "3"},
                  {"micro-batch", variant % 3 ? "1" : "65536"},
                  {"global-batch", variant % 2 ? "0" : "1"},
                  {"context", variant % 4 ? "1" : "16777216"},
                  {"tokens", variant % 2 ? "1000" : "1e16"},
                  {"mfu", variant % 2 ? "0.01" : "1"},
                  {"lora-rank", variant % 2 ? "1" : "4096"},
                  {"lora-layers", variant % 3 ? "0" : "100000"},
                  {"price-hour", "0"},
                  {"kwh-usd", "0"},
              };
              for (const auto& [key, value] : set) {
                INFO(key << "=" << value);
                REQUIRE_FALSE(SetField(s, key, value, cat).has_value());
              }
              const std::string hash = EncodeState(s);
              Result<TrainEstimate> train = EstimateTraining(cat, s);
              if (!train) {
                w.ErrorMessage("train", train.error(), fields, hash);
                continue;
              }
              ++estimates;
              w.Report("train", TrainReportJson(s, *train, TrainingScaling(cat, s, 512)), hash);
            }
  std::string report;
  for (size_t i = 0; i < w.failures.size() && i < 40; ++i) report += w.failures[i] + "\n";
  INFO(w.failures.size() << " kinds of failure:\n" << report);
  CHECK(w.failures.empty());
  // Not vacuous: most combinations give an estimate (the rest name the field that stops them),
  // each with its scenario, terms, step, cost and scaling curve.
  std::printf("unit-sweep: %d of %d training combinations estimated, %lld numbers checked\n", estimates, runs,
              w.numbers);
  CHECK(estimates > runs / 2);
  CHECK(w.numbers > estimates * 60LL);
}

TEST_CASE("state decoding: garbage and mutated hashes keep valid fields and list the dropped ones", "[sweep]") {
  const Catalog& cat = Cat();
  const std::vector<Field> fields = DiscoverFields(cat);
  const unsigned long long seed = EnvNumber("GPUPLAN_SWEEP_SEED", kDefaultSeed);
  std::mt19937_64 rng(seed);
  Walk w;
  Turns turns;
  const unsigned long long n = EnvNumber("GPUPLAN_SWEEP_N", GPUPLAN_SWEEP_DEFAULT_N) * 2;

  // A decoded scenario is always one the parser accepts field by field.
  auto valid = [&](const Scenario& s) {
    Scenario copy;
    for (const Field& f : fields)
      if (SetField(copy, f.key, GetField(s, f.key), cat)) return false;
    return true;
  };

  // Garbage: keys, separators, escapes and bytes in any order.
  const std::vector<std::string> pieces = {"v=",    "v=1", "v=99", "&",    "&&",   "=",    "==", "%",  "%2",
                                           "%zz",   "%41", "%00",  "#",    "+",    "-",    "1",  "0",  "-1",
                                           "1e999", "nan", "all",  "\x01", "\xff", "\x7f", " ",  "abc"};
  for (unsigned long long i = 0; i < n; ++i) {
    std::string hash = i % 3 ? "#" : "";
    const int len = static_cast<int>(rng() % 24);
    for (int k = 0; k < len; ++k) {
      const int pick = static_cast<int>(rng() % 3);
      if (pick == 0)
        hash += pieces[rng() % pieces.size()];
      else if (pick == 1)
        hash += fields[rng() % fields.size()].key;
      else
        hash += static_cast<char>(rng() % 256);
    }
    const Scenario base = RandomScenario(cat, fields, rng, turns, w);
    const DecodedState d = DecodeState(hash, cat, base);
    if (!valid(d.scenario)) w.Fail("DecodeState", "garbage", "left an invalid scenario", hash);
    for (const std::string& line : d.dropped)
      if (line.empty()) w.Fail("DecodeState", "garbage", "dropped a field without a reason", hash);
  }

  // Mutated valid hashes: pairs made certainly invalid are dropped with one line each and keep
  // the base's value; untouched pairs are kept; removed pairs keep the base's value.
  for (unsigned long long i = 0; i < n; ++i) {
    const Scenario original = RandomScenario(cat, fields, rng, turns, w);
    const Scenario base = RandomScenario(cat, fields, rng, turns, w);
    std::vector<std::string> pairs;
    // '+' reads as a space in a URL (MIG profiles such as 1g.10gb+me carry one): escaped, as
    // EncodeState does.
    auto escaped = [](std::string v) {
      for (size_t at = v.find('+'); at != std::string::npos; at = v.find('+', at)) v.replace(at, 1, "%2B");
      return v;
    };
    for (const Field& f : fields) pairs.push_back(f.key + "=" + escaped(GetField(original, f.key)));
    std::map<std::string, std::string> expect;  // field -> its decoded value text
    size_t invalid = 0;
    std::string hash = "#v=1";
    for (size_t k = 0; k < fields.size(); ++k) {
      const Field& f = fields[k];
      const int roll = static_cast<int>(rng() % 10);
      std::string pair;
      // GetField's text is what the hash carries (EncodeState percent-escapes it; ids and
      // numbers need no escape but a MIG profile's '+').
      if (roll < 5) {
        pair = pairs[k];
        expect[f.key] = GetField(original, f.key);
      } else if (roll == 5) {
        expect[f.key] = GetField(base, f.key);  // removed
        continue;
      } else {
        ++invalid;
        expect[f.key] = GetField(base, f.key);
        const std::vector<std::string> outside = OutsideValues(f);
        std::string bad;
        for (int tries = 0; tries < 8; ++tries) {
          bad = outside[rng() % outside.size()];
          // Values with '&', '=', '%' or '#' change the hash's structure; not what this tests.
          if (bad.find_first_of("&=%#+") == std::string::npos && !bad.empty()) break;
          bad = "?";
        }
        switch (roll) {
          case 6:
            pair = f.key + "=" + bad;
            break;  // a value outside the limits
          case 7:
            pair = f.key + "_x=" + GetField(original, f.key);
            break;  // an unknown key
          case 8:
            pair = f.key + GetField(original, f.key);
            break;  // no '='
          default:
            pair = f.key + "=" + GetField(original, f.key) + "%G1";
            break;  // a bad escape
        }
      }
      hash += (rng() % 4 ? "&" : "&&") + pair;  // an empty part is skipped
    }
    // A MIG profile the decoded GPU lacks is dropped too (DecodeState reads it as none).
    if (const Gpu* g = cat.FindGpu(expect["gpu"]); g && expect["mig"] != "none" &&
        std::none_of(g->mig_profiles.begin(), g->mig_profiles.end(),
                     [&](const MigProfile& p) { return p.name == expect["mig"]; })) {
      ++invalid;
      expect["mig"] = "none";
    }
    const DecodedState d = DecodeState(hash, cat, base);
    // The first kMaxDropped notices, then one "... and K more" line.
    const size_t shown = invalid > kMaxDropped ? kMaxDropped + 1 : invalid;
    if (d.dropped.size() != shown) {
      std::string lines;
      for (const std::string& l : d.dropped) lines += "\n    " + l;
      w.Fail("DecodeState", "mutated",
             "dropped " + std::to_string(d.dropped.size()) + " fields, expected " + std::to_string(shown) + lines,
             hash);
    }
    for (const Field& f : fields)
      if (GetField(d.scenario, f.key) != expect[f.key])
        w.Fail("DecodeState", "mutated " + f.key,
               "is '" + GetField(d.scenario, f.key) + "', expected '" + expect[f.key] + "'", hash);
    if (!valid(d.scenario)) w.Fail("DecodeState", "mutated", "left an invalid scenario", hash);
  }
  std::string report;
  for (size_t i = 0; i < w.failures.size() && i < 40; ++i) report += w.failures[i] + "\n";
  INFO(w.failures.size() << " kinds of failure:\n" << report);
  CHECK(w.failures.empty());
}

namespace {

// Every figure of an estimate, named, for comparing the numbers-only path with the explained
// one (the words are left out: only kExplained builds them).
using Figures = std::vector<std::pair<std::string, double>>;

void AddBand(Figures& f, const std::string& k, const Band& b) {
  f.push_back({k + ".lo", b.lo}), f.push_back({k + ".hi", b.hi}), f.push_back({k + ".cases", b.cases});
}

Figures MemoryFigures(const MemoryEstimate& e) {
  Figures f;
  for (const Term& t : e.terms) f.push_back({"term." + t.key, t.bytes});
  for (const CapacityStep& c : e.device.steps) f.push_back({"step." + c.key, c.bytes});
  for (auto [k, v] :
       std::initializer_list<std::pair<const char*, double>>{{"total", e.total_bytes},
                                                             {"device.total", e.device.total_bytes},
                                                             {"device.runtime", e.device.runtime_bytes},
                                                             {"device.free", e.device.free_bytes},
                                                             {"device.compute_share", e.device.compute_share},
                                                             {"device.bandwidth_share", e.device.bandwidth_share},
                                                             {"capacity", e.capacity_bytes},
                                                             {"usable", e.usable_bytes},
                                                             {"headroom", e.headroom_bytes},
                                                             {"fits", e.fits},
                                                             {"kv_pool", e.kv_pool_bytes},
                                                             {"host", e.host_bytes},
                                                             {"layers_on_gpu", e.layers_on_gpu},
                                                             {"kv_per_token", e.kv_bytes_per_token},
                                                             {"kv_heads", e.kv_heads_per_gpu},
                                                             {"max_context", static_cast<double>(e.max_context)},
                                                             {"max_batch", static_cast<double>(e.max_batch)},
                                                             {"window", static_cast<double>(e.context_window)}})
    f.push_back({k, v});
  AddBand(f, "band", e.band);
  return f;
}

void AddStep(Figures& f, const std::string& k, const StepTime& t) {
  for (const TimeTerm& x : t.terms) f.push_back({k + "." + x.key, x.seconds});
  for (auto [n, v] : std::initializer_list<std::pair<const char*, double>>{{"memory_s", t.memory_s},
                                                                           {"compute_s", t.compute_s},
                                                                           {"serial_s", t.serial_s},
                                                                           {"seconds", t.seconds},
                                                                           {"bytes", t.bytes},
                                                                           {"flops", t.flops}})
    f.push_back({k + "." + n, v});
  f.push_back({k + ".bound=" + t.bound, 1});
}

Figures SpeedFigures(const SpeedEstimate& e) {
  Figures f;
  AddStep(f, "decode", e.decode), AddStep(f, "prefill", e.prefill), AddStep(f, "prefill_one", e.prefill_one);
  for (auto [k, v] :
       std::initializer_list<std::pair<const char*, double>>{{"ttft", e.ttft_s},
                                                             {"tps_user", e.tokens_per_s_user},
                                                             {"tps_total", e.tokens_per_s_total},
                                                             {"prefill_tps", e.prefill_tokens_per_s},
                                                             {"decode_context", e.decode_context},
                                                             {"experts", e.experts_touched},
                                                             {"peak", e.peak_flops},
                                                             {"bandwidth", e.bandwidth},
                                                             {"eta_bw", e.eta_bw},
                                                             {"eta_compute", e.eta_compute},
                                                             {"memory_ceiling", e.memory_ceiling.fraction},
                                                             {"memory_ceiling.n", e.memory_ceiling.measurements},
                                                             {"memory_ceiling.own", e.memory_ceiling.own},
                                                             {"gemm_ceiling", e.gemm_ceiling.fraction},
                                                             {"gemm_ceiling.n", e.gemm_ceiling.measurements},
                                                             {"gemm_ceiling.own", e.gemm_ceiling.own},
                                                             {"link", e.link_bytes_per_s},
                                                             {"kernels", e.kernels.total},
                                                             {"split", static_cast<double>(e.split)}})
    f.push_back({k, v});
  f.push_back({"precision=" + e.compute_precision, 1});
  f.push_back({"link_name=" + e.link_name, 1});
  for (const auto& [k, why] : e.unknown) f.push_back({"unknown." + k, 1});
  AddBand(f, "decode_band", e.decode_band), AddBand(f, "prefill_band", e.prefill_band);
  return f;
}

Figures CostFigures(const CostEstimate& c) {
  Figures f;
  for (auto [k, v] :
       std::initializer_list<std::pair<const char*, double>>{{"cloud_gpu_hour", c.cloud_gpu_hour},
                                                             {"spot_gpu_hour", c.spot_gpu_hour},
                                                             {"cloud_hour", c.cloud_hour},
                                                             {"cloud_per_m_output", c.cloud_per_m_output},
                                                             {"cloud_per_m_input", c.cloud_per_m_input},
                                                             {"spot_per_m_output", c.spot_per_m_output},
                                                             {"purchase_gpu", c.purchase_gpu},
                                                             {"power_w", c.power_w},
                                                             {"energy_hour", c.energy_hour},
                                                             {"owned_hour", c.owned_hour},
                                                             {"owned_per_m_output", c.owned_per_m_output},
                                                             {"owned_per_m_input", c.owned_per_m_input},
                                                             {"break_even", c.break_even_months},
                                                             {"spot_effective", c.spot_effective_gpu_hour},
                                                             {"spot_hour", c.spot_hour},
                                                             {"spot_discount", c.spot_discount},
                                                             {"break_even_spot", c.break_even_spot_months},
                                                             {"busy_hours", c.busy_hours_month},
                                                             {"cloud_month", c.cloud_month},
                                                             {"spot_month", c.spot_month},
                                                             {"owned_month", c.owned_month},
                                                             {"energy_month", c.energy_month},
                                                             {"amortised_month", c.amortised_month}})
    f.push_back({k, v});
  for (const std::vector<double>* series : {&c.months, &c.cloud_total, &c.spot_total, &c.owned_total})
    for (double v : *series) f.push_back({"series", v});
  for (const CostLine& l : c.lines) f.push_back({"line." + l.key, l.usd});
  return f;
}

// The first figure that differs, in words ("" when none): exact equality, the same code ran.
std::string FirstDifference(const Figures& a, const Figures& b) {
  if (a.size() != b.size())
    return "different counts of figures: " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].first != b[i].first || !(a[i].second == b[i].second))
      return a[i].first + " = " + std::to_string(a[i].second) + " explained, " + b[i].first + " = " +
             std::to_string(b[i].second) + " numbers only";
  return "";
}

}  // namespace

TEST_CASE("the numbers-only path gives the explained path's numbers exactly, and the ranking agrees with both",
          "[sweep]") {
  const Catalog& cat = Cat();
  const std::vector<Field> fields = DiscoverFields(cat);
  const unsigned long long n = EnvNumber("GPUPLAN_SWEEP_N", GPUPLAN_SWEEP_DEFAULT_N) / 2 + 1;
  std::mt19937_64 rng(EnvNumber("GPUPLAN_SWEEP_SEED", kDefaultSeed) + 1);
  Walk w;
  Turns turns;
  const CeilingTable ceilings(cat);
  std::map<std::string, ModelFacts> facts;
  int compared = 0, worded = 0, ranked = 0;
  std::vector<std::string> failures;
  auto fail = [&](const std::string& what, const Scenario& s, const std::string& diff) {
    if (failures.size() < 20) failures.push_back(what + " (" + EncodeState(s) + "): " + diff);
  };
  // The ranking's rows (numbers only) against the explained estimates at the row's GPU and count.
  auto rank = [&](const Scenario& s) {
    for (const CompareRow& row : CompareCatalog(cat, s)) {
      if (!row.fits || row.gpus == 0) continue;
      Scenario t = s;
      t.gpu = row.gpu, t.tp = row.gpus / std::max(1, s.pp);
      if (row.gpu != s.gpu) t.mig = "none", t.gpu_mem_gib = 0;
      const Result<MemoryEstimate> m = EstimateMemory(cat, t);
      REQUIRE(m.ok());
      CHECK(m->total_bytes == row.memory_per_gpu);
      const Result<SpeedEstimate> v = EstimateSpeed(cat, t, *m);
      if (!v) continue;
      CHECK(v->tokens_per_s_total == row.tokens_per_s_total);
      CHECK(v->ttft_s == row.ttft_s);
      CHECK(EstimateCost(cat, t, *v).cloud_per_m_output == row.cloud_per_m_output);
      ++ranked;
    }
  };
  for (unsigned long long i = 0; i < n; ++i) {
    const Scenario s = RandomScenario(cat, fields, rng, turns, w);
    Result<Resolved> said = Resolve(cat, s), unsaid = Resolve(cat, s);
    if (!said) continue;
    if (!facts.count(s.model)) facts.emplace(s.model, CountFacts(said->model));
    unsaid->facts = &facts.at(s.model), unsaid->ceilings = &ceilings;
    const Result<MemoryEstimate> m1 = EstimateMemory(*said, s), m2 = EstimateMemory(*unsaid, s, true, Detail::kNumbers);
    REQUIRE(m1.ok() == m2.ok());
    if (!m1) continue;
    if (const std::string d = FirstDifference(MemoryFigures(*m1), MemoryFigures(*m2)); !d.empty()) fail("memory", s, d);
    const Result<SpeedEstimate> v1 = EstimateSpeed(*said, s, *m1),
                                v2 = EstimateSpeed(*unsaid, s, *m2, {}, Detail::kNumbers);
    REQUIRE(v1.ok() == v2.ok());
    ++compared;
    // The words: only the explained path has them.
    worded += !m1->terms.front().formula.empty() && m2->terms.front().formula.empty() && m2->assumptions.empty();
    if (!v1) continue;
    if (const std::string d = FirstDifference(SpeedFigures(*v1), SpeedFigures(*v2)); !d.empty()) fail("speed", s, d);
    const CostEstimate c1 = EstimateCost(*said, s, *v1), c2 = EstimateCost(*unsaid, s, *v2, Detail::kNumbers);
    if (const std::string d = FirstDifference(CostFigures(c1), CostFigures(c2)); !d.empty()) fail("cost", s, d);
    if ((compared - 1) % 40 == 0) rank(s);  // the first estimated scenario, then every 40th
  }
  // And scenarios most rows hold, so the ranking is checked on many GPUs whatever the sample.
  Scenario s70, r1, q;
  s70.model = "llama-3.1-70b", s70.weights = "fp8";
  r1.model = "deepseek-r1", r1.weights = "fp8", r1.context = 32768;
  q.model = "qwen3-30b-a3b", q.weights = "q4_k_m", q.engine = "llama.cpp";
  for (const Scenario& s : {Scenario{}, s70, r1, q}) rank(s);
  std::string report;
  for (const std::string& f : failures) report += f + "\n";
  INFO(report);
  CHECK(failures.empty());
  // Not vacuous: most scenarios estimate, the words differ, and ranked rows were checked.
  CHECK(compared > static_cast<int>(n) / 4);
  CHECK(worded == compared);
  CHECK(ranked > 0);
}
