#include "gpuplan/catalog.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cmath>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "embedded.h"
#include "gpuplan/capacity.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/i18n.h"
#include "gpuplan/limits.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"
#include "json_fields.h"

namespace gpuplan {

using nlohmann::json;

namespace {

// [SECTION] Reading JSON without exceptions ----------------------------------------------
// The core is built with exceptions off for the page, so every access checks its type first.
// `where` names file and entry, e.g. "gpus.json: gpus[2] (id 'l4')".
class Reader {
 public:
  // `sources_elsewhere`: the entry comes from the page's lean built-in catalog, without its
  // "sources" lists (the full files were checked at build time; the page loads them later).
  Reader(const json& obj, std::string where, bool sources_elsewhere = false)
      : obj_(obj), where_(std::move(where)), sources_elsewhere_(sources_elsewhere) {}

  bool Has(const char* key) const {
    Asked(key);
    return obj_.is_object() && obj_.contains(key);
  }
  const std::string& where() const { return where_; }
  bool sources_elsewhere() const { return sources_elsewhere_; }
  // Every problem found in the entry, one per line: the loader reports them all at once.
  std::string error() const {
    std::string all;
    for (const std::string& e : errors_) all += (all.empty() ? "" : "\n") + e;
    return all;
  }
  const std::vector<std::string>& errors() const { return errors_; }
  bool failed() const { return !errors_.empty(); }

  std::string String(const char* key, bool required = true) {
    const json* v = Find(key, required);
    if (!v) return {};
    if (!v->is_string()) return Fail(key, N_("must be a string")), std::string();
    return v->get_ref<const std::string&>();
  }
  // A finite number > 0 (or >= 0 with allow_zero). Catalog quantities are never negative, and
  // none is above limits::kCatalogQuantity, so no product of them overflows a double.
  double Positive(const char* key, bool required = true, bool allow_zero = false) {
    const json* v = Find(key, required);
    if (!v) return 0;
    if (!v->is_number()) return Fail(key, N_("must be a number")), 0;
    double d = v->get<double>();
    if (!std::isfinite(d) || d < 0 || (!allow_zero && d == 0))
      return Fail(key, allow_zero ? N_("must be >= 0") : N_("must be > 0")), 0;
    return Within(key, d, limits::kCatalogQuantity) ? d : 0;
  }
  // `value` (read from `key`, in the limit's unit) at most the limit, else an error naming both.
  bool Within(std::string_view key, double value, const limits::Limit& limit) {
    if (value <= static_cast<double>(limit.max)) return true;
    Fail(key, TrF("is {0}, {1}", {value < 9e18 ? FormatCount(static_cast<int64_t>(value)) : FormatShort(value, 0),
                                  limits::Above(limit)}));
    return false;
  }
  // A whole number that fits an int (every count the catalog holds is cast to one).
  long long Integer(const char* key, bool required = true, bool allow_zero = false) {
    static constexpr limits::Limit kInt{"value of this field", 2147483647, "an int"};
    return Integer(key, kInt, required, allow_zero);
  }
  // A whole number within a real-world limit (limits.h), checked before it is cast or used.
  long long Integer(const char* key, const limits::Limit& limit, bool required = true, bool allow_zero = false) {
    const size_t before = errors_.size();
    double d = Positive(key, required, allow_zero);
    if (errors_.size() != before || d == 0) return 0;
    if (d != std::floor(d)) return Fail(key, N_("must be a whole number")), 0;
    if (!Within(key, d, limit)) return 0;
    return static_cast<long long>(d);
  }
  bool Bool(const char* key, bool fallback, bool required = false) {
    const json* v = Find(key, required);
    if (!v) return fallback;
    if (!v->is_boolean()) return Fail(key, N_("must be true or false")), fallback;
    return v->get<bool>();
  }
  const json* Object(const char* key, bool required = true) {
    const json* v = Find(key, required);
    if (v && !v->is_object()) return Fail(key, N_("must be an object")), nullptr;
    return v;
  }
  const json* Array(const char* key, bool required = true) {
    const json* v = Find(key, required);
    if (v && !v->is_array()) return Fail(key, N_("must be an array")), nullptr;
    return v;
  }
  // `why` is translated where the table has it (the literals passed here are marked N_).
  void Fail(std::string_view field, std::string_view why) {
    Add(TrF("{0}: field '{1}' {2}", {where_, field, Tr(std::string(why).c_str())}));
  }
  void FailEntry(std::string_view why) { Add(where_ + ": " + Tr(std::string(why).c_str())); }
  // Suspicious but not wrong: the entry loads, `catalog validate` shows the warning.
  void Warn(std::string_view field, std::string_view why) {
    std::string w = TrF("{0}: field '{1}' {2}", {where_, field, Tr(std::string(why).c_str())});
    if (std::find(warnings_.begin(), warnings_.end(), w) == warnings_.end()) warnings_.push_back(std::move(w));
  }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The warnings above that are unknown fields (CheckKeys), whole.
  const std::vector<std::string>& unknown() const { return unknown_; }
  // A warning made an error (an unknown field of an entry that fails anyway).
  void Escalate(const std::string& warning) { Add(warning); }
  // Fields the entry holds that nothing read: a misspelt or unknown key is a warning that names
  // the nearest field this entry does read ("bandwith": did you mean "bandwidth"?); `catalog
  // validate --strict` makes it an error. Keys starting with '_' or '$' are comments. Run when
  // the entry is finished: by ReadList for an entry, by Adopt for a nested object.
  void CheckKeys() {
    if (!obj_.is_object()) return;
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
      const std::string& key = it.key();
      if (key.empty() || key[0] == '_' || key[0] == '$' || Documentary(key)) continue;
      if (std::find(asked_.begin(), asked_.end(), key) != asked_.end()) continue;
      const std::string near = NearestWord(key, asked_);
      Warn(key, near.empty() ? std::string(Tr("is not a field of this entry (ignored)"))
                             : TrF("is not a field of this entry (ignored): did you mean '{0}'?", {near}));
      unknown_.push_back(warnings_.back());
    }
  }
  // Fields recorded for the file's readers (a quoted figure in other units, a rule in words)
  // that the estimators do not use: not reported as unknown.
  void Ignore(std::initializer_list<const char*> keys) {
    for (const char* k : keys) Asked(k);
  }
  // By convention a field that explains another: "<field>_why", "<field>_basis",
  // "<field>_examples", "examples".
  static bool Documentary(const std::string& key) {
    auto ends = [&](std::string_view tail) {
      return key.size() > tail.size() && key.compare(key.size() - tail.size(), tail.size(), tail) == 0;
    };
    return key == "examples" || ends("_why") || ends("_basis") || ends("_examples");
  }
  void Adopt(Reader& inner) {
    inner.CheckKeys();
    for (const std::string& e : inner.errors_) Add(e);
    for (const std::string& w : inner.warnings_)
      if (std::find(warnings_.begin(), warnings_.end(), w) == warnings_.end()) warnings_.push_back(w);
    unknown_.insert(unknown_.end(), inner.unknown_.begin(), inner.unknown_.end());
  }

 private:
  void Asked(const char* key) const {
    if (std::find(asked_.begin(), asked_.end(), key) == asked_.end()) asked_.emplace_back(key);
  }
  const json* Find(const char* key, bool required) {
    Asked(key);
    if (!obj_.is_object()) return FailEntry(N_("must be an object")), nullptr;
    auto it = obj_.find(key);
    if (it == obj_.end() || it->is_null()) {
      if (required) Fail(key, N_("is missing"));
      return nullptr;
    }
    return &*it;
  }

  void Add(std::string message) {
    if (std::find(errors_.begin(), errors_.end(), message) == errors_.end()) errors_.push_back(std::move(message));
  }

