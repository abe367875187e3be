#include "app.h"
#include "theme.h"
#include "tables.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "gpuplan/model.h"
#include "gpuplan/presets.h"
#include "gpuplan/records.h"
#include "gpuplan/report.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {


bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

void HelpMarker(std::string_view text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
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
    size_t shown = 0;
    for (const T& e : entries) {
      std::string text = label_of(e);
      if (filter && !ContainsNoCase(text, filter) && !ContainsNoCase(e.id, filter)) continue;
      ++shown;
      bool selected = &e == cur;
      if (ImGui::Selectable((text + "##" + e.id).c_str(), selected)) chosen = e.id;
      if (ImGui::IsItemHovered()) {
        std::string tip = tip_of(e);
        if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    if (filter) ImGui::TextDisabled("%zu of %zu%s", shown, entries.size(), filter[0] ? " match" : "");
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
  if (g.memory_reported)
    tip += "\nDriver reports " + FormatBytes(g.memory_reported->bytes, ByteUnit::GiB) + " (" + g.memory_reported->how + ")";
  else if (g.memory_derived)
    tip += "\nDerived: " + FormatBytes(g.memory_derived->bytes, ByteUnit::GiB) + " (" + g.memory_derived->how + ")";
  if (g.bandwidth_bytes_per_s > 0) tip += "\nBandwidth: " + FormatFixed(g.bandwidth_bytes_per_s / kGB, 0) + " GB/s";
  for (const Source& s : g.sources) tip += "\nSource: " + s.title.substr(0, 90) + " (read " + s.read + ")";
  if (g.sources.empty()) tip += "\nSources: loading (the Catalog panel lists them)";
  return tip;
}

}  // namespace

App::App() : session_([&] {
  const Result<Catalog>& loaded = EmbeddedCatalog();
  if (!loaded.ok()) catalog_error_ = loaded.error();
  return loaded.ok() ? loaded.value() : Catalog{};
}()) {
  if (session_.catalog().sources_elsewhere) sources_state_ = "elsewhere";
}

void App::RequestSources() {
  if (sources_state_ != "elsewhere" || !host_.load_sources) return;
  sources_state_ = "loading";
  host_.load_sources();
}

// Words the page's embedded catalog leaves to catalog-sources.json (cmake/catalog_lean.py):
// asked for once the mouse is on the item that shows them.
std::string App::Words(const std::string& text) {
  if (!text.empty() || (sources_state_ != "elsewhere" && sources_state_ != "loading")) return text;
  if (ImGui::IsItemHovered()) RequestSources();
  return "(loading from the catalog's sources...)";
}

void App::LoadState(std::string_view hash) {
  DecodedState decoded = session_.LoadState(hash);
  notices_ = decoded.dropped;
  field_errors_.clear();
  requested_tab_ = session_.view().tab;
  embed_.clear();
  if (auto it = decoded.page.find("embed"); it != decoded.page.end()) {
    const View* v = FindView(it->second);
    if (v && v->embeddable) {
      embed_ = v->id;
    } else {
      std::string list;
      for (const View& e : Views())
        if (e.embeddable) list += (list.empty() ? "" : ", ") + std::string(e.id);
      notices_.push_back("embed: '" + it->second + "' is not a panel to embed (" + list + ")");
    }
  }
  theme_ = "auto";
  if (auto it = decoded.page.find("theme"); it != decoded.page.end()) {
    if (it->second == "light" || it->second == "dark" || it->second == "auto") theme_ = it->second;
    else notices_.push_back("theme: '" + it->second + "' is not light, dark or auto");
  }
  ApplyTheme();
}

std::string App::StateHash() const {
  std::string h = session_.StateHash();
  if (!embed_.empty()) h += "&embed=" + embed_;
  if (theme_ != "auto") h += "&theme=" + theme_;
  return h;
}

void App::SetPreferDark(bool dark) {
  prefer_dark_ = dark;
  ApplyTheme();
}

// Light or dark: the hash's theme= if set, else the host page's preference. Charts and status
// colours read the style, so they follow.
void App::ApplyTheme() {
  const bool dark = theme_ == "dark" || (theme_ == "auto" && prefer_dark_);
  if (theme_applied_ && dark == dark_) return;
  if (!ImGui::GetCurrentContext()) return;  // no window yet (tests without a frame)
  dark_ = dark;
  theme_applied_ = true;
  ImGuiStyle& style = ImGui::GetStyle();
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.FrameBorderSize = dark ? 0.0f : 1.0f;  // white inputs on a white popup need an edge
  SetPalette(dark);
}

bool App::ConsumeStateChanged() {
  bool changed = state_changed_;
  state_changed_ = false;
  return changed;
}

const CostEstimate& App::CostNow() {
  static const CostEstimate none;
  const Result<CostEstimate>& c = session_.Cost();
  return c.ok() ? c.value() : none;
}

std::string App::ResultJson(std::string_view which) {
  const View* v = FindView(which);
  return v ? v->json(session_, {}) : std::string();
}

const std::string& App::ReportJson() {
  report_json_ = FindView("fit")->json(session_, {});
  return report_json_;
}

void App::Edit(std::string_view key, const std::string& value) {
  std::string k(key);
  if (auto err = session_.Set(key, value)) {
    field_errors_[k] = err->message;
    return;
  }
  field_errors_.erase(k);
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
  // Recognised once, in the session: a config.json, a catalog file, a probe result, the sources.
  const ImportOutcome r = session_.Import(text, name_hint);
  if (r.kind == "cpu-probe") {
    machine_threads_ = 0;  // a threaded probe's answer ends its wait
    if (!r.ok) machine_message_ = r.message;
  }
  if (r.kind == "sources") {
    sources_state_ = r.ok ? "loaded" : r.message;
  } else {
    import_ok_ = r.ok;
    import_message_ = r.message;
  }
  if (r.ok && (r.kind == "catalog" || r.kind == "sources")) params_cache_.clear();  // same ids, new entries
  return nlohmann::json{{"ok", r.ok}, {"message", r.message}}.dump();
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
  ImGui::SameLine();
  if (ImGui::SmallButton("Import")) ImGui::OpenPopup("import-model");
  ItemTip("A model that is not in the catalog: paste its Hugging Face config.json (or drop the file on the page)");
  Track("model-import");
  if (ImGui::BeginPopup("import-model")) {
    ImGui::TextUnformatted("Paste a Hugging Face config.json (or a gpuplan catalog file); it joins this session's catalog");
    DrawImportBody(true);
    ImGui::EndPopup();
  }

  if (auto id = Picker("GPU", cat.gpus, scenario_.gpu, gpu_filter_, sizeof gpu_filter_, GpuLabel, [this](const Gpu& g) {
        RequestSources();  // the tooltip lists the sources
        return GpuTip(g);
      }))
    Edit("gpu", *id);
  Track("gpu");

  auto int_field = [&](const char* key, const char* label, long long current, long long step) {
    long long v = current;
    ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step, &step, nullptr);
    Track(key);
    if (v != current) Edit(key, std::to_string(v));
  };
  int_field("tp", "Tensor parallel", scenario_.tp, 1);
  HelpMarker("Tensor parallel: weights and KV heads are split across the GPUs (per pipeline stage).");
  {
    long long pp = scenario_.pp;
    int_field("pp", "Pipeline stages", pp, 1);
  }
  HelpMarker("Pipeline parallel: the layers are split into stages of 'Tensor parallel' GPUs each; GPUs in all = tp x stages.");
  {
    bool ep = scenario_.ep == 1;
    if (ImGui::Checkbox("Expert parallel", &ep)) Edit("ep", ep ? "1" : "0");
    Track("ep");
    HelpMarker("MoE models: place whole experts on the GPUs (all-to-all per MoE layer) instead of splitting every "
               "expert by tensor parallelism (all-reduce).");
  }

  if (auto id = Picker("Weights", cat.weight_formats, scenario_.weights, nullptr, 0,
                       [](const WeightFormat& f) { return f.name + "  (" + FormatFixed(f.bits_per_weight, 2) + " bits)"; },
                       [this](const WeightFormat& f) { return Words(f.derivation) + "\nSource: " + f.source.title; }))
    Edit("weights", *id);
  if (const WeightFormat* f = cat.FindWeightFormat(scenario_.weights))
    ItemTip(f->name + ": " + FormatFixed(f->bits_per_weight, 3) + " bits per weight\n" + Words(f->derivation));
  Track("weights");

  if (auto id = Picker("KV cache", cat.kv_formats, scenario_.kv, nullptr, 0,
                       [](const KvFormat& f) { return f.name + "  (" + FormatShort(f.bytes_per_element) + " B)"; },
                       [this](const KvFormat& f) { return Words(f.derivation) + "\nSource: " + f.source.title; }))
    Edit("kv", *id);
  if (const KvFormat* f = cat.FindKvFormat(scenario_.kv))
    ItemTip(f->name + ": " + FormatShort(f->bytes_per_element) + " bytes per element\n" + Words(f->derivation));
  Track("kv");

  if (auto id = Picker("Engine", cat.engines, scenario_.engine, nullptr, 0,
                       [](const EngineProfile& e) { return e.name; },
                       [this](const EngineProfile& e) { return e.version + "\n" + Words(e.activation_workspace); }))
    Edit("engine", *id);
  if (const EngineProfile* e = cat.FindEngine(scenario_.engine))
    ItemTip(e->name + " " + e->version + "\n" + Words(e->activation_workspace));
  Track("engine");

  int_field("context", "Context (tokens)", scenario_.context, 1024);
  int_field("prompt", "Prompt (tokens)", scenario_.prompt, 256);
  HelpMarker("Prompt tokens per sequence (prefill); the rest of the context is output.");
  int_field("batch", "Batch (sequences)", scenario_.batch, 1);

  GibField("overhead-gib", "Overhead (GiB)", scenario_.overhead_gib, 0.25);
  HelpMarker("CUDA context and framework runtime per GPU. A stated assumption, not a measurement: "
             "CUDA contexts alone take a few hundred MiB; the engine's workspace is its own term.");
  DrawDeviceMemoryInputs();
  ImGui::PopItemWidth();

  ImGui::PushStyleColor(ImGuiCol_Text, Bad());
  for (const auto& [key, message] : field_errors_) ImGui::TextWrapped("%s", message.c_str());
  ImGui::PopStyleColor();
}

