#include "app.h"
#include "tables.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "gpuplan/model.h"
#include "gpuplan/presets.h"
#include "gpuplan/report.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {

const ImVec4 kGood(0.35f, 0.80f, 0.45f, 1.0f);
const ImVec4 kBad(0.95f, 0.40f, 0.35f, 1.0f);
const ImVec4 kWarn(0.95f, 0.75f, 0.30f, 1.0f);
const ImVec4 kMuted(0.65f, 0.65f, 0.70f, 1.0f);

bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

void HelpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// A searchable picker over catalog entries; returns the chosen id when it changed.
template <typename T, typename Label, typename Tip>
std::optional<std::string> Picker(const char* label, const std::vector<T>& entries, const std::string& current,
                                  char* filter, size_t filter_size, Label label_of, Tip tip_of) {
  std::optional<std::string> chosen;
  const T* cur = nullptr;
  for (const T& e : entries)
    if (e.id == current) cur = &e;
  std::string preview = cur ? label_of(*cur) : current;
  if (ImGui::BeginCombo(label, preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    if (filter) {
      if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
      ImGui::SetNextItemWidth(-1);
      ImGui::InputTextWithHint("##filter", "search...", filter, filter_size);
    }
    for (const T& e : entries) {
      std::string text = label_of(e);
      if (filter && !ContainsNoCase(text, filter) && !ContainsNoCase(e.id, filter)) continue;
      bool selected = &e == cur;
      if (ImGui::Selectable((text + "##" + e.id).c_str(), selected)) chosen = e.id;
      if (ImGui::IsItemHovered()) {
        std::string tip = tip_of(e);
        if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return chosen;
}

std::string GpuLabel(const Gpu& g) {
  return g.name + "  (" + FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit + ")";
}

std::string GpuTip(const Gpu& g) {
  std::string tip = g.name + "\nMemory: " + FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit + " " +
                    g.memory_type;
  if (g.memory_reported_bytes)
    tip += "\nDriver reports " + FormatBytes(*g.memory_reported_bytes, ByteUnit::GiB) + " (" + g.memory_reported_how + ")";
  if (g.bandwidth_bytes_per_s > 0) tip += "\nBandwidth: " + FormatFixed(g.bandwidth_bytes_per_s / kGB, 0) + " GB/s";
  for (const Source& s : g.sources) tip += "\nSource: " + s.title.substr(0, 90) + " (read " + s.read + ")";
  return tip;
}

}  // namespace

App::App() {
  const Result<Catalog>& loaded = EmbeddedCatalog();
  if (loaded.ok())
    catalog_owned_ = loaded.value();
  else
    catalog_error_ = loaded.error();
}

void App::LoadState(std::string_view hash) {
  DecodedState decoded = DecodeState(hash, *catalog_);
  scenario_ = decoded.scenario;
  notices_ = decoded.dropped;
  field_errors_.clear();
  dirty_ = true;
}

bool App::ConsumeStateChanged() {
  bool changed = state_changed_;
  state_changed_ = false;
  return changed;
}

void App::Recompute() {
  if (!dirty_) return;
  estimate_ = EstimateMemory(*catalog_, scenario_);
  speed_.reset();
  if (estimate_->ok()) {
    report_json_ = FitReportJson(*catalog_, scenario_, estimate_->value());
    speed_ = EstimateSpeed(*catalog_, scenario_, estimate_->value());
    if (speed_->ok()) cost_ = EstimateCost(*catalog_, scenario_, speed_->value());
    // Curves for the Speed panel: the same estimate at other batches and contexts.
    batch_curve_.clear();
    context_curve_.clear();
    for (long long b = 1; b <= 512; b *= 2) {
      Scenario t = scenario_;
      t.batch = b;
      Result<MemoryEstimate> m = EstimateMemory(*catalog_, t);
      if (!m) continue;
      Result<SpeedEstimate> v = EstimateSpeed(*catalog_, t, *m);
      if (v) batch_curve_.push_back({static_cast<double>(b), v->tokens_per_s_user, v->tokens_per_s_total});
    }
    // Up to the model's window (its own limit, when known), doubling from 1k.
    const Model* model = catalog_->FindModel(scenario_.model);
    const long long window = model && model->max_context > 0 ? model->max_context : 1048576;
    for (long long c = 1024; c <= window; c = c * 2 > window && c < window ? window : c * 2) {
      Scenario t = scenario_;
      t.context = c;
      t.prompt = std::min(scenario_.prompt, c);
      Result<MemoryEstimate> m = EstimateMemory(*catalog_, t);
      if (!m) continue;
      Result<SpeedEstimate> v = EstimateSpeed(*catalog_, t, *m);
      if (v) context_curve_.push_back({static_cast<double>(c), v->tokens_per_s_user, v->tokens_per_s_total});
    }
  } else {
    report_json_ = nlohmann::json{{"error", estimate_->error()}}.dump(2);
  }
  cli_command_ = CliCommand("fit", scenario_);
  train_ = EstimateTraining(*catalog_, scenario_);
  scaling_ = train_->ok() ? TrainingScaling(*catalog_, scenario_, 512) : std::vector<ScalingPoint>{};
  roofline_ = BuildRoofline(*catalog_, scenario_);
  roof_chart_.reset();
  compare_dirty_ = true;
  dirty_ = false;
}

std::string App::ResultJson(std::string_view which) {
  Recompute();
  if (which == "fit") return report_json_;
  if (which == "speed") {
    if (!estimate_->ok()) return report_json_;
    if (!speed_ || !speed_->ok()) return nlohmann::json{{"error", speed_ ? speed_->error() : ""}}.dump(2);
    return SpeedReportJson(*catalog_, scenario_, estimate_->value(), speed_->value(), cost_);
  }
  if (which == "compare") return CompareReportJson(scenario_, CompareRows());
  if (which == "machine") return cpu_probe_ ? CpuProbeToJson(*cpu_probe_) : std::string("{}");
  if (which == "roofline")
    return roofline_->ok() ? RooflineReportJson(scenario_, roofline_->value())
                           : nlohmann::json{{"error", roofline_->error()}}.dump(2);
  if (which == "train")
    return train_->ok() ? TrainReportJson(scenario_, train_->value(), scaling_)
                        : nlohmann::json{{"error", train_->error()}}.dump(2);
  return {};
}

const std::string& App::ReportJson() {
  Recompute();
  return report_json_;
}

// Every edit goes through the same parser and limits as the URL hash and the CLI flags.
void App::Edit(std::string_view key, const std::string& value) {
  std::string k(key);
  if (auto err = SetField(scenario_, key, value, *catalog_)) {
    field_errors_[k] = err->message;
    return;
  }
  field_errors_.erase(k);
  dirty_ = true;
  state_changed_ = true;
}

void App::Track(const char* key) {
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  rects_[key] = Rect{a.x, a.y, b.x, b.y};
}

std::string App::WidgetRectsJson() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, r] : rects_) j[key] = {{"x0", r.x0}, {"y0", r.y0}, {"x1", r.x1}, {"y1", r.y1}};
  return j.dump();
}

