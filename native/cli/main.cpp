// native/cli/main.cpp — `gpuplan`, the command-line twin of the page. Same core, same
// scenario fields (the flags are the URL hash keys), same numbers.
//
// Exit codes: 0 success (whether or not the scenario fits: that is a result, not an error);
//             2 bad input (flag, value, id, --state link, --catalog file);
//             1 internal error (the embedded catalog failed to load).
#include <clocale>
#include <ctime>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "gpuplan/catalog.h"
#include "gpuplan/describe.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/report.h"
#include "gpuplan/scenario.h"
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

std::string ReadFileOrFail(const std::string& flag, const std::string& path);

Catalog LoadAll(const std::vector<std::string>& user_files) {
  const Result<Catalog>& embedded = EmbeddedCatalog();
  if (!embedded.ok()) Fail("embedded catalog: " + embedded.error(), kExitInternal);
  if (user_files.empty()) return embedded.value();
  std::vector<CatalogFile> files;
  for (const std::string& path : user_files) files.push_back({path, ReadFileOrFail("--catalog", path)});
  Result<Catalog> merged = LoadCatalog(files, embedded.value());
  if (!merged.ok()) Fail("--catalog: " + merged.error());
  return std::move(merged).value();
}

// --- fit ------------------------------------------------------------------------------------
void PrintFitTable(const Catalog& cat, const Scenario& s, const MemoryEstimate& e) {
  const Model& m = *cat.FindModel(s.model);
  const Gpu& g = *cat.FindGpu(s.gpu);
  const WeightFormat& wf = *cat.FindWeightFormat(s.weights);
  const KvFormat& kvf = *cat.FindKvFormat(s.kv);
  const std::string per = s.count > 1 ? " per GPU" : "";
  fmt::print("gpuplan fit: {} on {} × {} ({} {} {})\n", m.name, s.count, g.name, FormatFixed(g.memory_quoted_value, 0),
             g.memory_quoted_unit, g.memory_type);
  fmt::print("  weights {}, KV cache {}, context {} tokens, batch {}\n\n", wf.name, kvf.name, FormatCount(s.context),
             s.batch);
  fmt::print("  {:<20} {:>9} {:>9}  {}\n", "Term" + per, "GiB", "GB", "How");
  auto row = [](const std::string& name, double bytes, const std::string& how) {
    fmt::print("  {:<20} {:>9} {:>9}  {}\n", name, FormatFixed(bytes / kGiB, 2), FormatFixed(bytes / kGB, 2), how);
  };
  for (const Term& t : e.terms) row(t.name, t.bytes, t.formula);
  row("Total", e.total_bytes, "sum of the terms above");
  row("Capacity", e.capacity_bytes, e.capacity_basis);
  row(e.fits ? "Free" : "Short", std::abs(e.headroom_bytes), "capacity - total");
  fmt::print("\n  {}{}: {} of {} ({})\n", e.fits ? "FITS" : "DOES NOT FIT", per, FormatBytes(e.total_bytes),
             FormatBytes(e.capacity_bytes),
             e.fits ? FormatBytes(e.headroom_bytes) + " free" : "short by " + FormatBytes(-e.headroom_bytes));
  fmt::print("  KV cache per token (whole model): {}\n", FormatBytes(e.kv_bytes_per_token, ByteUnit::MiB, 3));
  fmt::print("  Max context at batch {}: {} tokens{}\n", s.batch, FormatCount(e.max_context),
             e.context_window > 0 && e.max_context > e.context_window
                 ? " (memory limit; the model's window is " + FormatCount(e.context_window) + ")"
                 : "");
  fmt::print("  Max batch at {} tokens: {} sequences\n", FormatCount(s.context), FormatCount(e.max_batch));
  for (const std::string& w : e.warnings) fmt::print("  warning: {}\n", w);
  fmt::print("  assumptions:\n");
  for (const std::string& a : e.assumptions) fmt::print("    - {}\n", a);
  fmt::print("  page state: #{}\n", EncodeState(s));
}