// A GiB figure of the inputs column, with +/- steps; every change goes to the shared parser.
void App::GibField(const char* key, const char* label, double current, double step) {
  double v = current;
  ImGui::InputScalar(label, ImGuiDataType_Double, &v, &step, &step, "%.2f");
  Track(key);
  if (v != current) {
    // Text through the shared parser; "%.6g" keeps it short and exact enough.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    Edit(key, buf);
  }
}

// What stands between the GPU's total and what the workload may allocate (capacity.h), in the
// order the Fit panel's rows take it: ECC, a MIG slice, the user's own limit, other processes.
void App::DrawDeviceMemoryInputs() {
  const Gpu* gpu = catalog_->FindGpu(scenario_.gpu);
  ImGui::TextColored(Muted(), "GPU memory");

  // ECC: the preview names the card's factory setting, which "default" stands for.
  const bool has_ecc = gpu && gpu->ecc.value_or(false);
  std::string preview = scenario_.ecc;
  if (scenario_.ecc == "default" && has_ecc) preview += gpu->ecc_default_on ? " (on)" : " (off)";
  if (ImGui::BeginCombo("ECC", preview.c_str())) {
    for (const char* w : {"default", "on", "off"}) {
      if (ImGui::Selectable(w, scenario_.ecc == w)) Edit("ecc", w);
      Track((std::string("ecc:") + w).c_str());
    }
    ImGui::EndCombo();
  }
  Track("ecc");
  std::string tip = "ECC on GDDR cards takes 1/16 of their memory; HBM keeps it beside the data at no cost. "
                    "default = the card's factory setting.";
  if (gpu) {
    tip += "\n" + gpu->name + [&]() -> std::string {
      if (gpu->memory_type.rfind("HBM", 0) == 0) return " (" + gpu->memory_type + "): ECC takes no memory.";
      if (!has_ecc) return gpu->ecc ? ": no ECC to switch." : ": the catalog has no ECC figure.";
      if (gpu->ecc_reserved_fraction <= 0) return ": ECC takes no memory here.";
      return std::string(": factory setting ") + (gpu->ecc_default_on ? "on" : "off") +
             (gpu->ecc_note.empty() ? "" : " (" + gpu->ecc_note + ")") + ".";
    }();
  }
  HelpMarker(tip);

  // MIG: the GPU's own profiles; without any the combo only offers a way back to none.
  const std::vector<MigProfile> none;
  const std::vector<MigProfile>& profiles = gpu ? gpu->mig_profiles : none;
  auto mig_label = [](const MigProfile& p) { return p.name + "  (" + FormatBytes(p.bytes, ByteUnit::GiB) + ")"; };
  std::string mig_preview = scenario_.mig;
  for (const MigProfile& p : profiles)
    if (p.name == scenario_.mig) mig_preview = mig_label(p);
  ImGui::BeginDisabled(profiles.empty() && scenario_.mig == "none");
  if (ImGui::BeginCombo("MIG slice", mig_preview.c_str())) {
    if (ImGui::Selectable("none  (the whole GPU)", scenario_.mig == "none")) Edit("mig", "none");
    Track("mig:none");
    for (const MigProfile& p : profiles) {
      if (ImGui::Selectable(mig_label(p).c_str(), scenario_.mig == p.name)) Edit("mig", p.name);
      if (p.max_instances > 0 && ImGui::IsItemHovered())
        ImGui::SetTooltip("up to %d per GPU (nvidia-smi mig -lgip)", p.max_instances);
      Track(("mig:" + p.name).c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  Track("mig");
  HelpMarker(profiles.empty() ? (gpu ? gpu->name : scenario_.gpu) + ": no MIG profiles in the catalog."
                              : std::string("Run in one MIG GPU instance: the estimate gets that slice's memory, "
                                            "not the whole GPU's."));

  GibField("gpu-mem-gib", "Limit (GiB)", scenario_.gpu_mem_gib, 1);
  HelpMarker("What the GPU may use, in place of the catalog's total and the steps after it (ECC, MIG, the driver's "
             "reserve, a unified machine's OS rule), e.g. after sudo sysctl iogpu.wired_limit_mb on a Mac. "
             "0 = the catalog's.");
  GibField("used-gib", "In use (GiB)", scenario_.used_gib, 0.5);
  HelpMarker("Memory a desktop or another model already holds on each GPU (nvidia-smi's Memory-Usage before you "
             "start).");
}

void App::DrawResult() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Fit().error().c_str());
    return;
  }
  const MemoryEstimate& e = session_.Fit().value();
  const std::string per = scenario_.tp > 1 ? " per GPU" : "";

  if (e.fits)
    ImGui::TextColored(Good(), "FITS%s: %s of %s usable, %s free", per.c_str(), FormatBytes(e.total_bytes).c_str(),
                       FormatBytes(e.usable_bytes).c_str(), FormatBytes(e.headroom_bytes).c_str());
  else
    ImGui::TextColored(Bad(), "DOES NOT FIT%s: needs %s, has %s (short by %s)", per.c_str(),
                       FormatBytes(e.total_bytes).c_str(), FormatBytes(e.usable_bytes).c_str(),
                       FormatBytes(-e.headroom_bytes).c_str());
  ItemTip("total = the sum of the terms below; usable = " + e.usable_basis + "; free = usable - total");

  // A stacked bar: each term's share of the capacity.
  {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 1.2f;
    double scale = std::max(e.capacity_bytes, e.total_bytes);
    const ImU32 colors[] = {IM_COL32(90, 140, 230, 255), IM_COL32(230, 160, 60, 255), IM_COL32(120, 190, 120, 255),
                            IM_COL32(150, 150, 160, 255)};
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), Colors().bar_bg);
    float x = p.x;
    for (size_t i = 0; i < e.terms.size() && scale > 0; ++i) {
      float tw = static_cast<float>(e.terms[i].bytes / scale) * w;
      dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + tw, p.y + h), colors[i % 4]);
      x += tw;
    }
    if (scale > 0) {
      float cap_x = p.x + static_cast<float>(e.capacity_bytes / scale) * w;
      dl->AddLine(ImVec2(cap_x, p.y - 2), ImVec2(cap_x, p.y + h + 2), Colors().marker, 2.0f);
      const float use_x = p.x + static_cast<float>(e.usable_bytes / scale) * w;  // the engine's cap
      dl->AddLine(ImVec2(use_x, p.y - 2), ImVec2(use_x, p.y + h + 2), IM_COL32(255, 220, 80, 255), 2.0f);
    }
    ImGui::Dummy(ImVec2(w, h));
    Track("usage-bar");
  }

  std::vector<BytesRow> rows;
  for (const Term& t : e.terms) rows.push_back({t.name, t.bytes, t.formula});
  rows.push_back({"Total", e.total_bytes, "sum of the terms above"});
  for (const CapacityRow& c : CapacityRows(e.device)) rows.push_back({c.name, c.bytes, c.how});
  rows.push_back({"Usable", e.usable_bytes, e.usable_basis});
  rows.push_back({e.fits ? "Free" : "Short", std::abs(e.headroom_bytes), "usable - total"});
  BytesTable("breakdown", "Term" + per, rows);

  ImGui::Text("KV cache: %s per token (whole model)", FormatBytes(e.kv_bytes_per_token, ByteUnit::MiB, 3).c_str());
  ItemTip("2 x layers x KV heads x head dim x bytes per element (GQA/MQA-aware; MLA: latent + RoPE key; "
          "sliding-window layers hold at most the window) = " + FormatShort(e.kv_bytes_per_token, 6) + " bytes");
  ImGui::Text("Max context at batch %lld: %s tokens%s", scenario_.batch, FormatCount(e.max_context).c_str(),
              e.context_window > 0 && e.max_context > e.context_window
                  ? (" (memory limit; the model's window is " + FormatCount(e.context_window) + ")").c_str()
                  : "");
  ItemTip("the longest context whose KV cache and activations fit in the usable memory beside the weights, at batch " +
          std::to_string(scenario_.batch));
  ImGui::Text("Max batch at %s tokens: %s sequences", FormatCount(scenario_.context).c_str(),
              FormatCount(e.max_batch).c_str());
  ItemTip("the most sequences of " + FormatCount(scenario_.context) +
          " tokens whose KV cache fits in the usable memory beside the weights and the fixed terms");
  for (const std::string& w : e.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : e.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  DrawSpeedSummary();
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", ViewCliCommand(*FindView("fit"), session_).c_str());
}

