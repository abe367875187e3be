// native/cli/main.cpp — `gpuplan`, the command-line twin of the page: flag wiring only. The
// subcommands of the scenario are the views (core views.h), their flags the scenario's fields
// and the views' options (the page's URL-hash keys); what they print is the views' reports, so
// the CLI and the page give the same numbers and the same rows.
//
// Exit codes: 0 success (whether or not the scenario fits: that is a result, not an error);
//             2 bad input (flag, value, id, --state link, --catalog file);
//             1 internal error (the embedded catalog failed to load).
#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "docs.h"
#include "gpuplan/commands.h"
#include "gpuplan/describe.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/i18n.h"
#include "gpuplan/machine.h"
#include "gpuplan/presets.h"
#include "gpuplan/serving_check.h"
#include "gpuplan/session.h"
#include "gpuplan/units.h"
#include "gpuplan/version.h"
#include "gpuplan/views.h"

namespace {

using namespace gpuplan;

constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 1;

[[noreturn]] void Fail(const std::string& message, int code = kExitBadInput) {
  std::fprintf(stderr, "gpuplan: error: %s\n", message.c_str());
  std::exit(code);
}

// The catalog loader reports every problem at once, one per line: each gets the context.
[[noreturn]] void FailLines(const std::string& context, const std::string& lines, int code = kExitBadInput) {
  std::istringstream in(lines);
  // A JSON error's snippet and caret (indented lines) print as they are, under their message.
  for (std::string line; std::getline(in, line);)
    if (line.rfind("    ", 0) == 0)
      std::fprintf(stderr, "%s\n", line.c_str());
    else
      std::fprintf(stderr, "gpuplan: error: %s: %s\n", context.c_str(), line.c_str());
  std::exit(code);
}

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// A file's text, or a message that says what is in the way: missing, a directory, unreadable,
// or larger than any file gpuplan reads (the page's import limit, Session::kMaxImportBytes).
std::string ReadFileOrFail(const std::string& flag, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) Fail(flag + ": '" + path + "' does not exist");
  if (fs::is_directory(st)) Fail(flag + ": '" + path + "' is a directory, not a file");
  if (fs::is_regular_file(st)) {
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > Session::kMaxImportBytes)
      Fail(flag + ": '" + path + "' is " + FormatFixed(static_cast<double>(size) / (1 << 20), 1) +
           " MiB, more than the " + std::to_string(Session::kMaxImportBytes >> 20) +
           " MiB a catalog, config or probe file may be: nothing was read");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(flag + ": cannot read '" + path + "'" + (errno ? std::string(": ") + std::strerror(errno) : ""));
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) Fail(flag + ": reading '" + path + "' failed");
  return text.str();
}

void WriteFileOrFail(const std::string& flag, const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) Fail(flag + ": cannot write '" + path + "'");
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) Fail(flag + ": writing '" + path + "' failed");
}

const Catalog& Embedded() {
  const Result<Catalog>& embedded = EmbeddedCatalog();
  if (!embedded.ok()) FailLines("embedded catalog", embedded.error(), kExitInternal);
  return embedded.value();
}

// The built-in catalog with `files` merged in (`flag` names them in errors).
Catalog LoadAll(const std::string& flag, const std::vector<std::string>& files) {
  if (files.empty()) return Embedded();
  // Checked as the files are read, so no more than the limit is ever held.
  if (std::string beyond = CatalogFilesBeyond(files.size(), 0); !beyond.empty()) Fail(flag + ": " + beyond);
  std::vector<CatalogFile> texts;
  size_t bytes = 0;
  for (const std::string& path : files) {
    texts.push_back({path, ReadFileOrFail(flag, path)});
    bytes += texts.back().text.size();
    if (std::string beyond = CatalogFilesBeyond(files.size(), bytes); !beyond.empty())
      Fail(flag + ": " + path + ": " + beyond + "; nothing was loaded");
  }
  Result<Catalog> merged = LoadCatalog(texts, Embedded());
  if (!merged.ok()) FailLines(flag, merged.error());
  // A field the files hold that nothing reads (a typo such as "bandwith"): loaded without it,
  // so every command says so. `catalog validate` prints the files' other warnings too.
  const Catalog& cat = merged.value();
  const bool all = flag == "catalog validate";
  const std::vector<std::string>& shown = all ? cat.warnings : cat.unknown_fields;
  const size_t built_in = all ? Embedded().warnings.size() : Embedded().unknown_fields.size();
  for (size_t i = built_in; i < shown.size(); ++i)
    std::fprintf(stderr, "gpuplan: warning: %s: %s\n", flag.c_str(), shown[i].c_str());
  return std::move(merged).value();
}