const ParamCount& App::Params(const Model& m) {
  auto it = params_cache_.find(m.id);
  if (it == params_cache_.end()) it = params_cache_.emplace(m.id, CountParams(m)).first;
  return it->second;
}

std::string App::ImportText(std::string_view text, const std::string& name_hint) {
  // A probe result (gpuplan probe gpu --out FILE) goes to the Roofline and This machine tabs.
  if (text.find("\"gpuplan.cpu-probe/") != std::string_view::npos) {
    machine_threads_ = 0;  // a threaded probe's answer ends its wait
    // The threaded probe module reports a failure as {"schema": ..., "error": "..."}.
    const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_object() && j.contains("error") && j["error"].is_string()) {
      import_ok_ = false;
      machine_message_ = import_message_ = "CPU probe: " + j["error"].get<std::string>();
      return nlohmann::json{{"ok", false}, {"message", import_message_}}.dump();
    }
    Result<CpuProbeResult> probe = CpuProbeFromJson(std::string(text));
    import_ok_ = probe.ok();
    if (probe.ok()) {
      import_message_ = "CPU probe of " + probe->cpu.model_name + " (" + probe->date +
                        ") loaded: on the This machine and Roofline tabs";
      SetCpuProbe(std::move(probe.value()));
    } else {
      import_message_ = probe.error();
    }
    return nlohmann::json{{"ok", import_ok_}, {"message", import_message_}}.dump();
  }
  if (text.find("\"gpuplan.gpu-probe/") != std::string_view::npos) {
    Result<GpuProbeResult> probe = ParseGpuProbe(std::string(text));
    import_ok_ = probe.ok();
    if (probe.ok()) {
      gpu_probe_ = std::move(probe.value());
      roof_chart_.reset();
      import_message_ = "GPU probe of " + gpu_probe_->device_name + " (" + gpu_probe_->date +
                        ") loaded: its measured ceilings are on the Roofline tab";
    } else {
      import_message_ = probe.error();
    }
    return nlohmann::json{{"ok", import_ok_}, {"message", import_message_}}.dump();
  }
  Result<ImportedText> imported = ImportUserText(catalog_owned_, text, name_hint);
  import_ok_ = imported.ok();
  if (imported.ok()) {
    catalog_owned_ = std::move(imported.value().catalog);
    params_cache_.clear();  // an import may replace a model of the same id
    import_message_ = imported.value().summary;
    dirty_ = true;  // an override may change the current scenario's numbers
  } else {
    import_message_ = imported.error();
  }
  return nlohmann::json{{"ok", import_ok_}, {"message", import_message_}}.dump();
}