// Speed and cost of the same scenario, with the reference set's band (gpuplan speed).
void App::DrawSpeedSummary() {
  ImGui::Separator();
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "Speed: %s", session_.Speed().error().c_str());
    return;
  }
  const SpeedEstimate& e = session_.Speed().value();
  const Band& b = e.decode_band;
  ImGui::TextWrapped("Decode: %s tok/s per user, %s tok/s in all (band %s-%s from %d measurements); %s-bound",
              FormatFixed(e.tokens_per_s_user, 1).c_str(), FormatFixed(e.tokens_per_s_total, 1).c_str(),
              FormatFixed(e.tokens_per_s_user * b.lo, 1).c_str(), FormatFixed(e.tokens_per_s_user * b.hi, 1).c_str(),
              b.cases, e.decode.bound.c_str());
  Track("speed");
  if (ImGui::IsItemHovered()) {
    std::string tip;
    for (const TimeTerm& t : e.decode.terms) tip += t.name + ": " + FormatFixed(t.seconds * 1e3, 3) + " ms = " + t.formula + "\n";
    ImGui::SetTooltip("%s", tip.c_str());
  }
  if (auto it = e.unknown.find("ttft_s"); it != e.unknown.end())
    ImGui::TextColored(Muted(), "Time to first token: unknown (%s)", it->second.c_str());
  else if (e.ttft_s > 0)
    ImGui::TextWrapped("Time to first token: %s ms; prefill %s tok/s", FormatFixed(e.ttft_s * 1e3, 1).c_str(),
                FormatFixed(e.prefill_tokens_per_s, 0).c_str());
  if (CostNow().cloud_per_m_output > 0) {
    ImGui::TextWrapped("Cloud: $%s per 1M output tokens (%s)", FormatFixed(CostNow().cloud_per_m_output, 3).c_str(),
                CostNow().cloud_basis.c_str());
    ItemTip("$" + FormatFixed(CostNow().cloud_hour, 2) + "/h / (" + FormatFixed(e.tokens_per_s_total, 1) +
            " tok/s x 3,600 s) x 10^6; the Cost panel has the rest");
  }
  if (CostNow().owned_per_m_output > 0)
    ImGui::Text("Owned: $%s per 1M output tokens", FormatFixed(CostNow().owned_per_m_output, 3).c_str());
  for (const std::string& w : e.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
}

