// web/ui/panel_catalog.cpp — the Catalog panel: every accelerator and model, searchable and
// filterable, with a detail view that shows each figure next to the sources that back it.
#include <algorithm>
#include <set>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app.h"
#include "gpuplan/describe.h"
#include "gpuplan/i18n.h"
#include "gpuplan/model.h"
#include "gpuplan/small_sort.h"
#include "gpuplan/units.h"
#include "gpuplan/version.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

namespace {

const ImVec4 kLink(0.45f, 0.70f, 1.00f, 1.0f);

bool Matches(const std::string& text, const char* needle) {
  if (!needle[0]) return true;
  std::string a = text, b = needle;
  std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return a.find(b) != std::string::npos;
}

double Flops(const Gpu& g, const char* precision) {
  auto it = g.dense_flops.find(precision);
  return it == g.dense_flops.end() ? 0 : it->second;
}

// A number cell, or a muted dash where the catalog has no sourced figure.
void NumberCell(double v, double scale, int decimals) {
  ImGui::TableNextColumn();
  if (v > 0)
    ImGui::TextUnformatted(FormatFixed(v / scale, decimals).c_str());
  else
    ImGui::TextColored(Muted(), "-");
}

}  // namespace

void App::DrawCatalog() {
  RequestSources();  // the page's built-in catalog comes without them: fetched on first view
  // One status line whatever the state, so the panel does not jump when the sources arrive.
  if (sources_state_ == "loading")
    ImGui::TextColored(Muted(), "%s", Tr("Loading the catalog's sources..."));
  else if (sources_state_ != "" && sources_state_ != "loaded" && sources_state_ != "elsewhere")
    ImGui::TextColored(Bad(), "%s", sources_state_.c_str());
  else
    ImGui::TextColored(Muted(), "%s",
                       TrF("The catalog: {0} accelerators, {1} models.",
                           {std::to_string(catalog_->gpus.size()), std::to_string(catalog_->models.size())})
                           .c_str());
  // The About line: which program and which data gave the numbers (exports end with it too).
  ImGui::TextColored(Muted(), "%s", MadeWithLine(*catalog_).c_str());
  ImGui::RadioButton((std::string(Tr("Accelerators")) + "###accelerators").c_str(), &catalog_view_, 0);
  ImGui::SameLine();
  ImGui::RadioButton((std::string(Tr("Models")) + "###models").c_str(), &catalog_view_, 1);
  // The search box on the same row where it fits at a useful width, and never wider than the
  // row (a phone).
  SameLineIfFits(ImGui::GetFontSize() * 10);
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 16, ImGui::GetContentRegionAvail().x));
  ImGui::InputTextWithHint("##catalog-search", Tr("search name, vendor, architecture"), catalog_search_,
                           sizeof catalog_search_);
  Track("catalog-search");
  KeepTypingInView();
  DrawImport();
  if (catalog_view_ == 0) {
    DrawGpuTable();
    if (const Gpu* g = catalog_->FindGpu(selected_gpu_)) {
      ImGui::Separator();
      DrawGpuDetail(*g);
    } else {
      ImGui::TextColored(Muted(), "%s", Tr("Select a row to see every figure with its sources."));
    }
  } else {
    DrawModelTable();
  }
}

