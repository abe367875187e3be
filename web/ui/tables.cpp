#include <algorithm>
#include "tables.h"
#include "theme.h"

#include <imgui.h>

#include "gpuplan/units.h"

namespace gpuplan::ui {

void ItemTip(const std::string& text) {
  if (text.empty() || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void BytesTable(const char* id, const std::string& first_column, const std::vector<BytesRow>& rows) {
  // Narrow (a phone, a small iframe): "how" goes under each term's name, so the words get the
  // width that a fourth column would squeeze to a few characters.
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 40.0f;
  if (!ImGui::BeginTable(id, narrow ? 3 : 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn(first_column.c_str(), narrow ? ImGuiTableColumnFlags_WidthStretch : 0);
  ImGui::TableSetupColumn("GiB");
  ImGui::TableSetupColumn("GB");
  if (!narrow) ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const BytesRow& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.name.c_str());
    if (narrow) {
      ImGui::PushStyleColor(ImGuiCol_Text, Muted());
      ImGui::TextWrapped("%s", r.how.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatFixed(r.bytes / kGiB, 2).c_str());
    ItemTip(r.name + " = " + r.how + "\n= " + FormatShort(r.bytes, 6) + " bytes / 2^30 = " + FormatFixed(r.bytes / kGiB, 4) + " GiB");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatFixed(r.bytes / kGB, 2).c_str());
    ItemTip(r.name + " = " + r.how + "\n= " + FormatShort(r.bytes, 6) + " bytes / 10^9 = " + FormatFixed(r.bytes / kGB, 4) + " GB");
    if (narrow) continue;
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", r.how.c_str());
  }
  ImGui::EndTable();
}

void RecordsTable(const char* id, const Records& r) {
  if (r.cols.empty() || !ImGui::BeginTable(id, static_cast<int>(r.cols.size()),
                                           ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  for (size_t c = 0; c < r.cols.size(); ++c)
    ImGui::TableSetupColumn(r.cols[c].title.c_str(), c + 1 == r.cols.size() && !r.cols[c].right ? ImGuiTableColumnFlags_WidthStretch : 0);
  ImGui::TableHeadersRow();
  for (const std::vector<Cell>& row : r.rows) {
    ImGui::TableNextRow();
    for (size_t c = 0; c < row.size() && c < r.cols.size(); ++c) {
      ImGui::TableNextColumn();
      const std::string& t = row[c].kind == Cell::Kind::kUnknown ? std::string("-") : row[c].text;
      if (r.cols[c].right) {
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetColumnWidth() - w));
      }
      if (c + 1 == r.cols.size()) ImGui::TextWrapped("%s", t.c_str());
      else ImGui::TextUnformatted(t.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace gpuplan::ui
