// web/ui/fields.cpp — the page's one widget set: every input is drawn from the field table
// (scenario.h FieldInfo: kind, label, help, limits, step, choices), and every change goes back
// through the same parser as the URL hash and the CLI flags. The catalog pickers (model, GPU,
// formats, engine) and the per-GPU choices (ECC, MIG) are kinds of field like any other.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <imgui.h>

#include "app.h"
#include "gpuplan/describe.h"
#include "gpuplan/i18n.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"
#include "touch.h"

namespace gpuplan::ui {

namespace {


bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

// A searchable picker over catalog entries, in the order given (`order`: indices into
// `entries`, empty for the catalog's); returns the chosen id when it changed. `track(key)` is
// called after each entry (key: its id) and once for the open list (key: ""), for the tests.
template <typename T, typename Label, typename Tip, typename TrackFn>
std::optional<std::string> Picker(const char* label, const std::vector<T>& entries, const std::string& current,
                                  char* filter, size_t filter_size, Label label_of, Tip tip_of, TrackFn track,
                                  const std::vector<size_t>& order = {}) {
  std::optional<std::string> chosen;
  const T* cur = nullptr;
  for (const T& e : entries)
    if (e.id == current) cur = &e;
  std::string preview = cur ? label_of(*cur) : current;
  if (ImGui::BeginCombo(label, preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    if (filter) {
      if (ImGui::IsWindowAppearing() && !TouchUsed()) ImGui::SetKeyboardFocusHere();
      ImGui::SetNextItemWidth(-1);
      ImGui::InputTextWithHint("##filter", "search...", filter, filter_size);
      KeepTypingInView();
      track("#search");
    }
    // With a search box, the entries scroll in a region of their own under it, so the box
    // stays in view when the list opens scrolled to the current entry (far down a sorted list).
    std::vector<const T*> matching;
    float widest = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      const T& e = entries[order.empty() ? i : order[i]];
      const std::string text = label_of(e);
      if (filter && !ContainsNoCase(text, filter) && !ContainsNoCase(e.id, filter)) continue;
      matching.push_back(&e);
      widest = std::max(widest, ImGui::CalcTextSize(text.c_str()).x);
    }
    if (filter) {
      const float lines = static_cast<float>(std::clamp<size_t>(matching.size(), 1, 14));
      const ImGuiStyle& style = ImGui::GetStyle();
      const float width = std::min(widest + style.ScrollbarSize + style.WindowPadding.x * 2,
                                   ImGui::GetMainViewport()->WorkSize.x - style.WindowPadding.x * 4);  // a phone
      ImGui::BeginChild("##entries", ImVec2(width, lines * ImGui::GetTextLineHeightWithSpacing() + style.WindowPadding.y));
    }
    for (const T* entry : matching) {
      const T& e = *entry;
      const std::string text = label_of(e);
      bool selected = &e == cur;
      if (ImGui::Selectable((text + "##" + e.id).c_str(), selected)) chosen = e.id;
      track(e.id);
      if (ImGui::IsItemHovered()) {
        std::string tip = tip_of(e);
        if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
      }
      if (selected) {
        ImGui::SetItemDefaultFocus();
        if (filter && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY(0.5f);  // opens on the current entry
      }
    }
    track(std::string());  // the scrolling region (or the popup)
    if (filter) ImGui::EndChild();
    if (chosen && filter) ImGui::CloseCurrentPopup();  // a Selectable closes only the popup it is drawn in
    const size_t shown = matching.size();
    if (filter) ImGui::TextDisabled("%zu of %zu%s", shown, entries.size(), filter[0] ? " match" : "");
    ImGui::EndCombo();
  }
  return chosen;
}

// The GPU list by name (vendors group by their names' first word), not in the catalog files'
// order; built once per catalog size.
const std::vector<size_t>& GpuOrder(const std::vector<Gpu>& gpus) {
  static std::vector<size_t> order;
  if (order.size() != gpus.size()) {
    order.resize(gpus.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const std::string &x = gpus[a].name, &y = gpus[b].name;
      return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), [](char p, char q) {
        return std::tolower(static_cast<unsigned char>(p)) < std::tolower(static_cast<unsigned char>(q));
      });
    });
  }
  return order;
}

std::string GpuLabel(const Gpu& g) {
  return g.name + "  (" + FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit + ")";
}