  const json& obj_;
  std::string where_;
  bool sources_elsewhere_ = false;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_, unknown_;
  mutable std::vector<std::string> asked_;  // every field asked for, present or not
};

Source ReadSource(const json& j, const std::string& where, Reader& parent) {
  Reader r(j, where);
  Source s;
  s.title = r.String("title");
  s.url = r.String("url");
  s.read = r.String("read");
  s.note = r.String("note", false);
  if (const json* fields = r.Array("fields", false)) {
    for (const json& f : *fields) {
      if (!f.is_string()) {
        r.Fail("fields", N_("must list field names as strings"));
        break;
      }
      s.fields.push_back(f.get<std::string>());
    }
  }
  // A date the source was read, so a reader can tell how fresh the figure is.
  if (!s.read.empty() && (s.read.size() != 10 || s.read[4] != '-' || s.read[7] != '-'))
    r.Fail("read", N_("must be a date YYYY-MM-DD"));
  parent.Adopt(r);
  return s;
}

std::vector<Source> ReadSources(Reader& r) {
  std::vector<Source> out;
  if (r.sources_elsewhere() && !r.Has("sources")) return out;
  const json* list = r.Array("sources");
  if (!list) return out;
  if (list->empty()) r.Fail("sources", N_("must name at least one source"));
  for (size_t i = 0; i < list->size(); ++i)
    out.push_back(ReadSource((*list)[i], r.where() + ": sources[" + std::to_string(i) + "]", r));
  return out;
}

// Every numeric field present must be backed by a source that lists it.
void RequireSourced(Reader& r, const std::vector<Source>& sources,
                    std::initializer_list<const char*> numeric_fields) {
  if (r.sources_elsewhere()) return;  // checked on the full files, at build time and on arrival
  for (const char* field : numeric_fields) {
    if (!r.Has(field)) continue;
    bool backed = std::any_of(sources.begin(), sources.end(), [&](const Source& s) {
      return std::find(s.fields.begin(), s.fields.end(), field) != s.fields.end();
    });
    if (!backed) r.Fail(field, N_("has no source (list it in a source's \"fields\")"));
  }
}

double BytesPerUnit(std::string_view unit) {
  if (unit == "GB") return kGB;
  if (unit == "GiB") return kGiB;
  if (unit == "TB") return kTB;
  if (unit == "MB") return kMB;
  if (unit == "MiB") return kMiB;
  return 0;
}

double BytesPerSecondPerUnit(std::string_view unit) {
  if (unit == "TB/s") return kTB;
  if (unit == "GB/s") return kGB;
  return 0;
}

std::string EntryWhere(const std::string& file, const char* list, size_t index, const json& e) {
  std::string where = file + ": " + list + "[" + std::to_string(index) + "]";
  if (e.is_object()) {
    auto it = e.find("id");
    if (it != e.end() && it->is_string()) where += " (id '" + it->get<std::string>() + "')";
  }
  return where;
}

// Cross-field checks that catch the classic catalog mistakes: a bandwidth typed in the wrong
// unit or for the wrong memory, and a sparse figure stored next to a dense one.
// Memory figures against each other and against their memory type. DRAM is built from
// binary-sized chips and stacks (a "16 Gbit" GDDR chip holds 2 GiB, a "24 GB" HBM3e stack 24
// GiB), so the vendor's "GB" is binary on almost every board: the classic slips are a MiB figure
// typed as MB (the RTX 2080 Ti's 11,264), a GiB figure read as 10^9 bytes, and a reading taken
// from another variant of the part.
void CheckGpuMemory(Reader& r, const Gpu& g) {
  const bool dram = !g.memory_type.empty() &&
                    (g.memory_type.rfind("HBM", 0) == 0 || g.memory_type.rfind("GDDR", 0) == 0 ||
                     g.memory_type.find("DDR") != std::string::npos);
  const std::string& unit = g.memory_quoted_unit;
  const double v = g.memory_quoted_value;
  if (dram && unit == "MB" && v >= 1024) {
    const bool binary = std::fmod(v, 256) == 0;
    r.Warn("memory", binary ? TrF("{0} MB of {1}: a multiple of 256, so the vendor means MiB (use unit MiB or GB)",
                                  {FormatShort(v), g.memory_type})
                            : TrF("{0} MB of {1}: device memory is quoted in GB or GiB (use unit MiB or GB)",
                                  {FormatShort(v), g.memory_type}));
  }
  if (dram && unit == "TB")
    r.Warn("memory", TrF("{0} TB for one device: is it a whole system's figure?", {FormatShort(v)}));
  if (g.memory_derived && std::fmod(g.memory_derived->bytes, kMiB) != 0)
    r.Warn("memory_derived",
           N_("is not a whole number of MiB: a figure derived from chips and stacks is binary (use GiB)"));
  // The quoted figure read as binary: what the DRAM holds before anything is reserved.
  const double binary = g.QuotedBinaryBytes();
  auto check_total = [&](const char* field, const MemoryFigure& f) {
    if (!(binary > 0) || g.unified) return;
    const double ecc_share = f.ecc.value_or(false) ? g.ecc_reserved_fraction : 0;
    const double expected = binary * (1 - ecc_share);
    const std::string mib = FormatCount(static_cast<long long>(f.bytes / kMiB)) + " MiB";
    if (f.bytes > binary * 1.1)
      r.Fail(field, TrF("{0} is more than 1.1 × the quoted {1} {2} read as binary ({3} MiB): is the reading from "
                        "another part or variant?",
                        {mib, FormatShort(v), unit, FormatCount(static_cast<long long>(binary / kMiB))}));
    else if (f.bytes < expected * 0.85 && ecc_share > 0)
      r.Warn(field, TrF("{0} is {1}% below the quoted {2} {3} read as binary less ECC: is the reading from another "
                        "part or variant?",
                        {mib, FormatFixed((1 - f.bytes / expected) * 100, 0), FormatShort(v), unit}));
    else if (f.bytes < expected * 0.85)
      r.Warn(field, TrF("{0} is {1}% below the quoted {2} {3} read as binary: is the reading from another part or "
                        "variant?",
                        {mib, FormatFixed((1 - f.bytes / expected) * 100, 0), FormatShort(v), unit}));
  };
  if (g.memory_reported) check_total("memory_reported_mib", *g.memory_reported);
  if (g.memory_derived) check_total("memory_derived", *g.memory_derived);
  if (g.memory_runtime && g.memory_reported && g.memory_runtime->bytes > g.memory_reported->bytes)
    r.Fail("memory_runtime_mib", N_("is above the driver's total (memory_reported_mib)"));
  if (g.memory_runtime && g.memory_reported && g.memory_runtime->ecc.has_value() && g.memory_reported->ecc.has_value() &&
      *g.memory_runtime->ecc != *g.memory_reported->ecc)
    r.Fail("memory_runtime_mib", N_("was read with another ECC state than memory_reported_mib"));
  if (!g.memory_reported && !g.memory_derived)
    r.Warn("memory", TrF("has no driver-reported total (memory_reported_mib) and none derived from the chips "
                         "(memory_derived): the quoted {0} {1} is read as binary",
                         {FormatShort(v), unit}));
  if (g.ecc_reserved_fraction > 0 && g.memory_reported && !g.memory_reported->ecc.has_value())
    r.Warn("memory_reported_mib", N_("does not say whether ECC was on (\"ecc\"), which changes this card's total"));
}

void CheckGpuConsistency(Reader& r, const Gpu& g) {
  CheckGpuMemory(r, g);
  if (g.bandwidth_bytes_per_s > 0 && !g.memory_type.empty()) {
    // Shipping parts per memory family span these ranges (per device), with margin:
    // HBM2 P100 720 GB/s ... HBM3e B300 8 TB/s; GDDR5 T4-class 300 GB/s ... GDDR7 RTX 5090 1.8 TB/s;
    // LPDDR5/5X Apple M-series 100 ... 800 GB/s.
    struct Range { const char* prefix; double lo_gb_s, hi_gb_s; };
    static const Range kRanges[] = {{"HBM", 200, 20000}, {"GDDR", 50, 3000}, {"LPDDR", 30, 1500}, {"DDR", 10, 1000}};
    const double gb_s = g.bandwidth_bytes_per_s / kGB;
    for (const Range& range : kRanges) {
      if (g.memory_type.rfind(range.prefix, 0) != 0) continue;
      if (gb_s < range.lo_gb_s || gb_s > range.hi_gb_s)
        r.Fail("bandwidth", TrF("{0} GB/s is implausible for {1} (expected {2} to {3} GB/s)",
                                {FormatFixed(gb_s, 0), g.memory_type, FormatFixed(range.lo_gb_s, 0),
                                 FormatFixed(range.hi_gb_s, 0)}));
      break;
    }
  }
  // FP8 runs at 1x (TPU v5p, Gaudi 3) to 2x (Hopper, Ada, Blackwell, CDNA3) the BF16/FP16 rate; more than
  // 2x means one of them is a sparse figure.
  auto rate = [&](const char* p) {
    auto it = g.dense_flops.find(p);
    return it == g.dense_flops.end() ? 0.0 : it->second;
  };
  const double fp8 = rate("fp8"), half = std::max(rate("bf16"), rate("fp16"));
  if (fp8 > 0 && half > 0 && (fp8 > 2.05 * half || fp8 < 0.95 * half))
    r.Fail("dense_tflops.fp8", TrF("{0} is not 1-2x the 16-bit rate {1}: is one of them a sparse figure?",
                                   {FormatFixed(fp8 / 1e12, 1), FormatFixed(half / 1e12, 1)}));
}

Gpu ReadGpu(Reader& r) {
  Gpu g;
  g.id = r.String("id");
  g.name = r.String("name");
  g.vendor = r.String("vendor");
  g.architecture = r.String("architecture", false);
  g.year = static_cast<int>(r.Integer("year", false));
  if (g.year != 0 && (g.year < 2010 || g.year > 2035)) r.Fail("year", N_("must be a year from 2010 to 2035"));
  g.form_factor = r.String("form_factor", false);
  if (const json* mem = r.Object("memory")) {
    Reader m(*mem, r.where() + ": memory");
    g.memory_quoted_value = m.Positive("value");
    g.memory_quoted_unit = m.String("unit");
    g.memory_type = m.String("type", false);
    double per = BytesPerUnit(g.memory_quoted_unit);
    if (!g.memory_quoted_unit.empty() && per == 0) m.Fail("unit", N_("must be one of GB, GiB, TB, MB, MiB"));
    g.memory_quoted_bytes = g.memory_quoted_value * per;
    if (!m.Within("value", g.memory_quoted_bytes / 1e9, limits::kDeviceMemoryGb)) g.memory_quoted_bytes = 0;
    r.Adopt(m);
  }
  // Memory totals with their own sources: the driver's reading, the runtime's, or one derived
  // from the memory configuration.
  auto figure = [&](const char* key, bool in_mib) -> std::optional<MemoryFigure> {
    const json* obj = r.Object(key, false);
    if (!obj) return std::nullopt;
    Reader m(*obj, r.where() + ": " + key);
    MemoryFigure f;
    double per = kMiB;
    if (!in_mib) {
      const std::string unit = m.String("unit");
      per = BytesPerUnit(unit);
      if (!unit.empty() && per == 0) m.Fail("unit", N_("must be one of GiB, MiB (GB, MB, TB are accepted but warned)"));
    }
    f.bytes = m.Positive("value") * per;
    f.how = m.String("how");
    if (m.Has("ecc")) f.ecc = m.Bool("ecc", false);
    if (const json* src = m.Object("source", !r.sources_elsewhere())) {
      Source s = ReadSource(*src, m.where() + ": source", m);
      s.fields = {key};
      g.sources.push_back(s);
    }
    const bool ok = !m.failed();
    r.Adopt(m);
    if (!ok) return std::nullopt;
    return f;
  };
  g.memory_reported = figure("memory_reported_mib", true);
  g.memory_runtime = figure("memory_runtime_mib", true);
  g.memory_derived = figure("memory_derived", false);
  if (r.Has("runtime_devices")) {
    g.runtime_devices = static_cast<int>(r.Integer("runtime_devices"));
    if (g.runtime_devices > 8) r.Fail("runtime_devices", N_("must be from 1 to 8"));
  }
  if (const json* uni = r.Object("unified_memory", false)) {
    Reader u(*uni, r.where() + ": unified_memory");
    UnifiedMemory um;
    um.rule = u.String("rule");
    um.note = u.String("note", false);
    um.gpu_fraction = u.Positive("gpu_fraction", um.rule == "fraction");
    if (um.gpu_fraction > 1) u.Fail("gpu_fraction", N_("must be a fraction from 0 to 1"));
    if (const json* src = u.Object("source", !r.sources_elsewhere())) {
      Source s = ReadSource(*src, u.where() + ": source", u);
      s.fields = {"unified_memory"};
      g.sources.push_back(s);
    }
    if (!um.rule.empty() && !IsUnifiedMemoryRule(um.rule))
      u.Fail("rule", TrF("must be one of {0}", {UnifiedMemoryRuleNames()}));
    r.Adopt(u);
    g.unified = um;
  }
  if (const json* bw = r.Object("bandwidth", false)) {  // absent where no source gives it
    Reader b(*bw, r.where() + ": bandwidth");
    double v = b.Positive("value");
    std::string unit = b.String("unit");
    double per = BytesPerSecondPerUnit(unit);
    if (!unit.empty() && per == 0) b.Fail("unit", N_("must be TB/s or GB/s"));
    g.bandwidth_bytes_per_s = b.Within("value", v * per / 1e9, limits::kDeviceBandwidthGbs) ? v * per : 0;
    r.Adopt(b);
  }
  auto tflops = [&](const char* key, std::map<std::string, double>& into) {
    const json* flops = r.Object(key, false);
    if (!flops) return;
    for (auto it = flops->begin(); it != flops->end(); ++it) {
      if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
        r.Fail(std::string(key) + "." + it.key(), N_("must be a number > 0 (leave unsupported precisions out)"));
        break;
      }
      if (!r.Within(std::string(key) + "." + it.key(), it->get<double>(), limits::kDeviceTflops)) break;
      into[it.key()] = it->get<double>() * 1e12;
    }
  };
  tflops("dense_tflops", g.dense_flops);
  tflops("sparse_tflops", g.sparse_flops);
  for (const auto& [precision, flops] : g.sparse_flops) {
    auto dense = g.dense_flops.find(precision);
    if (dense == g.dense_flops.end())
      r.Fail("sparse_tflops." + precision, N_("has no dense figure next to it in dense_tflops"));
    else if (!(flops > dense->second && flops <= 2.0001 * dense->second))
      r.Fail("sparse_tflops." + precision, N_("must be above the dense figure and at most twice it"));
  }
  g.tdp_w = r.Positive("tdp_w", false);
  if (!r.Within("tdp_w", g.tdp_w, limits::kDeviceWatts)) g.tdp_w = 0;
  g.sparsity_factor = r.Positive("sparsity_factor", false);
  if (g.sparsity_factor != 0 && (g.sparsity_factor < 1 || g.sparsity_factor > 4))
    r.Fail("sparsity_factor", N_("must be from 1 to 4 (2 for 2:4 structured sparsity)"));
  g.l2_cache_bytes = r.Positive("l2_cache_mib", false) * kMiB;
  g.boost_clock_hz = r.Positive("boost_clock_mhz", false) * 1e6;
  if (!r.Within("boost_clock_mhz", g.boost_clock_hz / 1e6, limits::kClockMhz)) g.boost_clock_hz = 0;
  if (const json* cu = r.Object("compute_units", false)) {
    Reader c(*cu, r.where() + ": compute_units");
    g.compute_units = static_cast<int>(c.Integer("value"));
    g.compute_unit_kind = c.String("kind");
    r.Adopt(c);
  }
  if (const json* link = r.Object("interconnect", false)) {
    Reader l(*link, r.where() + ": interconnect");
    Interconnect ic;
    ic.kind = l.String("kind");
    ic.generation = static_cast<int>(l.Integer("generation", false));
    ic.bytes_per_s = l.Positive("gb_per_s", false) * kGB;
    ic.note = l.String("note", false);
    ic.fabric = l.String("fabric", false);
    r.Adopt(l);
    g.interconnect = ic;
  }
  if (const json* pcie = r.Object("pcie", false)) {
    Reader p(*pcie, r.where() + ": pcie");
    g.pcie_gen = static_cast<int>(p.Integer("gen"));
    g.pcie_lanes = static_cast<int>(p.Integer("lanes", false));
    if ((g.pcie_gen > 7 || g.pcie_lanes > 32)) p.FailEntry(N_("gen must be 1..7 and lanes 1..32"));
    r.Adopt(p);
  }
  if (const json* ecc = r.Object("ecc", false)) {
    Reader e(*ecc, r.where() + ": ecc");
    g.ecc = e.Bool("supported", false);
    g.ecc_default_on = e.Bool("default_on", *g.ecc);
    g.ecc_reserved_fraction = e.Positive("reserved_fraction", false, /*allow_zero=*/true);
    if (g.ecc_reserved_fraction >= 0.5) e.Fail("reserved_fraction", N_("must be below 0.5"));
    g.ecc_note = e.String("note", false);
    r.Adopt(e);
  }
  g.mig = r.String("mig", false);
  if (const json* mig = r.Object("mig_profiles", false)) {
    Reader mp(*mig, r.where() + ": mig_profiles");
    if (const json* list = mp.Array("profiles")) {
      for (size_t i = 0; i < list->size(); ++i) {
        Reader pr((*list)[i], mp.where() + ": profiles[" + std::to_string(i) + "]");
        MigProfile p;
        p.name = pr.String("name");
        p.bytes = pr.Positive("memory_mib") * kMiB;
        p.max_instances = static_cast<int>(pr.Integer("max_instances", false));
        if (p.max_instances > 8) pr.Fail("max_instances", N_("must be from 1 to 8"));
        mp.Adopt(pr);
        g.mig_profiles.push_back(p);
      }
    }
    mp.String("how");
    if (const json* src = mp.Object("source", !r.sources_elsewhere())) {
      Source s = ReadSource(*src, mp.where() + ": source", mp);
      s.fields = {"mig_profiles"};
      g.sources.push_back(s);
    }
    r.Adopt(mp);
  }
  if (const json* prices = r.Array("prices", false)) {
    for (size_t i = 0; i < prices->size(); ++i) {
      Reader pr((*prices)[i], r.where() + ": prices[" + std::to_string(i) + "]");
      Price price;
      price.usd = pr.Positive("usd", false);
      price.jpy = pr.Positive("jpy", false);
      if ((price.usd > 0) == (price.jpy > 0))
        pr.FailEntry(N_("needs one amount: usd, or jpy for a price quoted in yen"));
      price.kind = pr.String("kind");
      price.date = pr.String("date");
      if (!price.kind.empty() && price.kind != "launch" && price.kind != "street" && price.kind != "estimate")
        pr.Fail("kind", N_("must be launch, street or estimate"));
      if (const json* src = pr.Object("source")) price.source = ReadSource(*src, pr.where() + ": source", pr);
      r.Adopt(pr);
      g.prices.push_back(price);
    }
  }
  std::vector<Source> sources = ReadSources(r);
  sources.insert(sources.end(), g.sources.begin(), g.sources.end());
  g.sources = std::move(sources);
  CheckGpuConsistency(r, g);
  RequireSourced(r, g.sources, {"memory", "bandwidth", "dense_tflops", "sparse_tflops", "tdp_w", "sparsity_factor", "l2_cache_mib", "runtime_devices",
                                "compute_units", "boost_clock_mhz", "interconnect", "pcie", "ecc"});
  return g;
}