void App::Frame() {
  if (!theme_applied_) ApplyTheme();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("gpuplan", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (!embed_.empty()) {
    DrawEmbedded();
    ImGui::End();
    return;
  }
  ImGui::TextUnformatted("gpuplan");
  ImGui::SameLine();
  ImGui::TextColored(Muted(), "which GPU, how many, how fast, at what cost - with the work shown");
  // Presets: the common questions (the seeds' examples among them) as whole scenarios.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("##presets", "Presets...", ImGuiComboFlags_HeightLarge)) {
    for (const Preset& p : Presets()) {
      if (ImGui::Selectable(p.question.c_str())) {
        LoadState(p.hash);
        state_changed_ = true;
        requested_tab_ = FindView(p.panel) ? p.panel : "fit";
      }
      if (ImGui::IsItemHovered() && !p.source.empty()) ImGui::SetTooltip("%s", p.source.c_str());
      Track(("preset-" + p.id).c_str());
    }
    ImGui::EndCombo();
  }
  Track("presets");

  if (!catalog_error_.empty()) ImGui::TextColored(Bad(), "Catalog failed to load: %s", catalog_error_.c_str());
  if (!notices_.empty()) {
    ImGui::TextColored(Warn(), "The link had fields that could not be used; defaults were kept for them:");
    for (const std::string& n : notices_) ImGui::BulletText("%s", n.c_str());
    if (ImGui::SmallButton("Dismiss")) notices_.clear();
    ImGui::Separator();
  }

  if (ImGui::BeginTabBar("panels")) {
    // A tab asked for by the code (a link, a preset, "Use in Fit") is selected once, then the
    // user's clicks rule.
    bool consumed = false;
    for (const View& v : Views()) {
      ImGuiTabItemFlags flags = 0;
      if (requested_tab_ == v.id) {
        flags = ImGuiTabItemFlags_SetSelected;
        consumed = true;
      }
      const bool open = ImGui::BeginTabItem(v.title, nullptr, flags);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", v.help);
      Track((std::string("tab-") + v.id).c_str());
      if (!open) continue;
      if (tab_ != v.id) {
        tab_ = v.id;
        if (session_.view().tab != v.id && !session_.Set("tab", v.id)) state_changed_ = true;  // links open here
      }
      DrawPanel(v);
      ImGui::EndTabItem();
    }
    if (consumed) requested_tab_.clear();  // a request made while drawing applies next frame
    ImGui::EndTabBar();
  }
  ImGui::End();
}

