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