// A model is either a Hugging Face config ("config": {...}, read by ImportHfConfig, the same
// code as `gpuplan import-hf`) or flat Llama-style fields (layers, hidden, heads, ...).
Model ReadModel(Reader& r) {
  Model m;
  const std::string id = r.String("id");
  if (const json* config = r.Object("config", false)) {
    Result<Model> imported = ImportHfConfig(config->dump(), r.where() + ": config", id);
    if (!imported.ok()) {
      r.FailEntry(imported.error().substr(imported.error().find(": config") + 2));
      return m;
    }
    m = std::move(imported).value();
  } else {
    m.id = id;
    m.layers = static_cast<int>(r.Integer("layers", limits::kLayers));
    m.hidden = static_cast<int>(r.Integer("hidden", limits::kHidden));
    m.heads = static_cast<int>(r.Integer("heads", limits::kHeads));
    m.kv_heads = static_cast<int>(r.Integer("kv_heads", limits::kHeads));
    m.head_dim = static_cast<int>(r.Integer("head_dim", limits::kHeadDim));
    m.intermediate = static_cast<int>(r.Integer("intermediate", limits::kIntermediate, false));
    m.vocab = static_cast<int>(r.Integer("vocab", limits::kVocab));
    m.max_context = r.Integer("max_context", limits::kContext, false);
    m.tie_embeddings = r.Bool("tie_embeddings", false);
    if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
      r.Fail("kv_heads", TrF("must divide heads ({0})", {std::to_string(m.heads)}));
  }
  m.name = r.String("name");
  m.hf_repo = r.String("hf_repo", false);
  m.params = r.Positive("params", false);
  m.active_params = r.Positive("active_params", false);
  m.notes = r.String("notes", false);
  m.sources = ReadSources(r);
  // The publisher's conventions, so the counts compare like with like.
  m.published_excludes_vision = r.Bool("published_excludes_vision", false);
  m.published_includes_mtp = r.Bool("published_includes_mtp", false);
  m.active_excludes = r.String("active_excludes", false);
  if (!m.active_excludes.empty() && m.active_excludes != "input_embedding" && m.active_excludes != "embeddings")
    r.Fail("active_excludes", N_("must be input_embedding or embeddings"));
  // Publishers round: "37B" stands for anything from 36.5 to 37.5 B.
  double rounded_total = 0, rounded_active = 0;
  if (const json* rounding = r.Object("published_rounding", false)) {
    Reader pr(*rounding, r.where() + ": published_rounding");
    rounded_total = pr.Positive("params", false);
    rounded_active = pr.Positive("active_params", false);
    r.Adopt(pr);
  }
  // The architecture must account for the published counts, total and active (2%: publishers
  // round, and some checkpoints carry buffers; or half the stated rounding unit). A miss means a
  // wrong config, a layout gpuplan misreads, or a convention the entry does not state.
  if (m.layers > 0) {
    const ParamCount c = CountParams(m);
    auto check = [&](const char* field, double published, double computed, double unit, const std::string& convention) {
      if (!(published > 0)) return;
      const double tolerance = std::max(0.02, unit / 2 / published + 0.005);
      if (std::abs(computed / published - 1) > tolerance)
        r.Fail(field,
               TrF("published {0} but the architecture gives {1}{2} (more than {3}% apart)",
                   {FormatParams(published), FormatParams(computed), convention, FormatFixed(tolerance * 100, 1)}));
    };
    std::string total_convention = m.published_excludes_vision && c.vision > 0 ? Tr(" without the vision tower") : "";
    if (m.published_includes_mtp) total_convention += Tr(" with the MTP module");
    check("params", m.params, PublishedConventionTotal(m, c), rounded_total, total_convention);
    check("active_params", m.active_params, PublishedConventionActive(m, c), rounded_active,
          m.active_excludes.empty()           ? ""
          : m.active_excludes == "embeddings" ? Tr(" without the embeddings")
                                              : Tr(" without the input embedding"));
  }
  RequireSourced(r, m.sources, {"config", "params", "active_params", "layers", "hidden", "heads", "kv_heads",
                                "head_dim", "intermediate", "vocab", "max_context"});
  return m;
}