void App::DrawGpuTable() {
  std::set<std::string> vendor_set;
  for (const Gpu& g : catalog_->gpus) vendor_set.insert(g.vendor);
  std::vector<std::string> vendors(vendor_set.begin(), vendor_set.end());
  vendors.insert(vendors.begin(), Tr("All vendors"));
  if (vendor_index_ >= static_cast<int>(vendors.size())) vendor_index_ = 0;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("##vendor", vendors[static_cast<size_t>(vendor_index_)].c_str())) {
    for (int i = 0; i < static_cast<int>(vendors.size()); ++i)
      if (ImGui::Selectable(vendors[static_cast<size_t>(i)].c_str(), i == vendor_index_)) vendor_index_ = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  {
    const double step = 8;
    ImGui::InputScalar((std::string(Tr("min GiB")) + "###min-gib").c_str(), ImGuiDataType_Double, &min_memory_gib_,
                       &step, &step, "%.0f");
    min_memory_gib_ = std::clamp(min_memory_gib_, 0.0, 4096.0);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  {
    const long long step = 1;
    ImGui::InputScalar((std::string(Tr("since")) + "###since").c_str(), ImGuiDataType_S64, &min_year_, &step, &step,
                       nullptr);
    min_year_ = std::clamp(min_year_, 2000LL, 2100LL);
  }

  // Filter, then sort by the column the user picked.
  std::vector<const Gpu*> rows;
  for (const Gpu& g : catalog_->gpus) {
    if (vendor_index_ > 0 && g.vendor != vendors[static_cast<size_t>(vendor_index_)]) continue;
    if (g.TotalBytes() < min_memory_gib_ * kGiB) continue;
    if (g.year != 0 && g.year < min_year_) continue;
    if (!Matches(g.name + " " + g.vendor + " " + g.architecture + " " + g.id, catalog_search_)) continue;
    rows.push_back(&g);
  }
  const float height = std::max(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().y * 0.45f);
  // Narrower than the columns (a phone): the names keep a readable column of their own, frozen,
  // and the figures scroll sideways beside them (a swipe does it).
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Sortable | ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit |
                                (narrow ? ImGuiTableFlags_ScrollX : 0);
  visible_ids_.clear();
  if (!ImGui::BeginTable("gpus", 8, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(narrow ? 1 : 0, 1);
  ImGui::TableSetupColumn(Tr("Accelerator"),
                          ImGuiTableColumnFlags_DefaultSort |
                              (narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch),
                          narrow ? ImGui::GetFontSize() * 11 : 0.0f);
  ImGui::TableSetupColumn(Tr("Year"));
  ImGui::TableSetupColumn(Tr("Memory GiB"));
  ImGui::TableSetupColumn("GB/s");
  ImGui::TableSetupColumn(Tr("BF16 dense"));
  ImGui::TableSetupColumn(Tr("FP8 dense"));
  ImGui::TableSetupColumn("W");
  ImGui::TableSetupColumn(Tr("Vendor"));
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs(); sort && sort->SpecsCount > 0) {
    const ImGuiTableColumnSortSpecs& spec = sort->Specs[0];
    auto key = [&](const Gpu* g) -> double {
      switch (spec.ColumnIndex) {
        case 1: return g->year;
        case 2: return g->TotalBytes();
        case 3: return g->bandwidth_bytes_per_s;
        case 4: return Flops(*g, "bf16");
        case 5: return Flops(*g, "fp8");
        case 6: return g->tdp_w;
        default: return 0;
      }
    };
    StableSortSmall(rows.begin(), rows.end(), [&](const Gpu* a, const Gpu* b) {
      const bool asc = spec.SortDirection == ImGuiSortDirection_Ascending;
      if (spec.ColumnIndex == 0 || spec.ColumnIndex == 7) {
        const std::string& x = spec.ColumnIndex == 0 ? a->name : a->vendor;
        const std::string& y = spec.ColumnIndex == 0 ? b->name : b->vendor;
        return asc ? x < y : y < x;
      }
      return asc ? key(a) < key(b) : key(b) < key(a);
    });
  }
  for (const Gpu* g : rows) {
    visible_ids_.push_back(g->id);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable((g->name + "##" + g->id).c_str(), selected_gpu_ == g->id,
                          ImGuiSelectableFlags_SpanAllColumns))
      selected_gpu_ = g->id;
    Track(("row:" + g->id).c_str());
    ImGui::TableNextColumn();
    if (g->year > 0) ImGui::Text("%d", g->year);
    else
      ImGui::TextDisabled("-"), ItemTip(Tr("the catalog has no launch year for it"));  // not "0"
    NumberCell(g->TotalBytes(), kGiB, 1);
    ItemTip(TrF("capacity in GiB (2^30 bytes): {0}; the vendor quotes {1}. Select the row for the sources.",
                {g->memory_reported  ? TrF("driver-reported total ({0})", {g->memory_reported->how})
                 : g->memory_derived ? TrF("derived: {0}", {g->memory_derived->how})
                                     : std::string(Tr("the vendor's figure read as binary")),
                 FormatFixed(g->memory_quoted_value, 0) + " " + g->memory_quoted_unit}));
    NumberCell(g->bandwidth_bytes_per_s, kGB, 0);
    ItemTip(Tr("memory bandwidth in GB/s (10^9 bytes/s), from the datasheet; select the row for the source"));
    NumberCell(Flops(*g, "bf16"), 1e12, 1);
    ItemTip(Tr("BF16 tensor TFLOP/s, dense (not the 2:4-sparse figure datasheets also print)"));
    NumberCell(Flops(*g, "fp8"), 1e12, 1);
    ItemTip(Tr("FP8 tensor TFLOP/s, dense (not the 2:4-sparse figure)"));
    NumberCell(g->tdp_w, 1, 0);
    ItemTip(Tr("board power (TDP / TBP), W"));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(g->vendor.c_str());
  }
  ImGui::EndTable();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(catalog_->gpus.size() == 1
                ? TrF("{0} of 1 accelerator; throughput is dense (2:4-sparse headline figures are halved)",
                      {FormatCount(static_cast<int64_t>(rows.size()))})
                : TrF("{0} of {1} accelerators; throughput is dense (2:4-sparse headline figures are halved)",
                      {FormatCount(static_cast<int64_t>(rows.size())),
                       FormatCount(static_cast<int64_t>(catalog_->gpus.size()))}));
  ImGui::PopStyleColor();
}

void App::DrawGpuDetail(const Gpu& g) {
  ImGui::Text("%s", g.name.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(Tr("Use in Fit")) + "###use-in-fit").c_str())) {
    Edit("gpu", g.id);
    requested_tab_ = "fit";
  }
  Track("use-in-fit");
  DrawQuotedCheck(g);
  if (ImGui::BeginTable("detail", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn(Tr("Field"));
    ImGui::TableSetupColumn(Tr("Value"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(Tr("Sources"));
    for (const DetailRow& row : DescribeGpu(g)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(Muted(), "%s", row.label.c_str());
      ImGui::TableNextColumn();
      Paragraph(row.value);
      ImGui::TableNextColumn();
      std::string refs;
      for (int i : row.sources) refs += (refs.empty() ? "[" : ",") + std::to_string(i + 1);
      ImGui::TextUnformatted(refs.empty() ? "" : (refs + "]").c_str());
    }
    ImGui::EndTable();
  }
  ImGui::TextUnformatted(Tr("Sources"));
  for (size_t i = 0; i < g.sources.size(); ++i) {
    const Source& s = g.sources[i];
    Paragraph("[" + std::to_string(i + 1) + "] " + TrF("{0} (read {1})", {s.title, s.read}));
    ImGui::Indent();
    ImGui::TextColored(kLink, "%s", s.url.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("Click to copy the address"));
    if (ImGui::IsItemClicked()) ImGui::SetClipboardText(s.url.c_str());
    if (!s.note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, Muted());
      Paragraph(s.note);
      ImGui::PopStyleColor();
    }
    ImGui::Unindent();
  }
}

// Paste a config.json or a catalog file (or drop one on the window): it joins this session's catalog.
void App::DrawImport() {
  // Short enough for a phone's width; the tip says the rest.
  const bool open = ImGui::CollapsingHeader((std::string(Tr("Add your own model or GPU")) + "###add-own").c_str());
  ItemTip(Tr("paste a model's config.json or a catalog file here, or drop the file anywhere on the page"));
  if (!open) return;
  DrawImportBody(false);
}

// The paste box and its button; `select_model`: a model the text adds becomes the scenario's
// (the model picker's Import popup).
void App::DrawImportBody(bool select_model) {
  ImGui::InputTextMultiline("##import", import_buffer_.data(), import_buffer_.size(),
                            ImVec2(select_model ? ImGui::GetFontSize() * 30 : -1, ImGui::GetFontSize() * 6));
  KeepTypingInView();
  Track(select_model ? "model-import-text" : "import-text");
  if (ImGui::Button((std::string(Tr("Add to catalog")) + "###add").c_str())) {
    std::vector<std::string> before;
    for (const Model& m : catalog_->models) before.push_back(m.id);
    ImportText(import_buffer_.data(), "");
    if (import_ok_) {
      import_buffer_.assign(import_buffer_.size(), '\0');
      if (select_model)
        for (const Model& m : catalog_->models)
          if (std::find(before.begin(), before.end(), m.id) == before.end()) {
            Edit("model", m.id);
            break;
          }
    }
  }
  Track(select_model ? "model-import-add" : "import-add");
  if (!import_message_.empty()) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, import_ok_ ? Good() : Bad());
    Paragraph(import_message_);
    ImGui::PopStyleColor();
  }
}