std::string App::FieldErrorsJson() const { return nlohmann::json(field_errors_).dump(); }

void App::DrawInputs() {
  const Catalog& cat = *catalog_;
  const float width = ImGui::GetFontSize() * 18.0f;
  ImGui::PushItemWidth(width);

  if (auto id = Picker("Model", cat.models, scenario_.model, model_filter_, sizeof model_filter_,
                       [this](const Model& m) { return m.name + "  (" + FormatParams(Params(m).total) + ")"; },
                       [this](const Model& m) {
                         const ParamCount& c = Params(m);
                         return m.name + "\n" + std::to_string(m.layers) + " layers; " + DescribeAttention(m) +
                                "\n" + FormatParams(c.total) + " parameters" +
                                (m.moe ? ", " + FormatParams(c.active) + " active per token" : "") +
                                (m.hf_repo.empty() ? "" : "\n" + m.hf_repo);
                       }))
    Edit("model", *id);
  Track("model");

  if (auto id = Picker("GPU", cat.gpus, scenario_.gpu, gpu_filter_, sizeof gpu_filter_, GpuLabel, GpuTip))
    Edit("gpu", *id);
  Track("gpu");

  auto int_field = [&](const char* key, const char* label, long long current, long long step) {
    long long v = current;
    ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step, &step, nullptr);
    Track(key);
    if (v != current) Edit(key, std::to_string(v));
  };
  int_field("count", "GPU count", scenario_.count, 1);
  HelpMarker("Tensor parallel: weights and KV heads are split across the GPUs (per pipeline stage).");
  {
    long long pp = scenario_.pp;
    int_field("pp", "Pipeline stages", pp, 1);
  }
  HelpMarker("Pipeline parallel: the layers are split into stages of 'GPU count' GPUs each; GPUs in all = count x stages.");
  {
    bool ep = scenario_.ep == 1;
    if (ImGui::Checkbox("Expert parallel", &ep)) Edit("ep", ep ? "1" : "0");
    Track("ep");
    HelpMarker("MoE models: place whole experts on the GPUs (all-to-all per MoE layer) instead of splitting every "
               "expert by tensor parallelism (all-reduce).");
  }

  if (auto id = Picker("Weights", cat.weight_formats, scenario_.weights, nullptr, 0,
                       [](const WeightFormat& f) { return f.name + "  (" + FormatFixed(f.bits_per_weight, 2) + " bits)"; },
                       [](const WeightFormat& f) { return f.derivation + "\nSource: " + f.source.title; }))
    Edit("weights", *id);
  Track("weights");

  if (auto id = Picker("KV cache", cat.kv_formats, scenario_.kv, nullptr, 0,
                       [](const KvFormat& f) { return f.name + "  (" + FormatShort(f.bytes_per_element) + " B)"; },
                       [](const KvFormat& f) { return f.derivation + "\nSource: " + f.source.title; }))
    Edit("kv", *id);
  Track("kv");

  if (auto id = Picker("Engine", cat.engines, scenario_.engine, nullptr, 0,
                       [](const EngineProfile& e) { return e.name; },
                       [](const EngineProfile& e) { return e.version + "\n" + e.activation_workspace; }))
    Edit("engine", *id);
  Track("engine");

  int_field("context", "Context (tokens)", scenario_.context, 1024);
  int_field("prompt", "Prompt (tokens)", scenario_.prompt, 256);
  HelpMarker("Prompt tokens per sequence (prefill); the rest of the context is output.");
  int_field("batch", "Batch (sequences)", scenario_.batch, 1);

  double overhead = scenario_.overhead_gib;
  double step = 0.25;
  ImGui::InputScalar("Overhead (GiB)", ImGuiDataType_Double, &overhead, &step, &step, "%.2f");
  Track("overhead-gib");
  if (overhead != scenario_.overhead_gib) {
    // Text through the shared parser; "%.6g" keeps it short and exact enough.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", overhead);
    Edit("overhead-gib", buf);
  }
  HelpMarker("CUDA context and framework runtime per GPU. A stated assumption, not a measurement: "
             "CUDA contexts alone take a few hundred MiB; the engine's workspace is its own term.");
  ImGui::PopItemWidth();

  ImGui::PushStyleColor(ImGuiCol_Text, kBad);
  for (const auto& [key, message] : field_errors_) ImGui::TextWrapped("%s", message.c_str());
  ImGui::PopStyleColor();
}