InterconnectSpec ReadInterconnect(Reader& r) {
  InterconnectSpec l;
  l.id = r.String("id");
  l.name = r.String("name");
  l.kind = r.String("kind");
  l.generation = static_cast<int>(r.Integer("generation", false));
  l.links = static_cast<int>(r.Integer("links", false));
  l.domain_gpus = static_cast<int>(r.Integer("domain_gpus", false));
  l.raw_bytes_per_s = r.Positive("raw_gb_per_s", false) * kGB;
  l.effective_bytes_per_s = r.Positive("effective_gb_per_s", false) * kGB;
  l.bidirectional_bytes_per_s = r.Positive("bidirectional_gb_per_s", false) * kGB;
  l.domain_total_bytes_per_s = r.Positive("total_domain_tb_per_s", false) * kTB;
  l.measured_busbw_bytes_per_s = r.Positive("measured_busbw_gb_per_s", false) * kGB;
  l.latency_s = r.Positive("latency_us", false) * 1e-6;
  l.scope = r.String("scope", false);
  l.notes = r.String("notes", false);
  if (l.effective_bytes_per_s > 0 && l.raw_bytes_per_s > 0 && l.effective_bytes_per_s > l.raw_bytes_per_s * 1.0001)
    r.Fail("effective_gb_per_s", N_("must not exceed raw_gb_per_s"));
  l.sources = ReadSources(r);
  RequireSourced(r, l.sources, {"raw_gb_per_s", "effective_gb_per_s", "bidirectional_gb_per_s", "total_domain_tb_per_s",
                                "measured_busbw_gb_per_s", "latency_us", "domain_gpus", "links"});
  return l;
}

MeasuredCeiling ReadCeiling(Reader& r) {
  MeasuredCeiling c;
  c.id = r.String("id");
  c.gpu = r.String("gpu");
  c.what = r.String("what");
  const std::string unit = r.String("unit");
  const double measured = r.Positive("measured");
  // The unit a kind is quoted in, and its SI scale.
  struct Kind {
    const char* what;
    const char* unit;
    double scale;
  };
  static constexpr Kind kKinds[] = {{"gemm", "TFLOP/s", 1e12},        {"memory", "GB/s", 1e9},
                                    {"pcie", "GB/s", 1e9},            {"allreduce_busbw", "GB/s", 1e9},
                                    {"allreduce_latency", "us", 1e-6}};
  const Kind* kind = nullptr;
  for (const Kind& k : kKinds)
    if (c.what == k.what) kind = &k;
  if (!r.failed() && !kind) r.Fail("what", N_("must be gemm, memory, pcie, allreduce_busbw or allreduce_latency"));
  if (kind && !r.failed() && unit != kind->unit)
    r.Fail("unit", TrF("must be {0} for {1} (is '{2}')", {kind->unit, c.what, unit}));
  if (kind) c.value = measured * kind->scale;
  c.precision = r.String("precision", c.what == "gemm");
  c.gpus = static_cast<int>(r.Integer("gpus", c.what.rfind("allreduce", 0) == 0));
  c.message_bytes = r.Positive("message_bytes", c.what == "allreduce_latency");
  c.tool = r.String("tool");
  c.notes = r.String("notes", false);
  c.sources = ReadSources(r);
  RequireSourced(r, c.sources, {"measured"});
  return c;
}

CloudOffer ReadCloudOffer(Reader& r) {
  CloudOffer o;
  o.id = r.String("id");
  o.provider = r.String("provider");
  o.instance = r.String("instance");
  o.gpu = r.String("gpu");
  o.gpu_count = static_cast<int>(r.Integer("gpu_count"));
  o.interconnect = r.String("interconnect", false);
  o.region = r.String("region", false);
  o.date = r.String("date");
  if (!o.date.empty() && (o.date.size() < 7 || o.date[4] != '-')) r.Fail("date", N_("must be YYYY-MM or YYYY-MM-DD"));
  o.notes = r.String("notes", false);
  o.on_demand_usd_per_hour = r.Positive("on_demand_usd_per_hour", false);
  o.spot_usd_per_hour = r.Positive("spot_usd_per_hour", false);
  o.reserved_1y_usd_per_hour = r.Positive("reserved_1y_usd_per_hour", false);
  o.on_demand_jpy_per_hour = r.Positive("on_demand_jpy_per_hour", false);
  o.spot_jpy_per_hour = r.Positive("spot_jpy_per_hour", false);
  o.monthly_jpy = r.Positive("monthly_jpy", false);
  o.access = r.String("access", false);
  if (!o.access.empty() && o.access != "application" && o.access != "academic")
    r.Fail("access", N_("must be application or academic (omit it for an offer anyone can rent)"));
  const bool usd = o.on_demand_usd_per_hour > 0 || o.spot_usd_per_hour > 0 || o.reserved_1y_usd_per_hour > 0;
  const bool jpy = o.on_demand_jpy_per_hour > 0 || o.spot_jpy_per_hour > 0 || o.monthly_jpy > 0;
  if (!usd && !jpy)
    r.FailEntry(
        N_("needs at least one price (on_demand_usd_per_hour, spot_usd_per_hour, reserved_1y_usd_per_hour, "
           "on_demand_jpy_per_hour, spot_jpy_per_hour or monthly_jpy)"));
  if (usd && jpy) r.FailEntry(N_("quotes prices in dollars and in yen: one currency per offer (split it in two)"));
  if (o.monthly_jpy > 0 && o.on_demand_jpy_per_hour > 0)
    r.FailEntry(N_("gives both an hourly and a monthly yen price: one per offer (split it in two)"));
  o.sources = ReadSources(r);
  RequireSourced(r, o.sources,
                 {"on_demand_usd_per_hour", "spot_usd_per_hour", "reserved_1y_usd_per_hour", "on_demand_jpy_per_hour",
                  "spot_jpy_per_hour", "monthly_jpy"});
  return o;
}

FxRate ReadFxRate(Reader& r) {
  FxRate x;
  x.id = r.String("id");
  x.currency = r.String("currency");
  if (!x.currency.empty() && x.currency != "JPY" && x.currency != "EUR")
    r.Fail("currency", N_("must be JPY or EUR (the catalog's money is in US dollars)"));
  x.per_usd = r.Positive("per_usd");
  // A rate off by a factor of 100 (yen per cent, a typo) would misprice every yen offer.
  if (x.currency == "JPY" && x.per_usd > 0 && (x.per_usd < 50 || x.per_usd > 500))
    r.Fail("per_usd", N_("yen per US dollar outside 50-500: check the units"));
  if (x.currency == "EUR" && x.per_usd > 0 && (x.per_usd < 0.3 || x.per_usd > 3))
    r.Fail("per_usd", N_("euros per US dollar outside 0.3-3: check the units (dollars per euro is its inverse)"));
  x.date = r.String("date");
  if (!x.date.empty() && (x.date.size() != 10 || x.date[4] != '-' || x.date[7] != '-'))
    r.Fail("date", N_("must be YYYY-MM-DD"));
  x.notes = r.String("notes", false);
  if (const json* src = r.Object("source")) x.source = ReadSource(*src, r.where() + ": source", r);
  return x;
}

// One of a required field's allowed words; missing or unknown (the error names them all): none.
// The engine profile's words for its behaviours (engines.json), read and printed by the same table.
constexpr std::pair<const char*, MemoryCap> kCaps[] = {
    {"total", MemoryCap::kTotal}, {"free", MemoryCap::kFree}, {"reserve", MemoryCap::kReserve}, {"none", MemoryCap::kNone}};
constexpr std::pair<const char*, WorkspaceModel> kWorkspaces[] = {
    {"profiled-forward", WorkspaceModel::kProfiledForward},
    {"reserve-rule", WorkspaceModel::kReserveRule},
    {"compute-buffer", WorkspaceModel::kComputeBuffer},
    {"prefill-forward", WorkspaceModel::kPrefillForward}};
constexpr std::pair<const char*, MultiGpuMode> kMultiGpuModes[] = {{"tensor-parallel", MultiGpuMode::kTensorParallel},
                                                                  {"layer-split", MultiGpuMode::kLayerSplit},
                                                                  {"row-split", MultiGpuMode::kRowSplit},
                                                                  {"dp-attention", MultiGpuMode::kDpAttention}};

// The mode a word names (kMultiGpuModes), or none.
std::optional<MultiGpuMode> MultiGpuModeOf(const json& word) {
  for (const auto& [name, value] : kMultiGpuModes)
    if (word.is_string() && word.get_ref<const std::string&>() == name) return value;
  return std::nullopt;
}