std::vector<std::string> GpuIds(const Catalog& cat) {
  std::vector<std::string> ids;
  for (const Gpu& g : cat.gpus) ids.push_back(g.id);
  return ids;
}

// A probe result file into the session (GPU or CPU); `flag` names it in errors.
void ImportProbeOrFail(Session& session, const std::string& flag, const std::string& path) {
  const std::string text = ReadFileOrFail(flag, path);
  const bool probe = text.find("\"gpuplan.gpu-probe/") != std::string::npos || text.find("\"gpuplan.cpu-probe/") != std::string::npos;
  // Not a probe's file: the GPU probe reader says what is wrong with it.
  const ImportOutcome r = probe ? session.Import(text, path) : ImportOutcome{false, "", ParseGpuProbe(text).error()};
  if (!r.ok) Fail(flag + ": " + path + ": " + r.message);
}

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

// `probe cpu`: measured here, with a progress line on a terminal (stderr, rewritten in place).
CpuProbeResult MeasureCpuOrFail(const CpuProbeOptions& options) {
  const bool tty = isatty(fileno(stderr)) != 0;
  auto progress = [tty](const std::string& stage, double fraction) {
    if (tty) std::fprintf(stderr, "\r  measuring: %-8s %3.0f%%", stage.c_str(), std::min(std::max(fraction, 0.0), 1.0) * 100);
  };
  Result<CpuProbeResult> r = MeasureMachine(options, progress);
  if (tty) std::fprintf(stderr, "\r%40s\r", "");
  if (!r.ok()) Fail("probe cpu: " + r.error(), kExitInternal);
  return std::move(r).value();
}

// "fp16=330" -> what the figure is in catalog terms.
std::vector<QuotedFigure> ExplainQuoted(const Gpu& g, const std::vector<std::string>& quoted) {
  std::vector<QuotedFigure> out;
  for (const std::string& q : quoted) {
    const size_t eq = q.find('=');
    char* end = nullptr;
    const double tflops = eq == std::string::npos ? 0 : std::strtod(q.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || end == q.c_str() + eq + 1 || *end != '\0' || !(tflops > 0) ||
        !std::isfinite(tflops))
      Fail("--quoted: '" + q + "' must be PRECISION=TFLOPS, e.g. fp16=330");
    out.push_back({q, ExplainQuotedTflops(g, q.substr(0, eq), tflops)});
  }
  return out;
}

std::string Today() { return FormatDateUtc(static_cast<std::int64_t>(std::time(nullptr))); }

// CLI11's Range lets NaN through (both of its comparisons are false): a number flag outside
// the core's field table is checked here, finite and within [lo, hi].
CLI::Validator FiniteRange(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v) || v < lo || v > hi)
          return "'" + text + "' must be a number from " + FormatShort(lo) + " to " + FormatShort(hi);
        return std::string();
      },
      "NUMBER");
}

