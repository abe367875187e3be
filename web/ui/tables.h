// web/ui/tables.h — the byte-breakdown table every memory panel shows: a name, GiB and GB
// side by side (never mixed), and how the figure was computed.
#pragma once

#include <string>
#include <vector>

namespace gpuplan::ui {

struct BytesRow {
  std::string name;
  double bytes = 0;
  std::string how;
};

void BytesTable(const char* id, const std::string& first_column, const std::vector<BytesRow>& rows);

}  // namespace gpuplan::ui