template <typename T, size_t N>
std::optional<T> ReadChoice(Reader& r, const char* key, const std::pair<const char*, T> (&choices)[N]) {
  const size_t before = r.errors().size();
  const std::string word = r.String(key);
  if (r.errors().size() != before) return std::nullopt;
  std::string names;
  for (const auto& [name, value] : choices) {
    if (word == name) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  r.Fail(key, TrF("must be one of {0}", {names}));
  return std::nullopt;
}

// SGLang's reserve rule (_handle_gpu_memory_settings), read from the figures engines.json
// records: the constants of reserved_mem_mib and the tiers of defaults_by_gpu_memory.
EngineReserve ReadEngineReserve(Reader& r) {
  EngineReserve res;
  if (const json* mib = r.Object("reserved_mem_mib")) {
    Reader m(*mib, r.where() + ": reserved_mem_mib");
    res.constant_mib = m.Positive("constant", true, /*allow_zero=*/true);
    res.per_chunk_token_mib = m.Positive("per_chunked_prefill_token", true, /*allow_zero=*/true);
    res.min_chunk_tokens = m.Positive("min_chunked_prefill_tokens", true, /*allow_zero=*/true);
    res.per_graph_batch_mib = m.Positive("per_cuda_graph_max_bs", true, /*allow_zero=*/true);
    res.per_8_gpus_mib = m.Positive("per_tp_x_pp_over_8", true, /*allow_zero=*/true);
    res.floor_mib = m.Positive("floor_if_gpu_mem_over_60gib", true, /*allow_zero=*/true);
    m.Ignore({"speculative_standalone_extra", "speculative_eagle_extra"});  // speculative decoding: not modelled
    r.Adopt(m);
  }
  const json* tiers = r.Array("defaults_by_gpu_memory");
  if (!tiers) return res;
  for (size_t i = 0; i < tiers->size(); ++i) {
    Reader t((*tiers)[i], r.where() + ": defaults_by_gpu_memory[" + std::to_string(i) + "]");
    EngineReserveTier tier;
    tier.below_gib = t.Positive("gpu_mem_below_gib", false);  // null: no bound
    tier.chunk_tokens = t.Positive("chunked_prefill_size");
    if (t.Has("cuda_graph_max_bs")) {
      tier.graphs_tp_below_4 = tier.graphs_tp_4_up = t.Positive("cuda_graph_max_bs");
    } else {
      tier.graphs_tp_below_4 = t.Positive("cuda_graph_max_bs_tp_lt_4");
      tier.graphs_tp_4_up = t.Positive("cuda_graph_max_bs_tp_ge_4");
    }
    const bool last = i + 1 == tiers->size();
    if (last != (tier.below_gib == 0))
      t.Fail("gpu_mem_below_gib", last ? N_("must be null in the last tier (it takes every larger GPU)")
                                       : N_("is missing (only the last tier is unbounded)"));
    else if (!res.tiers.empty() && tier.below_gib > 0 && tier.below_gib <= res.tiers.back().below_gib)
      t.Fail("gpu_mem_below_gib", N_("must grow from tier to tier"));
    r.Adopt(t);
    res.tiers.push_back(tier);
  }
  if (res.tiers.empty()) r.Fail("defaults_by_gpu_memory", N_("must list at least one tier"));
  return res;
}

// What the estimators do differently per engine (catalog.h, EngineProfile). Every profile
// states each of these: a user's engine behaves per its fields, never per a built-in default.
void ReadEngineBehaviour(Reader& r, EngineProfile& e) {
  if (const std::optional<MemoryCap> cap = ReadChoice(r, "memory_cap", kCaps)) {
    e.memory_cap = *cap;
    // The cap applies the engine's fraction, named as the engine names it.
    if (e.memory_cap == MemoryCap::kTotal && e.memory_fraction_of != "total")
      r.Fail("memory_cap", N_("is 'total' but no fraction of total memory is given (gpu_memory_utilization_default)"));
    else if (e.memory_cap == MemoryCap::kFree && e.memory_fraction_of != "free")
      r.Fail("memory_cap",
             N_("is 'free' but no fraction of free memory is given (kv_cache_free_gpu_mem_fraction_default)"));
    else if (e.memory_cap == MemoryCap::kNone && e.memory_fraction > 0)
      r.Fail("memory_cap", N_("is 'none' but the profile gives a memory fraction (use total, free or reserve)"));
  }
  if (const std::optional<WorkspaceModel> model = ReadChoice(r, "workspace_model", kWorkspaces)) {
    e.workspace_model = *model;
    // What each way of sizing the workspace needs (the profiled token count is read with the
    // engine's other batch figures).
    if (e.workspace_model == WorkspaceModel::kComputeBuffer)
      e.micro_batch_tokens = static_cast<int>(r.Integer("default_n_ubatch"));
    if (e.workspace_model == WorkspaceModel::kReserveRule) e.reserve = ReadEngineReserve(r);
  }
  e.input_embedding_on_host = r.Bool("input_embedding_on_host", false, /*required=*/true);
  e.layer_offload = r.Bool("layer_offload", false, /*required=*/true);
  e.gguf_int8_matmul = r.Bool("gguf_int8_matmul", false, /*required=*/true);
  e.fused_elementwise = r.Bool("fused_elementwise", false);
  e.fp16_accumulate_gemm = r.Bool("fp16_accumulate_gemm", false);
  if (const std::optional<MultiGpuMode> mode = ReadChoice(r, "multi_gpu", kMultiGpuModes)) e.multi_gpu = *mode;
  // The other modes a user may pick (the scenario's split); the default is always one of them.
  e.multi_gpu_modes = {e.multi_gpu};
  if (const json* modes = r.Array("multi_gpu_modes", false)) {
    for (const json& m : *modes) {
      const std::optional<MultiGpuMode> found = MultiGpuModeOf(m);
      if (!found) {
        r.Fail("multi_gpu_modes", N_("must list words of tensor-parallel, layer-split, row-split, dp-attention"));
        break;
      }
      if (std::find(e.multi_gpu_modes.begin(), e.multi_gpu_modes.end(), *found) == e.multi_gpu_modes.end())
        e.multi_gpu_modes.push_back(*found);
    }
  }
  if (const json* notes = r.Object("multi_gpu_notes", false)) {
    for (const auto& [word, text] : notes->items()) {
      const std::optional<MultiGpuMode> found = MultiGpuModeOf(json(word));
      if (!found || !text.is_string()) {
        r.Fail("multi_gpu_notes",
               N_("must map a mode (tensor-parallel, layer-split, row-split, dp-attention) to a sentence"));
        break;
      }
      e.multi_gpu_notes.emplace_back(*found, text.get<std::string>());
    }
  }
}

EngineProfile ReadEngine(Reader& r) {
  EngineProfile e;
  e.id = r.String("id");
  e.name = r.String("name");
  e.version = r.String("version");
  e.base = r.String("base", false);
  if (const json* range = r.Object("serves_versions", false)) {
    Reader vr(*range, r.where() + ": serves_versions");
    e.serves_from = vr.String("from", true);
    e.serves_before = vr.String("before", true);
    r.Adopt(vr);
  }
  // Each engine names its memory cap differently; all are fractions of device memory.
  static const struct { const char* key; const char* of; } kFractions[] = {
      {"gpu_memory_utilization_default", "total"},
      {"mem_fraction_static_fallback", "total"},
      {"kv_cache_free_gpu_mem_fraction_default", "free"}};
  std::vector<const char*> fraction_fields;
  for (const auto& f : kFractions) {
    fraction_fields.push_back(f.key);
    const double v = r.Positive(f.key, false);
    if (v == 0) continue;
    if (v > 1) r.Fail(f.key, N_("must be a fraction from 0 to 1"));
    e.memory_fraction = v;
    e.memory_fraction_of = f.of;
  }
  e.calibrate_like = r.String("calibrate_like", false);
  ReadEngineBehaviour(r, e);
  if (const json* sched = r.Object("scheduler", false)) {
    Reader sr(*sched, r.where() + ": scheduler");
    EngineScheduler& k = e.scheduler;
    auto choice = [&](const char* key, const char* yes, const char* no, bool& out) {
      const std::string v = sr.String(key, false);
      if (v.empty()) return;
      if (v == yes)
        out = true;
      else if (v == no)
        out = false;
      else
        sr.Fail(key, TrF("must be '{0}' or '{1}'", {yes, no}));
    };
    choice("step_mix", "mixed", "prefill-first", k.mixed_steps);
    choice("admission", "reserve-whole", "per-step", k.reserve_whole);
    choice("preempt", "fewest-outputs", "latest", k.preempt_fewest_outputs);
    k.chunked_prefill = sr.Bool("chunked_prefill", true);
    k.seqs_from_pool = sr.Bool("max_running_from_pool", false);
    k.budget_covers_model_len = sr.Bool("budget_at_least_model_len", false);
    k.chunked_above_model_len = sr.Integer("chunked_above_model_len", false);
    k.chunked_budget = static_cast<int>(sr.Integer("chunked_max_num_batched_tokens", k.chunked_above_model_len > 0));
    k.burst_streams_each_step = sr.Bool("burst_streams_each_step", false);
    k.why = sr.String("why", false);
    r.Adopt(sr);
  }
  e.kv_block_tokens = static_cast<int>(r.Integer("kv_block_tokens", false));
  e.max_batched_tokens = static_cast<int>(
      r.Integer("default_max_num_batched_tokens", e.workspace_model == WorkspaceModel::kProfiledForward));
  e.max_num_seqs = static_cast<int>(r.Integer("default_max_num_seqs", false));
  if (const json* small = r.Object("small_gpu_defaults", false)) {
    Reader sg(*small, r.where() + ": small_gpu_defaults");
    EngineProfile::SmallGpuDefaults d;
    d.below_gib = sg.Positive("below_gib");
    d.name_contains = sg.String("name_contains", false);
    d.max_batched_tokens = static_cast<int>(sg.Integer("max_num_batched_tokens"));
    d.max_num_seqs = static_cast<int>(sg.Integer("max_num_seqs"));
    r.Adopt(sg);
    e.small_gpu = d;
  }
  e.sampler_bytes_per_logit = r.Positive("sampler_bytes_per_logit", false);
  e.multi_gpu_buffers_bytes = r.Positive("multi_gpu_buffers_gib", false) * kGiB;
  e.cuda_graph_bytes_per_layer = r.Positive("cuda_graph_mib_per_layer", false) * kMiB;
  e.cuda_graphs_in_budget = r.Bool("cuda_graphs_in_budget", false);
  e.eager_kernel_s = r.Positive("eager_kernel_us", false) * 1e-6;
  e.cuda_context_bytes = r.Positive("cuda_context_mib", false) * kMiB;
  e.activation_workspace = r.String("activation_workspace", false);
  e.notes = r.String("notes", false);
  e.sources = ReadSources(r);
  if (const json* cal = r.Object("calibration", false)) {
    Reader c(*cal, r.where() + ": calibration");
    EngineCalibration& k = e.calibration;
    k.decode_bw_efficiency = c.Positive("decode_bw_efficiency");
    k.prefill_compute_efficiency = c.Positive("prefill_compute_efficiency");
    k.kernel_s = c.Positive("kernel_us", true, /*allow_zero=*/true) * 1e-6;
    k.prefill_token_layer_s = c.Positive("prefill_token_layer_us", true, /*allow_zero=*/true) * 1e-6;
    if (k.decode_bw_efficiency > 1) c.Fail("decode_bw_efficiency", N_("must be a fraction from 0 to 1"));
    if (k.prefill_compute_efficiency > 1) c.Fail("prefill_compute_efficiency", N_("must be a fraction from 0 to 1"));
    // Required of the built-in files (unit-catalog checks every engine has one); the page's
    // embedded copy leaves it out (cmake/catalog_lean.py) and fetches it with the sources.
    k.basis = c.String("basis", false);
    auto band = [&](const char* key, Band& b, bool required = true) {
      const json* v = c.Object(key, required);
      if (!v) return;
      Reader br(*v, c.where() + ": " + key);
      b.lo = br.Positive("lo");
      b.hi = br.Positive("hi");
      b.cases = static_cast<int>(br.Integer("cases", true, /*allow_zero=*/true));
      if (!br.failed() && !(b.lo <= 1 && b.hi >= 1)) br.FailEntry(N_("must have lo <= 1 <= hi"));
      c.Adopt(br);
    };
    band("decode_band", k.decode);
    band("prefill_band", k.prefill);
    band("memory_band", k.memory);
    band("decode_wide_band", k.decode_wide, false);
    band("prefill_wide_band", k.prefill_wide, false);
    if (const json* serving = c.Object("serving_bands", false)) {
      Reader sr(*serving, c.where() + ": serving_bands");
      for (auto [key, b] : {std::pair{"throughput", &k.serve_throughput},
                            {"ttft", &k.serve_ttft},
                            {"tpot", &k.serve_tpot},
                            {"e2e", &k.serve_e2e}}) {
        const json* v = sr.Object(key, false);
        if (!v) continue;
        Reader br(*v, sr.where() + ": " + key);
        b->lo = br.Positive("lo");
        b->hi = br.Positive("hi");
        b->cases = static_cast<int>(br.Integer("cases", true, /*allow_zero=*/true));
        b->basis = br.String("basis", false);
        if (!br.failed() && !(b->lo <= 1 && b->hi >= 1)) br.FailEntry(N_("must have lo <= 1 <= hi"));
        sr.Adopt(br);
      }
      c.Adopt(sr);
    }
    if (k.decode_wide.cases == 0) k.decode_wide = k.decode;
    if (k.prefill_wide.cases == 0) k.prefill_wide = k.prefill;
    if (const json* vendors = c.Array("vendor_calibration", false)) {
      for (size_t i = 0; i < vendors->size(); ++i) {
        Reader vr((*vendors)[i], c.where() + ": vendor_calibration[" + std::to_string(i) + "]");
        VendorCalibration v;
        v.vendor = vr.String("vendor");
        v.decode_bw_efficiency = vr.Positive("decode_bw_efficiency");
        v.kernel_s = vr.Positive("kernel_us", true, /*allow_zero=*/true) * 1e-6;
        v.cases = static_cast<int>(vr.Integer("cases"));
        if (v.decode_bw_efficiency > 1) vr.Fail("decode_bw_efficiency", N_("must be a fraction from 0 to 1"));
        c.Adopt(vr);
        k.by_vendor.push_back(v);
      }
    }
    if (const json* classes = c.Array("class_bands", false)) {
      for (size_t i = 0; i < classes->size(); ++i) {
        Reader cr((*classes)[i], c.where() + ": class_bands[" + std::to_string(i) + "]");
        ClassBand cb;
        cb.phase = cr.String("phase");
        if (!cr.failed() && cb.phase != "decode" && cb.phase != "prefill")
          cr.Fail("phase", N_("must be decode or prefill"));
        cb.moe = cr.Bool("moe", false);
        cb.multi_gpu = cr.Bool("multi_gpu", false);
        cb.vendor = cr.String("vendor");
        cb.band.lo = cr.Positive("lo");
        cb.band.hi = cr.Positive("hi");
        cb.band.cases = static_cast<int>(cr.Integer("cases", true, /*allow_zero=*/true));
        if (!cr.failed() && !(cb.band.lo <= 1 && cb.band.hi >= 1)) cr.FailEntry(N_("must have lo <= 1 <= hi"));
        c.Adopt(cr);
        k.classes.push_back(cb);
      }
    }
    r.Adopt(c);
  } else {
    r.Fail("calibration", N_("is missing (efficiencies and error bands; see assets/catalog/README.md)"));
  }
  if (const json* examples = r.Array("activation_workspace_gib_examples", false)) {
    for (size_t i = 0; i < examples->size(); ++i) {
      Reader x((*examples)[i], r.where() + ": activation_workspace_gib_examples[" + std::to_string(i) + "]");
      EngineExample ex;
      ex.model = x.String("model");
      ex.gpu = x.String("gpu");
      ex.workspace_bytes = x.Positive("gib") * kGiB;
      x.Ignore({"mib", "weights_gib", "non_torch_gib", "kv_cache_gib", "gpu_memory_utilization"});
      ex.source = static_cast<int>(x.Integer("source_index", true, /*allow_zero=*/true));
      if (!r.sources_elsewhere() && (ex.source < 0 || ex.source >= static_cast<int>(e.sources.size())))
        x.Fail("source_index",
               TrF("must index the engine's sources (0 to {0} - 1)", {std::to_string(e.sources.size())}));
      r.Adopt(x);
      e.examples.push_back(ex);
    }
  }
  RequireSourced(
      r, e.sources,
      {"gpu_memory_utilization_default", "mem_fraction_static_fallback", "kv_cache_free_gpu_mem_fraction_default",
       "kv_block_tokens", "default_max_num_batched_tokens", "cuda_context_mib", "activation_workspace_gib_examples",
       "default_n_ubatch", "reserved_mem_mib", "defaults_by_gpu_memory", "default_max_num_seqs", "small_gpu_defaults",
       "sampler_bytes_per_logit", "multi_gpu_buffers_gib", "cuda_graph_mib_per_layer", "cuda_graphs_in_budget",
       "eager_kernel_us", "scheduler"});
  // Recorded from the engines' sources, not used by the estimators (the fit's margin and
  // context floor are llama.cpp's --fit, which gpuplan does not emulate).
  r.Ignore(
      {"mem_fraction_static_rule", "kv_cache_default_type", "fit_target_margin_mib", "fit_min_ctx", "default_n_ctx"});
  return e;
}

template <typename Format>
Format ReadFormat(Reader& r, const char* size_field) {
  Format f;
  f.id = r.String("id");
  f.name = r.String("name");
  f.derivation = r.String("derivation", false);
  r.Ignore({"high_precision", "group_size"});  // the derivation's inputs, in words
  if constexpr (std::is_same_v<Format, WeightFormat>) {
    f.bits_per_weight = r.Positive(size_field);
    if (const json* t = r.Object("tensor_bits", false)) {
      Reader tr(*t, r.where() + ": tensor_bits", r.sources_elsewhere());
      f.layer_bits = tr.Positive("layers", false);
      f.routed_bits = tr.Positive("routed_experts", false);
      f.input_embedding_bits = tr.Positive("input_embedding", false);
      f.lm_head_bits = tr.Positive("lm_head", false);
      f.tensor_bits_why = tr.String("why", !tr.sources_elsewhere());  // the lean copy leaves the words out
      for (const char* key : {"layers", "routed_experts", "input_embedding", "lm_head"})
        if (tr.Positive(key, false) > 32) tr.Fail(key, N_("must be at most 32 bits"));
      r.Adopt(tr);
    }
    if (const json* k = r.Object("extra_kernels_per_gemm", false)) {
      Reader kr(*k, r.where() + ": extra_kernels_per_gemm", r.sources_elsewhere());
      f.extra_kernels_per_gemm = static_cast<int>(kr.Integer("count"));
      if (f.extra_kernels_per_gemm > 64) kr.Fail("count", N_("must be at most 64"));
      kr.String("why", !kr.sources_elsewhere());
      r.Adopt(kr);
    }
  } else {
    f.bytes_per_element = r.Positive(size_field);
  }
  if (const json* src = r.Object("source")) f.source = ReadSource(*src, r.where() + ": source", r);
  return f;
}

// Adds the entry, or replaces the one with its id; false when the id exists and may not be replaced.
template <typename T>
bool Upsert(std::vector<T>& list, T entry, OnExistingId on_existing) {
  for (T& existing : list) {
    if (existing.id != entry.id) continue;
    if (on_existing == OnExistingId::kReject) return false;
    existing = std::move(entry);
    return true;
  }
  list.push_back(std::move(entry));
  return true;
}

// How a set of files is loaded: what an existing id may do, and whether the entries come
// without their sources (the page's lean built-in catalog).
struct LoadOptions {
  OnExistingId on_existing = OnExistingId::kReplace;
  bool sources_elsewhere = false;
};

template <typename T, typename ReadFn>
bool ReadList(const json& doc, const std::string& file, const char* key, std::vector<T>& into,
              std::vector<std::string>& errors, std::vector<std::string>& warnings,
              std::vector<std::string>& unknown_fields, const LoadOptions& options, ReadFn read) {
  auto it = doc.find(key);
  if (it == doc.end()) return true;
  if (!it->is_array()) {
    errors.push_back(file + ": " + TrF("'{0}' must be an array", {key}));
    return false;
  }
  const size_t before = errors.size();
  std::set<std::string> seen;
  for (size_t i = 0; i < it->size(); ++i) {
    Reader r((*it)[i], EntryWhere(file, key, i, (*it)[i]), options.sources_elsewhere);
    T entry = read(r);
    if (entry.id.empty() && (*it)[i].is_object() && (*it)[i].value("id", json()).is_string())
      r.Fail("id", N_("must not be empty"));
    if (std::any_of(entry.id.begin(), entry.id.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f; }))
      r.Fail("id", N_("must not contain spaces or control characters (an id goes into links and command lines)"));
    r.CheckKeys();
    // An entry that fails: its unknown fields too, which often explain a missing one.
    if (r.failed())
      for (const std::string& w : r.unknown()) r.Escalate(w);
    if (!entry.id.empty() && !seen.insert(entry.id).second) r.Fail("id", N_("repeats an id used earlier in this file"));
    if (!r.failed() && !Upsert(into, std::move(entry), options.on_existing))
      r.Fail("id", N_("is already defined by another built-in file"));
    errors.insert(errors.end(), r.errors().begin(), r.errors().end());
    warnings.insert(warnings.end(), r.warnings().begin(), r.warnings().end());
    unknown_fields.insert(unknown_fields.end(), r.unknown().begin(), r.unknown().end());
  }
  return errors.size() == before;
}