// After a parse error: a misspelt command or flag, and the nearest real one. Empty where the
// arguments hold no such word (CLI11's own message is then the best).
std::string SuggestFix(CLI::App& app, int argc, char** argv) {
  std::vector<std::string> commands;
  std::vector<CLI::App*> subs = app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
  for (const CLI::App* sub : subs) commands.push_back(sub->get_name());
  CLI::App* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--catalog" || arg == "--lang") {
      ++i;  // the global option's value
      continue;
    }
    if (arg.rfind("-", 0) == 0) {
      if (!command) continue;
      // A flag of the command (or a global one), with its value after '=' or not.
      const std::string name = arg.substr(0, arg.find('='));
      if (name.size() < 3 || name.rfind("--", 0) != 0) continue;
      if (command->get_option_no_throw(name) || app.get_option_no_throw(name) || name == "--help") continue;
      std::vector<std::string> flags;
      for (const CLI::Option* o : command->get_options())
        if (!o->get_lnames().empty()) flags.push_back("--" + o->get_lnames().front());
      const std::string near = NearestWord(name, flags);
      return "'" + command->get_name() + "' has no flag '" + name + "'" +
             (near.empty() ? "" : ": did you mean '" + near + "'?");
    }
    if (!command) {
      if (auto found = std::find(commands.begin(), commands.end(), arg); found != commands.end()) {
        command = subs[static_cast<size_t>(found - commands.begin())];
        continue;
      }
      const std::string near = NearestWord(arg, commands);
      std::string list;
      for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
      return "'" + arg + "' is not a command" + (near.empty() ? "" : ": did you mean '" + near + "'?") +
             " (the commands: " + list + ")";
    }
  }
  return {};
}

// `gpuplan --version`: the program, the commit it was built from, and the catalog's version,
// in the language --lang names (read before the parser, as --version needs no command).
int PrintVersion(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string_view(argv[i]) == "--lang")
      if (std::optional<Lang> l = ParseLang(argv[i + 1])) (void)UseBuiltInLang(*l);
  const Catalog& cat = Embedded();
  Print(std::string("gpuplan ") + ProgramVersion() + "\n" + TrF("git commit: {0}", {GitCommit()}) + "\n" +
        TrF("catalog: {0}, {1} accelerators, {2} models",
            {CatalogVersion(cat), std::to_string(cat.gpus.size()), std::to_string(cat.models.size())}) +
        "\n");
  return 0;
}

// A report as --format prints it; Markdown ends with the program's and the catalog's versions.
std::string PrintReport(const Report& r, const std::string& format, const Catalog& cat) {
  return FormatReport(r, format) + MadeWithMd(cat, format);
}

// Records as --format prints them; JSON is an object with its schema ("gpuplan.<schema>/1") and
// the versions, and Markdown ends with the versions, as the reports do.
std::string PrintRecords(const Records& r, const std::string& format, const Catalog& cat, const std::string& schema) {
  if (format == "json") return StampJson(FormatRecords(r, format, "gpuplan." + schema + "/1"), cat);
  return FormatRecords(r, format) + MadeWithMd(cat, format);
}

// What a flag's value may be, for the shell completions: catalog ids, a field's choices.
std::vector<std::string> FlagValueWords(const std::string& command, const std::string& flag) {
  static const std::map<std::string, std::vector<std::string>> kPositionals = {
      {"catalog",
       {"gpus", "models", "formats", "interconnects", "cloud", "engines", "presets", "list", "show", "validate"}},
      {"probe", {"gpu", "cpu", "compare"}},
      {"completion", {"bash", "zsh", "fish"}}};
  if (flag.rfind("--", 0) != 0) {
    const auto it = kPositionals.find(command);
    return it == kPositionals.end() ? std::vector<std::string>{} : it->second;
  }
  const std::string key = flag.substr(2);
  if (key == "lang") return {"en", "ja"};
  if (key == "format")
    return command == "import-hf" ? std::vector<std::string>{"table", "json"}
                                  : std::vector<std::string>(std::begin(kFormats), std::end(kFormats));
  if (key == "preset") {
    std::vector<std::string> ids;
    for (const Preset& p : Presets()) ids.push_back(p.id);
    return ids;
  }
  const Catalog& cat = Embedded();
  const FieldInfo* f = FindField(key);
  if (!f)
    for (const FieldInfo& v : ViewFields())
      if (key == v.key) f = &v;
  if (!f) return key == "gpu" ? GpuIds(cat) : std::vector<std::string>{};  // probe compare --gpu
  std::vector<std::string> words;
  switch (f->kind) {
    case FieldKind::kModel:
      for (const Model& m : cat.models) words.push_back(m.id);
      break;
    case FieldKind::kGpu:
    case FieldKind::kGpuList:
      words = GpuIds(cat);
      break;
    case FieldKind::kWeights:
      for (const WeightFormat& w : cat.weight_formats) words.push_back(w.id);
      break;
    case FieldKind::kKv:
      for (const KvFormat& k : cat.kv_formats) words.push_back(k.id);
      break;
    case FieldKind::kEngine:
      for (const EngineProfile& e : cat.engines) words.push_back(e.id);
      break;
    case FieldKind::kChoice:
    case FieldKind::kFlags:
      words = f->choices;
      break;
    case FieldKind::kSwitch:
      words = {"0", "1"};
      break;
    default:
      break;
  }
  return words;
}

}  // namespace