// The views with a panel of their own; any other view shows its report's tables (DrawReport),
// so a view added to the table (views.h) appears here without an edit.
void App::DrawPanel(const View& v) {
  const std::string_view id = v.id;
  if (id == "machine") DrawMachine();
  else if (id == "catalog") DrawCatalog();
  else DrawWithInputs(v);
}

void App::DrawViewBody(const View& v) {
  const std::string_view id = v.id;
  if (id == "fit") DrawResult();
  else if (id == "speed") DrawSpeed();
  else if (id == "compare") DrawCompare();
  else if (id == "train") DrawTrain();
  else if (id == "cost") DrawCost();
  else if (id == "roofline") DrawRoofline();
  else DrawReport(v);
}

void App::DrawReport(const View& v) {
  const Report r = v.report(session_, {});
  for (const std::string& l : r.lines) ImGui::TextWrapped("%s", l.c_str());
  for (const Section& sec : r.sections) {
    if (!sec.heading.empty()) ImGui::TextColored(Muted(), "%s", sec.heading.c_str());
    RecordsTable(sec.heading.empty() ? v.id : sec.heading.c_str(), sec.records);
  }
  for (const std::string& l : r.after) ImGui::TextWrapped("%s", l.c_str());
  for (const std::string& w : r.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
  for (const std::string& n : r.notes) ImGui::TextColored(Muted(), "%s", n.c_str());
  if (!r.assumptions.empty() && ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : r.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
}

// Embed mode (#embed=<panel>&...): one panel for a blog's or a docs page's iframe. The result
// comes first; the inputs fold under it; a link opens the whole calculator on this scenario.
void App::DrawEmbedded() {
  const View& v = *FindView(embed_);
  tab_ = v.id;
  ImGui::TextUnformatted("gpuplan");
  ImGui::SameLine();
  const Model* m = catalog_->FindModel(scenario_.model);
  const Gpu* g = catalog_->FindGpu(scenario_.gpu);
  const long long gpus = embed_ == "train" ? scenario_.TrainingGpus() : scenario_.Gpus();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  ImGui::TextWrapped("%s: %s on %lld x %s", v.id, m ? m->name.c_str() : scenario_.model.c_str(), gpus,
                     g ? g->name.c_str() : scenario_.gpu.c_str());
  ImGui::PopStyleColor();
  for (const std::string& n : notices_) ImGui::TextColored(Warn(), "! %s", n.c_str());
  ImGui::PushID("embed");
  if (ImGui::CollapsingHeader("Inputs")) {
    Track("embed-inputs");
    if (embed_ == "train") DrawTrainInputs();
    else if (embed_ == "cost") DrawCostInputs();
    DrawInputs();
    ImGui::Separator();
  } else {
    Track("embed-inputs");
  }
  DrawExportBar(v);
  DrawViewBody(v);
  ImGui::PopID();
}

void App::Copy(const std::string& kind, const std::string& text) {
  last_copy_kind_ = kind;
  last_copy_text_ = text;
  if (host_.copy) host_.copy(text);
  else ImGui::SetClipboardText(text.c_str());
  export_message_ = "Copied " + kind + " (" + FormatCount(static_cast<long long>(text.size())) + " characters)";
}

std::string App::ExportText(std::string_view kind, std::string_view panel) {
  const View* v = FindView(panel);
  if (!v || !v->embeddable) return {};
  // The link opens on this panel with the view options (sort, filters, overlays) as they are.
  ViewOptions at = session_.view();
  at.tab = v->id;
  const std::string state = EncodeState(scenario_) + EncodeViewOptions(at);
  if (kind == "link") return host_.page_url + "#" + state;
  if (kind == "embed") {
    const Model* m = catalog_->FindModel(scenario_.model);
    const int height = panel == "compare" || panel == "roofline" ? 640 : 520;
    return "<iframe src=\"" + host_.page_url + "#embed=" + v->id + "&" + state + "\" width=\"100%\" height=\"" +
           std::to_string(height) + "\" style=\"border:0;max-width:100%\" loading=\"lazy\" title=\"gpuplan: " + v->id +
           (m ? " for " + m->name : std::string()) + "\"></iframe>";
  }
  if (kind == "cli") return ViewCliCommand(*v, session_);
  if (!v->failure(session_).empty()) return {};
  if (kind == "json") return v->json(session_, {});
  if (kind == "markdown") return PrintView(*v, session_, "md");
  return {};
}

// The export row under every scenario panel: what a blog author or a colleague needs.
void App::DrawExportBar(const View& v) {
  const std::string panel = v.id;
  ImGui::PushID("export");
  static const struct { const char* label; const char* kind; const char* tip; } kButtons[] = {
      {"Copy link", "link", "the page's address with the whole scenario in the hash (opens on this panel)"},
      {"Copy embed code", "embed", "an <iframe> that shows this panel alone, for a blog or a docs page"},
      {"Copy Markdown", "markdown", "the result as Markdown (what the CLI prints with --format md)"},
      {"Copy JSON", "json", "the result as JSON (what the CLI prints with --format json)"},
      {"Copy CLI command", "cli", "the gpuplan command that prints the same numbers"},
  };
  // Side by side while they fit, then on the next line (a phone-width iframe).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  auto same_line_if_fits = [&](const char* label) {
    const float w = ImGui::CalcTextSize(label).x + style.FramePadding.x * 2;
    const ImVec2 last = ImGui::GetItemRectMax();
    if (last.x + style.ItemSpacing.x + w <= right) ImGui::SameLine();
  };
  bool first = true;
  for (const auto& b : kButtons) {
    if (!first) same_line_if_fits(b.label);
    first = false;
    if (ImGui::SmallButton(b.label)) {
      const std::string text = ExportText(b.kind, panel);
      if (text.empty()) export_message_ = std::string("Nothing to copy: ") + "the scenario has no result";
      else Copy(b.kind, text);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", b.tip);
    Track((panel + "-copy-" + b.kind).c_str());
  }
  if (panel == "roofline") {
    same_line_if_fits("Download SVG");
    if (ImGui::SmallButton("Download SVG")) {
      const std::string svg = RooflineSvg(session_.Chart());
      last_copy_kind_ = "svg";
      last_copy_text_ = svg;
      export_message_ = host_.save ? host_.save("gpuplan-roofline.svg", "image/svg+xml", svg) : "no file saving here";
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the chart as an SVG file (what gpuplan roofline --svg writes)");
    Track("roofline-download-svg");
  }
  if (!export_message_.empty()) {
    same_line_if_fits(export_message_.c_str());
    ImGui::TextColored(Muted(), "%s", export_message_.c_str());
  }
  ImGui::PopID();
}

void App::DrawWithInputs(const View& v) {
  const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 50.0f;
  auto result = [&] {
    DrawExportBar(v);
    DrawViewBody(v);
  };
  ImGui::PushID(v.id);
  if (wide) {
    ImGui::BeginChild("inputs", ImVec2(ImGui::GetFontSize() * 28.0f, 0), false);
    DrawInputs();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("result", ImVec2(0, 0), false);
    result();
    ImGui::EndChild();
  } else {
    DrawInputs();
    ImGui::Separator();
    result();
  }
  ImGui::PopID();
}

}  // namespace gpuplan::ui