// An engine entry with "base" is another release of an engine given earlier in the same file:
// it becomes the base's entry with its own fields put over it (RFC 7396 merge), its sources
// added to the base's, so the reader sees a whole profile.
bool ExpandEngineVersions(json& doc, const std::string& file, std::vector<std::string>& errors) {
  auto list = doc.find("engines");
  if (list == doc.end() || !list->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < list->size(); ++i) {
    json& entry = (*list)[i];
    if (!entry.is_object() || !entry.contains("base")) continue;
    const json& base_id = entry["base"];
    const json* base = nullptr;
    for (size_t k = 0; k < i && base_id.is_string(); ++k)
      if ((*list)[k].is_object() && (*list)[k].value("id", "") == base_id.get_ref<const std::string&>()) base = &(*list)[k];
    if (!base) {
      errors.push_back(EntryWhere(file, "engines", i, entry) + ": " +
                       Tr("field 'base' must name an engine given earlier in this file"));
      ok = false;
      continue;
    }
    json merged = *base;
    json sources = merged.value("sources", json::array());
    if (const auto own = entry.find("sources"); own != entry.end() && own->is_array())
      for (const json& src : *own) sources.push_back(src);
    merged.merge_patch(entry);
    if (!sources.empty()) merged["sources"] = sources;
    entry = std::move(merged);
  }
  return ok;
}

