// web/ui/tables.h — the byte-breakdown table every memory panel shows (a name, GiB and GB side
// by side, never mixed, and how the figure was computed), and any records as a table.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/records.h"

namespace gpuplan::ui {

struct BytesRow {
  std::string name;
  double bytes = 0;
  std::string how;
};

// The formula and terms behind the number just drawn, shown when the mouse is over it (or
// the keyboard's focus is on it).
void ItemTip(const std::string& text);

void BytesTable(const char* id, const std::string& first_column, const std::vector<BytesRow>& rows);

// Any records (records.h) as a table: the cells' text, numbers right-aligned, the last text
// column wrapping. The generic panel of a view without one of its own.
void RecordsTable(const char* id, const Records& r);

}  // namespace gpuplan::ui