int RunFit(const Catalog& cat, const Scenario& s, const std::string& format) {
  Result<MemoryEstimate> e = EstimateMemory(cat, s);
  if (!e.ok()) Fail(e.error());
  if (format == "json")
    fmt::print("{}\n", FitReportJson(cat, s, e.value()));
  else
    PrintFitTable(cat, s, e.value());
  return 0;
}

// --- import-hf ------------------------------------------------------------------------------
std::string ReadFileOrFail(const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(flag + ": cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

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
  if (m.moe) fmt::print("  {:<22} {}\n", "active per token", FormatParams(c.active));
  fmt::print("  {:<22} {} per token at 16 bits\n", "KV cache", FormatBytes(KvBytesPerToken(m, 2), ByteUnit::MiB, 3));
  fmt::print("\nSave it as a catalog entry: gpuplan import-hf {} --format json > my-models.json\n"
             "then: gpuplan --catalog my-models.json fit --model {} ...\n", path, m.id);
  return 0;
}

// --- catalog --------------------------------------------------------------------------------
int RunShow(const Catalog& cat, const std::string& id, const std::string& format) {
  const Gpu* g = cat.FindGpu(id);
  if (!g) {
    std::vector<std::string> ids;
    for (const Gpu& e : cat.gpus) ids.push_back(e.id);
    Fail("catalog show: " + UnknownIdMessage("GPU", id, ids));
  }
  std::vector<DetailRow> rows = DescribeGpu(*g);
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
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("{} ({})\n\n", g->name, g->id);
  for (const DetailRow& r : rows) {
    std::string refs;
    for (int i : r.sources) refs += (refs.empty() ? "[" : ",") + std::to_string(i + 1);
    fmt::print("  {:<24} {}{}\n", r.label, r.value, refs.empty() ? "" : " " + refs + "]");
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
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  if (what == "gpus") {
    if (format != "json") fmt::print("{:<16} {:<28} {:>12} {:>14} {:>12}\n", "id", "name", "memory", "driver total", "bandwidth");
    for (const Gpu& g : cat.gpus) {
      std::string quoted = FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit;
      std::string reported = g.memory_reported_bytes ? FormatBytes(*g.memory_reported_bytes) : "unknown";
      std::string bw = g.bandwidth_bytes_per_s > 0 ? FormatFixed(g.bandwidth_bytes_per_s / kGB, 0) + " GB/s" : "unknown";
      if (format == "json")
        j.push_back({{"id", g.id}, {"name", g.name}, {"memory_quoted", quoted},
                     {"memory_reported_bytes", g.memory_reported_bytes ? nlohmann::ordered_json(*g.memory_reported_bytes) : nullptr},
                     {"bandwidth_bytes_per_s", g.bandwidth_bytes_per_s > 0 ? nlohmann::ordered_json(g.bandwidth_bytes_per_s) : nullptr}});
      else
        fmt::print("{:<16} {:<28} {:>12} {:>14} {:>12}\n", g.id, g.name.substr(0, 28), quoted, reported, bw);
    }
  } else if (what == "models") {
    if (format != "json")
      fmt::print("{:<30} {:>10} {:>10} {:>7}  {}\n", "id", "params", "active", "layers", "attention (KV cache)");
    for (const Model& m : cat.models) {
      const ParamCount c = CountParams(m);  // computed from the architecture
      if (format == "json")
        j.push_back({{"id", m.id}, {"name", m.name}, {"model_type", m.model_type}, {"params", c.total},
                     {"active_params", c.active}, {"published_params", m.params > 0 ? nlohmann::ordered_json(m.params) : nullptr},
                     {"layers", m.layers}, {"heads", m.heads}, {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim},
                     {"attention", DescribeAttention(m)}});
      else
        fmt::print("{:<30} {:>10} {:>10} {:>7}  {}\n", m.id, FormatParams(c.total),
                   m.moe ? FormatParams(c.active) : "", m.layers, DescribeAttention(m));
    }
  } else {  // formats
    if (format != "json") fmt::print("{:<10} {:<30} {:>14}\n", "id", "weight format", "bits/weight");
    for (const WeightFormat& f : cat.weight_formats) {
      if (format == "json") j.push_back({{"kind", "weights"}, {"id", f.id}, {"name", f.name}, {"bits_per_weight", f.bits_per_weight}});
      else fmt::print("{:<10} {:<30} {:>14}\n", f.id, f.name, FormatFixed(f.bits_per_weight, 4));
    }
    if (format != "json") fmt::print("\n{:<10} {:<30} {:>14}\n", "id", "KV-cache format", "bytes/element");
    for (const KvFormat& f : cat.kv_formats) {
      if (format == "json") j.push_back({{"kind", "kv"}, {"id", f.id}, {"name", f.name}, {"bytes_per_element", f.bytes_per_element}});
      else fmt::print("{:<10} {:<30} {:>14}\n", f.id, f.name, FormatFixed(f.bytes_per_element, 0));
    }
  }
  if (format == "json") fmt::print("{}\n", j.dump(2));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::setlocale(LC_NUMERIC, "C");  // numbers print and parse the same everywhere

  CLI::App app{"gpuplan: which GPU, how many, how fast, at what cost — with the work shown.\n"
               "The same numbers as the page; flags are the page's URL-hash fields."};
  app.require_subcommand(1);
  app.fallthrough();  // global options (--catalog) may also follow the subcommand
  app.footer("Exit codes: 0 success, 2 bad input (the message names the flag or field), 1 internal error.");

  std::vector<std::string> catalog_files;
  app.add_option("--catalog", catalog_files, "extra catalog JSON file(s); entries add to or replace built-in ids")
      ->type_name("FILE");

  // fit
  CLI::App* fit = app.add_subcommand("fit", "memory per GPU for serving a model: weights + KV cache + overhead, and whether it fits");
  std::string format = "table";
  std::string state;
  const Scenario defaults;
  std::map<std::string, std::string> field_values;
  for (const FieldInfo& f : ScenarioFields()) {
    fit->add_option(std::string("--") + f.key, field_values[f.key], f.help)->default_str(GetField(defaults, f.key));
  }
  fit->add_option("--state", state, "a page link's hash (v=1&model=...); flags given as well override it")
      ->type_name("HASH");
  fit->add_option("--format", format, "output format")->check(CLI::IsMember({"table", "json"}))->capture_default_str();

  // catalog
  CLI::App* catalog_cmd = app.add_subcommand("catalog", "list catalog entries and their ids");
  std::string what = "gpus";
  std::string show_id;
  std::string catalog_format = "table";
  catalog_cmd->add_option("what", what, "gpus, models, formats, or show ID (every field of a GPU with its sources)")
      ->check(CLI::IsMember({"gpus", "models", "formats", "show"}))
      ->capture_default_str();
  catalog_cmd->add_option("id", show_id, "with show: the GPU id");
  catalog_cmd->add_option("--format", catalog_format, "output format")->check(CLI::IsMember({"table", "json"}))
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
    if (what == "show") {
      if (show_id.empty()) Fail("catalog show: give a GPU id (gpuplan catalog gpus lists them)");
      return RunShow(cat, show_id, catalog_format);
    }
    if (!show_id.empty()) Fail("catalog " + what + ": unexpected argument '" + show_id + "'");
    return RunCatalog(cat, what, catalog_format);
  }

  Scenario s;
  if (fit->count("--state")) {
    DecodedState decoded = DecodeState(state, cat);
    if (!decoded.dropped.empty()) {
      for (const std::string& d : decoded.dropped) std::fprintf(stderr, "gpuplan: error: --state: %s\n", d.c_str());
      return kExitBadInput;
    }
    s = decoded.scenario;
  }
  for (const FieldInfo& f : ScenarioFields()) {
    if (fit->count(std::string("--") + f.key) == 0) continue;
    if (auto err = SetField(s, f.key, field_values[f.key], cat)) Fail("--" + err->message);
  }
  return RunFit(cat, s, format);
}