void App::DrawResult() {
  Recompute();
  if (!estimate_->ok()) {
    ImGui::TextColored(kBad, "%s", estimate_->error().c_str());
    return;
  }
  const MemoryEstimate& e = estimate_->value();
  const std::string per = scenario_.count > 1 ? " per GPU" : "";

  if (e.fits)
    ImGui::TextColored(kGood, "FITS%s: %s of %s usable, %s free", per.c_str(), FormatBytes(e.total_bytes).c_str(),
                       FormatBytes(e.usable_bytes).c_str(), FormatBytes(e.headroom_bytes).c_str());
  else
    ImGui::TextColored(kBad, "DOES NOT FIT%s: needs %s, has %s (short by %s)", per.c_str(),
                       FormatBytes(e.total_bytes).c_str(), FormatBytes(e.usable_bytes).c_str(),
                       FormatBytes(-e.headroom_bytes).c_str());

  // A stacked bar: each term's share of the capacity.
  {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 1.2f;
    double scale = std::max(e.capacity_bytes, e.total_bytes);
    const ImU32 colors[] = {IM_COL32(90, 140, 230, 255), IM_COL32(230, 160, 60, 255), IM_COL32(120, 190, 120, 255),
                            IM_COL32(150, 150, 160, 255)};
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(50, 50, 58, 255));
    float x = p.x;
    for (size_t i = 0; i < e.terms.size() && scale > 0; ++i) {
      float tw = static_cast<float>(e.terms[i].bytes / scale) * w;
      dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + tw, p.y + h), colors[i % 4]);
      x += tw;
    }
    if (scale > 0) {
      float cap_x = p.x + static_cast<float>(e.capacity_bytes / scale) * w;
      dl->AddLine(ImVec2(cap_x, p.y - 2), ImVec2(cap_x, p.y + h + 2), IM_COL32(255, 255, 255, 255), 2.0f);
      const float use_x = p.x + static_cast<float>(e.usable_bytes / scale) * w;  // the engine's cap
      dl->AddLine(ImVec2(use_x, p.y - 2), ImVec2(use_x, p.y + h + 2), IM_COL32(255, 220, 80, 255), 2.0f);
    }
    ImGui::Dummy(ImVec2(w, h));
    Track("usage-bar");
  }

  std::vector<BytesRow> rows;
  for (const Term& t : e.terms) rows.push_back({t.name, t.bytes, t.formula});
  rows.push_back({"Total", e.total_bytes, "sum of the terms above"});
  rows.push_back({"Capacity", e.capacity_bytes, e.capacity_basis});
  rows.push_back({"Usable", e.usable_bytes, e.usable_basis});
  rows.push_back({e.fits ? "Free" : "Short", std::abs(e.headroom_bytes), "usable - total"});
  BytesTable("breakdown", "Term" + per, rows);

  ImGui::Text("KV cache: %s per token (whole model)", FormatBytes(e.kv_bytes_per_token, ByteUnit::MiB, 3).c_str());
  ImGui::Text("Max context at batch %lld: %s tokens%s", scenario_.batch, FormatCount(e.max_context).c_str(),
              e.context_window > 0 && e.max_context > e.context_window
                  ? (" (memory limit; the model's window is " + FormatCount(e.context_window) + ")").c_str()
                  : "");
  ImGui::Text("Max batch at %s tokens: %s sequences", FormatCount(scenario_.context).c_str(),
              FormatCount(e.max_batch).c_str());
  for (const std::string& w : e.warnings) ImGui::TextColored(kWarn, "! %s", w.c_str());
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : e.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  DrawSpeedSummary();
  ImGui::TextColored(kMuted, "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", cli_command_.c_str());
}

