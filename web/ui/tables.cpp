#include "tables.h"

#include <imgui.h>

#include "gpuplan/units.h"

namespace gpuplan::ui {

void BytesTable(const char* id, const std::string& first_column, const std::vector<BytesRow>& rows) {
  if (!ImGui::BeginTable(id, 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn(first_column.c_str());
  ImGui::TableSetupColumn("GiB");
  ImGui::TableSetupColumn("GB");
  ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const BytesRow& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatFixed(r.bytes / kGiB, 2).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatFixed(r.bytes / kGB, 2).c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", r.how.c_str());
  }
  ImGui::EndTable();
}

}  // namespace gpuplan::ui
