// native/cli/main.cpp — `gpuplan`, the command-line twin of the page. Same core, same
// scenario fields (the flags are the URL hash keys), same numbers.
//
// Exit codes: 0 success (whether or not the scenario fits: that is a result, not an error);
//             2 bad input (flag, value, id, --state link, --catalog file);
//             1 internal error (the embedded catalog failed to load).
#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "gpuplan/calibrate.h"
#include "gpuplan/catalog.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/describe.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/probe_result.h"
#include "gpuplan/records.h"
#include "gpuplan/report.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"
#include "gpuplan/machine.h"
#include "gpuplan/presets.h"
#include "gpuplan/roofline.h"
#include "gpuplan/training.h"
#include "gpuplan/units.h"

namespace {

using namespace gpuplan;

constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 1;

struct InputError {
  std::string message;
};

[[noreturn]] void Fail(const std::string& message, int code = kExitBadInput) {
  std::fprintf(stderr, "gpuplan: error: %s\n", message.c_str());
  std::exit(code);
}

// The catalog loader reports every problem at once, one per line: each gets the context.
[[noreturn]] void FailLines(const std::string& context, const std::string& lines, int code = kExitBadInput) {
  size_t start = 0;
  while (true) {
    const size_t end = lines.find('\n', start);
    const std::string line = lines.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::fprintf(stderr, "gpuplan: error: %s: %s\n", context.c_str(), line.c_str());
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::exit(code);
}

std::string ReadFileOrFail(const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(flag + ": cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Catalog LoadAll(const std::vector<std::string>& user_files) {
  const Result<Catalog>& embedded = EmbeddedCatalog();
  if (!embedded.ok()) FailLines("embedded catalog", embedded.error(), kExitInternal);
  if (user_files.empty()) return embedded.value();
  std::vector<CatalogFile> files;
  for (const std::string& path : user_files) files.push_back({path, ReadFileOrFail("--catalog", path)});
  Result<Catalog> merged = LoadCatalog(files, embedded.value());
  if (!merged.ok()) FailLines("--catalog", merged.error());
  return std::move(merged).value();
}

// --- records: one schema, four printers (core/records.h; the page copies the same text) ------
void PrintRecords(const std::vector<Column>& cols, const std::vector<std::vector<Cell>>& rows, const std::string& format) {
  fmt::print("{}", FormatRecords(Records{cols, rows}, format));
}
void PrintRecords(const Records& r, const std::string& format) { fmt::print("{}", FormatRecords(r, format)); }

// --- fit ------------------------------------------------------------------------------------
void PrintFitTable(const Catalog& cat, const Scenario& s, const MemoryEstimate& e) {
  const Model& m = *cat.FindModel(s.model);
  const Gpu& g = *cat.FindGpu(s.gpu);
  const WeightFormat& wf = *cat.FindWeightFormat(s.weights);
  const KvFormat& kvf = *cat.FindKvFormat(s.kv);
  const std::string per = s.tp > 1 ? " per GPU" : "";
  fmt::print("gpuplan fit: {} on {} × {} ({} {} {})\n", m.name, s.tp, g.name, FormatFixed(g.memory_quoted_value, 0),
             g.memory_quoted_unit, g.memory_type);
  fmt::print("  weights {}, KV cache {}, context {} tokens, batch {}\n\n", wf.name, kvf.name, FormatCount(s.context),
             s.batch);
  fmt::print("  {:<26} {:>9} {:>9}  {}\n", "Term" + per, "GiB", "GB", "How");
  auto row = [](const std::string& name, double bytes, const std::string& how) {
    fmt::print("  {:<26} {:>9} {:>9}  {}\n", name, FormatFixed(bytes / kGiB, 2), FormatFixed(bytes / kGB, 2), how);
  };
  for (const Term& t : e.terms) row(t.name, t.bytes, t.formula);
  row("Total", e.total_bytes, "sum of the terms above");
  for (const CapacityRow& c : CapacityRows(e.device)) row(c.name, c.bytes, c.how);
  row("Usable", e.usable_bytes, e.usable_basis);
  row(e.fits ? "Free" : "Short", std::abs(e.headroom_bytes), "usable - total");
  fmt::print("\n  {}{}: {} of {} usable ({})\n", e.fits ? "FITS" : "DOES NOT FIT", per, FormatBytes(e.total_bytes),
             FormatBytes(e.usable_bytes),
             e.fits ? FormatBytes(e.headroom_bytes) + " free" : "short by " + FormatBytes(-e.headroom_bytes));
  fmt::print("  KV cache per token (whole model): {}\n", FormatBytes(e.kv_bytes_per_token, ByteUnit::MiB, 3));
  fmt::print("  Max context at batch {}: {} tokens{}\n", s.batch, FormatCount(e.max_context),
             e.context_window > 0 && e.max_context > e.context_window
                 ? " (memory limit; the model's window is " + FormatCount(e.context_window) + ")"
                 : "");
  fmt::print("  Max batch at {} tokens: {} sequences\n", FormatCount(s.context), FormatCount(e.max_batch));
  if (e.host_bytes > 0)
    fmt::print("  Host RAM for offloaded layers: {} ({} of {} layers on the GPUs)\n", FormatBytes(e.host_bytes),
               e.layers_on_gpu, m.layers);
  if (e.band.cases > 0)
    fmt::print("  Error band: real engines used {:.0f}%–{:.0f}% of this total on {} reference cases\n", e.band.lo * 100,
               e.band.hi * 100, e.band.cases);
  for (const std::string& w : e.warnings) fmt::print("  warning: {}\n", w);
  fmt::print("  assumptions:\n");
  for (const std::string& a : e.assumptions) fmt::print("    - {}\n", a);
  fmt::print("  page state: #{}\n", EncodeState(s));
}

int RunFit(const Catalog& cat, const Scenario& s, const std::string& format) {
  Result<MemoryEstimate> e = EstimateMemory(cat, s);
  if (!e.ok()) Fail(e.error());
  if (format == "json") {
    fmt::print("{}\n", FitReportJson(cat, s, e.value()));
  } else if (format == "csv" || format == "md") {
    PrintRecords(FitRecords(e.value()), format);
  } else {
    PrintFitTable(cat, s, e.value());
  }
  return 0;
}

// --- import-hf ------------------------------------------------------------------------------
std::string Today() {
  std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

int RunImportHf(const std::string& path, std::string id, const std::string& name, const std::string& format) {
  const std::string text = ReadFileOrFail("import-hf", path);
  if (id.empty()) {
    id = std::filesystem::path(path).stem().string();  // "llama.config.json" -> "llama"
    if (id.size() > 7 && id.compare(id.size() - 7, 7, ".config") == 0) id.resize(id.size() - 7);
  }
  Result<Model> imported = ImportHfConfig(text, path, id);
  if (!imported.ok()) Fail("import-hf: " + imported.error());
  Model m = std::move(imported).value();
  m.name = name.empty() ? id : name;
  const ParamCount c = CountParams(m);
  if (format == "json") {
    // A catalog file: save it and pass it to --catalog to use the model everywhere.
    nlohmann::ordered_json entry;
    entry["id"] = m.id;
    entry["name"] = m.name;
    entry["config"] = nlohmann::ordered_json::parse(text);
    entry["sources"] = {{{"fields", {"config"}},
                         {"title", "config.json imported by gpuplan import-hf"},
                         {"url", "file://" + std::filesystem::absolute(path).string()},
                         {"read", Today()}}};
    nlohmann::ordered_json doc;
    doc["schema"] = 1;
    doc["models"] = {entry};
    fmt::print("{}\n", doc.dump(2));
    return 0;
  }
  fmt::print("{} ({}), model_type {}\n", m.name, m.id, m.model_type);
  fmt::print("  {:<22} {}\n", "layers", m.layers);
  fmt::print("  {:<22} {}\n", "hidden", m.hidden);
  fmt::print("  {:<22} {} query, {} KV, head dim {}\n", "heads", m.heads, m.kv_heads, m.head_dim);
  fmt::print("  {:<22} {}\n", "attention", DescribeAttention(m));
  if (m.moe)
    fmt::print("  {:<22} {} experts, top-{}, {} shared, expert width {}\n", "mixture of experts", m.moe->experts,
               m.moe->experts_per_token, m.moe->shared_experts, m.moe->expert_intermediate);
  fmt::print("  {:<22} {}\n", "vocab", FormatCount(m.vocab));
  fmt::print("  {:<22} {}\n", "max context", m.max_context > 0 ? FormatCount(m.max_context) : "not stated");
  fmt::print("  {:<22} {} ({} embedding)\n", "parameters", FormatParams(c.total), FormatParams(c.embedding));
  if (c.vision > 0) fmt::print("  {:<22} {}: {}\n", "of which vision", FormatParams(c.vision), m.vision_what);
  if (m.head_params > 0) fmt::print("  {:<22} {} ({})\n", "of which head", FormatParams(m.head_params), m.head_what);
  if (m.moe || c.vision > 0) fmt::print("  {:<22} {}\n", "active per token", FormatParams(c.active));
  if (m.encoder_only) fmt::print("  {:<22} {}\n", "encoder-only", "an embedding or reranker model: no KV cache, no decode");
  fmt::print("  {:<22} {} per token at 16 bits\n", "KV cache", FormatBytes(KvBytesPerToken(m, 2), ByteUnit::MiB, 3));
  fmt::print("\nSave it as a catalog entry: gpuplan import-hf {} --format json > my-models.json\n"
             "then: gpuplan --catalog my-models.json fit --model {} ...\n", path, m.id);
  return 0;
}

// --- catalog --------------------------------------------------------------------------------
int RunShow(const Catalog& cat, const std::string& id, const std::string& format,
            const std::vector<std::string>& quoted) {
  const Gpu* g = cat.FindGpu(id);
  if (!g) {
    std::vector<std::string> ids;
    for (const Gpu& e : cat.gpus) ids.push_back(e.id);
    Fail("catalog show: " + UnknownIdMessage("GPU", id, ids));
  }
  std::vector<DetailRow> rows = DescribeGpu(*g);
  // "--quoted fp16=330": what a figure from a guide or a spec sheet is, in catalog terms.
  std::vector<std::pair<std::string, std::vector<std::string>>> explained;
  for (const std::string& q : quoted) {
    const size_t eq = q.find('=');
    char* end = nullptr;
    const double tflops = eq == std::string::npos ? 0 : std::strtod(q.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || end == q.c_str() + eq + 1 || *end != '\0' || !(tflops > 0) ||
        !std::isfinite(tflops))
      Fail("--quoted: '" + q + "' must be PRECISION=TFLOPS, e.g. fp16=330");
    explained.push_back({q, ExplainQuotedTflops(*g, q.substr(0, eq), tflops)});
  }
  if (format == "json") {
    nlohmann::ordered_json j;
    j["id"] = g->id;
    j["name"] = g->name;
    nlohmann::ordered_json jrows = nlohmann::ordered_json::array();
    for (const DetailRow& r : rows)
      jrows.push_back({{"field", r.field}, {"label", r.label}, {"value", r.value}, {"sources", r.sources}});
    j["rows"] = jrows;
    nlohmann::ordered_json jsrc = nlohmann::ordered_json::array();
    for (const Source& s : g->sources)
      jsrc.push_back({{"fields", s.fields}, {"title", s.title}, {"url", s.url}, {"read", s.read}, {"note", s.note}});
    j["sources"] = jsrc;
    if (!explained.empty()) {
      nlohmann::ordered_json jq = nlohmann::ordered_json::object();
      for (const auto& [q, why] : explained) jq[q] = why;
      j["quoted"] = jq;
    }
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("{} ({})\n\n", g->name, g->id);
  for (const DetailRow& r : rows) {
    std::string refs;
    for (int i : r.sources) refs += (refs.empty() ? "[" : ",") + std::to_string(i + 1);
    fmt::print("  {:<24} {}{}\n", r.label, r.value, refs.empty() ? "" : " " + refs + "]");
  }
  for (const auto& [q, why] : explained) {
    std::string text;
    for (const std::string& w : why) text += (text.empty() ? "" : "; or ") + w;
    fmt::print("\n  Quoted {} TFLOP/s = {}\n", q, text.empty() ? "no catalog figure within 2%" : text);
  }
  fmt::print("\nSources:\n");
  for (size_t i = 0; i < g->sources.size(); ++i) {
    const Source& s = g->sources[i];
    fmt::print("  [{}] {} — {} (read {})\n", i + 1, s.title, s.url, s.read);
    if (!s.note.empty()) fmt::print("      note: {}\n", s.note);
  }
  return 0;
}

int RunCatalog(const Catalog& cat, const std::string& what, const std::string& format) {
  std::vector<Column> cols;
  std::vector<std::vector<Cell>> rows;
  auto flops = [](const Gpu& g, const char* p) {
    auto it = g.dense_flops.find(p);
    return it == g.dense_flops.end() ? Unknown() : Number(it->second / 1e12, FormatFixed(it->second / 1e12, 1));
  };
  if (what == "presets") {
    cols = {{"id", "id"}, {"panel", "panel"}, {"question", "question"}, {"state", "state"}};
    for (const Preset& p : Presets()) rows.push_back({Text(p.id), Text(p.panel), Text(p.question), Text(p.hash)});
    PrintRecords(cols, rows, format);
    return 0;
  }
  if (what == "gpus") {
    cols = {{"id", "id"}, {"name", "name"}, {"vendor", "vendor"}, {"year", "year", true},
            {"memory_quoted", "memory", true}, {"memory_bytes", "GiB", true}, {"bandwidth_gb_s", "GB/s", true},
            {"bf16_dense_tflops", "BF16 TFLOP/s", true}, {"fp8_dense_tflops", "FP8 TFLOP/s", true},
            {"tdp_w", "W", true}};
    for (const Gpu& g : cat.gpus)
      rows.push_back({Text(g.id), Text(g.name), Text(g.vendor),
                      g.year ? Number(g.year, std::to_string(g.year)) : Unknown(),
                      Text(FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit),
                      Number(g.TotalBytes(), FormatFixed(g.TotalBytes() / kGiB, 1)),
                      g.bandwidth_bytes_per_s > 0
                          ? Number(g.bandwidth_bytes_per_s / kGB, FormatFixed(g.bandwidth_bytes_per_s / kGB, 0))
                          : Unknown(),
                      flops(g, "bf16"), flops(g, "fp8"), g.tdp_w > 0 ? Number(g.tdp_w, FormatFixed(g.tdp_w, 0)) : Unknown()});
  } else if (what == "models") {
    cols = {{"id", "id"}, {"name", "name"}, {"params", "params", true}, {"active_params", "active", true},
            {"layers", "layers", true}, {"kv_heads", "KV heads", true}, {"attention", "attention (KV cache)"}};
    for (const Model& m : cat.models) {
      const ParamCount c = CountParams(m);  // computed from the architecture
      rows.push_back({Text(m.id), Text(m.name), Number(c.total, FormatParams(c.total)),
                      m.moe ? Number(c.active, FormatParams(c.active)) : Unknown(),
                      Number(m.layers, std::to_string(m.layers)), Number(m.kv_heads, std::to_string(m.kv_heads)),
                      Text(DescribeAttention(m))});
    }
  } else if (what == "interconnects") {
    cols = {{"id", "id"}, {"name", "name"}, {"kind", "kind"}, {"raw_gb_per_s", "raw GB/s per dir.", true},
            {"effective_gb_per_s", "effective", true}, {"bidirectional_gb_per_s", "bidir. GB/s", true},
            {"measured_busbw_gb_per_s", "NCCL busbw", true}, {"domain_gpus", "domain", true}, {"scope", "scope"}};
    auto gbs = [](double b) { return b > 0 ? Number(b / kGB, FormatShort(b / kGB, 2)) : Unknown(); };
    for (const InterconnectSpec& l : cat.interconnects)
      rows.push_back({Text(l.id), Text(l.name), Text(l.kind), gbs(l.raw_bytes_per_s), gbs(l.effective_bytes_per_s),
                      gbs(l.bidirectional_bytes_per_s), gbs(l.measured_busbw_bytes_per_s),
                      l.domain_gpus ? Number(l.domain_gpus, std::to_string(l.domain_gpus)) : Unknown(), Text(l.scope)});
  } else if (what == "cloud") {
    cols = {{"id", "id"}, {"provider", "provider"}, {"instance", "instance"}, {"gpu", "GPU"},
            {"gpu_count", "GPUs", true}, {"on_demand_usd_per_hour", "on-demand $/h", true},
            {"spot_usd_per_hour", "spot $/h", true}, {"usd_per_gpu_hour", "$/GPU-h", true}, {"region", "region"},
            {"date", "date"}};
    auto usd = [](double v) { return v > 0 ? Number(v, FormatFixed(v, 2)) : Unknown(); };
    for (const CloudOffer& o : cat.cloud_offers)
      rows.push_back({Text(o.id), Text(o.provider), Text(o.instance), Text(o.gpu),
                      Number(o.gpu_count, std::to_string(o.gpu_count)), usd(o.on_demand_usd_per_hour),
                      usd(o.spot_usd_per_hour), usd(o.on_demand_usd_per_hour / o.gpu_count), Text(o.region),
                      Text(o.date)});
  } else if (what == "engines") {
    cols = {{"id", "id"}, {"name", "name"}, {"memory_fraction", "memory cap", true}, {"of", "of"},
            {"kv_block_tokens", "KV block", true}, {"examples", "logged workspace examples", true}, {"version", "version"}};
    for (const EngineProfile& e : cat.engines)
      rows.push_back({Text(e.id), Text(e.name),
                      e.memory_fraction > 0 ? Number(e.memory_fraction, FormatShort(e.memory_fraction, 3)) : Unknown(),
                      Text(e.memory_fraction_of), e.kv_block_tokens ? Number(e.kv_block_tokens, std::to_string(e.kv_block_tokens)) : Unknown(),
                      Number(static_cast<double>(e.examples.size()), std::to_string(e.examples.size())),
                      Text(e.version.substr(0, 60))});
  } else {  // formats
    cols = {{"kind", "kind"}, {"id", "id"}, {"name", "name"}, {"size", "bits/weight or bytes/element", true}};
    for (const WeightFormat& f : cat.weight_formats)
      rows.push_back({Text("weights"), Text(f.id), Text(f.name), Number(f.bits_per_weight, FormatFixed(f.bits_per_weight, 4))});
    for (const KvFormat& f : cat.kv_formats)
      rows.push_back({Text("kv"), Text(f.id), Text(f.name), Number(f.bytes_per_element, FormatFixed(f.bytes_per_element, 4))});
  }
  PrintRecords(cols, rows, format);
  return 0;
}

int RunValidate(const std::vector<std::string>& paths, const std::string& format) {
  const Result<Catalog>& embedded = EmbeddedCatalog();
  if (!embedded.ok()) FailLines("embedded catalog", embedded.error(), kExitInternal);
  std::vector<CatalogFile> files;
  for (const std::string& path : paths) files.push_back({path, ReadFileOrFail("catalog validate", path)});
  Result<Catalog> merged = LoadCatalog(files, embedded.value());
  if (!merged.ok()) FailLines("catalog validate", merged.error());
  const Catalog& base = embedded.value();
  const Catalog& c = merged.value();
  // Warnings: suspicious but loaded (a unit unusual for the memory type, no driver total). With
  // no file, the built-in catalog's own.
  const size_t from = paths.empty() ? 0 : base.warnings.size();
  for (size_t i = from; i < c.warnings.size(); ++i) std::fprintf(stderr, "gpuplan: warning: %s\n", c.warnings[i].c_str());
  std::vector<Column> cols = {{"kind", "kind"}, {"entries", "entries after merge", true}, {"added", "added", true}};
  auto row = [](const char* kind, size_t now, size_t before) {
    return std::vector<Cell>{Text(kind), Number(static_cast<double>(now), std::to_string(now)),
                             Number(static_cast<double>(now - before), std::to_string(now - before))};
  };
  PrintRecords(cols,
               {row("gpus", c.gpus.size(), base.gpus.size()), row("models", c.models.size(), base.models.size()),
                row("weight_formats", c.weight_formats.size(), base.weight_formats.size()),
                row("kv_formats", c.kv_formats.size(), base.kv_formats.size()),
                row("interconnects", c.interconnects.size(), base.interconnects.size()),
                row("cloud_offers", c.cloud_offers.size(), base.cloud_offers.size()),
                row("engines", c.engines.size(), base.engines.size())},
               format);
  return 0;
}


// --- speed, cost, compare -------------------------------------------------------------------
std::string Secs(double s) { return Seconds(s); }

// "×0.71–1.32": the band as the factor range that brackets reality on the reference set.
std::string BandText(const Band& b, double value, int digits) {
  return FormatFixed(value * b.lo, digits) + "–" + FormatFixed(value * b.hi, digits) + " (band from " +
         std::to_string(b.cases) + " reference cases)";
}

MemoryEstimate FitOrFail(const Catalog& cat, const Scenario& s) {
  Result<MemoryEstimate> e = EstimateMemory(cat, s);
  if (!e.ok()) Fail(e.error());
  return std::move(e).value();
}

void PrintStep(const char* title, const StepTime& t) {
  fmt::print("  {} — {} ({}-bound)\n", title, Secs(t.seconds), t.bound);
  for (const TimeTerm& x : t.terms) fmt::print("    {:<30} {:>10}  {}\n", x.name, Secs(x.seconds), x.formula);
  fmt::print("    {:<30} {:>10}  max(memory {}, compute {}) + serial {}\n", "= step", Secs(t.seconds), Secs(t.memory_s),
             Secs(t.compute_s), Secs(t.serial_s));
}

GpuProbeResult ReadProbeOrFail(const std::string& flag, const std::string& path) {
  Result<GpuProbeResult> probe = ParseGpuProbe(ReadFileOrFail(flag, path));
  if (!probe.ok()) Fail(flag + ": " + path + ": " + probe.error());
  return std::move(probe).value();
}

int RunSpeed(const Catalog& cat, const Scenario& s, const std::string& format, bool explain,
             const std::string& measured_path) {
  const MemoryEstimate m = FitOrFail(cat, s);
  Efficiency eff;
  if (!measured_path.empty()) {
    // The probe's ceilings instead of the engine's fitted efficiencies: what this GPU's best
    // kernels reach, an upper bound for any engine.
    const GpuProbeResult probe = ReadProbeOrFail("--measured", measured_path);
    const Gpu* on = MatchProbeGpu(cat, probe);
    if (!on || on->id != s.gpu)
      Fail("--measured: the probe ran on '" + probe.device_name + "'" + (on ? " (catalog id " + on->id + ")" : "") +
           "; give --gpu " + (on ? on->id : std::string("ID")) + " to use its measurements");
    eff = MeasuredEfficiency(probe, *on, ComputePrecision(*on, *cat.FindWeightFormat(s.weights), *cat.FindEngine(s.engine)));
    if (!(eff.bw > 0) || !(eff.compute > 0))
      Fail("--measured: " + measured_path + " has no read-bandwidth or GEMM measurement for this scenario's precision");
  }
  Result<SpeedEstimate> r = EstimateSpeed(cat, s, m, eff);
  if (!r.ok()) Fail(r.error());
  const SpeedEstimate& e = r.value();
  const CostEstimate c = EstimateCost(cat, s, e);
  if (format == "json") {
    fmt::print("{}\n", SpeedReportJson(cat, s, m, e, c));
    return 0;
  }
  if (format == "csv" || format == "md") {
    PrintRecords(SpeedRecords(e), format);
    return 0;
  }
  const Model& model = *cat.FindModel(s.model);
  const Gpu& g = *cat.FindGpu(s.gpu);
  fmt::print("gpuplan speed: {} on {} × {}, {} weights, {}\n", model.name, s.tp, g.name,
             cat.FindWeightFormat(s.weights)->name, cat.FindEngine(s.engine)->name);
  fmt::print("  prompt {} tokens, context {} tokens, batch {}{}\n\n", FormatCount(s.prompt), FormatCount(s.context),
             s.batch, m.fits ? "" : "  (DOES NOT FIT in memory: see gpuplan fit)");
  fmt::print("  {:<28} {:>12}  {}\n", "Decode, per user", FormatFixed(e.tokens_per_s_user, 1) + " tok/s",
             BandText(e.decode_band, e.tokens_per_s_user, 1));
  fmt::print("  {:<28} {:>12}  {}\n", "Decode, all users", FormatFixed(e.tokens_per_s_total, 1) + " tok/s",
             BandText(e.decode_band, e.tokens_per_s_total, 1));
  fmt::print("  {:<28} {:>12}  {}\n", "Time per output token", Secs(e.decode.seconds), e.decode.bound + "-bound");
  if (auto it = e.unknown.find("ttft_s"); it != e.unknown.end()) {
    fmt::print("  {:<28} {:>12}  {}\n", "Time to first token", "unknown", it->second);
    fmt::print("  {:<28} {:>12}  {}\n", "Prefill", "unknown", it->second);
  } else {
    fmt::print("  {:<28} {:>12}  {}\n", "Time to first token", Secs(e.ttft_s), "one prompt alone, + one decode step");
    fmt::print("  {:<28} {:>12}  {}\n", "Prefill", FormatFixed(e.prefill_tokens_per_s, 0) + " tok/s",
               BandText(e.prefill_band, e.prefill_tokens_per_s, 0));
  }
  if (c.cloud_per_m_output > 0)
    fmt::print("  {:<28} {:>12}  input ${}/1M; {}\n", "Cloud $/1M output tokens", "$" + FormatFixed(c.cloud_per_m_output, 3),
               FormatFixed(c.cloud_per_m_input, 3), c.cloud_basis);
  if (c.owned_per_m_output > 0)
    fmt::print("  {:<28} {:>12}  input ${}/1M; {}\n", "Owned $/1M output tokens", "$" + FormatFixed(c.owned_per_m_output, 3),
               FormatFixed(c.owned_per_m_input, 3), c.purchase_basis);
  if (explain) {
    fmt::print("\n");
    PrintStep("Decode step", e.decode);
    PrintStep("Prefill of the batch", e.prefill);
    fmt::print("  peak {} {} TFLOP/s, bandwidth {} GB/s{}\n", e.compute_precision, FormatFixed(e.peak_flops / 1e12, 1),
               FormatFixed(e.bandwidth / 1e9, 0), e.link_name.empty() ? "" : ", link " + e.link_name);
    for (const CostLine& l : c.lines) fmt::print("  {:<30} ${:>9}  {}\n", l.name, FormatFixed(l.usd, 4), l.formula);
  }
  for (const std::string& w : e.warnings) fmt::print("  warning: {}\n", w);
  for (const std::string& w : c.warnings) fmt::print("  note: {}\n", w);
  fmt::print("  assumptions:\n");
  for (const std::string& a : e.assumptions) fmt::print("    - {}\n", a);
  if (explain)
    for (const std::string& a : c.assumptions) fmt::print("    - {}\n", a);
  fmt::print("  page state: #{}\n", EncodeState(s));
  return 0;
}

int RunCost(const Catalog& cat, const Scenario& s, const std::string& format, bool explain) {
  const MemoryEstimate m = FitOrFail(cat, s);
  Result<SpeedEstimate> r = EstimateSpeed(cat, s, m);
  if (!r.ok()) Fail(r.error());
  const CostEstimate c = EstimateCost(cat, s, r.value());
  if (format == "json") {
    fmt::print("{}\n", CostReportJson(s, r.value(), c));
    return 0;
  }
  if (format != "table") {
    PrintRecords(CostRecords(s, c), format);
    return 0;
  }
  const long long gpus = s.Gpus();
  fmt::print("gpuplan cost: {} × {} serving {}; {} busy hours a month ({}%)\n", gpus, cat.FindGpu(s.gpu)->name,
             cat.FindModel(s.model)->name, FormatCount(static_cast<long long>(std::llround(c.busy_hours_month))),
             FormatFixed(s.utilization * 100, 0));
  fmt::print("  at {} output tokens/s in all, {} prefill tokens/s{}\n\n", FormatFixed(r.value().tokens_per_s_total, 1),
             r.value().unknown.count("prefill_tokens_per_s") ? std::string("unknown") : FormatFixed(r.value().prefill_tokens_per_s, 0),
             m.fits ? "" : "  (DOES NOT FIT in memory: see gpuplan fit)");
  PrintRecords(CostRecords(s, c), "table");
  fmt::print("\n");
  if (c.break_even_months > 0)
    fmt::print("  Buying pays off after {} months against on demand{}.\n", FormatFixed(c.break_even_months, 1),
               c.break_even_spot_months > 0 ? ", " + FormatFixed(c.break_even_spot_months, 1) + " against spot" : "");
  else if (c.purchase_gpu > 0 && c.cloud_hour > 0)
    fmt::print("  Buying never pays off: energy alone costs as much as renting.\n");
  if (c.spot_discount > 0)
    fmt::print("  Spot saves {}% after the {}% interruption overhead.\n", FormatFixed(c.spot_discount * 100, 0),
               FormatFixed(s.spot_overhead * 100, 0));
  if (explain) {
    for (const CostLine& l : c.lines) fmt::print("  {:<30} ${:>9}  {}\n", l.name, FormatFixed(l.usd, 4), l.formula);
    fmt::print("\n  {:>8} {:>14} {:>14} {:>14}\n", "month", "on demand $", "spot $", "owned $");
    auto at = [](const std::vector<double>& v, size_t i) {
      return i < v.size() ? FormatCount(std::llround(v[i])) : std::string("-");
    };
    for (size_t i = 0; i < c.months.size(); i += 6)
      fmt::print("  {:>8} {:>14} {:>14} {:>14}\n", FormatFixed(c.months[i], 1), at(c.cloud_total, i),
                 at(c.spot_total, i), at(c.owned_total, i));
  }
  for (const std::string& w : c.warnings) fmt::print("  note: {}\n", w);
  fmt::print("  assumptions:\n");
  for (const std::string& a : c.assumptions) fmt::print("    - {}\n", a);
  fmt::print("  page state: #{}\n", EncodeState(s));
  return 0;
}

int RunCompare(const Catalog& cat, const Scenario& s, const std::string& format, const std::string& sort_key,
               const CompareFilter& filter) {
  // Validate the shared fields once, so a bad model or format is one clear error.
  (void)FitOrFail(cat, s);
  std::vector<CompareRow> rows = CompareCatalog(cat, s);
  rows.erase(std::remove_if(rows.begin(), rows.end(), [&](const CompareRow& r) { return !PassesFilter(r, filter); }),
             rows.end());
  SortCompareRows(rows, sort_key);
  if (format == "json") {
    fmt::print("{}\n", CompareReportJson(s, rows));
    return 0;
  }
  PrintRecords(CompareRecords(rows), format);
  return 0;
}

// --- calibrate --------------------------------------------------------------------------------
int RunCalibrate(const Catalog& cat, const std::string& path, bool fit, const std::string& format) {
  Result<std::vector<ReferenceCase>> cases = ParseReferenceCases(ReadFileOrFail("--reference", path));
  if (!cases.ok()) Fail(cases.error());
  std::vector<std::string> log;
  const Catalog fitted = fit ? FitCalibration(cat, cases.value(), log) : cat;
  const std::vector<CaseResult> results = RunReferenceCases(fitted, cases.value());
  if (format == "json") {
    nlohmann::ordered_json j;
    j["schema"] = "gpuplan.calibration/1";
    nlohmann::ordered_json engines = nlohmann::ordered_json::array();
    for (const EngineProfile& e : fitted.engines) {
      const EngineCalibration& k = e.calibration;
      auto band = [](const Band& b) { return nlohmann::ordered_json{{"lo", b.lo}, {"hi", b.hi}, {"cases", b.cases}}; };
      engines.push_back({{"id", e.id},
                         {"calibration",
                          {{"decode_bw_efficiency", std::round(k.decode_bw_efficiency * 100) / 100},
                           {"prefill_compute_efficiency", std::round(k.prefill_compute_efficiency * 100) / 100},
                           {"layer_overhead_us", std::round(k.layer_overhead_s * 1e7) / 10},
                           {"prefill_token_layer_us", std::round(k.prefill_token_layer_s * 1e8) / 100},
                           {"decode_band", band(k.decode)},
                           {"prefill_band", band(k.prefill)},
                           {"memory_band", band(k.memory)}}}});
    }
    j["engines"] = engines;
    j["log"] = log;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const CaseResult& r : results)
      rows.push_back({{"id", r.c->id}, {"kind", r.c->kind}, {"engine", r.c->engine}, {"ran", r.ran},
                      {"skipped", r.skipped}, {"measured", r.c->measured},
                      {"estimated", r.ran ? nlohmann::ordered_json(r.estimated) : nlohmann::ordered_json(nullptr)},
                      {"ratio", r.ran ? nlohmann::ordered_json(r.ratio) : nlohmann::ordered_json(nullptr)}});
    j["cases"] = rows;
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  for (const std::string& l : log) fmt::print("fit: {}\n", l);
  fmt::print("{:<58} {:<16} {:>10} {:>10} {:>7}\n", "case", "kind", "measured", "estimate", "ratio");
  for (const CaseResult& r : results) {
    if (!r.ran) {
      fmt::print("{:<58} {:<16} skipped: {}\n", r.c->id.substr(0, 58), r.c->kind, r.skipped);
      continue;
    }
    fmt::print("{:<58} {:<16} {:>10} {:>10} {:>7}\n", r.c->id.substr(0, 58), r.c->kind, FormatShort(r.c->measured, 4),
               FormatShort(r.estimated, 4), FormatFixed(r.ratio, 2));
  }
  for (const char* group : {"memory", "speed"}) {
    const ErrorStats st = Summarise(results, group);
    fmt::print("{}: {} cases, median error {:.1f}%, worst {:.1f}% ({}), measured/estimated p10 {:.2f} p90 {:.2f}\n",
               group, st.n, st.median_abs_error * 100, st.worst_abs_error * 100, st.worst_case, st.p10_ratio,
               st.p90_ratio);
  }
  return 0;
}

// --- probe ------------------------------------------------------------------------------------
// `gpuplan probe gpu` runs gpuplan-probe-gpu (built by the cuda preset next to this program)
// with the remaining arguments, and exits with its code.
int RunProbeGpu(const std::vector<std::string>& args, const char* argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path self = fs::canonical("/proc/self/exe", ec);
  if (ec) self = fs::absolute(argv0);
  for (const fs::path& candidate : {self.parent_path() / "gpuplan-probe-gpu", self.parent_path() / "cuda" / "gpuplan-probe-gpu"}) {
    if (!fs::exists(candidate, ec)) continue;
    std::vector<std::string> owned = {candidate.string()};
    owned.insert(owned.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (std::string& a : owned) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::fflush(stdout);
    execv(candidate.c_str(), cargv.data());
    Fail("probe gpu: cannot run " + candidate.string() + ": " + std::strerror(errno), kExitInternal);
  }
  std::fprintf(stderr, "gpuplan: probe gpu: no CUDA probes in this build (build the cuda preset: cmake --preset cuda && "
                       "cmake --build build/cuda)\n");
  return 3;
}

// --- probe cpu ------------------------------------------------------------------------------
void PrintCpuProbe(const CpuProbeResult& p, const std::string& format) {
  if (format == "json") {
    fmt::print("{}\n", CpuProbeToJson(p));
    return;
  }
  std::vector<Column> cols = {{"quantity", "quantity"}, {"value", "value", true}, {"unit", "unit"}, {"how", "how"}};
  std::vector<std::vector<Cell>> rows;
  for (const MachineRow& r : CpuProbeRows(p))
    rows.push_back({Text(r.quantity), format == "table" || r.unit.empty() ? Text(r.text) : Number(r.value, FormatShort(r.value, 6)),
                    Text(r.unit), Text(r.how)});
  if (format == "table") {
    cols = {{"quantity", "quantity"}, {"value", "value"}, {"how", "how"}};
    for (auto& row : rows) row.erase(row.begin() + 2);
    fmt::print("gpuplan probe cpu: {}{}\n\n", p.date, p.quick ? " (quick: small arrays, short samples)" : "");
  }
  PrintRecords(cols, rows, format);
  if (format == "table") {
    for (const std::string& n : p.notes) fmt::print("  note: {}\n", n);
    for (const std::string& a : p.cpu.assumptions) fmt::print("  assumption: {}\n", a);
  }
}

int RunProbeCpu(const CpuProbeOptions& options, const std::string& out_path, const std::string& format) {
  // A progress line on a terminal (stderr, rewritten in place); nothing when piped.
  const bool tty = isatty(fileno(stderr)) != 0;
  auto progress = [tty](const std::string& stage, double fraction) {
    if (tty) std::fprintf(stderr, "\r  measuring: %-8s %3.0f%%", stage.c_str(), std::clamp(fraction, 0.0, 1.0) * 100);
  };
  Result<CpuProbeResult> r = MeasureMachine(options, progress);
  if (tty) std::fprintf(stderr, "\r%40s\r", "");
  if (!r.ok()) {
    std::fprintf(stderr, "gpuplan: error: probe cpu: %s\n", r.error().c_str());
    return 1;
  }
  if (!out_path.empty()) {
    std::FILE* f = std::fopen(out_path.c_str(), "wb");
    const std::string text = CpuProbeToJson(r.value()) + "\n";
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0)
      Fail("--out: cannot write '" + out_path + "'");
  }
  PrintCpuProbe(r.value(), format);
  return 0;
}

int RunProbeCompare(const Catalog& cat, const std::string& path, const std::string& gpu_id, const std::string& format) {
  {
    // A CPU probe's file is shown as `probe cpu` printed it.
    const std::string text = ReadFileOrFail("probe compare", path);
    if (text.find("\"gpuplan.cpu-probe/") != std::string::npos) {
      Result<CpuProbeResult> cpu = CpuProbeFromJson(text);
      if (!cpu.ok()) Fail("probe compare: " + path + ": " + cpu.error());
      PrintCpuProbe(cpu.value(), format);
      return 0;
    }
  }
  const GpuProbeResult probe = ReadProbeOrFail("probe compare", path);
  const Gpu* g = gpu_id.empty() ? MatchProbeGpu(cat, probe) : cat.FindGpu(gpu_id);
  if (!g) {
    std::vector<std::string> ids;
    for (const Gpu& e : cat.gpus) ids.push_back(e.id);
    Fail(gpu_id.empty() ? "probe compare: no catalog GPU matches '" + probe.device_name + "'; give --gpu ID"
                        : "--gpu: " + UnknownIdMessage("GPU", gpu_id, ids));
  }
  const std::vector<MeasuredRow> rows = MeasuredVsCatalog(probe, *g);
  if (format == "table")
    fmt::print("{} (catalog: {}), driver {}, CUDA {}, measured {}\n\n", probe.device_name, g->id, probe.driver,
               probe.cuda_runtime, probe.date);
  std::vector<Column> cols = {{"metric", "metric"}, {"catalog_field", "catalog field"}, {"measured", "measured", true},
                              {"datasheet", "datasheet (dense)", true}, {"ratio", "% of datasheet", true}, {"unit", "unit"}};
  std::vector<std::vector<Cell>> out;
  for (const MeasuredRow& r : rows) {
    const bool bytes = r.unit == "B/s";
    const double scale = bytes ? 1e9 : 1e12;
    const std::string u = bytes ? "GB/s" : r.unit == "OP/s" ? "TOP/s" : "TFLOP/s";
    out.push_back({Text(r.metric), Text(r.catalog_field), Number(r.measured, FormatFixed(r.measured / scale, 1)),
                   r.datasheet > 0 ? Number(r.datasheet, FormatFixed(r.datasheet / scale, 1)) : Unknown(),
                   r.datasheet > 0 ? Number(r.ratio(), FormatFixed(r.ratio() * 100, 1) + "%") : Unknown(), Text(format == "table" ? u : r.unit)});
  }
  PrintRecords(cols, out, format);
  return 0;
}

// --- train ------------------------------------------------------------------------------------
int RunTrain(const Catalog& cat, const Scenario& s, const std::string& format, bool explain, double target_days) {
  Result<TrainEstimate> r = EstimateTraining(cat, s);
  if (!r.ok()) Fail(r.error());
  const TrainEstimate& e = r.value();
  const std::vector<ScalingPoint> scaling = TrainingScaling(cat, s, 512);
  const double mfu_needed = target_days > 0 ? MfuForDays(e, s.mfu, target_days) : 0;
  if (format == "json") {
    if (target_days > 0) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(TrainReportJson(s, e, scaling));
      j["target"] = {{"days", target_days},
                     {"mfu_needed", mfu_needed > 0 ? nlohmann::ordered_json(mfu_needed) : nlohmann::ordered_json(nullptr)},
                     {"possible", mfu_needed > 0 && mfu_needed <= 1}};
      fmt::print("{}\n", j.dump(2));
    } else {
      fmt::print("{}\n", TrainReportJson(s, e, scaling));
    }
    return 0;
  }
  if (format == "csv" || format == "md") {
    PrintRecords(TrainRecords(cat, s, e), format);
    return 0;
  }
  const Model& m = *cat.FindModel(s.model);
  const Gpu& g = *cat.FindGpu(s.gpu);
  fmt::print("gpuplan train: {} ({}), {} GPUs = {} TP × {} PP × {} DP of {}\n", m.name, s.method, e.gpus, s.tp, s.pp,
             s.dp, g.name);
  fmt::print("  optimizer {}, ZeRO-{}, sequence {} tokens, micro-batch {}, recompute {}, {} attention\n\n", s.optimizer,
             s.zero, FormatCount(s.context), s.micro_batch, s.recompute, s.flash ? "flash/SDPA" : "eager");
  fmt::print("  {:<34} {:>9} {:>9}  {}\n", "Memory per GPU", "GiB", "GB", "How");
  auto row = [](const std::string& name, double bytes, const std::string& how) {
    fmt::print("  {:<34} {:>9} {:>9}  {}\n", name, FormatFixed(bytes / kGiB, 2), FormatFixed(bytes / kGB, 2), how);
  };
  for (const Term& t : e.terms) row(t.name, t.bytes, t.formula);
  row("Total", e.total_bytes, "sum of the terms above");
  for (const CapacityRow& c : CapacityRows(e.device)) row(c.name, c.bytes, c.how);
  fmt::print("\n  {}: {} of {}; the largest micro-batch that fits: {}\n", e.fits ? "FITS" : "DOES NOT FIT",
             FormatBytes(e.total_bytes), FormatBytes(e.capacity_bytes), FormatCount(e.max_micro_batch));
  for (const std::string& x : e.suggestions) fmt::print("  try: {}\n", x);
  if (e.host_bytes > 0) fmt::print("  CPU memory for offloaded states: {} per GPU\n", FormatBytes(e.host_bytes));
  fmt::print("\n  Trainable parameters: {} of {}\n", FormatParams(e.trainable_params), FormatParams(e.total_params));
  fmt::print("  FLOPs per token: {:.4g} = {}\n", e.flops_per_token, e.flops_formula);
  if (auto it = e.unknown.find("seconds"); it != e.unknown.end()) {
    fmt::print("  Throughput, time and cost: unknown ({})\n", it->second);
  } else {
  fmt::print("  Throughput: {} tokens/s on {} GPUs (step: compute {}, exposed communication {}; scaling efficiency {}%)\n",
             FormatCount(static_cast<long long>(e.tokens_per_s)), e.gpus, FormatFixed(e.step_compute_s, 2) + " s",
             FormatFixed(e.step_comm_s, 2) + " s", FormatFixed(e.scaling_efficiency * 100, 1));
  fmt::print("  {:.4g} tokens: {} days, {} GPU-hours (Chinchilla-optimal for this size: {:.3g} tokens)\n", s.tokens,
             FormatFixed(e.seconds / 86400, 2), FormatCount(static_cast<long long>(e.gpu_hours)), e.chinchilla_tokens);
  if (target_days > 0)
    fmt::print("  To finish in {} days on these {} GPUs: MFU {}{}\n", FormatShort(target_days, 3), e.gpus,
               mfu_needed > 0 ? FormatFixed(mfu_needed * 100, 0) + "%" : std::string("(communication alone takes longer)"),
               mfu_needed > 1 ? " — impossible: above 100% of the dense peak; add GPUs" : "");
  if (e.cloud_usd > 0)
    fmt::print("  Cost: ${} on demand{} — {}\n", FormatCount(static_cast<long long>(e.cloud_usd)),
               e.spot_usd > 0 ? ", $" + FormatCount(static_cast<long long>(e.spot_usd)) + " spot (+" + FormatFixed(s.spot_overhead * 100, 0) + "% restarts)" : "",
               e.price_basis);
  fmt::print("  Energy: {} kWh, ${} at ${}/kWh and PUE {}\n", FormatCount(static_cast<long long>(e.energy_kwh)),
             FormatCount(static_cast<long long>(e.energy_usd)), FormatFixed(s.kwh_usd, 2), FormatFixed(s.pue, 2));
  }
  if (explain) {
    fmt::print("\n  Scaling with data-parallel GPUs at a global batch of {} sequences:\n",
               FormatCount(static_cast<long long>(e.global_batch_tokens / static_cast<double>(s.context))));
    fmt::print("  {:>6} {:>14} {:>11} {:>9}\n", "GPUs", "tokens/s", "efficiency", "days");
    for (const ScalingPoint& p : scaling)
      fmt::print("  {:>6} {:>14} {:>10}% {:>9}\n", p.gpus, FormatCount(static_cast<long long>(p.tokens_per_s)),
                 FormatFixed(p.efficiency * 100, 1), FormatFixed(p.days, 2));
  }
  for (const std::string& w : e.warnings) fmt::print("  warning: {}\n", w);
  fmt::print("  assumptions:\n");
  for (const std::string& a : e.assumptions) fmt::print("    - {}\n", a);
  fmt::print("  page state: #{}\n", EncodeState(s));
  return 0;
}
// --- roofline ---------------------------------------------------------------------------------
struct RooflineOptions {
  std::string svg_path, measured_path, cpu_path, phase = "all";
  std::vector<std::string> overlay;
};

int RunRoofline(const Catalog& cat, const Scenario& s, const std::string& format, const RooflineOptions& o) {
  Result<Roofline> r = BuildRoofline(cat, s);
  if (!r.ok()) Fail(r.error());
  Roofline& rl = r.value();
  std::vector<ChartPoint> points;
  std::vector<Roof> roofs = {rl.roof};
  for (const std::string& id : o.overlay) {
    const Gpu* g = cat.FindGpu(id);
    if (!g) Fail("--overlay: unknown GPU '" + id + "' (gpuplan catalog gpus lists them)");
    roofs.push_back(GpuRoof(cat, *g));
  }
  if (!o.measured_path.empty()) {
    // The measured ceilings go on the roof of the GPU the probe ran on (matched by name), which
    // joins the chart if it is not the scenario's; an unknown device gets a roof of its own.
    const GpuProbeResult probe = ReadProbeOrFail("--measured", o.measured_path);
    const Gpu* measured = MatchProbeGpu(cat, probe);
    Roof* target = nullptr;
    for (Roof& roof : roofs)
      if (measured && roof.id == measured->id) target = &roof;
    if (!target) {
      roofs.push_back(measured ? GpuRoof(cat, *measured) : Roof{"measured", probe.device_name, {}, {}});
      target = &roofs.back();
    }
    AddMeasuredCeilings(*target, probe);
    if (measured && measured->id == rl.roof.id) AddMeasuredCeilings(rl.roof, probe);
    points = MeasuredGemmPoints(probe);
  }
  if (!o.cpu_path.empty()) {
    Result<CpuProbeResult> cpu = CpuProbeFromJson(ReadFileOrFail("--cpu", o.cpu_path));
    if (!cpu.ok()) Fail("--cpu: " + o.cpu_path + ": " + cpu.error());
    roofs.push_back(CpuRoof(cpu.value()));
    for (const ChartPoint& p : CpuGemmPoints(cpu.value())) points.push_back(p);
  }
  for (const RoofOp& op : rl.ops)
    if (o.phase == "all" || op.phase == o.phase)
      points.push_back({op.phase + ": " + op.name, op.intensity, op.attainable_flops_per_s, PhaseColor(op.phase), false});
  if (!o.svg_path.empty()) {
    RooflineChart chart = MakeRooflineChart(roofs, points, rl.precision);
    chart.title = "Roofline: " + cat.FindModel(s.model)->name + " on " + rl.roof.label;
    std::FILE* f = std::fopen(o.svg_path.c_str(), "wb");
    if (!f) Fail("--svg: cannot write '" + o.svg_path + "'");
    const std::string svg = RooflineSvg(chart);
    const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
    if (std::fclose(f) != 0 || !ok) Fail("--svg: writing '" + o.svg_path + "' failed");
  }
  if (format == "json") {
    fmt::print("{}\n", RooflineReportJson(s, rl));
    return 0;
  }
  const Records rows = RooflineRecords(rl, o.phase);
  if (format != "table") {
    PrintRecords(rows, format);
    return 0;
  }
  fmt::print("gpuplan roofline: {} on {} ({} matmuls)\n", cat.FindModel(s.model)->name, rl.roof.label,
             rl.precision);
  fmt::print("  ceilings:\n");
  for (const ComputeCeiling& c : rl.roof.compute)
    fmt::print("    {:<34} {:>16}{}\n", c.label, FormatRate(c.flops_per_s, "FLOP/s"),
               c.measured || rl.roof.Ridge(c.key) <= 0 ? std::string()
                                                        : "   ridge " + FormatShort(rl.roof.Ridge(c.key), 3) + " FLOP/B");
  for (const MemoryCeiling& m : rl.roof.memory) fmt::print("    {:<34} {:>16}\n", m.label, FormatRate(m.bytes_per_s, "B/s"));
  fmt::print("\n");
  PrintRecords(rows, "table");
  fmt::print("  assumptions:\n");
  for (const std::string& a : rl.assumptions) fmt::print("    - {}\n", a);
  if (!o.svg_path.empty()) fmt::print("  chart written to {}\n", o.svg_path);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  std::setlocale(LC_NUMERIC, "C");  // numbers print and parse the same everywhere
  // `gpuplan probe gpu ...`: everything after `gpu` belongs to the probe program.
  if (argc >= 3 && std::string(argv[1]) == "probe" && std::string(argv[2]) == "gpu")
    return RunProbeGpu(std::vector<std::string>(argv + 3, argv + argc), argv[0]);

  CLI::App app{"gpuplan: which GPU, how many, how fast, at what cost — with the work shown.\n"
               "The same numbers as the page; flags are the page's URL-hash fields."};
  app.require_subcommand(1);
  app.fallthrough();  // global options (--catalog) may also follow the subcommand
  app.footer("Exit codes: 0 success, 2 bad input (the message names the flag or field), 1 internal error.");

  std::vector<std::string> catalog_files;
  app.add_option("--catalog", catalog_files, "extra catalog JSON file(s); entries add to or replace built-in ids")
      ->type_name("FILE");

  // fit, speed, compare: one set of scenario flags (the page's hash keys) on each
  std::string format = "table";
  std::string state, preset_id;
  bool explain = false;
  std::string sort_key = "tokens_per_s_total";
  CompareFilter compare_filter;
  const Scenario defaults;
  std::map<std::string, std::string> field_values;
  CLI::App* fit = app.add_subcommand("fit", "memory per GPU for serving a model: weights, KV cache, activations, overhead, the engine's cap; whether it fits");
  CLI::App* speed = app.add_subcommand("speed", "prefill and decode speed (tokens/s, time to first token) with the error band, and $ per 1M tokens");
  CLI::App* cost = app.add_subcommand("cost", "cloud on demand and spot vs owning the GPUs: per hour, per month of busy hours, per 1M tokens, break-even months; the cumulative cost by month");
  CLI::App* compare = app.add_subcommand("compare", "the whole catalog for one scenario: fewest GPUs that fit, tokens/s, $/1M tokens, upfront $, watts");
  CLI::App* train = app.add_subcommand("train", "training / fine-tuning: memory per GPU (ZeRO, LoRA, QLoRA, activations), time, GPU-hours and cost");
  CLI::App* roofline = app.add_subcommand("roofline", "the scenario's operations (prefill and decode GEMMs, attention naive vs flash, MoE experts, collectives, a training step) under the GPU's roofline; --svg writes the chart");
  for (CLI::App* cmd : {fit, speed, cost, compare, train, roofline}) {
    for (const FieldInfo& f : ScenarioFields())
      cmd->add_option(std::string("--") + f.key + (f.old_key ? std::string(",--") + f.old_key : std::string()),
                      field_values[f.key], f.help)
          ->default_str(GetField(defaults, f.key));
    cmd->add_option("--state", state, "a page link's hash (v=1&model=...); flags given as well override it")
        ->type_name("HASH");
    cmd->add_option("--preset", preset_id, "start from a preset scenario (gpuplan catalog presets lists them); flags override it")
        ->type_name("ID");
    cmd->add_option("--format", format, "output format")
        ->check(CLI::IsMember({"table", "json", "csv", "md"}))
        ->capture_default_str();
  }
  fit->add_flag("--explain", explain, "show every term's formula (the table always does)");
  speed->add_flag("--explain", explain, "show every term of the decode and prefill steps with its formula");
  cost->add_flag("--explain", explain, "show the cost lines with their formulas and the cumulative cost by month");
  std::string measured_path;
  speed->add_option("--measured", measured_path,
                    "a probe result (gpuplan probe gpu --out FILE): use the GPU's measured bandwidth and GEMM "
                    "efficiencies instead of the engine's fitted ones (an upper bound)")
      ->type_name("FILE");

  // probe
  CLI::App* probe = app.add_subcommand("probe", "measure the GPU (gpuplan probe gpu [--out FILE]); set a result against the catalog (gpuplan probe compare FILE)");
  std::string probe_what;
  std::vector<std::string> probe_args;
  std::string probe_gpu, probe_format = "table";
  probe->add_option("what", probe_what, "gpu (then the probe's own options: --out FILE, --quick, --only ...; see gpuplan-probe-gpu --help) | cpu | compare FILE")
      ->check(CLI::IsMember({"gpu", "cpu", "compare"}))
      ->required();
  probe->add_option("args", probe_args, "with compare: the probe result file (GPU or CPU)");
  CpuProbeOptions cpu_options;
  std::string probe_out;
  probe->add_flag("--quick", cpu_options.quick, "with cpu: small arrays and short samples (about 2 s)");
  probe->add_option("--threads", cpu_options.threads, "with cpu: threads (0 = every logical CPU)")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
  probe->add_option("--out", probe_out, "with cpu: also write the result as JSON (gpuplan.cpu-probe/1)")->type_name("FILE");
  probe->add_option("--gpu", probe_gpu, "with compare: the catalog id of the GPU (default: matched by the device name)");
  probe->add_option("--format", probe_format, "with compare: output format")
      ->check(CLI::IsMember({"table", "json", "csv", "md"}))
      ->capture_default_str();
  probe->footer("Exit codes of probe gpu: those of gpuplan-probe-gpu (0 ok, 2 bad arguments, 3 no CUDA device or "
                "no probe in this build, 4 a correctness check failed, 1 other CUDA error).");
  train->add_flag("--explain", explain, "also print the scaling table (data-parallel GPUs 1..512)");
  double target_days = 0;
  train->add_option("--target-days", target_days, "also say what MFU would finish the tokens in this many days")
      ->check(CLI::Range(1e-3, 1e5));
  RooflineOptions roofline_options;
  roofline->add_option("--svg", roofline_options.svg_path, "also write the chart as a standalone SVG file")->type_name("FILE");
  roofline->add_option("--overlay", roofline_options.overlay, "more catalog GPUs whose roofs to draw (ids)")
      ->delimiter(',')
      ->type_name("ID,...");
  roofline->add_option("--measured", roofline_options.measured_path,
                       "a GPU probe result (gpuplan probe gpu --out FILE): measured ceilings (dashed) and GEMM points")
      ->type_name("FILE");
  roofline->add_option("--cpu", roofline_options.cpu_path,
                       "a CPU probe result (gpuplan probe cpu --out FILE): this machine's roof next to the GPUs")
      ->type_name("FILE");
  roofline->add_option("--phase", roofline_options.phase, "which operations")
      ->check(CLI::IsMember({"all", "prefill", "decode", "train"}))
      ->capture_default_str();
  compare->add_flag("--explain", explain, "accepted for symmetry; rows carry their bound in the note column");
  compare->add_option("--sort", sort_key, "column to sort by (descending for speeds, ascending for costs)")
      ->check(CLI::IsMember({"tokens_per_s_total", "tokens_per_s_user", "ttft_s", "usd_per_m_output", "upfront_usd",
                             "watts", "max_context", "gpus", "count", "gpu"}))
      ->capture_default_str();
  compare->add_flag("--fits", compare_filter.fits_only, "only the GPUs that fit (at up to 64 GPUs)");
  const CLI::Validator non_negative(
      [](std::string& v) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        return end != v.c_str() && *end == '\0' && std::isfinite(d) && d >= 0 ? std::string()
                                                                                : "'" + v + "' must be a number >= 0";
      },
      "NUMBER>=0");
  compare->add_option("--vendor", compare_filter.vendor, "only this vendor (or GPU id substring), e.g. AMD");
  compare->add_option("--max-upfront", compare_filter.max_upfront_usd, "purchase budget in $ for all the GPUs")
      ->check(non_negative);
  compare->add_option("--max-watts", compare_filter.max_watts, "power budget: TDP of all the GPUs, W")
      ->check(non_negative);
  compare->add_option("--min-tps", compare_filter.min_tokens_per_s, "at least this many tokens/s in all (decode)")
      ->check(non_negative);
  compare->add_option("--max-ttft", compare_filter.max_ttft_s, "time to first token at most this many seconds")
      ->check(non_negative);

  // calibrate
  CLI::App* calibrate = app.add_subcommand("calibrate", "run the estimators on published measurements (tests/reference/inference_measurements.json); --fit refits the engines' efficiencies and bands");
  std::string reference_path = "tests/reference/inference_measurements.json";
  bool refit = false;
  std::string calibrate_format = "table";
  calibrate->add_option("--reference", reference_path, "reference measurements file")->capture_default_str();
  calibrate->add_flag("--fit", refit, "fit efficiencies and bands, and print them (paste into assets/catalog/engines.json)");
  calibrate->add_option("--format", calibrate_format, "output format")->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();

  // catalog
  CLI::App* catalog_cmd = app.add_subcommand("catalog", "list catalog entries and their ids");
  std::string what = "gpus";
  std::vector<std::string> catalog_args;
  std::string catalog_format = "table";
  catalog_cmd->add_option("what", what,
                          "gpus | models | formats | interconnects | cloud | engines | presets (or: list KIND), show ID (every field of a GPU with its sources), "
                          "validate FILE... (check a catalog file against the built-in one)")
      ->check(CLI::IsMember({"gpus", "models", "formats", "interconnects", "cloud", "engines", "presets", "list", "show",
                             "validate"}))
      ->capture_default_str();
  catalog_cmd->add_option("args", catalog_args, "the kind, id or file(s)");
  std::vector<std::string> quoted;
  catalog_cmd->add_option("--quoted", quoted, "with show: explain a quoted figure, e.g. fp16=330 (dense? sparse? FP16-accumulate?)")
      ->type_name("PRECISION=TFLOPS");
  catalog_cmd->add_option("--format", catalog_format, "output format")
      ->check(CLI::IsMember({"table", "json", "csv", "md"}))
      ->capture_default_str();

  // import-hf
  CLI::App* import_cmd = app.add_subcommand("import-hf", "read a Hugging Face config.json: architecture, parameter count, KV cache; --format json gives a catalog file");
  std::string import_path, import_id, import_name, import_format = "table";
  import_cmd->add_option("config", import_path, "path to config.json")->required();
  import_cmd->add_option("--id", import_id, "catalog id for the model (default: the file name)");
  import_cmd->add_option("--name", import_name, "display name (default: the id)");
  import_cmd->add_option("--format", import_format, "output format")->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return app.exit(CLI::CallForHelp());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "gpuplan: error: %s\nRun 'gpuplan --help' or 'gpuplan <command> --help' for usage.\n", e.what());
    return kExitBadInput;
  }

  if (*import_cmd) return RunImportHf(import_path, import_id, import_name, import_format);


  Catalog cat = LoadAll(catalog_files);

  if (*catalog_cmd) {
    if (what == "validate") {
      return RunValidate(catalog_args, catalog_format);
    }
    if (what == "show") {
      if (catalog_args.size() != 1) Fail("catalog show: give one GPU id (gpuplan catalog gpus lists them)");
      return RunShow(cat, catalog_args[0], catalog_format, quoted);
    }
    if (what == "list") {
      static const std::vector<std::string> kKinds = {"gpus",  "models",  "formats", "interconnects",
                                                      "cloud", "engines", "presets"};
      if (catalog_args.size() != 1 || std::find(kKinds.begin(), kKinds.end(), catalog_args[0]) == kKinds.end())
        Fail("catalog list: give one kind: gpus, models, formats, interconnects, cloud or engines");
      what = catalog_args[0];
    } else if (!catalog_args.empty()) {
      Fail("catalog " + what + ": unexpected argument '" + catalog_args[0] + "'");
    }
    return RunCatalog(cat, what, catalog_format);
  }

  if (*calibrate) return RunCalibrate(cat, reference_path, refit, calibrate_format);
  if (*probe) {
    if (probe_what == "cpu") {
      if (!probe_args.empty()) Fail("probe cpu: unexpected argument '" + probe_args[0] + "'");
      return RunProbeCpu(cpu_options, probe_out, probe_format);
    }
    if (probe_args.size() != 1) Fail("probe compare: give one probe result file (gpuplan probe gpu --out FILE writes one)");
    return RunProbeCompare(cat, probe_args[0], probe_gpu, probe_format);
  }

  CLI::App* cmd = *speed ? speed : *cost ? cost : *compare ? compare : *train ? train : *roofline ? roofline : fit;
  Scenario s;
  if (cmd->count("--preset")) {
    const Preset* p = FindPreset(preset_id);
    if (!p) {
      std::vector<std::string> ids;
      for (const Preset& x : Presets()) ids.push_back(x.id);
      Fail("--preset: " + UnknownIdMessage("preset", preset_id, ids));
    }
    if (cmd->count("--state")) Fail("--preset and --state both give a whole scenario: use one");
    state = p->hash;
  }
  if (!state.empty()) {
    DecodedState decoded = DecodeState(state, cat);
    if (!decoded.dropped.empty()) {
      for (const std::string& d : decoded.dropped) std::fprintf(stderr, "gpuplan: error: --state: %s\n", d.c_str());
      return kExitBadInput;
    }
    s = decoded.scenario;
  }
  for (const FieldInfo& f : ScenarioFields()) {
    if (cmd->count(std::string("--") + f.key) == 0) continue;
    if (auto err = SetField(s, f.key, field_values[f.key], cat)) Fail("--" + err->message);
  }
  if (cmd == speed) return RunSpeed(cat, s, format, explain, measured_path);
  if (cmd == cost) return RunCost(cat, s, format, explain);
  if (cmd == compare) return RunCompare(cat, s, format, sort_key, compare_filter);
  if (cmd == train) return RunTrain(cat, s, format, explain, target_days);
  if (cmd == roofline) return RunRoofline(cat, s, format, roofline_options);
  return RunFit(cat, s, format);
}