int main(int argc, char** argv) {
  std::setlocale(LC_NUMERIC, "C");  // numbers print and parse the same everywhere
  // `gpuplan probe gpu ...`: everything after `gpu` belongs to the probe program.
  if (argc >= 3 && std::string(argv[1]) == "probe" && std::string(argv[2]) == "gpu")
    return RunProbeGpu(std::vector<std::string>(argv + 3, argv + argc), argv[0]);

  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--version") return PrintVersion(argc, argv);

  CLI::App app{"gpuplan: which GPU, how many, how fast, at what cost — with the work shown.\n"
               "The same numbers as the page; flags are the page's URL-hash fields."};
  app.require_subcommand(1);
  app.fallthrough();  // global options (--catalog) may also follow the subcommand
  app.footer("Exit codes: 0 success, 2 bad input (the message names the flag or field), 1 internal error.");
  std::vector<std::string> catalog_files;
  bool version_flag = false;  // handled before the parser (PrintVersion): listed here for --help
  app.add_flag("--version", version_flag,
               "print the program's version, the git commit it was built from, and the catalog's "
               "version and date");
  app.add_option("--catalog", catalog_files, "extra catalog JSON file(s); entries add to or replace built-in ids")
      ->type_name("FILE");
  const std::vector<std::string> formats(std::begin(kFormats), std::end(kFormats));
  std::string lang = "en";
  app.add_option("--lang", lang,
                 "language of the table and Markdown reports: en or ja (JSON and CSV keys stay English; "
                 "the page takes lang= in its link)")
      ->check(CLI::IsMember({"en", "ja"}))
      ->capture_default_str();

  // The views of the scenario: one subcommand each, with the scenario's fields and its options.
  std::string format = "table", state, preset_id, measured_path, svg_path, cpu_path;
  ReportOptions report;
  std::map<std::string, std::string> values;  // by field key, as given
  const Scenario defaults;
  const ViewOptions view_defaults;
  std::map<std::string, CLI::App*> view_cmds;
  for (const View& v : Views()) {
    if (!v.scenario) continue;
    CLI::App* cmd = view_cmds[v.id] = app.add_subcommand(v.id, v.help);
    for (const FieldInfo& f : ScenarioFields())
      cmd->add_option(std::string("--") + f.key + (f.old_key ? std::string(",--") + f.old_key : std::string()),
                      values[f.key], f.help)
          ->default_str(GetField(defaults, f.key));
    for (const FieldInfo& f : ViewFields()) {
      if (std::find(v.options.begin(), v.options.end(), f.key) == v.options.end()) continue;
      if (std::string_view(f.key) == "fits") cmd->add_flag_callback("--fits", [&values] { values["fits"] = "1"; }, f.help);
      else cmd->add_option(std::string("--") + f.key, values[f.key], f.help)->default_str(GetViewField(view_defaults, f.key));
    }
    cmd->add_option("--state", state, "a page link's hash (v=1&model=...); flags given as well override it")->type_name("HASH");
    cmd->add_option("--preset", preset_id, "start from a preset scenario (gpuplan catalog presets lists them); flags override it")
        ->type_name("ID");
    cmd->add_option("--format", format, "output format")->check(CLI::IsMember(formats))->capture_default_str();
    cmd->add_flag("--explain", report.explain, "every term with its formula, and the tables behind the result");
  }
  view_cmds["speed"]
      ->add_option("--measured", measured_path,
                   "a probe result (gpuplan probe gpu --out FILE): use the GPU's measured bandwidth and GEMM "
                   "efficiencies instead of the engine's fitted ones (an upper bound)")
      ->type_name("FILE");
  view_cmds["train"]
      ->add_option("--target-days", report.target_days, "also say what MFU would finish the tokens in this many days")
      ->check(FiniteRange(0, 36500))
      ->check(CLI::Range(1e-3, 1e5));
  CLI::App* roofline = view_cmds["roofline"];
  roofline->add_option("--svg", svg_path, "also write the chart as a standalone SVG file")->type_name("FILE");
  roofline->add_option("--measured", measured_path, "a GPU probe result (gpuplan probe gpu --out FILE): measured ceilings (dashed) and GEMM points")
      ->type_name("FILE");
  roofline->add_option("--cpu", cpu_path, "a CPU probe result (gpuplan probe cpu --out FILE): this machine's roof next to the GPUs")
      ->type_name("FILE");

  // probe
  CLI::App* probe = app.add_subcommand("probe", "measure the GPU (gpuplan probe gpu [--out FILE]); set a result against the catalog (gpuplan probe compare FILE)");
  std::string probe_what, probe_gpu, probe_out;
  std::vector<std::string> probe_args;
  CpuProbeOptions cpu_options;
  probe->add_option("what", probe_what, "gpu (then the probe's own options: --out FILE, --quick, --only ...; see gpuplan-probe-gpu --help) | cpu | compare FILE")
      ->check(CLI::IsMember({"gpu", "cpu", "compare"}))
      ->required();
  probe->add_option("args", probe_args, "with compare: the probe result file (GPU or CPU)");
  probe->add_flag("--quick", cpu_options.quick, "with cpu: about 1 s: the cache sweep stops at 2 MiB and takes fewer samples; STREAM, SGEMM (N = 1024) and the FMA peak are sized as in the full probe (about 4 s)");
  probe->add_option("--threads", cpu_options.threads, "with cpu: threads (0 = every logical CPU)")->check(CLI::Range(0, 4096))->capture_default_str();
  probe->add_option("--out", probe_out, "with cpu: also write the result as JSON (gpuplan.cpu-probe/1)")->type_name("FILE");
  probe->add_option("--gpu", probe_gpu, "with compare: the catalog id of the GPU (default: matched by the device name)");
  probe->add_option("--format", format, "output format")->check(CLI::IsMember(formats))->capture_default_str();
  probe->footer("Exit codes of probe gpu: those of gpuplan-probe-gpu (0 ok, 2 bad arguments, 3 no CUDA device or "
                "no probe in this build, 4 a correctness check failed, 1 other CUDA error).");

  // calibrate
  CLI::App* calibrate = app.add_subcommand("calibrate", "run the estimators on published measurements (tests/reference/inference_measurements.json); --fit refits the engines' efficiencies and bands");
  std::string reference_path = "tests/reference/inference_measurements.json";
  bool refit = false;
  calibrate->add_option("--reference", reference_path, "reference measurements file")->capture_default_str();
  calibrate->add_flag("--fit", refit, "fit efficiencies and bands, and print them (paste into assets/catalog/engines.json)");
  bool loso = false;
  calibrate->add_flag("--loso", loso,
                      "errors per kind: stored calibration, refit in-sample, and leave-one-source-out (each source's "
                      "cases estimated by a fit made without it; a few seconds per source)");
  bool serving = false, serving_bands = false;
  calibrate->add_flag("--bands", serving_bands,
                      "with --serving: the bands of measured / simulated per engine (p10-p90), as engines.json "
                      "calibration.serving_bands takes them");
  calibrate->add_flag("--serving", serving,
                      "the serving simulator (gpuplan serve) against published serving results: throughput and "
                      "latency percentiles per case, errors per quantity (--reference defaults to "
                      "tests/reference/serving_measurements.json)");
  calibrate->add_option("--format", format, "output format")->check(CLI::IsMember(formats))->capture_default_str();

  // catalog
  CLI::App* catalog_cmd = app.add_subcommand("catalog", "list catalog entries and their ids");
  std::string what = "gpus";
  std::vector<std::string> catalog_args, quoted;
  const std::vector<std::string> kinds = {"gpus", "models", "formats", "interconnects", "cloud", "engines", "presets"};
  std::vector<std::string> whats = kinds;
  whats.insert(whats.end(), {"list", "show", "validate", "checks"});
  catalog_cmd
      ->add_option("what", what,
                   "gpus | models | formats | interconnects | cloud | engines | presets (or: list KIND), show ID "
                   "(every field of a GPU with its sources), "
                   "validate FILE... (check a catalog file against the built-in one), checks (the combinations of "
                   "flags that are "
                   "refused or warned about, with the rule)")
      ->check(CLI::IsMember(whats))
      ->capture_default_str();
  catalog_cmd->add_option("args", catalog_args, "the kind, id or file(s)");
  bool strict = false;
  catalog_cmd->add_flag("--strict", strict, "with validate: a warning (an unknown field, an unusual unit) is an error");
  catalog_cmd->add_option("--quoted", quoted, "with show: explain a quoted figure, e.g. fp16=330 (dense? sparse? FP16-accumulate?)")
      ->type_name("PRECISION=TFLOPS");
  catalog_cmd->add_option("--format", format, "output format")->check(CLI::IsMember(formats))->capture_default_str();

  // import-hf
  CLI::App* import_cmd = app.add_subcommand("import-hf", "read a Hugging Face config.json: architecture, parameter count, KV cache; --format json gives a catalog file");
  std::string import_path, import_id, import_name;
  import_cmd->add_option("config", import_path, "path to config.json")->required();
  import_cmd->add_option("--id", import_id, "catalog id for the model (default: the file name, lower-cased as on the page)");
  import_cmd->add_option("--name", import_name, "display name (default: the id)");
  import_cmd->add_option("--format", format, "output format")->check(CLI::IsMember({"table", "json"}))->capture_default_str();

  // completion, man: written from this definition (docs.h); the build installs both.
  CLI::App* completion_cmd = app.add_subcommand("completion",
                                                "print a shell completion script: commands, flags and catalog ids "
                                                "(bash: source <(gpuplan completion bash))");
  std::string shell;
  completion_cmd->add_option("shell", shell, "bash | zsh | fish")
      ->check(CLI::IsMember({"bash", "zsh", "fish"}))
      ->required();
  CLI::App* man_cmd = app.add_subcommand("man", "print the man page (roff)")->group("");
  auto doc_info = [&] {
    cli::DocInfo info;
    info.version = ProgramVersion();
    info.date = Embedded().catalog_date;
    for (const View& v : Views())
      if (v.scenario) info.shared_commands.push_back(v.id);
    info.shared_title = "OPTIONS OF THE SCENARIO COMMANDS";
    return info;
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return app.exit(CLI::CallForHelp());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    const std::string fix = SuggestFix(app, argc, argv);
    std::fprintf(stderr, "gpuplan: error: %s\nRun 'gpuplan --help' or 'gpuplan <command> --help' for usage.\n",
                 fix.empty() ? e.what() : fix.c_str());
    return kExitBadInput;
  }

  // Before any estimate: the records carry words in the chosen language.
  if (Result<Lang> l = UseBuiltInLang(*ParseLang(lang)); !l.ok()) Fail(l.error());

  if (*man_cmd) {
    Print(cli::ManPage(app, doc_info()));
    return 0;
  }
  if (*completion_cmd) {
    Print(cli::Completion(app, shell, doc_info(), FlagValueWords));
    return 0;
  }
  if (*import_cmd) {
    const std::string text = ReadFileOrFail("import-hf", import_path);
    const std::string id = import_id.empty() ? ImportedModelId(import_path) : import_id;
    Result<Model> imported = ImportHfConfig(text, import_path, id);
    if (!imported.ok()) Fail("import-hf: " + imported.error());
    Model m = std::move(imported).value();
    m.name = import_name.empty() ? id : import_name;
    Print(format == "json" ? ModelCatalogFileJson(m, text, std::filesystem::absolute(import_path).string(), Today()) + "\n"
                           : FormatReport(ModelReport(m, import_path), "table"));
    return 0;
  }
  if (*catalog_cmd && what == "checks") {
    if (!catalog_args.empty()) Fail("catalog checks: unexpected argument '" + catalog_args[0] + "'");
    Print(PrintRecords(ContradictionRecords(), format, Embedded(), "catalog-checks"));
    return 0;
  }
  if (*catalog_cmd && what == "validate") {
    const Catalog merged = LoadAll("catalog validate", catalog_args);
    // Warnings: suspicious but loaded (LoadAll printed the files'). With no file, the built-in
    // catalog's own. --strict: a warning fails the check.
    if (catalog_args.empty())
      for (const std::string& w : merged.warnings) std::fprintf(stderr, "gpuplan: warning: %s\n", w.c_str());
    const size_t warned = merged.warnings.size() - (catalog_args.empty() ? 0 : Embedded().warnings.size());
    if (strict && warned > 0)
      Fail("catalog validate --strict: " + FormatCountOf(static_cast<int64_t>(warned), "warning", "warnings") +
           " (above); without --strict the files load");
    Print(PrintRecords(ValidateRecords(Embedded(), merged), format, merged, "catalog-validate"));
    return 0;
  }

  Session session(LoadAll("--catalog", catalog_files));
  const Catalog& cat = session.catalog();
  if (*catalog_cmd) {
    if (what == "show") {
      if (catalog_args.size() != 1) Fail("catalog show: give one GPU id (gpuplan catalog gpus lists them)");
      const Gpu* g = cat.FindGpu(catalog_args[0]);
      if (!g) Fail("catalog show: " + UnknownIdMessage("GPU", catalog_args[0], GpuIds(cat)));
      const std::vector<QuotedFigure> q = ExplainQuoted(*g, quoted);
      Print(format == "json" ? StampJson(GpuShowJson(*g, q), cat) + "\n"
                             : PrintReport(GpuShowReport(*g, q), format, cat));
      return 0;
    }
    if (what == "list") {
      if (catalog_args.size() != 1 || std::find(kinds.begin(), kinds.end(), catalog_args[0]) == kinds.end())
        Fail("catalog list: give one kind: gpus, models, formats, interconnects, cloud, engines or presets");
      what = catalog_args[0];
    } else if (!catalog_args.empty()) {
      Fail("catalog " + what + ": unexpected argument '" + catalog_args[0] + "'");
    }
    Print(PrintRecords(CatalogRecords(cat, what), format, cat, "catalog-" + what));
    return 0;
  }
  if (*calibrate && serving_bands && !serving) Fail("calibrate --bands: add --serving");
  if (*calibrate && serving) {
    if (refit || loso) Fail("calibrate --serving: nothing is fitted to serving results; --fit and --loso do not apply");
    if (!calibrate->count("--reference")) reference_path = "tests/reference/serving_measurements.json";
    Result<std::vector<ServingCase>> cases = ParseServingCases(ReadFileOrFail("--reference", reference_path));
    if (!cases.ok()) Fail(cases.error());
    const ServingCheck check = RunServingCases(cat, cases.value());
    if (serving_bands) {
      Print(ServingBandsJson(FitServingBands(cat, check)) + "\n");
      return 0;
    }
    Print(format == "json" ? StampJson(ServingCheckJson(check), cat) + "\n"
                           : PrintReport(ServingCheckReport(check), format, cat));
    return 0;
  }
  if (*calibrate) {
    Result<std::vector<ReferenceCase>> cases = ParseReferenceCases(ReadFileOrFail("--reference", reference_path));
    if (!cases.ok()) Fail(cases.error());
    if (loso) {
      const LosoResult l = LeaveOneSourceOut(cat, cases.value());
      Print(format == "json" ? StampJson(LosoJson(l), cat) + "\n" : PrintReport(LosoReport(l), format, cat));
      return 0;
    }
    Calibration c;
    c.fitted = refit ? FitCalibration(cat, cases.value(), c.log) : cat;
    c.results = RunReferenceCases(c.fitted, cases.value());
    Print(format == "json" ? StampJson(CalibrationJson(c), cat) + "\n"
                           : PrintReport(CalibrationReport(c), format, cat));
    return 0;
  }
  if (*probe) {
    if (probe_what == "cpu") {
      if (!probe_args.empty()) Fail("probe cpu: unexpected argument '" + probe_args[0] + "'");
      session.SetCpuProbe(MeasureCpuOrFail(cpu_options));
      if (!probe_out.empty())
        WriteFileOrFail("--out", probe_out, StampJson(CpuProbeToJson(*session.cpu_probe()), cat) + "\n");
    } else {
      if (probe_args.size() != 1) Fail("probe compare: give one probe result file (gpuplan probe gpu --out FILE writes one)");
      ImportProbeOrFail(session, "probe compare", probe_args[0]);
      if (session.gpu_probe()) {
        const Gpu* g = probe_gpu.empty() ? MatchProbeGpu(cat, *session.gpu_probe()) : cat.FindGpu(probe_gpu);
        if (!g)
          Fail(probe_gpu.empty() ? "probe compare: no catalog GPU matches '" + session.gpu_probe()->device_name + "'; give --gpu ID"
                                 : "--gpu: " + UnknownIdMessage("GPU", probe_gpu, GpuIds(cat)));
        session.SetGpuProbe(*session.gpu_probe(), g->id);  // --gpu: set against that catalog entry
      }
    }
    Print(PrintView(*FindView("machine"), session, format));
    return 0;
  }

  // A view of the scenario: the preset or link first, then the flags given.
  const View* view = nullptr;
  for (const auto& [id, cmd] : view_cmds)
    if (*cmd) view = FindView(id);
  CLI::App* cmd = view_cmds[view->id];
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
    const DecodedState decoded = session.LoadState(state);
    if (!decoded.dropped.empty()) {
      for (const std::string& d : decoded.dropped) std::fprintf(stderr, "gpuplan: error: --state: %s\n", d.c_str());
      return kExitBadInput;
    }
    for (const std::string& n : decoded.notices) std::fprintf(stderr, "gpuplan: note: --state: %s\n", n.c_str());
  }
  for (const auto& [key, value] : values) {
    const CLI::Option* given = cmd->get_option_no_throw("--" + key);
    if (!given || given->count() == 0) continue;
    if (auto err = session.Set(key, value)) Fail("--" + err->message);
  }
  if (!measured_path.empty()) {
    ImportProbeOrFail(session, "--measured", measured_path);
    if (view->id == std::string("speed")) {
      session.SetUseMeasured(true);
      if (!session.Fit().ok()) Fail(session.Fit().error());
      if (Result<Efficiency> eff = session.MeasuredEfficiencyNow(); !eff.ok()) Fail("--" + eff.error());
    }
  }
  if (!cpu_path.empty()) ImportProbeOrFail(session, "--cpu", cpu_path);
  // A scenario the estimate refuses is bad input: the reason alone, on stderr.
  if (const std::string why = view->failure(session); !why.empty()) Fail(why);
  const std::string out = PrintView(*view, session, format, report);
  if (!svg_path.empty()) WriteFileOrFail("--svg", svg_path, RooflineSvg(session.Chart()));
  Print(out);
  if (!svg_path.empty() && format == "table") std::printf("  chart written to %s\n", svg_path.c_str());
  return 0;
}