// A file's top-level "catalog_version" ("2026.12": numbers and dots) and "catalog_date"
// (YYYY-MM-DD), given together. The first file that declares them sets the catalog's (the
// built-in catalog.json); a later one (a user file) is checked and not taken, so a number's
// catalog version names the built-in data it started from.
bool ReadCatalogVersion(const json& doc, const std::string& file, Catalog& next, std::vector<std::string>& errors) {
  const auto v = doc.find("catalog_version"), d = doc.find("catalog_date");
  if (v == doc.end() && d == doc.end()) return true;
  bool ok = true;
  std::string version, date;
  if (v == doc.end() || !v->is_string() || v->get_ref<const std::string&>().empty() ||
      v->get_ref<const std::string&>().size() > 20 ||
      v->get_ref<const std::string&>().find_first_not_of("0123456789.") != std::string::npos) {
    errors.push_back(file + ": field 'catalog_version' must be numbers and dots: 2026.12");
    ok = false;
  } else {
    version = v->get<std::string>();
  }
  if (d == doc.end() || !d->is_string() || d->get_ref<const std::string&>().size() != 10 ||
      d->get_ref<const std::string&>()[4] != '-' || d->get_ref<const std::string&>()[7] != '-' ||
      d->get_ref<const std::string&>().find_first_not_of("0123456789-") != std::string::npos) {
    errors.push_back(file + ": field 'catalog_date' must be YYYY-MM-DD");
    ok = false;
  } else {
    date = d->get<std::string>();
  }
  if (ok && next.catalog_version.empty()) next.catalog_version = version, next.catalog_date = date;
  return ok;
}

Result<Catalog> LoadFiles(const std::vector<CatalogFile>& files, Catalog base, const LoadOptions& options) {
  std::vector<std::string> errors;
  for (const CatalogFile& file : files) {
    json doc = detail::ParseJson(file.text);
    if (doc.is_discarded()) {
      errors.push_back(file.name + ": " + detail::JsonErrorAt(file.text));
      continue;
    }
    if (!doc.is_object()) {
      errors.push_back(file.name + ": " + Tr("must be a JSON object"));
      continue;
    }
    auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_number_integer() || schema->get<int>() != 1) {
      errors.push_back(file.name + ": " + Tr("field 'schema' must be 1"));
      continue;
    }
    // A key that names no list (a typo such as "gpu") would add nothing without a word.
    static const std::vector<std::string> kLists = {"gpus",       "models",        "weight_formats",
                                                    "kv_formats", "interconnects", "cloud_offers",
                                                    "engines",    "ceilings",      "fx_rates"};
    bool lists_ok = true;
    for (auto key = doc.begin(); key != doc.end(); ++key) {
      const std::string& k = key.key();
      if (k == "schema" || k == "about" || k == "catalog_version" || k == "catalog_date" || k.empty() || k[0] == '_' ||
          k[0] == '$' || std::find(kLists.begin(), kLists.end(), k) != kLists.end())
        continue;
      const std::string near = NearestWord(k, kLists);
      errors.push_back(file.name + ": " + TrF("'{0}' is not a list of a catalog file", {k}) +
                       (near.empty() ? "" : TrF(": did you mean '{0}'?", {near})) +
                       Tr(" (the lists: gpus, models, weight_formats, kv_formats, interconnects, cloud_offers, "
                          "engines, ceilings, fx_rates; keys starting with '_' are comments)"));
      lists_ok = false;
    }
    // Every list is read and every problem collected; a file with any error adds nothing.
    Catalog next = base;
    lists_ok = ReadCatalogVersion(doc, file.name, next, errors) && lists_ok;
    bool ok =
        ReadList(doc, file.name, "gpus", next.gpus, errors, next.warnings, next.unknown_fields, options, ReadGpu) &&
        lists_ok;
    ok = ReadList(doc, file.name, "models", next.models, errors, next.warnings, next.unknown_fields, options,
                  ReadModel) &&
         ok;
    ok = ReadList(doc, file.name, "weight_formats", next.weight_formats, errors, next.warnings, next.unknown_fields,
                  options, [](Reader& r) { return ReadFormat<WeightFormat>(r, "bits_per_weight"); }) &&
         ok;
    ok = ReadList(doc, file.name, "kv_formats", next.kv_formats, errors, next.warnings, next.unknown_fields, options,
                  [](Reader& r) { return ReadFormat<KvFormat>(r, "bytes_per_element"); }) &&
         ok;
    ok = ReadList(doc, file.name, "interconnects", next.interconnects, errors, next.warnings, next.unknown_fields,
                  options, ReadInterconnect) &&
         ok;
    ok = ReadList(doc, file.name, "cloud_offers", next.cloud_offers, errors, next.warnings, next.unknown_fields,
                  options, ReadCloudOffer) &&
         ok;
    ok = ExpandEngineVersions(doc, file.name, errors) && ok;
    ok = ReadList(doc, file.name, "engines", next.engines, errors, next.warnings, next.unknown_fields, options,
                  ReadEngine) &&
         ok;
    ok = ReadList(doc, file.name, "ceilings", next.ceilings, errors, next.warnings, next.unknown_fields, options,
                  ReadCeiling) &&
         ok;
    ok = ReadList(doc, file.name, "fx_rates", next.fx_rates, errors, next.warnings, next.unknown_fields, options,
                  ReadFxRate) &&
         ok;
    if (ok) base = std::move(next);
  }
  // References across files, checked once everything is merged.
  for (size_t i = 0; i < base.cloud_offers.size(); ++i) {
    const CloudOffer& o = base.cloud_offers[i];
    if (!base.FindGpu(o.gpu))
      errors.push_back(TrF("cloud offer '{0}': field 'gpu' names an unknown GPU '{1}'", {o.id, o.gpu}));
  }
  for (const MeasuredCeiling& c : base.ceilings)
    if (!base.FindGpu(c.gpu))
      errors.push_back(TrF("ceiling '{0}': field 'gpu' names an unknown GPU '{1}'", {c.id, c.gpu}));
  if (!errors.empty()) {
    std::string all;
    for (const std::string& e : errors) all += (all.empty() ? "" : "\n") + e;
    return Error{all};
  }
  base.IndexIds();
  return base;
}

}  // namespace

const char* MemoryCapName(MemoryCap cap) {
  for (const auto& [name, value] : kCaps)
    if (value == cap) return name;
  return "?";
}

const char* WorkspaceModelName(WorkspaceModel model) {
  for (const auto& [name, value] : kWorkspaces)
    if (value == model) return name;
  return "?";
}

BatchDefaults EngineBatchDefaults(const EngineProfile& engine, const Gpu& gpu, double device_bytes) {
  BatchDefaults b{engine.max_batched_tokens, engine.max_num_seqs};
  if (const auto& small = engine.small_gpu) {
    const bool named = !small->name_contains.empty() && gpu.name.find(small->name_contains) != std::string::npos;
    if (device_bytes < small->below_gib * kGiB || named) b = {small->max_batched_tokens, small->max_num_seqs};
  }
  // An engine that picks its prompt chunk by the GPU's memory (SGLang's chunked_prefill_size,
  // engines.json defaults_by_gpu_memory): the tier's.
  if (engine.reserve)
    if (const EngineReserveTier* tier = ReserveTier(*engine.reserve, device_bytes); tier && tier->chunk_tokens > 0)
      b.max_batched_tokens = static_cast<int>(tier->chunk_tokens);
  return b;
}