// Speed and cost of the same scenario, with the reference set's band (gpuplan speed).
void App::DrawSpeedSummary() {
  if (!speed_) return;
  ImGui::Separator();
  if (!speed_->ok()) {
    ImGui::TextColored(kWarn, "Speed: %s", speed_->error().c_str());
    return;
  }
  const SpeedEstimate& e = speed_->value();
  const Band& b = e.decode_band;
  ImGui::Text("Decode: %s tok/s per user, %s tok/s in all (band %s-%s from %d measurements); %s-bound",
              FormatFixed(e.tokens_per_s_user, 1).c_str(), FormatFixed(e.tokens_per_s_total, 1).c_str(),
              FormatFixed(e.tokens_per_s_user * b.lo, 1).c_str(), FormatFixed(e.tokens_per_s_user * b.hi, 1).c_str(),
              b.cases, e.decode.bound.c_str());
  Track("speed");
  if (ImGui::IsItemHovered()) {
    std::string tip;
    for (const TimeTerm& t : e.decode.terms) tip += t.name + ": " + FormatFixed(t.seconds * 1e3, 3) + " ms = " + t.formula + "\n";
    ImGui::SetTooltip("%s", tip.c_str());
  }
  if (e.ttft_s > 0)
    ImGui::Text("Time to first token: %s ms; prefill %s tok/s", FormatFixed(e.ttft_s * 1e3, 1).c_str(),
                FormatFixed(e.prefill_tokens_per_s, 0).c_str());
  if (cost_.cloud_per_m_output > 0)
    ImGui::Text("Cloud: $%s per 1M output tokens (%s)", FormatFixed(cost_.cloud_per_m_output, 3).c_str(),
                cost_.cloud_basis.c_str());
  if (cost_.owned_per_m_output > 0)
    ImGui::Text("Owned: $%s per 1M output tokens", FormatFixed(cost_.owned_per_m_output, 3).c_str());
  for (const std::string& w : e.warnings) ImGui::TextColored(kWarn, "! %s", w.c_str());
}