std::string GpuTip(const Gpu& g) {
  std::string tip =
      g.name + "\n" +
      TrF("Memory: {0} {1} {2}", {FormatFixed(g.memory_quoted_value, 0), g.memory_quoted_unit, g.memory_type});
  if (g.memory_reported)
    tip += "\n" + TrF("Driver reports {0} ({1})",
                      {FormatBytes(g.memory_reported->bytes, ByteUnit::GiB), g.memory_reported->how});
  else if (g.memory_derived)
    tip +=
        "\n" + TrF("Derived: {0} ({1})", {FormatBytes(g.memory_derived->bytes, ByteUnit::GiB), g.memory_derived->how});
  if (g.bandwidth_bytes_per_s > 0)
    tip += "\n" + TrF("Bandwidth: {0} GB/s", {FormatFixed(g.bandwidth_bytes_per_s / kGB, 0)});
  for (const Source& s : g.sources) tip += "\n" + TrF("Source: {0} (read {1})", {s.title.substr(0, 90), s.read});
  if (g.sources.empty()) tip += "\n" + std::string(Tr("Sources: loading (the Catalog panel lists them)"));
  return tip;
}

}  // namespace

void App::Field(std::string_view key) {
  const FieldInfo* f = Session::Field(key);  // a scenario field or a view option
  if (!f) return;
  const Catalog& cat = *catalog_;
  const std::string value = session_.Get(f->key);
  bool tip = true;  // the field's help on hover (the pickers show their entries' own)
  switch (f->kind) {
    case FieldKind::kModel:
      if (auto id = Picker(
              FieldLabel(*f).c_str(), cat.models, value, model_filter_, sizeof model_filter_,
              [this](const Model& m) { return m.name + "  (" + FormatParams(Params(m).total) + ")"; },
              [this](const Model& m) {
                const ParamCount& c = Params(m);
                return m.name + "\n" + TrF("{0} layers; {1}", {std::to_string(m.layers), DescribeAttention(m)}) + "\n" +
                       (m.moe ? TrF("{0} parameters, {1} active per token",
                                    {FormatParams(c.total), FormatParams(c.active)})
                              : TrF("{0} parameters", {FormatParams(c.total)})) +
                       (m.hf_repo.empty() ? "" : "\n" + m.hf_repo);
              },
              [this](const std::string& entry) { TrackPick("model", entry); }))
        Edit(f->key, *id);
      tip = false;
      break;
    case FieldKind::kGpu:
      if (auto id = Picker(
              FieldLabel(*f).c_str(), cat.gpus, value, gpu_filter_, sizeof gpu_filter_, GpuLabel,
              [this](const Gpu& g) {
                RequestSources();  // the tooltip lists the sources
                return GpuTip(g);
              },
              [this](const std::string& entry) { TrackPick("gpu", entry); }, GpuOrder(cat.gpus)))
        Edit(f->key, *id);
      tip = false;
      break;
    case FieldKind::kWeights:
      if (auto id = Picker(
              FieldLabel(*f).c_str(), cat.weight_formats, value, nullptr, 0,
              [](const WeightFormat& w) {
                return w.name + "  (" + TrF("{0} bits", {FormatFixed(w.bits_per_weight, 2)}) + ")";
              },
              [this](const WeightFormat& w) {
                return Words(w.derivation) + "\n" + TrF("Source: {0}", {w.source.title});
              },
              [](const std::string&) {}))
        Edit(f->key, *id);
      if (const WeightFormat* w = cat.FindWeightFormat(value))
        ItemTip(w->name + ": " + TrF("{0} bits per weight", {FormatFixed(w->bits_per_weight, 3)}) + "\n" +
                Words(w->derivation));
      tip = false;
      break;
    case FieldKind::kKv:
      if (auto id = Picker(
              FieldLabel(*f).c_str(), cat.kv_formats, value, nullptr, 0,
              [](const KvFormat& k) { return k.name + "  (" + FormatShort(k.bytes_per_element) + " B)"; },
              [this](const KvFormat& k) { return Words(k.derivation) + "\n" + TrF("Source: {0}", {k.source.title}); },
              [](const std::string&) {}))
        Edit(f->key, *id);
      if (const KvFormat* k = cat.FindKvFormat(value))
        ItemTip(k->name + ": " + TrF("{0} bytes per element", {FormatShort(k->bytes_per_element)}) + "\n" +
                Words(k->derivation));
      tip = false;
      break;
    case FieldKind::kEngine:
      if (auto id = Picker(
              FieldLabel(*f).c_str(), cat.engines, value, nullptr, 0, [](const EngineProfile& e) { return e.name; },
              [this](const EngineProfile& e) { return e.version + "\n" + Words(e.activation_workspace); },
              [](const std::string&) {}))
        Edit(f->key, *id);
      if (const EngineProfile* e = cat.FindEngine(value)) ItemTip(e->name + " " + e->version + "\n" + Words(e->activation_workspace));
      tip = false;
      break;
    case FieldKind::kMig:
      MigField(*f);
      tip = false;
      break;
    case FieldKind::kChoice: {
      // ECC's "default" stands for the card's factory setting: the preview names it.
      const Gpu* gpu = cat.FindGpu(scenario_.gpu);
      std::string preview = value;
      if (key == "ecc" && value == "default" && gpu && gpu->ecc.value_or(false))
        preview += " (" + std::string(gpu->ecc_default_on ? Tr("on") : Tr("off")) + ")";
      if (ImGui::BeginCombo(FieldLabel(*f).c_str(), preview.c_str())) {
        for (const std::string& w : f->choices) {
          if (ImGui::Selectable(w.c_str(), value == w)) Edit(f->key, w);
          Track((std::string(f->key) + ":" + w).c_str());
        }
        ImGui::EndCombo();
      }
      break;
    }
    case FieldKind::kSwitch: {
      bool on = value == "1";
      if (ImGui::Checkbox(FieldLabel(*f).c_str(), &on)) Edit(f->key, on ? "1" : "0");
      break;
    }
    case FieldKind::kInteger:
    case FieldKind::kNumber:
      NumberField(*f, value);
      break;
    case FieldKind::kFlags: {
      // One checkbox per choice; all of them is "all", none is "none" (the parser's words).
      std::vector<std::string> on;
      for (const std::string& w : f->choices)
        if (value == "all" || ("," + value + ",").find("," + w + ",") != std::string::npos) on.push_back(w);
      for (size_t i = 0; i < f->choices.size(); ++i) {
        const std::string& w = f->choices[i];
        if (i) ImGui::SameLine();
        bool checked = std::find(on.begin(), on.end(), w) != on.end();
        if (ImGui::Checkbox(w.c_str(), &checked)) {
          std::string text;
          for (const std::string& x : f->choices)
            if (x == w ? checked : std::find(on.begin(), on.end(), x) != on.end()) text += (text.empty() ? "" : ",") + x;
          const bool every = std::count(text.begin(), text.end(), ',') + 1 == static_cast<long>(f->choices.size());
          Edit(f->key, text.empty() ? "none" : every ? "all" : text);
        }
        ItemTip(Tr(f->help));
        Track((std::string(f->key) + ":" + w).c_str());
      }
      tip = false;
      break;
    }
    case FieldKind::kGpuList: {
      // A picker that toggles catalog GPUs (those with a roof: bandwidth and a dense peak),
      // then one small button per chosen id to drop it.
      std::vector<std::string> ids = SplitList(value, ',');
      auto set = [&] {
        std::string text;
        for (const std::string& id : ids) text += (text.empty() ? "" : ",") + id;
        Edit(f->key, text);
      };
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
      if (ImGui::BeginCombo(("##" + std::string(f->key)).c_str(), (std::string(Tr(f->label)) + "...").c_str())) {
        for (const Gpu& g : cat.gpus) {
          if (g.id == scenario_.gpu || g.bandwidth_bytes_per_s <= 0 || g.dense_flops.empty()) continue;
          const auto at = std::find(ids.begin(), ids.end(), g.id);
          if (ImGui::Selectable(g.name.c_str(), at != ids.end())) {
            if (at != ids.end()) ids.erase(at);
            else if (ids.size() < static_cast<size_t>(f->hi)) ids.push_back(g.id);
            set();
          }
        }
        ImGui::EndCombo();
      }
      ItemTip(Tr(f->help));
      for (size_t i = 0; i < ids.size(); ++i) {
        ImGui::SameLine();
        ImGui::PushID(static_cast<int>(i));
        const bool drop = ImGui::SmallButton((ids[i] + " x").c_str());
        ImGui::PopID();
        if (drop) {
          ids.erase(ids.begin() + static_cast<long>(i));
          set();
          break;
        }
      }
      tip = false;
      break;
    }
    case FieldKind::kText: {
      // Taken when the field is left or on Enter, like a typed number.
      char buf[128];
      std::snprintf(buf, sizeof buf, "%s", value.c_str());
      ImGui::InputText(FieldLabel(*f).c_str(), buf, sizeof buf);
      KeepTypingInView();
      if (ImGui::IsItemDeactivatedAfterEdit() && value != buf) Edit(f->key, buf);
      break;
    }
  }
  Track(f->key);
  if (tip) {
    std::string help = Tr(f->help);
    if (key == "ecc") help += EccNote();
    ItemTip(help);
  }
}