const EngineReserveTier* ReserveTier(const EngineReserve& rule, double device_bytes) {
  if (rule.tiers.empty()) return nullptr;
  for (const EngineReserveTier& t : rule.tiers)
    if (t.below_gib == 0 || device_bytes < t.below_gib * kGiB) return &t;
  return &rule.tiers.back();
}

const char* MultiGpuModeName(MultiGpuMode mode) {
  for (const auto& [name, value] : kMultiGpuModes)
    if (value == mode) return name;
  return "?";
}

// [SECTION] Catalog --------------------------------------------------------------------
template <typename T>
static const T* FindById(const std::vector<T>& list, std::string_view id) {
  for (const T& e : list)
    if (e.id == id) return &e;
  return nullptr;
}

template <typename T>
static const T* FindIndexed(const std::vector<T>& list, const Catalog::IdIndex& index, std::string_view id) {
  if (!index.empty()) {
    auto it = index.find(id);
    if (it != index.end() && it->second < list.size() && list[it->second].id == id) return &list[it->second];
  }
  return FindById(list, id);
}

const Gpu* Catalog::FindGpu(std::string_view id) const {
  return FindIndexed(gpus, gpu_index, id);
}
const Model* Catalog::FindModel(std::string_view id) const {
  return FindIndexed(models, model_index, id);
}
const FxRate* Catalog::LatestFx(std::string_view currency) const {
  const FxRate* best = nullptr;
  for (const FxRate& x : fx_rates)
    if (x.currency == currency && (!best || x.date > best->date)) best = &x;
  return best;
}

void Catalog::IndexIds() {
  gpu_index.clear(), model_index.clear();
  for (size_t i = 0; i < gpus.size(); ++i) gpu_index.emplace(gpus[i].id, i);
  for (size_t i = 0; i < models.size(); ++i) model_index.emplace(models[i].id, i);
}
const WeightFormat* Catalog::FindWeightFormat(std::string_view id) const { return FindById(weight_formats, id); }
const KvFormat* Catalog::FindKvFormat(std::string_view id) const { return FindById(kv_formats, id); }
const EngineProfile* Catalog::FindEngine(std::string_view id) const { return FindById(engines, id); }

bool VersionBefore(std::string_view a, std::string_view b) {
  auto parts = [](std::string_view v) {
    std::vector<long> out;
    size_t i = 0;
    while (i < v.size() && (v[i] == 'v' || v[i] == 'V')) ++i;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
      long n = 0;
      while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])) && n < 1000000) n = n * 10 + (v[i++] - '0');
      out.push_back(n);
      if (i < v.size() && v[i] == '.')
        ++i;
      else
        break;
    }
    return out;
  };
  const std::vector<long> x = parts(a), y = parts(b);
  for (size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
    const long p = i < x.size() ? x[i] : 0, q = i < y.size() ? y[i] : 0;
    if (p != q) return p < q;
  }
  return false;
}

const EngineProfile* Catalog::FindEngineRelease(std::string_view id, std::string_view version) const {
  if (!version.empty())
    for (const EngineProfile& e : engines)
      if (e.base == id && !e.serves_from.empty() && !VersionBefore(version, e.serves_from) &&
          VersionBefore(version, e.serves_before))
        return &e;
  return FindEngine(id);
}

std::string CatalogFilesBeyond(size_t files, size_t bytes) {
  using limits::kCatalogBytes, limits::kCatalogFiles;
  if (files > static_cast<size_t>(kCatalogFiles.max))
    return TrF("{0} catalog files: {1}", {FormatCount(static_cast<int64_t>(files)), limits::Above(kCatalogFiles)});
  if (bytes > static_cast<size_t>(kCatalogBytes.max))
    return TrF("{0} bytes of catalog files: {1}",
               {FormatCount(static_cast<int64_t>(bytes)), limits::Above(kCatalogBytes)});
  return {};
}

Result<Catalog> LoadCatalog(const std::vector<CatalogFile>& files, Catalog base, OnExistingId on_existing) {
  size_t bytes = 0;
  for (const CatalogFile& f : files) bytes += f.text.size();
  if (std::string beyond = CatalogFilesBeyond(files.size(), bytes); !beyond.empty()) return Error{beyond};
  return LoadFiles(files, std::move(base), LoadOptions{on_existing, false});
}


Result<ImportedText> ImportUserText(const Catalog& base, std::string_view text, const std::string& name_hint) {
  json doc = detail::ParseJson(text);
  const std::string origin = name_hint.empty() ? Tr("pasted text") : name_hint;
  if (doc.is_discarded()) return Error{origin + ": " + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{origin + ": " + Tr("must be a JSON object (a catalog file or a config.json)")};
  if (doc.contains("schema")) {
    Result<Catalog> merged = LoadCatalog({{origin, std::string(text)}}, base);
    if (!merged.ok()) return Error{merged.error()};
    const Catalog& c = merged.value();
    auto added = [](size_t now, size_t before) { return std::to_string(now - before); };
    // The file's warnings (an unknown field, an unusual unit) with the summary: the first three.
    std::string warned;
    const size_t first = base.warnings.size(), count = c.warnings.size() - first;
    for (size_t i = first; i < c.warnings.size() && i < first + 3; ++i) warned += "\n" + c.warnings[i];
    if (count > 3)
      warned += "\n" + TrF("... and {0} more warnings (gpuplan catalog validate FILE lists them)",
                           {std::to_string(count - 3)});
    return ImportedText{c,
                        origin + ": " +
                            TrF("catalog merged ({0} new GPUs, {1} new models; same ids replaced)",
                                {added(c.gpus.size(), base.gpus.size()), added(c.models.size(), base.models.size())}) +
                            (count > 0 ? Tr("; warnings:") + warned : "")};
  }
  // A config.json: the id comes from the file name or the checkpoint name, made URL-safe.
  std::string id = name_hint;
  if (auto it = doc.find("_name_or_path"); (id.empty() || id == "config.json") && it != doc.end() && it->is_string())
    id = it->get<std::string>();
  id = ImportedModelId(id);  // the CLI's import-hf gives the same id (hf_config.h)
  Result<Model> m = ImportHfConfig(text, origin, id);
  if (!m.ok()) return Error{m.error()};
  Model model = std::move(m).value();
  model.name = TrF("{0} (imported)", {id});
  model.notes = TrF("imported from {0} in this session; not part of the built-in catalog", {origin});
  ImportedText out{base, ""};
  Upsert(out.catalog.models, model, OnExistingId::kReplace);
  out.summary = origin + ": " + TrF("model '{0}' added ({1} parameters)", {id, FormatParams(CountParams(model).total)});
  return out;
}

std::vector<CatalogFile> EmbeddedCatalogFiles() {
  std::vector<CatalogFile> files;
  for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
    const embedded::File& f = embedded::kFiles[i];
    files.push_back({f.name, std::string(reinterpret_cast<const char*>(f.data), f.size)});
  }
  return files;
}

Result<Catalog> LoadBuiltInCatalog(const std::vector<CatalogFile>& files, bool sources_elsewhere) {
  Result<Catalog> c = LoadFiles(files, {}, LoadOptions{OnExistingId::kReject, sources_elsewhere});
  if (c.ok()) c.value().sources_elsewhere = sources_elsewhere;
  return c;
}

const Result<Catalog>& EmbeddedCatalog() {
  // The compact form made at build time from these same files (compact.cpp) where the program
  // has one; the JSON otherwise (the tool that makes the compact form, a corrupt one).
  static const Result<Catalog> catalog = [] {
    if (embedded::kCompactSize > 0) {
      Result<Catalog> c = ReadCompactCatalog(
          std::string_view(reinterpret_cast<const char*>(embedded::kCompact), embedded::kCompactSize));
      if (c.ok() || embedded::kFileCount == 0) return c;  // (the page carries the compact form alone)
    }
    return LoadBuiltInCatalog(EmbeddedCatalogFiles(), embedded::kSourcesElsewhere);
  }();
  return catalog;
}

Result<std::vector<CatalogFile>> ParseCatalogBundle(std::string_view text) {
  const json doc = detail::ParseJson(text);
  auto schema = doc.is_object() ? doc.find("schema") : doc.end();
  if (!doc.is_object() || schema == doc.end() || !schema->is_string() || *schema != "gpuplan.catalog-files/1")
    return Error{Tr("catalog sources: not a gpuplan.catalog-files/1 file")};
  if (auto e = doc.find("error"); e != doc.end() && e->is_string())
    return Error{TrF("catalog sources: {0}", {e->get<std::string>()})};  // the page could not fetch them
  auto files = doc.find("files");
  if (files == doc.end() || !files->is_array() || files->empty()) return Error{Tr("catalog sources: no files")};
  std::vector<CatalogFile> out;
  for (const json& f : *files) {
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("doc") || !f["doc"].is_object())
      return Error{Tr("catalog sources: each file needs a name and a doc")};
    out.push_back({f["name"].get<std::string>(), f["doc"].dump()});
  }
  return out;
}

std::string UnknownIdMessage(std::string_view kind, std::string_view id,
                             const std::vector<std::string>& known) {
  // The id is untrusted (a link, a flag): shown cut to 40 bytes. The ids it begins (h100:
  // h100-sxm, h100-pcie, h100-nvl), else the nearest known id, come first.
  std::string near;
  size_t begun = 0;
  for (const std::string& k : known)
    if (!id.empty() && k.size() > id.size() && k.compare(0, id.size(), id) == 0 && k[id.size()] == '-' && begun++ < 4)
      near += (near.empty() ? "" : "' or '") + k;
  if (near.empty()) near = NearestWord(id, known);
  // `kind` is a marked word (N_ where it is passed: "model", "GPU", ...), translated here.
  std::string list;
  for (size_t i = 0; i < known.size(); ++i) list += (i ? ", " : "") + known[i];
  return TrF("unknown {0} '{1}'",
             {Tr(std::string(kind).c_str()), std::string(id.substr(0, 40)) + (id.size() > 40 ? "..." : "")}) +
         (near.empty() ? "" : TrF(": did you mean '{0}'?", {near})) + TrF(" (known: {0})", {list});
}

}  // namespace gpuplan
