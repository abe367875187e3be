// web/ui/panel_compare.cpp — the Compare panel: the whole catalog ranked for the scenario, with
// the filters and the sort as view options (links, exports and the CLI command carry them).
// The same rows as `gpuplan compare`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "tables.h"
#include "theme.h"
#include "chart.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {

std::string Tps(double v) { return ChartValue(v); }

}  // namespace

void App::DrawCompare() {
  // The filters are view options: links, the CLI command and the exports carry them; each is
  // drawn from its field (fields.cpp) like the scenario's inputs.
  static const char* const kFilters[] = {"fits", "vendor", "min-tps", "max-ttft", "max-upfront", "max-watts"};
  ImGui::PushItemWidth(ImGui::GetFontSize() * 7);
  for (size_t i = 0; i < std::size(kFilters); ++i) {
    if (i % 3) ImGui::SameLine();
    Field(kFilters[i]);
    Track((std::string("compare-") + kFilters[i]).c_str());
  }
  ImGui::PopItemWidth();
  ImGui::SameLine();
  ImGui::TextColored(Muted(), "(0 = no limit)");
  const std::vector<CompareRow> rows = session_.CompareShown();  // the same rows the exports and the CLI give
  ImGui::TextColored(Muted(), "%zu of %zu accelerators shown, ranked in %.2f ms; fewest GPUs (1-%d) that hold the scenario",
                     rows.size(), session_.CompareAll().size(), session_.compare_ms(), kCompareMaxCount);

  static const struct { const char* title; const char* key; } kCols[] = {
      {"GPU", "gpu"},           {"GPUs", "gpus"},        {"max ctx", "max_context"}, {"tok/s/user", "tokens_per_s_user"},
      {"tok/s total", "tokens_per_s_total"}, {"TTFT", "ttft_s"}, {"$/1M out", "usd_per_m_output"},
      {"upfront $", "upfront_usd"}, {"W", "watts"},
  };
  const int ncols = static_cast<int>(std::size(kCols)) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_Hideable;
  if (!ImGui::BeginTable("compare", ncols, flags, ImVec2(0, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 3)))
    return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const auto& c : kCols) {
    ImGuiTableColumnFlags cf = c.key == session_.view().sort ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (std::string(c.key) == "gpu") cf |= ImGuiTableColumnFlags_WidthStretch;
    ImGui::TableSetupColumn(c.title, cf);
  }
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_NoSort | ImGuiTableColumnFlags_DefaultHide);
  // Headers one by one, so each reports its rectangle (tests click them to sort).
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ncols; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (c < static_cast<int>(std::size(kCols))) Track((std::string("compare-col:") + kCols[c].key).c_str());
  }
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty && specs->SpecsCount > 0) {
      const int col = specs->Specs[0].ColumnIndex;
      if (col >= 0 && col < static_cast<int>(std::size(kCols)) && session_.view().sort != kCols[col].key) Edit("sort", kCols[col].key);
      specs->SpecsDirty = false;
    }
  }
  for (const CompareRow& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable((r.name + "##" + r.gpu).c_str(), r.gpu == scenario_.gpu, ImGuiSelectableFlags_SpanAllColumns) &&
        r.fits) {
      Edit("gpu", r.gpu);
      Edit("tp", std::to_string(r.gpus / std::max(1, scenario_.pp)));
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n%s%s", r.name.c_str(), r.note.c_str(),
                        r.fits ? ("\nClick: use " + std::to_string(r.gpus) + " x " + r.gpu + " in the scenario").c_str() : "");
    ImGui::TableNextColumn();
    ImGui::Text("%d", r.gpus);
    ItemTip("the fewest GPUs (tensor parallel x pipeline stages) that hold the weights, the KV cache of the batch and "
            "the fixed terms within the engine's cap");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.fits ? FormatCount(r.max_context).c_str() : "-");
    ItemTip("the longest context whose KV cache fits beside the weights at the scenario's batch, at most the model's window");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.tokens_per_s_user > 0 ? Tps(r.tokens_per_s_user).c_str() : "-");
    ItemTip("1 / decode step (max(bytes / bandwidth, FLOPs / peak) + serial terms); the Speed panel shows the terms");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.tokens_per_s_total > 0 ? Tps(r.tokens_per_s_total).c_str() : "-");
    ItemTip("per user x batch " + std::to_string(scenario_.batch));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.ttft_s > 0 ? FormatSeconds(r.ttft_s).c_str() : "-");
    ItemTip("prefill of one prompt + one decode step");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.usd_per_m_output > 0 ? (FormatFixed(r.usd_per_m_output, 3) + " " + r.price_basis).c_str() : "-");
    ItemTip("$ per GPU-hour x GPUs / (tok/s in all x 3,600 s) x 10^6 (" + r.price_basis + ")");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.upfront_usd > 0 ? FormatCount(static_cast<long long>(r.upfront_usd)).c_str() : "-");
    ItemTip("the catalog's latest purchase price x GPUs");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.watts > 0 ? FormatCount(static_cast<long long>(r.watts)).c_str() : "-");
    ItemTip("board power (TDP) x GPUs");
    ImGui::TableNextColumn();
    ImGui::TextColored(Muted(), "%s", r.note.c_str());
  }
  ImGui::EndTable();
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", ViewCliCommand(*FindView("compare"), session_).c_str());
}

}  // namespace gpuplan::ui