// A number is typed as text and read by the session's parser when the field is left (or on
// Enter), as the link and the CLI flags are: "1e9" GPUs is refused by name ("must be a whole
// number from 1 to 4096"), not filtered to "19" as ImGui's numeric input would. The - and +
// buttons step at once, within the field's limits.
void App::NumberField(const FieldInfo& f, const std::string& value) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float button = ImGui::GetFrameHeight(), gap = style.ItemInnerSpacing.x;
  const bool steps = f.step > 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s", value.c_str());
  ImGui::PushID(f.key);
  ImGui::BeginGroup();
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 3, ImGui::CalcItemWidth() - (steps ? 2 * (button + gap) : 0)));
  if (focus_first_input_) ImGui::SetKeyboardFocusHere(), focus_first_input_ = false;
  ImGui::InputText("##text", buf, sizeof buf, ImGuiInputTextFlags_AutoSelectAll);
  if (ImGui::IsItemDeactivatedAfterEdit() && value != buf) Edit(f.key, buf);
  if (steps) {
    const bool special = f.special && value == f.special;  // "all": no step from a word
    const double v = special ? 0 : std::strtod(value.c_str(), nullptr);
    auto step = [&](double direction) {
      double next = v + direction * f.step;
      if (f.decimals > 0) next = std::round(next * std::pow(10.0, f.decimals)) / std::pow(10.0, f.decimals);
      if (f.hi > f.lo) next = std::clamp(next, f.lo, f.hi);
      if (next != v) Edit(f.key, f.kind == FieldKind::kInteger ? std::to_string(static_cast<long long>(next)) : ExactNumber(next));
    };
    ImGui::BeginDisabled(special);
    ImGui::PushButtonRepeat(true);
    ImGui::SameLine(0, gap);
    if (ImGui::Button("-", ImVec2(button, button))) step(-1);
    ImGui::SameLine(0, gap);
    if (ImGui::Button("+", ImVec2(button, button))) step(+1);
    ImGui::PopButtonRepeat();
    ImGui::EndDisabled();
  }
  const std::string_view label(Tr(f.label));
  ImGui::SameLine(0, gap);
  ImGui::TextUnformatted(label.data(), label.data() + std::min(label.size(), label.find("##")));
  ImGui::EndGroup();
  ImGui::PopID();
  KeepTypingInView();
}