// "A guide says 330 TFLOPS FP16 for this card: which figure is that?"
void App::DrawQuotedCheck(const Gpu& g) {
  std::vector<std::string> precisions;
  for (const auto& [p, v] : g.dense_flops)
    if (p.find("_fp16acc") == std::string::npos) precisions.push_back(p);
  if (precisions.empty()) return;
  if (quoted_precision_ >= static_cast<int>(precisions.size())) quoted_precision_ = 0;
  ImGui::TextColored(Muted(), "%s", Tr("A quoted figure:"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputScalar("TFLOP/s##quoted", ImGuiDataType_Double, &quoted_tflops_, nullptr, nullptr, "%.1f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::BeginCombo("##quoted-precision", precisions[static_cast<size_t>(quoted_precision_)].c_str())) {
    for (int i = 0; i < static_cast<int>(precisions.size()); ++i)
      if (ImGui::Selectable(precisions[static_cast<size_t>(i)].c_str(), i == quoted_precision_)) quoted_precision_ = i;
    ImGui::EndCombo();
  }
  if (quoted_tflops_ > 0) {
    ImGui::SameLine();
    std::string text;
    for (const std::string& w :
         ExplainQuotedTflops(g, precisions[static_cast<size_t>(quoted_precision_)], quoted_tflops_))
      text += (text.empty() ? std::string("= ") : "; " + std::string(Tr("or")) + " ") + w;
    Paragraph(text.empty() ? std::string(Tr("matches no catalog figure within 2%")) : text);
  }
}

void App::DrawModelTable() {
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44;  // as the GPU table
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | (narrow ? ImGuiTableFlags_ScrollX : 0);
  visible_ids_.clear();
  if (!ImGui::BeginTable("models", 6, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(narrow ? 1 : 0, 1);
  ImGui::TableSetupColumn(Tr("Model"), narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_None,
                          narrow ? ImGui::GetFontSize() * 11 : 0.0f);
  ImGui::TableSetupColumn(Tr("Params"));
  ImGui::TableSetupColumn(Tr("Active"));
  ImGui::TableSetupColumn(Tr("Layers"));
  ImGui::TableSetupColumn(Tr("Attention (KV cache)"),
                          narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                          narrow ? ImGui::GetFontSize() * 22 : 0.0f);
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  for (const Model& m : catalog_->models) {
    if (!Matches(m.name + " " + m.id + " " + m.model_type + " " + m.hf_repo, catalog_search_)) continue;
    visible_ids_.push_back(m.id);
    const ParamCount& c = Params(m);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(m.name.c_str());
    if (ImGui::IsItemHovered() && !m.hf_repo.empty()) ImGui::SetTooltip("%s", m.hf_repo.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatParams(c.total).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(m.moe ? FormatParams(c.active).c_str() : "");
    ImGui::TableNextColumn();
    ImGui::Text("%d", m.layers);
    ImGui::TableNextColumn();
    Paragraph(DescribeAttention(m));
    ImGui::TableNextColumn();
    if (ImGui::SmallButton((std::string(Tr("Use")) + "##" + m.id).c_str())) {
      Edit("model", m.id);
      requested_tab_ = "fit";
    }
  }
  ImGui::EndTable();
}

std::string App::UiStateJson() const {
  nlohmann::json j;
  j["tab"] = tab_;
  j["sources"] = sources_state_.empty() ? "built-in" : sources_state_;
  j["catalog_error"] = catalog_error_;
  j["embed"] = embed_;
  j["theme"] = theme_;
  j["dark"] = dark_;
  j["lang"] = LangCode(CurrentLang());
  j["lang_loading"] = wanted_lang_ ? LangCode(*wanted_lang_) : "";
  j["lang_message"] = lang_message_;
  j["last_copy"] = {{"kind", last_copy_kind_}, {"text", last_copy_text_}};
  j["compare_sort"] = session_.view().sort;
  j["compare_ms"] = session_.compare_ms();
  j["catalog_view"] = catalog_view_ == 0 ? "gpus" : "models";
  j["search"] = catalog_search_;
  j["selected_gpu"] = selected_gpu_;
  j["visible"] = visible_ids_;
  j["roof_overlay"] = session_.view().overlay;
  j["gpu_probe"] = session_.gpu_probe() ? session_.gpu_probe()->device_name : std::string();
  j["cpu_probe"] = session_.cpu_probe() ? session_.cpu_probe()->cpu.model_name : std::string();
  j["machine_pending"] = machine_pending_;
  j["import_message"] = import_banner_;
  return j.dump();
}

}  // namespace gpuplan::ui
