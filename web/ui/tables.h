// web/ui/tables.h — tables of records (records.h): the rows the CLI prints, on the page.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/records.h"

namespace gpuplan::ui {

// The formula and terms behind the number just drawn, shown when the mouse is over it (or
// the keyboard's focus is on it).
void ItemTip(const std::string& text);

// Any records (records.h) as a table: the cells' text, numbers right-aligned, the last text
// column wrapping. The generic panel of a view without one of its own.
void RecordsTable(const char* id, const Records& r);

}  // namespace gpuplan::ui