// What ECC does on the scenario's GPU: its memory type, and its factory setting.
std::string App::EccNote() const {
  const Gpu* gpu = catalog_->FindGpu(scenario_.gpu);
  if (!gpu) return {};
  const bool has_ecc = gpu->ecc.value_or(false);
  if (gpu->memory_type.rfind("HBM", 0) == 0)
    return "\n" + TrF("{0} ({1}): ECC takes no memory.", {gpu->name, gpu->memory_type});
  if (!has_ecc)
    return "\n" + (gpu->ecc ? TrF("{0}: no ECC to switch.", {gpu->name})
                            : TrF("{0}: the catalog has no ECC figure.", {gpu->name}));
  if (gpu->ecc_reserved_fraction <= 0) return "\n" + TrF("{0}: ECC takes no memory here.", {gpu->name});
  const char* setting = gpu->ecc_default_on ? Tr("on") : Tr("off");
  return "\n" + (gpu->ecc_note.empty() ? TrF("{0}: factory setting {1}.", {gpu->name, setting})
                                       : TrF("{0}: factory setting {1} ({2}).", {gpu->name, setting, gpu->ecc_note}));
}

// MIG: the scenario GPU's own profiles; without any the combo only offers a way back to none.
void App::MigField(const FieldInfo& f) {
  const Gpu* gpu = catalog_->FindGpu(scenario_.gpu);
  const std::vector<MigProfile> none;
  const std::vector<MigProfile>& profiles = gpu ? gpu->mig_profiles : none;
  auto label = [](const MigProfile& p) { return p.name + "  (" + FormatBytes(p.bytes, ByteUnit::GiB) + ")"; };
  std::string preview = scenario_.mig;
  for (const MigProfile& p : profiles)
    if (p.name == scenario_.mig) preview = label(p);
  ImGui::BeginDisabled(profiles.empty() && scenario_.mig == "none");
  if (ImGui::BeginCombo(FieldLabel(f).c_str(), preview.c_str())) {
    if (ImGui::Selectable(Tr("none  (the whole GPU)"), scenario_.mig == "none")) Edit(f.key, "none");
    Track("mig:none");
    for (const MigProfile& p : profiles) {
      if (ImGui::Selectable(label(p).c_str(), scenario_.mig == p.name)) Edit(f.key, p.name);
      if (p.max_instances > 0 && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s",
                          TrF("up to {0} per GPU (nvidia-smi mig -lgip)", {std::to_string(p.max_instances)}).c_str());
      Track(("mig:" + p.name).c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  ItemTip(profiles.empty()
              ? TrF("{0}: no MIG profiles in the catalog.", {gpu ? gpu->name : scenario_.gpu})
              : std::string(Tr(f.help)) + "\n" + Tr("The estimate gets that slice's memory, SMs and bandwidth."));
}

void App::OptionFields(const char* const* keys, size_t count, const char* track_prefix) {
  const float em = ImGui::GetFontSize();
  ImGui::PushItemWidth(em * 7);
  for (size_t i = 0; i < count; ++i) {
    // As many on a line as fit (a phone: one or two): the input, its +/- buttons and its label.
    const FieldInfo* f = Session::Field(keys[i]);
    if (i) SameLineIfFits(em * 11 + (f ? ImGui::CalcTextSize(Tr(f->label)).x : em * 6));
    Field(keys[i]);
    Track((std::string(track_prefix) + keys[i]).c_str());
  }
  ImGui::PopItemWidth();
}

void App::DrawInputs(std::string_view view) {
  // The inputs take 18 em, or on a narrow screen what the longest label leaves of the line.
  static constexpr const char* kKeys[] = {"gpu", "tp", "pp", "ep", "split", "weights", "kv", "engine", "graphs",
                                          "context", "prompt", "batch", "overhead-gib"};
  static constexpr const char* kMemoryKeys[] = {"ecc", "mig", "gpu-mem-gib", "used-gib"};
  float label = 0;
  for (const char* key : kKeys)
    if (const FieldInfo* f = Session::Field(key)) label = std::max(label, ImGui::CalcTextSize(Tr(f->label)).x);
  ImGui::PushItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - label - ImGui::GetStyle().ItemInnerSpacing.x * 2,
                                  ImGui::GetFontSize() * 8.0f, ImGui::GetFontSize() * 18.0f));
  Field("model");
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(Tr("Import")) + "###import").c_str())) ImGui::OpenPopup("import-model");
  ItemTip(Tr("A model that is not in the catalog: paste its Hugging Face config.json (or drop the file on the page)"));
  Track("model-import");
  if (ImGui::BeginPopup("import-model")) {
    ImGui::TextUnformatted(Tr("Paste a Hugging Face config.json (or a gpuplan catalog file); it joins this session's catalog"));
    DrawImportBody(true);
    ImGui::EndPopup();
  }
  // What only serving reads (an engine's memory and its parallel layouts) is not shown for training.
  static constexpr std::string_view kServingOnly[] = {"ep", "split", "kv", "engine", "graphs", "prompt", "batch"};
  const bool training = view == "train";
  // The plan searches the GPU, the layout, the engine and the formats: only the model is its input.
  if (view != "plan") {
    for (const char* key : kKeys)
      if (!training || std::find(std::begin(kServingOnly), std::end(kServingOnly), key) == std::end(kServingOnly))
        Field(key);
    // What stands between the GPU's total and what the workload may allocate (capacity.h), in the
    // order the Fit panel's rows take it: ECC, a MIG slice, the user's own limit, other processes.
    ImGui::TextColored(Muted(), "%s", Tr("GPU memory"));
    for (const char* key : kMemoryKeys) Field(key);
  }
  ImGui::PopItemWidth();
  if (!TouchUsed()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Muted());
    Paragraph(Tr("Keys: Tab moves between fields, arrows between all controls, Space presses or opens, Enter sets, Escape then Tab leaves."));
    ImGui::PopStyleColor();
  }

  ImGui::PushStyleColor(ImGuiCol_Text, Bad());
  for (const auto& [field, message] : field_errors_) Paragraph(message);
  ImGui::PopStyleColor();
}

}  // namespace gpuplan::ui