void App::Frame() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("gpuplan", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::TextUnformatted("gpuplan");
  ImGui::SameLine();
  ImGui::TextColored(kMuted, "which GPU, how many, how fast, at what cost - with the work shown");
  // Presets: the common questions (the seeds' examples among them) as whole scenarios.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("##presets", "Presets...", ImGuiComboFlags_HeightLarge)) {
    for (const Preset& p : Presets()) {
      if (ImGui::Selectable(p.question.c_str())) {
        LoadState(p.hash);
        state_changed_ = true;
        requested_tab_ = p.panel == "speed"      ? Tab::kSpeed
                         : p.panel == "compare"  ? Tab::kCompare
                         : p.panel == "train"    ? Tab::kTrain
                         : p.panel == "roofline" ? Tab::kRoofline
                                                 : Tab::kFit;
      }
      if (ImGui::IsItemHovered() && !p.source.empty()) ImGui::SetTooltip("%s", p.source.c_str());
      Track(("preset-" + p.id).c_str());
    }
    ImGui::EndCombo();
  }
  Track("presets");

  if (!catalog_error_.empty()) ImGui::TextColored(kBad, "Catalog failed to load: %s", catalog_error_.c_str());
  if (!notices_.empty()) {
    ImGui::TextColored(kWarn, "The link had fields that could not be used; defaults were kept for them:");
    for (const std::string& n : notices_) ImGui::BulletText("%s", n.c_str());
    if (ImGui::SmallButton("Dismiss")) notices_.clear();
    ImGui::Separator();
  }

  if (ImGui::BeginTabBar("panels")) {
    // A tab asked for by the code (e.g. "Use in Fit") is selected once, then the user's clicks rule.
    bool consumed = false;
    auto tab = [&](const char* label, Tab which, const char* key) {
      ImGuiTabItemFlags flags = 0;
      if (requested_tab_ == which) {
        flags = ImGuiTabItemFlags_SetSelected;
        consumed = true;
      }
      const bool open = ImGui::BeginTabItem(label, nullptr, flags);
      Track(key);
      if (open) tab_ = which;
      return open;
    };
    if (tab("Fit", Tab::kFit, "tab-fit")) {
      DrawFit();
      ImGui::EndTabItem();
    }
    if (tab("Speed", Tab::kSpeed, "tab-speed")) {
      DrawWithInputs(&App::DrawSpeed, "speed");
      ImGui::EndTabItem();
    }
    if (tab("Compare", Tab::kCompare, "tab-compare")) {
      DrawWithInputs(&App::DrawCompare, "compare");
      ImGui::EndTabItem();
    }
    if (tab("Train", Tab::kTrain, "tab-train")) {
      DrawWithInputs(&App::DrawTrain, "train");
      ImGui::EndTabItem();
    }
    if (tab("Roofline", Tab::kRoofline, "tab-roofline")) {
      DrawWithInputs(&App::DrawRoofline, "roofline");
      ImGui::EndTabItem();
    }
    if (tab("This machine", Tab::kMachine, "tab-machine")) {
      DrawMachine();
      ImGui::EndTabItem();
    }
    if (tab("Catalog", Tab::kCatalog, "tab-catalog")) {
      DrawCatalog();
      ImGui::EndTabItem();
    }
    if (consumed) requested_tab_ = Tab::kNone;  // a request made while drawing applies next frame
    ImGui::EndTabBar();
  }
  ImGui::End();
}

void App::DrawFit() { DrawWithInputs(&App::DrawResult, "fit"); }

void App::DrawWithInputs(void (App::*right)(), const char* id) {
  const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 50.0f;
  ImGui::PushID(id);
  if (wide) {
    ImGui::BeginChild("inputs", ImVec2(ImGui::GetFontSize() * 28.0f, 0), false);
    DrawInputs();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("result", ImVec2(0, 0), false);
    (this->*right)();
    ImGui::EndChild();
  } else {
    DrawInputs();
    ImGui::Separator();
    (this->*right)();
  }
  ImGui::PopID();
}

}  // namespace gpuplan::ui
